/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cbstate.c - compilebench's pure state machine (see cbstate.h).
 *
 * Each planning function makes exactly the draws compilebench 0.6 makes
 * under Python 3, in the same order: choice(range(len(good))) for the
 * kind of move, choice(list(keys)) for the tree, randint(0, 3) for a
 * patch's unlink mode, randint(100, 100000) (repeated) for a new name.
 */
#include "workloads/compilebench/cbstate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

enum stage {
	ST_INITIAL,
	ST_INITIAL_SYNC,
	ST_RANDOM,
	ST_MJ_COMPILE,
	ST_MJ_COMPILE_DROP,
	ST_MJ_READ,
	ST_MJ_READ_SYNC,
	ST_MJ_READ_DROP,
	ST_MJ_DELETE,
	ST_DONE,
};

static const char *const op_names[CB_NR_OPS] = {
	"patch", "compile", "clean", "delete", "create", "read", "stat",
};

/* "patch", "compile", ... as in the dry-run output. */
static const char *cb_op_name(enum cb_op op)
{
	return op < CB_NR_OPS ? op_names[op] : "?";
}

const char *cb_phase_name(const struct cb_action *a)
{
	if (a->initial)
		return "initial-create";
	if (a->compiled) {
		switch (a->op) {
		case CB_OP_READ:
			return "read-compiled";
		case CB_OP_DELETE:
			return "delete-compiled";
		case CB_OP_STAT:
			return "stat-compiled";
		default:
			break;
		}
	}
	return cb_op_name(a->op);
}

void cb_derive(struct cb_sets *out, const struct treemodel *u,
	       const struct treemodel *p, const struct treemodel *uc,
	       const struct treemodel *pc)
{
	struct treemodel pcs_all;

	for (int i = 0; i < CB_NR_DATA; i++)
		treemodel_init(&out->d[i]);
	treemodel_copy(&out->d[CB_DATA_CLEAN], u);
	/* compiled sets keep only what compiling added ... */
	treemodel_subtract(&out->d[CB_DATA_UCS], uc, u, false);
	treemodel_init(&pcs_all);
	treemodel_subtract(&pcs_all, pc, p, false);
	/* ... the patch only what it changed */
	treemodel_subtract(&out->d[CB_DATA_PS], p, u, true);
	treemodel_subtract(&out->d[CB_DATA_PCS], &pcs_all,
			   &out->d[CB_DATA_UCS], true);
	treemodel_release(&pcs_all);
}

static const char *const data_files[] = {
	"dataset-unpatched", "dataset-patched",
	"dataset-unpatched-compiled", "dataset-patched-compiled",
};

int cb_sources_check(const char *dir, char *err, size_t errlen)
{
	for (size_t i = 0; i < ARRAY_SIZE(data_files); i++) {
		char *path = path_join(dir, data_files[i]);
		int rc = access(path, R_OK);
		int e = errno;

		free(path);
		if (rc < 0) {
			snprintf(err, errlen, "sources '%s': cannot read '%s': "
				 "%s", dir, data_files[i], strerror(e));
			return -1;
		}
	}
	return 0;
}

int cb_sets_load(struct cb_sets *s, const char *dir)
{
	struct treemodel raw[4];
	int ret = 0;

	for (int i = 0; i < 4; i++)
		treemodel_init(&raw[i]);
	for (int i = 0; i < 4 && !ret; i++) {
		char *path = path_join(dir, data_files[i]);

		ret = treemodel_load(&raw[i], path);
		free(path);
	}
	if (!ret)
		cb_derive(s, &raw[0], &raw[1], &raw[2], &raw[3]);
	for (int i = 0; i < 4; i++)
		treemodel_release(&raw[i]);
	return ret;
}

void cb_sets_builtin(struct cb_sets *s)
{
	struct treemodel raw[4];

	for (int i = 0; i < 4; i++)
		treemodel_init(&raw[i]);
	kmodel_generate(&raw[0], &raw[1], &raw[2], &raw[3]);
	cb_derive(s, &raw[0], &raw[1], &raw[2], &raw[3]);
	for (int i = 0; i < 4; i++)
		treemodel_release(&raw[i]);
}

void cb_sets_release(struct cb_sets *s)
{
	for (int i = 0; i < CB_NR_DATA; i++)
		treemodel_release(&s->d[i]);
}

void cb_state_init(struct cb_state *st, const struct cb_params *par,
		   struct cb_sets *sets)
{
	memset(st, 0, sizeof(*st));
	st->par = *par;
	pyrand_seed(&st->rng, par->seed);
	treemodel_init(&st->taken);
	treemodel_shuffle(&sets->d[CB_DATA_UCS], &st->rng);
	st->stage = ST_INITIAL;
}

