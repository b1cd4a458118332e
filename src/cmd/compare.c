/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - `fslab compare`: are the configurations of a run (or
 * several runs) different, by how much, and can we tell?  Prints each
 * workload's classic side-by-side layout when it has one, then per
 * phase and metric the descriptive statistics, the change against the
 * baseline with its CI and Welch p-value, the verdict and a roll-up.
 * The statistics are in src/compare/compare.c; this file only renders.
 */
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

struct compare_args {
	struct cmdopt_store store;
	struct cmdopt_format fmt;
	struct compare_opts o;
	bool fail_on_reg;
};

static const struct cmdopt compare_table[] = {
	CMDOPT_INCLUDE_AT(struct compare_args, store, cmdopt_store_opts),
	CMDOPT_INCLUDE_AT(struct compare_args, fmt, cmdopt_format_opts),
	CMDOPT_INCLUDE_AT(struct compare_args, o, cmd_filter_opts),
	CMDOPT_BOOL(0, "fail-on-regression", struct compare_args, fail_on_reg,
		    "exit 3 when a key metric regressed significantly"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_compare_opts = {
	.name = "compare",
	.summary = "statistics of configurations against a baseline",
	.usage = "[RUN|TAG...] [--db PATH] [--format text|json|csv]\n"
		 "[--metric GLOB] [--phase GLOB] [--all]\n"
		 "[--min-change PCT] [--fail-on-regression]",
	.desc = "Compare configurations.  With no argument or one RUN|TAG, "
		"the targets of that run (default: the latest) against its "
		"first target; with several, each RUN|TAG is one "
		"configuration, against the first.  Repetitions (--repeat) "
		"are the samples.  A difference is marked significant when "
		"Welch's t-test gives p < 0.05 and it is at least "
		"--min-change; improvements and regressions follow each "
		"metric's direction.",
	.opts = compare_table,
	.footer = "Exit codes: 0 success, 1 failure, 2 usage error, 3 a key "
		  "metric regressed significantly (with "
		  "--fail-on-regression).",
	.args = CMDOPT_C_RUN,
};

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
	struct compare_args a = { .fmt.format = "text" };
	const char *db, *format;
	struct compare_opts o;
	struct cmp_input in;
	struct cmp_table *tabs;
	const char **wls;
	bool fail_on_reg, regression = false, any_failed = false;
	size_t nr_wls;
	int first, rc = EXIT_OK;

	compare_opts_init(&a.o);
	first = cmdopt_parse(&cmd_compare_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	db = a.store.db;
	format = a.fmt.format;
	o = a.o;
	fail_on_reg = a.fail_on_reg;
	if (cmp_input_load(db, argv + first, (size_t)(argc - first), &in))
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
