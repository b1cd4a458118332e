/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - `fslab compare`: are the configurations of a run (or
 * several runs) different, by how much, and can we tell?  Per workload
 * and matched target name: what differs between the configurations,
 * the workload's classic side-by-side layout when it has one, then a
 * compact table of the key metrics (mean +- CI half-width, change,
 * verdict; 80 columns) or, with --long, every statistic per metric.
 * The statistics are in src/compare/; this file renders the text (JSON
 * and CSV are output/json.c and output/csv.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare/compare.h"
#include "compare/load.h"
#include "compare/order.h"
#include "compare/session.h"
#include "output/csv.h"
#include "output/json.h"
#include "util/util.h"
#include "workloads/registry.h"

struct compare_args {
	struct cmd_dbs dbs;
	struct cmdopt_format fmt;
	struct compare_opts o;
	bool fail_on_reg, longf;
};

static const struct cmdopt compare_table[] = {
	CMDOPT_INCLUDE_AT(struct compare_args, dbs, cmd_dbs_opts),
	CMDOPT_INCLUDE_AT(struct compare_args, fmt, cmdopt_format_opts),
	CMDOPT_BOOL(0, "long", struct compare_args, longf,
		    "every statistic per metric (n, instances, sigma, CoV, "
		    "min, max, both CIs, raw and adjusted p, minimum "
		    "detectable change) and MiB/s, files/s and wall_s of "
		    "every phase"),
	CMDOPT_INCLUDE_AT(struct compare_args, o, cmd_filter_opts),
	CMDOPT_BOOL(0, "fail-on-regression", struct compare_args, fail_on_reg,
		    "exit 3 when a key metric regressed significantly"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_compare_opts = {
	.name = "compare",
	.summary = "statistics of configurations against a baseline",
	.usage = "[RUN|TAG|SELECTOR...] [--db PATH]... [--format text|json|csv] [--long]\n"
		 "[--metric GLOB] [--phase GLOB] [--all]\n"
		 "[--min-change PCT] [--min-wall MS] [--alpha LEVEL]\n"
		 "[--adjust holm|bh|none] [--allow-option-mismatch]\n"
		 "[--fail-on-regression]",
	.desc = "Compare configurations.  With no argument or one RUN|TAG, "
		"the targets of that run (default: the latest) against its "
		"first target; with several, each RUN|TAG is one "
		"configuration and targets are matched by name (ext4 with "
		"ext4); a TAG naming several runs pools their repetitions.  "
		"The repetition is the sample: each phase gives one figure "
		"per repetition.  A change is significant when the t-test p "
		"of the log ratio, Holm-adjusted over the key metrics "
		"tested, is below --alpha and the change is at least "
		"--min-change; improvements and regressions follow each "
		"metric's direction.  Runs whose workload options differ "
		"are refused unless --allow-option-mismatch.",
	.opts = compare_table,
	.footer = "Exit codes: 0 success, 1 failure, 2 usage error or "
		  "different workload options, 3 a key metric regressed "
		  "significantly (with --fail-on-regression).",
	.args = CMDOPT_C_RUN,
};

/* Decimals for 4 significant digits of v, never scientific notation. */
static int decimals_for(double v)
{
	double a = fabs(v);
	int d;

	if (!isfinite(a) || a == 0 || a >= 1000)
		return 0;
	if (a >= 100)
		return 1;
	if (a >= 10)
		return 2;
	if (a >= 1)
		return 3;
	d = 3 - (int)floor(log10(a));
	return d > 9 ? 9 : d;
}

static void fmt_dec(char *buf, size_t len, double v, int dec)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (isinf(v))
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
	else
		snprintf(buf, len, "%.*f", dec, v);
}

static void fmt_num(char *buf, size_t len, double v)
{
	fmt_dec(buf, len, v, decimals_for(v));
}

static void fmt_pct(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", v);
}

static void fmt_p(char *buf, size_t len, double p)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
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
		return "-";
	case CMP_FAILED:
		return "* FAILED run: not compared";
	case CMP_SHORT:
		return "too short to judge";
	case CMP_NA:
		break;
	}
	return "too few samples";
}

