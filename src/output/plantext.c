// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plantext.c - `fslab plan` as text: a row per key metric and
 * configuration, then the fixed and the sequential design.
 */
#include <math.h>

#include "output/plantext.h"

static void pct_or_dash(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "-");
}

/* Where the next unit of measuring time pays most. */
static const char *advice(const struct plan_row *r)
{
	if (r->reused)
		return "a fresh filesystem per repetition (drop --reuse)";
	if (!isfinite(r->within_pct))
		return "more repetitions";
	if (r->best_inst > r->inst + 0.5)
		return "more instances per repetition";
	return "more repetitions";
}

void plan_print(FILE *out, const struct plan *p)
{
	fprintf(out, "plan: detect a change of %.1f %% at 80 %% power, alpha "
		"%.3g over a family of %zu comparison%s (Holm's first step "
		"%.4f)\n\n", p->change_pct, p->alpha, p->family,
		p->family == 1 ? "" : "s",
		p->alpha / (double)(p->family ? p->family : 1));
	fprintf(out, "%-10s %-14s %-9s %-10s %3s %6s %7s %5s %8s %8s %5s  %s\n",
		"workload", "phase", "metric", "config", "n", "CoV%",
		"fixed n", "inst", "rep CoV%", "ins CoV%", "best", "pays most");
	for (size_t i = 0; i < p->nr; i++) {
		const struct plan_row *r = &p->rows[i];
		char cov[16], b[16], w[16], fixed[16], best[16], inst[16];

		pct_or_dash(cov, sizeof(cov), r->cov_pct);
		pct_or_dash(b, sizeof(b), r->between_pct);
		pct_or_dash(w, sizeof(w), r->within_pct);
		pct_or_dash(inst, sizeof(inst), r->inst);
		if (r->fixed_n)
			snprintf(fixed, sizeof(fixed), "%d", r->fixed_n);
		else
			snprintf(fixed, sizeof(fixed), ">1000");
		if (r->best_inst)
			snprintf(best, sizeof(best), "%d", r->best_inst);
		else
			snprintf(best, sizeof(best), "-");
		fprintf(out, "%-10s %-14s %-9s %-10s %3zu %6s %7s %5s %8s "
			"%8s %5s  %s\n", r->workload, r->phase, r->metric,
			r->label, r->n, cov, isfinite(r->cov_pct) ? fixed : "-",
			inst, b, w, best, advice(r));
	}
	if (!p->nr) {
		fprintf(out, "no key metric with a direction: nothing to "
			"plan\n");
		return;
	}
	fprintf(out, "\nfixed design: %s%d repetitions per configuration "
		"(the largest above)\n", p->fixed_n ? "" : "more than ",
		p->fixed_n ? p->fixed_n : 1000);
	if (!isfinite(p->change.mean_n))
		return;
	fprintf(out, "--until decided (simulated: %zu sequences, seed %llu, "
		"CoV %.1f %% on all %zu, looks at %d..%d, --min-change "
		"%.3g): every metric changing by %.1f %%: mean %.1f "
		"repetitions, all found in %.0f %%; nothing changing: mean "
		"%.1f, all equivalent in %.0f %%, a false alarm in %.1f %%\n",
		p->nsim, (unsigned long long)p->seed, p->worst_cov_pct,
		p->family, p->min_n, p->max_n, p->min_change_pct,
		p->change_pct, p->change.mean_n, 100 * p->change.power,
		p->same.mean_n, 100 * p->same.equivalent,
		100 * p->same.false_alarm);
	if (p->var_n80)
		fprintf(out, "a change of spread (compare's Brown-Forsythe, "
			"simulated): a 2x sigma is seen at 80 %% with %zu "
			"repetitions a side", p->var_n80);
	else
		fprintf(out, "a change of spread (compare's Brown-Forsythe, "
			"simulated): a 2x sigma needs more than 200 "
			"repetitions a side to be seen at 80 %%");
	if (isfinite(p->var_power))
		fprintf(out, "; at %d, %.0f %%", p->fixed_n,
			100 * p->var_power);
	fputc('\n', out);
	fprintf(out, "levels (Kalibera and Jones): rep CoV%% is the spread "
		"between repetitions (a fresh filesystem, image and mount "
		"each), ins CoV%% between instances inside one; best = the "
		"instances per repetition that minimise the cost of a given "
		"precision\n");
}
