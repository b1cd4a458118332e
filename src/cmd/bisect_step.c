/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect_step.c - `fslab bisect`'s steps by kind of axis and its checks
 * (see bisect_int.h).
 */
#include "cmd/bisect_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "fs/target.h"
#include "stats/bshare.h"
#include "stats/stats.h"
#include "stats/ttest.h"
#include "util/interrupt.h"
#include "util/util.h"

/* The options of the axis kind: 0, or the usage error's exit code. */
int bisect_kind_opts(struct bisect_setup *s, const struct bisect_args *a)
{
	const struct cmdopt_cmd *cmd = &cmd_bisect_opts;
	const char *want = s->kind == BISECT_GIT ? a->build : a->step;
	char err[512];
	struct target_spec ts;

	if (s->kind == BISECT_TARGETS) {
		if (a->target || a->build || a->step || a->aa)
			return cmdopt_usage_error(cmd, "--axis targets:FILE "
						  "takes its targets from "
						  "FILE: no -t, --build, "
						  "--step or --aa");
		return 0;
	}
	if (!want || !*want)
		return cmdopt_usage_error(cmd, "--axis %s needs %s",
					  s->kind == BISECT_GIT ? "git:REPO"
								: "steps:FILE",
					  s->kind == BISECT_GIT
					  ? "--build CMD" : "--step CMD");
	if ((s->kind == BISECT_GIT && a->step) ||
	    (s->kind == BISECT_STEPS && a->build))
		return cmdopt_usage_error(cmd, "%s is for the %s axis",
					  a->step ? "--step" : "--build",
					  a->step ? "steps:" : "git:");
	if (a->aa && a->no_aa)
		return cmdopt_usage_error(cmd, "--aa or --no-aa, not both");
	s->target = xstrdup(a->target ? a->target : "ext4");
	if (target_spec_parse(s->target, &ts, err, sizeof(err)) < 0)
		return cmdopt_usage_error(cmd, "-t '%s': %s", s->target, err);
	target_spec_release(&ts);
	s->command = xstrdup(want);
	s->aa = a->aa || (s->kind == BISECT_STEPS && !a->no_aa);
	return 0;
}

/*
 * Make step k ready: build its revision (once a session) or run its
 * step command (before every measurement).  0 ready, -1 untestable (m
 * says why), else the exit code.
 */
int bisect_prepare_step(struct bisection *b, size_t k, struct bisect_meas *m)
{
	struct bisect_prep *p = &b->prep[k - b->s.good];
	int rc;

	if (b->s.kind == BISECT_TARGETS || p->prefix)
		return 0;
	memset(m, 0, sizeof(*m));
	m->step = k;
	m->value = NAN;
	m->outcome = BISECT_FAILED;
	if (b->s.kind == BISECT_GIT)
		printf("step %zu: building %s\n", k, step_spec(b, k));
	fflush(stdout);
	rc = bisect_prepare(&b->s, b->scratch, step_spec(b, k), k, p, m->why,
			    sizeof(m->why));
	if (interrupt_requested()) {
		bisect_prep_release(p);
		return 128 + interrupt_signal();
	}
	if (rc < 0) {
		fprintf(stderr, "fslab: error: step %zu: %s\n", k, m->why);
		bisect_prep_release(p);
		return EXIT_RUNTIME;
	}
	if (rc > 0)
		bisect_prep_release(p);
	return rc ? -1 : 0;
}

