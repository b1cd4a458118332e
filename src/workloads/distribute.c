/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * distribute.c - an afdbench-like file distribution pipeline: the file
 * flow of AFD, the Automatic File Distributor weather services use to
 * move products to many destinations, measured as delivered files/s
 * and MiB/s.
 *
 * Per instance (an independent pipeline) a producer per source
 * directory writes `.name` and renames it to `name`; a scanner takes up
 * to `batch` files per pass into a unique pool directory by rename,
 * hard-links each into one outgoing directory per destination, and
 * removes the pool; per destination `workers` threads deliver each
 * outgoing file into the destination (link, copy or move, through a
 * dot-name and a rename), unlink the outgoing name and remove the
 * emptied outgoing directory.  Threads hand work over through mutex and
 * condition-variable queues, never by polling.
 *
 * In burst mode (as afdbench) the population is written first with the
 * scanners paused (phase `fill`) and the clock starts at release (phase
 * `distribute`); with rate= producers publish open-loop while the
 * pipeline runs.  Phase `verify` then walks every directory and proves
 * that each destination holds exactly the files produced, with the
 * right sizes (see doc/distribute.md).
 */
#include "workloads/distribute.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stats/lathist.h"
#include "util/util.h"
#include "util/verify.h"
#include "workloads/registry.h"

#define NS 1000000000ULL
#define MIB (1024.0 * 1024.0)
#define IOBUF (64 * 1024)
#define TOPDIR "distribute"

/* ---- pure helpers (declared in distribute.h, unit-tested) ---- */

int dist_parse_size(const char *s, uint64_t *min, uint64_t *max, char *err,
		    size_t errlen)
{
	const char *dash = strchr(s, '-');
	char *a;
	int bad;

	if (!dash) {
		if (parse_size(s, min)) {
			snprintf(err, errlen, "'%s' is not a size for 'size'",
				 s);
			return -1;
		}
		*max = *min;
	} else {
		a = xstrndup(s, (size_t)(dash - s));
		bad = parse_size(a, min) || parse_size(dash + 1, max);
		free(a);
		if (bad) {
			snprintf(err, errlen, "'%s' is not a size or a "
				 "range MIN-MAX for 'size'", s);
			return -1;
		}
		if (*min > *max) {
			snprintf(err, errlen, "size range '%s' has its "
				 "minimum above its maximum", s);
			return -1;
		}
	}
	if (*max > DIST_MAX_SIZE) {
		snprintf(err, errlen, "size '%s' is above the 1G limit", s);
		return -1;
	}
	return 0;
}

uint64_t dist_threads(const struct dist_opts *o)
{
	return (uint64_t)o->instances *
	       ((uint64_t)o->sources + 1 + (uint64_t)o->fanout *
		(uint64_t)o->workers);
}

int dist_check(const struct dist_opts *o, char *err, size_t errlen)
{
	uint64_t min, max;

	if (o->files && o->rate) {
		snprintf(err, errlen, "'files' (burst) and 'rate' (open "
			 "loop) are exclusive: set one");
		return -1;
	}
	if (o->fanout < 1 || o->sources < 1 || o->instances < 1 ||
	    o->workers < 1 || o->batch < 1) {
		snprintf(err, errlen, "'fanout', 'sources', 'instances', "
			 "'workers' and 'batch' must be at least 1");
		return -1;
	}
	if (dist_parse_size(o->size ? o->size : "", &min, &max, err,
			    errlen))
		return -1;
	if (dist_threads(o) > DIST_MAX_THREADS) {
		snprintf(err, errlen, "%llu threads (instances x (sources + "
			 "1 + fanout x workers)) is above the limit of %d",
			 (unsigned long long)dist_threads(o),
			 DIST_MAX_THREADS);
		return -1;
	}
	if ((o->rate || o->until == DIST_TIME) && o->timeout < o->duration) {
		snprintf(err, errlen, "'timeout' (%llds) is below "
			 "'duration' (%llds)", o->timeout, o->duration);
		return -1;
	}
	return 0;
}

uint64_t dist_population(const struct dist_opts *o)
{
	if (o->rate)
		return 0;
	return o->files ? (uint64_t)o->files : DIST_DEFAULT_FILES;
}

/* splitmix64: a good 64-bit mix, so sizes need no table. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint64_t dist_file_size(uint64_t seed, unsigned inst, unsigned src,
			uint64_t seq, uint64_t min, uint64_t max)
{
	uint64_t h = mix64(mix64(mix64(seed) ^ inst) ^ ((uint64_t)src << 40)
			   ^ seq);

	if (max <= min)
		return min;
	return min + h % (max - min + 1);
}

void dist_file_name(char *buf, size_t len, unsigned src, uint64_t seq)
{
	snprintf(buf, len, "s%u-%08llu", src, (unsigned long long)seq);
}

int dist_parse_name(const char *name, unsigned *src, uint64_t *seq)
{
	const char *p = name;
	uint64_t s = 0, q = 0;
	size_t digits = 0;

	if (*p++ != 's' || *p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		s = s * 10 + (uint64_t)(*p++ - '0');
		if (s > UINT_MAX)
			return -1;
	}
	if (*p++ != '-')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (q > (UINT64_MAX - 9) / 10)
			return -1;
		q = q * 10 + (uint64_t)(*p - '0');
	}
	if (*p || digits < 8)
		return -1;
	*src = (unsigned)s;
	*seq = q;
	return 0;
}

uint64_t dist_share(uint64_t total, uint64_t parts, uint64_t idx)
{
	if (!parts || idx >= parts)
		return 0;
	return total / parts + (idx < total % parts);
}

uint64_t dist_batches(uint64_t n, uint64_t batch)
{
	return batch ? (n + batch - 1) / batch : 0;
}

uint64_t dist_batch_len(uint64_t n, uint64_t batch, uint64_t i)
{
	if (!batch || i * batch >= n)
		return 0;
	return n - i * batch < batch ? n - i * batch : batch;
}

void dist_ledger_init(struct dist_ledger *l, unsigned nsrc,
		      const uint64_t *produced, unsigned fanout)
{
	uint64_t total;

	l->nsrc = nsrc;
	l->fanout = fanout;
	l->first = xcalloc(nsrc + 1, sizeof(*l->first));
	for (unsigned s = 0; s < nsrc; s++)
		l->first[s + 1] = l->first[s] + produced[s];
	total = l->first[nsrc];
	l->dst = xcalloc((size_t)(total * fanout) + 1, 1);
	l->out = xcalloc((size_t)(total * fanout) + 1, 1);
	l->up = xcalloc((size_t)total + 1, 1);
}

void dist_ledger_release(struct dist_ledger *l)
{
	free(l->first);
	free(l->dst);
	free(l->out);
	free(l->up);
	memset(l, 0, sizeof(*l));
}

static void count_up(uint8_t *c)
{
	if (*c < UINT8_MAX)
		(*c)++;
}

int dist_ledger_mark(struct dist_ledger *l, enum dist_loc loc,
		     unsigned dest, unsigned src, uint64_t seq)
{
	uint64_t total = l->first[l->nsrc], idx;

	if (src >= l->nsrc || seq >= l->first[src + 1] - l->first[src] ||
	    (loc != DIST_LOC_UP && dest >= l->fanout))
		return -1;
	idx = l->first[src] + seq;
	switch (loc) {
	case DIST_LOC_DST:
		count_up(&l->dst[dest * total + idx]);
		break;
	case DIST_LOC_OUT:
		count_up(&l->out[dest * total + idx]);
		break;
	case DIST_LOC_UP:
		count_up(&l->up[idx]);
		break;
	}
	return 0;
}

void dist_ledger_check(const struct dist_ledger *l, bool drained,
		       struct dist_verdict *v)
{
	uint64_t total = l->first[l->nsrc];

	memset(v, 0, sizeof(*v));
	v->expected = total * l->fanout;
	for (unsigned d = 0; d < l->fanout; d++) {
		for (unsigned s = 0; s < l->nsrc; s++) {
			for (uint64_t i = l->first[s]; i < l->first[s + 1];
			     i++) {
				unsigned nd = l->dst[d * total + i];
				unsigned n = nd + l->out[d * total + i] +
					     l->up[i];
				enum dist_flaw f = DIST_OK;

				if (!n) {
					v->lost++;
					f = DIST_LOST;
				} else if (n > 1) {
					v->duplicated++;
					f = DIST_DUPLICATE;
				} else if (nd) {
					v->delivered++;
				} else {
					v->backlog++;
					if (drained)
						f = DIST_LEFT;
				}
				if (f != DIST_OK && v->flaw == DIST_OK) {
					v->flaw = f;
					v->flaw_dest = d;
					v->flaw_src = s;
					v->flaw_seq = i - l->first[s];
				}
			}
		}
	}
}

void dist_intervals_init(struct dist_intervals *iv)
{
	memset(iv, 0, sizeof(*iv));
	iv->ticks_per_slot = 1;
}

void dist_intervals_tick(struct dist_intervals *iv, double secs,
			 uint64_t delivered, uint64_t source, uint64_t pool,
			 uint64_t outgoing)
{
	struct dist_slot *s;

	if (!iv->nr || iv->ticks >= iv->ticks_per_slot) {
		if (iv->nr == DIST_MAX_INTERVALS) {
			/* merge pairs: sums add, backlog is the later one */
			for (size_t i = 0; i < iv->nr / 2; i++) {
				struct dist_slot a = iv->v[2 * i];
				struct dist_slot b = iv->v[2 * i + 1];

				b.secs += a.secs;
				b.delivered += a.delivered;
				iv->v[i] = b;
			}
			iv->nr /= 2;
			iv->ticks_per_slot *= 2;
		}
		iv->v[iv->nr++] = (struct dist_slot){ 0 };
		iv->ticks = 0;
	}
	s = &iv->v[iv->nr - 1];
	s->secs += secs;
	s->delivered += delivered;
	s->source = source;
	s->pool = pool;
	s->outgoing = outgoing;
	iv->ticks++;
}

