/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the files of src/check/ share: the run regrouped by
 * (target, workload, phase), the context the checks add findings to,
 * and the checks of setup.c (the machine and the targets) and shape.c
 * (repetitions, phase lengths, trends).  Each check returns false when
 * the run's records cannot answer it (after saying why).
 */
#ifndef FSLAB_CHECK_INTERNAL_H
#define FSLAB_CHECK_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "check/check.h"
#include "util/util.h"

#define CHECK_MIB (1024.0 * 1024.0)
/* compare's floor: fewer repetitions give no verdict. */
#define CHECK_MIN_REPS 3

/* One phase of one workload on one target, over its repetitions. */
struct pgroup {
	int tidx;
	const char *tname, *fstype, *wl, *phase;
	double logical, device, cpu, runq, wall; /* summed over instances */
	size_t inst, dev_inst;
	size_t workers;
	uint64_t work;  /* bytes + files + ops reported, summed */
	bool too_short;
};

struct ctx {
	const struct run_rec *r;
	const struct check_opts *o;
	struct check_report *rep;
	bool planned;          /* the run (or the user) named the change it
				* should see, or it compares targets */
	struct pgroup *g;
	size_t nr_g, alloc_g;
};

/* Add a finding of check id (accepted when --accept or the run says). */
void PRINTF(5, 6) check_add(struct ctx *c, const char *id,
			    enum check_level level, const char *subject,
			    const char *fmt, ...);
/* Check id could not look: "id (why)" in the coverage line. */
void PRINTF(3, 4) check_unchecked(struct ctx *c, const char *id,
				  const char *fmt, ...);
/* A recorded fact's value; NULL when not recorded or "absent". */
const char *check_machine_fact(const struct ctx *c, const char *key);
const char *check_target_fact(const struct ctx *c, int idx, const char *key);
/* "ext4 bonnie/block-read" (malloc'd). */
char *check_subject(const struct pgroup *g);

/* The first target record of each command-line index. */
static inline bool check_first_of_idx(const struct run_rec *r,
				      const struct target_rec *t)
{
	for (const struct target_rec *u = r->targets; u < t; u++)
		if (u->idx == t->idx)
			return false;
	return true;
}

#define EACH_TARGET(c, t)                                                  \
	for (const struct target_rec *t = (c)->r->targets;                 \
	     t < (c)->r->targets + (c)->r->nr_targets; t++)                \
		if (check_first_of_idx((c)->r, t))

/* setup.c */
bool check_memfs(struct ctx *c);
bool check_loop_cache(struct ctx *c);
bool check_vm(struct ctx *c);
bool check_device_cache(struct ctx *c);
bool check_kernel_debug(struct ctx *c);
bool check_mitigations(struct ctx *c);
bool check_governor(struct ctx *c);
bool check_cache_declared(struct ctx *c);
bool check_fs_state(struct ctx *c);
bool check_versions(struct ctx *c);

/* shape.c: repetitions and warm-up judge each workload's key figure per
 * repetition (shape_series); release with shape_series_free. */
struct series {
	int tidx;
	const char *tname, *wl, *what;
	double *x;
	size_t n, alloc;
};
void shape_series(const struct run_rec *r, struct series **out, size_t *nr);
void shape_series_free(struct series *s, size_t nr);
bool check_repetitions(struct ctx *c, struct series *s, size_t nr);
bool check_warmup(struct ctx *c, struct series *s, size_t nr);
bool check_short(struct ctx *c);
bool check_trend(struct ctx *c);

#endif