/* One run of step k, on its target, {prefix} put into the workload. */
int bisect_measure_step(struct bisection *b, struct store *st,
			const struct run_config *base, struct run_workload *w,
			size_t k, struct bisect_meas *m, int *rc)
{
	const struct bisect_prep *p = &b->prep[k - b->s.good];
	struct run_workload own;
	char *spec, err[1024];
	int ret;

	if (b->s.kind == BISECT_TARGETS)
		return bisect_measure(st, base, &b->s, w, step_spec(b, k),
				      step_spec(b, k), k, m, rc);
	if (b->s.kind == BISECT_GIT) {
		/* the variable, not the path: every step's runs then have
		 * the same options, and compare takes them as comparable */
		spec = bisect_subst(b->s.workload, "{prefix}",
				    "$FSLAB_PREFIX");
		if (run_workload_parse(spec, &own, err, sizeof(err)) < 0)
			BUG("workload '%s' no longer parses: %s", spec, err);
		free(spec);
		setenv("FSLAB_PREFIX", p->prefix, 1);
		setenv("FSLAB_REV", step_spec(b, k), 1);
		w = &own;
	}
	ret = bisect_measure(st, base, &b->s, w, b->s.target,
			     step_spec(b, k), k, m, rc);
	if (b->s.kind == BISECT_GIT)
		run_workload_release(&own);
	return ret;
}

/*
 * The A/A test: the good step's first AA_RUNS runs against its next
 * AA_RUNS, Welch on their logs.  A setup that does not come back the
 * same from the step command would send the bisection after its own
 * noise.
 */
int bisect_aa_verdict(const struct bisection *b)
{
	struct ttest_sample h[2];
	struct welch_result r;
	double pct, lo, hi;

	for (int i = 0; i < 2; i++) {
		const double *x = b->ends[0] + i * AA_RUNS;

		h[i] = (struct ttest_sample){ AA_RUNS, stats_mean(x, AA_RUNS),
					      stats_stddev(x, AA_RUNS) };
	}
	if (ttest_welch(&h[0], &h[1], AA_ALPHA, &r) < 0)
		BUG("A/A of %d runs a half", AA_RUNS);
	pct = (exp(r.diff) - 1) * 100;
	lo = (exp(r.lo) - 1) * 100;
	hi = (exp(r.hi) - 1) * 100;
	if ((r.lo > 0 || r.hi < 0) && fabs(pct) >= COMPARE_MIN_CHANGE_PCT) {
		printf("step %zu differs from itself: %+.1f %% (%+.1f .. "
		       "%+.1f %%) between its first %d runs and its next %d: "
		       "the step command does not give a reproducible "
		       "setup\n", b->s.good, pct, lo, hi, AA_RUNS, AA_RUNS);
		return EXIT_NO_VERDICT;
	}
	printf("A/A: step %zu against itself, %d runs a half: %+.1f %% "
	       "(%+.1f .. %+.1f %%), not shown to differ\n", b->s.good,
	       AA_RUNS, pct, lo, hi);
	return 0;
}


/*
 * Does the culprit at position c explain the whole change (see
 * stats/bshare.h)?  0, or EXIT_NO_VERDICT when another step changes
 * the figure too.
 */
int bisect_check_share(const struct bisection *b, size_t c)
{
	struct bshare_step *st = xcalloc(b->nr_pos, sizeof(*st));
	struct bshare_result r;
	int rc;

	for (size_t i = 0; i < b->nr_pos; i++) {
		st[i].n = b->n[i];
		if (!b->n[i])
			continue;
		st[i].mean = b->sum[i] / (double)b->n[i];
		st[i].ss = b->ssq[i] - (double)b->n[i] * st[i].mean *
			   st[i].mean;
		if (st[i].ss < 0)
			st[i].ss = 0;
	}
	rc = bshare_explained(st, b->nr_pos, 0, c, b->nr_pos - 1, SHARE_ALPHA,
			      SHARE_TOL, &r);
	free(st);
	if (rc < 0) {
		printf("  its share of the change cannot be told (a step "
		       "next to it has no measurement)\n");
		return 0;
	}
	if (!r.partial) {
		printf("  it explains %.0f %% (%.0f .. %.0f %%) of the change "
		       "between good and bad\n", r.share * 100, r.lo * 100,
		       r.hi * 100);
		return 0;
	}
	printf("non-monotone evidence: step %zu explains %.0f %% (%.0f .. "
	       "%.0f %%) of the change between good and bad; another step "
	       "changes it too\n", b->s.good + c, r.share * 100, r.lo * 100,
	       r.hi * 100);
	return EXIT_NO_VERDICT;
}

