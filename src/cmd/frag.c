/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frag.c - `fslab frag PATH...`: the fragmentation and layout survey of
 * whole trees (src/frag/, frag.h) as a command: the getdents-mail table,
 * JSON, a per-file list that lines up with filefrag, and the figures as
 * a stored run (one dir: target, one workload-run "frag", one phase
 * "survey") so they sit next to benchmark results.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "frag/frag.h"
#include "fs/mount.h"
#include "measure/measure.h"
#include "frag/text.h"
#include "store/writer.h"
#include "util/strbuf.h"
#include "util/jsonout.h"
#include "util/util.h"
#include "util/version.h"
#include "workloads/frag.h"
#include "workloads/registry.h"

struct frag_args {
	struct frag_opts o;
	struct frag_bins bins;
	struct cmdopt_store store;
	const char *bins_arg, *tag;
	long long jobs, worst, batch;
	bool json, list, no_freesp, have_bins;
};

/* The edges, their text and that they were given: three fields. */
static int set_bins(const struct cmdopt *opt, void *args, const char *arg,
		    char *err, size_t errlen)
{
	struct frag_args *a = args;

	(void)opt;
	if (frag_bins_parse(arg, &a->bins, err, errlen) < 0)
		return -1;
	a->bins_arg = arg;
	a->have_bins = true;
	return 0;
}