/* The compact table's verdict, at most 17 columns. */
static void short_mark(char *buf, size_t len, const struct cmp_delta *d)
{
	switch (d->verdict) {
	case CMP_BETTER:
		snprintf(buf, len, "improvement");
		return;
	case CMP_WORSE:
		snprintf(buf, len, "REGRESSION");
		return;
	case CMP_SAME:
		if (isfinite(d->mdc_pct) && d->mdc_pct < 1000)
			snprintf(buf, len, "same (mdc %.0f%%)", d->mdc_pct);
		else
			snprintf(buf, len, "same (mdc -)");
		return;
	case CMP_INFO:
		snprintf(buf, len, "-");
		return;
	case CMP_FAILED:
		snprintf(buf, len, "FAILED run");
		return;
	case CMP_SHORT:
		snprintf(buf, len, "too short");
		return;
	case CMP_NA:
		break;
	}
	snprintf(buf, len, "too few reps");
}

/* fputs s padded with spaces to w display columns ("±" is one column,
 * two bytes). */
static void put_pad(FILE *out, const char *s, int w, bool right)
{
	int cols = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		cols += (*p & 0xc0) != 0x80;
	if (right)
		for (int i = cols; i < w; i++)
			fputc(' ', out);
	fputs(s, out);
	if (!right)
		for (int i = cols; i < w; i++)
			fputc(' ', out);
}

/* s cut to w display columns, "~" marking the cut. */
static char *cut(const char *s, size_t w)
{
	char *c = xstrdup(s);

	if (strlen(c) > w && w > 1) {
		c[w - 1] = '~';
		c[w] = '\0';
	}
	return c;
}

/* ---- header: what is compared, and what differs ---- */

static void print_header(FILE *out, const struct cmp_table *t, bool longf)
{
	fprintf(out, "== %s", t->workload);
	if (t->name)
		fprintf(out, " %s %s", t->name_is_options ? "with" : "on",
			t->name);
	fprintf(out, ": %zu configuration%s, baseline '%s'\n", t->nr_groups,
		t->nr_groups == 1 ? "" : "s",
		t->nr_groups ? t->labels[0] : "-");
	for (size_t g = 0; g < t->nr_groups; g++)
		fprintf(out, "  %-12s %zu repetition%s%s\n", t->labels[g],
			t->nr_reps[g], t->nr_reps[g] == 1 ? "" : "s",
			t->failed[g] ? "  FAILED" : "");
	if (!t->nr_diffs && t->nr_groups > 1)
		fprintf(out, "  differs: nothing (kernel, fslab, host, mkfs, "
			"mount, options alike)\n");
	for (size_t i = 0; i < t->nr_diffs; i++) {
		const struct cmp_diff *d = &t->diffs[i];

		fprintf(out, "  differs: %s\n", d->field);
		for (size_t g = 0; g < t->nr_groups; g++) {
			char *line = xasprintf("    %-12s %s", t->labels[g],
					       d->values[g]);
			char *c = cut(line, longf ? strlen(line) : 79);

			fprintf(out, "%s\n", c);
			free(c);
			free(line);
		}
	}
}

/* "target order: balanced; rep 0: A B; ..." for each run compared. */
static void print_orders(FILE *out, const struct cmp_input *in, bool longf)
{
	for (size_t i = 0; i < in->nr; i++) {
		char *buf = NULL, *c;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			return;
		order_print_run(m, in->runs[i]);
		fclose(m);
		if (len) {
			char *line;

			buf[strcspn(buf, "\n")] = '\0';
			line = xasprintf("run %lld %s", (long long)in->runs[i]->id,
					 buf);
			c = cut(line, longf ? strlen(line) : 79);
			fprintf(out, "%s\n", c);
			free(c);
			free(line);
		}
		free(buf);
	}
}

/* ---- the compact table (default): 80 columns ---- */

#define CW_CONF 9
#define CW_MEAN 21
#define CW_CHANGE 8
#define CW_METRIC (80 - 1 - CW_CONF - 1 - CW_MEAN - 1 - CW_CHANGE - 2 - 17)

static bool compact_row(const struct compare_opts *o, const struct cmp_row *r)
{
	if (!r->shown)
		return false;
	if (o->all || o->metric || o->phase)
		return true;
	return r->key || r->traced;
}

