/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * treemodel.c - insertion-ordered path -> size map (see treemodel.h).
 *
 * Entries live in one array in insertion order; a separate open-
 * addressing table of entry indexes gives O(1) lookup.  Nothing is ever
 * removed in place: set differences build a new model, which keeps the
 * index trivially consistent.
 */
#include "model/treemodel.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/pyrand.h"
#include "util/sort.h"
#include "util/util.h"

void treemodel_init(struct treemodel *m)
{
	memset(m, 0, sizeof(*m));
}

void treemodel_release(struct treemodel *m)
{
	for (size_t i = 0; i < m->nr; i++) {
		free(m->e[i].path);
		free(m->e[i].target);
	}
	free(m->e);
	free(m->slot);
	treemodel_init(m);
}

static uint64_t hash_path(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h ^ (h >> 29);
}

/* Slot holding path, or the free slot where it would go. */
static size_t find_slot(const struct treemodel *m, const char *path)
{
	size_t mask = m->nslots - 1;
	size_t i = (size_t)hash_path(path) & mask;

	while (m->slot[i] && strcmp(m->e[m->slot[i] - 1].path, path))
		i = (i + 1) & mask;
	return i;
}

static void reindex(struct treemodel *m, size_t nslots)
{
	free(m->slot);
	m->nslots = nslots;
	m->slot = xcalloc(nslots, sizeof(*m->slot));
	for (size_t i = 0; i < m->nr; i++)
		m->slot[find_slot(m, m->e[i].path)] = i + 1;
}

/* Insert or replace; a file's size counts in m->bytes, nothing else. */
static int set_entry(struct treemodel *m, const char *path, uint64_t size,
		     enum tm_type type, const char *target)
{
	struct tm_entry *e;
	size_t s;
	int added = 0;

	/* keep the load factor under 1/2 so probes stay short */
	if ((m->nr + 1) * 2 > m->nslots)
		reindex(m, m->nslots ? m->nslots * 2 : 64);
	s = find_slot(m, path);
	if (m->slot[s]) {
		e = &m->e[m->slot[s] - 1];
		if (e->type == TM_FILE)
			m->bytes -= e->size;
		free(e->target);
	} else {
		ALLOC_GROW(m->e, m->nr + 1, m->alloc);
		e = &m->e[m->nr];
		e->path = xstrdup(path);
		m->nr++;
		m->slot[s] = m->nr;
		added = 1;
	}
	e->type = type;
	e->size = type == TM_FILE ? size : 0;
	e->target = target ? xstrdup(target) : NULL;
	if (type == TM_FILE)
		m->bytes += size;
	return added;
}

int treemodel_set(struct treemodel *m, const char *path, uint64_t size)
{
	return set_entry(m, path, size, TM_FILE, NULL);
}

int treemodel_set_dir(struct treemodel *m, const char *path)
{
	return set_entry(m, path, 0, TM_DIR, NULL);
}

int treemodel_set_link(struct treemodel *m, const char *path,
		       const char *target)
{
	return set_entry(m, path, 0, TM_LINK, target);
}

static void set_like(struct treemodel *m, const struct tm_entry *e)
{
	set_entry(m, e->path, e->size, e->type, e->target);
}

const struct tm_entry *treemodel_get(const struct treemodel *m,
				     const char *path)
{
	size_t s;

	if (!m->nslots)
		return NULL;
	s = find_slot(m, path);
	return m->slot[s] ? &m->e[m->slot[s] - 1] : NULL;
}

/* Next blank-separated word of [*p, end), or NULL at the end. */
static const char *next_word(const char **p, const char *end, size_t *len)
{
	const char *s = *p, *w;

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	if (s == end) {
		*p = s;
		return NULL;
	}
	w = s;
	while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
		s++;
	*len = (size_t)(s - w);
	*p = s;
	return w;
}

/* A ".." component would put an entry outside the tree it describes. */
static bool has_dotdot(const char *path)
{
	for (const char *c = path; (c = strstr(c, "..")); c += 2)
		if ((c == path || c[-1] == '/') && (!c[2] || c[2] == '/'))
			return true;
	return false;
}

