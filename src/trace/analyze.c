/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analyze.c - turn a block-I/O request stream into the figures of
 * analyze.h.  No I/O and no tracefs here: capture.c feeds it real traces,
 * tests/unit/test_trace.c synthetic ones.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analyze.h"
#include "util/util.h"

unsigned trace_log2_bin(uint64_t v)
{
	unsigned k = v ? 63u - (unsigned)__builtin_clzll(v) : 0;

	return k < TRACE_HIST_BINS ? k : TRACE_HIST_BINS - 1;
}

void trace_bin_label(unsigned k, char *buf, size_t len)
{
	static const char sfx[] = "kmgtpe";

	if (k < 10) {
		snprintf(buf, len, "%llu", 1ULL << k);
		return;
	}
	snprintf(buf, len, "%llu%c", 1ULL << (k % 10), sfx[k / 10 - 1]);
}

static int is_data(const struct trace_rq *r)
{
	return r->nr_sector && (r->flags & (TRQ_READ | TRQ_WRITE)) &&
	       !(r->flags & TRQ_DISCARD);
}

int trace_is_seek(const struct trace_rq *prev, const struct trace_rq *rq,
		  int64_t *dist)
{
	int64_t d;

	*dist = 0;
	if (!prev)
		return 0;
	d = (int64_t)rq->sector - (int64_t)(prev->sector + prev->nr_sector);
	*dist = d;
	return d > TRACE_SEEK_SECTORS || d < -TRACE_SEEK_SECTORS;
}

/* ---- pairing issues with completions ---- */

struct pev {
	uint64_t sector, ts;
	size_t idx;      /* position in the input */
	int complete;
};

