/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c - the undo journal (see state.h) and its replay by
 * `fslab cleanup`.  A resource is journaled before it exists, so after a
 * crash at any point the journal names a superset of what is left; the
 * replay therefore tolerates entries whose resource never appeared, and
 * checks each one (is it still mounted? is that loop device still bound
 * to *our* image?) before touching it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fs/loop.h"
#include "fs/mount.h"
#include "fs/state.h"
#include "trace/blktrace.h"
#include "util/util.h"

#define STATE_DEFAULT_DIR "/var/lib/fslab/state"
#define UMOUNT_TRIES 5

struct jentry {
	char *kind;
	char *arg;
	bool done;
};

struct journal {
	char *path;
	bool have_pid;
	long pid;
	unsigned long long start;
	struct jentry *e;
	size_t nr, alloc;
};

static int jfd = -1;
static pid_t jpid;
static char *jpath;

const char *state_dir(void)
{
	const char *d = getenv("FSLAB_STATE_DIR");

	return d && *d ? d : STATE_DEFAULT_DIR;
}

/* Field 22 of /proc/<pid>/stat, and whether the process is a zombie. */
static int proc_starttime(long pid, unsigned long long *start, bool *zombie)
{
	char path[64], *s, *p;
	int field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	s = read_file(path, NULL);
	if (!s)
		return -1;
	/* comm may contain spaces and parens: fields restart after the last ')'. */
	p = strrchr(s, ')');
	if (!p || p[1] != ' ') {
		free(s);
		return -1;
	}
	p += 2;
	if (zombie)
		*zombie = *p == 'Z' || *p == 'X';
	for (field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%llu", start) != 1) {
		free(s);
		return -1;
	}
	free(s);
	return 0;
}

static void journal_release(struct journal *j)
{
	size_t i;

	for (i = 0; i < j->nr; i++) {
		free(j->e[i].kind);
		free(j->e[i].arg);
	}
	free(j->e);
	free(j->path);
	memset(j, 0, sizeof(*j));
}

static void journal_add_line(struct journal *j, char *line)
{
	char *sp = strchr(line, ' ');
	struct jentry *e;

	if (!sp)
		return;
	*sp = '\0';
	if (!strcmp(line, "pid")) {
		if (!j->have_pid &&
		    sscanf(sp + 1, "%ld %llu", &j->pid, &j->start) == 2)
			j->have_pid = true;
		return;
	}
	if (!strcmp(line, "done")) {
		char *arg = strchr(sp + 1, ' ');
		size_t i;

		if (!arg)
			return;
		*arg++ = '\0';
		/* A done cancels the latest open record of the same thing. */
		for (i = j->nr; i-- > 0;) {
			e = &j->e[i];
			if (!e->done && !strcmp(e->kind, sp + 1) &&
			    !strcmp(e->arg, arg)) {
				e->done = true;
				break;
			}
		}
		return;
	}
	ALLOC_GROW(j->e, j->nr + 1, j->alloc);
	e = &j->e[j->nr++];
	e->kind = xstrdup(line);
	e->arg = xstrdup(sp + 1);
	e->done = false;
}

static int journal_read(const char *path, struct journal *j)
{
	char *buf = read_file(path, NULL), *line, *nl;

	memset(j, 0, sizeof(*j));
	j->path = xstrdup(path);
	if (!buf)
		return error_errno("cannot read journal '%s'", path);
	/*
	 * A line without its newline was cut short by a crash; its
	 * resource was never created, and a truncated path is no path to
	 * act on.
	 */
	for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		journal_add_line(j, line);
	}
	free(buf);
	return 0;
}

static size_t journal_open_entries(const struct journal *j)
{
	size_t i, n = 0;

	for (i = 0; i < j->nr; i++)
		n += !j->e[i].done;
	return n;
}

