/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oplog.h - the operation log of an aging run: one operation a line, so
 * the identical history can be recorded once and applied to every
 * configuration under comparison (`fslab age --record/--replay`).
 *
 *	# fslab-oplog 1
 *	mkdir PATH
 *	create PATH SIZE
 *	append PATH LEN
 *	truncate PATH SIZE
 *	overwrite PATH OFFSET LEN
 *	rename PATH NEWPATH
 *	delete PATH
 *	rmdir PATH
 *
 * PATHs are relative to the aged directory, without blanks, "." or ".."
 * components; numbers are decimal bytes.  Blank lines and '#' comment
 * lines are ignored.
 */
#ifndef FSLAB_AGE_OPLOG_H
#define FSLAB_AGE_OPLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define OPLOG_HEADER "# fslab-oplog 1"

enum age_op_kind {
	AOP_MKDIR, AOP_CREATE, AOP_APPEND, AOP_TRUNCATE, AOP_OVERWRITE,
	AOP_RENAME, AOP_DELETE, AOP_RMDIR, AOP_NR_KINDS
};

struct age_op {
	enum age_op_kind kind;
	char path[256];
	char path2[256];   /* rename target */
	uint64_t a, b;     /* size/len; overwrite: offset, len */
};

const char *oplog_kind_name(enum age_op_kind k);
/* "create", ... -> kind; -1 if unknown. */
int oplog_kind_parse(const char *s);

/* One line, with '\n'. */
void oplog_format(const struct age_op *op, char *buf, size_t len);
int oplog_write(FILE *f, const struct age_op *op);
/* Parse one line; 1 = op, 0 = blank/comment, -1 = error in err. */
int oplog_parse_line(const char *line, struct age_op *op, char *err,
		     size_t errlen);

/* Apply one op under the directory fd base.  data: true writes bytes,
 * false reserves them with fallocate.  0 or -1 (message printed). */
int oplog_apply(int base, const struct age_op *op, bool data);

/*
 * The final file set of a log: "mkdir" for every directory left and one
 * "create PATH SIZE" per surviving file, in the order the files were
 * first created - applying it to a fresh filesystem gives the same tree
 * written once, the "fresh" baseline of an aged one.  Reads log, writes
 * out.  0 or -1 (message printed, "LOG:LINE: reason").
 */
int oplog_final_set(FILE *log, const char *origin, FILE *out);

/* A string -> u64 map (chained hash), for the final set and the ager's
 * directory set.  Keys are copied. */
struct age_strmap {
	struct age_strmap_ent {
		char *key;
		uint64_t val;
		long next;
	} *ent;
	size_t nr, alloc;
	long *head;
	size_t nr_head;
	size_t live;
};
/* Index of key, or -1. */
long strmap_find(const struct age_strmap *m, const char *key);
/* Insert key (must be absent); returns its index. */
long strmap_add(struct age_strmap *m, const char *key, uint64_t val);
void strmap_release(struct age_strmap *m);

#endif
