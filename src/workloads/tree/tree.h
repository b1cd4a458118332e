/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree.h - the pure pieces of the `tree` workload (src/workloads/tree/),
 * shared with its unit tests: traversal orders and their sorting, the
 * m:ss.s formatter of the classic table, the atime mode of a mount, and
 * replaying a tree model into a directory.
 */
#ifndef FSLAB_TREE_H
#define FSLAB_TREE_H

#include <stddef.h>
#include <stdint.h>

struct treemodel;

enum tree_order {
	TREE_READDIR, /* depth-first, entries as readdir returns them */
	TREE_INODE,   /* each directory's entries sorted by inode number */
	TREE_DISK,    /* files sorted by their first extent's address */
	TREE_NR_ORDERS,
};

#define TREE_MAX_ORDERS 8

/* A file to visit: path relative to the tree, inode, first extent. */
struct tree_file {
	char *path;
	uint64_t ino;
	uint64_t phys;  /* byte address of the first extent, 0 if none */
};

const char *tree_order_name(enum tree_order o);
/*
 * Parse "readdir+inode+disk" into orders (at most TREE_MAX_ORDERS, each
 * once).  0, or -1 with the reason in err.
 */
int tree_parse_orders(const char *s, enum tree_order *orders, size_t *nr,
		      char *err, size_t errlen);
/* Stable sorts: by inode (then path), by physical address (then inode). */
void tree_sort_ino(struct tree_file *v, size_t n);
void tree_sort_phys(struct tree_file *v, size_t n);
/*
 * Seconds as the classic table prints them, "m:ss.s" ("1:01.5",
 * "0:42.9"), "<0:00.1" below the table's resolution, "-" when negative
 * (no measurement).  Returns buf.
 */
char *tree_fmt_mss(char *buf, size_t len, double secs);
/* "noatime", "relatime" or "strictatime" from a mount option string. */
const char *tree_atime_mode(const char *mount_opts);
/* The numeric code stored as the atime_mode metric: 0, 1, 2 as above. */
int tree_atime_code(const char *mode);
/*
 * Create the tree m describes under dir (which must exist): files of
 * their sizes, directories, symbolic links; the way the unpack phase
 * replays a model, without measuring.  0, or -1 (message printed).
 */
int tree_replay(const char *dir, const struct treemodel *m);

#endif