const char *treemodel_link_parent(const struct treemodel *m, const char *path,
				  char *buf, size_t len)
{
	for (const char *c = path; (c = strchr(c, '/')); c++) {
		const struct tm_entry *e;
		size_t n = (size_t)(c - path);

		if (n >= len)
			break;
		memcpy(buf, path, n);
		buf[n] = '\0';
		e = treemodel_get(m, buf);
		if (e && e->type == TM_LINK)
			return buf;
	}
	return NULL;
}

/* Does m hold an entry beneath path (path/...)? */
static const char *has_below(const struct treemodel *m, const char *path)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < m->nr; i++)
		if (!strncmp(m->e[i].path, path, n) && m->e[i].path[n] == '/')
			return m->e[i].path;
	return NULL;
}

int treemodel_parse(struct treemodel *m, const char *text, size_t len,
		    const char *name)
{
	const char *p = text, *end = text + len;
	unsigned long line = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *w1, *w2, *cur = p, *below;
		size_t l1 = 0, l2 = 0, l3 = 0;
		char path[4096], num[32], target_buf[4096];
		uint64_t size;

		if (!eol)
			eol = end;
		line++;
		p = eol < end ? eol + 1 : end;
		w1 = next_word(&cur, eol, &l1);
		if (!w1)
			continue;
		w2 = next_word(&cur, eol, &l2);
		if (l1 >= sizeof(path))
			return error("%s:%lu: line too long", name, line);
		memcpy(path, w1, l1);
		path[l1] = '\0';
		if (memchr(w1, '\0', (size_t)(eol - w1)))
			return error("%s:%lu: NUL byte (want a text line)",
				     name, line);
		if (path[0] == '/')
			return error("%s:%lu: '%s' is not a relative path",
				     name, line, path);
		if (has_dotdot(path))
			return error("%s:%lu: '%s' leaves the tree (want no "
				     "'..' component)", name, line, path);
		/* Written through a symlink, it could land anywhere. */
		if (treemodel_link_parent(m, path, target_buf,
					  sizeof(target_buf)))
			return error("%s:%lu: '%s' lies beneath the symlink "
				     "'%s' (want no entry under a link)", name,
				     line, path, target_buf);
		if (!w2 && l1 > 1 && path[l1 - 1] == '/') {
			path[l1 - 1] = '\0';
			treemodel_set_dir(m, path);
			continue;
		}
		if (w2 && l2 == 2 && !memcmp(w2, "->", 2)) {
			const char *w3 = next_word(&cur, eol, &l3);
			size_t l4;
			char target[4096];

			if (!w3 || next_word(&cur, eol, &l4))
				return error("%s:%lu: malformed link (want "
					     "'path -> target')", name, line);
			if (l3 >= sizeof(target))
				return error("%s:%lu: line too long", name,
					     line);
			memcpy(target, w3, l3);
			target[l3] = '\0';
			below = has_below(m, path);
			if (below)
				return error("%s:%lu: link '%s' would stand "
					     "above '%s' (want no entry under "
					     "a link)", name, line, path,
					     below);
			treemodel_set_link(m, path, target);
			continue;
		}
		if (!w2 || next_word(&cur, eol, &l3))
			return error("%s:%lu: malformed line (want 'path "
				     "size')", name, line);
		if (l2 >= sizeof(num))
			return error("%s:%lu: line too long", name, line);
		memcpy(num, w2, l2);
		num[l2] = '\0';
		if (parse_u64(num, &size) < 0)
			return error("%s:%lu: '%s' is not a file size", name,
				     line, num);
		if (path[l1 - 1] == '/')
			return error("%s:%lu: '%s' is not a relative file "
				     "path", name, line, path);
		treemodel_set(m, path, size);
	}
	return 0;
}

int treemodel_load(struct treemodel *m, const char *path)
{
	size_t len;
	char *text = read_file(path, &len);
	int ret;

	if (!text)
		return error_errno("cannot read '%s'", path);
	ret = treemodel_parse(m, text, len, path);
	free(text);
	return ret;
}