/* ---- options ---- */

static const struct opt_enum deliver_values[] = {
	{ "link", DIST_LINK, "hard link into the destination (AFD's "
	  "default for local targets)" },
	{ "copy", DIST_COPY, "copy the data into a new file" },
	{ "move", DIST_MOVE, "rename the outgoing name into place" },
	{ NULL, 0, NULL },
};

static const struct opt_enum fsync_values[] = {
	{ "none", DIST_FSYNC_NONE, "never (AFD's default)" },
	{ "file", DIST_FSYNC_FILE, "fsync each written file before its "
	  "rename, and the destination directory after each delivery" },
	{ "batch", DIST_FSYNC_BATCH, "one syncfs() per delivered batch" },
	{ NULL, 0, NULL },
};

static const struct opt_enum until_values[] = {
	{ "drained", DIST_DRAINED, "stop when every file is delivered" },
	{ "time", DIST_TIME, "stop after 'duration' seconds" },
	{ NULL, 0, NULL },
};

#define OFF(f) offsetof(struct dist_opts, f)
static const struct opt dist_opt_table[] = {
	{ "sources", OPT_INT, OFF(sources), "1",
	  "source directories per instance, one producer each", 1, 1000,
	  NULL },
	{ "fanout", OPT_INT, OFF(fanout), "2", "destinations per file",
	  1, 1000, NULL },
	{ "instances", OPT_INT, OFF(instances), "1",
	  "independent pipelines", 1, 256, NULL },
	{ "files", OPT_INT, OFF(files), "0",
	  "burst population over all producers (0: 10000 unless rate)",
	  0, 100000000, NULL },
	{ "rate", OPT_INT, OFF(rate), "0",
	  "open-loop production, files/s over all producers (0: burst)",
	  0, 10000000, NULL },
	{ "size", OPT_STRING, OFF(size), "1k-5k",
	  "file size, fixed or uniform MIN-MAX (mean 3 KiB, as afdbench)",
	  0, 0, NULL },
	{ "batch", OPT_INT, OFF(batch), "100",
	  "files the scanner takes per pass", 1, 1000000, NULL },
	{ "deliver", OPT_ENUM, OFF(deliver), "link", "delivery method",
	  0, 0, deliver_values },
	{ "workers", OPT_INT, OFF(workers), "1",
	  "delivery threads per destination", 1, 256, NULL },
	{ "fsync", OPT_ENUM, OFF(fsync), "none", "durability", 0, 0,
	  fsync_values },
	{ "until", OPT_ENUM, OFF(until), "drained", "when to stop", 0, 0,
	  until_values },
	{ "duration", OPT_INT, OFF(duration), "10",
	  "seconds: production time with rate, run time with until=time",
	  1, 86400, NULL },
	{ "timeout", OPT_INT, OFF(timeout), "600",
	  "seconds: hard limit on the distribute phase (a failure when "
	  "not drained by then)", 1, 864000, NULL },
	{ "seed", OPT_INT, OFF(seed), "0",
	  "file size draws (0: the run seed)", 0, LLONG_MAX, NULL },
	OPT_END,
};

static const char *const dist_phase_names[] = {
	"fill", "distribute", "verify", NULL,
};

/* ---- the run ---- */

struct dist_item {
	unsigned src;
	uint64_t seq, size, pub_ns;
};

/* One outgoing directory: a scanner pass for one destination. */
struct dist_job {
	struct dist_job *next;
	uint64_t pass;
	size_t nr;
	struct dist_item items[];
};

struct dist_queue {
	pthread_mutex_t mu;
	pthread_cond_t cond;
	struct dist_job *head, *tail;
	bool closed;           /* the scanner is done */
};

struct dist_run;

struct dist_inst {
	struct dist_run *r;
	unsigned idx;
	int dir_fd, pool_fd, out_fd;
	int *src_fd, *dst_fd;
	/* publication, under mu: the scanner waits on cond */
	pthread_mutex_t mu;
	pthread_cond_t cond;
	uint64_t *cap;          /* per source: slots in pub_ns */
	/* per source, per seq: publish time; read by the scanner */
	_Atomic uint64_t **pub_ns;
	uint64_t *produced;     /* per source */
	uint64_t published, scanned;
	unsigned producers_left;
	struct dist_queue *q;   /* per destination */
	uint64_t pass;
};

enum dist_role { ROLE_DELIVER, ROLE_SCAN, ROLE_PRODUCE };

struct dist_thread {
	struct dist_run *r;
	struct dist_inst *in;
	enum dist_role role;
	unsigned src, dest;     /* producer's source, deliverer's dest */
	int worker;             /* phase_worker() index */
	pthread_t th;
	bool started;
	uint64_t start_rt, end_rt, bytes, files, ops;
	struct lathist *hist;   /* deliverers */
	char *buf;
};

struct dist_run {
	struct wl_ctx *ctx;
	const struct dist_opts *o;
	unsigned ninst, nsrc, fanout;
	uint64_t min_size, max_size, seed;
	bool burst;
	uint64_t release_ns;    /* monotonic: latency origin in burst mode */
	uint64_t prod_start_ns, prod_end_ns; /* rate mode schedule */
	struct dist_inst *inst;
	struct dist_thread *th;
	size_t nr_th;
	/* counters for the interval sampler, over all instances */
	_Atomic uint64_t c_published, c_scanned, c_pool, c_out, c_delivered;
	atomic_bool stop;
	/* thread exits and the first error, under mu */
	pthread_mutex_t mu;
	pthread_cond_t cond;
	unsigned running;
	char *err;
	char buf[IOBUF];        /* file contents */
	bool verify;            /* --verify: util/verify.h data */
};

static bool stopping(struct dist_run *r)
{
	return atomic_load(&r->stop) || phase_stop_requested();
}

/* Wake every thread that may sleep, so they see the stop flag. */
static void wake_all(struct dist_run *r)
{
	for (unsigned i = 0; i < r->ninst; i++) {
		struct dist_inst *in = &r->inst[i];

		pthread_mutex_lock(&in->mu);
		pthread_cond_broadcast(&in->cond);
		pthread_mutex_unlock(&in->mu);
		for (unsigned d = 0; d < r->fanout; d++) {
			pthread_mutex_lock(&in->q[d].mu);
			pthread_cond_broadcast(&in->q[d].cond);
			pthread_mutex_unlock(&in->q[d].mu);
		}
	}
}

static void request_stop(struct dist_run *r)
{
	atomic_store(&r->stop, true);
	wake_all(r);
}

/* A thread failed: keep the first reason, stop everyone. */
static void PRINTF(2, 3) thread_fail(struct dist_run *r, const char *fmt,
				     ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&r->mu);
	if (!r->err)
		r->err = xstrdup(msg);
	pthread_mutex_unlock(&r->mu);
	request_stop(r);
}

static void pass_name(char *buf, size_t len, uint64_t pass, int dest)
{
	if (dest < 0)
		snprintf(buf, len, "%llu", (unsigned long long)pass);
	else
		snprintf(buf, len, "%llu.%d", (unsigned long long)pass, dest);
}