static void fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int append_line(int fd, const char *path, const char *line)
{
	if (write_full(fd, line, strlen(line)) < 0 || fdatasync(fd) < 0)
		return error_errno("cannot write journal '%s'", path);
	return 0;
}

/* Is an existing <pid>.state ours (same pid and start time)? */
static bool journal_is_ours(const char *path, unsigned long long start)
{
	struct journal j;
	bool ours;

	if (journal_read(path, &j) < 0)
		return false;
	ours = j.have_pid && j.pid == (long)getpid() && j.start == start;
	journal_release(&j);
	return ours;
}

static int journal_open(void)
{
	const char *dir = state_dir();
	unsigned long long start = 0;
	char *line;
	int fd;

	if (jfd >= 0 && jpid == getpid())
		return 0;
	if (jfd >= 0)
		close(jfd); /* a forked child: the journal is the parent's */
	jfd = -1;
	free(jpath);
	jpid = getpid();
	jpath = xasprintf("%s/%ld.state", dir, (long)jpid);
	if (mkdir_p(dir, 0700) < 0)
		return error_errno("cannot create state directory '%s'", dir);
	if (proc_starttime(jpid, &start, NULL) < 0)
		return error("cannot read the start time of pid %ld",
			     (long)jpid);
	fd = open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
		  0600);
	if (fd < 0 && errno == EEXIST) {
		if (journal_is_ours(jpath, start)) {
			fd = open(jpath, O_WRONLY | O_APPEND | O_CLOEXEC);
			if (fd < 0)
				return error_errno("cannot open journal '%s'",
						   jpath);
			jfd = fd;
			return 0;
		}
		/*
		 * A dead process with our pid left it: keep it for
		 * cleanup under another name rather than mix the two.
		 */
		line = xasprintf("%s/%ld.%llu.stale.state", dir, (long)jpid,
				 (unsigned long long)realtime_ns());
		if (rename(jpath, line) < 0) {
			error_errno("cannot move stale journal '%s'", jpath);
			free(line);
			return -1;
		}
		free(line);
		fd = open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND |
			  O_CLOEXEC, 0600);
	}
	if (fd < 0)
		return error_errno("cannot create journal '%s'", jpath);
	line = xasprintf("pid %ld %llu\n", (long)jpid, start);
	if (append_line(fd, jpath, line) < 0) {
		free(line);
		close(fd);
		return -1;
	}
	free(line);
	fsync_dir(dir);
	jfd = fd;
	return 0;
}

static int state_write(const char *prefix, const char *kind, const char *arg)
{
	char *line;
	int ret;

	if (strchr(kind, ' ') || strchr(kind, '\n') || strchr(arg, '\n'))
		BUG("bad journal entry '%s' '%s'", kind, arg);
	if (journal_open() < 0)
		return -1;
	line = xasprintf("%s%s %s\n", prefix, kind, arg);
	ret = append_line(jfd, jpath, line);
	free(line);
	return ret;
}

int state_record(const char *kind, const char *arg)
{
	return state_write("", kind, arg);
}

int state_done(const char *kind, const char *arg)
{
	return state_write("done ", kind, arg);
}

void state_finish(void)
{
	struct journal j;

	if (jfd < 0 || jpid != getpid())
		return;
	close(jfd);
	jfd = -1;
	if (journal_read(jpath, &j) < 0)
		return;
	if (!journal_open_entries(&j)) {
		if (unlink(jpath) < 0 && errno != ENOENT)
			warning("cannot remove journal '%s': %s", jpath,
				strerror(errno));
		else
			fsync_dir(state_dir());
	}
	journal_release(&j);
}

/* ---- replay ---- */

