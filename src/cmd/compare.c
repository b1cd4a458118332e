/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - `fslab compare`: are the configurations of a run (or
 * several runs) different, by how much, and can we tell?  Prints each
 * workload's classic side-by-side layout when it has one, then per
 * phase and metric the descriptive statistics, the change against the
 * baseline with its CI and Welch p-value, the verdict and a roll-up.
 * The statistics are in src/compare/compare.c; this file only renders.
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare/compare.h"
#include "compare/load.h"
#include "output/csv.h"
#include "util/util.h"
#include "workloads/registry.h"

static const char compare_usage[] =
	"usage: fslab compare [RUN|TAG...] [--db PATH] "
	"[--format text|json|csv]\n"
	"                     [--metric NAME] [--phase NAME] [--all]\n"
	"                     [--min-change PCT] [--fail-on-regression]\n"
	"\n"
	"Compare configurations.  With no argument or one RUN|TAG, the\n"
	"targets of that run (default: the latest) against its first "
	"target;\n"
	"with several, each RUN|TAG is one configuration, against the "
	"first.\n"
	"Repetitions (--repeat) are the samples.  A difference is marked\n"
	"significant when Welch's t-test gives p < 0.05 and it is at least\n"
	"--min-change; improvements and regressions follow each metric's\n"
	"direction.\n"
	"\n"
	"  --db PATH            results database (default: "
	"$XDG_DATA_HOME/fslab/results.db)\n"
	"  --format FORMAT      text (the default), json or csv\n"
	"  --metric NAME        only metrics matching NAME (a glob)\n"
	"  --phase NAME         only phases matching NAME (a glob)\n"
	"  --all                every metric, not just the key ones and "
	"MiB/s,\n"
	"                       files/s and wall_s\n"
	"  --min-change PCT     practical threshold in % (default 2)\n"
	"  --fail-on-regression exit 3 when a key metric regressed "
	"significantly\n"
	"  -h, --help           show this help\n";

static void fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
	else if (fabs(v) >= 1e6 || (v != 0 && fabs(v) < 1e-3))
		snprintf(buf, len, "%.3e", v);
	else if (fabs(v) >= 100)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

static void fmt_pct(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", v);
}

static const char *better_text(enum better b)
{
	return b == BETTER_HIGHER ? "higher is better" :
	       b == BETTER_LOWER ? "lower is better" : "no direction";
}

static const char *mark(const struct cmp_delta *d)
{
	switch (d->verdict) {
	case CMP_BETTER:
		return "* improvement";
	case CMP_WORSE:
		return "* REGRESSION";
	case CMP_SAME:
		return "no significant change";
	case CMP_INFO:
		return d->significant ? "changed (no direction)" : "-";
	case CMP_FAILED:
		return "* FAILED run: not compared";
	case CMP_NA:
		break;
	}
	return "too few samples";
}

