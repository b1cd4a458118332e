/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frag.c - `fslab frag PATH...`: the fragmentation and layout survey of
 * whole trees (src/frag/frag.c) as a command: the getdents-mail table,
 * JSON, a per-file list that lines up with filefrag, and the figures as
 * a stored run (one dir: target, one workload-run "frag", one phase
 * "survey") so they sit next to benchmark results.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd.h"
#include "frag/frag.h"
#include "fs/mount.h"
#include "measure.h"
#include "output/frag_text.h"
#include "store/store.h"
#include "util/util.h"
#include "util/version.h"

static const char frag_usage[] =
	"usage: fslab frag [options] PATH...\n"
	"\n"
	"Survey the fragmentation and layout of every regular file under each\n"
	"PATH with FIEMAP: filefrag's extent count per file, the size\n"
	"histogram with the fragmented share of each bin, the layout score,\n"
	"runs per file, the worst files and readdir-order locality.\n"
	"\n"
	"  -j, --jobs N      worker threads (default: number of CPUs)\n"
	"      --no-sync     do not ask FIEMAP to write back first (delayed\n"
	"                    allocations then show as delalloc extents)\n"
	"      --bins LIST   size bin edges, e.g. 0,4k,64k,1M,1G (default:\n"
	"                    the getdents mail's B/K/M/G bins)\n"
	"      --worst N     list the N most fragmented files (default 10)\n"
	"      --xdev        stay on each PATH's filesystem (the default)\n"
	"      --no-xdev     descend into other mounts too\n"
	"      --list        print 'PATH RUNS EXTENTS SIZE' per file instead\n"
	"                    of the report (RUNS is what filefrag prints)\n"
	"      --json        the report as JSON on stdout\n"
	"      --batch N     extents per FIEMAP call (default 32)\n"
	"      --no-io-uring open and close files with plain system calls\n"
	"                    (default: in batches through io_uring when the\n"
	"                    kernel allows it, which costs less CPU)\n"
	"      --no-freesp   skip free-space fragmentation (e2freefrag,\n"
	"                    xfs_db; only for the root of a block-device\n"
	"                    mount, as root)\n"
	"      --db PATH     also store the figures as a run in this database\n"
	"      --tag LABEL   tag of the stored run\n"
	"  -h, --help        show this help\n"
	"\n"
	"Symlinks are never followed inside a tree.  Progress goes to stderr\n"
	"when it is a terminal.  Exit 2 when a PATH does not exist.\n";

enum {
	OPT_NO_SYNC = 256, OPT_BINS, OPT_WORST, OPT_XDEV, OPT_NO_XDEV,
	OPT_LIST, OPT_JSON, OPT_BATCH, OPT_DB, OPT_TAG, OPT_NO_FREESP,
	OPT_NO_URING,
};

static const struct option frag_longopts[] = {
	{ "jobs", required_argument, NULL, 'j' },
	{ "no-sync", no_argument, NULL, OPT_NO_SYNC },
	{ "bins", required_argument, NULL, OPT_BINS },
	{ "worst", required_argument, NULL, OPT_WORST },
	{ "xdev", no_argument, NULL, OPT_XDEV },
	{ "no-xdev", no_argument, NULL, OPT_NO_XDEV },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "per-file", no_argument, NULL, OPT_LIST },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "no-freesp", no_argument, NULL, OPT_NO_FREESP },
	{ "no-io-uring", no_argument, NULL, OPT_NO_URING },
	{ "db", required_argument, NULL, OPT_DB },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	p = s = xmalloc(len);
	for (int i = 0; i < argc; i++)
		p += sprintf(p, "%s%s", i ? " " : "", argv[i]);
	*p = '\0';
	return s;
}

