/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compilebench.c - Chris Mason's compilebench 0.6, in C: age a
 * filesystem by creating, patching, compiling, cleaning, reading,
 * stat'ing and deleting kernel-like trees in a random but fixed order.
 *
 * The decisions (which op, which tree) come from cbstate.c, drawn
 * exactly like the Python tool; this file does the file I/O for each
 * action, one phase per op, and renders compilebench's report from the
 * phase records.  Progress lines match compilebench's stderr byte for
 * byte, so scripts that parse them keep working.
 */
#include "workloads/compilebench/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/treemodel.h"
#include "util/util.h"
#include "util/verify.h"

static const struct opt_enum fill_values[] = {
	{ "a", CB_FILL_A, "every byte is 'a', like compilebench" },
	{ "random", CB_FILL_RANDOM, "incompressible bytes" },
	{ NULL, 0, NULL },
};

static const struct opt_enum compat_values[] = {
	{ "py3", CB_COMPAT_PY3, "compilebench 0.6 on Python 3, quirks kept" },
	{ "fixed", CB_COMPAT_FIXED, "same draws, compiled trees counted "
	  "correctly" },
	{ NULL, 0, NULL },
};

#define OFF(f) offsetof(struct cb_opts, f)
static const struct opt cb_opt_table[] = {
	{ "initial-dirs", OPT_INT, OFF(initial_dirs), "30",
	  "trees created before the random ops", 0, 100000, NULL },
	{ "runs", OPT_INT, OFF(runs), "100", "random ops to complete",
	  0, 100000000, NULL },
	{ "sources", OPT_STRING, OFF(sources), "",
	  "directory with compilebench's dataset-* files (empty: the "
	  "built-in model)", 0, 0, NULL },
	{ "buffer-size", OPT_SIZE, OFF(buffer_size), "262144",
	  "read/write buffer, 4096..64M", 0, 0, NULL },
	{ "makej", OPT_BOOL, OFF(makej), "no",
	  "compile, read and delete the initial trees, then stop",
	  0, 0, NULL },
	{ "no-sync", OPT_BOOL, OFF(no_sync), "no",
	  "no syncs and no cache drops", 0, 0, NULL },
	{ "data", OPT_ENUM, OFF(data), "a", "file contents", 0, 0,
	  fill_values },
	{ "compat", OPT_ENUM, OFF(compat), "py3", "compilebench flavour",
	  0, 0, compat_values },
	{ "seed", OPT_SEED, OFF(seed), OPT_SEED_DEFAULT,
	  "random.Random() seed", 0, 0, NULL },
	OPT_END,
};

static const char *const cb_phase_names[] = {
	"native-unpatched", "native-patched", "native-patched-compiled",
	"initial-create", "create", "patch", "compile", "clean",
	"read", "read-compiled", "delete", "delete-compiled", "stat",
	"stat-compiled", "summary", NULL,
};

/* Sync inside the op's timing, timed on its own as sync_s. */
static int cb_op_sync(struct cb_run *r, struct op_work *w)
{
	uint64_t t0 = now_ns();
	int ret = wl_sync(r->ctx);

	phase_metric(w->ph, "sync_s", secs(now_ns() - t0), "s",
		     BETTER_LOWER);
	if (ret)
		phase_fail(w->ph, "sync failed");
	return ret;
}

static int finish(struct cb_run *r, struct op_work *w, int ret,
		  const struct phase_rec **rec)
{
	phase_work(w->ph, w->bytes, w->files, w->ops);
	if (phase_end(r->ctx, w->ph, rec) < 0)
		ret = -1;
	w->ph = NULL;
	return ret;
}

/* The progress line of a run_directory() op, as compilebench prints it. */
static void print_written(struct cb_run *r, const char *operation,
			  const char *tree, const struct phase_rec *p)
{
	fprintf(r->ctx->progress, "%s %s %dMB in %.2f seconds (%.2f MB/s)\n",
		operation, tree, (int)mib(p->bytes), secs(p->m.wall_ns),
		cb_op_rate(p->bytes, p->m.wall_ns));
}

static const char *data_label(enum cb_data d)
{
	static const char *const l[] = { "unpatched", "patched",
					 "unpatched compiled",
					 "patched compiled" };

	return l[d];
}

