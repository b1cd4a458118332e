// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hist-cost.c - what keeping a latency histogram whole costs, in CPU
 * time of this thread (the machine may be busy):
 *
 *  - per sample: lathist_add() of latencies like a metadata create's
 *    (log-uniform 2 us .. 2 ms, precomputed, so no RNG is timed), and
 *    the clock_gettime(CLOCK_MONOTONIC) pair a timed op needs;
 *  - per phase, for a histogram of SAMPLES samples: merging a thread's
 *    histogram, the phase's compact copy (phase_rec_add_hist) and
 *    encoding the blob; and storing the phase with its hists row
 *    against storing it without (both with the five latency metrics; a
 *    fresh store at DB, each phase its own transaction as the run
 *    writer does);
 *  - the blob's size in bytes.
 *
 *   hist-cost DB SAMPLES [N]
 *
 * Prints "add_ns clock_ns phase_us store_us blob_B".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure/result.h"
#include "stats/lathist.h"
#include "store/histblob.h"
#include "store/store.h"
#include "util/splitmix.h"
#include "util/util.h"

#define NR_VALUES (1u << 20)

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t value(uint64_t i)
{
	uint64_t r = splitmix64(i);
	/* 2^11 .. 2^21 ns, log-uniform with a linear part below */
	return ((uint64_t)1 << (11 + r % 10)) + (r >> 54);
}

static double per_add(const uint64_t *v, struct lathist *h, size_t n)
{
	double t = cpu_ns();

	for (size_t i = 0; i < n; i++)
		lathist_add(h, v[i & (NR_VALUES - 1)]);
	return (cpu_ns() - t) / (double)n;
}

static double per_clock(size_t n)
{
	struct timespec a;
	uint64_t sink = 0;
	double t = cpu_ns();

	for (size_t i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		sink += (uint64_t)a.tv_nsec;
	}
	t = (cpu_ns() - t) / (double)n;
	return sink ? t : t;
}

/* A phase as a run stores it, with or without the histogram. */
static double store_phases(struct store *st, int64_t wlrun_id,
			   const struct lathist *h, int n, bool with)
{
	double t = cpu_ns();

	for (int i = 0; i < n; i++) {
		struct phase_rec p = { 0 };

		p.name = xstrdup("create");
		p.seq = i;
		phase_rec_add_metric(&p, "files/s", 1000, "files/s",
				     BETTER_HIGHER);
		/* the five latency figures either way: they are older */
		phase_rec_add_latency(&p, NULL, h);
		if (!with) {
			hist_rec_release(&p.hists[0]);
			p.nr_hists = 0;
		}
		if (store_phase_add(st, wlrun_id, &p))
			die("cannot store a phase");
		phase_rec_release(&p);
	}
	return (cpu_ns() - t) / n;
}

int main(int argc, char **argv)
{
	uint64_t *v = xmalloc(NR_VALUES * sizeof(*v));
	struct lathist *h = xmalloc(sizeof(*h)), *sum = xmalloc(sizeof(*h));
	size_t samples, len = 0;
	int n;
	double add, clk, phase, with, without;
	struct store *st;
	struct run_rec *r;
	struct wlrun_rec *w;

	if (argc < 3) {
		fprintf(stderr, "usage: hist-cost DB SAMPLES [N]\n");
		return 2;
	}
	samples = strtoul(argv[2], NULL, 10);
	n = argc > 3 ? atoi(argv[3]) : 2000;
	for (uint64_t i = 0; i < NR_VALUES; i++)
		v[i] = value(i);
	lathist_init(h);
	per_add(v, h, 1u << 22);  /* warm */
	lathist_init(h);
	add = per_add(v, h, 1u << 25);
	clk = per_clock(1u << 22);
	lathist_init(h);
	per_add(v, h, samples);

	phase = cpu_ns();
	for (int i = 0; i < n; i++) {
		struct phase_rec p = { 0 };
		unsigned char *blob;

		lathist_init(sum);
		lathist_merge(sum, h);
		phase_rec_add_hist(&p, NULL, sum);
		blob = histblob_encode(&p.hists[0], &len);
		free(blob);
		phase_rec_release(&p);
	}
	phase = (cpu_ns() - phase) / n;

	if (store_open(argv[1], &st))
		return 1;
	r = run_rec_begin("hist-cost", "hist-cost", 0);
	if (store_run_begin(st, r))
		return 1;
	w = run_rec_new_wlrun(r);
	w->workload = xstrdup("metadata");
	if (store_wlrun_begin(st, r->id, w))
		return 1;
	store_phases(st, w->id, h, n / 4, true);  /* warm */
	without = with = 0;
	for (int k = 0; k < 4; k++) {
		without += store_phases(st, w->id, h, n / 4, false);
		with += store_phases(st, w->id, h, n / 4, true);
	}
	printf("%.2f %.2f %.2f %.2f %zu\n", add, clk, phase / 1e3,
	       (with - without) / 4 / 1e3, len);
	run_rec_free(r);
	store_close(st);
	free(v);
	free(h);
	free(sum);
	return 0;
}