void cb_state_release(struct cb_state *st)
{
	for (int i = 0; i < CB_NR_SETS; i++) {
		for (size_t j = 0; j < st->set[i].nr; j++)
			free(st->set[i].name[j]);
		free(st->set[i].name);
	}
	treemodel_release(&st->taken);
	memset(st, 0, sizeof(*st));
}

static void set_append(struct cb_treeset *s, char *name)
{
	ALLOC_GROW(s->name, s->nr + 1, s->alloc);
	s->name[s->nr++] = name;
}

/* Remove entry i keeping the order (dict deletion); returns the name. */
static char *set_take(struct cb_treeset *s, size_t i)
{
	char *name = s->name[i];

	memmove(s->name + i, s->name + i + 1,
		(s->nr - i - 1) * sizeof(*s->name));
	s->nr--;
	return name;
}

void cb_state_add(struct cb_state *st, enum cb_set set, const char *name)
{
	treemodel_set(&st->taken, name, 0);
	set_append(&st->set[set], xstrdup(name));
}

size_t cb_state_count(const struct cb_state *st, enum cb_set set)
{
	return st->set[set].nr;
}

static bool name_exists(struct cb_state *st, const char *name)
{
	if (st->exists)
		return st->exists(st->exists_arg, name);
	return treemodel_get(&st->taken, name) != NULL;
}

/* Python dict equality of two tree sets: same keys, order ignored. */
static bool set_equal(const struct cb_treeset *a, const struct cb_treeset *b)
{
	if (a->nr != b->nr)
		return false;
	for (size_t i = 0; i < a->nr; i++) {
		size_t j;

		for (j = 0; j < b->nr; j++)
			if (!strcmp(a->name[i], b->name[j]))
				break;
		if (j == b->nr)
			return false;
	}
	return true;
}

struct move {
	enum cb_set from, to;
	enum cb_data data;
};

static void set_tree(struct cb_action *a, const char *name)
{
	if ((size_t)snprintf(a->tree, sizeof(a->tree), "%s", name) >=
	    sizeof(a->tree))
		BUG("tree name '%s' too long", name);
}

/* patch/compile/clean: pick among the moves whose source is non-empty. */
static bool plan_move(struct cb_state *st, const struct move *mv,
		      struct cb_action *a)
{
	const struct move *good[2];
	const struct move *m;
	size_t n = 0, i;
	char *name;

	for (int k = 0; k < 2; k++)
		if (st->set[mv[k].from].nr)
			good[n++] = &mv[k];
	if (!n)
		return false;
	m = good[pyrand_below(&st->rng, n)];
	i = (size_t)pyrand_below(&st->rng, st->set[m->from].nr);
	if (a->op == CB_OP_PATCH)
		a->unlink_first = pyrand_randint(&st->rng, 0, 3) == 1;
	name = set_take(&st->set[m->from], i);
	set_tree(a, name);
	a->data = m->data;
	set_append(&st->set[m->to], name);
	return true;
}

/* delete/read/stat: choose a non-empty set in (P, U, UC, PC) order. */
static bool plan_pick(struct cb_state *st, struct cb_action *a)
{
	static const enum cb_set order[] = {
		CB_SET_P, CB_SET_U, CB_SET_UC, CB_SET_PC,
	};
	enum cb_set good[4], ch;
	size_t n = 0, i;
	bool is_compiled;

	for (int k = 0; k < 4; k++)
		if (st->set[order[k]].nr)
			good[n++] = order[k];
	if (!n)
		return false;
	ch = good[pyrand_below(&st->rng, n)];
	i = (size_t)pyrand_below(&st->rng, st->set[ch].nr);
	set_tree(a, st->set[ch].name[i]);
	if (a->op == CB_OP_DELETE)
		free(set_take(&st->set[ch], i));
	is_compiled = ch == CB_SET_UC || ch == CB_SET_PC;
	/*
	 * compilebench tests `ch == unpatched_compiled_dirs`, comparing dict
	 * contents after the removal: emptying U or P while UC or PC is
	 * empty counts as a compiled tree.
	 */
	if (st->par.compat == CB_COMPAT_PY3)
		a->compiled = set_equal(&st->set[ch], &st->set[CB_SET_UC]) ||
			      set_equal(&st->set[ch], &st->set[CB_SET_PC]);
	else
		a->compiled = is_compiled;
	return true;
}