/* Sleep until the monotonic time t, in slices so a stop is seen. */
static void sleep_until(struct dist_run *r, uint64_t t)
{
	for (;;) {
		uint64_t now = now_ns(), until;
		struct timespec ts;

		if (now >= t || stopping(r))
			return;
		until = t - now > NS / 10 ? now + NS / 10 : t;
		ts.tv_sec = (time_t)(until / NS);
		ts.tv_nsec = (long)(until % NS);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/*
 * --verify file id: "i<instance>/<name>".  A file keeps its name through
 * the pool, the outgoing directories and the destinations (links, copies
 * and renames), so every copy of it carries the same pattern.
 */
static uint64_t dist_vid(unsigned inst, const char *name, char *rel,
			 size_t len)
{
	snprintf(rel, len, "i%u/%s", inst, name);
	return verify_file_id(rel);
}

/* Write one file as `.name`, then rename it to `name`. */
static int produce_one(struct dist_thread *t, uint64_t seq)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	int sfd = in->src_fd[t->src], fd;
	uint64_t size = dist_file_size(r->seed, in->idx, t->src, seq,
				       r->min_size, r->max_size), left;
	char name[32], dot[40], rel[300];
	uint64_t vid = 0;
	const char *buf = r->buf;

	dist_file_name(name, sizeof(name), t->src, seq);
	if (r->verify) {
		vid = dist_vid(in->idx, name, rel, sizeof(rel));
		buf = t->buf;
	}
	snprintf(dot, sizeof(dot), ".%s", name);
	fd = openat(sfd, dot, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		goto fail;
	for (left = size; left;) {
		size_t n = left < IOBUF ? (size_t)left : IOBUF;

		if (r->verify)
			verify_fill(r->ctx->seed, vid, size - left, t->buf, n);
		if (write_full(fd, buf, n))
			goto fail_close;
		left -= n;
	}
	if (r->o->fsync == DIST_FSYNC_FILE && fsync(fd))
		goto fail_close;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	/* stored before the rename: the scanner may see the name at once */
	atomic_store(&in->pub_ns[t->src][seq], now_ns());
	if (renameat(sfd, dot, sfd, name))
		goto fail;
	t->bytes += size;
	t->files++;
	t->ops += 2;
	pthread_mutex_lock(&in->mu);
	in->produced[t->src] = seq + 1;
	in->published++;
	pthread_cond_signal(&in->cond);
	pthread_mutex_unlock(&in->mu);
	atomic_fetch_add(&r->c_published, 1);
	return 0;
fail_close:
	close(fd);
fail:
	thread_fail(r, "cannot produce '%s/i%u/s%u/%s': %s", r->ctx->dir,
		    in->idx, t->src, name, strerror(errno));
	return -1;
}

static void producer(struct dist_thread *t)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	uint64_t cap = in->cap[t->src];
	/* open loop: file k is due at k / rate after the start */
	double per = r->burst ? 0 : (double)r->o->rate /
				    (double)(r->ninst * r->nsrc);

	for (uint64_t seq = 0; seq < cap && !stopping(r); seq++) {
		if (!r->burst) {
			uint64_t due = r->prod_start_ns +
				       (uint64_t)((double)seq * 1e9 / per);

			if (due >= r->prod_end_ns)
				break;
			sleep_until(r, due);
			if (stopping(r))
				break;
		}
		if (produce_one(t, seq))
			break;
	}
	pthread_mutex_lock(&in->mu);
	in->producers_left--;
	pthread_cond_broadcast(&in->cond);
	pthread_mutex_unlock(&in->mu);
}

static void queue_push(struct dist_queue *q, struct dist_job *j)
{
	pthread_mutex_lock(&q->mu);
	j->next = NULL;
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->mu);
}

/* Collect up to batch published names from one source directory. */
static size_t scan_dir(struct dist_thread *t, unsigned s,
		       struct dist_item *items, size_t batch)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	int fd = openat(in->src_fd[s], ".", O_RDONLY | O_DIRECTORY |
			O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	size_t n = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		thread_fail(r, "cannot open '%s/%s/i%u/s%u': %s", r->ctx->dir,
			    TOPDIR, in->idx, s, strerror(errno));
		return (size_t)-1;
	}
	while (n < batch && (de = readdir(d))) {
		struct dist_item *it = &items[n];
		struct stat sb;

		if (de->d_name[0] == '.')
			continue;     /* ".", ".." and files being written */
		if (dist_parse_name(de->d_name, &it->src, &it->seq) ||
		    it->src != s) {
			closedir(d);
			thread_fail(r, "unexpected file '%s' in "
				    "'%s/%s/i%u/s%u'", de->d_name,
				    r->ctx->dir, TOPDIR, in->idx, s);
			return (size_t)-1;
		}
		/* AFD stats what it takes: its size goes into the job */
		if (fstatat(in->src_fd[s], de->d_name, &sb, 0)) {
			closedir(d);
			thread_fail(r, "cannot stat '%s/%s/i%u/s%u/%s': %s",
				    r->ctx->dir, TOPDIR, in->idx, s,
				    de->d_name, strerror(errno));
			return (size_t)-1;
		}
		it->size = (uint64_t)sb.st_size;
		it->pub_ns = atomic_load(&in->pub_ns[s][it->seq]);
		if (it->pub_ns < r->release_ns)
			it->pub_ns = r->release_ns;
		t->ops++;
		n++;
	}
	closedir(d);
	return n;
}

/*
 * One scanner pass: rename the files into a new pool directory, link
 * them into one outgoing directory per destination, hand each outgoing
 * directory to its destination's queue, empty and remove the pool.
 * A pass is never cut short, so a stop leaves no file in a pool.
 */
static int scan_pass(struct dist_thread *t, unsigned s,
		     struct dist_item *items, size_t n)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	uint64_t pass = ++in->pass;
	char pname[32], oname[48], name[32];
	const char *what = "create pool";
	int pfd = -1, ofd = -1;

	pass_name(pname, sizeof(pname), pass, -1);
	if (mkdirat(in->pool_fd, pname, 0755))
		goto fail;
	pfd = openat(in->pool_fd, pname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		goto fail;
	what = "move into pool";
	for (size_t i = 0; i < n; i++) {
		dist_file_name(name, sizeof(name), s, items[i].seq);
		if (renameat(in->src_fd[s], name, pfd, name))
			goto fail;
		t->ops++;
	}
	atomic_fetch_add(&r->c_pool, n);
	atomic_fetch_add(&r->c_scanned, n);
	pthread_mutex_lock(&in->mu);
	in->scanned += n;
	pthread_mutex_unlock(&in->mu);
	for (unsigned d = 0; d < r->fanout; d++) {
		struct dist_job *j;

		what = "create outgoing";
		pass_name(oname, sizeof(oname), pass, (int)d);
		if (mkdirat(in->out_fd, oname, 0755))
			goto fail;
		ofd = openat(in->out_fd, oname,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (ofd < 0)
			goto fail;
		what = "link into outgoing";
		for (size_t i = 0; i < n; i++) {
			dist_file_name(name, sizeof(name), s, items[i].seq);
			if (linkat(pfd, name, ofd, name, 0))
				goto fail;
			t->ops++;
		}
		close(ofd);
		ofd = -1;
		atomic_fetch_add(&r->c_out, n);
		j = xmalloc(sizeof(*j) + n * sizeof(j->items[0]));
		j->pass = pass;
		j->nr = n;
		memcpy(j->items, items, n * sizeof(items[0]));
		queue_push(&in->q[d], j);
	}
	what = "empty pool";
	for (size_t i = 0; i < n; i++) {
		dist_file_name(name, sizeof(name), s, items[i].seq);
		if (unlinkat(pfd, name, 0))
			goto fail;
		t->ops++;
	}
	close(pfd);
	pfd = -1;
	atomic_fetch_sub(&r->c_pool, n);
	what = "remove pool";
	if (unlinkat(in->pool_fd, pname, AT_REMOVEDIR))
		goto fail;
	t->files += n;
	t->ops += 2 + r->fanout;
	return 0;
fail:
	thread_fail(r, "cannot %s (pass %llu of instance %u): %s", what,
		    (unsigned long long)pass, in->idx, strerror(errno));
	if (pfd >= 0)
		close(pfd);
	if (ofd >= 0)
		close(ofd);
	return -1;
}

static void scanner(struct dist_thread *t)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	size_t batch = (size_t)r->o->batch;
	struct dist_item *items = xmalloc(batch * sizeof(*items));
	unsigned s = 0;

	for (;;) {
		size_t got = 0;

		pthread_mutex_lock(&in->mu);
		/*
		 * A file is counted as published after its rename, so a
		 * pass may take files not yet counted: scanned can run
		 * ahead of published, never the other way at the end.
		 */
		while (!stopping(r) && in->published <= in->scanned &&
		       in->producers_left)
			pthread_cond_wait(&in->cond, &in->mu);
		if (stopping(r) || (in->published <= in->scanned &&
				    !in->producers_left)) {
			pthread_mutex_unlock(&in->mu);
			break;
		}
		pthread_mutex_unlock(&in->mu);
		/* one round: one pass per source directory */
		for (unsigned k = 0; k < r->nsrc && !stopping(r); k++) {
			size_t n = scan_dir(t, s, items, batch);

			if (n == (size_t)-1 ||
			    (n && scan_pass(t, s, items, n)))
				goto out;
			got += n;
			s = (s + 1) % r->nsrc;
		}
		/*
		 * A round that starts after a file was counted sees it:
		 * finding none while some are counted means files vanished.
		 */
		if (!got && !stopping(r)) {
			uint64_t missing;

			pthread_mutex_lock(&in->mu);
			missing = in->published > in->scanned ?
				  in->published - in->scanned : 0;
			pthread_mutex_unlock(&in->mu);
			if (missing) {
				thread_fail(r, "instance %u: %llu published "
					    "files are missing from the "
					    "source directories", in->idx,
					    (unsigned long long)missing);
				break;
			}
		}
	}
out:
	free(items);
	for (unsigned d = 0; d < r->fanout; d++) {
		pthread_mutex_lock(&in->q[d].mu);
		in->q[d].closed = true;
		pthread_cond_broadcast(&in->q[d].cond);
		pthread_mutex_unlock(&in->q[d].mu);
	}
}

