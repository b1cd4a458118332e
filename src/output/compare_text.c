/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_text.c - `fslab compare` as text (see compare_text.h).  The
 * page is two lists of sections: session_sections[] (what was loaded,
 * the comparisons, the method, the result) and table_sections[] (per
 * comparison: header, classic layout, metrics, why no verdict,
 * roll-up).  Numbers and verdict words come from output/fmt.h, shared
 * with JSON, CSV and HTML.
 */
#include "output/compare_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phase/order.h"
#include "output/checks.h"
#include "output/explain.h"
#include "output/fmt.h"
#include "output/tail.h"
#include "util/util.h"
#include "workloads/registry.h"

/* What every section sees. */
struct ctx {
	FILE *out;
	const struct cmp_session *s;
	const struct cmp_input *in;
	const struct compare_opts *o;
	bool longf;
	const struct check_report *reports;
	const struct explain *explain;
};

static const char *better_text(enum better b)
{
	return b == BETTER_HIGHER ? "higher is better" :
	       b == BETTER_LOWER ? "lower is better" : "no direction";
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

static void sec_header(const struct ctx *c, const struct cmp_table *t,
		       const struct cmp_group *groups)
{
	FILE *out = c->out;
	bool longf = c->longf;

	(void)groups;
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
			char *cl = cut(line, longf ? strlen(line) : 79);

			fprintf(out, "%s\n", cl);
			free(cl);
			free(line);
		}
	}
}

/* "target order: balanced; rep 0: A B; ..." for each run compared. */
static void sec_orders(const struct ctx *ctx)
{
	FILE *out = ctx->out;
	const struct cmp_input *in = ctx->in;
	bool longf = ctx->longf;

	for (size_t i = 0; i < in->nr; i++) {
		char *buf = NULL, *cl;
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
			cl = cut(line, longf ? strlen(line) : 79);
			fprintf(out, "%s\n", cl);
			free(cl);
			free(line);
		}
		free(buf);
	}
}

/* ---- the compact table (default): 80 columns ---- */

#define CW_CONF 8
#define CW_MEAN 25
#define CW_CHANGE 7
#define CW_VERDICT 22
/* 79 display columns: 80 bytes with the two-byte "±" */
#define CW_METRIC (79 - 1 - CW_CONF - 1 - CW_MEAN - 1 - CW_CHANGE - 2 - \
		   CW_VERDICT)

static bool compact_row(const struct compare_opts *o, const struct cmp_row *r)
{
	if (!r->shown)
		return false;
	if (o->all || o->metric || o->phase)
		return true;
	return r->key || r->traced;
}

/* Whether the metric's name already says its unit ("files/s",
 * "lat_p50_ms", "wall_s"). */
static bool name_has_unit(const char *metric, const char *unit)
{
	size_t m = strlen(metric), u = strlen(unit);

	if (!strcmp(metric, unit))
		return true;
	return m > u && !strcmp(metric + m - u, unit) &&
	       strchr(" _.", metric[m - u - 1]);
}

/* "phase metric [unit]": every row says what its numbers are in. */
static char *row_name(const struct cmp_row *row)
{
	const char *u = row->unit && *row->unit ? row->unit : NULL;
	bool say = u && !name_has_unit(row->metric, u);

	/* compilebench's figures live in "summary": its name says nothing */
	if (!strcmp(row->phase, "summary"))
		return xasprintf("%s%s%s%s", row->metric, say ? " [" : "",
				 say ? u : "", say ? "]" : "");
	return xasprintf("%s %s%s%s%s", row->phase, row->metric,
			 say ? " [" : "", say ? u : "", say ? "]" : "");
}

static void print_compact_row(const struct ctx *c, const struct cmp_table *t,
			      const struct cmp_row *row)
{
	FILE *out = c->out;
	char *name = row_name(row);
	bool own_line = strlen(name) > CW_METRIC;
	int dec = fmt_sig4_decimals(row->st[0].mean);

	if (own_line)
		fprintf(out, "%s\n", name);
	for (size_t g = 0; g < t->nr_groups; g++) {
		const struct cmp_stat *s = &row->st[g];
		const struct cmp_delta *d = &row->d[g];
		char mc[128], pct[32], v[64];
		char *label = cut(t->labels[g], CW_CONF);

		fmt_mean_ci(mc, sizeof(mc), s->mean, s->ci_lo, s->ci_hi, dec);
		fprintf(out, "%-*s ", CW_METRIC, g || own_line ? "" : name);
		put_pad(out, label, CW_CONF, false);
		fputc(' ', out);
		put_pad(out, mc, CW_MEAN, true);
		if (g) {
			fmt_pct(pct, sizeof(pct), d->pct);
			verdict_text_fit(v, sizeof(v), d, c->o, CW_VERDICT);
			fprintf(out, " %*s  %s", CW_CHANGE, pct, v);
		}
		fputc('\n', out);
		free(label);
	}
	free(name);
}