static int cmp_pev(const void *a, const void *b)
{
	const struct pev *x = a, *y = b;

	if (x->sector != y->sector)
		return x->sector < y->sector ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* At the same instant an issue comes before its completion. */
	if (x->complete != y->complete)
		return x->complete - y->complete;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

struct rq_idx {
	struct trace_rq rq;
	size_t idx;
};

static int cmp_rq_idx(const void *a, const void *b)
{
	const struct rq_idx *x = a, *y = b;

	if (x->rq.issue_ns != y->rq.issue_ns)
		return x->rq.issue_ns < y->rq.issue_ns ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Sort by (sector, time): within one sector the k-th completion belongs
 * to the k-th issue before it (the block layer completes a request once,
 * and the same sector is rarely in flight twice), so one forward pointer
 * over the issues pairs each group in linear time.
 */
struct trace_rq *trace_pair_events(const struct trace_ev *ev, size_t nr,
				   size_t *nr_out)
{
	struct pev *p = xcalloc(nr ? nr : 1, sizeof(*p));
	struct rq_idx *r = xcalloc(nr ? nr : 1, sizeof(*r));
	size_t *slot = xcalloc(nr ? nr : 1, sizeof(*slot));
	struct trace_rq *out;
	size_t n = 0, i, j;

	for (i = 0; i < nr; i++) {
		p[i].sector = ev[i].sector;
		p[i].ts = ev[i].ts_ns;
		p[i].idx = i;
		p[i].complete = ev[i].complete;
		if (!ev[i].complete) {
			slot[i] = n;
			r[n].rq.issue_ns = ev[i].ts_ns;
			r[n].rq.sector = ev[i].sector;
			r[n].rq.nr_sector = ev[i].nr_sector;
			r[n].rq.flags = ev[i].flags;
			r[n].idx = i;
			n++;
		}
	}
	qsort(p, nr, sizeof(*p), cmp_pev);
	for (i = 0; i < nr; i = j) {
		size_t ip = i;

		for (j = i; j < nr && p[j].sector == p[i].sector; j++) {
			if (!p[j].complete)
				continue;
			while (ip < j && p[ip].complete)
				ip++;
			if (ip >= j)
				continue; /* completion of an unseen issue */
			r[slot[p[ip].idx]].rq.complete_ns = p[j].ts;
			ip++;
		}
	}
	qsort(r, n, sizeof(*r), cmp_rq_idx);
	out = xcalloc(n ? n : 1, sizeof(*out));
	for (i = 0; i < n; i++)
		out[i] = r[i].rq;
	free(p);
	free(r);
	free(slot);
	*nr_out = n;
	return out;
}

/* ---- analysis ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of a sorted array. */
static uint64_t pct(const uint64_t *v, size_t n, double p)
{
	size_t k = (size_t)ceil(p * (double)n);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

static size_t bin_of(const struct trace_stats *s, uint64_t t)
{
	size_t b;

	if (t <= s->first_ns)
		return 0;
	b = (size_t)((t - s->first_ns) / s->bin_ns);
	return b < s->nr_bins ? b : s->nr_bins - 1;
}

static void setup_bins(struct trace_stats *s)
{
	uint64_t span = s->last_ns - s->first_ns;

	s->bin_ns = TRACE_BIN_NS;
	while (span / s->bin_ns + 1 > TRACE_MAX_BINS)
		s->bin_ns *= 2;
	s->nr_bins = (size_t)(span / s->bin_ns) + 1;
	s->bins = xcalloc(s->nr_bins, sizeof(*s->bins));
}

struct qd_ev {
	uint64_t t;
	int delta;
};

static int cmp_qd(const void *a, const void *b)
{
	const struct qd_ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->delta - y->delta; /* completions first at one instant */
}

/*
 * Queue depth: sweep the +1/-1 events in time order; between two events
 * the depth is constant, so each segment adds depth * overlap to the
 * bins it covers.  Only requests with a seen completion count.
 */
static void queue_depth(const struct trace_rq *rq, size_t nr,
			struct trace_stats *s)
{
	struct qd_ev *e = xcalloc(2 * nr + 1, sizeof(*e));
	size_t n = 0, i;
	int depth = 0;

	for (i = 0; i < nr; i++) {
		if (!rq[i].complete_ns || rq[i].complete_ns < rq[i].issue_ns)
			continue;
		e[n++] = (struct qd_ev){ rq[i].issue_ns, 1 };
		e[n++] = (struct qd_ev){ rq[i].complete_ns, -1 };
	}
	qsort(e, n, sizeof(*e), cmp_qd);
	for (i = 0; i < n; i++) {
		uint64_t t0, t1;

		depth += e[i].delta;
		if (depth > 0) {
			size_t b = bin_of(s, e[i].t);

			if (s->bins[b].qd_max < depth)
				s->bins[b].qd_max = depth;
		}
		if (i + 1 == n || depth <= 0)
			continue;
		t0 = e[i].t < s->first_ns ? s->first_ns : e[i].t;
		t1 = e[i + 1].t > s->last_ns ? s->last_ns : e[i + 1].t;
		while (t0 < t1) {
			size_t b = bin_of(s, t0);
			uint64_t bend = s->first_ns + (b + 1) * s->bin_ns;
			uint64_t seg = (t1 < bend ? t1 : bend) - t0;

			if (b + 1 == s->nr_bins && bend < t1)
				seg = t1 - t0;
			s->bins[b].qd_avg += (double)depth * (double)seg;
			t0 += seg;
		}
	}
	for (i = 0; i < s->nr_bins; i++)
		s->bins[i].qd_avg /= (double)s->bin_ns;
	free(e);
}

void trace_analyze(const struct trace_rq *rq, size_t nr, uint64_t start_ns,
		   uint64_t end_ns, struct trace_stats *s)
{
	uint64_t *dist = xcalloc(nr ? nr : 1, sizeof(*dist));
	uint64_t *lat = xcalloc(nr ? nr : 1, sizeof(*lat));
	const struct trace_rq *prev = NULL, *prev_rd = NULL;
	size_t nd = 0, nl = 0, i;
	double dsum = 0;

	memset(s, 0, sizeof(*s));
	s->layout_score = NAN;
	s->lat_p50_ms = s->lat_p95_ms = s->lat_p99_ms = s->lat_max_ms = NAN;
	s->min_sector = UINT64_MAX;
	s->first_ns = start_ns;
	s->last_ns = end_ns;
	if (!start_ns && !end_ns && nr) {
		s->first_ns = UINT64_MAX;
		for (i = 0; i < nr; i++) {
			uint64_t e = rq[i].complete_ns > rq[i].issue_ns ?
				     rq[i].complete_ns : rq[i].issue_ns;

			if (rq[i].issue_ns < s->first_ns)
				s->first_ns = rq[i].issue_ns;
			if (e > s->last_ns)
				s->last_ns = e;
		}
	}
	if (s->last_ns < s->first_ns)
		s->last_ns = s->first_ns;
	setup_bins(s);

	for (i = 0; i < nr; i++) {
		const struct trace_rq *r = &rq[i];
		uint64_t bytes = (uint64_t)r->nr_sector * 512;
		struct trace_bin *ib = &s->bins[bin_of(s, r->issue_ns)];
		struct trace_bin *cb = &s->bins[bin_of(
			s, r->complete_ns ? r->complete_ns : r->issue_ns)];
		int64_t d;

		s->reqs++;
		ib->ios++;
		if (r->complete_ns >= r->issue_ns && r->complete_ns)
			lat[nl++] = r->complete_ns - r->issue_ns;
		if (!is_data(r)) {
			s->other_reqs++;
			continue;
		}
		s->bytes += bytes;
		s->rqsize_hist[trace_log2_bin(bytes)]++;
		if (r->sector < s->min_sector)
			s->min_sector = r->sector;
		if (r->sector + r->nr_sector > s->max_sector)
			s->max_sector = r->sector + r->nr_sector;
		if (r->flags & TRQ_READ) {
			s->rd_reqs++;
			s->rd_bytes += bytes;
			cb->rd_bytes += (double)bytes;
			s->rd_blocks += (bytes + 4095) / 4096;
			if (prev_rd && r->sector !=
			    prev_rd->sector + prev_rd->nr_sector)
				s->rd_discontig++;
			prev_rd = r;
		} else {
			s->wr_reqs++;
			s->wr_bytes += bytes;
			cb->wr_bytes += (double)bytes;
		}
		if (trace_is_seek(prev, r, &d)) {
			uint64_t ad = d < 0 ? (uint64_t)-d : (uint64_t)d;

			s->seeks++;
			if (d > 0)
				s->fwd_seeks++;
			else
				s->bwd_seeks++;
			s->seekdist_hist[trace_log2_bin(ad)]++;
			dist[nd++] = ad;
			dsum += (double)ad;
			ib->seeks++;
		}
		prev = r;
	}
	if (s->min_sector == UINT64_MAX)
		s->min_sector = 0;
	if (nd) {
		qsort(dist, nd, sizeof(*dist), cmp_u64);
		s->seek_mean = dsum / (double)nd;
		s->seek_median = nd % 2 ? (double)dist[nd / 2]
			: ((double)dist[nd / 2 - 1] + (double)dist[nd / 2]) / 2;
	}
	if (s->rd_blocks)
		s->layout_score = 1.0 - (double)s->rd_discontig /
					(double)s->rd_blocks;
	if (nl) {
		qsort(lat, nl, sizeof(*lat), cmp_u64);
		s->lat_p50_ms = (double)pct(lat, nl, 0.50) / 1e6;
		s->lat_p95_ms = (double)pct(lat, nl, 0.95) / 1e6;
		s->lat_p99_ms = (double)pct(lat, nl, 0.99) / 1e6;
		s->lat_max_ms = (double)lat[nl - 1] / 1e6;
	}
	queue_depth(rq, nr, s);
	free(dist);
	free(lat);
}

void trace_stats_release(struct trace_stats *s)
{
	free(s->bins);
	s->bins = NULL;
	s->nr_bins = 0;
}

static void add(struct phase_rec *rec, const char *name, double v,
		const char *unit, enum better b)
{
	if (!isnan(v))
		phase_rec_add_metric(rec, name, v, unit, b);
}

/* Coarsen the bins by an integer factor so at most TRACE_METRIC_BINS
 * remain, and store rates per real second of each coarse bin. */
static void series_to_metrics(const struct trace_stats *s,
			      struct phase_rec *rec)
{
	size_t f = (s->nr_bins + TRACE_METRIC_BINS - 1) / TRACE_METRIC_BINS;
	uint64_t span = s->last_ns - s->first_ns;
	char name[64];

	if (!f)
		return;
	add(rec, "trace.ts.bin_s", (double)(f * s->bin_ns) / 1e9, "s",
	    BETTER_NONE);
	for (size_t i = 0, k = 0; i < s->nr_bins; i += f, k++) {
		double bytes = 0, ios = 0, seeks = 0, qd = 0, qmax = 0, w;
		uint64_t t0 = (uint64_t)i * s->bin_ns;
		uint64_t t1 = (uint64_t)(i + f) * s->bin_ns;
		size_t j;

		if (t1 > span)
			t1 = span;
		w = t1 > t0 ? (double)(t1 - t0) / 1e9
			    : (double)s->bin_ns / 1e9;
		for (j = i; j < i + f && j < s->nr_bins; j++) {
			bytes += s->bins[j].rd_bytes + s->bins[j].wr_bytes;
			ios += s->bins[j].ios;
			seeks += s->bins[j].seeks;
			qd += s->bins[j].qd_avg;
			if (s->bins[j].qd_max > qmax)
				qmax = s->bins[j].qd_max;
		}
		qd /= (double)(j - i);
		snprintf(name, sizeof(name), "trace.ts.%zu.MiB/s", k);
		add(rec, name, bytes / 1048576.0 / w, "MiB/s", BETTER_NONE);
		snprintf(name, sizeof(name), "trace.ts.%zu.requests/s", k);
		add(rec, name, ios / w, "requests/s", BETTER_NONE);
		snprintf(name, sizeof(name), "trace.ts.%zu.seeks/s", k);
		add(rec, name, seeks / w, "seeks/s", BETTER_NONE);
		snprintf(name, sizeof(name), "trace.ts.%zu.qd", k);
		add(rec, name, qd, "requests", BETTER_NONE);
	}
}

void trace_stats_to_metrics(const struct trace_stats *s, double wall_s,
			    struct phase_rec *rec)
{
	char name[64], lbl[16];

	add(rec, "trace.requests", (double)s->reqs, "requests", BETTER_NONE);
	add(rec, "trace.data_B", (double)s->bytes, "B", BETTER_NONE);
	add(rec, "trace.read_requests", (double)s->rd_reqs, "requests",
	    BETTER_NONE);
	add(rec, "trace.write_requests", (double)s->wr_reqs, "requests",
	    BETTER_NONE);
	add(rec, "trace.other_requests", (double)s->other_reqs, "requests",
	    BETTER_NONE);
	add(rec, "trace.read_B", (double)s->rd_bytes, "B", BETTER_NONE);
	add(rec, "trace.write_B", (double)s->wr_bytes, "B", BETTER_NONE);
	for (unsigned k = 0; k < TRACE_HIST_BINS; k++) {
		if (!s->rqsize_hist[k])
			continue;
		trace_bin_label(k, lbl, sizeof(lbl));
		snprintf(name, sizeof(name), "trace.rqsize.%s", lbl);
		add(rec, name, (double)s->rqsize_hist[k], "requests",
		    BETTER_NONE);
	}
	add(rec, "trace.seeks", (double)s->seeks, "seeks", BETTER_LOWER);
	if (wall_s > 0)
		add(rec, "trace.seeks/s", (double)s->seeks / wall_s, "seeks/s",
		    BETTER_LOWER);
	add(rec, "trace.seeks_fwd", (double)s->fwd_seeks, "seeks",
	    BETTER_NONE);
	add(rec, "trace.seeks_bwd", (double)s->bwd_seeks, "seeks",
	    BETTER_NONE);
	for (unsigned k = 0; k < TRACE_HIST_BINS; k++) {
		if (!s->seekdist_hist[k])
			continue;
		trace_bin_label(k, lbl, sizeof(lbl));
		snprintf(name, sizeof(name), "trace.seekdist.%s", lbl);
		add(rec, name, (double)s->seekdist_hist[k], "seeks",
		    BETTER_NONE);
	}
	if (s->seeks) {
		add(rec, "trace.seekdist_mean", s->seek_mean, "sectors",
		    BETTER_LOWER);
		add(rec, "trace.seekdist_median", s->seek_median, "sectors",
		    BETTER_LOWER);
	}
	add(rec, "trace.layout_score", s->layout_score, "ratio",
	    BETTER_HIGHER);
	add(rec, "trace.lat_p50_ms", s->lat_p50_ms, "ms", BETTER_LOWER);
	add(rec, "trace.lat_p95_ms", s->lat_p95_ms, "ms", BETTER_LOWER);
	add(rec, "trace.lat_p99_ms", s->lat_p99_ms, "ms", BETTER_LOWER);
	add(rec, "trace.lat_max_ms", s->lat_max_ms, "ms", BETTER_LOWER);
	if (wall_s > 0)
		add(rec, "trace.requests/s", (double)s->reqs / wall_s,
		    "requests/s",
		    BETTER_HIGHER);
	series_to_metrics(s, rec);
}

size_t trace_sample(const struct trace_rq *rq, size_t nr, uint64_t t0_ns,
		    size_t cap, struct rq_sample **out, uint64_t *total)
{
	size_t n = 0, k = 0, keep;
	size_t *idx;

	*out = NULL;
	for (size_t i = 0; i < nr; i++)
		n += is_data(&rq[i]) != 0;
	*total = n;
	keep = n < cap ? n : cap;
	if (!keep)
		return 0;
	idx = xcalloc(n, sizeof(*idx));
	for (size_t i = 0, j = 0; i < nr; i++)
		if (is_data(&rq[i]))
			idx[j++] = i;
	*out = xcalloc(keep, sizeof(**out));
	for (size_t j = 0; j < keep; j++) {
		/* 128-bit: n * j overflows 64 bits only for absurd n. */
		size_t i = (size_t)((unsigned __int128)j * n / keep);
		const struct trace_rq *r = &rq[idx[i]];
		struct rq_sample *s = &(*out)[k++];

		s->t_ns = r->issue_ns > t0_ns ? r->issue_ns - t0_ns : 0;
		s->sector = r->sector;
		s->bytes = r->nr_sector * 512;
		s->rw = r->flags & TRQ_READ ? 'R' : 'W';
	}
	free(idx);
	return k;
}

static bool in_list(const char *const *l, const char *name)
{
	for (; l && *l; l++)
		if (!strcmp(*l, name))
			return true;
	return false;
}

int trace_check_phases(const char *phases, const char *const *const *known,
		       size_t nr, char *err, size_t errlen)
{
	char *copy, *tok, *save = NULL, *bad = NULL;
	size_t len;

	if (!phases || !*phases)
		return 0;
	copy = xstrdup(phases);
	for (tok = strtok_r(copy, ",", &save); tok && !bad;
	     tok = strtok_r(NULL, ",", &save)) {
		bool found = false;

		for (size_t i = 0; i < nr && !found; i++)
			found = in_list(known[i], tok);
		if (!found)
			bad = tok;
	}
	if (!bad) {
		free(copy);
		return 0;
	}
	len = (size_t)snprintf(err, errlen,
			       "unknown phase '%s' for --trace (valid:", bad);
	/* Every name once, in the order the workloads list them. */
	for (size_t i = 0; i < nr; i++) {
		for (const char *const *l = known[i]; l && *l; l++) {
			bool dup = false;

			for (size_t j = 0; j <= i && !dup; j++)
				for (const char *const *m = known[j];
				     m && *m && m != l && !dup; m++)
					dup = !strcmp(*m, *l);
			if (!dup && len < errlen)
				len += (size_t)snprintf(err + len, errlen - len,
							"%s %s",
							len && err[len - 1] ==
							':' ? "" : ",", *l);
		}
	}
	if (len < errlen)
		snprintf(err + len, errlen - len, ")");
	free(copy);
	return -1;
}