/*
 * Copy name to dot.  With --verify what is read is checked first: a
 * mismatch fails the run (thread_fail) and returns -2.
 */
static int copy_file(struct dist_thread *t, int from_dir, int to_dir,
		     const char *name, const char *dot)
{
	int in_fd = openat(from_dir, name, O_RDONLY | O_CLOEXEC), out_fd;
	int ret = 0;
	char rel[300];
	uint64_t vid = t->r->verify ? dist_vid(t->in->idx, name, rel,
					       sizeof(rel)) : 0, off = 0;
	struct verify_bad bad;

	if (in_fd < 0)
		return -1;
	out_fd = openat(to_dir, dot, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			0644);
	if (out_fd < 0) {
		close(in_fd);
		return -1;
	}
	for (;;) {
		ssize_t n = read(in_fd, t->buf, IOBUF);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = (int)n;
			break;
		}
		if (t->r->verify &&
		    !verify_check(t->r->ctx->seed, vid, off, t->buf,
				  (size_t)n, &bad)) {
			thread_fail(t->r, "verify: file %s offset %llu: %s "
				    "(copying it to i%u/d%u)", rel,
				    (unsigned long long)bad.block, bad.what,
				    t->in->idx, t->dest);
			ret = -2;
			break;
		}
		off += (uint64_t)n;
		if (write_full(out_fd, t->buf, (size_t)n)) {
			ret = -1;
			break;
		}
	}
	if (!ret && t->r->o->fsync == DIST_FSYNC_FILE && fsync(out_fd))
		ret = -1;
	close(in_fd);
	if (close(out_fd))
		ret = -1;
	return ret;
}

static int deliver_one(struct dist_thread *t, int jfd,
		       const struct dist_item *it)
{
	struct dist_run *r = t->r;
	int dfd = t->in->dst_fd[t->dest];
	char name[32], dot[40];
	const char *what;

	dist_file_name(name, sizeof(name), it->src, it->seq);
	snprintf(dot, sizeof(dot), ".%s", name);
	switch (r->o->deliver) {
	case DIST_MOVE:
		what = "move";
		if (renameat(jfd, name, dfd, name))
			goto fail;
		t->ops++;
		break;
	case DIST_COPY:
		what = "copy";
		switch (copy_file(t, jfd, dfd, name, dot)) {
		case 0:
			goto rename;
		case -2:
			return -1;      /* the mismatch is the error */
		default:
			goto fail;
		}
	default:
		what = "link";
		if (linkat(jfd, name, dfd, dot, 0))
			goto fail;
rename:
		what = "rename";
		if (renameat(dfd, dot, dfd, name))
			goto fail;
		what = "unlink outgoing";
		if (unlinkat(jfd, name, 0))
			goto fail;
		t->ops += 3;
		break;
	}
	if (r->o->fsync == DIST_FSYNC_FILE && fsync(dfd)) {
		what = "fsync destination of";
		goto fail;
	}
	lathist_add(t->hist, now_ns() - it->pub_ns);
	t->bytes += it->size;
	t->files++;
	atomic_fetch_sub(&r->c_out, 1);
	atomic_fetch_add(&r->c_delivered, 1);
	return 0;
fail:
	thread_fail(r, "cannot %s '%s' to '%s/%s/i%u/d%u': %s", what, name,
		    r->ctx->dir, TOPDIR, t->in->idx, t->dest,
		    strerror(errno));
	return -1;
}

