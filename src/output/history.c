// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * history.c - the renderers of `fslab history` (see history.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "output/csv.h"
#include "output/history.h"
#include "util/jsonout.h"
#include "util/util.h"

static const char *by_word(enum hist_by by)
{
	switch (by) {
	case HIST_BY_KERNEL:
		return "kernel";
	case HIST_BY_VERSION:
		return "version";
	case HIST_BY_DATE:
		return "date";
	case HIST_BY_RUN:
		break;
	}
	return "run";
}

static const char *better_word(enum better b)
{
	return b == BETTER_HIGHER ? "higher is better" :
	       b == BETTER_LOWER ? "lower is better" : "no direction";
}

/* 4 significant digits, never scientific; "-" for no value. */
static void fmt(char *buf, size_t len, double v)
{
	double a = fabs(v);
	int d;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	d = a >= 1000 || a == 0 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 :
	    a >= 1 ? 3 : 3 - (int)floor(log10(a));
	snprintf(buf, len, "%.*f", d > 9 ? 9 : d, v);
}

/* The words for a change point's position: "run 4 and run 5". */
static void between(char *buf, size_t len, const struct history *h,
		    const struct hist_series *s, size_t at)
{
	const char *w = by_word(h->o.by);

	snprintf(buf, len, "%s %s and %s %s", w, s->pts[at - 1].label, w,
		 s->pts[at].label);
}

void history_print_text(FILE *out, const struct history *h)
{
	if (!h->nr_series) {
		fprintf(out, "no figures to follow in %zu run%s (try --metric "
			"or another selector)\n", h->nr_runs,
			h->nr_runs == 1 ? "" : "s");
		return;
	}
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct hist_series *s = &h->series[i];
		size_t next = 0;

		fprintf(out, "%s%s, target %s: %s %s (%s%s)\n", i ? "\n" : "",
			s->workload, s->target, s->phase, s->metric,
			better_word(s->better),
			s->harmonic ? ", harmonic mean" : "");
		fprintf(out, "  %-14s %5s %12s %25s %4s\n", by_word(h->o.by),
			"runs", "mean", "95% CI", "n");
		for (size_t k = 0; k < s->nr_pts; k++) {
			const struct hist_point *p = &s->pts[k];
			char m[32], lo[32], hi[32], ci[72];

			while (next < s->nr_cps && s->cps[next].at == k) {
				const struct hist_change *c = &s->cps[next];

				fmt(m, sizeof(m), c->before);
				fmt(lo, sizeof(lo), c->after);
				fprintf(out, "  ---- change: %s -> %s %s "
					"(%+.1f %%, p %.2g)%s\n", m, lo,
					s->unit ? s->unit : "", c->pct, c->p,
					c->worse ? "  REGRESSION" :
					s->better != BETTER_NONE ?
					"  improvement" : "");
				next++;
			}
			fmt(m, sizeof(m), p->mean);
			fmt(lo, sizeof(lo), p->lo);
			fmt(hi, sizeof(hi), p->hi);
			if (isfinite(p->lo))
				snprintf(ci, sizeof(ci), "[%s, %s]", lo, hi);
			else
				snprintf(ci, sizeof(ci), "-");
			fprintf(out, "  %-14s %5zu %12s %25s %4zu\n", p->label,
				p->nr_runs, m, ci, p->n);
		}
		if (!s->nr_cps) {
			fprintf(out, "  no change point\n");
			continue;
		}
		for (size_t k = 0; k < s->nr_cps; k++) {
			const struct hist_change *c = &s->cps[k];
			char pos[256];

			between(pos, sizeof(pos), h, s, c->at);
			fprintf(out, "  change point between %s: %+.1f %%\n",
				pos, c->pct);
			if (!c->nr_changed)
				fprintf(out, "    nothing recorded changed\n");
			for (size_t j = 0; j < c->nr_changed; j++)
				fprintf(out, "    %s\n", c->changed[j]);
		}
	}
}

static json_t *jnum(double v)
{
	return isfinite(v) ? jout_num(v) : json_null();
}