void treemodel_subtract(struct treemodel *out, const struct treemodel *a,
			const struct treemodel *b, bool same_size_only)
{
	for (size_t i = 0; i < a->nr; i++) {
		const struct tm_entry *o = treemodel_get(b, a->e[i].path);

		if (o && (!same_size_only || o->size == a->e[i].size))
			continue;
		set_like(out, &a->e[i]);
	}
}

void treemodel_copy(struct treemodel *out, const struct treemodel *m)
{
	for (size_t i = 0; i < m->nr; i++)
		set_like(out, &m->e[i]);
}

size_t treemodel_dir_count(const struct treemodel *m)
{
	struct treemodel dirs;
	size_t n;

	treemodel_init(&dirs);
	for (size_t i = 0; i < m->nr; i++) {
		char *d = xstrdup(m->e[i].path), *slash;

		if (m->e[i].type == TM_DIR)
			treemodel_set(&dirs, d, 0);
		while ((slash = strrchr(d, '/'))) {
			*slash = '\0';
			if (!treemodel_set(&dirs, d, 0))
				break; /* its parents are known too */
		}
		free(d);
	}
	n = dirs.nr;
	treemodel_release(&dirs);
	return n;
}

struct path_cmp {
	int (*cmp)(const char *a, const char *b);
};

static int cmp_entry(const void *a, const void *b, void *arg)
{
	const struct path_cmp *c = arg;

	return c->cmp(((const struct tm_entry *)a)->path,
		      ((const struct tm_entry *)b)->path);
}

void treemodel_sort(struct treemodel *m,
		    int (*cmp)(const char *a, const char *b))
{
	struct path_cmp c = { cmp };

	/* stable: equal keys keep their order */
	stable_sort(m->e, m->nr, sizeof(*m->e), cmp_entry, &c);
	if (m->nslots)
		reindex(m, m->nslots);
}

void treemodel_shuffle(struct treemodel *m, struct pyrand *r)
{
	pyrand_shuffle(r, m->e, m->nr, sizeof(*m->e));
	if (m->nslots)
		reindex(m, m->nslots);
}

int treemodel_pathcmp(const char *a, const char *b)
{
	for (;;) {
		size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
		bool da = a[la] == '/', db = b[lb] == '/';
		int c;

		/* a file of this directory sorts before a subdirectory */
		if (da != db)
			return da ? 1 : -1;
		c = memcmp(a, b, la < lb ? la : lb);
		if (!c && la != lb)
			c = la < lb ? -1 : 1;
		if (c || !da)
			return c;
		a += la + 1;
		b += lb + 1;
	}
}

size_t treemodel_count(const struct treemodel *m, enum tm_type type)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nr; i++)
		n += m->e[i].type == type;
	return n;
}

int treemodel_write(const struct treemodel *m, FILE *out)
{
	for (size_t i = 0; i < m->nr; i++) {
		const struct tm_entry *e = &m->e[i];

		if (e->type == TM_DIR)
			fprintf(out, "%s/\n", e->path);
		else if (e->type == TM_LINK)
			fprintf(out, "%s -> %s\n", e->path, e->target);
		else
			fprintf(out, "%s %llu\n", e->path,
				(unsigned long long)e->size);
	}
	return ferror(out) ? -1 : 0;
}

/* The data format separates words by blanks and has no quoting. */
static bool representable(const char *s)
{
	return *s && !strpbrk(s, " \t\r\n");
}

struct capture {
	struct treemodel *m;
	char path[PATH_MAX];
	const char *root;
	size_t skipped;
};

