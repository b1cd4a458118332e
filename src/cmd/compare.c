/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - `fslab compare`: are the configurations of a run (or
 * several runs) different, by how much, and can we tell?  The options
 * and the exit code; the statistics are in src/compare/, the text in
 * output/compare_text.c (JSON and CSV: output/json.c, output/csv.c).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "compare/compare.h"
#include "compare/load.h"
#include "compare/explain.h"
#include "compare/guard.h"
#include "compare/session.h"
#include "output/compare_text.h"
#include "output/explain.h"
#include "output/csv.h"
#include "output/json.h"
#include "util/util.h"

struct pairs {
	const char **v;
	size_t nr, alloc;
};

struct compare_args {
	struct cmd_dbs dbs;
	struct cmdopt_format fmt;
	struct compare_opts o;
	bool fail_on_reg, longf, explain;
	struct pairs pairs;
	struct cmd_accept factors, accept;
	bool strict, allow_invalid;
};

static int add_factor(const struct cmdopt *o, void *field, const char *arg,
		      char *err, size_t errlen)
{
	struct cmd_accept *f = field;

	(void)o;
	if (!compare_factor_known(arg)) {
		snprintf(err, errlen, "--factor: unknown factor '%s' (one of "
			 "host, kernel, version, fstype, mkfs, mount, size, "
			 "options, order, sysctl, cpu, mem, virt, thp, "
			 "mitigations, dev, loop, fs, cache, or a recorded "
			 "field such as sysctl.vm.dirty_ratio)", arg);
		return -1;
	}
	ALLOC_GROW(f->v, f->n + 1, f->alloc);
	f->v[f->n++] = arg;
	return 0;
}

static int add_pair(const struct cmdopt *opt, void *field, const char *arg,
		    char *err, size_t errlen)
{
	struct pairs *p = field;

	(void)opt;
	if (!strchr(arg, '=')) {
		snprintf(err, errlen, "--pair takes NAME=NAME, not '%s'", arg);
		return -1;
	}
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = arg;
	return 0;
}