static const struct cmdopt frag_table[] = {
	CMDOPT_INTEGER('j', "jobs", struct frag_args, jobs, "N", 1, 1024,
		       "worker threads (default: number of CPUs)"),
	CMDOPT_CLEAR(0, "no-sync", struct frag_args, o.sync,
		     "do not ask FIEMAP to write back first (delayed "
		     "allocations then show as delalloc extents)"),
	CMDOPT_ARGS_CB(0, "bins", "LIST", set_bins,
		       "size bin edges, e.g. 0,4k,64k,1M,1G (default: the "
		       "getdents mail's B/K/M/G bins)"),
	CMDOPT_INTEGER(0, "worst", struct frag_args, worst, "N", 0, 100000,
		       "list the N most fragmented files (default 10)"),
	CMDOPT_BOOL(0, "xdev", struct frag_args, o.xdev,
		    "stay on each PATH's filesystem (the default)"),
	CMDOPT_CLEAR(0, "no-xdev", struct frag_args, o.xdev,
		     "descend into other mounts too"),
	CMDOPT_BOOL(0, "list", struct frag_args, list,
		    "print 'PATH RUNS EXTENTS SIZE' per file instead of the "
		    "report (RUNS is what filefrag prints)"),
	CMDOPT_HIDDEN_BOOL(0, "per-file", struct frag_args, list),
	CMDOPT_BOOL(0, "json", struct frag_args, json,
		    "the report as JSON on stdout"),
	CMDOPT_INTEGER(0, "batch", struct frag_args, batch, "N", 1, 65536,
		       "extents per FIEMAP call (default 32)"),
	CMDOPT_CLEAR(0, "no-io-uring", struct frag_args, o.uring,
		     "open and close files with plain system calls (default: "
		     "in batches through io_uring when the kernel allows it, "
		     "which costs less CPU)"),
	CMDOPT_BOOL(0, "no-freesp", struct frag_args, no_freesp,
		    "skip free-space fragmentation (e2freefrag, xfs_db; only "
		    "for the root of a block-device mount, as root)"),
	/* not the shared --db: nothing is stored without it */
	CMDOPT_STR_C(0, "db", struct frag_args, store.db, "PATH",
		     CMDOPT_C_FILE,
		     "also store the figures as a run in this database"),
	CMDOPT_STR(0, "tag", struct frag_args, tag, "LABEL",
		   "tag of the stored run"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_frag_opts = {
	.name = "frag",
	.summary = "fragmentation and layout survey of trees",
	.usage = "[options] PATH...",
	.desc = "Survey the fragmentation and layout of every regular file "
		"under each PATH with FIEMAP: filefrag's extent count per "
		"file, the size histogram with the fragmented share of each "
		"bin, the layout score, runs per file, the worst files and "
		"readdir-order locality.  With --db the figures are also "
		"stored as a run in that database.",
	.opts = frag_table,
	.footer = "Symlinks are never followed inside a tree.  Progress goes "
		  "to stderr when it is a terminal.  Exit 2 when a PATH does "
		  "not exist.",
	.flags = CMDOPT_STOP_AT_ARG,
	.args = CMDOPT_C_DIR,
};

static struct run_rec *frag_run_rec(int argc, char **argv, const char *tag)
{
	char *cmd = argv_join("fslab", argc, argv);
	struct run_rec *r = run_rec_begin(cmd, tag, 0);

	free(cmd);
	return r;
}

/*
 * Store the survey as a run, through the run writer like every run:
 * target dir:PATH (the first path; the others are in the command line),
 * workload-run "frag", phase "survey".
 */
static int store_survey(const char *dbpath, int argc, char **argv,
			const char *tag, const char *const *paths,
			size_t nr_paths, const char *options,
			const struct frag_result *res,
			const struct frag_freesp *fsp,
			const struct measure *m)
{
	struct run_writer w;
	struct target_rec t = { 0 };
	struct wlrun_rec wr = { .pos = -1 }, *wp;
	struct phase_rec p = { 0 };
	char *fstype = NULL, *mopts = NULL;
	int rc = -1;

	if (writer_begin(&w, dbpath, frag_run_rec(argc, argv, tag)) < 0)
		goto out;
	t.spec = xasprintf("dir:%s", paths[0]);
	t.name = nr_paths > 1 ? xasprintf("%s (+%zu)", paths[0], nr_paths - 1)
			      : xstrdup(paths[0]);
	t.kind = xstrdup("dir");
	if (mount_find_containing(paths[0], &fstype, &mopts, NULL) == 0) {
		t.fstype = fstype;
		t.eff_mount_opts = mopts;
	}
	t.path = xstrdup(paths[0]);
	p.label = xstrdup(t.name);
	if (writer_target(&w, &t, NULL) < 0)
		goto out;
	wr.workload = xstrdup("frag");
	wr.options = xstrdup(options);
	if (writer_wlrun_begin(&w, &wr, &wp) < 0)
		goto out;
	p.name = xstrdup("survey");
	p.m = *m;
	frag_to_phase_metrics(res, &p);
	frag_freesp_to_phase_metrics(fsp, &p);
	measure_derive(&p);
	if (writer_phase(&w, wp, &p, NULL) < 0 ||
	    writer_wlrun_finish(&w, wp, "complete") < 0)
		goto out;
	rc = 0;
out:
	if (w.run && writer_finish(&w, rc ? "failed" : "complete") < 0)
		rc = -1;
	phase_rec_release(&p);
	target_rec_release(&t);
	wlrun_rec_release(&wr);
	writer_close(&w);
	return rc;
}

int cmd_frag(int argc, char **argv)
{
	struct frag_args a = { .bins_arg = "default" };
	struct frag_opts o;
	struct frag_bins bins;
	struct frag_result res;
	struct measure_snap s0, s1;
	struct measure m;
	bool json, list, have_bins, freesp;
	struct frag_freesp fsp;
	const char *db, *tag, *bins_arg;
	char *options;
	int rc, exit_code = EXIT_OK, argi;

	frag_opts_default(&a.o);
	a.jobs = a.o.jobs;
	a.worst = (long long)a.o.worst;
	a.batch = a.o.batch;
	argi = cmdopt_parse(&cmd_frag_opts, argc, argv, &a);
	if (argi < 0)
		return cmdopt_exit(argi);
	if (argi >= argc)
		return cmdopt_usage_error(&cmd_frag_opts, "needs at least one "
					  "PATH");
	if (a.json && a.list)
		return cmdopt_usage_error(&cmd_frag_opts, "--json and --list "
					  "do not go together");
	o = a.o;
	o.jobs = (int)a.jobs;
	o.worst = (size_t)a.worst;
	o.batch = (unsigned)a.batch;
	bins = a.bins;
	have_bins = a.have_bins;
	bins_arg = a.bins_arg;
	json = a.json;
	list = a.list;
	freesp = !a.no_freesp;
	db = a.store.db;
	tag = a.tag;
	if (have_bins)
		o.bins = &bins;
	if (list)
		o.list = stdout;
	o.progress = isatty(STDERR_FILENO) && !list;

	measure_snap(&s0, NULL);
	rc = frag_survey((const char *const *)argv + argi,
			 (size_t)(argc - argi), &o, &res);
	measure_snap(&s1, NULL);
	if (rc < 0) {
		frag_result_release(&res);
		return rc == -2 ? EXIT_USAGE : EXIT_RUNTIME;
	}
	measure_diff(&s0, &s1, &m);
	memset(&fsp, 0, sizeof(fsp));
	if (freesp && !list)
		frag_freesp_probe(argv[argi], &fsp);
	else
		snprintf(fsp.why, sizeof(fsp.why), "not asked for");

	if (json) {
		json_t *j = frag_to_json(&res);

		jout_set(j, "free_space", frag_freesp_json(&fsp));
		if (jout_write(j, "-", "the survey") < 0)
			exit_code = EXIT_RUNTIME;
		json_decref(j);
	} else if (!list) {
		frag_print_text(stdout, &res);
		if (freesp)
			frag_print_freesp(stdout, argv[argi], &fsp);
	}
	if (db) {
		/* the "frag" workload's options, so show and compare
		 * read the survey back like one taken in a run */
		struct frag_wl_opts wo = {
			.path = (char *)"", .jobs = o.jobs, .sync = o.sync,
			.xdev = o.xdev, .worst = (long long)o.worst,
			.bins = (char *)bins_arg, .io_uring = res.io_uring,
		};

		options = opt_format(wl_frag.opts, &wo);
		if (store_survey(db, argc, argv, tag,
				 (const char *const *)argv + argi,
				 (size_t)(argc - argi), options, &res,
				 &fsp, &m) < 0)
			exit_code = EXIT_RUNTIME;
		free(options);
	}
	frag_result_release(&res);
	frag_freesp_release(&fsp);
	return exit_code;
}
