/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.c - block-I/O capture with the kernel's block tracepoints (the
 * `fslab run --trace` phase hook that uses it is hook.c, the blktrace
 * file writer blkwrite.c).
 *
 * The analysis needs only issues and completions.  For a blktrace stream
 * (TRACE_CAP_QUEUE) the queue side is captured too: block_bio_queue,
 * block_rq_insert, block_bio_backmerge and block_bio_frontmerge, which
 * btt needs to follow an I/O from Q to C (with D and C alone every btt
 * table is empty).  They cost an event or two per bio, so the phase
 * hook leaves them off.
 *
 * Why tracefs and not blktrace: blktrace's debugfs relay interface is
 * refused under lockdown, while the block_rq_* tracepoints are not.  Each
 * capture gets its own tracefs instance ("fslab-<pid>-<n>"), so the
 * global tracing_on and event enables stay untouched and concurrent
 * captures (or other tracers) do not see each other.  The in-kernel event
 * filter keeps only the traced device; dev is the kernel's dev_t,
 * (major << 20) | minor, which is what the format file's print fmt
 * decodes on this kernel.
 *
 * A reader thread drains the instance's per-CPU trace_pipe_raw every
 * READ_PERIOD_MS with tracefs_iterate_raw_events() (which consumes), so
 * a long phase cannot overflow the buffer; the kernel's per-CPU overrun
 * counters tell how many events were lost anyway.  The instance clock is
 * "mono", so event times compare with now_ns().
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "fs/state.h"
#include "trace/blktrace.h"
#include "util/util.h"

#define BUFFER_KB 8192         /* per CPU */
#define READ_PERIOD_MS 50
#define TRACEFS_DIR "/sys/kernel/tracing"

struct blk_fields {
	int id;
	struct tep_format_field *dev, *sector, *nr_sector, *rwbs;
};

struct trace_capture {
	struct tracefs_instance *inst;
	char *name;
	unsigned dev;              /* kernel dev_t encoding */
	pthread_t reader;
	bool reader_up;
	volatile bool stop;
	struct trace_ev *ev;
	size_t nr_ev, alloc_ev;
	struct trace_qev *qev;
	size_t nr_qev, alloc_qev;
	unsigned flags;
	long long missed;
	uint64_t start_ns;
	struct trace_capture *next;
};

static struct tep_handle *tep;
static struct blk_fields f_issue, f_complete;
/* The queue side; id -1 when the kernel lacks the tracepoint. */
static struct blk_fields f_queue[4];
static const char *const queue_events[4] = {
	"block_bio_queue", "block_rq_insert", "block_bio_backmerge",
	"block_bio_frontmerge",
};
static const char queue_action[4] = { 'Q', 'I', 'M', 'F' };
static struct trace_capture *active;
static pthread_mutex_t active_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned seq;
static bool we_mounted;
static int nr_active;

