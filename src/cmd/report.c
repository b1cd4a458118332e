/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - `fslab report`: the comparison of `fslab compare` as one
 * self-contained HTML file with charts, for mailing or a CI artifact.
 * Same arguments and statistics as compare; rendering is in
 * src/output/html.c.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "compare/compare.h"
#include "compare/explain.h"
#include "compare/guard.h"
#include "compare/history.h"
#include "compare/load.h"
#include "compare/session.h"
#include "output/chart.h"
#include "output/html.h"
#include "output/trend.h"
#include "run/preflight.h"
#include "util/outfile.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "workloads/registry.h"

struct report_args {
	struct cmd_dbs dbs;
	struct compare_opts o;
	const char *output;
	bool history;
};

static const struct cmdopt report_table[] = {
	CMDOPT_STR('o', "output", struct report_args, output, "FILE",
		   "the HTML file to write ('-' for stdout)"),
	CMDOPT_INCLUDE_AT(struct report_args, dbs, cmd_dbs_opts),
	CMDOPT_INCLUDE_AT(struct report_args, o, cmd_filter_opts),
	CMDOPT_BOOL(0, "history", struct report_args, history,
		    "instead of a comparison, a trend chart per key metric "
		    "(or --metric GLOB) over the runs named (default: every "
		    "finished run), change points marked, as 'fslab history' "
		    "finds them"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_report_opts = {
	.name = "report",
	.summary = "self-contained HTML report with charts",
	.usage = "[RUN|TAG|SELECTOR...] -o FILE [--db PATH]... [--metric GLOB]\n"
		 "[--phase GLOB] [--all] [--min-change PCT] [--min-wall MS]\n"
		 "[--alpha LEVEL] [--adjust holm|bh|none] "
		 "[--allow-option-mismatch]\n"
		 "[SELECTOR|RUN|TAG...] --history -o FILE [--db PATH]... "
		 "[--metric GLOB]",
	.desc = "Write the comparison of 'fslab compare' (same arguments and "
		"statistics) as one self-contained HTML file: what differs, "
		"tables, bar charts of the means with 95% CI whiskers, every "
		"instance, and time series where a workload records them.",
	.opts = report_table,
	.args = CMDOPT_C_RUN,
};

static char *report_title(const struct cmp_input *in)
{
	struct strbuf s = STRBUF_INIT;

	strbuf_addstr(&s, "fslab report: ");
	for (size_t i = 0; i < in->nr_args; i++)
		strbuf_addf(&s, "%s%s", i ? ", " : "", in->arg_labels[i]);
	return strbuf_detach(&s, NULL);
}

static int write_report(const char *path, const struct cmp_input *in,
			struct compare_opts *o)
{
	struct html_section *secs;
	struct cmp_session s;
	struct explain_opts eo;
	struct explain ex;
	struct check_report *reports;
	struct check_opts co;
	char *title;
	struct outfile of;
	int rc = 0;

	compare_session_build(in, o, &s);
	/* As compare: no verdict for an invalid setup (doc/validity.md). */
	check_opts_init(&co);
	co.min_change_pct = o->min_change_pct;
	compare_guard(&s, in, &co, false, &reports);
	for (size_t i = 0; i < in->nr; i++)
		check_report_release(&reports[i]);
	free(reports);
	for (size_t i = 0; i < s.nr && !o->allow_option_mismatch; i++)
		if (s.tabs[i].option_mismatch) {
			error("%s ran with different workload options: %s; "
			      "pass --allow-option-mismatch to report anyway",
			      s.tabs[i].workload, s.tabs[i].option_mismatch);
			compare_session_release(&s);
			return -2;
		}
	if (!outfile_open(&of, path)) {
		compare_session_release(&s);
		return -1;
	}
	title = report_title(in);
	explain_opts_init(&eo);
	eo.alpha = o->alpha;
	explain_build(s.tabs, s.groups, s.nr, &eo, &ex);
	secs = xcalloc(s.nr + 1, sizeof(*secs));
	for (size_t i = 0; i < s.nr; i++) {
		secs[i].table = &s.tabs[i];
		secs[i].groups = s.groups[i];
		secs[i].explain = &ex;
		secs[i].table_idx = i;
	}
	rc = html_write_report(of.f, title, secs, s.nr, o) ? -1 : 0;
	if (outfile_finish(&of, !rc))
		rc = -1;
	explain_release(&ex);
	compare_session_release(&s);
	free(secs);
	free(title);
	return rc;
}

/* --history: the runs of every argument, each once, as one history. */
static int write_trends(const char *path, const struct cmp_input *in,
			const struct compare_opts *co)
{
	struct hist_opts o = { .metric = co->metric };
	struct history h;
	struct outfile of;
	char *title;
	int rc;

	cp_opts_init(&o.cp);
	o.cp.log = true;
	/* Run ids are per store: with several, points are ID@N. */
	o.nr_dbs = in->nr_dbs;
	history_init(&h, &o);
	for (size_t i = 0; i < in->nr; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen && in->runs[i]->uuid; j++)
			seen = in->runs[j]->uuid &&
			       !strcmp(in->runs[j]->uuid, in->runs[i]->uuid);
		if (seen)
			continue;
		h.db = in->db_of ? in->db_of[i] : 0;
		history_add_run(&h, in->runs[i]);
	}
	history_finish(&h);
	if (!outfile_open(&of, path)) {
		history_release(&h);
		return -1;
	}
	title = report_title(in);
	rc = trend_write_report(of.f, title, &h);
	if (outfile_finish(&of, !rc))
		rc = -1;
	free(title);
	history_release(&h);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .output = NULL };
	struct compare_opts o;
	struct cmp_input in;
	int first, rc;

	compare_opts_init(&a.o);
	first = cmdopt_parse(&cmd_report_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	o = a.o;
	if (!a.output)
		return cmdopt_usage_error(&cmd_report_opts,
					  "report needs -o FILE");
	{
		char why[1024];

		/* No mkdir -p: a typo in -o must not make directories. */
		if (preflight_output_path(a.output, "-o", why, sizeof(why)) < 0)
			return cmdopt_usage_error(&cmd_report_opts, "%s",
						  why);
	}
	if (a.history && first == argc) {
		static char all[] = "since=@0";
		char *every[] = { all };

		rc = cmp_input_load(a.dbs.v, a.dbs.n, every, 1, &in);
	} else {
		rc = cmp_input_load(a.dbs.v, a.dbs.n, argv + first,
				    (size_t)(argc - first), &in);
	}
	if (rc)
		return EXIT_RUNTIME;
	if (a.history)
		rc = write_trends(a.output, &in, &o) ? -1 : 0;
	else
		rc = write_report(a.output, &in, &o);
	rc = rc == -2 ? EXIT_USAGE : rc ? EXIT_RUNTIME : EXIT_OK;
	chart_cleanup();
	cmp_input_release(&in);
	return rc;
}
