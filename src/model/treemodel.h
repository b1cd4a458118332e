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
 *
 * Extension (doc/tree.md), so a model can hold any tree: a line of one
 * word ending in '/' (`relative/dir/`) is a directory, so empty ones
 * survive; `relative/link -> target` is a symbolic link.  Files with only
 * the two-word form parse exactly as before.
 */
#ifndef FSLAB_TREEMODEL_H
#define FSLAB_TREEMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pyrand;

enum tm_type {
	TM_FILE = 0,  /* regular file of ->size bytes */
	TM_DIR,       /* directory (path without the trailing '/'), size 0 */
	TM_LINK,      /* symbolic link to ->target, size 0 */
};

struct tm_entry {
	char *path;
	uint64_t size;
	enum tm_type type;
	char *target;  /* TM_LINK: the link's contents, else NULL */
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
/* Insert or replace path as a directory / a symbolic link to target;
 * 1 when the path was new, 0 when it was replaced. */
int treemodel_set_dir(struct treemodel *m, const char *path);
int treemodel_set_link(struct treemodel *m, const char *path,
		       const char *target);
/* The entry for path, or NULL. */
const struct tm_entry *treemodel_get(const struct treemodel *m,
				     const char *path);
/*
 * The first ancestor of path that m holds as a symlink (copied into buf),
 * or NULL.  An entry beneath a symlink is refused by the parsers: created
 * through the link, it would land outside the tree.
 */
const char *treemodel_link_parent(const struct treemodel *m, const char *path,
				  char *buf, size_t len);
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
/* Count of entries of a type. */
size_t treemodel_count(const struct treemodel *m, enum tm_type type);
/* Write m in the data format (extended lines only where needed).  0 or -1
 * with errno set on a write error (no message). */
int treemodel_write(const struct treemodel *m, FILE *out);
/*
 * Capture the tree under dir into m (initialised, empty): regular files
 * with their sizes, symbolic links with their targets, and directories
 * that hold nothing (others are implied by their contents), sorted with
 * treemodel_pathcmp so a capture is the same on every filesystem.  Other
 * file types are skipped with one warning.  0, or -1 (message printed).
 */
int treemodel_capture(struct treemodel *m, const char *dir);
/*
 * Compare a wanted tree with a captured one, directories implied by
 * paths included on both sides: every path with the same type, size and
 * link target.  Prints up to max_report differences with warning() and
 * returns the number of differences.
 */
size_t treemodel_diff(const struct treemodel *want,
		      const struct treemodel *got, size_t max_report);
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