/* native_order(): create the set, keep the order readdir gives back. */
static int native_pass(struct cb_run *r, enum cb_data d)
{
	struct treemodel sorted, order;
	struct op_work w = { 0 };
	const struct phase_rec *rec;
	char name[32], op[64];
	struct stat sb;
	int ret;

	for (int i = 0;; i++) {
		snprintf(name, sizeof(name), "native-%d", i);
		if (fstatat(r->bench_fd, name, &sb, AT_SYMLINK_NOFOLLOW) &&
		    errno == ENOENT)
			break;
	}
	treemodel_init(&sorted);
	treemodel_init(&order);
	treemodel_copy(&sorted, &r->sets.d[d]);
	treemodel_sort(&sorted, treemodel_pathcmp);
	/* one phase name per pass: they write different trees, so their
	 * figures must not pool (compare folds same-named instances) */
	w.ph = phase_begin(r->ctx, d == CB_DATA_CLEAN ? "native-unpatched" :
			   d == CB_DATA_PS ? "native-patched" :
			   "native-patched-compiled", data_label(d));
	ret = cb_write_set(r, &w, name, &sorted, false, false);
	ret = finish(r, &w, ret, &rec);
	if (!ret && !w.stopped) {
		snprintf(op, sizeof(op), "native %s", data_label(d));
		print_written(r, op, name, rec);
	}
	/* the walk and the removal are setup, not measured */
	memset(&w, 0, sizeof(w));
	if (!ret)
		ret = cb_walk_tree(r, &w, name, WALK_COLLECT, &order,
				   &r->sets.d[d]);
	if (!ret)
		ret = cb_walk_tree(r, &w, name, WALK_DELETE, NULL, NULL);
	if (!ret && unlinkat(r->bench_fd, name, AT_REMOVEDIR))
		ret = cb_op_error(r, &w, "remove", name, "");
	if (!ret && order.nr == r->sets.d[d].nr) {
		treemodel_release(&r->sets.d[d]);
		r->sets.d[d] = order;
	} else {
		if (!ret && !w.stopped)
			warning("native order of '%s' lost files; keeping "
				"the sorted order", data_label(d));
		treemodel_release(&order);
	}
	treemodel_release(&sorted);
	return ret;
}

static int do_op(struct cb_run *r, const struct cb_action *a)
{
	const struct treemodel *m = a->data < CB_NR_DATA ?
				    &r->sets.d[a->data] : NULL;
	struct op_work w = { 0 };
	const struct phase_rec *rec = NULL;
	FILE *pr = r->ctx->progress;
	int ret = 0;

	w.ph = phase_begin(r->ctx, cb_phase_name(a), a->tree);
	switch (a->op) {
	case CB_OP_CREATE:
		/* A new tree, never an existing one (a user's, a run's):
		 * the original fails on it too. */
		if (!mkdirat(r->bench_fd, a->tree, 0755) || errno != EEXIST) {
			ret = cb_write_set(r, &w, a->tree, m, false, false);
			break;
		}
		ret = cb_op_error(r, &w, "create", a->tree, "");
		break;
	case CB_OP_COMPILE:
		ret = cb_write_set(r, &w, a->tree, m, false, false);
		break;
	case CB_OP_PATCH:
		ret = cb_write_set(r, &w, a->tree, m, a->unlink_first, true);
		break;
	case CB_OP_CLEAN:
		ret = cb_clean_set(r, &w, a->tree, m);
		break;
	case CB_OP_READ:
		ret = cb_walk_tree(r, &w, a->tree, WALK_READ, NULL, NULL);
		break;
	case CB_OP_STAT:
		ret = cb_walk_tree(r, &w, a->tree, WALK_STAT, NULL, NULL);
		break;
	case CB_OP_DELETE:
		ret = cb_walk_tree(r, &w, a->tree, WALK_DELETE, NULL, NULL);
		break;
	default:
		BUG("bad op %d", (int)a->op);
	}
	if (!ret && !w.stopped && a->sync && !r->o->no_sync)
		ret = cb_op_sync(r, &w);
	ret = finish(r, &w, ret, &rec);
	if (ret || w.stopped)
		return ret;
	cb_stats_add(r->stats, rec);
	switch (a->op) {
	case CB_OP_CREATE:
		print_written(r, "create dir", a->tree, rec);
		break;
	case CB_OP_COMPILE:
		print_written(r, "compile dir", a->tree, rec);
		break;
	case CB_OP_PATCH:
		print_written(r, "patch dir", a->tree, rec);
		break;
	case CB_OP_CLEAN:
		fprintf(pr, "clean %s %dMB in %.2f seconds (%.2f MB/s)\n",
			a->tree, (int)mib(rec->bytes), secs(rec->m.wall_ns),
			cb_op_rate(rec->bytes, rec->m.wall_ns));
		break;
	case CB_OP_READ:
		fprintf(pr, "read dir %s in %.2f %.2f MB/s\n", a->tree,
			secs(rec->m.wall_ns),
			cb_op_rate(rec->bytes, rec->m.wall_ns));
		break;
	case CB_OP_STAT:
		fprintf(pr, "stat dir %s in %.2f seconds\n", a->tree,
			secs(rec->m.wall_ns));
		break;
	default:
		fprintf(pr, "delete %s in %.2f seconds\n", a->tree,
			secs(rec->m.wall_ns));
		break;
	}
	return 0;
}

