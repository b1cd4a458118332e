/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c - the undo journal (see state.h) and its replay by
 * `fslab cleanup`.  A resource is journaled before it exists, so after a
 * crash at any point the journal names a superset of what is left; the
 * replay therefore tolerates entries whose resource never appeared.  It
 * trusts a journal only as far as it can check it: the file must be ours,
 * every entry must name something fslab could have made, and each handler
 * checks again (is it still mounted, from our loop device?) before it acts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/safedir.h"
#include "fs/state.h"
#include "util/util.h"

#define STATE_DEFAULT_DIR "/var/lib/fslab/state"
/* A journal longer than this was not written by fslab. */
#define JOURNAL_MAX_BYTES (4u << 20)

struct jentry {
	struct undo_entry u;
	bool done;
};

struct journal {
	char *path;
	bool have_pid, alive;
	long pid;
	unsigned long long start;
	struct jentry *e;
	size_t nr, alloc;
	char **scratches;     /* owns the strings entries point to */
	size_t nr_scratch, alloc_scratch;
};

static int jfd = -1;
static pid_t jpid;
static char *jpath;
static char *jscratch;   /* the scratch line last written */

static const struct undo_handler **handlers;
static size_t nr_handlers, alloc_handlers;

const char *state_dir(void)
{
	const char *d = getenv("FSLAB_STATE_DIR");

	return d && *d ? d : STATE_DEFAULT_DIR;
}

void state_register_undo(const struct undo_handler *h)
{
	size_t i;

	for (i = 0; i < nr_handlers; i++)
		if (!strcmp(handlers[i]->kind, h->kind)) {
			handlers[i] = h;
			return;
		}
	ALLOC_GROW(handlers, nr_handlers + 1, alloc_handlers);
	handlers[nr_handlers++] = h;
}

void state_unregister_all(void)
{
	free(handlers);
	handlers = NULL;
	nr_handlers = alloc_handlers = 0;
}

static const struct undo_handler *find_handler(const char *kind)
{
	size_t i;

	for (i = 0; i < nr_handlers; i++)
		if (!strcmp(handlers[i]->kind, kind))
			return handlers[i];
	return NULL;
}

static void journal_release(struct journal *j)
{
	size_t i;

	for (i = 0; i < j->nr; i++) {
		free((char *)j->e[i].u.kind);
		free((char *)j->e[i].u.arg);
	}
	for (i = 0; i < j->nr_scratch; i++)
		free(j->scratches[i]);
	free(j->scratches);
	free(j->e);
	free(j->path);
	memset(j, 0, sizeof(*j));
}