static void print_compact(const struct ctx *c, const struct cmp_table *t)
{
	FILE *out = c->out;
	bool any = false;

	for (size_t i = 0; i < t->nr_rows && !any; i++)
		any = compact_row(c->o, &t->rows[i]);
	if (!any) {
		fprintf(out, "no key metric recorded; --long or --all shows "
			"the rest\n");
		return;
	}
	fprintf(out, "%-*s %-*s ", CW_METRIC, "metric", CW_CONF,
		"config");
	put_pad(out, "mean, 95% CI", CW_MEAN, true);
	fprintf(out, " %*s  %s\n", CW_CHANGE, "change", "verdict");
	for (size_t i = 0; i < t->nr_rows; i++)
		if (compact_row(c->o, &t->rows[i]))
			print_compact_row(c, t, &t->rows[i]);
}

/* ---- --long: every statistic per metric ---- */

static void print_row(const struct ctx *c, const struct cmp_table *t,
		      const struct cmp_row *row, int lw)
{
	FILE *out = c->out;
	int dec = fmt_sig4_decimals(row->st[0].mean);

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
		     p[32], pa[32], mdc[32], v[64];
		double m;

		fmt_dec(mean, sizeof(mean), s->mean, dec);
		fmt_sig4(sd, sizeof(sd), s->sd);
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
		m = verdict_mdc_pct(d);
		if (isfinite(m))
			snprintf(mdc, sizeof(mdc), "%.1f%%", m);
		else
			snprintf(mdc, sizeof(mdc), "-");
		verdict_text(v, sizeof(v), d, c->o);
		fprintf(out, " %7s  %-17s %7s %7s %6s  %s%s\n", pct, pci, p, pa,
			mdc, d->verdict == CMP_BETTER || d->verdict == CMP_WORSE
			|| d->verdict == CMP_FAILED ? "* " : "", v);
	}
}

/* ---- the sections of one comparison ---- */

static void sec_classic(const struct ctx *c, const struct cmp_table *t,
			const struct cmp_group *groups)
{
	const struct workload *wl = wl_find(t->workload);

	if (wl && wl->report_compare && t->nr_groups) {
		fputc('\n', c->out);
		wl->report_compare(c->out, groups, t->nr_groups);
	}
	fputc('\n', c->out);
}

static void sec_metrics(const struct ctx *c, const struct cmp_table *t,
			const struct cmp_group *groups)
{
	int lw = 6;

	(void)groups;
	if (!c->longf) {
		print_compact(c, t);
		return;
	}
	for (size_t g = 0; g < t->nr_groups; g++)
		if ((int)strlen(t->labels[g]) > lw)
			lw = (int)strlen(t->labels[g]);
	for (size_t i = 0; i < t->nr_rows; i++)
		if (t->rows[i].shown)
			print_row(c, t, &t->rows[i], lw);
	fputc('\n', c->out);
}

static void sec_rollup(const struct ctx *c, const struct cmp_table *t,
		       const struct cmp_group *groups)
{
	FILE *out = c->out;

	(void)groups;
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
		else if (isfinite(t->rollup[g]) && isfinite(t->rollup_lo[g]))
			fprintf(out, "  %s vs %s: %.4f (%+.1f%%) over %zu; "
				"%zu improved, %zu regressed\n    95%% CI "
				"[%.4f, %.4f] (the metrics taken as "
				"independent)\n", t->labels[g], t->labels[0],
				t->rollup[g], 100 * (t->rollup[g] - 1),
				t->rollup_n[g], nb, nw, t->rollup_lo[g],
				t->rollup_hi[g]);
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
}

/* Why rows got no verdict, and what to do about it: once per table. */
static void sec_no_verdicts(const struct ctx *c, const struct cmp_table *t,
			    const struct cmp_group *groups)
{
	FILE *out = c->out;
	bool few = false, any_short = false;
	const char **seen = xcalloc(t->nr_rows + 1, sizeof(*seen));
	size_t nseen = 0;

	(void)groups;
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct cmp_row *row = &t->rows[i];
		bool short_row = false, dup = false;
		const char *name;
		double w = 0;

		if (c->longf ? !row->shown : !compact_row(c->o, row))
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
				1e3 * c->o->min_wall_s);
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

/* What the configurations differ in beyond what was declared, and
 * configurations whose setup is invalid (output/checks.c). */
static void sec_guard(const struct ctx *c, const struct cmp_table *t,
		      const struct cmp_group *groups)
{
	(void)groups;
	checks_print_compare_guard(c->out, t);
}

/* Per phase with histograms on both sides: quantiles, tail verdict and
 * the spread across repetitions (output/tail.c). */
static void sec_tail(const struct ctx *c, const struct cmp_table *t,
		     const struct cmp_group *groups)
{
	tail_print_text(c->out, t, groups, c->o->alpha);
}

static void sec_end(const struct ctx *c, const struct cmp_table *t,
		    const struct cmp_group *groups)
{
	(void)t;
	(void)groups;
	fputc('\n', c->out);
}

