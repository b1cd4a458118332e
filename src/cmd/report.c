/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - `fslab report`: the comparison of `fslab compare` as one
 * self-contained HTML file with charts, for mailing or a CI artifact.
 * Same arguments and statistics as compare; rendering is in
 * src/output/html.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare/compare.h"
#include "compare/load.h"
#include "output/chart.h"
#include "output/html.h"
#include "util/util.h"
#include "workloads/registry.h"

struct report_args {
	struct cmdopt_store store;
	struct compare_opts o;
	const char *output;
};

static const struct cmdopt report_table[] = {
	CMDOPT_STR('o', "output", struct report_args, output, "FILE",
		   "the HTML file to write ('-' for stdout)"),
	CMDOPT_INCLUDE_AT(struct report_args, store, cmdopt_store_opts),
	CMDOPT_INCLUDE_AT(struct report_args, o, cmd_filter_opts),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_report_opts = {
	.name = "report",
	.summary = "self-contained HTML report with charts",
	.usage = "[RUN|TAG...] -o FILE [--db PATH] [--metric GLOB]\n"
		 "[--phase GLOB] [--all] [--min-change PCT]",
	.desc = "Write the comparison of 'fslab compare' (same arguments) as "
		"one self-contained HTML file: tables, bar charts of the "
		"means with 95% CI whiskers, the spread of the repetitions, "
		"and time series where a workload records them.",
	.opts = report_table,
	.args = CMDOPT_C_RUN,
};

static char *report_title(const struct cmp_input *in)
{
	size_t len = 0;
	char *s;

	for (size_t i = 0; i < in->nr; i++)
		len += strlen(in->labels[i]) + 2;
	s = xmalloc(len + 32);
	strcpy(s, "fslab report: ");
	for (size_t i = 0; i < in->nr; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, in->labels[i]);
	}
	return s;
}

static int write_report(const char *path, const struct cmp_input *in,
			struct compare_opts *o)
{
	const char **wls;
	size_t nr_wls;
	struct cmp_table *tabs;
	struct cmp_group **groups;
	size_t *ng;
	struct html_section *secs;
	char *title = report_title(in);
	FILE *out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int rc = 0;

	if (!out) {
		error_errno("cannot create '%s'", path);
		free(title);
		return -1;
	}
	wls = compare_workloads((const struct run_rec *const *)in->runs,
				in->nr, &nr_wls);
	tabs = xcalloc(nr_wls + 1, sizeof(*tabs));
	groups = xcalloc(nr_wls + 1, sizeof(*groups));
	ng = xcalloc(nr_wls + 1, sizeof(*ng));
	secs = xcalloc(nr_wls + 1, sizeof(*secs));
	for (size_t i = 0; i < nr_wls; i++) {
		const struct workload *wl = wl_find(wls[i]);

		o->key_metrics = wl ? wl->key_metrics : NULL;
		groups[i] = compare_groups(
			(const struct run_rec *const *)in->runs,
			(const char *const *)in->labels, in->nr, wls[i],
			&ng[i]);
		compare_build(wls[i], groups[i], ng[i], o, &tabs[i]);
		secs[i].table = &tabs[i];
		secs[i].groups = groups[i];
	}
	if (html_write_report(out, title, secs, nr_wls, o))
		rc = -1;
	if (out != stdout) {
		if (ferror(out) | fclose(out))
			rc = error("cannot write '%s': %s", path,
				   strerror(errno));
	}
	for (size_t i = 0; i < nr_wls; i++) {
		compare_table_release(&tabs[i]);
		compare_groups_free(groups[i], ng[i]);
	}
	free(tabs);
	free(groups);
	free(ng);
	free(secs);
	free(wls);
	free(title);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .output = NULL };
	const char *db, *output;
	struct compare_opts o;
	struct cmp_input in;
	int first, rc;

	compare_opts_init(&a.o);
	first = cmdopt_parse(&cmd_report_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	db = a.store.db;
	output = a.output;
	o = a.o;
	if (!output)
		return cmdopt_usage_error(&cmd_report_opts,
					  "report needs -o FILE");
	if (cmp_input_load(db, argv + first, (size_t)(argc - first), &in))
		return EXIT_RUNTIME;
	rc = write_report(output, &in, &o) ? EXIT_RUNTIME : EXIT_OK;
	chart_cleanup();
	cmp_input_release(&in);
	return rc;
}