static struct run_rec *frag_run_rec(int argc, char **argv, const char *tag)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct utsname u;
	char *cmd = join_args(argc, argv);

	r->started = (int64_t)(realtime_ns() / 1000000000ULL);
	if (uname(&u) == 0) {
		r->host = xstrdup(u.nodename);
		r->kernel = xasprintf("%s %s", u.release, u.version);
	} else {
		r->host = xstrdup("unknown");
		r->kernel = xstrdup("unknown");
	}
	r->version = xstrdup(FSLAB_VERSION);
	r->cmdline = xasprintf("fslab %s", cmd);
	free(cmd);
	r->tag = tag ? xstrdup(tag) : NULL;
	r->status = xstrdup("running");
	return r;
}

/*
 * Store the survey as a run: target dir:PATH (the first path; the
 * others are in the command line), workload-run "frag", phase "survey".
 */
static int store_survey(const char *dbpath, int argc, char **argv,
			const char *tag, const char *const *paths,
			size_t nr_paths, const char *options,
			const struct frag_result *res,
			const struct frag_freesp *fsp,
			const struct measure *m)
{
	struct store *st;
	struct run_rec *r;
	struct target_rec *t;
	struct wlrun_rec *w;
	struct phase_rec *p;
	char *fstype = NULL, *mopts = NULL;
	int rc = -1;

	if (store_open(dbpath, &st) < 0)
		return -1;
	r = frag_run_rec(argc, argv, tag);
	if (store_run_begin(st, r) < 0)
		goto out;
	t = run_rec_new_target(r);
	t->spec = xasprintf("dir:%s", paths[0]);
	t->name = nr_paths > 1 ? xasprintf("%s (+%zu)", paths[0],
					   nr_paths - 1)
			       : xstrdup(paths[0]);
	t->kind = xstrdup("dir");
	if (mount_find_containing(paths[0], &fstype, &mopts, NULL) == 0) {
		t->fstype = fstype;
		t->eff_mount_opts = mopts;
	}
	t->path = xstrdup(paths[0]);
	if (store_target_add(st, r->id, t) < 0)
		goto out;
	w = run_rec_new_wlrun(r);
	w->target_idx = 0;
	w->target_id = t->id;
	w->workload = xstrdup("frag");
	w->options = xstrdup(options);
	w->status = xstrdup("running");
	if (store_wlrun_begin(st, r->id, w) < 0)
		goto out;
	p = wlrun_rec_new_phase(w);
	p->name = xstrdup("survey");
	p->label = xstrdup(t->name);
	p->m = *m;
	frag_to_phase_metrics(res, p);
	if (fsp->available) {
		phase_rec_add_metric(p, "free_bytes", (double)fsp->free_bytes,
				     "B", BETTER_NONE);
		phase_rec_add_metric(p, "free_extents",
				     (double)fsp->free_extents, "extents",
				     BETTER_LOWER);
		phase_rec_add_metric(p, "free_max_extent",
				     (double)fsp->max_extent, "B",
				     BETTER_HIGHER);
		if (fsp->groups) {
			phase_rec_add_metric(p, "free_group_frag_mean",
					     fsp->grp_mean, "%", BETTER_LOWER);
			phase_rec_add_metric(p, "free_group_frag_p95",
					     fsp->grp_p95, "%", BETTER_LOWER);
			phase_rec_add_metric(p, "free_group_frag_max",
					     fsp->grp_max, "%", BETTER_LOWER);
		}
	}
	measure_derive(p);
	if (store_phase_add(st, w->id, p) < 0)
		goto out;
	if (store_wlrun_finish(st, w->id, "complete") < 0 ||
	    store_run_finish(st, r->id, "complete") < 0)
		goto out;
	rc = 0;
out:
	if (rc && r->id)
		store_run_finish(st, r->id, "failed");
	run_rec_free(r);
	store_close(st);
	return rc;
}

