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
#include "compare/session.h"
#include "output/chart.h"
#include "output/html.h"
#include "util/util.h"
#include "workloads/registry.h"

static const char report_usage[] =
	"usage: fslab report [RUN|TAG...] -o FILE [--db PATH] "
	"[--metric NAME]\n"
	"                    [--phase NAME] [--all] [--min-change PCT]\n"
	"                    [--min-wall MS] [--allow-option-mismatch]\n"
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
	"  --min-wall MS        too-short-to-judge floor (default 50)\n"
	"  --allow-option-mismatch  report runs whose workload options "
	"differ\n"
	"  -h, --help           show this help\n";

static char *report_title(const struct cmp_input *in)
{
	size_t len = 0;
	char *s;

	for (size_t i = 0; i < in->nr_args; i++)
		len += strlen(in->arg_labels[i]) + 2;
	s = xmalloc(len + 32);
	strcpy(s, "fslab report: ");
	for (size_t i = 0; i < in->nr_args; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, in->arg_labels[i]);
	}
	return s;
}

static int write_report(const char *path, const struct cmp_input *in,
			struct compare_opts *o, bool allow_mismatch)
{
	struct html_section *secs;
	struct cmp_session s;
	char *title;
	FILE *out;
	int rc = 0;

	compare_session_build(in, o, &s);
	for (size_t i = 0; i < s.nr && !allow_mismatch; i++)
		if (s.tabs[i].option_mismatch) {
			error("%s ran with different workload options: %s; "
			      "pass --allow-option-mismatch to report anyway",
			      s.tabs[i].workload, s.tabs[i].option_mismatch);
			compare_session_release(&s);
			return -2;
		}
	out = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!out) {
		error_errno("cannot create '%s'", path);
		compare_session_release(&s);
		return -1;
	}
	title = report_title(in);
	secs = xcalloc(s.nr + 1, sizeof(*secs));
	for (size_t i = 0; i < s.nr; i++) {
		secs[i].table = &s.tabs[i];
		secs[i].groups = s.groups[i];
	}
	if (html_write_report(out, title, secs, s.nr, o))
		rc = -1;
	if (out != stdout) {
		if (ferror(out) | fclose(out))
			rc = error("cannot write '%s': %s", path,
				   strerror(errno));
	}
	compare_session_release(&s);
	free(secs);
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
		{ "min-wall", required_argument, NULL, 'W' },
		{ "allow-option-mismatch", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *output = NULL;
	struct compare_opts o;
	struct cmp_input in;
	bool allow_mismatch = false;
	char *end;
	double ms;
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
		case 'W':
			ms = strtod(optarg, &end);
			if (end == optarg || *end || !(ms >= 0))
				usage_die("--min-wall wants milliseconds, "
					  "not '%s'", optarg);
			o.min_wall_s = ms / 1e3;
			break;
		case 'M':
			allow_mismatch = true;
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
	if (cmp_input_load(db, argv + optind, (size_t)(argc - optind), &in))
		return EXIT_RUNTIME;
	rc = write_report(output, &in, &o, allow_mismatch);
	rc = rc == -2 ? EXIT_USAGE : rc ? EXIT_RUNTIME : EXIT_OK;
	chart_cleanup();
	cmp_input_release(&in);
	return rc;
}