static void plan_create(struct cb_state *st, struct cb_action *a)
{
	char name[32];

	do
		snprintf(name, sizeof(name), "kernel-%lld",
			 (long long)pyrand_randint(&st->rng, 100, 100000));
	while (name_exists(st, name));
	cb_state_add(st, CB_SET_U, name);
	set_tree(a, name);
	a->data = CB_DATA_CLEAN;
}

bool cb_state_plan(struct cb_state *st, enum cb_op op, struct cb_action *a)
{
	static const struct move patch[2] = {
		{ CB_SET_U, CB_SET_P, CB_DATA_PS },
		{ CB_SET_UC, CB_SET_PC, CB_DATA_PCS },
	};
	static const struct move compile[2] = {
		{ CB_SET_U, CB_SET_UC, CB_DATA_UCS },
		{ CB_SET_P, CB_SET_PC, CB_DATA_PCS },
	};
	static const struct move clean[2] = {
		{ CB_SET_PC, CB_SET_P, CB_DATA_PCS },
		{ CB_SET_UC, CB_SET_U, CB_DATA_UCS },
	};

	memset(a, 0, sizeof(*a));
	a->op = op;
	a->data = CB_DATA_NONE;
	switch (op) {
	case CB_OP_PATCH:
		return plan_move(st, patch, a);
	case CB_OP_COMPILE:
		return plan_move(st, compile, a);
	case CB_OP_CLEAN:
		return plan_move(st, clean, a);
	case CB_OP_DELETE:
	case CB_OP_READ:
	case CB_OP_STAT:
		return plan_pick(st, a);
	case CB_OP_CREATE:
		plan_create(st, a);
		return true;
	default:
		BUG("bad op %d", (int)op);
	}
}

enum cb_event cb_state_next(struct cb_state *st, struct cb_action *a)
{
	enum cb_op op;

	for (;;) {
		switch (st->stage) {
		case ST_INITIAL:
			if (st->count < st->par.initial_dirs) {
				char name[32];

				snprintf(name, sizeof(name), "kernel-%d",
					 st->count++);
				memset(a, 0, sizeof(*a));
				a->op = CB_OP_CREATE;
				a->initial = true;
				a->data = CB_DATA_CLEAN;
				cb_state_add(st, CB_SET_U, name);
				set_tree(a, name);
				return CB_EV_OP;
			}
			st->stage = ST_INITIAL_SYNC;
			return CB_EV_SYNC;
		case ST_INITIAL_SYNC:
			st->stage = st->par.makej ? ST_MJ_COMPILE : ST_RANDOM;
			st->count = 0;
			st->need_drop = true;
			break;
		case ST_RANDOM:
			if (st->done >= st->par.runs) {
				st->stage = ST_DONE;
				break;
			}
			if (st->need_drop) {
				st->need_drop = false;
				return CB_EV_DROP;
			}
			st->need_drop = true;
			op = (enum cb_op)pyrand_below(&st->rng, CB_NR_OPS);
			if (cb_state_plan(st, op, a)) {
				st->done++;
				a->sync = true;
				return CB_EV_OP;
			}
			break;
		case ST_MJ_COMPILE:
			if (cb_state_plan(st, CB_OP_COMPILE, a)) {
				st->done++;
				return CB_EV_OP;
			}
			st->stage = ST_MJ_COMPILE_DROP;
			return CB_EV_SYNC;
		case ST_MJ_COMPILE_DROP:
			st->stage = ST_MJ_READ;
			return CB_EV_DROP;
		case ST_MJ_READ:
			/* three read_one_dir() calls, whether or not they
			 * found a tree */
			if (st->count >= 3) {
				st->stage = ST_MJ_READ_SYNC;
				break;
			}
			st->count++;
			if (cb_state_plan(st, CB_OP_READ, a)) {
				st->done++;
				return CB_EV_OP;
			}
			break;
		case ST_MJ_READ_SYNC:
			st->stage = ST_MJ_READ_DROP;
			return CB_EV_SYNC;
		case ST_MJ_READ_DROP:
			st->stage = ST_MJ_DELETE;
			return CB_EV_DROP;
		case ST_MJ_DELETE:
			if (cb_state_plan(st, CB_OP_DELETE, a)) {
				st->done++;
				return CB_EV_OP;
			}
			st->stage = ST_DONE;
			return CB_EV_SYNC;
		default:
			return CB_EV_DONE;
		}
	}
}

void cb_dry_run(FILE *out, struct cb_state *st)
{
	struct cb_action a;
	enum cb_event ev;

	while ((ev = cb_state_next(st, &a)) != CB_EV_DONE)
		if (ev == CB_EV_OP && !a.initial)
			fprintf(out, "%s %s\n", cb_op_name(a.op), a.tree);
}
