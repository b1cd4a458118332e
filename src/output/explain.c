// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain.c - the renderers of `compare --explain` (see explain.h and
 * compare/explain.h for what the leads are).
 */
#include "output/explain.h"

#include <math.h>
#include <string.h>

#include "output/csv.h"
#include "output/fmt.h"
#include "output/html.h" /* layer-ok: known circle with html.c (issue 38), to untangle */
#include "util/jsonout.h"

/* A normalised figure: 4 significant digits, no exponent below 1e9. */

/* The key metric's verdict in the words of every renderer, at the
 * default practical threshold (the leads were built at compare's). */
static const char *key_verdict(const struct explain_key *k)
{
	struct compare_opts o;
	struct cmp_delta d;

	compare_opts_init(&o);
	memset(&d, 0, sizeof(d));
	d.verdict = k->verdict;
	d.mdc_pct = k->mdc_pct;
	return verdict_word(&d, &o);
}

static void fmt_val(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (a != 0 && (a < 0.001 || a >= 1e9))
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static void fmt_change(char *buf, size_t len, double pct, double lo,
		       double hi)
{
	if (isinf(pct))
		snprintf(buf, len, "%s", pct > 0 ? "from 0" : "to 0");
	else if (!isfinite(pct))
		snprintf(buf, len, "-");
	else if (isfinite(lo) && isfinite(hi))
		snprintf(buf, len, "%+.1f%% [%+.1f, %+.1f]", pct, lo, hi);
	else
		snprintf(buf, len, "%+.1f%%", pct);
}

static const char *change_word(enum cmp_verdict v)
{
	return v == CMP_WORSE ? "REGRESSION" : v == CMP_BETTER ? "improvement"
							       : "";
}

static void print_chain(FILE *out, const struct explain_item *it)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];

	if (!it->layout.have || !it->seeks_per_mib.have || !it->disk_s.have)
		return;
	fmt_val(a, sizeof(a), it->layout.base);
	fmt_val(b, sizeof(b), it->layout.mean);
	fmt_val(c, sizeof(c), it->seeks_per_mib.base);
	fmt_val(d, sizeof(d), it->seeks_per_mib.mean);
	fmt_val(e, sizeof(e), it->disk_s.base);
	fmt_val(f, sizeof(f), it->disk_s.mean);
	fprintf(out, "    chain: layout score %s -> %s (%+.1f%%) -> seeks/MiB "
		"%s -> %s (%+.1f%%) -> modelled disk %s -> %s s (%+.1f%%)\n",
		a, b, it->layout.pct, c, d, it->seeks_per_mib.pct, e, f,
		it->disk_s.pct);
}

void explain_print_text(FILE *out, const struct explain *e,
			const struct cmp_table *tabs)
{
	bool any = false;

	for (size_t i = 0; i < e->nr; i++) {
		const struct explain_item *it = &e->items[i];
		const struct cmp_table *t = &tabs[it->table];

		if (!it->changed)
			continue;
		if (!any)
			fprintf(out, "explain: co-metrics that moved with each "
				"significant change (Benjamini-Hochberg q < %g "
				"over the co-metrics tested, each past its "
				"family's floor; largest change first, per unit "
				"of work where it grows with it):\n", e->q);
		any = true;
		fprintf(out, "  %s%s%s, %s vs %s, phase %s (%zu co-metrics "
			"tested):\n", t->workload, t->name ? " on " : "",
			t->name ? t->name : "", t->labels[it->group],
			t->labels[0], it->phase, it->nr_tested);
		for (size_t k = 0; k < it->nr_keys; k++) {
			const struct explain_key *key = &it->keys[k];
			char ch[64];

			if (key->verdict != CMP_WORSE &&
			    key->verdict != CMP_BETTER)
				continue;
			fmt_change(ch, sizeof(ch), key->pct, key->pct_lo,
				   key->pct_hi);
			fprintf(out, "    %s %s %s\n", key->metric, ch,
				change_word(key->verdict));
		}
		for (size_t l = 0; l < it->nr_leads; l++) {
			const struct explain_lead *ld = &it->leads[l];
			char a[32], b[32], ch[64];

			fmt_val(a, sizeof(a), ld->base);
			fmt_val(b, sizeof(b), ld->mean);
			fmt_change(ch, sizeof(ch), ld->pct, ld->pct_lo,
				   ld->pct_hi);
			fprintf(out, "    %2zu. %-26s %s -> %s %s  %s  q=%.2g\n",
				l + 1, ld->metric, a, b, ld->unit, ch, ld->q);
		}
		if (it->nr_leads_all > it->nr_leads)
			fprintf(out, "        (%zu more)\n",
				it->nr_leads_all - it->nr_leads);
		if (!it->nr_leads)
			fprintf(out, "    no co-metric moved significantly\n");
		print_chain(out, it);
	}
	if (!any)
		fprintf(out, "explain: no key metric changed significantly: "
			"nothing to explain\n");
	fputc('\n', out);
}

