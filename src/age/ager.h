/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ager.h - the aging engine's decision loop: which operation comes next.
 *
 * The ager is a pure model of the aged directory: it keeps every live
 * file's size, depth and birth (in operations) and its own byte
 * accounting, and emits one struct age_op at a time.  It never looks at
 * the filesystem, so the op sequence depends only on the parameters
 * (profile, seed, capacity and initial usage from one statvfs, block
 * size, mix, limits) - the same seed gives the same log, whatever the
 * timing, and the caller only applies the ops (age/session.c).
 */
#ifndef FSLAB_AGE_AGER_H
#define FSLAB_AGE_AGER_H

#include <stdbool.h>
#include <stdint.h>

#include "age/oplog.h"
#include "age/profile.h"

struct ager_params {
	const struct age_profile *prof;
	uint64_t seed;
	double fullness;          /* target share of capacity, (0, 1) */
	uint64_t capacity;        /* f_blocks * f_frsize */
	uint64_t base_used;       /* (f_blocks - f_bfree) * f_frsize at start */
	uint64_t bsize;           /* allocation unit for the accounting */
	/* --ops weights, indexed by enum age_op_kind (mkdir, rmdir
	 * ignored); all 0 = alternate create and delete around fullness. */
	unsigned weights[AOP_NR_KINDS];
	double tolerance;         /* convergence: every distance <= this */
	uint64_t budget;          /* stop after this many bytes; 0 = none */
	uint64_t max_ops;         /* stop after this many ops; 0 = none */
	unsigned fanout;          /* subdirectories per level (4) */
};

struct ager;

struct ager_status {
	bool filling;             /* still in the initial fill */
	uint64_t ops;             /* ops emitted so far, mkdir included */
	uint64_t fill_ops;        /* ops the fill took (once it ended) */
	uint64_t files, dirs;     /* live */
	uint64_t used;            /* accounted bytes, base included */
	uint64_t written;         /* bytes created, appended, overwritten */
	double fullness;          /* used / capacity */
	double dist[AGE_NR_DIMS]; /* profile_distance per dimension */
	const char *stop;         /* why ager_next returned 0, or NULL */
};

/* NULL with a message when the parameters cannot work. */
struct ager *ager_new(const struct ager_params *p);
void ager_free(struct ager *a);
/* The next op: 1, or 0 when aging is over (status.stop says why). */
int ager_next(struct ager *a, struct age_op *op);
void ager_status(const struct ager *a, struct ager_status *s);
/* True until the last op of the fill was emitted. */
bool ager_filling(const struct ager *a);

/* "create=4,delete=3" into weights.  0 or -1 with err. */
int ager_parse_ops(const char *s, unsigned *weights, char *err,
		   size_t errlen);

/* ager_age_dir() with the defaults of `fslab age` (util/defaults.h):
 * what a target's age=PROFILE does (a target_age_fn). */
int ager_age_default(const char *dir, const char *profile);

#endif
