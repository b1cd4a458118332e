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
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/pyrand.h"
#include "util/util.h"

void treemodel_init(struct treemodel *m)
{
	memset(m, 0, sizeof(*m));
}

void treemodel_release(struct treemodel *m)
{
	for (size_t i = 0; i < m->nr; i++)
		free(m->e[i].path);
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

int treemodel_set(struct treemodel *m, const char *path, uint64_t size)
{
	size_t s;

	/* keep the load factor under 1/2 so probes stay short */
	if ((m->nr + 1) * 2 > m->nslots)
		reindex(m, m->nslots ? m->nslots * 2 : 64);
	s = find_slot(m, path);
	if (m->slot[s]) {
		struct tm_entry *e = &m->e[m->slot[s] - 1];

		m->bytes = m->bytes - e->size + size;
		e->size = size;
		return 0;
	}
	ALLOC_GROW(m->e, m->nr + 1, m->alloc);
	m->e[m->nr].path = xstrdup(path);
	m->e[m->nr].size = size;
	m->nr++;
	m->slot[s] = m->nr;
	m->bytes += size;
	return 1;
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

int treemodel_parse(struct treemodel *m, const char *text, size_t len,
		    const char *name)
{
	const char *p = text, *end = text + len;
	unsigned long line = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *w1, *w2, *cur = p;
		size_t l1 = 0, l2 = 0, l3 = 0;
		char path[4096], num[32];
		uint64_t size;

		if (!eol)
			eol = end;
		line++;
		p = eol < end ? eol + 1 : end;
		w1 = next_word(&cur, eol, &l1);
		if (!w1)
			continue;
		w2 = next_word(&cur, eol, &l2);
		if (!w2 || next_word(&cur, eol, &l3))
			return error("%s:%lu: malformed line (want 'path "
				     "size')", name, line);
		if (l1 >= sizeof(path) || l2 >= sizeof(num))
			return error("%s:%lu: line too long", name, line);
		memcpy(path, w1, l1);
		path[l1] = '\0';
		memcpy(num, w2, l2);
		num[l2] = '\0';
		if (parse_u64(num, &size) < 0)
			return error("%s:%lu: '%s' is not a file size", name,
				     line, num);
		if (path[0] == '/' || path[l1 - 1] == '/')
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
		treemodel_set(out, a->e[i].path, a->e[i].size);
	}
}

void treemodel_copy(struct treemodel *out, const struct treemodel *m)
{
	for (size_t i = 0; i < m->nr; i++)
		treemodel_set(out, m->e[i].path, m->e[i].size);
}

size_t treemodel_dir_count(const struct treemodel *m)
{
	struct treemodel dirs;
	size_t n;

	treemodel_init(&dirs);
	for (size_t i = 0; i < m->nr; i++) {
		char *d = xstrdup(m->e[i].path), *slash;

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

/* Merge sort (stable) on entries; qsort is not stable. */
static void msort(struct tm_entry *v, struct tm_entry *tmp, size_t n,
		  int (*cmp)(const char *, const char *))
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	msort(v, tmp, h, cmp);
	msort(v + h, tmp, n - h, cmp);
	while (i < h && j < n)
		tmp[k++] = cmp(v[j].path, v[i].path) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

void treemodel_sort(struct treemodel *m,
		    int (*cmp)(const char *a, const char *b))
{
	struct tm_entry *tmp = xmalloc((m->nr ? m->nr : 1) * sizeof(*tmp));

	msort(m->e, tmp, m->nr, cmp);
	free(tmp);
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
