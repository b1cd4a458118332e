/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cbstate.h - compilebench's state machine, without any I/O.
 *
 * Every tree is in one of four insertion-ordered sets: U (clean
 * unpatched), P (clean patched), UC and PC (compiled).  An op picks a
 * tree with the same random draws compilebench makes and moves it from
 * one set to another; the workload then does the file work the returned
 * action describes.  Because the draws (and nothing else) define the op
 * sequence, a dry run, a real run and the Python tool agree op for op.
 *
 * cb_state_next() is an iterator over the whole run: the initial creates,
 * the syncs and cache drops between ops, then the random ops (or the
 * makej sequence), and finally CB_EV_DONE.
 */
#ifndef FSLAB_CBSTATE_H
#define FSLAB_CBSTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/treemodel.h"
#include "util/pyrand.h"

enum cb_set { CB_SET_U, CB_SET_P, CB_SET_UC, CB_SET_PC, CB_NR_SETS };

/* The derived data sets an op writes or unlinks. */
enum cb_data {
	CB_DATA_CLEAN, /* unpatched: what create writes */
	CB_DATA_PS,    /* patch set: patched files that differ */
	CB_DATA_UCS,   /* unpatched compile outputs */
	CB_DATA_PCS,   /* patched compile outputs that differ */
	CB_NR_DATA,
	CB_DATA_NONE = CB_NR_DATA,
};

/* In compilebench's `ops` tuple order: choice() draws an index into it. */
enum cb_op {
	CB_OP_PATCH,
	CB_OP_COMPILE,
	CB_OP_CLEAN,
	CB_OP_DELETE,
	CB_OP_CREATE,
	CB_OP_READ,
	CB_OP_STAT,
	CB_NR_OPS,
};

enum cb_compat {
	CB_COMPAT_PY3,   /* compilebench 0.6 under Python 3, quirks kept */
	CB_COMPAT_FIXED, /* same draws, "compiled" counted correctly */
};

enum cb_event {
	CB_EV_DONE,
	CB_EV_OP,   /* do the action */
	CB_EV_SYNC, /* untimed sync (unless no-sync) */
	CB_EV_DROP, /* drop caches (unless no-sync) */
};

struct cb_sets {
	struct treemodel d[CB_NR_DATA];
};

struct cb_params {
	int initial_dirs;
	int runs;
	bool makej;
	enum cb_compat compat;
	uint64_t seed;
};

struct cb_action {
	enum cb_op op;
	bool initial;          /* one of the initial creates */
	char tree[32];
	enum cb_data data;     /* written (create/patch/compile), unlinked
				* (clean), else CB_DATA_NONE */
	bool unlink_first;     /* patch: unlink each file before writing */
	bool compiled;         /* read/stat/delete counted as "compiled" */
	bool sync;             /* the op's timing includes a sync */
};

struct cb_treeset {
	char **name;
	size_t nr, alloc;
};

struct cb_state {
	struct pyrand rng;
	struct cb_params par;
	struct cb_treeset set[CB_NR_SETS];
	struct treemodel taken; /* every tree name ever created */
	/* Does a directory of that name exist?  NULL: look in taken. */
	bool (*exists)(void *arg, const char *name);
	void *exists_arg;
	int stage, count, done;
	bool need_drop;
};

/*
 * Derive the op payloads exactly as compilebench does from the four data
 * sets (clean unpatched, clean patched, compiled unpatched, compiled
 * patched).  out is filled; the inputs are not changed.
 */
void cb_derive(struct cb_sets *out, const struct treemodel *u,
	       const struct treemodel *p, const struct treemodel *uc,
	       const struct treemodel *pc);
/* Load dataset-* from dir and derive.  0 or -1 (message printed). */
/* Check that dir holds the four readable dataset-* files, before any
 * filesystem is built for a run that would then fail.  0 or -1 with err. */
int cb_sources_check(const char *dir, char *err, size_t errlen);
int cb_sets_load(struct cb_sets *s, const char *dir);
/* The built-in model (kmodel), derived. */
void cb_sets_builtin(struct cb_sets *s);
void cb_sets_release(struct cb_sets *s);

/*
 * Seed the generator and shuffle sets->d[CB_DATA_UCS] with it: that
 * shuffle is compilebench's first use of its generator.
 */
void cb_state_init(struct cb_state *st, const struct cb_params *par,
		   struct cb_sets *sets);
void cb_state_release(struct cb_state *st);
/* Put a tree into a set directly (tests, crafted scenarios). */
void cb_state_add(struct cb_state *st, enum cb_set set, const char *name);
size_t cb_state_count(const struct cb_state *st, enum cb_set set);
/* Next step of the run; fills a for CB_EV_OP. */
enum cb_event cb_state_next(struct cb_state *st, struct cb_action *a);
/*
 * Plan one op of kind op, with its draws, and apply it to the sets.
 * Returns true, or false when no tree was eligible.
 */
bool cb_state_plan(struct cb_state *st, enum cb_op op, struct cb_action *a);

/* The phase name of an action: "read-compiled", "initial-create" ... */
const char *cb_phase_name(const struct cb_action *a);
/* Run the whole plan, printing "<op> <tree>" per succeeded op. */
void cb_dry_run(FILE *out, struct cb_state *st);

#endif