int cmd_frag(int argc, char **argv)
{
	struct frag_opts o;
	struct frag_bins bins;
	struct frag_result res;
	struct measure_snap s0, s1;
	struct measure m;
	bool json = false, list = false, have_bins = false, freesp = true;
	struct frag_freesp fsp;
	const char *db = NULL, *tag = NULL, *bins_arg = "default";
	long long v;
	char err[160];
	char *options;
	int c, rc, exit_code = EXIT_OK;

	frag_opts_default(&o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:hj:", frag_longopts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(frag_usage, stdout);
			return EXIT_OK;
		case 'j':
			if (parse_int(optarg, 1, 1024, &v) < 0)
				usage_die("--jobs wants 1..1024, not '%s'",
					  optarg);
			o.jobs = (int)v;
			break;
		case OPT_NO_SYNC:
			o.sync = false;
			break;
		case OPT_BINS:
			if (frag_bins_parse(optarg, &bins, err,
					    sizeof(err)) < 0)
				usage_die("%s", err);
			have_bins = true;
			bins_arg = optarg;
			break;
		case OPT_WORST:
			if (parse_int(optarg, 0, 100000, &v) < 0)
				usage_die("--worst wants 0..100000, not '%s'",
					  optarg);
			o.worst = (size_t)v;
			break;
		case OPT_XDEV:
			o.xdev = true;
			break;
		case OPT_NO_XDEV:
			o.xdev = false;
			break;
		case OPT_LIST:
			list = true;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_BATCH:
			if (parse_int(optarg, 1, 65536, &v) < 0)
				usage_die("--batch wants 1..65536, not '%s'",
					  optarg);
			o.batch = (unsigned)v;
			break;
		case OPT_NO_FREESP:
			freesp = false;
			break;
		case OPT_NO_URING:
			o.uring = false;
			break;
		case OPT_DB:
			db = optarg;
			break;
		case OPT_TAG:
			tag = optarg;
			break;
		case ':':
			usage_die("option '%s' needs a value",
				  argv[optind - 1]);
		default:
			usage_die("unknown option '%s'; see 'fslab frag "
				  "--help'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		usage_die("fslab frag needs at least one PATH");
	if (json && list)
		usage_die("--json and --list do not go together");
	if (have_bins)
		o.bins = &bins;
	if (list)
		o.list = stdout;
	o.progress = isatty(STDERR_FILENO) && !list;

	measure_snap(&s0, NULL);
	rc = frag_survey((const char *const *)argv + optind,
			 (size_t)(argc - optind), &o, &res);
	measure_snap(&s1, NULL);
	if (rc < 0) {
		frag_result_release(&res);
		return rc == -2 ? EXIT_USAGE : EXIT_RUNTIME;
	}
	measure_diff(&s0, &s1, &m);
	memset(&fsp, 0, sizeof(fsp));
	if (freesp && !list)
		frag_freesp_probe(argv[optind], &fsp);
	else
		snprintf(fsp.why, sizeof(fsp.why), "not asked for");

	if (json) {
		json_t *j = frag_to_json(&res);

		json_object_set_new(j, "free_space", frag_freesp_json(&fsp));

		if (json_dumpf(j, stdout, JSON_INDENT(2)) < 0)
			exit_code = EXIT_RUNTIME;
		fputc('\n', stdout);
		json_decref(j);
	} else if (!list) {
		frag_print_text(stdout, &res);
		if (freesp)
			frag_print_freesp(stdout, argv[optind], &fsp);
	}
	if (db) {
		options = xasprintf("sync=%d,xdev=%d,jobs=%d,worst=%zu,"
				    "bins=%s,io_uring=%d", o.sync, o.xdev,
				    o.jobs, o.worst, bins_arg, res.io_uring);
		if (store_survey(db, argc, argv, tag,
				 (const char *const *)argv + optind,
				 (size_t)(argc - optind), options, &res,
				 &fsp, &m) < 0)
			exit_code = EXIT_RUNTIME;
		free(options);
	}
	frag_result_release(&res);
	frag_freesp_release(&fsp);
	return exit_code;
}