/* Is a tracefs mounted anywhere (then libtracefs finds it)? */
static bool tracefs_mounted(void)
{
	char *s = read_file("/proc/mounts", NULL), *line, *save = NULL;
	bool found = false;

	if (!s)
		return false;
	for (line = strtok_r(s, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char dev[256], dir[4096], type[64];

		if (sscanf(line, "%255s %4095s %63s", dev, dir, type) == 3 &&
		    !strcmp(type, "tracefs"))
			found = true;
	}
	free(s);
	return found;
}

/*
 * Mount tracefs ourselves when nobody has, rather than letting libtracefs
 * do it silently: then we know to unmount it again afterwards.
 */
static int ensure_tracefs(void)
{
	if (we_mounted || tracefs_mounted())
		return 0;
	if (state_record("tracefs-mount", TRACEFS_DIR) < 0)
		return -1;
	if (mount("nodev", TRACEFS_DIR, "tracefs", 0, NULL) < 0) {
		error_errno("cannot mount tracefs on '%s'", TRACEFS_DIR);
		state_done("tracefs-mount", TRACEFS_DIR);
		return -1;
	}
	we_mounted = true;
	return 0;
}

static void release_tracefs(void)
{
	if (!we_mounted || nr_active)
		return;
	/* Busy means another tracer uses it now: theirs to keep. */
	if (umount2(TRACEFS_DIR, 0) < 0 && errno != EBUSY) {
		error_errno("cannot unmount tracefs from '%s'", TRACEFS_DIR);
		return;
	}
	we_mounted = false;
	state_done("tracefs-mount", TRACEFS_DIR);
}

static int find_fields(const char *event, struct blk_fields *f)
{
	struct tep_event *e = tep_find_event_by_name(tep, "block", event);

	if (!e)
		return error("the kernel has no block:%s tracepoint", event);
	f->id = e->id;
	f->dev = tep_find_field(e, "dev");
	f->sector = tep_find_field(e, "sector");
	f->nr_sector = tep_find_field(e, "nr_sector");
	f->rwbs = tep_find_field(e, "rwbs");
	if (!f->dev || !f->sector || !f->nr_sector || !f->rwbs)
		return error("block:%s lacks dev, sector, nr_sector or rwbs",
			     event);
	return 0;
}

static int load_events(void)
{
	static const char *const systems[] = { "block", NULL };

	if (tep)
		return 0;
	tep = tracefs_local_events_system(NULL, systems);
	if (!tep)
		return error("cannot read the block tracepoint formats from "
			     "tracefs");
	if (find_fields("block_rq_issue", &f_issue) < 0 ||
	    find_fields("block_rq_complete", &f_complete) < 0) {
		tep_free(tep);
		tep = NULL;
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(queue_events); i++) {
		struct tep_event *e = tep_find_event_by_name(tep, "block",
							     queue_events[i]);
		struct blk_fields *f = &f_queue[i];

		f->id = -1;
		if (!e)
			continue;
		f->dev = tep_find_field(e, "dev");
		f->sector = tep_find_field(e, "sector");
		f->nr_sector = tep_find_field(e, "nr_sector");
		f->rwbs = tep_find_field(e, "rwbs");
		if (f->dev && f->sector && f->nr_sector && f->rwbs)
			f->id = e->id;
	}
	return 0;
}

/* rwbs as blk_fill_rwbs() writes it: [F]{W,R,D,N}[F][A][S][M]. */
static uint32_t parse_rwbs(const char *s, size_t n)
{
	uint32_t fl = 0;
	size_t i = 0;

	if (i < n && s[i] == 'F') {
		fl |= TRQ_FLUSH;
		i++;
	}
	for (; i < n && s[i]; i++) {
		switch (s[i]) {
		case 'W': fl |= TRQ_WRITE; break;
		case 'R': fl |= TRQ_READ; break;
		case 'D': fl |= TRQ_DISCARD; break;
		case 'F': fl |= TRQ_FLUSH; break;
		case 'S': fl |= TRQ_SYNC; break;
		case 'M': fl |= TRQ_META; break;
		default: break;
		}
	}
	return fl;
}

static int on_event(struct tep_event *e, struct tep_record *rec, int cpu,
		    void *data)
{
	struct trace_capture *tc = data;
	const struct blk_fields *f = NULL;
	unsigned long long dev, sector, nr;
	struct trace_ev *ev;
	int q = -1;

	(void)cpu;
	if (rec->missed_events > 0)
		tc->missed += rec->missed_events;
	if (e->id == f_issue.id)
		f = &f_issue;
	else if (e->id == f_complete.id)
		f = &f_complete;
	for (size_t i = 0; !f && i < ARRAY_SIZE(f_queue); i++)
		if (f_queue[i].id >= 0 && e->id == f_queue[i].id) {
			f = &f_queue[i];
			q = (int)i;
		}
	if (!f)
		return 0;
	if (tep_read_number_field(f->dev, rec->data, &dev) < 0 ||
	    tep_read_number_field(f->sector, rec->data, &sector) < 0 ||
	    tep_read_number_field(f->nr_sector, rec->data, &nr) < 0)
		return 0;
	if (dev != tc->dev)
		return 0;
	if (q >= 0) {
		struct trace_qev *qe;

		ALLOC_GROW(tc->qev, tc->nr_qev + 1, tc->alloc_qev);
		qe = &tc->qev[tc->nr_qev++];
		qe->ts_ns = rec->ts;
		qe->sector = sector;
		qe->nr_sector = (uint32_t)nr;
		qe->flags = parse_rwbs((const char *)rec->data +
				       f->rwbs->offset,
				       (size_t)f->rwbs->size);
		qe->action = queue_action[q];
		return 0;
	}
	ALLOC_GROW(tc->ev, tc->nr_ev + 1, tc->alloc_ev);
	ev = &tc->ev[tc->nr_ev++];
	ev->ts_ns = rec->ts;
	ev->sector = sector;
	ev->nr_sector = (uint32_t)nr;
	ev->flags = parse_rwbs((const char *)rec->data + f->rwbs->offset,
			       (size_t)f->rwbs->size);
	ev->complete = f == &f_complete;
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void *reader_main(void *arg)
{
	struct trace_capture *tc = arg;

	while (!tc->stop) {
		tracefs_iterate_raw_events(tep, tc->inst, NULL, 0, on_event,
					   tc);
		sleep_ms(READ_PERIOD_MS);
	}
	/* The events are disabled now: this drains what is left. */
	tracefs_iterate_raw_events(tep, tc->inst, NULL, 0, on_event, tc);
	return NULL;
}

/* Sum of the per-CPU "overrun" and "dropped events" counters. */
static uint64_t lost_events(struct trace_capture *tc)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t lost = 0;

	for (long c = 0; c < ncpu; c++) {
		char file[64], *s, *p;
		unsigned long long v;

		snprintf(file, sizeof(file), "per_cpu/cpu%ld/stats", c);
		s = tracefs_instance_file_read(tc->inst, file, NULL);
		if (!s)
			continue;
		if ((p = strstr(s, "overrun:")) &&
		    sscanf(p + 8, "%llu", &v) == 1)
			lost += v;
		if ((p = strstr(s, "dropped events:")) &&
		    sscanf(p + 15, "%llu", &v) == 1)
			lost += v;
		free(s);
	}
	return lost;
}

static const char *const events[] = {
	"block_rq_issue", "block_rq_complete",
	/* enabled only with TRACE_CAP_QUEUE (the queue_events) */
	"block_bio_queue", "block_rq_insert", "block_bio_backmerge",
	"block_bio_frontmerge",
};
#define NR_BASE_EVENTS 2

static size_t nr_events(const struct trace_capture *tc)
{
	return tc->flags & TRACE_CAP_QUEUE ? ARRAY_SIZE(events)
					   : NR_BASE_EVENTS;
}

/* Disable, destroy, unjournal.  0 or -1. */
static int destroy_instance(struct trace_capture *tc)
{
	int rc = 0;

	if (!tc->inst)
		return 0;
	for (size_t i = 0; i < nr_events(tc); i++)
		tracefs_event_disable(tc->inst, "block", events[i]);
	if (tracefs_instance_destroy(tc->inst) < 0) {
		rc = error_errno("cannot remove tracefs instance '%s'",
				 tc->name);
	} else {
		state_done("tracefs-instance", tc->name);
	}
	tracefs_instance_free(tc->inst);
	tc->inst = NULL;
	return rc;
}

static void capture_free(struct trace_capture *tc)
{
	free(tc->ev);
	free(tc->qev);
	free(tc->name);
	free(tc);
}

static void unlink_active(struct trace_capture *tc)
{
	struct trace_capture **p;

	pthread_mutex_lock(&active_lock);
	for (p = &active; *p; p = &(*p)->next)
		if (*p == tc) {
			*p = tc->next;
			nr_active--;
			break;
		}
	pthread_mutex_unlock(&active_lock);
}

int trace_capture_start(const char *device, unsigned flags,
			struct trace_capture **out)
{
	struct trace_capture *tc;
	sigset_t all, old;
	struct stat st;
	char filter[64];
	int err;

	*out = NULL;
	if (!is_root())
		return error("block tracing needs root");
	if (stat(device, &st) < 0)
		return error_errno("cannot stat '%s'", device);
	if (!S_ISBLK(st.st_mode))
		return error("'%s' is not a block device", device);
	if (ensure_tracefs() < 0)
		return -1;
	tc = xcalloc(1, sizeof(*tc));
	tc->flags = flags;
	pthread_mutex_lock(&active_lock);
	tc->next = active;
	active = tc;
	nr_active++;
	pthread_mutex_unlock(&active_lock);
	if (load_events() < 0)
		goto fail;
	tc->dev = (major(st.st_rdev) << 20) | minor(st.st_rdev);
	tc->name = xasprintf("fslab-%ld-%u", (long)getpid(), seq++);
	/* Journaled first: a kill -9 from here on leaves a trail. */
	if (state_record("tracefs-instance", tc->name) < 0)
		goto fail;
	tc->inst = tracefs_instance_create(tc->name);
	if (!tc->inst) {
		error_errno("cannot create tracefs instance '%s'", tc->name);
		state_done("tracefs-instance", tc->name);
		goto fail;
	}
	if (!tracefs_instance_is_new(tc->inst)) {
		/* Not ours: never destroy someone else's instance. */
		error("tracefs instance '%s' already exists", tc->name);
		tracefs_instance_free(tc->inst);
		tc->inst = NULL;
		state_done("tracefs-instance", tc->name);
		goto fail;
	}
	if (tracefs_instance_set_buffer_size(tc->inst, BUFFER_KB, -1) < 0)
		warning("cannot size the trace buffer of '%s'", tc->name);
	if (tracefs_instance_file_write(tc->inst, "trace_clock", "mono") < 0) {
		error_errno("cannot set the trace clock of '%s'", tc->name);
		goto fail;
	}
	snprintf(filter, sizeof(filter), "dev == %u", tc->dev);
	for (size_t i = 0; i < nr_events(tc); i++) {
		if (i >= NR_BASE_EVENTS &&
		    f_queue[i - NR_BASE_EVENTS].id < 0) {
			warning("the kernel has no block:%s tracepoint; btt "
				"will miss it", events[i]);
			continue;
		}
		if (tracefs_event_file_write(tc->inst, "block", events[i],
					     "filter", filter) < 0 ||
		    tracefs_event_enable(tc->inst, "block", events[i]) < 0) {
			error_errno("cannot enable block:%s in '%s'",
				    events[i], tc->name);
			goto fail;
		}
	}
	tc->start_ns = now_ns();
	/* Signals go to the main thread: its waits must see EINTR. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&tc->reader, NULL, reader_main, tc);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		error("cannot start the trace reader thread");
		goto fail;
	}
	tc->reader_up = true;
	*out = tc;
	return 0;
fail:
	destroy_instance(tc);
	unlink_active(tc);
	capture_free(tc);
	release_tracefs();
	return -1;
}

int trace_capture_stop(struct trace_capture *tc, struct trace_result *res)
{
	uint64_t end = now_ns(), lost;
	int rc = 0;

	if (res)
		memset(res, 0, sizeof(*res));
	if (!tc)
		return 0;
	for (size_t i = 0; i < nr_events(tc); i++)
		tracefs_event_disable(tc->inst, "block", events[i]);
	if (tc->reader_up) {
		tc->stop = true;
		pthread_join(tc->reader, NULL);
	}
	lost = lost_events(tc) + (uint64_t)tc->missed;
	if (destroy_instance(tc) < 0)
		rc = -1;
	unlink_active(tc);
	release_tracefs();
	if (res) {
		res->rq = trace_pair_events(tc->ev, tc->nr_ev, &res->nr);
		res->lost = lost;
		res->start_ns = tc->start_ns;
		res->end_ns = end;
		res->dev = tc->dev;
		res->qev = tc->qev;
		res->nr_qev = tc->nr_qev;
		tc->qev = NULL;
	}
	capture_free(tc);
	return rc;
}

void trace_result_release(struct trace_result *res)
{
	free(res->rq);
	free(res->qev);
	memset(res, 0, sizeof(*res));
}

int trace_teardown(void)
{
	int rc = 0;

	for (;;) {
		struct trace_capture *tc;

		pthread_mutex_lock(&active_lock);
		tc = active;
		pthread_mutex_unlock(&active_lock);
		if (!tc)
			break;
		if (trace_capture_stop(tc, NULL) < 0)
			rc = -1;
	}
	return rc;
}

/* ---- cleanup of a dead process's leftovers (called by fs/replay.c) ---- */

/*
 * The "tracefs-instance" journal entry's replay (fs/replay.c): remove it if
 * it exists.  1 when it acted (or would), 0 when nothing was left, -1.
 */
static int trace_cleanup_instance(const char *name, int dry_run)
{
	char *path;
	int rc = 0;

	if (strncmp(name, "fslab-", 6) || strchr(name, '/'))
		return error("'%s' is not an fslab tracefs instance; "
			     "leaving it", name);
	if (!tracefs_mounted())
		return 0; /* instances live only in a mounted tracefs */
	path = xasprintf("%s/instances/%s", tracefs_tracing_dir(), name);
	if (access(path, F_OK) < 0) {
		free(path);
		return 0;
	}
	rc = 1;
	if (dry_run) {
		printf("would remove tracefs instance %s\n", name);
	} else if (rmdir(path) < 0) {
		rc = error_errno("cannot remove tracefs instance '%s'", path);
	} else {
		printf("removed tracefs instance %s\n", name);
	}
	free(path);
	return rc;
}

/* The "tracefs-mount" entry: unmount unless in use.  1, 0 or -1 (same). */
static int trace_cleanup_mount(const char *dir, int dry_run)
{
	struct stat st;

	if (stat(dir, &st) < 0 || !tracefs_mounted())
		return 0;
	if (dry_run) {
		printf("would unmount tracefs from %s\n", dir);
		return 1;
	}
	/* Busy: someone mounted-and-uses it since; leave it to them. */
	if (umount2(dir, 0) < 0) {
		if (errno == EBUSY || errno == EINVAL)
			return 0;
		return error_errno("cannot unmount tracefs from '%s'", dir);
	}
	printf("unmounted tracefs from %s\n", dir);
	return 1;
}

static int undo_instance(const struct undo_journal *j,
			 const struct undo_entry *e, bool dry_run, bool verbose)
{
	(void)j;
	(void)verbose;
	return trace_cleanup_instance(e->arg, dry_run);
}

static int undo_tracefs_mount(const struct undo_journal *j,
			      const struct undo_entry *e, bool dry_run,
			      bool verbose)
{
	(void)j;
	(void)verbose;
	if (strcmp(e->arg, TRACEFS_DIR))
		return error("'%s' is not where fslab mounts tracefs; leaving "
			     "it", e->arg);
	return trace_cleanup_mount(e->arg, dry_run);
}

static const struct undo_handler trace_undo[] = {
	{ "tracefs-instance", "tracefs instance", UNDO_NAME, "fslab-", NULL,
	  undo_instance, NULL },
	{ "tracefs-mount", "tracefs mount on", 0, NULL, NULL,
	  undo_tracefs_mount, NULL },
};

void trace_register_undo(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(trace_undo); i++)
		state_register_undo(&trace_undo[i]);
}