static const struct cmdopt compare_table[] = {
	CMDOPT_INCLUDE_AT(struct compare_args, dbs, cmd_dbs_opts),
	CMDOPT_INCLUDE_AT(struct compare_args, fmt, cmdopt_format_opts),
	CMDOPT_BOOL(0, "long", struct compare_args, longf,
		    "every statistic per metric (n, instances, sigma, CoV, "
		    "min, max, both CIs, raw and adjusted p, minimum "
		    "detectable change) and MiB/s, files/s and wall_s of "
		    "every phase"),
	CMDOPT_INCLUDE_AT(struct compare_args, o, cmd_filter_opts),
	CMDOPT_CB(0, "pair", struct compare_args, pairs, "NAME=NAME", add_pair,
		  "targets named so in different runs are one configuration "
		  "(repeatable), for names that differ across runs"),
	CMDOPT_BOOL(0, "fail-on-regression", struct compare_args, fail_on_reg,
		    "exit 3 when a key metric regressed significantly, 4 when "
		    "no key metric could be tested (no verdict)"),
	CMDOPT_BOOL(0, "explain", struct compare_args, explain,
		    "beside each key metric that changed significantly, the "
		    "co-metrics that moved with it (Benjamini-Hochberg, "
		    "ranked; see doc/cometrics.md); with csv, the leads "
		    "instead of the table"),
	CMDOPT_CB(0, "factor", struct compare_args, factors, "NAME",
		  add_factor,
		  "what the configurations are meant to differ in (repeatable):"
		  " mount, mkfs, kernel, fstype, sysctl, cpu, dev... or a "
		  "recorded field (sysctl.vm.dirty_ratio); any other recorded "
		  "difference is warned of"),
	CMDOPT_BOOL(0, "strict", struct compare_args, strict,
		    "refuse (exit 2) when the configurations differ in "
		    "anything not named with --factor"),
	CMDOPT_BOOL(0, "allow-invalid", struct compare_args, allow_invalid,
		    "give verdicts even for a configuration whose setup a "
		    "validity check found invalid ('fslab check')"),
	CMDOPT_CB(0, "accept", struct compare_args, accept, "ID",
		  cmd_accept_cb, CMD_ACCEPT_HELP),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_compare_opts = {
	.name = "compare",
	.summary = "statistics of configurations against a baseline",
	.usage = "[RUN|TAG|SELECTOR...] [--db PATH]... [--format text|json|csv] [--long]\n"
		 "[--metric GLOB] [--phase GLOB] [--all]\n"
		 "[--min-change PCT] [--min-wall MS] [--alpha LEVEL]\n"
		 "[--adjust holm|bh|none] [--allow-option-mismatch]\n"
		 "[--pair NAME=NAME]... [--fail-on-regression] [--explain]\n"
		 "[--factor NAME]... [--strict] [--allow-invalid] "
		 "[--accept ID]...",
	.desc = "Compare configurations.  With no argument or one RUN|TAG, "
		"the targets of that run (default: the latest) against its "
		"first target; with several, each RUN|TAG is one "
		"configuration and targets are matched by name (ext4 with "
		"ext4; --pair A=B for names that differ); a TAG naming several runs pools their repetitions.  "
		"The repetition is the sample: each phase gives one figure "
		"per repetition.  A change is significant when the t-test p "
		"of the log ratio, Holm-adjusted over the key metrics "
		"tested, is below --alpha and the change is at least "
		"--min-change; improvements and regressions follow each "
		"metric's direction.  Runs whose workload options differ "
		"are refused unless --allow-option-mismatch.",
	.opts = compare_table,
	.footer = "Exit codes: 0 success, 1 failure, 2 usage error, "
		  "different workload options or nothing to compare (no "
		  "target matched: see --pair), 3 a key metric regressed "
		  "significantly or a compared run failed (with "
		  "--fail-on-regression), 4 no verdict: no key metric could "
		  "be tested, e.g. one repetition per side (with "
		  "--fail-on-regression).",
	.args = CMDOPT_C_RUN,
};

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .fmt.format = "text" };
	struct compare_text_opts to = { 0 };
	struct compare_opts o;
	struct cmp_input in;
	struct cmp_session s;
	struct explain ex = { 0 };
	struct check_report *reports = NULL;
	struct check_opts co;
	enum cmp_outcome outcome;
	int first, rc = EXIT_OK;

	compare_opts_init(&a.o);
	first = cmdopt_parse(&cmd_compare_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	a.o.factors = a.factors.v;
	a.o.nr_factors = a.factors.n;
	o = a.o;
	to.longf = a.longf;
	if (cmp_input_load(a.dbs.v, a.dbs.n, argv + first,
			   (size_t)(argc - first), &in)) {
		free(a.pairs.v);
		free(a.factors.v);
		free(a.accept.v);
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < a.pairs.nr; i++)
		if (cmp_input_pair(&in, a.pairs.v[i])) {
			free(a.pairs.v);
			free(a.factors.v);
			free(a.accept.v);
			cmp_input_release(&in);
			return EXIT_USAGE;
		}
	free(a.pairs.v);
	compare_session_build(&in, &o, &s);
	/* No verdict for an invalid setup; what differs undeclared is
	 * named (doc/validity.md). */
	check_opts_init(&co);
	co.min_change_pct = o.min_change_pct;
	co.min_wall_s = o.min_wall_s;
	co.alpha = o.alpha;
	co.accept = a.accept.v;
	co.nr_accept = a.accept.n;
	compare_guard(&s, &in, &co, a.allow_invalid, &reports);
	to.reports = reports;
	for (size_t i = 0; i < s.nr && a.strict; i++)
		for (size_t d = 0; d < s.tabs[i].nr_diffs; d++)
			if (!s.tabs[i].diffs[d].declared) {
				error("--strict: the configurations differ in "
				      "%s, not named with --factor (--factor "
				      "%s to compare anyway)",
				      s.tabs[i].diffs[d].field,
				      s.tabs[i].diffs[d].factor);
				rc = EXIT_USAGE;
			}
	if (rc)
		goto out;
	for (size_t i = 0; i < s.nr && !o.allow_option_mismatch; i++)
		if (s.tabs[i].option_mismatch) {
			error("%s%s%s ran with different workload options: "
			      "%s; pass --allow-option-mismatch to compare "
			      "anyway", s.tabs[i].workload,
			      s.tabs[i].name ? " on " : "",
			      s.tabs[i].name ? s.tabs[i].name : "",
			      s.tabs[i].option_mismatch);
			rc = EXIT_USAGE;
			goto out;
		}
	outcome = compare_session_outcome(&s);
	if (outcome == CMP_OUTCOME_NOTHING) {
		compare_text_nothing(stderr, &in, &s);
		rc = EXIT_USAGE;
		goto out;
	}
	if (a.explain) {
		struct explain_opts eo;

		explain_opts_init(&eo);
		eo.alpha = o.alpha;
		explain_build(s.tabs, s.groups, s.nr, &eo, &ex);
		to.explain = &ex;
	}
	if (!strcmp(a.fmt.format, "text"))
		compare_text_print(stdout, &s, &in, &o, &to);
	else if (!strcmp(a.fmt.format, "json"))
		rc = json_print_compare_with(&s, &in, &o, "explain", a.explain
					     ? explain_json(&ex, s.tabs) : NULL)
		     ? EXIT_RUNTIME : EXIT_OK;
	else if (a.explain)
		explain_write_csv(stdout, &ex, s.tabs);
	else
		csv_write_compare(stdout, s.tabs, s.nr, &o);
	if (!rc && a.fail_on_reg)
		rc = outcome == CMP_OUTCOME_REGRESSION ||
		     outcome == CMP_OUTCOME_FAILED ? EXIT_REGRESSION :
		     outcome == CMP_OUTCOME_NO_VERDICT ? EXIT_NO_VERDICT :
		     EXIT_OK;
out:
	explain_release(&ex);
	for (size_t i = 0; reports && i < in.nr; i++)
		check_report_release(&reports[i]);
	free(reports);
	free(a.factors.v);
	free(a.accept.v);
	compare_session_release(&s);
	cmp_input_release(&in);
	return rc;
}
