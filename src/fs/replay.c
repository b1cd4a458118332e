/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - `fslab cleanup`: replay the journals of dead fslab processes
 * in reverse through the undo handlers the owners of each kind registered.
 * It trusts a journal only as far as it can check it: the file must be
 * ours, every entry must name something fslab could have made, no live
 * journal may hold the same thing, and each handler checks again (is it
 * still mounted, from our loop device?) before it acts.  A resource is
 * journaled before it exists, so the replay tolerates entries whose
 * resource never appeared.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/journal.h"
#include "fs/safedir.h"
#include "fs/state.h"
#include "util/util.h"

static const struct undo_handler **handlers;
static size_t nr_handlers, alloc_handlers;

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

static const struct undo_handler *find_handler(const char *kind)
{
	size_t i;

	for (i = 0; i < nr_handlers; i++)
		if (!strcmp(handlers[i]->kind, kind))
			return handlers[i];
	return NULL;
}

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
	journal_append(r->fd, r->path, line);
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