static int summary(struct cb_run *r)
{
	struct phase *ph = phase_begin(r->ctx, "summary", NULL);
	char name[64];

	for (int k = 0; k < K_NR; k++) {
		const struct kind_stats *s = &r->stats[k];
		const char *kn = cb_kinds[k].phase;

		snprintf(name, sizeof(name), "%s.runs", kn);
		phase_metric(ph, name, s->runs, "runs", BETTER_NONE);
		if (!s->runs)
			continue;
		if (cb_kinds[k].seconds) {
			snprintf(name, sizeof(name), "%s.avg_s", kn);
			phase_metric(ph, name, s->sum / s->runs, "s",
				     BETTER_LOWER);
		} else {
			snprintf(name, sizeof(name), "%s.avg_MiB/s", kn);
			phase_metric(ph, name, s->sum / s->runs, "MiB/s",
				     BETTER_HIGHER);
		}
		if (!cb_kinds[k].seconds) {
			snprintf(name, sizeof(name), "%s.total_MiB/s", kn);
			phase_metric(ph, name, cb_op_rate(s->bytes, s->wall_ns),
				     "MiB/s", BETTER_HIGHER);
		}
		snprintf(name, sizeof(name), "%s.sync_s", kn);
		phase_metric(ph, name, s->sync_s, "s", BETTER_LOWER);
		/* compilebench's (user Us sys Ss): CPU per op */
		snprintf(name, sizeof(name), "%s.user_s", kn);
		phase_metric(ph, name, s->user / s->runs, "s", BETTER_NONE);
		snprintf(name, sizeof(name), "%s.sys_s", kn);
		phase_metric(ph, name, s->sys / s->runs, "s", BETTER_NONE);
	}
	return phase_end(r->ctx, ph, NULL);
}

static bool tree_exists(void *arg, const char *name)
{
	struct cb_run *r = arg;
	struct stat sb;

	return !fstatat(r->bench_fd, name, &sb, 0);
}

/* xorshift64*: fast, and plenty for incompressible file contents. */
static void fill_random(char *buf, size_t len, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;

	for (size_t i = 0; i < len; i++) {
		if (!(i & 7)) {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
		}
		buf[i] = (char)((x * 0x2545f4914f6cdd1dULL) >> (8 * (i & 7)));
	}
}

static int cb_run_fn(struct wl_ctx *ctx, const void *vopts)
{
	const struct cb_opts *o = vopts;
	struct cb_params par = {
		.initial_dirs = (int)o->initial_dirs, .runs = (int)o->runs,
		.makej = o->makej, .compat = (enum cb_compat)o->compat,
		.seed = opt_seed(o->seed, ctx->seed),
	};
	struct cb_run r = { .ctx = ctx, .o = o };
	struct cb_action a;
	enum cb_event ev;
	bool stopped = false;
	int ret = 0;

	fprintf(ctx->progress, "using working directory %s, %d intial dirs "
		"%d runs\n", ctx->dir, par.initial_dirs, par.runs);
	if (o->sources && *o->sources) {
		if (cb_sets_load(&r.sets, o->sources) < 0)
			return -1;
	} else {
		cb_sets_builtin(&r.sets);
	}
	r.bench_fd = open(ctx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.bench_fd < 0) {
		cb_sets_release(&r.sets);
		return error_errno("cannot open '%s'", ctx->dir);
	}
	r.verify = ctx->verify;
	r.bufsize = (size_t)o->buffer_size;
	r.buf = xmalloc(r.bufsize);
	if (o->data == CB_FILL_RANDOM)
		fill_random(r.buf, r.bufsize, par.seed);
	else
		memset(r.buf, 'a', r.bufsize);
	cb_state_init(&r.st, &par, &r.sets);
	r.st.exists = tree_exists;
	r.st.exists_arg = &r;

	ret = native_pass(&r, CB_DATA_CLEAN);
	if (!ret && !phase_stop_requested())
		ret = native_pass(&r, CB_DATA_PS);
	if (!ret && !phase_stop_requested())
		ret = native_pass(&r, CB_DATA_PCS);
	while (!ret && !(stopped = phase_stop_requested()) &&
	       (ev = cb_state_next(&r.st, &a)) != CB_EV_DONE) {
		if (ev == CB_EV_OP)
			ret = do_op(&r, &a);
		else if (o->no_sync)
			continue;
		else if (ev == CB_EV_SYNC)
			ret = wl_sync(ctx);
		else if (!r.drop_err && wl_drop_caches(ctx)) {
			fprintf(ctx->progress, "error on drop caches, will "
				"skip it from now on\n");
			r.drop_err = true;
		}
	}
	/* --verify: every tree the run leaves, once more from the disk */
	if (!ret && !stopped && r.verify)
		ret = verify_phase_tree(ctx, NULL);
	if (!ret && !stopped)
		ret = summary(&r);
	cb_state_release(&r.st);
	cb_sets_release(&r.sets);
	free(r.buf);
	close(r.bench_fd);
	return ret;
}

