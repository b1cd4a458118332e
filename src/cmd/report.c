/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - `fslab report`: the comparison of `fslab compare` as one
 * self-contained HTML file with charts, for mailing or a CI artifact.
 * Same arguments and statistics as compare; rendering is in
 * src/output/html.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare/compare.h"
#include "compare/load.h"
#include "output/chart.h"
#include "output/html.h"
#include "preflight.h"
#include "util/util.h"
#include "workloads/registry.h"

static const char report_usage[] =
	"usage: fslab report [RUN|TAG...] -o FILE [--db PATH] "
	"[--metric NAME]\n"
	"                    [--phase NAME] [--all] [--min-change PCT]\n"
	"\n"
	"Write the comparison of 'fslab compare' (same arguments) as one\n"
	"self-contained HTML file: tables, bar charts of the means with\n"
	"95% CI whiskers, the spread of the repetitions, and time series\n"
	"where a workload records them.\n"
	"\n"
	"  -o, --output FILE    the HTML file to write ('-' for stdout)\n"
	"  --db PATH            results database (default: "
	"$XDG_DATA_HOME/fslab/results.db)\n"
	"  --metric NAME        only metrics matching NAME (a glob)\n"
	"  --phase NAME         only phases matching NAME (a glob)\n"
	"  --all                every metric, not just the default ones\n"
	"  --min-change PCT     practical threshold in % (default 2)\n"
	"  -h, --help           show this help\n";

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
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "db", required_argument, NULL, 'd' },
		{ "metric", required_argument, NULL, 'm' },
		{ "phase", required_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'a' },
		{ "min-change", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *output = NULL;
	struct compare_opts o;
	struct cmp_input in;
	char *end;
	int c, rc;

	compare_opts_init(&o);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'd':
			db = optarg;
			break;
		case 'm':
			o.metric = optarg;
			break;
		case 'p':
			o.phase = optarg;
			break;
		case 'a':
			o.all = true;
			break;
		case 'c':
			o.min_change_pct = strtod(optarg, &end);
			if (end == optarg || *end || !(o.min_change_pct >= 0))
				usage_die("--min-change wants a percentage, "
					  "not '%s'", optarg);
			break;
		case 'h':
			fputs(report_usage, stdout);
			return EXIT_OK;
		case ':':
			usage_die("option '%s' needs a value; see 'fslab "
				  "report -h'", argv[optind - 1]);
		default:
			usage_die("unknown option '%s'; see 'fslab report "
				  "-h'", argv[optind - 1]);
		}
	}
	if (!output)
		usage_die("report needs -o FILE; see 'fslab report -h'");
	{
		char why[1024];

		/* No mkdir -p: a typo in -o must not make directories. */
		if (preflight_output_path(output, "-o", why, sizeof(why)) < 0)
			usage_die("%s", why);
	}
	if (cmp_input_load(db, argv + optind, (size_t)(argc - optind), &in))
		return EXIT_RUNTIME;
	rc = write_report(output, &in, &o) ? EXIT_RUNTIME : EXIT_OK;
	chart_cleanup();
	cmp_input_release(&in);
	return rc;
}