static int deliver_job(struct dist_thread *t, const struct dist_job *j)
{
	struct dist_run *r = t->r;
	struct dist_inst *in = t->in;
	char oname[48];
	int jfd;

	pass_name(oname, sizeof(oname), j->pass, (int)t->dest);
	jfd = openat(in->out_fd, oname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (jfd < 0) {
		thread_fail(r, "cannot open outgoing '%s/%s/i%u/out/%s': %s",
			    r->ctx->dir, TOPDIR, in->idx, oname,
			    strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < j->nr; i++) {
		if (stopping(r)) {
			close(jfd);
			return 0;     /* the rest stays outgoing */
		}
		if (deliver_one(t, jfd, &j->items[i])) {
			close(jfd);
			return -1;
		}
	}
	close(jfd);
	if (r->o->fsync == DIST_FSYNC_BATCH && syncfs(in->dst_fd[t->dest])) {
		thread_fail(r, "cannot syncfs '%s': %s", r->ctx->dir,
			    strerror(errno));
		return -1;
	}
	if (unlinkat(in->out_fd, oname, AT_REMOVEDIR)) {
		thread_fail(r, "cannot remove outgoing '%s/%s/i%u/out/%s': "
			    "%s", r->ctx->dir, TOPDIR, in->idx, oname,
			    strerror(errno));
		return -1;
	}
	t->ops++;
	return 0;
}

static void deliverer(struct dist_thread *t)
{
	struct dist_queue *q = &t->in->q[t->dest];

	for (;;) {
		struct dist_job *j;
		int ret;

		pthread_mutex_lock(&q->mu);
		while (!q->head && !q->closed && !stopping(t->r))
			pthread_cond_wait(&q->cond, &q->mu);
		if (stopping(t->r) || !q->head) {
			pthread_mutex_unlock(&q->mu);
			return;
		}
		j = q->head;
		q->head = j->next;
		if (!q->head)
			q->tail = NULL;
		pthread_mutex_unlock(&q->mu);
		ret = deliver_job(t, j);
		free(j);
		if (ret)
			return;
	}
}

static void *thread_main(void *arg)
{
	struct dist_thread *t = arg;
	struct dist_run *r = t->r;

	t->start_rt = realtime_ns();
	switch (t->role) {
	case ROLE_PRODUCE:
		producer(t);
		break;
	case ROLE_SCAN:
		scanner(t);
		break;
	case ROLE_DELIVER:
		deliverer(t);
		break;
	}
	t->end_rt = realtime_ns();
	pthread_mutex_lock(&r->mu);
	r->running--;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

static int start_threads(struct dist_run *r, unsigned roles)
{
	for (size_t i = 0; i < r->nr_th; i++) {
		struct dist_thread *t = &r->th[i];
		int e;

		if (!(roles & (1u << t->role)))
			continue;
		pthread_mutex_lock(&r->mu);
		r->running++;
		pthread_mutex_unlock(&r->mu);
		e = pthread_create(&t->th, NULL, thread_main, t);
		if (e) {
			pthread_mutex_lock(&r->mu);
			r->running--;
			pthread_mutex_unlock(&r->mu);
			errno = e;
			thread_fail(r, "cannot start a thread: %s",
				    strerror(e));
			return -1;
		}
		t->started = true;
	}
	return 0;
}

static void join_threads(struct dist_run *r)
{
	for (size_t i = 0; i < r->nr_th; i++) {
		if (r->th[i].started)
			pthread_join(r->th[i].th, NULL);
		r->th[i].started = false;
	}
}

/* Queued jobs a stop left behind (their files stay outgoing). */
static void drain_queues(struct dist_run *r)
{
	for (unsigned i = 0; i < r->ninst; i++)
		for (unsigned d = 0; d < r->fanout; d++) {
			struct dist_queue *q = &r->inst[i].q[d];

			while (q->head) {
				struct dist_job *j = q->head;

				q->head = j->next;
				free(j);
			}
			q->tail = NULL;
		}
}

/* ---- directories ---- */

/* rm -rf of name inside dfd; ENOENT is success. */
static int rmtree_at(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	struct dirent *de;
	int ret = 0;
	DIR *d;

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno == ENOTDIR || errno == ELOOP)
			return unlinkat(dfd, name, 0);
		return -1;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while (!ret && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN)
			ret = rmtree_at(fd, de->d_name);
		else
			ret = unlinkat(fd, de->d_name, 0);
	}
	closedir(d);
	if (!ret && unlinkat(dfd, name, AT_REMOVEDIR) && errno != ENOENT)
		ret = -1;
	return ret;
}

static int mkdir_open(int dfd, const char *name)
{
	if (mkdirat(dfd, name, 0755) && errno != EEXIST)
		return -1;
	return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static int setup_dirs(struct dist_run *r)
{
	int top, base = open(r->ctx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char name[32];

	if (base < 0)
		return error_errno("cannot open '%s'", r->ctx->dir);
	if (rmtree_at(base, TOPDIR)) {
		error_errno("cannot remove '%s/%s'", r->ctx->dir, TOPDIR);
		close(base);
		return -1;
	}
	top = mkdir_open(base, TOPDIR);
	close(base);
	if (top < 0)
		return error_errno("cannot create '%s/%s'", r->ctx->dir,
				   TOPDIR);
	for (unsigned i = 0; i < r->ninst; i++) {
		struct dist_inst *in = &r->inst[i];

		snprintf(name, sizeof(name), "i%u", i);
		if ((in->dir_fd = mkdir_open(top, name)) < 0 ||
		    (in->pool_fd = mkdir_open(in->dir_fd, "pool")) < 0 ||
		    (in->out_fd = mkdir_open(in->dir_fd, "out")) < 0)
			goto fail;
		for (unsigned s = 0; s < r->nsrc; s++) {
			snprintf(name, sizeof(name), "s%u", s);
			if ((in->src_fd[s] = mkdir_open(in->dir_fd,
							name)) < 0)
				goto fail;
		}
		for (unsigned d = 0; d < r->fanout; d++) {
			snprintf(name, sizeof(name), "d%u", d);
			if ((in->dst_fd[d] = mkdir_open(in->dir_fd,
							name)) < 0)
				goto fail;
		}
	}
	close(top);
	return 0;
fail:
	error_errno("cannot create '%s/%s/i.../%s'", r->ctx->dir, TOPDIR,
		    name);
	close(top);
	return -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* ---- set-up and tear-down of the run state ---- */

static void run_init(struct dist_run *r, struct wl_ctx *ctx,
		     const struct dist_opts *o)
{
	char err[256];
	uint64_t pop = dist_population(o);
	uint64_t nprod = (uint64_t)o->instances * (uint64_t)o->sources;
	size_t k = 0;

	r->ctx = ctx;
	r->o = o;
	r->ninst = (unsigned)o->instances;
	r->nsrc = (unsigned)o->sources;
	r->fanout = (unsigned)o->fanout;
	r->burst = !o->rate;
	r->seed = o->seed ? (uint64_t)o->seed : ctx->seed;
	if (dist_parse_size(o->size, &r->min_size, &r->max_size, err,
			    sizeof(err)))
		BUG("unchecked size: %s", err);
	memset(r->buf, 'd', sizeof(r->buf));
	r->verify = ctx->verify;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cond, NULL);
	r->inst = xcalloc(r->ninst, sizeof(*r->inst));
	r->nr_th = dist_threads(o);
	r->th = xcalloc(r->nr_th, sizeof(*r->th));
	for (unsigned i = 0; i < r->ninst; i++) {
		struct dist_inst *in = &r->inst[i];

		in->r = r;
		in->idx = i;
		in->dir_fd = in->pool_fd = in->out_fd = -1;
		in->src_fd = xmalloc(r->nsrc * sizeof(int));
		in->dst_fd = xmalloc(r->fanout * sizeof(int));
		memset(in->src_fd, -1, r->nsrc * sizeof(int));
		memset(in->dst_fd, -1, r->fanout * sizeof(int));
		pthread_mutex_init(&in->mu, NULL);
		pthread_cond_init(&in->cond, NULL);
		in->cap = xcalloc(r->nsrc, sizeof(*in->cap));
		in->pub_ns = xcalloc(r->nsrc, sizeof(*in->pub_ns));
		in->produced = xcalloc(r->nsrc, sizeof(*in->produced));
		for (unsigned s = 0; s < r->nsrc; s++) {
			uint64_t p = (uint64_t)i * r->nsrc + s;

			/*
			 * The publish table is sized up front (never
			 * reallocated under the scanner): the burst share,
			 * or everything the schedule can emit.
			 */
			in->cap[s] = r->burst ? dist_share(pop, nprod, p) :
				     (uint64_t)ceil((double)o->rate /
						    (double)nprod *
						    (double)o->duration) + 1;
			in->pub_ns[s] = xcalloc(in->cap[s] + 1,
						sizeof(*in->pub_ns[s]));
		}
		in->q = xcalloc(r->fanout, sizeof(*in->q));
		for (unsigned d = 0; d < r->fanout; d++) {
			pthread_mutex_init(&in->q[d].mu, NULL);
			pthread_cond_init(&in->q[d].cond, NULL);
		}
	}
	/* worker numbering: deliverers, then scanners, then producers */
	for (unsigned i = 0; i < r->ninst; i++)
		for (unsigned d = 0; d < r->fanout; d++)
			for (long long w = 0; w < o->workers; w++) {
				struct dist_thread *t = &r->th[k];

				t->role = ROLE_DELIVER;
				t->dest = d;
				t->in = &r->inst[i];
				t->hist = xmalloc(sizeof(*t->hist));
				lathist_init(t->hist);
				t->buf = xmalloc(IOBUF);
				t->worker = (int)k++;
			}
	for (unsigned i = 0; i < r->ninst; i++) {
		r->th[k].role = ROLE_SCAN;
		r->th[k].in = &r->inst[i];
		r->th[k].worker = (int)k;
		k++;
	}
	for (unsigned i = 0; i < r->ninst; i++)
		for (unsigned s = 0; s < r->nsrc; s++) {
			r->th[k].role = ROLE_PRODUCE;
			/* --verify: each producer fills its own buffer */
			if (r->verify)
				r->th[k].buf = xmalloc(IOBUF);
			r->th[k].src = s;
			r->th[k].in = &r->inst[i];
			r->th[k].worker = (int)k;
			k++;
		}
	for (size_t i = 0; i < r->nr_th; i++)
		r->th[i].r = r;
}

static void run_release(struct dist_run *r)
{
	drain_queues(r);
	for (unsigned i = 0; i < r->ninst; i++) {
		struct dist_inst *in = &r->inst[i];

		for (unsigned s = 0; s < r->nsrc; s++) {
			close_fd(&in->src_fd[s]);
			free(in->pub_ns[s]);
		}
		for (unsigned d = 0; d < r->fanout; d++) {
			close_fd(&in->dst_fd[d]);
			pthread_mutex_destroy(&in->q[d].mu);
			pthread_cond_destroy(&in->q[d].cond);
		}
		close_fd(&in->dir_fd);
		close_fd(&in->pool_fd);
		close_fd(&in->out_fd);
		pthread_mutex_destroy(&in->mu);
		pthread_cond_destroy(&in->cond);
		free(in->src_fd);
		free(in->dst_fd);
		free(in->cap);
		free((void *)in->pub_ns);
		free(in->produced);
		free(in->q);
	}
	for (size_t i = 0; i < r->nr_th; i++) {
		free(r->th[i].hist);
		free(r->th[i].buf);
	}
	free(r->th);
	free(r->inst);
	free(r->err);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cond);
}

/* Per-worker rows and the summed work of the threads with these roles. */
static void record_workers(struct dist_run *r, struct phase *ph,
			   unsigned roles, bool work)
{
	for (size_t i = 0; i < r->nr_th; i++) {
		struct dist_thread *t = &r->th[i];

		if (!(roles & (1u << t->role)))
			continue;
		phase_worker(ph, t->worker, t->start_rt, t->end_rt, t->bytes,
			     t->files, t->ops);
		if (work)
			phase_work(ph, t->bytes, t->files, t->ops);
		else
			phase_work(ph, 0, 0, t->ops);
	}
}

/* Take the first thread error: print it once and fail the phase. */
static int check_thread_error(struct dist_run *r, struct phase *ph)
{
	if (!r->err)
		return 0;
	error("%s", r->err);
	phase_fail(ph, "%s", r->err);
	return -1;
}

/* ---- the phases ---- */

static int fill_phase(struct dist_run *r)
{
	struct phase *ph = phase_begin(r->ctx, "fill", NULL);
	const struct phase_rec *rec;
	uint64_t files = 0, bytes = 0;
	int ret;

	fprintf(r->ctx->progress, "distribute: filling %llu files "
		"(scanners paused)\n",
		(unsigned long long)dist_population(r->o));
	for (unsigned i = 0; i < r->ninst; i++)
		r->inst[i].producers_left = r->nsrc;
	ret = start_threads(r, 1u << ROLE_PRODUCE);
	join_threads(r);
	record_workers(r, ph, 1u << ROLE_PRODUCE, true);
	for (size_t i = 0; i < r->nr_th; i++) {
		files += r->th[i].files;
		bytes += r->th[i].bytes;
		r->th[i].bytes = r->th[i].files = r->th[i].ops = 0;
	}
	phase_metric(ph, "produced", (double)files, "files", BETTER_NONE);
	if (check_thread_error(r, ph))
		ret = -1;
	if (phase_end(r->ctx, ph, &rec) < 0)
		return -1;
	if (!ret && !phase_stop_requested())
		fprintf(r->ctx->progress, "distribute: filled %llu files, "
			"%.2f MiB in %.2f s\n", (unsigned long long)files,
			(double)bytes / MIB, (double)rec->m.wall_ns / 1e9);
	return ret;
}

static void sample(struct dist_run *r, uint64_t *src, uint64_t *pool,
		   uint64_t *out, uint64_t *delivered)
{
	uint64_t pub = atomic_load(&r->c_published);
	uint64_t scanned = atomic_load(&r->c_scanned);

	*delivered = atomic_load(&r->c_delivered);
	*pool = atomic_load(&r->c_pool);
	*out = atomic_load(&r->c_out);
	*src = pub > scanned ? pub - scanned : 0;
}

static void ns_to_ts(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / NS);
	ts->tv_nsec = (long)(ns % NS);
}

/*
 * The main thread samples the counters once a second (sleeping on the
 * exit condition in between, so the last thread's exit wakes it) and
 * stops the pipeline at the time limit, the timeout or a signal.
 * Returns true when the timeout fired.
 */
static bool monitor(struct dist_run *r, struct dist_intervals *iv)
{
	uint64_t start = r->release_ns, tick = start, last = 0;
	uint64_t stop_at = UINT64_MAX, hard = start +
		(uint64_t)r->o->timeout * NS;
	bool timed_out = false;

	if (r->o->until == DIST_TIME)
		stop_at = start + (uint64_t)r->o->duration * NS;
	pthread_mutex_lock(&r->mu);
	while (r->running) {
		uint64_t now = now_ns(), next = tick + NS, wake = next;
		struct timespec ts;

		/* once stopped, only the ticks remain to wake for */
		if (!atomic_load(&r->stop) && wake > stop_at)
			wake = stop_at;
		if (!atomic_load(&r->stop) && wake > hard)
			wake = hard;
		if (now < wake) {
			ns_to_ts(wake, &ts);
			pthread_cond_timedwait(&r->cond, &r->mu, &ts);
			now = now_ns();
		}
		if (now >= next && r->running) {
			uint64_t s, p, o, d;

			pthread_mutex_unlock(&r->mu);
			sample(r, &s, &p, &o, &d);
			dist_intervals_tick(iv, (double)(now - tick) / 1e9,
					    d - last, s, p, o);
			fprintf(r->ctx->progress, "%7.1f s %9.1f files/s  "
				"backlog source %llu pool %llu outgoing "
				"%llu\n", (double)(now - start) / 1e9,
				(double)(d - last) * 1e9 / (double)(now - tick),
				(unsigned long long)s, (unsigned long long)p,
				(unsigned long long)o);
			last = d;
			tick = now;
			pthread_mutex_lock(&r->mu);
		}
		if (!atomic_load(&r->stop) &&
		    (now >= stop_at || now >= hard || phase_stop_requested())) {
			timed_out = now >= hard && now < stop_at;
			pthread_mutex_unlock(&r->mu);
			request_stop(r);
			pthread_mutex_lock(&r->mu);
		}
	}
	pthread_mutex_unlock(&r->mu);
	/*
	 * The last partial tick gets its own slot, unless it is a sliver
	 * whose rate would be noise: then it joins the slot before.
	 */
	{
		uint64_t now = now_ns(), s, p, o, d;
		double secs = (double)(now - tick) / 1e9;

		sample(r, &s, &p, &o, &d);
		if (secs >= 0.05 || !iv->nr) {
			dist_intervals_tick(iv, secs, d - last, s, p, o);
		} else {
			struct dist_slot *sl = &iv->v[iv->nr - 1];

			sl->secs += secs;
			sl->delivered += d - last;
			sl->source = s;
			sl->pool = p;
			sl->outgoing = o;
		}
	}
	return timed_out;
}

static void store_intervals(struct phase *ph, const struct dist_intervals *iv)
{
	char name[64];

	phase_metric(ph, "intervals", (double)iv->nr, "intervals",
		     BETTER_NONE);
	phase_metric(ph, "interval_s", (double)iv->ticks_per_slot, "s",
		     BETTER_NONE);
	for (size_t i = 0; i < iv->nr; i++) {
		const struct dist_slot *s = &iv->v[i];

		snprintf(name, sizeof(name), "interval.%zu.files_s", i);
		phase_metric(ph, name, s->secs > 0 ? (double)s->delivered /
			     s->secs : 0, "files/s", BETTER_NONE);
		snprintf(name, sizeof(name), "interval.%zu.s", i);
		phase_metric(ph, name, s->secs, "s", BETTER_NONE);
		snprintf(name, sizeof(name), "interval.%zu.source", i);
		phase_metric(ph, name, (double)s->source, "files",
			     BETTER_NONE);
		snprintf(name, sizeof(name), "interval.%zu.pool", i);
		phase_metric(ph, name, (double)s->pool, "files", BETTER_NONE);
		snprintf(name, sizeof(name), "interval.%zu.outgoing", i);
		phase_metric(ph, name, (double)s->outgoing, "files",
			     BETTER_NONE);
	}
}

static int distribute_phase(struct dist_run *r, bool *drained)
{
	struct phase *ph = phase_begin(r->ctx, "distribute", NULL);
	struct dist_intervals *iv = xmalloc(sizeof(*iv));
	struct lathist h;
	uint64_t produced = 0, delivered = 0, bytes = 0, s, p, o, d;
	unsigned roles = 1u << ROLE_SCAN | 1u << ROLE_DELIVER;
	bool timed_out;
	int ret;

	dist_intervals_init(iv);
	lathist_init(&h);
	r->release_ns = now_ns();
	if (!r->burst) {
		roles |= 1u << ROLE_PRODUCE;
		r->prod_start_ns = r->release_ns;
		r->prod_end_ns = r->release_ns +
				 (uint64_t)r->o->duration * NS;
		for (unsigned i = 0; i < r->ninst; i++)
			r->inst[i].producers_left = r->nsrc;
	}
	ret = start_threads(r, roles);
	timed_out = monitor(r, iv);
	join_threads(r);
	record_workers(r, ph, 1u << ROLE_SCAN | 1u << ROLE_PRODUCE, false);
	record_workers(r, ph, 1u << ROLE_DELIVER, true);
	for (size_t i = 0; i < r->nr_th; i++)
		if (r->th[i].hist)
			lathist_merge(&h, r->th[i].hist);
	for (unsigned i = 0; i < r->ninst; i++)
		for (unsigned k = 0; k < r->nsrc; k++)
			produced += r->inst[i].produced[k];
	for (size_t i = 0; i < r->nr_th; i++)
		if (r->th[i].role == ROLE_DELIVER) {
			delivered += r->th[i].files;
			bytes += r->th[i].bytes;
		}
	sample(r, &s, &p, &o, &d);
	*drained = delivered == produced * r->fanout && !s && !p && !o;

	phase_metric(ph, "produced", (double)produced, "files", BETTER_NONE);
	phase_metric(ph, "fanout", r->fanout, "destinations", BETTER_NONE);
	phase_metric(ph, "instances", r->ninst, "instances", BETTER_NONE);
	phase_metric(ph, "sources", r->nsrc, "sources", BETTER_NONE);
	phase_metric(ph, "expected", (double)(produced * r->fanout),
		     "files", BETTER_NONE);
	phase_metric(ph, "delivered", (double)delivered, "files",
		     BETTER_NONE);
	phase_metric(ph, "delivered_MiB", (double)bytes / MIB, "MiB",
		     BETTER_NONE);
	phase_metric(ph, "drained", *drained, "bool", BETTER_NONE);
	phase_metric(ph, "backlog.source", (double)s, "files", BETTER_NONE);
	phase_metric(ph, "backlog.pool", (double)p, "files", BETTER_NONE);
	phase_metric(ph, "backlog.outgoing", (double)o, "files",
		     BETTER_NONE);
	if (h.count) {
		static const struct { const char *name; double q; } qs[] = {
			{ "latency.p50_ms", 0.50 }, { "latency.p95_ms", 0.95 },
			{ "latency.p99_ms", 0.99 },
		};

		for (size_t i = 0; i < ARRAY_SIZE(qs); i++)
			phase_metric(ph, qs[i].name,
				     (double)lathist_quantile(&h, qs[i].q) /
				     1e6, "ms", BETTER_LOWER);
		phase_metric(ph, "latency.max_ms", (double)h.max / 1e6, "ms",
			     BETTER_LOWER);
		phase_metric(ph, "latency.mean_ms", lathist_mean(&h) / 1e6,
			     "ms", BETTER_LOWER);
	}
	store_intervals(ph, iv);
	free(iv);
	if (check_thread_error(r, ph)) {
		ret = -1;
	} else if (timed_out && r->o->until == DIST_DRAINED) {
		error("not drained after the %llds timeout: %llu of %llu "
		      "deliveries done", r->o->timeout,
		      (unsigned long long)delivered,
		      (unsigned long long)(produced * r->fanout));
		phase_fail(ph, "not drained after the %llds timeout",
			   r->o->timeout);
		ret = -1;
	}
	if (phase_end(r->ctx, ph, NULL) < 0)
		ret = -1;
	return ret;
}

struct verify_state {
	struct dist_run *r;
	struct dist_ledger l;
	struct phase *ph;
	uint64_t files, ops, bad, bytes;
	unsigned inst;
	char *first_bad;        /* the first flaw found while walking */
	char *data_bad;         /* --verify: the first content mismatch */
};

static void PRINTF(2, 3) verify_bad(struct verify_state *v,
				    const char *fmt, ...)
{
	va_list ap;

	v->bad++;
	if (v->first_bad)
		return;
	va_start(ap, fmt);
	if (vasprintf(&v->first_bad, fmt, ap) < 0)
		v->first_bad = xstrdup("verification failed");
	va_end(ap);
}

/*
 * --verify: read one file and check its data.  A mismatch is kept in
 * v->data_bad (the first one) and counted as a flaw; -1 only when the
 * file cannot be read.
 */
static int verify_content(struct verify_state *v, int dfd, const char *rel,
			  const char *name)
{
	struct dist_run *r = v->r;
	struct verify_bad bad;
	char vrel[300];
	uint64_t vid = dist_vid(v->inst, name, vrel, sizeof(vrel)), n = 0;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return error_errno("cannot open '%s/%s/%s/%s'", r->ctx->dir,
				   TOPDIR, rel, name);
	rc = verify_fd(fd, r->ctx->seed, vid, &bad, &n);
	close(fd);
	if (rc < 0)
		return error_errno("cannot read '%s/%s/%s/%s'", r->ctx->dir,
				   TOPDIR, rel, name);
	v->bytes += n;
	if (rc > 0) {
		v->bad++;
		if (!v->data_bad)
			v->data_bad = xasprintf("verify: file %s/%s offset "
						"%llu: %s", rel, name,
						(unsigned long long)bad.block,
						bad.what);
	}
	return 0;
}

/* Walk one directory of files, marking each in the ledger. */
static int verify_dir(struct verify_state *v, int dfd, const char *rel,
		      enum dist_loc loc, unsigned dest, bool check_size)
{
	struct dist_run *r = v->r;
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return error_errno("cannot open '%s/%s/%s'", r->ctx->dir,
				   TOPDIR, rel);
	}
	while ((de = readdir(d))) {
		unsigned src;
		uint64_t seq, want;
		struct stat sb;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		v->files++;
		v->ops++;
		if (dist_parse_name(de->d_name, &src, &seq)) {
			verify_bad(v, "unexpected file '%s/%s' (a partial "
				   "or foreign file)", rel, de->d_name);
			continue;
		}
		if (dist_ledger_mark(&v->l, loc, dest, src, seq)) {
			verify_bad(v, "'%s/%s' was never produced", rel,
				   de->d_name);
			continue;
		}
		if (!check_size)
			continue;
		if (fstatat(dfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW)) {
			closedir(d);
			return error_errno("cannot stat '%s/%s/%s/%s'",
					   r->ctx->dir, TOPDIR, rel,
					   de->d_name);
		}
		want = dist_file_size(r->seed, v->inst, src, seq, r->min_size,
				      r->max_size);
		if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size != want)
			verify_bad(v, "'%s/%s' has %lld bytes, expected %llu",
				   rel, de->d_name, (long long)sb.st_size,
				   (unsigned long long)want);
		else if (r->verify && verify_content(v, dfd, rel, de->d_name))
			return -1;
	}
	closedir(d);
	return 0;
}