static int capture_dir(struct capture *c, int dfd)
{
	int ret = 0;
	DIR *d = opendir_at(dfd);
	size_t here = strlen(c->path), seen = 0;
	struct dirent *de;

	if (!d)
		return error_errno("cannot read directory '%s/%s'", c->root,
				   c->path);
	while (!ret && (errno = 0, de = readdir(d))) {
		struct stat sb;
		char *full;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		seen++;
		if (here + 1 + strlen(de->d_name) >= sizeof(c->path)) {
			c->skipped++;
			continue;
		}
		snprintf(c->path + here, sizeof(c->path) - here, "%s%s",
			 here ? "/" : "", de->d_name);
		full = c->path;
		if (fstatat(dfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW)) {
			ret = error_errno("cannot stat '%s/%s'", c->root,
					  full);
		} else if (!representable(de->d_name)) {
			c->skipped++;
		} else if (S_ISREG(sb.st_mode)) {
			treemodel_set(c->m, full, (uint64_t)sb.st_size);
		} else if (S_ISLNK(sb.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlinkat(dfd, de->d_name, target,
					       sizeof(target) - 1);

			if (n < 0) {
				ret = error_errno("cannot read link '%s/%s'",
						  c->root, full);
			} else {
				target[n] = '\0';
				if (representable(target))
					treemodel_set_link(c->m, full, target);
				else
					c->skipped++;
			}
		} else if (S_ISDIR(sb.st_mode)) {
			int sub = openat(dfd, de->d_name, O_RDONLY |
					 O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub < 0) {
				ret = error_errno("cannot open '%s/%s'",
						  c->root, full);
			} else {
				ret = capture_dir(c, sub);
				close(sub);
			}
		} else {
			c->skipped++;
		}
		c->path[here] = '\0';
	}
	if (!ret && errno)
		ret = error_errno("cannot read directory '%s/%s'", c->root,
				  c->path);
	closedir(d);
	/* only empty directories need a line: the others are implied */
	if (!ret && !seen && here)
		treemodel_set_dir(c->m, c->path);
	return ret;
}

int treemodel_capture(struct treemodel *m, const char *dir)
{
	struct capture c = { .m = m, .root = dir };
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0)
		return error_errno("cannot open directory '%s'", dir);
	ret = capture_dir(&c, fd);
	close(fd);
	if (c.skipped)
		warning("'%s': skipped %zu entries a model cannot hold "
			"(devices, fifos, sockets, names with blanks)", dir,
			c.skipped);
	treemodel_sort(m, treemodel_pathcmp);
	return ret;
}

/* m with every directory its paths imply added as a TM_DIR entry. */
static void expand_dirs(struct treemodel *out, const struct treemodel *m)
{
	treemodel_copy(out, m);
	for (size_t i = 0; i < m->nr; i++) {
		char *d = xstrdup(m->e[i].path), *slash;

		while ((slash = strrchr(d, '/'))) {
			*slash = '\0';
			if (!treemodel_set_dir(out, d))
				break; /* its parents are in too */
		}
		free(d);
	}
}

static const char *type_name(enum tm_type t)
{
	return t == TM_DIR ? "directory" : t == TM_LINK ? "link" : "file";
}

size_t treemodel_diff(const struct treemodel *want,
		      const struct treemodel *got, size_t max_report)
{
	struct treemodel w, g;
	size_t bad = 0;

	treemodel_init(&w);
	treemodel_init(&g);
	expand_dirs(&w, want);
	expand_dirs(&g, got);
	for (size_t i = 0; i < w.nr; i++) {
		const struct tm_entry *a = &w.e[i];
		const struct tm_entry *b = treemodel_get(&g, a->path);

		if (b && b->type == a->type && b->size == a->size &&
		    (a->type != TM_LINK || !strcmp(a->target, b->target)))
			continue;
		if (bad++ >= max_report)
			continue;
		if (!b)
			warning("'%s': %s missing", a->path,
				type_name(a->type));
		else if (b->type != a->type)
			warning("'%s': %s, not %s", a->path,
				type_name(b->type), type_name(a->type));
		else if (a->type == TM_LINK)
			warning("'%s': link to '%s', not '%s'", a->path,
				b->target, a->target);
		else
			warning("'%s': %llu bytes, not %llu", a->path,
				(unsigned long long)b->size,
				(unsigned long long)a->size);
	}
	for (size_t i = 0; i < g.nr; i++) {
		if (treemodel_get(&w, g.e[i].path))
			continue;
		if (bad++ < max_report)
			warning("'%s': unexpected %s", g.e[i].path,
				type_name(g.e[i].type));
	}
	treemodel_release(&w);
	treemodel_release(&g);
	return bad;
}