typedef void table_section(const struct ctx *c, const struct cmp_table *t,
			   const struct cmp_group *groups);

static table_section *const table_sections[] = {
	sec_header,
	sec_guard,
	sec_classic,
	sec_metrics,
	sec_no_verdicts,
	sec_rollup,
	sec_tail,
	sec_end,
};

/* ---- the sections of the page ---- */

/* One line per run: its setup check (doc/validity.md). */
static void sec_checks(const struct ctx *c)
{
	for (size_t i = 0; c->reports && i < c->in->nr; i++)
		checks_print_oneline(c->out, &c->reports[i]);
}

static void sec_notes(const struct ctx *c)
{
	if (!c->s->nr)
		fprintf(c->out, "no workload runs to compare\n");
	for (size_t i = 0; i < c->s->nr_notes; i++)
		fprintf(c->out, "note: %s\n", c->s->notes[i]);
	if (c->in->nr > 1 || c->s->nr_notes)
		fputc('\n', c->out);
}

static void sec_tables(const struct ctx *c)
{
	for (size_t i = 0; i < c->s->nr; i++)
		for (size_t k = 0; k < ARRAY_SIZE(table_sections); k++)
			table_sections[k](c, &c->s->tabs[i], c->s->groups[i]);
}

/* compare --explain: the co-metrics that moved with each change. */
static void sec_explain(const struct ctx *c)
{
	if (c->explain && c->s->nr)
		explain_print_text(c->out, c->explain, c->s->tabs);
}

static void sec_method(const struct ctx *c)
{
	const struct compare_opts *o = c->o;

	if (!c->s->nr)
		return;
	fprintf(c->out, "method: n = repetitions; ± = half the 95%% CI, "
		"[lo, hi] when not symmetric;\nlog-ratio t-test, "
		"%s-adjusted over the %zu key tests; significant when\n"
		"adjusted p < %g and |change| >= %g%%; mdc = smallest change "
		"detectable at\n%.0f%% power (\"can't tell\" when it exceeds "
		"%g%%); --long: p, CIs, more.\n",
		compare_adjust_name(o->adjust),
		compare_session_key_tests(c->s), o->alpha, o->min_change_pct,
		100 * o->power, o->min_change_pct);
}

static void sec_result(const struct ctx *c)
{
	switch (compare_session_outcome(c->s)) {
	case CMP_OUTCOME_NOTHING:
		return;
	case CMP_OUTCOME_FAILED:
		fprintf(c->out, "result: FAILED: a compared run failed\n");
		return;
	case CMP_OUTCOME_REGRESSION:
		fprintf(c->out, "result: a key metric regressed "
			"significantly\n");
		return;
	case CMP_OUTCOME_NO_VERDICT:
		fprintf(c->out, "result: no verdict: no key metric could be "
			"tested (see above why)\n");
		return;
	case CMP_OUTCOME_OK:
		break;
	}
	fprintf(c->out, "result: no key metric regressed significantly\n");
}

typedef void page_section(const struct ctx *c);

static page_section *const session_sections[] = {
	sec_orders,
	sec_checks,
	sec_notes,
	sec_tables,
	sec_explain,
	sec_method,
	sec_result,
};

void compare_text_nothing(FILE *out, const struct cmp_input *in,
			  const struct cmp_session *s)
{
	const char *first[2] = { NULL, NULL };

	fprintf(out, "fslab: error: nothing to compare: no target name is "
		"in more than one of the runs compared\n");
	for (size_t i = 0; i < s->nr_notes; i++)
		fprintf(out, "  %s\n", s->notes[i]);
	for (size_t a = 0; a < in->nr_args; a++) {
		fprintf(out, "  %s: targets", in->arg_labels[a]);
		for (size_t i = 0; i < in->nr; i++) {
			const struct run_rec *r = in->runs[i];

			if (in->arg_of[i] != a)
				continue;
			for (size_t t = 0; t < r->nr_targets; t++) {
				const char *n = r->targets[t].name ?
						r->targets[t].name : "?";
				bool dup = false;

				for (size_t k = 0; k < t; k++)
					dup |= r->targets[k].name &&
					       !strcmp(r->targets[k].name, n);
				if (dup)
					continue;
				fprintf(out, " %s", n);
				if (a < 2 && !first[a])
					first[a] = n;
			}
		}
		fputc('\n', out);
	}
	fprintf(out, "  pair targets whose names differ with --pair "
		"NAME=NAME (repeatable), e.g. --pair %s=%s\n",
		first[0] ? first[0] : "A", first[1] ? first[1] : "B");
}

void compare_text_print(FILE *out, const struct cmp_session *s,
			const struct cmp_input *in,
			const struct compare_opts *o,
			const struct compare_text_opts *to)
{
	struct ctx c = { out, s, in, o, to->longf, to->reports,
			 to->explain };

	for (size_t k = 0; k < ARRAY_SIZE(session_sections); k++)
		session_sections[k](&c);
}