static char *row_name(const struct cmp_row *row)
{
	/* compilebench's figures live in "summary": its name says nothing */
	if (!strcmp(row->phase, "summary"))
		return xstrdup(row->metric);
	return xasprintf("%s %s", row->phase, row->metric);
}

static void print_compact_row(FILE *out, const struct cmp_table *t,
			      const struct cmp_row *row)
{
	char *name = row_name(row);
	bool own_line = strlen(name) > CW_METRIC;
	int dec = decimals_for(row->st[0].mean);

	if (own_line)
		fprintf(out, "%s\n", name);
	for (size_t g = 0; g < t->nr_groups; g++) {
		const struct cmp_stat *s = &row->st[g];
		const struct cmp_delta *d = &row->d[g];
		char mean[40], half[40], mc[96], pct[32], v[40];
		char *label = cut(t->labels[g], CW_CONF);
		double h = (s->ci_hi - s->ci_lo) / 2;

		fmt_dec(mean, sizeof(mean), s->mean, dec);
		if (isfinite(h)) {
			fmt_dec(half, sizeof(half), h, dec);
			snprintf(mc, sizeof(mc), "%s ± %s", mean, half);
		} else {
			snprintf(mc, sizeof(mc), "%s", mean);
		}
		if (!g || own_line)
			fprintf(out, "%-*s ", CW_METRIC, g || own_line ? ""
								 : name);
		else
			fprintf(out, "%-*s ", CW_METRIC, "");
		put_pad(out, label, CW_CONF, false);
		fputc(' ', out);
		put_pad(out, mc, CW_MEAN, true);
		if (g) {
			fmt_pct(pct, sizeof(pct), d->pct);
			short_mark(v, sizeof(v), d);
			fprintf(out, " %*s  %s", CW_CHANGE, pct, v);
		}
		fputc('\n', out);
		free(label);
	}
	free(name);
}

static void print_compact(FILE *out, const struct cmp_table *t,
			  const struct compare_opts *o)
{
	bool any = false;

	for (size_t i = 0; i < t->nr_rows && !any; i++)
		any = compact_row(o, &t->rows[i]);
	if (!any) {
		fprintf(out, "no key metric recorded; --long or --all shows "
			"the rest\n");
		return;
	}
	fprintf(out, "%-*s %-*s ", CW_METRIC, "metric", CW_CONF, "config");
	put_pad(out, "mean ± 95% CI", CW_MEAN, true);
	fprintf(out, " %*s  %s\n", CW_CHANGE, "change", "verdict");
	for (size_t i = 0; i < t->nr_rows; i++)
		if (compact_row(o, &t->rows[i]))
			print_compact_row(out, t, &t->rows[i]);
}

/* ---- --long: every statistic per metric ---- */