static json_t *num(double v)
{
	return isfinite(v) ? jout_num(v) : json_null();
}

static json_t *link_json(const struct explain_link *l)
{
	json_t *o = json_object();

	jout_set(o, "baseline", num(l->base));
	jout_set(o, "mean", num(l->mean));
	jout_set(o, "change_pct", num(l->pct));
	return o;
}

json_t *explain_json(const struct explain *e, const struct cmp_table *tabs)
{
	json_t *root = json_object(), *arr = json_array();

	jout_set(root, "q", jout_num(e->q));
	jout_set(root, "adjust", jout_str("Benjamini-Hochberg"));
	for (size_t i = 0; i < e->nr; i++) {
		const struct explain_item *it = &e->items[i];
		const struct cmp_table *t = &tabs[it->table];
		json_t *o = json_object(), *keys = json_array(),
		       *leads = json_array();

		jout_set(o, "workload", jout_str(t->workload));
		jout_set(o, "name", t->name ? jout_str(t->name)
						       : json_null());
		jout_set(o, "configuration",
				    jout_str(t->labels[it->group]));
		jout_set(o, "baseline", jout_str(t->labels[0]));
		jout_set(o, "phase", jout_str(it->phase));
		jout_set(o, "per", it->per ? jout_str(it->per)
						      : json_null());
		jout_set(o, "key_changed",
				    json_boolean(it->changed));
		for (size_t k = 0; k < it->nr_keys; k++) {
			json_t *ko = json_object();

			jout_set(ko, "metric",
					    jout_str(it->keys[k].metric));
			jout_set(ko, "change_pct",
					    num(it->keys[k].pct));
			jout_set(ko, "verdict", jout_str(
				key_verdict(&it->keys[k])));
			jout_push(keys, ko);
		}
		jout_set(o, "keys", keys);
		jout_set(o, "tested", json_integer(
						    (json_int_t)it->nr_tested));
		jout_set(o, "leads_total", json_integer(
					(json_int_t)it->nr_leads_all));
		for (size_t l = 0; l < it->nr_leads; l++) {
			const struct explain_lead *ld = &it->leads[l];
			json_t *lo = json_object();

			jout_set(lo, "metric",
					    jout_str(ld->metric));
			jout_set(lo, "unit", jout_str(ld->unit));
			jout_set(lo, "per", ld->per
					    ? jout_str(ld->per) : json_null());
			jout_set(lo, "baseline", num(ld->base));
			jout_set(lo, "mean", num(ld->mean));
			/* from 0: no ratio, change_pct null */
			jout_set(lo, "change_pct", num(ld->pct));
			jout_set(lo, "from_zero",
					    json_boolean(isinf(ld->pct)));
			jout_set(lo, "change_lo_pct",
					    num(ld->pct_lo));
			jout_set(lo, "change_hi_pct",
					    num(ld->pct_hi));
			jout_set(lo, "p", num(ld->p));
			jout_set(lo, "q", num(ld->q));
			jout_set(lo, "floor_pct",
					    num(ld->floor_pct));
			jout_push(leads, lo);
		}
		jout_set(o, "leads", leads);
		if (it->layout.have && it->seeks_per_mib.have &&
		    it->disk_s.have) {
			json_t *c = json_object();

			jout_set(c, "layout_score",
					    link_json(&it->layout));
			jout_set(c, "seeks_per_MiB",
					    link_json(&it->seeks_per_mib));
			jout_set(c, "disk_time_s",
					    link_json(&it->disk_s));
			jout_set(o, "chain", c);
		}
		jout_push(arr, o);
	}
	jout_set(root, "items", arr);
	return root;
}

