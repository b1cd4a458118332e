/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain.h - `compare --explain`: beside each key metric that changed,
 * the co-metrics (cometric.h, and the trace's seeks, layout score and
 * modelled disk time, the device and CPU figures every phase has) that
 * moved with it.  Pure: compare tables and their groups in, leads out.
 *
 * Per configuration and phase with a key metric: every co-metric the
 * phase recorded in both configurations gets one figure per repetition,
 * the same sample as compare's (the repetition), normalised per unit of
 * work when it grows with the work (per file, else per MiB, else per
 * operation: the phase's own work in that repetition), and is tested
 * against the baseline with compare's log-ratio t-test (Welch's test of
 * the difference when a mean is 0), a count's standard deviation never
 * below its Poisson floor (explain.c).  The tests of one configuration
 * and phase form one family, adjusted with Benjamini-Hochberg: a list
 * of leads is read as a whole, so the expected share of false leads in
 * it is what to bound, not the chance of any.  A lead is a co-metric
 * with q < q_level AND a change of at least its family's practical
 * floor (EXPLAIN_FLOORS in explain.c: 0.3 % more page faults is not a
 * lead).  Leads are ranked by the size of the change, |log ratio| of
 * the normalised means (a co-metric that appeared from nothing first),
 * at most max_leads of them.
 *
 * Traced phases with a disk model also get the chain layout score ->
 * seeks per MiB -> modelled disk time, each link with its change.
 */
#ifndef FSLAB_COMPARE_EXPLAIN_H
#define FSLAB_COMPARE_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/compare.h"

#define EXPLAIN_Q 0.05
#define EXPLAIN_MAX_LEADS 10

struct explain_opts {
	double q;            /* false discovery rate level */
	double alpha;        /* for the change's interval (1 - alpha) */
	size_t max_leads;
};

void explain_opts_init(struct explain_opts *o);

struct explain_lead {
	char *metric;        /* the co-metric */
	char *unit;          /* its unit, "/file" etc. appended when per_work */
	const char *per;     /* "file", "MiB", "op", or NULL */
	double base, mean;   /* baseline's and this configuration's means */
	double pct, pct_lo, pct_hi; /* change, its interval (NaN: none) */
	double p, q;         /* raw, BH-adjusted */
	double floor_pct;    /* the practical floor it passed */
	double effect;       /* |log ratio|; INFINITY from or to 0 */
};

/* One link of the chain: its two means and the change. */
struct explain_link {
	double base, mean, pct;
	bool have;
};

struct explain_key {
	char *metric;
	double pct, pct_lo, pct_hi;
	enum cmp_verdict verdict;
	double mdc_pct;          /* for the verdict's words (output/fmt.h) */
};

struct explain_item {
	size_t table, group;     /* s->tabs[table], group >= 1 */
	char *phase;
	struct explain_key *keys;  /* the phase's tested key metrics */
	size_t nr_keys;
	bool changed;            /* one of them changed significantly */
	const char *per;         /* the unit of work, or NULL */
	size_t nr_tested;        /* co-metrics tested (the BH family) */
	size_t nr_leads_all;     /* leads before the max_leads cut */
	struct explain_lead *leads;
	size_t nr_leads;
	struct explain_link layout, seeks_per_mib, disk_s;
};

struct explain {
	struct explain_item *items;
	size_t nr, alloc;
	double q;
};

/*
 * Leads for every configuration (group >= 1) and phase with a tested key
 * metric of the nr tables (groups[i] are tabs[i]'s groups, as
 * compare_build got them; compare_finish must have run).
 */
void explain_build(const struct cmp_table *tabs,
		   const struct cmp_group *const *groups, size_t nr,
		   const struct explain_opts *o, struct explain *out);
void explain_release(struct explain *e);

/*
 * Is metric a co-metric explain considers?  *floor_pct gets its
 * family's practical floor, *per_work whether it grows with the work.
 */
bool explain_candidate(const char *metric, double *floor_pct,
		       bool *per_work);

/*
 * Benjamini-Hochberg at level q over p[0..n) (NaN: not a test): lead[i]
 * says whether test i is a discovery, q_adj[i] (may be NULL) its
 * adjusted p.  Returns the number of discoveries.
 */
size_t explain_fdr(const double *p, size_t n, double q, bool *lead,
		   double *q_adj);

#endif