static void print_row(FILE *out, const struct cmp_table *t,
		      const struct cmp_row *row, int lw)
{
	int dec = decimals_for(row->st[0].mean);

	fprintf(out, "\n%s  %s [%s]  (%s; %s mean)%s%s\n", row->phase,
		row->metric, row->unit, better_text(row->better),
		compare_mean_name(row), row->key ? "  key" : "",
		row->traced ? "  traced" : "");
	fprintf(out, "  %-*s %3s %5s %10s %10s %6s %10s %10s  %-23s %7s  "
		"%-17s %7s %7s %6s  %s\n", lw, "config", "n", "inst", "mean",
		"sigma", "CoV%", "min", "max", "95% CI of mean", "change",
		"95% CI of change", "p", "p adj", "mdc", "verdict");
	for (size_t g = 0; g < t->nr_groups; g++) {
		const struct cmp_stat *s = &row->st[g];
		const struct cmp_delta *d = &row->d[g];
		char mean[40], sd[40], cov[32], mn[40], mx[40], lo[40],
		     hi[40], ci[96], pct[32], plo[32], phi[32], pci[72],
		     p[32], pa[32], mdc[32];

		fmt_dec(mean, sizeof(mean), s->mean, dec);
		fmt_num(sd, sizeof(sd), s->sd);
		if (isfinite(s->cov_pct))
			snprintf(cov, sizeof(cov), "%.1f", s->cov_pct);
		else
			snprintf(cov, sizeof(cov), "-");
		fmt_dec(mn, sizeof(mn), s->min, dec);
		fmt_dec(mx, sizeof(mx), s->max, dec);
		fmt_dec(lo, sizeof(lo), s->ci_lo, dec);
		fmt_dec(hi, sizeof(hi), s->ci_hi, dec);
		if (isnan(s->ci_lo))
			snprintf(ci, sizeof(ci), "-");
		else
			snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
		fprintf(out, "  %-*s %3zu %5zu %10s %10s %6s %10s %10s  %-23s",
			lw, t->labels[g], s->n, s->nr_inst, mean, sd, cov, mn,
			mx, ci);
		if (!g) {
			fprintf(out, " %7s  %-17s %7s %7s %6s  %s\n", "", "",
				"", "", "", "baseline");
			continue;
		}
		fmt_pct(pct, sizeof(pct), d->pct);
		fmt_pct(plo, sizeof(plo), d->pct_lo);
		fmt_pct(phi, sizeof(phi), d->pct_hi);
		if (isfinite(d->pct_lo) && isfinite(d->pct_hi))
			snprintf(pci, sizeof(pci), "[%s, %s]", plo, phi);
		else
			snprintf(pci, sizeof(pci), "-");
		fmt_p(p, sizeof(p), d->p);
		fmt_p(pa, sizeof(pa), d->tested ? d->p_adj : NAN);
		if (d->verdict == CMP_SAME && isfinite(d->mdc_pct))
			snprintf(mdc, sizeof(mdc), "%.1f%%", d->mdc_pct);
		else
			snprintf(mdc, sizeof(mdc), "-");
		fprintf(out, " %7s  %-17s %7s %7s %6s  %s\n", pct, pci, p, pa,
			mdc, mark(d));
	}
}

static void print_rollup(FILE *out, const struct cmp_table *t,
			 const struct compare_opts *o)
{
	fprintf(out, "roll-up (geometric mean of the key metrics' ratios, "
		"> 1 is better):\n");
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
			fprintf(out, "  %s vs %s: %.4f (%+.1f%%) over %zu; "
				"%zu improved, %zu regressed\n", t->labels[g],
				t->labels[0], t->rollup[g],
				100 * (t->rollup[g] - 1), t->rollup_n[g], nb,
				nw);
		else
			fprintf(out, "  %s vs %s: no key metric to roll up\n",
				t->labels[g], t->labels[0]);
	}
	if (t->nr_groups < 2)
		fprintf(out, "  only one configuration: nothing to "
			"compare against\n");
	(void)o;
}

/* Why rows got no verdict, and what to do about it: once per table. */
static void print_no_verdicts(FILE *out, const struct cmp_table *t,
			      const struct compare_opts *o, bool longf)
{
	bool few = false, any_short = false;
	const char **seen = xcalloc(t->nr_rows + 1, sizeof(*seen));
	size_t nseen = 0;

	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct cmp_row *row = &t->rows[i];
		bool short_row = false, dup = false;
		const char *name;
		double w = 0;

		if (longf ? !row->shown : !compact_row(o, row))
			continue;
		for (size_t g = 1; g < t->nr_groups; g++) {
			short_row |= row->d[g].verdict == CMP_SHORT;
			few |= row->d[g].verdict == CMP_NA;
		}
		name = row->wall_phase ? row->wall_phase : row->phase;
		for (size_t k = 0; k < nseen; k++)
			dup |= !strcmp(seen[k], name);
		if (!short_row || dup)
			continue;
		seen[nseen++] = name;
		for (size_t g = 0; g < t->nr_groups; g++)
			if (isfinite(row->st[g].wall_s))
				w = fmax(w, row->st[g].wall_s);
		if (!any_short)
			fprintf(out, "too short to judge (mean wall time per "
				"phase below %.0f ms):\n",
				1e3 * o->min_wall_s);
		any_short = true;
		fprintf(out, "  %s: %.1f ms\n", name, 1e3 * w);
	}
	if (any_short)
		fprintf(out, "  give the workload more work (files=, runs=, "
			"size=...) or lower --min-wall\n");
	if (few)
		fprintf(out, "too few repetitions for a verdict (need %d per "
			"configuration): --repeat %d\n", COMPARE_MIN_N,
			COMPARE_MIN_N);
	free(seen);
}

