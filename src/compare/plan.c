// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan.c - repetitions from a pilot's spread, per level of variation
 * (see plan.h for the method).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/plan.h"
#include "stats/levene.h"
#include "util/util.h"

int plan_best_instances(double between_var, double within_var,
			double cost_rep, double cost_inst)
{
	double k;

	if (!(within_var >= 0) || !(cost_rep > 0) || !(cost_inst > 0))
		return 0;
	if (!(between_var > 0))
		return 1000;
	k = ceil(sqrt(cost_rep * within_var / (cost_inst * between_var)));
	return k < 1 ? 1 : k > 1000 ? 1000 : (int)k;
}

/* Wall time of phase's instances in w, and of all of w's phases. */
static void costs(const struct wlrun_rec *w, const char *phase,
		  double *inst_s, size_t *ninst, double *rep_s)
{
	for (size_t p = 0; p < w->nr_phases; p++) {
		const struct phase_rec *ph = &w->phases[p];
		double s = (double)ph->m.wall_ns / 1e9;

		*rep_s += s;
		if (ph->status == PHASE_OK && ph->name &&
		    !strcmp(ph->name, phase)) {
			*inst_s += s;
			(*ninst)++;
		}
	}
}

/* The two levels of one configuration's row (Kalibera and Jones). */
static void levels(const struct cmp_row *row, const struct cmp_group *g,
		   struct plan_row *pr)
{
	double grand = 0, ss_within = 0, sum_rm = 0, ss_rm = 0;
	double inst_s = 0, rep_s = 0;
	size_t df_within = 0, nvals = 0, nreps = 0, ninst = 0;

	pr->reused = g->nr_reps > 1;
	for (size_t r = 0; r < g->nr_reps; r++) {
		const struct wlrun_rec *w = g->reps[r];
		double sum = 0, ss = 0, mean;
		size_t k = 0;

		if (r && w->target_id != g->reps[0]->target_id)
			pr->reused = false;
		costs(w, row->phase, &inst_s, &ninst, &rep_s);
		for (size_t p = 0; p < w->nr_phases; p++) {
			const struct phase_rec *ph = &w->phases[p];
			const struct metric *m;

			if (ph->status != PHASE_OK || !ph->name ||
			    strcmp(ph->name, row->phase) ||
			    !(m = phase_rec_metric(ph, row->metric)) ||
			    !isfinite(m->value))
				continue;
			sum += m->value;
			k++;
		}
		if (!k)
			continue;
		mean = sum / (double)k;
		for (size_t p = 0; p < w->nr_phases; p++) {
			const struct phase_rec *ph = &w->phases[p];
			const struct metric *m;

			if (ph->status != PHASE_OK || !ph->name ||
			    strcmp(ph->name, row->phase) ||
			    !(m = phase_rec_metric(ph, row->metric)) ||
			    !isfinite(m->value))
				continue;
			ss += (m->value - mean) * (m->value - mean);
		}
		ss_within += ss;
		df_within += k - 1;
		nvals += k;
		sum_rm += mean;
		ss_rm += mean * mean;
		nreps++;
		grand += sum;
	}
	pr->inst = nreps ? (double)nvals / (double)nreps : NAN;
	pr->cost_inst_s = ninst ? inst_s / (double)ninst : NAN;
	pr->cost_rep_s = g->nr_reps ? rep_s / (double)g->nr_reps : NAN;
	pr->between_pct = pr->within_pct = NAN;
	pr->best_inst = 0;
	if (nreps < 2 || !(grand != 0))
		return;
	grand /= (double)nvals;
	{
		double mrm = sum_rm / (double)nreps;
		double var_rm = (ss_rm - (double)nreps * mrm * mrm) /
				(double)(nreps - 1);
		double sw2 = df_within ? ss_within / (double)df_within /
					 (grand * grand) : 0;
		double sb2 = fmax(var_rm / (grand * grand) -
				  (df_within ? sw2 / pr->inst : 0), 0);

		pr->between_pct = 100 * sqrt(sb2);
		if (df_within) {
			pr->within_pct = 100 * sqrt(sw2);
			pr->best_inst = plan_best_instances(
				sb2, sw2, pr->cost_rep_s, pr->cost_inst_s);
		}
	}
}

void plan_build(const struct cmp_session *s, double change_pct,
		double alpha, double min_change_pct, int min_n, int max_n,
		size_t nsim, uint64_t seed, struct plan *p)
{
	memset(p, 0, sizeof(*p));
	p->change_pct = change_pct;
	p->alpha = alpha;
	p->min_change_pct = min_change_pct;
	p->min_n = min_n;
	p->max_n = max_n;
	p->nsim = nsim;
	p->seed = seed;
	for (size_t i = 0; i < s->nr; i++) {
		const struct cmp_table *t = &s->tabs[i];
		size_t cmps = t->nr_groups > 1 ? t->nr_groups - 1 : 1;

		for (size_t r = 0; r < t->nr_rows; r++)
			if (t->rows[r].key &&
			    t->rows[r].better != BETTER_NONE)
				p->family += cmps;
	}
	for (size_t i = 0; i < s->nr; i++) {
		const struct cmp_table *t = &s->tabs[i];

		for (size_t r = 0; r < t->nr_rows; r++) {
			const struct cmp_row *row = &t->rows[r];

			if (!row->key || row->better == BETTER_NONE)
				continue;
			for (size_t g = 0; g < t->nr_groups; g++) {
				const struct cmp_stat *st = &row->st[g];
				struct plan_row *pr;

				ALLOC_GROW(p->rows, p->nr + 1, p->alloc);
				pr = &p->rows[p->nr++];
				memset(pr, 0, sizeof(*pr));
				pr->workload = t->workload;
				pr->phase = row->phase;
				pr->metric = row->metric;
				pr->label = t->labels[g];
				pr->n = st->n;
				pr->cov_pct = st->cov_pct;
				pr->fixed_n = isfinite(st->cov_pct) ?
					seq_fixed_n(st->cov_pct, change_pct,
						    alpha / (double)p->family,
						    0.80, 1000) : 0;
				levels(row, &s->groups[i][g], pr);
				if (isfinite(pr->cov_pct) &&
				    !(pr->cov_pct <= p->worst_cov_pct))
					p->worst_cov_pct = pr->cov_pct;
				if (pr->fixed_n > p->fixed_n)
					p->fixed_n = pr->fixed_n;
			}
		}
	}
	p->change.mean_n = p->same.mean_n = NAN;
	if (nsim && p->family && p->worst_cov_pct > 0) {
		seq_simulate(min_n, max_n, alpha, p->family, p->worst_cov_pct,
			     change_pct, min_change_pct, nsim, seed,
			     &p->change);
		seq_simulate(min_n, max_n, alpha, p->family, p->worst_cov_pct,
			     0, min_change_pct, nsim, seed + 1, &p->same);
	}
	/* a change of spread is the other thing compare tests; its power
	 * is low enough that a user planning repetitions should see it */
	p->var_power = NAN;
	if (nsim) {
		p->var_n80 = levene_bf_n_for(2.0, alpha, 0.80, 2000, seed + 2,
					     200);
		if (p->fixed_n >= 3)
			p->var_power = levene_bf_power((size_t)p->fixed_n,
						       2.0, alpha, 2000,
						       seed + 2);
	}
}

void plan_release(struct plan *p)
{
	free(p->rows);
	memset(p, 0, sizeof(*p));
}