static void print_row(FILE *out, const struct cmp_table *t,
		      const struct cmp_row *row, int lw)
{
	fprintf(out, "\n%s  %s [%s]  (%s; %s mean)%s\n", row->phase,
		row->metric, row->unit, better_text(row->better),
		compare_mean_name(row), row->key ? "  key" : "");
	fprintf(out, "  %-*s %3s %10s %10s %6s %10s %10s  %-23s %7s  "
		"%-17s %6s  %s\n", lw, "config", "n", "mean", "sigma",
		"CoV%", "min", "max", "95% CI of mean", "change",
		"95% CI of change", "p", "verdict");
	for (size_t g = 0; g < t->nr_groups; g++) {
		const struct cmp_stat *s = &row->st[g];
		const struct cmp_delta *d = &row->d[g];
		char mean[32], sd[32], cov[32], mn[32], mx[32], lo[32],
		     hi[32], ci[72], pct[32], plo[32], phi[32], pci[72],
		     p[32];

		fmt_num(mean, sizeof(mean), s->mean);
		fmt_num(sd, sizeof(sd), s->sd);
		if (isfinite(s->cov_pct))
			snprintf(cov, sizeof(cov), "%.1f", s->cov_pct);
		else
			snprintf(cov, sizeof(cov), "-");
		fmt_num(mn, sizeof(mn), s->min);
		fmt_num(mx, sizeof(mx), s->max);
		fmt_num(lo, sizeof(lo), s->ci_lo);
		fmt_num(hi, sizeof(hi), s->ci_hi);
		if (isnan(s->ci_lo))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
		fprintf(out, "  %-*s %3zu %10s %10s %6s %10s %10s  %-23s", lw,
			t->labels[g], s->n, mean, sd, cov, mn, mx, ci);
		if (!g) {
			fprintf(out, " %7s  %-17s %6s  %s\n", "", "", "",
				"baseline");
			continue;
		}
		fmt_pct(pct, sizeof(pct), d->pct);
		fmt_pct(plo, sizeof(plo), d->pct_lo);
		fmt_pct(phi, sizeof(phi), d->pct_hi);
		if (isfinite(d->pct_lo) && isfinite(d->pct_hi))
			snprintf(pci, sizeof(pci), "[%s, %s]", plo, phi);
		else
			snprintf(pci, sizeof(pci), "-");
		if (isfinite(d->p))
			snprintf(p, sizeof(p), "%.3f", d->p);
		else
			snprintf(p, sizeof(p), "-");
		fprintf(out, " %7s  %-17s %6s  %s\n", pct, pci, p, mark(d));
	}
}

static void print_rollup(FILE *out, const struct cmp_table *t,
			 const struct compare_opts *o)
{
	fprintf(out, "\nroll-up: geometric mean of the baseline-relative "
		"ratios of the key metrics\n(%s; oriented so > 1 is "
		"better)\n", t->key_from_workload ? "the workload's key "
		"metrics" : "all rate metrics");
	for (size_t g = 1; g < t->nr_groups; g++) {
		size_t nb = 0, nw = 0;

		for (size_t i = 0; i < t->nr_rows; i++) {
			if (!t->rows[i].key)
				continue;
			nb += t->rows[i].d[g].verdict == CMP_BETTER;
			nw += t->rows[i].d[g].verdict == CMP_WORSE;
		}
		if (t->failed[g] || t->failed[0])
			fprintf(out, "  %s vs %s: FAILED: %s failed, not "
				"compared\n", t->labels[g], t->labels[0],
				t->labels[t->failed[g] ? g : 0]);
		else if (isfinite(t->rollup[g]))
			fprintf(out, "  %s vs %s: %.4f (%+.1f%%) over %zu "
				"metrics; %zu improved, %zu regressed "
				"significantly (p < %g, |change| >= %g%%)\n",
				t->labels[g], t->labels[0], t->rollup[g],
				100 * (t->rollup[g] - 1), t->rollup_n[g], nb,
				nw, o->alpha, o->min_change_pct);
		else
			fprintf(out, "  %s vs %s: no key metric to roll up\n",
				t->labels[g], t->labels[0]);
	}
	if (t->nr_groups < 2)
		fprintf(out, "  only one configuration: nothing to "
			"compare against\n");
}

static void print_text(FILE *out, const struct cmp_table *t,
		       const struct cmp_group *groups,
		       const struct compare_opts *o)
{
	const struct workload *wl = wl_find(t->workload);
	int lw = 6;

	for (size_t g = 0; g < t->nr_groups; g++)
		if ((int)strlen(t->labels[g]) > lw)
			lw = (int)strlen(t->labels[g]);
	fprintf(out, "== %s: %zu configuration%s, baseline '%s'\n",
		t->workload, t->nr_groups, t->nr_groups == 1 ? "" : "s",
		t->nr_groups ? t->labels[0] : "-");
	for (size_t g = 0; g < t->nr_groups; g++)
		fprintf(out, "  %-*s %zu repetition%s%s\n", lw, t->labels[g],
			groups[g].nr_reps, groups[g].nr_reps == 1 ? "" : "s",
			t->failed[g] ? "  FAILED" : "");
	if (wl && wl->report_compare && t->nr_groups) {
		fputc('\n', out);
		wl->report_compare(out, groups, t->nr_groups);
	}
	for (size_t i = 0; i < t->nr_rows; i++)
		if (t->rows[i].shown)
			print_row(out, t, &t->rows[i], lw);
	print_rollup(out, t, o);
	fputc('\n', out);
}