static bool has_ctl(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static struct jentry *find_open(struct journal *j, const char *kind,
				const char *arg)
{
	size_t i;

	for (i = j->nr; i-- > 0;) {
		struct jentry *e = &j->e[i];

		if (!e->done && !strcmp(e->u.kind, kind) &&
		    !strcmp(e->u.arg, arg))
			return e;
	}
	return NULL;
}

static void journal_add_line(struct journal *j, char *line)
{
	char *sp = strchr(line, ' ');
	const char *scratch;
	struct jentry *e;

	if (!sp || has_ctl(line))
		return;
	*sp++ = '\0';
	if (!*line || !*sp)
		return;
	if (!strcmp(line, "pid")) {
		if (!j->have_pid &&
		    sscanf(sp, "%ld %llu", &j->pid, &j->start) == 2 &&
		    j->pid > 0)
			j->have_pid = true;
		return;
	}
	if (!strcmp(line, "scratch")) {
		ALLOC_GROW(j->scratches, j->nr_scratch + 1, j->alloc_scratch);
		j->scratches[j->nr_scratch++] = xstrdup(sp);
		return;
	}
	if (!strcmp(line, "done")) {
		char *arg = strchr(sp, ' ');

		if (!arg)
			return;
		*arg++ = '\0';
		/* A done cancels the latest open record of the same thing. */
		e = find_open(j, sp, arg);
		if (e)
			e->done = true;
		return;
	}
	if (!strcmp(line, "ident")) {
		unsigned long long dev, ino;
		char *kind = sp, *rest = strchr(sp, ' ');
		int n = 0;

		if (!rest)
			return;
		*rest++ = '\0';
		if (sscanf(rest, "%llu %llu %n", &dev, &ino, &n) != 2 || !n ||
		    !rest[n])
			return;
		e = find_open(j, kind, rest + n);
		if (e && !e->u.have_ident) {
			e->u.have_ident = true;
			e->u.dev = dev;
			e->u.ino = ino;
		}
		return;
	}
	scratch = j->nr_scratch ? j->scratches[j->nr_scratch - 1] : NULL;
	ALLOC_GROW(j->e, j->nr + 1, j->alloc);
	e = &j->e[j->nr++];
	memset(e, 0, sizeof(*e));
	e->u.kind = xstrdup(line);
	e->u.arg = xstrdup(sp);
	e->u.scratch = scratch;
}

/*
 * Read a journal through an fd opened without following symlinks, and
 * only if it is ours: a regular file owned by us, mode 0600 or stricter.
 */
static int journal_read(const char *path, struct journal *j)
{
	char *buf, *line, *nl;
	struct stat st;
	ssize_t n;
	size_t len = 0;
	int fd;

	memset(j, 0, sizeof(*j));
	j->path = xstrdup(path);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot read journal '%s'", path);
	if (fstat(fd, &st) < 0) {
		close(fd);
		return error_errno("cannot stat journal '%s'", path);
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) || st.st_size > JOURNAL_MAX_BYTES) {
		close(fd);
		return error("journal '%s' is not fslab's (a regular file "
			     "owned by uid %u, mode 0600, under %u bytes): "
			     "uid %u, mode %04o; leaving it", path,
			     (unsigned)geteuid(), JOURNAL_MAX_BYTES,
			     (unsigned)st.st_uid,
			     (unsigned)(st.st_mode & 07777));
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (len < (size_t)st.st_size &&
	       (n = read(fd, buf + len, (size_t)st.st_size - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		return error("journal '%s' holds a NUL byte: not fslab's; "
			     "leaving it", path);
	}
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

	if (journal_read(path, &j) < 0) {
		journal_release(&j);
		return false;
	}
	ours = j.have_pid && j.pid == (long)getpid() && j.start == start;
	journal_release(&j);
	return ours;
}

/* The state directory must be ours alone, or a journal could be planted. */
static int state_dir_check(const char *dir)
{
	char why[512];

	if (safedir_check(dir, why, sizeof(why)) < 0)
		return error("state directory '%s' is not safe: %s (set "
			     "FSLAB_STATE_DIR to a directory of your own)",
			     dir, why);
	return 0;
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
	free(jscratch);
	jscratch = NULL;
	jpid = getpid();
	jpath = xasprintf("%s/%ld.state", dir, (long)jpid);
	if (mkdir_p(dir, 0700) < 0)
		return error_errno("cannot create state directory '%s'", dir);
	if (state_dir_check(dir) < 0)
		return -1;
	if (proc_starttime(jpid, &start, NULL) < 0)
		return error("cannot read the start time of pid %ld",
			     (long)jpid);
	fd = open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW |
		  O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST) {
		if (journal_is_ours(jpath, start)) {
			fd = open(jpath, O_WRONLY | O_APPEND | O_NOFOLLOW |
				  O_CLOEXEC);
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
			  O_NOFOLLOW | O_CLOEXEC, 0600);
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

static int state_write(const char *line)
{
	int ret;

	if (journal_open() < 0)
		return -1;
	ret = append_line(jfd, jpath, line);
	return ret;
}

static int bad_entry(const char *kind, const char *arg)
{
	/* Callers refuse such names up front (spec, --scratch); be safe. */
	if (!*kind || strchr(kind, ' ') || has_ctl(kind) || has_ctl(arg))
		return error("cannot journal '%s %s': a control character "
			     "in the name", kind, arg);
	return 0;
}

int state_record(const char *kind, const char *arg)
{
	char *line;
	int ret;

	if (bad_entry(kind, arg) < 0)
		return -1;
	line = xasprintf("%s %s\n", kind, arg);
	ret = state_write(line);
	free(line);
	return ret;
}

int state_ident(const char *kind, unsigned long long dev,
		unsigned long long ino, const char *arg)
{
	char *line;
	int ret;

	if (bad_entry(kind, arg) < 0)
		return -1;
	line = xasprintf("ident %s %llu %llu %s\n", kind, dev, ino, arg);
	ret = state_write(line);
	free(line);
	return ret;
}

int state_done(const char *kind, const char *arg)
{
	char *line;
	int ret;

	if (bad_entry(kind, arg) < 0)
		return -1;
	line = xasprintf("done %s %s\n", kind, arg);
	ret = state_write(line);
	free(line);
	return ret;
}

int state_scratch(const char *path)
{
	char *mark, *line, *dir;
	int fd, ret;

	if (bad_entry("scratch", path) < 0)
		return -1;
	if (journal_open() < 0)
		return -1;
	dir = realpath(path, NULL);
	if (!dir)
		return error_errno("cannot resolve '%s'", path);
	if (jscratch && !strcmp(jscratch, dir)) {
		free(dir);
		return 0;
	}
	mark = path_join(dir, STATE_SCRATCH_MARK);
	fd = open(mark, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = error_errno("cannot create '%s'", mark);
		free(mark);
		free(dir);
		return ret;
	}
	close(fd);
	free(mark);
	line = xasprintf("scratch %s\n", dir);
	ret = state_write(line);
	free(line);
	if (!ret) {
		free(jscratch);
		jscratch = dir;
	} else {
		free(dir);
	}
	return ret;
}

void state_finish(void)
{
	struct journal j;

	if (jfd < 0 || jpid != getpid())
		return;
	close(jfd);
	jfd = -1;
	free(jscratch);
	jscratch = NULL;
	if (journal_read(jpath, &j) < 0) {
		journal_release(&j);
		return;
	}
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
	struct journal *all;   /* every journal read, to spare live entries */
	size_t nr_all;
};

bool state_journal_has_ident(const struct undo_journal *j, const char *kind,
			     unsigned long long dev, unsigned long long ino)
{
	size_t i;

	for (i = 0; i < j->nr; i++)
		if (!strcmp(j->e[i].kind, kind) && j->e[i].have_ident &&
		    j->e[i].dev == dev && j->e[i].ino == ino)
			return true;
	return false;
}

static void replay_done(struct replay *r, const struct jentry *e)
{
	char *line;

	if (r->dry_run || r->fd < 0)
		return;
	line = xasprintf("done %s %s\n", e->u.kind, e->u.arg);
	append_line(r->fd, r->path, line);
	free(line);
}

static bool affix_ok(const struct undo_handler *h, const char *name)
{
	size_t n = strlen(name), s;

	if (h->prefix && strncmp(name, h->prefix, strlen(h->prefix)))
		return false;
	if (h->suffix) {
		s = strlen(h->suffix);
		if (n <= s || strcmp(name + n - s, h->suffix))
			return false;
	}
	return true;
}

/*
 * A scratch directory fslab made: safe (safedir.h), canonical, and
 * carrying the mark file, a regular file of ours.
 */
static bool scratch_trusted(const char *dir, char *why, size_t len)
{
	char *mark, *canon;
	struct stat st;
	bool ok;

	if (*dir != '/') {
		snprintf(why, len, "scratch '%s' is not an absolute path", dir);
		return false;
	}
	if (safedir_check(dir, why, len) < 0)
		return false;
	canon = realpath(dir, NULL);
	ok = canon && !strcmp(canon, dir);
	free(canon);
	if (!ok) {
		snprintf(why, len, "scratch '%s' is not a canonical path", dir);
		return false;
	}
	mark = path_join(dir, STATE_SCRATCH_MARK);
	ok = lstat(mark, &st) == 0 && S_ISREG(st.st_mode) &&
	     st.st_uid == geteuid();
	free(mark);
	if (!ok)
		snprintf(why, len, "'%s' carries no %s of fslab's", dir,
			 STATE_SCRATCH_MARK);
	return ok;
}

/* Is e something fslab could have created?  Else the reason in why. */
static bool plausible(const struct undo_handler *h, const struct undo_entry *e,
		      char *why, size_t len)
{
	const char *base = strrchr(e->arg, '/');
	bool in_golden;
	struct stat st;

	if (h->flags & UNDO_NAME) {
		if (!safedir_plain_name(e->arg) || !affix_ok(h, e->arg)) {
			snprintf(why, len, "'%s' is not a name fslab gives",
				 e->arg);
			return false;
		}
		return true;
	}
	if (*e->arg != '/' || !base || !safedir_plain_name(base + 1) ||
	    strstr(e->arg, "/./") || strstr(e->arg, "/../") ||
	    strstr(e->arg, "//")) {
		snprintf(why, len, "'%s' is not a plain absolute path", e->arg);
		return false;
	}
	if (!affix_ok(h, base + 1)) {
		snprintf(why, len, "'%s' is not named the way fslab names "
			 "its %s entries", e->arg, h->kind);
		return false;
	}
	if (h->flags & UNDO_IN_SCRATCH) {
		size_t n;

		if (!e->scratch) {
			snprintf(why, len, "no scratch directory recorded "
				 "before it");
			return false;
		}
		n = strlen(e->scratch);
		/* Directly in it, or in its golden/ (fslab age's copies). */
		in_golden = !strncmp(e->arg, e->scratch, n) &&
			    !strncmp(e->arg + n, "/golden/", 8) &&
			    e->arg + n + 7 == base;
		if (strncmp(e->arg, e->scratch, n) ||
		    (e->arg + n != base && !in_golden)) {
			snprintf(why, len, "'%s' is not inside the scratch "
				 "directory '%s'", e->arg, e->scratch);
			return false;
		}
		if (!scratch_trusted(e->scratch, why, len))
			return false;
		if (in_golden) {
			char *g = xstrndup(e->arg, (size_t)(base - e->arg));
			int rc = safedir_check(g, why, len);

			free(g);
			if (rc < 0)
				return false;
		}
	}
	if (h->flags & UNDO_IDENT) {
		struct stat pst;
		char *parent;

		if (lstat(e->arg, &st) < 0)
			return true; /* gone: the handler says so */
		/*
		 * Something mounted on it shows the mount's root: the
		 * handler refuses to remove a mount point in use anyway.
		 */
		parent = xstrndup(e->arg, (size_t)(base - e->arg));
		if (!*parent) {
			free(parent);
			parent = xstrdup("/");
		}
		if (lstat(parent, &pst) == 0 && pst.st_dev != st.st_dev &&
		    S_ISDIR(st.st_mode)) {
			free(parent);
			return true;
		}
		free(parent);
		if (e->have_ident) {
			if ((unsigned long long)st.st_dev != e->dev ||
			    (unsigned long long)st.st_ino != e->ino) {
				snprintf(why, len, "'%s' is not the one fslab "
					 "created (inode %llu:%llu, journaled "
					 "%llu:%llu)", e->arg,
					 (unsigned long long)st.st_dev,
					 (unsigned long long)st.st_ino, e->dev,
					 e->ino);
				return false;
			}
		} else if (!(h->flags & UNDO_IN_SCRATCH) ||
			   st.st_uid != geteuid()) {
			/* Crashed before its ident line: ours only if in
			 * scratch, where nobody else can create. */
			snprintf(why, len, "'%s' has no inode recorded and is "
				 "not provably fslab's", e->arg);
			return false;
		}
	}
	return true;
}

/* Is (kind, arg) open in the journal of a live process? */
static const struct journal *live_owner(const struct replay *r,
					const struct undo_entry *e)
{
	size_t i, k;

	for (i = 0; i < r->nr_all; i++) {
		const struct journal *j = &r->all[i];

		if (!j->alive)
			continue;
		for (k = 0; k < j->nr; k++)
			if (!j->e[k].done && !strcmp(j->e[k].u.kind, e->kind) &&
			    !strcmp(j->e[k].u.arg, e->arg))
				return j;
	}
	return NULL;
}

static void print_kept(const struct undo_entry *e)
{
	const struct undo_handler *h = find_handler(e->kind);

	if (h && h->kept)
		h->kept(h, e);
	else
		printf("  kept %s %s\n", h && h->what ? h->what : e->kind,
		       e->arg);
}

static int replay_entry(struct replay *r, const struct undo_journal *uj,
			const struct undo_entry *e)
{
	const struct undo_handler *h = find_handler(e->kind);
	const struct journal *live;
	char why[768];
	int rc;

	if (!h)
		return error("unknown entry '%s %s' in journal '%s'; leaving "
			     "it", e->kind, e->arg, r->path);
	if (!plausible(h, e, why, sizeof(why)))
		return error("journal '%s': not acting on '%s %s': %s",
			     r->path, e->kind, e->arg, why);
	live = live_owner(r, e);
	if (live) {
		printf("journal %s names what running fslab (pid %ld) holds:\n",
		       r->path, live->pid);
		print_kept(e);
		return 0;
	}
	rc = h->undo(uj, e, r->dry_run, r->verbose);
	if (rc > 0)
		r->actions++;
	return rc < 0 ? -1 : 0;
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
static void replay_journal(struct replay *r, struct journal *j, bool *skipped)
{
	struct undo_entry *ue;
	struct undo_journal uj;
	int before = r->problems;
	size_t i;

	if (!j->have_pid) {
		if (!j->nr) {
			remove_journal(r, j->path);
		} else {
			error("journal '%s' has no owner line; leaving it",
			      j->path);
			r->problems++;
		}
		return;
	}
	if (j->alive) {
		if (journal_open_entries(j)) {
			printf("skipping resources of running fslab (pid %ld), "
			       "journal %s:\n", j->pid, j->path);
			for (i = j->nr; i-- > 0;)
				if (!j->e[i].done)
					print_kept(&j->e[i].u);
			*skipped = true;
		}
		return;
	}
	ue = xcalloc(j->nr + 1, sizeof(*ue));
	for (i = 0; i < j->nr; i++)
		ue[i] = j->e[i].u;
	uj.path = j->path;
	uj.pid = j->pid;
	uj.e = ue;
	uj.nr = j->nr;
	r->path = j->path;
	r->fd = r->dry_run ? -1 : open(j->path, O_WRONLY | O_APPEND |
				       O_NOFOLLOW | O_CLOEXEC);
	for (i = j->nr; i-- > 0;) {
		if (j->e[i].done)
			continue;
		if (replay_entry(r, &uj, &j->e[i].u) < 0)
			r->problems++;
		else
			replay_done(r, &j->e[i]);
	}
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(ue);
	if (r->problems == before)
		remove_journal(r, j->path);
	else
		error("kept journal '%s' for another try", j->path);
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
	DIR *d;

	d = opendir(dir);
	if (!d) {
		if (errno != ENOENT) {
			error_errno("cannot open state directory '%s'", dir);
			return 1;
		}
		printf("nothing to clean up\n");
		return 0;
	}
	if (state_dir_check(dir) < 0) {
		closedir(d);
		return 1;
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
	r.all = xcalloc(nr + 1, sizeof(*r.all));
	for (i = 0; i < nr; i++) {
		struct journal *j = &r.all[r.nr_all];

		if (journal_read(names[i], j) < 0) {
			journal_release(j);
			r.problems++;
			continue;
		}
		j->alive = j->have_pid && owner_alive(j);
		r.nr_all++;
	}
	for (i = 0; i < r.nr_all; i++)
		replay_journal(&r, &r.all[i], &skipped);
	for (i = 0; i < r.nr_all; i++)
		journal_release(&r.all[i]);
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(r.all);
	free(names);
	if (!r.actions && !r.problems && !skipped)
		printf("nothing to clean up\n");
	fflush(stdout);
	return r.problems;
}
