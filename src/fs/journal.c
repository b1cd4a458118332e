/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal.c - the undo journal's file (see state.h): where it lives, how a
 * line is appended durably, and how a journal is read back -- only
 * through an fd opened without following symlinks, only if it is ours,
 * and tolerating the torn last line a crash leaves.  state.c writes
 * journals, replay.c replays the dead ones.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/journal.h"
#include "fs/safedir.h"
#include "util/util.h"

#define STATE_DEFAULT_DIR "/var/lib/fslab/state"
/* A journal longer than this was not written by fslab. */
#define JOURNAL_MAX_BYTES (4u << 20)

const char *state_dir(void)
{
	const char *d = getenv("FSLAB_STATE_DIR");

	return d && *d ? d : STATE_DEFAULT_DIR;
}

void journal_release(struct journal *j)
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

bool journal_has_ctl(const char *s)
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

	if (!sp || journal_has_ctl(line))
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
int journal_read(const char *path, struct journal *j)
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

size_t journal_open_entries(const struct journal *j)
{
	size_t i, n = 0;

	for (i = 0; i < j->nr; i++)
		n += !j->e[i].done;
	return n;
}

void journal_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int journal_append(int fd, const char *path, const char *line)
{
	if (write_full(fd, line, strlen(line)) < 0 || fdatasync(fd) < 0)
		return error_errno("cannot write journal '%s'", path);
	return 0;
}


/* The state directory must be ours alone, or a journal could be planted. */
int state_dir_check(const char *dir)
{
	char why[512];

	if (safedir_check(dir, why, sizeof(why)) < 0)
		return error("state directory '%s' is not safe: %s (set "
			     "FSLAB_STATE_DIR to a directory of your own)",
			     dir, why);
	return 0;
}
