/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tail.c - latency distributions compared, text and JSON (see tail.h).
 */
#include "output/tail.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/tail.h"
#include "output/fmt.h"
#include "util/jsonout.h"
#include "util/util.h"

/* "4.56ms [4.40ms, 4.71ms]", or the refusal. */
static void ci_str(char *buf, size_t len, const struct quantci *ci)
{
	char e[16], lo[16], hi[16];

	if (!ci->ok) {
		snprintf(buf, len, "too few samples (%llu, needs %llu)",
			 (unsigned long long)ci->n,
			 (unsigned long long)ci->need);
		return;
	}
	fmt_ns(e, sizeof(e), ci->est, false);
	fmt_ns(lo, sizeof(lo), ci->lo, false);
	fmt_ns(hi, sizeof(hi), ci->hi, false);
	snprintf(buf, len, "%s [%s, %s]", e, lo, hi);
}

static double ratio(const struct quantci *a, const struct quantci *b)
{
	return a->est ? (double)b->est / (double)a->est : NAN;
}

static void print_row(FILE *out, const struct tail_row *r, double alpha)
{
	char a[64], b[64], name[16], why[80];

	fprintf(out, "  %s%s%s (%llu vs %llu ops): %s\n", r->phase,
		*r->op ? "/" : "", r->op,
		(unsigned long long)r->ci[0][0].n,
		(unsigned long long)r->ci[1][0].n,
		tail_verdict_text(r->verdict));
	for (int k = 0; k < TAIL_NQ; k++) {
		const struct quantci *x = &r->ci[0][k], *y = &r->ci[1][k];

		quantci_name(tail_quantiles[k], name, sizeof(name));
		if (!x->ok || !y->ok) {
			/* the higher quantiles are refused all the more */
			quantci_refusal(x->ok ? y : x, why, sizeof(why));
			fprintf(out, "    %-6s %s\n", name, why);
			break;
		}
		ci_str(a, sizeof(a), x);
		ci_str(b, sizeof(b), y);
		fprintf(out, "    %-6s %-28s %-28s %.2fx\n", name, a, b,
			ratio(x, y));
	}
	if (r->rep_tested)
		fprintf(out, "    repetitions (%zu vs %zu): Welch on log p99, "
			"p %.3g (adj %.3g)%s\n", r->reps[0], r->reps[1],
			r->rep_p, r->rep_p_adj, r->rep_p_adj < alpha ?
			"" : ", not shown");
	else if (r->ci[0][TAIL_VERDICT_Q].ok && r->ci[1][TAIL_VERDICT_Q].ok)
		fprintf(out, "    repetitions (%zu vs %zu): too few with 100 "
			"ops for a test; pooled only\n", r->reps[0],
			r->reps[1]);
}

static void print_var(FILE *out, const struct tail_var *v, double alpha)
{
	/* two lines, so a mail table keeps to 80 columns */
	fprintf(out, "  variance of %s/%s across repetitions:\n    ",
		v->phase, v->metric);
	if (!v->ok) {
		fprintf(out, "not tested (%zu and %zu repetitions, needs %d "
			"each)\n", v->n[0], v->n[1], TAIL_MIN_REPS);
		return;
	}
	fprintf(out, "Brown-Forsythe F %.3g (%g, %g df), p %.3g (adj %.3g): "
		"%s\n", v->r.f, v->r.df1, v->r.df2, v->r.p, v->p_adj,
		v->p_adj < alpha ? "variance changed" : "no change shown");
}

void tail_print_text(FILE *out, const struct cmp_table *t,
		     const struct cmp_group *groups, double alpha)
{
	size_t nr;
	struct tail_cmp *c = tail_build(t, groups, alpha, &nr);

	for (size_t i = 0; i < nr; i++) {
		fprintf(out, "latency distribution, %s (A) vs %s (B)\n"
			"  repetitions pooled, %g%% order-statistic intervals;"
			" columns A, B, B/A\n", t->labels[0],
			t->labels[c[i].group], 100 * (1 - alpha));
		for (size_t r = 0; r < c[i].nr_rows; r++) {
			const char *ph = c[i].rows[r].phase;

			print_row(out, &c[i].rows[r], alpha);
			/* the phase's spread after its last op class */
			if (r + 1 < c[i].nr_rows &&
			    !strcmp(c[i].rows[r + 1].phase, ph))
				continue;
			for (size_t v = 0; v < c[i].nr_vars; v++)
				if (!strcmp(c[i].vars[v].phase, ph))
					print_var(out, &c[i].vars[v], alpha);
		}
		fputc('\n', out);
	}
	tail_cmp_free(c, nr);
}