/* ---- JSON ---- */

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *better_json(enum better b)
{
	return b == BETTER_HIGHER ? "higher" : b == BETTER_LOWER ? "lower"
								 : "none";
}

static json_t *row_json(const struct cmp_table *t, const struct cmp_row *row)
{
	json_t *o = json_object(), *groups = json_array();

	json_object_set_new(o, "phase", json_string(row->phase));
	json_object_set_new(o, "metric", json_string(row->metric));
	json_object_set_new(o, "unit", json_string(row->unit));
	json_object_set_new(o, "better", json_string(better_json(row->better)));
	json_object_set_new(o, "key", json_boolean(row->key));
	json_object_set_new(o, "mean_kind",
			    json_string(compare_mean_name(row)));
	for (size_t g = 0; g < t->nr_groups; g++) {
		const struct cmp_stat *s = &row->st[g];
		const struct cmp_delta *d = &row->d[g];
		json_t *j = json_object(), *x = json_array();

		json_object_set_new(j, "group", json_string(t->labels[g]));
		json_object_set_new(j, "n", json_integer((json_int_t)s->n));
		json_object_set_new(j, "mean", jnum(s->mean));
		json_object_set_new(j, "sd", jnum(s->sd));
		json_object_set_new(j, "cov_pct", jnum(s->cov_pct));
		json_object_set_new(j, "min", jnum(s->min));
		json_object_set_new(j, "max", jnum(s->max));
		json_object_set_new(j, "ci_lo", jnum(s->ci_lo));
		json_object_set_new(j, "ci_hi", jnum(s->ci_hi));
		for (size_t i = 0; i < s->n; i++)
			json_array_append_new(x, jnum(s->x[i]));
		json_object_set_new(j, "samples", x);
		if (g) {
			json_t *v = json_object();

			json_object_set_new(v, "ratio", jnum(d->ratio));
			json_object_set_new(v, "change_pct", jnum(d->pct));
			json_object_set_new(v, "change_ci_lo_pct",
					    jnum(d->pct_lo));
			json_object_set_new(v, "change_ci_hi_pct",
					    jnum(d->pct_hi));
			json_object_set_new(v, "p", jnum(d->p));
			json_object_set_new(v, "significant",
					    json_boolean(d->significant));
			json_object_set_new(v, "verdict", json_string(
				compare_verdict_name(d->verdict)));
			json_object_set_new(j, "vs_baseline", v);
		}
		json_array_append_new(groups, j);
	}
	json_object_set_new(o, "groups", groups);
	return o;
}

static json_t *table_json(const struct cmp_table *t)
{
	json_t *o = json_object(), *labels = json_array(), *rows =
		json_array(), *roll = json_array(), *failed = json_array();

	json_object_set_new(o, "workload", json_string(t->workload));
	for (size_t g = 0; g < t->nr_groups; g++)
		json_array_append_new(labels, json_string(t->labels[g]));
	json_object_set_new(o, "groups", labels);
	json_object_set_new(o, "baseline", t->nr_groups ?
			    json_string(t->labels[0]) : json_null());
	for (size_t i = 0; i < t->nr_rows; i++)
		if (t->rows[i].shown)
			json_array_append_new(rows, row_json(t, &t->rows[i]));
	json_object_set_new(o, "rows", rows);
	for (size_t g = 0; g < t->nr_groups; g++) {
		json_t *r = json_object();

		json_object_set_new(r, "group", json_string(t->labels[g]));
		json_object_set_new(r, "gmean_ratio", jnum(t->rollup[g]));
		json_object_set_new(r, "metrics",
				    json_integer((json_int_t)t->rollup_n[g]));
		json_array_append_new(roll, r);
	}
	json_object_set_new(o, "rollup", roll);
	json_object_set_new(o, "key_metrics", json_string(
		t->key_from_workload ? "workload" : "rates"));
	json_object_set_new(o, "regression", json_boolean(t->regression));
	for (size_t g = 0; g < t->nr_groups; g++)
		if (t->failed[g])
			json_array_append_new(failed,
					      json_string(t->labels[g]));
	json_object_set_new(o, "failed", failed);
	return o;
}