struct replay {
	bool dry_run, verbose;
	int problems;
	int actions;
	int fd;            /* the dead journal, to append done lines */
	const char *path;
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void replay_done(struct replay *r, const struct jentry *e)
{
	char *line;

	if (r->dry_run || r->fd < 0)
		return;
	line = xasprintf("done %s %s\n", e->kind, e->arg);
	append_line(r->fd, r->path, line);
	free(line);
}

static int replay_mount(struct replay *r, const char *dir)
{
	int i;

	if (!mount_is_mountpoint(dir)) {
		if (r->verbose)
			printf("'%s' is not mounted\n", dir);
		return 0;
	}
	r->actions++;
	if (r->dry_run) {
		printf("would unmount %s\n", dir);
		return 0;
	}
	for (i = 0; i < UMOUNT_TRIES; i++) {
		if (!mount_umount(dir, false)) {
			printf("unmounted %s\n", dir);
			return 0;
		}
		if (errno != EBUSY)
			return error_errno("cannot unmount '%s'", dir);
		sleep_ms(200);
	}
	if (mount_umount(dir, true) < 0)
		return error_errno("cannot unmount '%s' even lazily", dir);
	printf("unmounted %s lazily: it was busy, so the filesystem lives "
	       "on until its last user closes it\n", dir);
	return 0;
}

static int replay_loop(struct replay *r, const char *image)
{
	char **devs = loop_find_by_backing(image), **d;
	int ret = 0;

	if (!*devs && r->verbose)
		printf("no loop device is bound to %s\n", image);
	for (d = devs; *d; d++) {
		r->actions++;
		if (r->dry_run) {
			printf("would detach %s (%s)\n", *d, image);
		} else if (loop_clear(*d, image) < 0) {
			ret = -1;
		} else {
			printf("detached %s (%s)\n", *d, image);
		}
	}
	argv_free(devs);
	return ret;
}

static int replay_image(struct replay *r, const char *image)
{
	struct stat st;

	if (lstat(image, &st) < 0) {
		if (errno != ENOENT)
			return error_errno("cannot stat '%s'", image);
		if (r->verbose)
			printf("%s is already gone\n", image);
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return error("'%s' is not a regular file any more; leaving it",
			     image);
	r->actions++;
	if (r->dry_run) {
		printf("would remove %s\n", image);
		return 0;
	}
	if (unlink(image) < 0 && errno != ENOENT)
		return error_errno("cannot remove '%s'", image);
	printf("removed %s\n", image);
	return 0;
}

static int replay_mountpoint(struct replay *r, const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) < 0) {
		if (errno != ENOENT)
			return error_errno("cannot stat '%s'", dir);
		if (r->verbose)
			printf("%s is already gone\n", dir);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return error("'%s' is not a directory any more; leaving it",
			     dir);
	r->actions++;
	if (r->dry_run) {
		printf("would remove mount point %s\n", dir);
		return 0;
	}
	if (mount_is_mountpoint(dir))
		return error("cannot remove '%s': still mounted", dir);
	if (rmdir(dir) < 0) {
		if (errno == ENOTEMPTY || errno == EEXIST)
			return error("cannot remove '%s': not empty, and fslab "
				     "only removes what it created", dir);
		return error_errno("cannot remove '%s'", dir);
	}
	printf("removed mount point %s\n", dir);
	return 0;
}

/* The trace entries print their own actions and return 1 for one. */
static int replay_count(struct replay *r, int rc)
{
	if (rc > 0)
		r->actions++;
	return rc < 0 ? -1 : 0;
}

static int replay_entry(struct replay *r, const struct jentry *e)
{
	if (!strcmp(e->kind, "mount"))
		return replay_mount(r, e->arg);
	if (!strcmp(e->kind, "loop"))
		return replay_loop(r, e->arg);
	if (!strcmp(e->kind, "image"))
		return replay_image(r, e->arg);
	if (!strcmp(e->kind, "mountpoint"))
		return replay_mountpoint(r, e->arg);
	if (!strcmp(e->kind, "tracefs-instance"))
		return replay_count(r, trace_cleanup_instance(e->arg,
							      r->dry_run));
	if (!strcmp(e->kind, "tracefs-mount"))
		return replay_count(r, trace_cleanup_mount(e->arg, r->dry_run));
	return error("unknown entry '%s %s' in journal '%s'; leaving it",
		     e->kind, e->arg, r->path);
}

/* What a live run's entry is, in the words of its kind. */
static void print_kept(const struct jentry *e)
{
	static const struct {
		const char *kind, *what;
	} words[] = {
		{ "mount", "mount on" },
		{ "loop", "loop device for" },
		{ "image", "image" },
		{ "mountpoint", "mount point" },
		{ "tracefs-instance", "tracefs instance" },
		{ "tracefs-mount", "tracefs mount on" },
	};
	const char *what = e->kind;
	char **devs, **d;
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(e->kind, words[i].kind))
			what = words[i].what;
	if (strcmp(e->kind, "loop")) {
		printf("  kept %s %s\n", what, e->arg);
		return;
	}
	/* The journal names the image; the user looks for the device. */
	devs = loop_find_by_backing(e->arg);
	if (!*devs)
		printf("  kept %s %s\n", what, e->arg);
	for (d = devs; *d; d++)
		printf("  kept %s %s (%s)\n", what, e->arg, *d);
	argv_free(devs);
}