static json_t *ci_json(const struct quantci *ci)
{
	json_t *o = json_object();
	char why[80];

	jout_set(o, "samples", json_integer((json_int_t)ci->n));
	jout_set(o, "needs", json_integer((json_int_t)ci->need));
	if (ci->ok) {
		jout_set(o, "ns", json_integer((json_int_t)ci->est));
		jout_set(o, "ci_lo_ns", json_integer((json_int_t)ci->lo));
		jout_set(o, "ci_hi_ns", json_integer((json_int_t)ci->hi));
	} else {
		quantci_refusal(ci, why, sizeof(why));
		jout_set(o, "refused", jout_str(why));
	}
	return o;
}

static json_t *row_json(const struct tail_row *r)
{
	json_t *o = json_object(), *qs = json_object();
	char name[16];

	jout_set(o, "phase", jout_str(r->phase));
	jout_set(o, "op", jout_str(r->op));
	jout_set(o, "verdict", jout_str(tail_verdict_text(r->verdict)));
	for (int k = 0; k < TAIL_NQ; k++) {
		json_t *q = json_object();

		quantci_name(tail_quantiles[k], name, sizeof(name));
		jout_set(q, "a", ci_json(&r->ci[0][k]));
		jout_set(q, "b", ci_json(&r->ci[1][k]));
		jout_set(q, "ratio", jout_num(r->ci[0][k].ok && r->ci[1][k].ok
					      ? ratio(&r->ci[0][k],
						      &r->ci[1][k]) : NAN));
		jout_set(qs, name, q);
	}
	jout_set(o, "quantiles", qs);
	jout_set(o, "reps_a", json_integer((json_int_t)r->reps[0]));
	jout_set(o, "reps_b", json_integer((json_int_t)r->reps[1]));
	jout_set(o, "reps_tested", json_boolean(r->rep_tested));
	jout_set(o, "reps_p", jout_num(r->rep_p));
	jout_set(o, "reps_p_adj", jout_num(r->rep_p_adj));
	return o;
}

json_t *tail_json(const struct cmp_table *t, const struct cmp_group *groups,
		  double alpha)
{
	json_t *arr = json_array();
	size_t nr;
	struct tail_cmp *c = tail_build(t, groups, alpha, &nr);

	for (size_t i = 0; i < nr; i++) {
		json_t *o = json_object(), *rows = json_array(),
		       *vars = json_array();

		jout_set(o, "a", jout_str(t->labels[0]));
		jout_set(o, "b", jout_str(t->labels[c[i].group]));
		for (size_t r = 0; r < c[i].nr_rows; r++)
			jout_push(rows, row_json(&c[i].rows[r]));
		for (size_t v = 0; v < c[i].nr_vars; v++) {
			const struct tail_var *tv = &c[i].vars[v];
			json_t *j = json_object();

			jout_set(j, "phase", jout_str(tv->phase));
			jout_set(j, "metric", jout_str(tv->metric));
			jout_set(j, "tested", json_boolean(tv->ok));
			jout_set(j, "f", jout_num(tv->ok ? tv->r.f : NAN));
			jout_set(j, "df1", jout_num(tv->ok ? tv->r.df1 : NAN));
			jout_set(j, "df2", jout_num(tv->ok ? tv->r.df2 : NAN));
			jout_set(j, "p", jout_num(tv->ok ? tv->r.p : NAN));
			jout_set(j, "p_adj", jout_num(tv->p_adj));
			jout_push(vars, j);
		}
		jout_set(o, "rows", rows);
		jout_set(o, "variance", vars);
		jout_push(arr, o);
	}
	tail_cmp_free(c, nr);
	return arr;
}