static int cb_check(const void *vopts, char *err, size_t errlen)
{
	const struct cb_opts *o = vopts;

	if (o->buffer_size < 4096 || o->buffer_size > (64ULL << 20)) {
		snprintf(err, errlen, "buffer-size must be between 4096 and "
			 "64M, not %llu", (unsigned long long)o->buffer_size);
		return -1;
	}
	if (o->sources && *o->sources &&
	    cb_sources_check(o->sources, err, errlen) < 0)
		return -1;
	return 0;
}

/*
 * Averages as the summary phase records them, of the operations the
 * compilebench mails quote first (writing, rewriting, reading and
 * deleting trees): a handful, so the verdict's family stays small (every
 * key is a test); the other averages are in the classic block and in
 * compare --long.
 */
static const char *const cb_key_metrics[] = {
	"summary/initial-create.avg_MiB/s", "summary/create.avg_MiB/s",
	"summary/patch.avg_MiB/s", "summary/compile.avg_MiB/s",
	"summary/read.avg_MiB/s", "summary/delete.avg_s", NULL,
};

/*
 * Pre-flight: the initial trees alone (the random ops add and remove
 * trees, so this is a floor, not the peak).  Only for the built-in
 * model; a sources= directory is read when the run starts.
 */
static void cb_needs(const void *vopts, int nranks, struct wl_needs *n)
{
	static uint64_t tree_bytes, tree_inodes;
	const struct cb_opts *o = vopts;
	uint64_t trees = (uint64_t)o->initial_dirs * (uint64_t)nranks;
	char sz[32];

	if (*o->sources || !trees)
		return;
	if (!tree_bytes) {
		struct treemodel d[4];

		for (int i = 0; i < 4; i++)
			treemodel_init(&d[i]);
		kmodel_generate(&d[0], &d[1], &d[2], &d[3]);
		tree_bytes = d[0].bytes;
		tree_inodes = d[0].nr + treemodel_dir_count(&d[0]);
		for (int i = 0; i < 4; i++)
			treemodel_release(&d[i]);
	}
	n->bytes = trees * tree_bytes;
	n->inodes = trees * tree_inodes;
	snprintf(n->what, sizeof(n->what), "compilebench's %llu initial "
		 "trees of %s", (unsigned long long)trees,
		 fmt_size(sz, sizeof(sz), tree_bytes));
}

const struct workload wl_compilebench = {
	.name = "compilebench",
	.summary = "compilebench 0.6: age a filesystem with kernel-tree "
		   "create/patch/compile/clean/read/stat/delete",
	.phases = cb_phase_names,
	/* Every rank draws the same op sequence from the same seed, in its
	 * own rank directory, so phases line up across ranks. */
	.flags = WL_MPI_AWARE | WL_VERIFY,
	.opts = cb_opt_table,
	.opts_size = sizeof(struct cb_opts),
	.check = cb_check,
	.run = cb_run_fn,
	.report = cb_report,
	.report_run = cb_report_run,
	.report_compare = cb_report_compare,
	.key_metrics = cb_key_metrics,
	.needs = cb_needs,
};