static void print_text(FILE *out, const struct cmp_table *t,
		       const struct cmp_group *groups,
		       const struct compare_opts *o, bool longf)
{
	const struct workload *wl = wl_find(t->workload);
	int lw = 6;

	for (size_t g = 0; g < t->nr_groups; g++)
		if ((int)strlen(t->labels[g]) > lw)
			lw = (int)strlen(t->labels[g]);
	print_header(out, t, longf);
	if (wl && wl->report_compare && t->nr_groups) {
		fputc('\n', out);
		wl->report_compare(out, groups, t->nr_groups);
	}
	fputc('\n', out);
	if (longf) {
		for (size_t i = 0; i < t->nr_rows; i++)
			if (t->rows[i].shown)
				print_row(out, t, &t->rows[i], lw);
		fputc('\n', out);
	} else {
		print_compact(out, t, o);
	}
	print_no_verdicts(out, t, o, longf);
	print_rollup(out, t, o);
	fputc('\n', out);
}

static void print_method(FILE *out, const struct compare_opts *o,
			 const struct cmp_session *s)
{
	size_t m = 0;

	for (size_t i = 0; i < s->nr; i++)
		for (size_t r = 0; r < s->tabs[i].nr_rows; r++)
			for (size_t g = 1; g < s->tabs[i].nr_groups; g++)
				m += s->tabs[i].rows[r].key &&
				     s->tabs[i].rows[r].d[g].tested;
	fprintf(out, "method: n = repetitions; ± = half the 95%% CI; "
		"log-ratio t-test, %s-adjusted\nover the %zu key tests; "
		"significant when adjusted p < %g and |change| >= %g%%;\n"
		"mdc = smallest change detectable at %.0f%% power; "
		"--long: p, CIs, more.\n",
		compare_adjust_name(o->adjust), m, o->alpha,
		o->min_change_pct, 100 * o->power);
}

/* ---- the command ---- */

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .fmt.format = "text" };
	struct compare_opts o;
	struct cmp_input in;
	struct cmp_session s;
	bool regression = false, any_failed = false, longf, text;
	int first, rc = EXIT_OK;

	compare_opts_init(&a.o);
	first = cmdopt_parse(&cmd_compare_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	o = a.o;
	longf = a.longf;
	text = !strcmp(a.fmt.format, "text");
	if (cmp_input_load(a.dbs.v, a.dbs.n, argv + first, (size_t)(argc - first),
			   &in))
		return EXIT_RUNTIME;
	compare_session_build(&in, &o, &s);
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
	for (size_t i = 0; i < s.nr; i++) {
		if (s.tabs[i].regression)
			regression = true;
		for (size_t g = 0; g < s.tabs[i].nr_groups; g++)
			if (s.tabs[i].failed[g])
				any_failed = true;
	}
	if (text) {
		if (!s.nr)
			printf("no workload runs to compare\n");
		print_orders(stdout, &in, longf);
		for (size_t i = 0; i < s.nr_notes; i++)
			printf("note: %s\n", s.notes[i]);
		if (in.nr > 1 || s.nr_notes)
			putchar('\n');
		for (size_t i = 0; i < s.nr; i++)
			print_text(stdout, &s.tabs[i], s.groups[i], &o, longf);
		if (s.nr) {
			print_method(stdout, &o, &s);
			printf("%s\n", any_failed ? "result: FAILED: a "
			       "compared run failed" : regression ?
			       "result: a key metric regressed "
			       "significantly" : "result: no key metric "
			       "regressed significantly");
		}
	} else if (!strcmp(a.fmt.format, "json")) {
		if (json_print_compare(&s, &in, &o))
			rc = EXIT_RUNTIME;
	} else {
		csv_write_compare(stdout, s.tabs, s.nr);
	}
	if (!rc && a.fail_on_reg && regression)
		rc = EXIT_REGRESSION;
out:
	compare_session_release(&s);
	cmp_input_release(&in);
	return rc;
}
