/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * treemodel.h - a "tree model": the files of a directory tree as an
 * insertion-ordered list of (relative path, size) entries with O(1)
 * lookup by path, i.e. a Python dict from path to size.  Compilebench's
 * data sets are such models; the `tree` workload reads them too.
 *
 * Data format, one entry per line: `relative/path size`, separated by
 * blanks.  Blank lines are skipped.  A path seen again keeps its first
 * position and takes the later size (dict assignment).
 */
#ifndef FSLAB_TREEMODEL_H
#define FSLAB_TREEMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pyrand;

struct tm_entry {
	char *path;
	uint64_t size;
};

struct treemodel {
	struct tm_entry *e;   /* in insertion order */
	size_t nr, alloc;
	size_t *slot;         /* open addressing: entry index + 1, 0 = free */
	size_t nslots;        /* power of two, or 0 */
	uint64_t bytes;       /* sum of all sizes */
};

void treemodel_init(struct treemodel *m);
void treemodel_release(struct treemodel *m);
/* Insert at the end, or update the size of an existing path in place.
 * Returns 1 when the path was new, 0 when it was updated. */
int treemodel_set(struct treemodel *m, const char *path, uint64_t size);
/* The entry for path, or NULL. */
const struct tm_entry *treemodel_get(const struct treemodel *m,
				     const char *path);
/*
 * Parse the data format from text (len bytes); name labels messages
 * ("name:line: ...").  Appends to m.  0, or -1 after printing the error.
 */
int treemodel_parse(struct treemodel *m, const char *text, size_t len,
		    const char *name);
/* treemodel_parse() of a file.  0 or -1 (message printed). */
int treemodel_load(struct treemodel *m, const char *path);
/*
 * out = the entries of a (in a's order) whose path is not in b; with
 * same_size_only, drop only the paths whose size in b is the same.
 * out must be initialised and empty.
 */
void treemodel_subtract(struct treemodel *out, const struct treemodel *a,
			const struct treemodel *b, bool same_size_only);
/* out = a copy of m (out initialised, empty). */
void treemodel_copy(struct treemodel *out, const struct treemodel *m);
/* Number of distinct directories the paths name, the root not counted. */
size_t treemodel_dir_count(const struct treemodel *m);
/* Stable sort by a comparator on paths; the index follows. */
void treemodel_sort(struct treemodel *m,
		    int (*cmp)(const char *a, const char *b));
/* random.shuffle() of the entry order with r. */
void treemodel_shuffle(struct treemodel *m, struct pyrand *r);
/*
 * Compare two paths for compilebench's creation order: component by
 * component, a directory's own files before anything in its
 * subdirectories, names in byte order.  A total order close to
 * compilebench's (non-transitive) pathcomp().
 */
int treemodel_pathcmp(const char *a, const char *b);

/* ---- kmodel.c: the built-in, seeded kernel-like data sets ---- */

/*
 * Fill the four compilebench data sets (all initialised and empty):
 * clean unpatched, clean patched, compiled unpatched, compiled patched,
 * shaped like Linux 2.6.20 -> 2.6.21 (see doc/compilebench.md).  The
 * result is the same on every call and machine.
 */
void kmodel_generate(struct treemodel *unpatched, struct treemodel *patched,
		     struct treemodel *unpatched_compiled,
		     struct treemodel *patched_compiled);

#endif