static bool owner_alive(const struct journal *j)
{
	unsigned long long start;
	bool zombie = false;

	if (proc_starttime(j->pid, &start, &zombie) < 0)
		return false;
	return start == j->start && !zombie;
}

static void remove_journal(struct replay *r, const char *path)
{
	if (r->dry_run)
		return;
	if (unlink(path) < 0 && errno != ENOENT) {
		warning("cannot remove journal '%s': %s", path,
			strerror(errno));
		return;
	}
	if (r->verbose)
		printf("removed journal %s\n", path);
}

/* Replay one journal; *skipped is set when its owner still runs. */
static void replay_journal(struct replay *r, const char *path, bool *skipped)
{
	struct journal j;
	int before = r->problems;
	size_t i;

	if (journal_read(path, &j) < 0) {
		r->problems++;
		return;
	}
	if (!j.have_pid) {
		if (!j.nr) {
			remove_journal(r, path);
		} else {
			error("journal '%s' has no owner line; leaving it",
			      path);
			r->problems++;
		}
		journal_release(&j);
		return;
	}
	if (owner_alive(&j)) {
		if (journal_open_entries(&j)) {
			printf("skipping resources of running fslab (pid %ld), "
			       "journal %s:\n", j.pid, path);
			for (i = j.nr; i-- > 0;)
				if (!j.e[i].done)
					print_kept(&j.e[i]);
			*skipped = true;
		}
		journal_release(&j);
		return;
	}
	r->path = path;
	r->fd = r->dry_run ? -1 : open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	for (i = j.nr; i-- > 0;) {
		if (j.e[i].done)
			continue;
		if (replay_entry(r, &j.e[i]) < 0)
			r->problems++;
		else
			replay_done(r, &j.e[i]);
	}
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->problems == before)
		remove_journal(r, path);
	else
		error("kept journal '%s' for another try", path);
	journal_release(&j);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int state_cleanup(bool dry_run, bool verbose)
{
	struct replay r = { .dry_run = dry_run, .verbose = verbose, .fd = -1 };
	const char *dir = state_dir();
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;
	bool skipped = false;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		if (errno != ENOENT) {
			error_errno("cannot open state directory '%s'", dir);
			return 1;
		}
		printf("nothing to clean up\n");
		return 0;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 6 || strcmp(de->d_name + len - 6, ".state"))
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = path_join(dir, de->d_name);
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_str);
	for (i = 0; i < nr; i++) {
		replay_journal(&r, names[i], &skipped);
		free(names[i]);
	}
	free(names);
	if (!r.actions && !r.problems && !skipped)
		printf("nothing to clean up\n");
	fflush(stdout);
	return r.problems;
}