int history_print_json(FILE *out, const struct history *h)
{
	json_t *root = json_object(), *arr = json_array();
	int rc;

	jout_set(root, "by", jout_str(by_word(h->o.by)));
	jout_set(root, "runs", json_integer((json_int_t)h->nr_runs));
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct hist_series *s = &h->series[i];
		json_t *o = json_object(), *pts = json_array();
		json_t *cps = json_array();

		jout_set(o, "workload", jout_str(s->workload));
		jout_set(o, "target", jout_str(s->target));
		jout_set(o, "phase", jout_str(s->phase));
		jout_set(o, "metric", jout_str(s->metric));
		jout_set(o, "unit", s->unit ? jout_str(s->unit)
						       : json_null());
		jout_set(o, "better", json_integer(s->better));
		for (size_t k = 0; k < s->nr_pts; k++) {
			const struct hist_point *p = &s->pts[k];

			jout_push(pts, json_pack(
				"{s:s, s:I, s:I, s:I, s:o, s:o, s:o, s:I}",
				"label", p->label,
				"first_run", (json_int_t)p->first_run,
				"last_run", (json_int_t)p->last_run,
				"runs", (json_int_t)p->nr_runs,
				"mean", jnum(p->mean), "ci_lo", jnum(p->lo),
				"ci_hi", jnum(p->hi), "n", (json_int_t)p->n));
		}
		for (size_t k = 0; k < s->nr_cps; k++) {
			const struct hist_change *c = &s->cps[k];
			json_t *ch = json_array();

			for (size_t j = 0; j < c->nr_changed; j++)
				jout_push(ch,
					jout_str(c->changed[j]));
			jout_push(cps, json_pack(
				"{s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:o}",
				"before_point", s->pts[c->at - 1].label,
				"after_point", s->pts[c->at].label,
				"before", jnum(c->before),
				"after", jnum(c->after),
				"change_pct", jnum(c->pct), "p", jnum(c->p),
				"regression", c->worse, "changed", ch));
		}
		jout_set(o, "points", pts);
		jout_set(o, "change_points", cps);
		jout_push(arr, o);
	}
	jout_set(root, "series", arr);
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc ? error("cannot write JSON") : 0;
}

/* One row per point; a change point's fields on the first point after. */
void history_print_csv(FILE *out, const struct history *h)
{
	static const char *const cols[] = {
		"workload", "target", "phase", "metric", "unit", "by", "point",
		"first_run", "last_run", "runs", "mean", "ci_lo", "ci_hi", "n",
		"change_pct", "regression", "changed",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		csv_field(out, cols[i], !i);
	csv_end(out);
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct hist_series *s = &h->series[i];

		for (size_t k = 0; k < s->nr_pts; k++) {
			const struct hist_point *p = &s->pts[k];
			const struct hist_change *c = NULL;
			char *changed = NULL;

			for (size_t j = 0; j < s->nr_cps; j++)
				if (s->cps[j].at == k)
					c = &s->cps[j];
			csv_field(out, s->workload, true);
			csv_field(out, s->target, false);
			csv_field(out, s->phase, false);
			csv_field(out, s->metric, false);
			csv_field(out, s->unit, false);
			csv_field(out, by_word(h->o.by), false);
			csv_field(out, p->label, false);
			csv_int(out, p->first_run, false);
			csv_int(out, p->last_run, false);
			csv_int(out, (long long)p->nr_runs, false);
			csv_num(out, p->mean, false);
			csv_num(out, p->lo, false);
			csv_num(out, p->hi, false);
			csv_int(out, (long long)p->n, false);
			csv_num(out, c ? c->pct : NAN, false);
			csv_field(out, c ? (c->worse ? "1" : "0") : NULL, false);
			if (c && c->nr_changed) {
				size_t len = 0;

				for (size_t j = 0; j < c->nr_changed; j++)
					len += strlen(c->changed[j]) + 2;
				changed = xcalloc(len + 1, 1);
				for (size_t j = 0; j < c->nr_changed; j++) {
					if (j)
						strcat(changed, "; ");
					strcat(changed, c->changed[j]);
				}
			}
			csv_field(out, c ? (changed ? changed :
				  "nothing recorded changed") : NULL, false);
			free(changed);
			csv_end(out);
		}
	}
}