void explain_print_html(FILE *out, const struct explain *e, size_t table_idx,
			const struct cmp_table *t)
{
	bool any = false;

	for (size_t i = 0; i < e->nr; i++) {
		const struct explain_item *it = &e->items[i];

		if (it->table != table_idx || !it->changed)
			continue;
		if (!any)
			fprintf(out, "<h3>Why: co-metrics that moved</h3>\n"
				"<p class=note>Per configuration and phase with "
				"a significant change: the co-metrics that moved "
				"with it (per repetition and unit of work, "
				"log-ratio t-test, Benjamini-Hochberg q &lt; %g "
				"over the co-metrics tested, each past its "
				"family's floor), largest change first; see "
				"doc/cometrics.md.</p>\n", e->q);
		any = true;
		fputs("<p><b>", out);
		html_escape(out, t->labels[it->group]);
		fputs("</b> vs ", out);
		html_escape(out, t->labels[0]);
		fputs(", phase ", out);
		html_escape(out, it->phase);
		for (size_t k = 0; k < it->nr_keys; k++) {
			char ch[64];

			if (it->keys[k].verdict != CMP_WORSE &&
			    it->keys[k].verdict != CMP_BETTER)
				continue;
			fmt_change(ch, sizeof(ch), it->keys[k].pct,
				   it->keys[k].pct_lo, it->keys[k].pct_hi);
			fputs(": ", out);
			html_escape(out, it->keys[k].metric);
			fprintf(out, " %s %s", ch,
				change_word(it->keys[k].verdict));
		}
		fprintf(out, " (%zu co-metrics tested)</p>\n", it->nr_tested);
		if (!it->nr_leads) {
			fputs("<p>No co-metric moved significantly.</p>\n",
			      out);
			continue;
		}
		fputs("<table>\n<tr><th>#</th><th>co-metric</th><th>baseline"
		      "</th><th>this</th><th>unit</th><th>change [95% CI]</th>"
		      "<th>q</th></tr>\n", out);
		for (size_t l = 0; l < it->nr_leads; l++) {
			const struct explain_lead *ld = &it->leads[l];
			char a[32], b[32], ch[64];

			fmt_val(a, sizeof(a), ld->base);
			fmt_val(b, sizeof(b), ld->mean);
			fmt_change(ch, sizeof(ch), ld->pct, ld->pct_lo,
				   ld->pct_hi);
			fprintf(out, "<tr><td>%zu</td><td>", l + 1);
			html_escape(out, ld->metric);
			fprintf(out, "</td><td>%s</td><td>%s</td><td>", a, b);
			html_escape(out, ld->unit);
			fprintf(out, "</td><td>%s</td><td>%.2g</td></tr>\n", ch,
				ld->q);
		}
		fputs("</table>\n", out);
		if (it->nr_leads_all > it->nr_leads)
			fprintf(out, "<p class=note>%zu more.</p>\n",
				it->nr_leads_all - it->nr_leads);
	}
}

void explain_write_csv(FILE *out, const struct explain *e,
		       const struct cmp_table *tabs)
{
	static const char *const head[] = {
		"workload", "name", "configuration", "baseline", "phase",
		"key_changed", "rank", "metric", "unit", "baseline_mean",
		"mean", "change_pct", "change_lo_pct", "change_hi_pct", "p",
		"q", "floor_pct",
	};

	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		csv_field(out, head[i], i == 0);
	csv_end(out);
	for (size_t i = 0; i < e->nr; i++) {
		const struct explain_item *it = &e->items[i];
		const struct cmp_table *t = &tabs[it->table];

		for (size_t l = 0; l < it->nr_leads; l++) {
			const struct explain_lead *ld = &it->leads[l];

			csv_field(out, t->workload, true);
			csv_field(out, t->name, false);
			csv_field(out, t->labels[it->group], false);
			csv_field(out, t->labels[0], false);
			csv_field(out, it->phase, false);
			csv_int(out, it->changed, false);
			csv_int(out, (long long)l + 1, false);
			csv_field(out, ld->metric, false);
			csv_field(out, ld->unit, false);
			csv_num(out, ld->base, false);
			csv_num(out, ld->mean, false);
			csv_num(out, ld->pct, false);
			csv_num(out, ld->pct_lo, false);
			csv_num(out, ld->pct_hi, false);
			csv_num(out, ld->p, false);
			csv_num(out, ld->q, false);
			csv_num(out, ld->floor_pct, false);
			csv_end(out);
		}
	}
}