static int print_json(const struct cmp_table *tabs, size_t nr,
		      const struct compare_opts *o)
{
	json_t *root = json_object(), *arr = json_array();
	char *s;
	int rc = 0;

	json_object_set_new(root, "format_version", json_integer(1));
	json_object_set_new(root, "alpha", json_real(o->alpha));
	json_object_set_new(root, "min_change_pct",
			    json_real(o->min_change_pct));
	json_object_set_new(root, "ratio_ci", json_string("delta method"));
	for (size_t i = 0; i < nr; i++)
		json_array_append_new(arr, table_json(&tabs[i]));
	json_object_set_new(root, "workloads", arr);
	s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!s)
		return error("cannot serialize the comparison to JSON");
	if (printf("%s\n", s) < 0)
		rc = error_errno("cannot write to stdout");
	free(s);
	return rc;
}

/* ---- the command ---- */

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "metric", required_argument, NULL, 'm' },
		{ "phase", required_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'a' },
		{ "min-change", required_argument, NULL, 'c' },
		{ "fail-on-regression", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *db = NULL, *format = "text";
	struct compare_opts o;
	struct cmp_input in;
	struct cmp_table *tabs;
	const char **wls;
	bool fail_on_reg = false, regression = false, any_failed = false;
	size_t nr_wls;
	int c, rc = EXIT_OK;
	char *end;

	compare_opts_init(&o);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'f':
			format = optarg;
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
		case 'F':
			fail_on_reg = true;
			break;
		case 'h':
			fputs(compare_usage, stdout);
			return EXIT_OK;
		case ':':
			usage_die("option '%s' needs a value; see 'fslab "
				  "compare -h'", argv[optind - 1]);
		default:
			usage_die("unknown option '%s'; see 'fslab compare "
				  "-h'", argv[optind - 1]);
		}
	}
	if (strcmp(format, "text") && strcmp(format, "json") &&
	    strcmp(format, "csv"))
		usage_die("unknown format '%s' (text, json or csv)", format);
	if (cmp_input_load(db, argv + optind, (size_t)(argc - optind), &in))
		return EXIT_RUNTIME;

	wls = compare_workloads((const struct run_rec *const *)in.runs,
				in.nr, &nr_wls);
	tabs = xcalloc(nr_wls + 1, sizeof(*tabs));
	if (!nr_wls && strcmp(format, "text") == 0)
		printf("no workload runs to compare\n");
	for (size_t i = 0; i < nr_wls; i++) {
		const struct workload *wl = wl_find(wls[i]);
		struct cmp_group *groups;
		size_t ng;

		o.key_metrics = wl ? wl->key_metrics : NULL;
		groups = compare_groups((const struct run_rec *const *)in.runs,
					(const char *const *)in.labels, in.nr,
					wls[i], &ng);
		compare_build(wls[i], groups, ng, &o, &tabs[i]);
		if (tabs[i].regression)
			regression = true;
		for (size_t g = 0; g < ng; g++)
			if (tabs[i].failed[g])
				any_failed = true;
		if (!strcmp(format, "text"))
			print_text(stdout, &tabs[i], groups, &o);
		compare_groups_free(groups, ng);
	}
	if (!strcmp(format, "json")) {
		if (print_json(tabs, nr_wls, &o))
			rc = EXIT_RUNTIME;
	} else if (!strcmp(format, "csv")) {
		csv_write_compare(stdout, tabs, nr_wls);
	}
	if (!strcmp(format, "text") && nr_wls)
		printf("%s\n", any_failed ? "result: FAILED: a compared run "
		       "failed" : regression ? "result: a key metric "
		       "regressed significantly" : "result: no key metric "
		       "regressed significantly");
	for (size_t i = 0; i < nr_wls; i++)
		compare_table_release(&tabs[i]);
	free(tabs);
	free(wls);
	cmp_input_release(&in);
	if (!rc && fail_on_reg && regression)
		rc = EXIT_REGRESSION;
	return rc;
}