/* Every subdirectory of dfd (pool/ or out/), walked with verify_dir. */
static int verify_subdirs(struct verify_state *v, int dfd, const char *rel,
			  enum dist_loc loc)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int ret = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return error_errno("cannot open '%s/%s/%s'", v->r->ctx->dir,
				   TOPDIR, rel);
	}
	while (!ret && (de = readdir(d))) {
		unsigned long long pass;
		unsigned dest = 0;
		char sub[320];
		int n = 0, sfd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", rel, de->d_name);
		if (loc == DIST_LOC_OUT &&
		    (sscanf(de->d_name, "%llu.%u%n", &pass, &dest, &n) != 2 ||
		     de->d_name[n] || dest >= v->r->fanout)) {
			verify_bad(v, "unexpected entry '%s'", sub);
			continue;
		}
		sfd = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY |
			     O_CLOEXEC);
		if (sfd < 0) {
			verify_bad(v, "unexpected entry '%s'", sub);
			continue;
		}
		ret = verify_dir(v, sfd, sub, loc, dest, true);
		close(sfd);
	}
	closedir(d);
	return ret;
}

static int verify_phase(struct dist_run *r, bool drained)
{
	struct phase *ph = phase_begin(r->ctx, "verify", NULL);
	struct verify_state v = { .r = r, .ph = ph };
	uint64_t expected = 0, got = 0, lost = 0, dup = 0, backlog = 0;
	char rel[64];
	int ret = 0;

	for (unsigned i = 0; i < r->ninst && !ret; i++) {
		struct dist_inst *in = &r->inst[i];
		struct dist_verdict vd;

		v.inst = i;
		dist_ledger_init(&v.l, r->nsrc, in->produced, r->fanout);
		for (unsigned s = 0; s < r->nsrc && !ret; s++) {
			snprintf(rel, sizeof(rel), "i%u/s%u", i, s);
			ret = verify_dir(&v, in->src_fd[s], rel, DIST_LOC_UP,
					 0, true);
		}
		snprintf(rel, sizeof(rel), "i%u/pool", i);
		if (!ret)
			ret = verify_subdirs(&v, in->pool_fd, rel,
					     DIST_LOC_UP);
		snprintf(rel, sizeof(rel), "i%u/out", i);
		if (!ret)
			ret = verify_subdirs(&v, in->out_fd, rel,
					     DIST_LOC_OUT);
		for (unsigned d = 0; d < r->fanout && !ret; d++) {
			snprintf(rel, sizeof(rel), "i%u/d%u", i, d);
			ret = verify_dir(&v, in->dst_fd[d], rel,
					 DIST_LOC_DST, d, true);
		}
		dist_ledger_check(&v.l, drained, &vd);
		dist_ledger_release(&v.l);
		expected += vd.expected;
		got += vd.delivered;
		lost += vd.lost;
		dup += vd.duplicated;
		backlog += vd.backlog;
		if (!ret && !dist_verdict_ok(&vd)) {
			char name[32];

			dist_file_name(name, sizeof(name), vd.flaw_src,
				       vd.flaw_seq);
			verify_bad(&v, "file '%s' %s for destination "
				   "'i%u/d%u'", name,
				   vd.flaw == DIST_LOST ? "was lost" :
				   vd.flaw == DIST_DUPLICATE ?
				   "was found twice" :
				   "was left in a source, pool or "
				   "outgoing directory", i, vd.flaw_dest);
		}
	}
	phase_work(ph, v.bytes, v.files, v.ops);
	phase_metric(ph, "expected", (double)expected, "files", BETTER_NONE);
	phase_metric(ph, "verified", (double)got, "files", BETTER_NONE);
	phase_metric(ph, "backlog", (double)backlog, "files", BETTER_NONE);
	phase_metric(ph, "lost", (double)lost, "files", BETTER_LOWER);
	phase_metric(ph, "duplicated", (double)dup, "files", BETTER_LOWER);
	phase_metric(ph, "flaws", (double)v.bad, "files", BETTER_LOWER);
	phase_metric(ph, "drained", drained, "bool", BETTER_NONE);
	phase_metric(ph, "ok", !ret && !v.bad, "bool", BETTER_HIGHER);
	if (!ret && v.data_bad) {
		error("%s", v.data_bad);
		phase_fail(ph, "%s", v.data_bad);
		ret = -1;
	} else if (!ret && v.bad) {
		error("distribute accounting failed: %s (%llu flaws)",
		      v.first_bad, (unsigned long long)v.bad);
		phase_fail(ph, "accounting failed: %s", v.first_bad);
		ret = -1;
	} else if (ret) {
		phase_fail(ph, "cannot walk the distribution directories");
	}
	free(v.first_bad);
	free(v.data_bad);
	if (phase_end(r->ctx, ph, NULL) < 0)
		ret = -1;
	return ret;
}

