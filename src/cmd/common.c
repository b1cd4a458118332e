/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * common.c - helpers every subcommand may use.  Kept out of main.c so the
 * unit-test binaries, which link every object but main.o, can link the
 * commands too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "compare/compare.h"

static const int adjust_values[] = {
	CMP_ADJUST_HOLM, CMP_ADJUST_BH, CMP_ADJUST_NONE,
};

const struct cmdopt cmd_filter_opts[] = {
	CMDOPT_STR(0, "metric", struct compare_opts, metric, "GLOB",
		   "only metrics whose name matches GLOB"),
	CMDOPT_STR(0, "phase", struct compare_opts, phase, "GLOB",
		   "only phases whose name matches GLOB"),
	CMDOPT_BOOL(0, "all", struct compare_opts, all,
		    "every metric, not just the workload's key metrics (and, "
		    "with --long, MiB/s, files/s and wall_s of every phase)"),
	CMDOPT_DBL(0, "min-change", struct compare_opts, min_change_pct,
		   "PCT", 0, HUGE_VAL, "2",
		   "practical threshold: a significant change smaller than "
		   "PCT % is no change"),
	CMDOPT_DBL_SCALED(0, "min-wall", struct compare_opts, min_wall_s,
			  "MS", 0, HUGE_VAL, 1e-3, "50",
			  "phases whose mean wall time is under MS "
			  "milliseconds in every configuration are too short "
			  "to judge"),
	CMDOPT_DBL_OPEN(0, "alpha", struct compare_opts, alpha, "LEVEL", 0, 1,
			"0.05",
			"significance level of the adjusted p-values, above 0 "
			"and below 1"),
	CMDOPT_ENUMERATE(0, "adjust", struct compare_opts, adjust, "METHOD",
			 "holm|bh|none", adjust_values, "holm",
			 "multiplicity adjustment over the key metrics tested: "
			 "holm, bh or none"),
	CMDOPT_BOOL(0, "allow-option-mismatch", struct compare_opts,
		    allow_option_mismatch,
		    "compare runs whose workload options differ (refused "
		    "otherwise, exit 2)"),
	CMDOPT_TABLE_END,
};

/* The whole struct cmd_dbs: the path joins its list. */
static int add_db(const struct cmdopt *o, void *args, const char *arg,
		  char *err, size_t errlen)
{
	struct cmd_dbs *d = args;

	(void)o;
	if (d->n == CMD_MAX_DBS) {
		snprintf(err, errlen, "at most %d --db", CMD_MAX_DBS);
		return -1;
	}
	d->v[d->n++] = arg;
	return 0;
}

const struct cmdopt cmd_dbs_opts[] = {
	CMDOPT_ARGS_CB_C(0, "db", "PATH", add_db, CMDOPT_C_FILE,
		    "results database (default: "
		    "$XDG_DATA_HOME/fslab/results.db); give it again to read "
		    "several at once, read-only: runs are looked up in all, "
		    "ID@N names run ID of the N-th"),
	CMDOPT_TABLE_END,
};

const struct cmd_struct cmd_table[] = {
	{ "age", cmd_age, &cmd_age_opts },
	{ "bisect", cmd_bisect, &cmd_bisect_opts },
	{ "check", cmd_check, &cmd_check_opts },
	{ "cleanup", cmd_cleanup, &cmd_cleanup_opts },
	{ "compare", cmd_compare, &cmd_compare_opts },
	{ "compilebench", cmd_compilebench, &cmd_compilebench_opts },
	{ "disk", cmd_disk, &cmd_disk_opts },
	{ "export", cmd_export, &cmd_export_opts },
	{ "frag", cmd_frag, &cmd_frag_opts },
	{ "history", cmd_history, &cmd_history_opts },
	{ "import", cmd_import, &cmd_import_opts },
	{ "list", cmd_list, &cmd_list_opts },
	{ "model", cmd_model, &cmd_model_opts },
	{ "plan", cmd_plan, &cmd_plan_opts },
	{ "report", cmd_report, &cmd_report_opts },
	{ "results", cmd_results, &cmd_results_opts },
	{ "run", cmd_run, &cmd_run_opts },
	{ "show", cmd_show, &cmd_show_opts },
	{ "site", cmd_site, &cmd_site_opts },
	{ "trace", cmd_trace, &cmd_trace_opts },
	{ NULL, NULL, NULL },
};

const struct cmd_struct *cmd_find(const char *name)
{
	for (const struct cmd_struct *c = cmd_table; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void fslab_commands_help(FILE *out)
{
	fprintf(out, "\ncommands:\n");
	for (const struct cmd_struct *c = cmd_table; c->name; c++)
		fprintf(out, "  %-13s %s\n", c->name, c->opts->summary);
	fprintf(out, "  %-13s %s\n", "help", "this text, a command's help, "
		"or 'help targets'");
}

static const struct cmdopt fslab_table[] = {
	CMDOPT_BOOL(0, "version", struct fslab_args, version,
		    "print fslab's version and whether it was built with MPI"),
	/* for the build: man pages and completion from these tables */
	{ .type = CMDOPT_STRING, .long_name = "dump-man",
	  .off = CMDOPT_FIELD(struct fslab_args, dump_man, const char *),
	  .argh = "PAGE", .help = "", .flags = CMDOPT_HIDDEN },
	CMDOPT_HIDDEN_BOOL(0, "dump-completion", struct fslab_args,
			   dump_completion),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_fslab_opts = {
	.name = "",
	.summary = "a filesystem performance lab",
	.usage = "[--version] [--help] <command> [<args>]",
	.desc = "fslab builds filesystems on loop images it owns (or uses a "
		"directory or device you name), runs classic filesystem "
		"workloads natively, measures every phase and stores the "
		"results in SQLite.",
	.opts = fslab_table,
	.more_help = fslab_commands_help,
	.footer = "'fslab <command> --help' describes one command; 'fslab "
		  "help targets' the target SPEC grammar.\n\n"
		  "Exit codes: 0 success, 1 runtime failure, 2 usage error or "
		  "refusal (bad spec, unsafe device), 3 significant "
		  "regression (compare), 4 no verdict (compare "
		  "--fail-on-regression: nothing could be tested).",
	.flags = CMDOPT_STOP_AT_ARG,
};

const char cmd_targets_help[] =
	"  FSTYPE[:key=val,...]      a filesystem on a loop image fslab owns\n"
	"      mkfs=ARGS             extra mkfs arguments (mkfs=-O ^flex_bg)\n"
	"      mount=OPTS            mount options (mount=noatime)\n"
	"      size=N                sparse image size, default 8G (k/m/g/t)\n"
	"      name=LABEL            label shown in reports\n"
	"      age=PROFILE           age it to 80% full with PROFILE during "
	"setup\n"
	"  dev:/dev/X[:fs=T,mkfs=..,mount=..,name=..]\n"
	"                            format a real device; refused if it is "
	"mounted\n"
	"                            or holds any signature unless "
	"--destroy-data=/dev/X\n"
	"  dir:PATH[:name=LABEL]     an existing directory; nothing is "
	"formatted\n"
	"  aged:NAME[:mount=..,name=..]\n"
	"                            a fresh copy of the golden image "
	"'fslab age --save NAME'\n"
	"                            kept\n"
	"\n"
	"Commas inside a value are written '\\,' or the value is quoted:\n"
	"  ext4:mount=data=writeback\\,noatime\n"
	"  \"ext4:mount='data=writeback,noatime',name=wb\"\n";
