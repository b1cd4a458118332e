/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect.c - `fslab bisect`: which step of an ordered list of targets
 * made a figure change.  First both ends are measured until a
 * sequential test (stats/sequential.h) says they differ; then a
 * probabilistic bisection (stats/pbisect.h) picks the step to measure,
 * one ordinary run at a time, until the most probable culprit is
 * probable enough or the budget is spent.  Every run is stored as any
 * `fslab run` is (run/bisect.h), so the bisection resumes from the
 * store and compare and history see its runs.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "age/ager.h"
#include "cmd/bisect_int.h"
#include "cmd/cmd.h"
#include "cometric/cometric.h"
#include "compare/compare.h"
#include "phase/progress.h"
#include "run/bisect.h"
#include "run/preflight.h"
#include "run/runner.h"
#include "stats/pbisect.h"
#include "stats/sequential.h"
#include "store/store.h"
#include "util/defaults.h"
#include "util/interrupt.h"
#include "util/strbuf.h"
#include "util/util.h"

/* The ends: at least ENDS_MIN runs each, at most ENDS_MAX, tested at
 * ENDS_ALPHA: a false "they differ" sends the whole bisection after
 * noise, so the level is stricter than compare's. */
#define ENDS_MIN 3
#define ENDS_MAX 20
#define ENDS_ALPHA 0.01
#define ENDS_POWER 0.8
#define DEFAULT_BUDGET 50
static const struct cmdopt bisect_table[] = {
	CMDOPT_STR_C(0, "axis", struct bisect_args, axis,
		     "targets:FILE|git:REPO|steps:FILE", CMDOPT_C_FILE,
		     "the ordered steps, numbered from 1: targets:FILE one "
		     "target SPEC a line (the syntax of 'fslab run -t'); "
		     "git:REPO the first-parent revisions from --good to "
		     "--bad, each built by --build; steps:FILE one step "
		     "identifier a line, each set up by --step ('#' "
		     "comments and blank lines skipped)"),
	CMDOPT_STR_C('t', "target", struct bisect_args, target, "SPEC",
		     CMDOPT_C_TARGET,
		     "git: and steps: axes: the filesystem every step is "
		     "measured on (default 'ext4'; see 'fslab help "
		     "targets')"),
	CMDOPT_STR(0, "build", struct bisect_args, build, "CMD",
		   "git: axis: the command that builds a revision, run by "
		   "/bin/sh in a copy of it (git archive) that fslab makes "
		   "under the scratch folder; {prefix} is replaced by the "
		   "step's install prefix (also $FSLAB_PREFIX, the commit "
		   "id in $FSLAB_REV); {prefix} in the workload becomes "
		   "$FSLAB_PREFIX, so every revision's runs have the same "
		   "options; a failing build makes the revision "
		   "untestable"),
	CMDOPT_STR(0, "step", struct bisect_args, step, "CMD",
		   "steps: axis: the command run by /bin/sh before every "
		   "measurement of a step, {} replaced by the step's line "
		   "(shell-quoted; also $FSLAB_STEP); failing, it makes "
		   "the step untestable"),
	CMDOPT_BOOL(0, "aa", struct bisect_args, aa,
		    "first measure the good step as two halves of "
		    FSLAB_STR(AA_RUNS) " runs each and refuse when they "
		    "differ (an A/A test of the setup; the default for "
		    "steps: axes)"),
	CMDOPT_BOOL(0, "no-aa", struct bisect_args, no_aa,
		    "no A/A test, even for a steps: axis"),
	CMDOPT_STR_C('w', "workload", struct bisect_args, workload,
		     "NAME[:key=val,...]", CMDOPT_C_WORKLOAD,
		     "the workload every measurement runs once"),
	CMDOPT_STR(0, "metric", struct bisect_args, metric, "PHASE/METRIC",
		   "the figure whose change is looked for, as "
		   "create/files/s; its logarithm is bisected, so either "
		   "direction of change is found"),
	CMDOPT_STR(0, "good", struct bisect_args, good, "N|REF",
		   "the step known good (default: the first; for git: a "
		   "ref, default HEAD~1)"),
	CMDOPT_STR(0, "bad", struct bisect_args, bad, "N|REF",
		   "the step known bad (default: the last; for git: a "
		   "ref, default HEAD)"),
	CMDOPT_DBL_OPEN(0, "prob", struct bisect_args, prob, "P", 0, 1,
			"0.95",
			"stop when the most probable culprit has at least "
			"this posterior probability"),
	CMDOPT_INTEGER(0, "budget", struct bisect_args, budget, "RUNS", 2,
		       100000,
		       "at most RUNS runs in all, those of earlier sessions "
		       "of the bisection included (default "
		       FSLAB_STR(DEFAULT_BUDGET) ")"),
	CMDOPT_STR(0, "tag", struct bisect_args, tag, "TAG",
		   "name the bisection (letters, digits, '.', '_', '-'); "
		   "its runs are tagged TAG:step=K (default: "
		   "bisect-YYYYMMDD-HHMMSS)"),
	CMDOPT_STR_C(0, "resume", struct bisect_args, resume, "TAG",
		     CMDOPT_C_RUN,
		     "go on with the bisection TAG: its axis, workload, "
		     "metric and ends, and every run it completed, come "
		     "from the store"),
	CMDOPT_INCLUDE_AT(struct bisect_args, store, cmdopt_store_opts),
	CMDOPT_STR_C(0, "scratch", struct bisect_args, scratch, "DIR",
		     CMDOPT_C_DIR,
		     "where loop images and mount points live (default "
		     TARGET_DEFAULT_SCRATCH ")"),
	CMDOPT_BOOL('v', "verbose", struct bisect_args, verbose,
		    "print every run's own report too"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_bisect_opts = {
	.name = "bisect",
	.summary = "find the target, revision or kernel that changed a "
		   "figure",
	.usage = "--axis targets:FILE -w NAME[:key=val,...] "
		 "--metric PHASE/METRIC\n"
		 "[--good N] [--bad N] [--prob P] [--budget RUNS] [--tag TAG]\n"
		 "[--db PATH] [--scratch DIR]\n"
		 "--axis git:REPO --build CMD [-t SPEC] [--good REF] "
		 "[--bad REF] -w ... --metric ...\n"
		 "--axis steps:FILE --step CMD [-t SPEC] [--no-aa] -w ... "
		 "--metric ...\n"
		 "--resume TAG [--prob P] [--budget RUNS] [--db PATH]",
	.desc = "Find the first step of an ordered list of targets (mount "
		"options, mkfs settings, kernels' filesystems: one SPEC a "
		"line of FILE) at which the metric changed, with as few "
		"runs as the noise allows.  Each measurement is one run of "
		"the workload on one step's target, stored as 'fslab run' "
		"stores it, tagged TAG:step=K.\n\n"
		"First the good and the bad step are measured in turn, "
		"at least " FSLAB_STR(ENDS_MIN) " runs each, until a "
		"sequential test at level 0.01 says they differ (by 2 % "
		"or more); equivalent ends, or ends still undecided after "
		FSLAB_STR(ENDS_MAX) " runs each, leave nothing to bisect.  "
		"Then every run updates the posterior probability of each "
		"step being the culprit (the first step that behaves like "
		"the bad end), and the next run measures the step that "
		"splits that probability best, until the most probable "
		"culprit reaches --prob or the budget is spent.  A step "
		"whose run fails is skipped.\n\n"
		"With --axis git:REPO the steps are the revisions from "
		"--good to --bad (git rev-list --first-parent, good first), "
		"each copied out of REPO and built by --build into a prefix "
		"of its own; with --axis steps:FILE they are FILE's lines, "
		"each set up by --step before every measurement (a package "
		"version installed, a kernel booted in a VM).  Both measure "
		"on the one target -t; a failing build or step command "
		"makes the step untestable, skipped as a failing run.  "
		"--aa (the default for steps:) first measures the good "
		"step as two halves of " FSLAB_STR(AA_RUNS) " runs and "
		"refuses when they differ: a step command that does not "
		"give the same setup twice cannot be bisected.\n\n"
		"A culprit found must explain the whole change: the jump "
		"from the step before it to it, as a share of the ends' "
		"difference, with its 99 % interval.  When that excludes "
		"100 % and misses it by 10 % or more, another step changes "
		"the figure too, and the answer is refused as "
		"non-monotone evidence.\n\n"
		"Ctrl-C stops the run under way (it is not counted) and "
		"keeps every completed one: --resume TAG goes on from "
		"there.",
	.opts = bisect_table,
	.footer = "Needs root for loop targets.  Exit codes: 0 culprit "
		  "found, 1 a run or the store failed, 2 usage error or "
		  "bad axis file, 4 no answer (the ends do not differ, or "
		  "the budget ran out before --prob, the A/A test failed, "
		  "non-monotone evidence), 128+N interrupted by "
		  "signal N (130: Ctrl-C).",
};

static void print_p(const struct bisection *b)
{
	double p;
	size_t c;

	if (!b->decided)
		return;
	c = pbisect_best(&b->pb, &p);
	printf("  P(culprit=step %zu)=%.3f", b->s.good + c, p);
}

/* Take one stored measurement into the state; false: not one of ours. */
static bool take(struct bisection *b, const struct bisect_meas *m,
		 bool stored)
{
	size_t pos;

	if (m->outcome == BISECT_INTERRUPTED || m->step < b->s.good ||
	    m->step > b->s.bad)
		return false;
	pos = m->step - b->s.good;
	b->runs++;
	printf("step %zu (%s): ", m->step, step_spec(b, m->step));
	if (m->outcome != BISECT_MEASURED) {
		pbisect_skip(&b->pb, pos);
		if (!b->why[pos])
			b->why[pos] = xstrdup(m->why);
		printf("%s: skipped%s\n", m->why, stored ? " (stored)" : "");
		return true;
	}
	pbisect_add(&b->pb, pos, log(m->value));
	b->n[pos]++;
	b->sum[pos] += log(m->value);
	b->ssq[pos] += log(m->value) * log(m->value);
	if (pos == 0 || pos == b->nr_pos - 1) {
		int e = pos != 0;

		ALLOC_GROW(b->ends[e], b->nr_ends[e] + 1, b->alloc_ends[e]);
		b->ends[e][b->nr_ends[e]++] = log(m->value);
	}
	if (b->decided)
		pbisect_update(&b->pb);
	printf("%s = %.6g", b->s.metric, m->value);
	print_p(b);
	printf("  [run %" PRId64 "%s]\n", m->run_id, stored ? ", stored" : "");
	return true;
}

/* Mean and variance of the first n of x. */
static void moments(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
}

/*
 * The ends' sequential test at every look not taken yet, on the first
 * n runs of each end (so a resumed bisection takes the same looks).
 */
static void look_ends(struct bisection *b)
{
	int n = (int)(b->nr_ends[0] < b->nr_ends[1] ? b->nr_ends[0]
						    : b->nr_ends[1]);

	for (int k = b->looked + 1; k <= n && k <= ENDS_MAX; k++) {
		double m0, v0, m1, v1, q0, q1;

		b->looked = k;
		if (k < ENDS_MIN)
			continue;
		moments(b->ends[0], (size_t)k, &m0, &v0);
		moments(b->ends[1], (size_t)k, &m1, &v1);
		q0 = v0 / k;
		q1 = v1 / k;
		b->c.log_ratio = m1 - m0;
		b->c.se = sqrt(q0 + q1);
		b->c.df = q0 + q1 > 0 ? (q0 + q1) * (q0 + q1) /
			  (q0 * q0 / (k - 1) + q1 * q1 / (k - 1)) : k - 1;
		seq_look(&b->d, k, &b->c, 1, COMPARE_MIN_CHANGE_PCT,
			 ENDS_POWER);
		if (b->c.decision != SEQ_UNDECIDED)
			break;
	}
	if (b->c.decision == SEQ_DIFFERENT && !b->decided) {
		b->decided = true;
		printf("good (step %zu) and bad (step %zu) differ: %+.1f %% "
		       "(%+.1f .. %+.1f %%) after %d runs each\n",
		       b->s.good, b->s.bad, b->c.pct, b->c.lo_pct,
		       b->c.hi_pct, b->c.decided_n);
		if (pbisect_update(&b->pb) < 0)
			BUG("the ends have %zu and %zu runs", b->nr_ends[0],
			    b->nr_ends[1]);
	}
}

static void resume_hint(const struct bisection *b, const char *why)
{
	printf("%s: %zu runs of bisection %s kept; go on with:\n"
	       "  fslab bisect --resume %s%s%s\n", why, b->runs, b->s.tag,
	       b->s.tag, b->db ? " --db " : "", b->db ? b->db : "");
}

/* The ends will not do: 0 still testing, else the exit code. */
static int ends_refused(const struct bisection *b)
{
	if (b->c.decision == SEQ_EQUIVALENT) {
		printf("good and bad are equivalent within %.1f %%: nothing "
		       "to bisect (%+.1f %%, %+.1f .. %+.1f %%, %d runs "
		       "each)\n", COMPARE_MIN_CHANGE_PCT, b->c.pct,
		       b->c.lo_pct, b->c.hi_pct, b->looked);
		return EXIT_NO_VERDICT;
	}
	if (b->looked >= ENDS_MAX) {
		/* not an equivalence: the interval may be wide */
		printf("good and bad are not shown to differ after %d runs "
		       "each (%+.1f %%, %+.1f .. %+.1f %%): nothing to "
		       "bisect; a change this close to the noise needs a "
		       "steadier --metric or a longer workload\n", ENDS_MAX,
		       b->c.pct, b->c.lo_pct, b->c.hi_pct);
		return EXIT_NO_VERDICT;
	}
	return 0;
}

/* One end's figure for the result: "V (N runs)" or why there is none. */
static void print_step(const struct bisection *b, const char *what,
		       size_t pos, double ref)
{
	size_t k = b->s.good + pos;

	printf("  %-8s step %zu (%s): ", what, k, step_spec(b, k));
	if (b->pb.skip[pos]) {
		printf("untestable (%s)\n", b->why[pos] ? b->why[pos]
							 : "its run failed");
	} else if (!b->n[pos]) {
		printf("not measured\n");
	} else {
		double g = exp(b->sum[pos] / (double)b->n[pos]);

		printf("%s = %.6g (%s%zu run%s)", b->s.metric, g,
		       b->n[pos] > 1 ? "geometric mean of " : "", b->n[pos],
		       b->n[pos] > 1 ? "s" : "");
		if (!isnan(ref) && ref > 0)
			printf(", %+.1f %%", (g / ref - 1) * 100);
		printf("\n");
	}
}

static int print_result(const struct bisection *b, double want)
{
	double p, before = NAN;
	size_t c = pbisect_best(&b->pb, &p), k = b->s.good + c;
	char *t0 = bisect_step_tag(b->s.tag, k - 1);
	char *t1 = bisect_step_tag(b->s.tag, k);
	int rc = EXIT_OK;

	if (p >= want) {
		printf("culprit: step %zu (%s), %s %u of %s: P = %.3f after "
		       "%zu runs\n", k, step_spec(b, k),
		       b->s.kind == BISECT_GIT ? "revision" : "line",
		       b->ax.lines[k - 1], b->s.axis, p, b->runs);
	} else {
		printf("no culprit with P >= %.3f within the budget: most "
		       "probable step %zu (%s), P = %.3f after %zu runs\n",
		       want, k, step_spec(b, k), p, b->runs);
		rc = EXIT_NO_VERDICT;
	}
	if (b->n[c - 1])
		before = exp(b->sum[c - 1] / (double)b->n[c - 1]);
	print_step(b, "before:", c - 1, NAN);
	print_step(b, "culprit:", c, before);
	if (!rc)
		rc = bisect_check_share(b, c);
	printf("  their runs: fslab compare %s %s%s%s\n", t0, t1,
	       b->db ? " --db " : "", b->db ? b->db : "");
	if (rc)
		resume_hint(b, "budget spent");
	free(t0);
	free(t1);
	return rc;
}

/* Measure step k once; the exit code when the bisection must stop. */
static int measure(struct bisection *b, struct store *st,
		   const struct run_config *base, struct run_workload *w,
		   size_t k)
{
	struct bisect_meas m;
	int rc = 0;

	/* a Ctrl-C between two runs: the runner would start none */
	if (interrupt_requested()) {
		resume_hint(b, "interrupted");
		return 128 + interrupt_signal();
	}
	rc = bisect_prepare_step(b, k, &m);
	if (rc >= 128)
		resume_hint(b, "interrupted");
	if (rc > 0)
		return rc;
	if (!rc && bisect_measure_step(b, st, base, w, k, &m, &rc) < 0)
		return EXIT_RUNTIME;
	if (interrupt_requested() || m.outcome == BISECT_INTERRUPTED) {
		resume_hint(b, "interrupted");
		return interrupt_signal() ? 128 + interrupt_signal()
					  : EXIT_RUNTIME;
	}
	if (m.outcome == BISECT_NO_METRIC) {
		fprintf(stderr, "fslab: error: --metric %s: %s\n",
			b->s.metric, m.why);
		return EXIT_USAGE;
	}
	take(b, &m, false);
	if (m.outcome != BISECT_MEASURED && (k == b->s.good ||
					     k == b->s.bad)) {
		fprintf(stderr, "fslab: error: the %s end, step %zu (%s), "
			"cannot be measured: %s\n", k == b->s.good ? "good" :
			"bad", k, step_spec(b, k), m.why);
		return EXIT_RUNTIME;
	}
	return 0;
}

/* The loop: the ends until decided, then the bisection proper. */
static int bisect_loop(struct bisection *b, struct store *st,
		       const struct run_config *base, struct run_workload *w,
		       size_t budget, double want)
{
	int rc;

	look_ends(b);
	while (!b->decided) {
		int e = b->nr_ends[1] < b->nr_ends[0];

		rc = ends_refused(b);
		if (rc)
			return rc;
		if (b->runs >= budget) {
			resume_hint(b, "budget spent before the ends were "
				    "decided");
			return EXIT_NO_VERDICT;
		}
		rc = measure(b, st, base, w, e ? b->s.bad : b->s.good);
		if (rc)
			return rc;
		look_ends(b);
	}
	while (b->s.aa && b->nr_ends[0] < 2 * AA_RUNS) {
		if (b->runs >= budget) {
			resume_hint(b, "budget spent before the A/A test");
			return EXIT_NO_VERDICT;
		}
		rc = measure(b, st, base, w, b->s.good);
		if (rc)
			return rc;
	}
	if (b->s.aa) {
		rc = bisect_aa_verdict(b);
		if (rc)
			return rc;
	}
	for (;;) {
		double p;
		size_t next;

		pbisect_best(&b->pb, &p);
		if (p >= want || b->runs >= budget)
			break;
		next = pbisect_next(&b->pb);
		/* every step skipped: no run can tell more */
		if (next >= b->nr_pos || b->pb.skip[next])
			break;
		rc = measure(b, st, base, w, b->s.good + next);
		if (rc)
			return rc;
	}
	return print_result(b, want);
}

/* The tag goes into a glob (tag=TAG:step=*): none of its characters. */
static bool tag_ok(const char *t)
{
	if (!*t)
		return false;
	for (; *t; t++)
		if (!isalnum((unsigned char)*t) && !strchr("._-", *t))
			return false;
	return true;
}

/* Is phase one the workload makes?  Its names listed in err if not. */
static bool phase_known(const struct run_workload *w, const char *phase,
			char *err, size_t errlen)
{
	const char *const *names = wl_phase_names(w->wl, w->opts);
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; names && names[i]; i++) {
		if (!strcmp(names[i], phase)) {
			strbuf_release(&sb);
			return true;
		}
		strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
	}
	/* a workload that names no phases may still make this one */
	if (!names || !names[0])
		return true;
	snprintf(err, errlen, "--metric: workload '%s' has no phase '%s' "
		 "(phases: %s)", w->wl->name, phase, sb.buf);
	strbuf_release(&sb);
	return false;
}

/* A new bisection from the command line; 0 or the exit code. */
static int setup_new(struct bisection *b, const struct bisect_args *a,
		     struct store *st)
{
	const struct cmdopt_cmd *cmd = &cmd_bisect_opts;
	struct bisect_setup *s = &b->s;
	struct bisect_setup other = { 0 };
	struct bisect_meas *old;
	char err[1024], when[32], *abs;
	const char *path;
	size_t nr_old;
	time_t now = time(NULL);
	int rc;

	if (!a->axis || !a->workload || !a->metric)
		return cmdopt_usage_error(cmd, "--axis, --workload and "
					  "--metric are needed (or --resume "
					  "TAG)");
	if (bisect_axis_kind(a->axis, &s->kind, &path) < 0)
		return cmdopt_usage_error(cmd, "--axis takes targets:FILE, "
					  "git:REPO or steps:FILE, not '%s'",
					  a->axis);
	strftime(when, sizeof(when), "bisect-%Y%m%d-%H%M%S",
		 localtime(&now));
	s->tag = xstrdup(a->tag ? a->tag : when);
	if (!tag_ok(s->tag))
		return cmdopt_usage_error(cmd, "--tag '%s': letters, digits, "
					  "'.', '_' and '-' only", s->tag);
	rc = bisect_kind_opts(s, a);
	if (rc)
		return rc;
	s->workload = xstrdup(a->workload);
	s->metric = xstrdup(a->metric);
	if (bisect_setup_metric(s, err, sizeof(err)) < 0)
		return cmdopt_usage_error(cmd, "%s", err);
	abs = realpath(path, NULL);
	s->src = abs ? abs : xstrdup(path);
	s->axis = s->kind == BISECT_TARGETS ? xstrdup(s->src)
		  : xasprintf("%s:%s", s->kind == BISECT_GIT ? "git"
							      : "steps", s->src);
	if (bisect_axis_open(s, &b->ax, false, a->good, a->bad, err,
			     sizeof(err)) < 0) {
		fprintf(stderr, "fslab: error: %s\n", err);
		return EXIT_USAGE;
	}
	if (bisect_load(st, s->tag, &other, &old, &nr_old) < 0)
		return EXIT_RUNTIME;
	free(old);
	bisect_setup_release(&other);
	if (nr_old)
		return cmdopt_usage_error(cmd, "bisection '%s' exists in "
					  "'%s': go on with --resume %s, or "
					  "choose another --tag", s->tag,
					  store_path(st), s->tag);
	return 0;
}

/* The bisection a->resume from the store, its runs in *ms. */
static int setup_resume(struct bisection *b, const struct bisect_args *a,
			struct store *st, struct bisect_meas **ms, size_t *nr)
{
	const struct cmdopt_cmd *cmd = &cmd_bisect_opts;
	char err[1024];
	size_t kept = 0;

	if (a->axis || a->workload || a->metric || a->good || a->bad ||
	    a->tag || a->target || a->build || a->step || a->aa || a->no_aa)
		return cmdopt_usage_error(cmd, "--resume takes the axis, "
					  "workload, metric, ends and tag "
					  "from the store: give only --prob, "
					  "--budget, --db, --scratch");
	if (!tag_ok(a->resume))
		return cmdopt_usage_error(cmd, "--resume '%s': not a "
					  "bisection's tag", a->resume);
	if (bisect_load(st, a->resume, &b->s, ms, nr) < 0)
		return EXIT_RUNTIME;
	if (!*nr) {
		fprintf(stderr, "fslab: error: no bisection '%s' in '%s' (no "
			"run tagged %s:step=K)\n", a->resume, store_path(st),
			a->resume);
		return EXIT_USAGE;
	}
	if (bisect_axis_open(&b->s, &b->ax, true, NULL, NULL, err,
			     sizeof(err)) < 0) {
		fprintf(stderr, "fslab: error: bisection %s: %s\n",
			b->s.tag, err);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < *nr; i++)
		kept += (*ms)[i].outcome != BISECT_INTERRUPTED;
	printf("resuming bisection %s: %s on %s, steps %zu..%zu of %s, "
	       "%zu stored runs\n", b->s.tag, b->s.metric, b->s.workload,
	       b->s.good, b->s.bad, b->s.axis, kept);
	return 0;
}

/* The target step k is measured on. */
static const char *target_of(const struct bisection *b, size_t k)
{
	return b->s.kind == BISECT_TARGETS ? step_spec(b, k) : b->s.target;
}

/* Everything the steps need that can be checked before any run. */
static int preflight(const struct bisection *b, struct run_config *base,
		     struct run_workload *w)
{
	struct run_config cfg = *base;
	int rc;

	cfg.targets = xcalloc(b->nr_pos, sizeof(*cfg.targets));
	cfg.wls = w;
	cfg.nr_wls = 1;
	/* once per distinct spec: the same spec twice is no clash here */
	for (size_t k = b->s.good; k <= b->s.bad; k++) {
		const char *spec = target_of(b, k);
		char err[512];
		bool seen = false;

		for (size_t j = b->s.good; j < k && !seen; j++)
			seen = !strcmp(target_of(b, j), spec);
		if (seen)
			continue;
		if (target_spec_parse(spec, &cfg.targets[cfg.nr_targets], err,
				      sizeof(err)) < 0)
			BUG("'%s' no longer parses: %s", spec, err);
		cfg.nr_targets++;
	}
	rc = preflight_run(&cfg, true);
	for (size_t i = 0; i < cfg.nr_targets; i++)
		target_spec_release(&cfg.targets[i]);
	free(cfg.targets);
	return rc;
}

static void bisection_release(struct bisection *b)
{
	bisect_setup_release(&b->s);
	bisect_axis_release(&b->ax);
	pbisect_free(&b->pb);
	seq_design_release(&b->d);
	for (size_t i = 0; b->why && i < b->nr_pos; i++)
		free(b->why[i]);
	for (size_t i = 0; b->prep && i < b->nr_pos; i++)
		bisect_prep_release(&b->prep[i]);
	free(b->why);
	free(b->prep);
	free(b->n);
	free(b->sum);
	free(b->ssq);
	free(b->ends[0]);
	free(b->ends[1]);
}

/* Everything after the setup: replay what is stored, go on measuring. */
static int bisect_run(struct bisection *b, const struct bisect_args *a,
		      struct store *st, struct bisect_meas *ms, size_t nr,
		      char *cmdline)
{
	struct run_config base = {
		.repeat = 1, .max_repeat = 1,
		.min_change_pct = COMPARE_MIN_CHANGE_PCT,
		.alpha = COMPARE_ALPHA, .seed = FSLAB_DEFAULT_SEED,
		.age = ager_age_default, .db = a->store.db,
		.scratch = a->scratch, .cmdline = cmdline,
		.co_metrics = cometric_level_parse("basic"),
		.no_report = !a->verbose,
	};
	struct run_workload w;
	char err[1024];
	int rc;

	if (run_workload_parse(b->s.workload, &w, err, sizeof(err)) < 0) {
		fprintf(stderr, "fslab: error: %s\n", err);
		return EXIT_USAGE;
	}
	if (!phase_known(&w, b->s.phase, err, sizeof(err))) {
		run_workload_release(&w);
		return cmdopt_usage_error(&cmd_bisect_opts, "%s", err);
	}
	b->nr_pos = b->s.bad - b->s.good + 1;
	if (pbisect_init(&b->pb, b->nr_pos) < 0 ||
	    seq_design_init(&b->d, ENDS_MIN, ENDS_MAX, ENDS_ALPHA) < 0)
		BUG("bisection of %zu steps", b->nr_pos);
	b->n = xcalloc(b->nr_pos, sizeof(*b->n));
	b->sum = xcalloc(b->nr_pos, sizeof(*b->sum));
	b->ssq = xcalloc(b->nr_pos, sizeof(*b->ssq));
	b->why = xcalloc(b->nr_pos, sizeof(*b->why));
	b->prep = xcalloc(b->nr_pos, sizeof(*b->prep));
	b->scratch = a->scratch ? a->scratch : TARGET_DEFAULT_SCRATCH;
	rc = preflight(b, &base, &w);
	if (rc) {
		run_workload_release(&w);
		return rc;
	}
	for (size_t i = 0; i < nr; i++) {
		take(b, &ms[i], true);
		look_ends(b);
	}
	if (!nr)
		printf("bisection %s: %s on %zu steps of %s, good %zu, bad "
		       "%zu\n", b->s.tag, b->s.metric, b->nr_pos, b->s.axis,
		       b->s.good, b->s.bad);
	progress_start(PROGRESS_OFF);
	rc = bisect_loop(b, st, &base, &w, a->budget ? (size_t)a->budget
						      : DEFAULT_BUDGET,
			 a->prob);
	progress_stop();
	run_workload_release(&w);
	return rc;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_args a = { .prob = 0.95 };
	struct bisection b = { 0 };
	struct bisect_meas *ms = NULL;
	struct store *st = NULL;
	char *path, *cmdline;
	size_t nr = 0;
	int first, rc;

	first = cmdopt_parse(&cmd_bisect_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	if (first < argc)
		return cmdopt_usage_error(&cmd_bisect_opts, "unexpected "
					  "argument '%s'", argv[first]);
	if (a.store.db && !*a.store.db)
		return cmdopt_usage_error(&cmd_bisect_opts, "--db needs a "
					  "path");
	runner_install_signals();
	path = a.store.db ? xstrdup(a.store.db) : store_default_path();
	if (store_open(path, &st) < 0) {
		free(path);
		return EXIT_RUNTIME;
	}
	free(path);
	b.db = (char *)a.store.db;
	rc = a.resume ? setup_resume(&b, &a, st, &ms, &nr)
		      : setup_new(&b, &a, st);
	if (!rc) {
		cmdline = argv_join("fslab", argc, argv);
		rc = bisect_run(&b, &a, st, ms, nr, cmdline);
		free(cmdline);
	}
	free(ms);
	bisection_release(&b);
	store_close(st);
	return rc;
}