static int dist_run_fn(struct wl_ctx *ctx, const void *vopts)
{
	const struct dist_opts *o = vopts;
	struct dist_run *r = xcalloc(1, sizeof(*r));
	bool drained = false;
	int ret, base;

	run_init(r, ctx, o);
	fprintf(ctx->progress, "distribute: %u instance(s), %u source(s), "
		"fanout %u, %s, deliver=%s, in %s/%s\n", r->ninst, r->nsrc,
		r->fanout, r->burst ? "burst" : "open loop",
		deliver_values[o->deliver].name, ctx->dir, TOPDIR);
	ret = setup_dirs(r);
	if (!ret && r->burst)
		ret = fill_phase(r);
	if (!ret && !phase_stop_requested())
		ret = distribute_phase(r, &drained);
	if (!ret && !phase_stop_requested())
		ret = verify_phase(r, drained && o->until == DIST_DRAINED);
	run_release(r);
	free(r);
	/* keep the evidence of a failure; otherwise leave the fs clean */
	if (!ret && !phase_stop_requested()) {
		base = open(ctx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (base < 0 || rmtree_at(base, TOPDIR))
			warning("cannot remove '%s/%s': %s", ctx->dir, TOPDIR,
				strerror(errno));
		if (base >= 0)
			close(base);
	}
	return ret;
}

static int dist_check_fn(const void *vopts, char *err, size_t errlen)
{
	return dist_check(vopts, err, errlen);
}

/* ---- report, from the stored phases only ---- */

static const struct phase_rec *find_phase(const struct wlrun_rec *wr,
					  const char *name)
{
	for (size_t i = 0; i < wr->nr_phases; i++)
		if (!strcmp(wr->phases[i].name, name))
			return &wr->phases[i];
	return NULL;
}

static double mval(const struct phase_rec *p, const char *name)
{
	const struct metric *m = p ? phase_rec_metric(p, name) : NULL;

	return m ? m->value : NAN;
}

static void report_intervals(FILE *out, const struct phase_rec *p)
{
	size_t n = isnan(mval(p, "intervals")) ? 0 :
		   (size_t)mval(p, "intervals");
	double secs = 0, t = 0, lo = INFINITY, hi = 0, total = 0;
	char name[64];

	if (!n)
		return;
	fprintf(out, "\n%8s %10s %9s %9s %9s\n", "t(s)", "files/s",
		"source", "pool", "outgoing");
	for (size_t i = 0; i < n; i++) {
		double fs, s;

		snprintf(name, sizeof(name), "interval.%zu.files_s", i);
		fs = mval(p, name);
		snprintf(name, sizeof(name), "interval.%zu.s", i);
		s = mval(p, name);
		if (isnan(fs) || isnan(s))
			continue;
		t += s;
		secs += s;
		total += fs * s;
		if (fs < lo)
			lo = fs;
		if (fs > hi)
			hi = fs;
		/* a long series is summarised: first 10, last 10 rows */
		if (n > 30 && i >= 10 && i + 10 < n) {
			if (i == 10)
				fprintf(out, "%8s\n", "...");
			continue;
		}
		fprintf(out, "%8.1f %10.1f", t, fs);
		snprintf(name, sizeof(name), "interval.%zu.source", i);
		fprintf(out, " %9.0f", mval(p, name));
		snprintf(name, sizeof(name), "interval.%zu.pool", i);
		fprintf(out, " %9.0f", mval(p, name));
		snprintf(name, sizeof(name), "interval.%zu.outgoing", i);
		fprintf(out, " %9.0f\n", mval(p, name));
	}
	fprintf(out, "%8s %10.1f   (%zu intervals of %.0f s, min %.1f "
		"max %.1f files/s)\n", "total", secs > 0 ? total / secs : 0,
		n, mval(p, "interval_s"), lo, hi);
}

static void dist_report(FILE *out, const struct run_rec *run,
			const struct wlrun_rec *wr)
{
	const struct phase_rec *fill = find_phase(wr, "fill");
	const struct phase_rec *p = find_phase(wr, "distribute");
	const struct phase_rec *v = find_phase(wr, "verify");
	double wall, fs, mibs;

	(void)run;
	fprintf(out, "\ndistribute (%s)\n", wr->options ? wr->options : "");
	if (fill)
		fprintf(out, "fill: %.0f files, %.2f MiB in %.2f s\n",
			mval(fill, "produced"), (double)fill->bytes / MIB,
			(double)fill->m.wall_ns / 1e9);
	if (!p) {
		fprintf(out, "no distribute phase stored\n");
		return;
	}
	wall = (double)p->m.wall_ns / 1e9;
	fs = mval(p, "files/s");
	mibs = mval(p, "MiB/s");
	fprintf(out, "%.2f files/s  %.2f MiB/s\n", isnan(fs) ? 0 : fs,
		isnan(mibs) ? 0 : mibs);
	fprintf(out, "delivered %.0f of %.0f (%.0f files x fanout %.0f), "
		"%.2f MiB in %.2f s%s\n", mval(p, "delivered"),
		mval(p, "expected"), mval(p, "produced"), mval(p, "fanout"),
		mval(p, "delivered_MiB"), wall,
		p->status == PHASE_OK ? "" : " (phase did not complete)");
	report_intervals(out, p);
	if (!isnan(mval(p, "latency.p50_ms")))
		fprintf(out, "\nlatency publish->delivery: p50 %.2f ms  p95 "
			"%.2f ms  p99 %.2f ms  max %.2f ms\n",
			mval(p, "latency.p50_ms"), mval(p, "latency.p95_ms"),
			mval(p, "latency.p99_ms"), mval(p, "latency.max_ms"));
	fprintf(out, "backlog at end: source %.0f  pool %.0f  outgoing "
		"%.0f\n", mval(p, "backlog.source"), mval(p, "backlog.pool"),
		mval(p, "backlog.outgoing"));
	fprintf(out, "cpu: user %.2f s  sys %.2f s", (double)p->m.user_ns /
		1e9, (double)p->m.sys_ns / 1e9);
	if (p->m.sys_busy_pct >= 0)
		fprintf(out, "  machine busy %.1f%%", p->m.sys_busy_pct);
	fputc('\n', out);
	if (!v)
		fprintf(out, "accounting: not verified\n");
	else if (v->status == PHASE_OK)
		fprintf(out, "accounting: ok, %.0f of %.0f deliveries "
			"verified%s\n", mval(v, "verified"),
			mval(v, "expected"), mval(v, "drained") > 0 ?
			", nothing left in a pool or outgoing directory" :
			"");
	else
		fprintf(out, "accounting: FAILED, %s\n",
			v->error ? v->error : "unknown reason");
}

static const char *const dist_key_metrics[] = {
	"distribute/files/s", "distribute/MiB/s", "distribute/latency.p99_ms",
	NULL,
};

const struct workload wl_distribute = {
	.name = "distribute",
	.summary = "afdbench-like file distribution: produce, scan into "
		   "pools, fan out, deliver (files/s, MiB/s)",
	.phases = dist_phase_names,
	.flags = WL_VERIFY,
	.opts = dist_opt_table,
	.opts_size = sizeof(struct dist_opts),
	.check = dist_check_fn,
	.run = dist_run_fn,
	.report = dist_report,
	.key_metrics = dist_key_metrics,
};
