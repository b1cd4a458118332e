/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analyze.h - figures from a block-I/O trace: seek classification,
 * request-size and seek-distance histograms, the dynamic layout score,
 * latency percentiles and time series.  Pure: it sees only an array of
 * requests, so unit tests feed it synthetic streams with known answers.
 *
 * Definitions (also in README.md, "Block-I/O tracing"):
 *  - a seek is a request whose start sector is more than TRACE_SEEK_SECTORS
 *    from the end of the previous request (seekwatcher's rule), in issue
 *    order; forward when it starts after that end, backward otherwise;
 *  - the dynamic layout score (Conway et al., FAST'17) of the reads is
 *    1 - (discontiguous read requests) / (4 KiB blocks read), where a read
 *    is discontiguous unless it starts exactly where the previous read
 *    ended; the first read does not count;
 *  - histograms use log2 bins: bin k holds values in [2^k, 2^(k+1)).
 */
#ifndef FSLAB_TRACE_ANALYZE_H
#define FSLAB_TRACE_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "measure/result.h"

#define TRACE_SEEK_SECTORS 128
#define TRACE_HIST_BINS 48
#define TRACE_BIN_NS 100000000ULL  /* 100 ms */
#define TRACE_MAX_BINS 2000        /* time series bound */
#define TRACE_METRIC_BINS 100      /* bound for trace.ts.<i>.* metrics */
#define TRACE_SAMPLE_MAX 20000     /* requests stored per traced phase */

enum trace_rq_flags {
	TRQ_READ = 1 << 0,
	TRQ_WRITE = 1 << 1,
	TRQ_DISCARD = 1 << 2,
	TRQ_FLUSH = 1 << 3,   /* a flush/FUA marker, possibly without data */
	TRQ_SYNC = 1 << 4,
	TRQ_META = 1 << 5,
};

/* One request, as issued to the driver and (maybe) completed. */
struct trace_rq {
	uint64_t issue_ns;     /* trace clock, ns */
	uint64_t complete_ns;  /* 0 when the completion was not seen */
	uint64_t sector;       /* start, 512-byte sectors */
	uint32_t nr_sector;
	uint32_t flags;        /* enum trace_rq_flags */
};

/* A raw tracepoint occurrence, before issues and completions are paired. */
struct trace_ev {
	uint64_t ts_ns;
	uint64_t sector;
	uint32_t nr_sector;
	uint32_t flags;
	int complete;          /* 0: block_rq_issue, 1: block_rq_complete */
};

struct trace_bin {
	double rd_bytes, wr_bytes;
	double ios;            /* requests issued in the bin */
	double seeks;
	double qd_avg;         /* time-weighted requests in flight */
	double qd_max;
};

struct trace_stats {
	uint64_t reqs, rd_reqs, wr_reqs, other_reqs; /* other: flush, discard */
	uint64_t bytes, rd_bytes, wr_bytes;
	uint64_t rqsize_hist[TRACE_HIST_BINS];    /* bytes, log2 */
	uint64_t seeks, fwd_seeks, bwd_seeks;
	uint64_t seekdist_hist[TRACE_HIST_BINS];  /* sectors, log2 */
	double seek_mean, seek_median;            /* sectors; 0 without seeks */
	uint64_t rd_blocks;                       /* 4 KiB blocks read */
	uint64_t rd_discontig;
	double layout_score;                      /* NAN without reads */
	double lat_p50_ms, lat_p95_ms, lat_p99_ms, lat_max_ms; /* NAN: none */
	uint64_t first_ns, last_ns;               /* span of the trace */
	uint64_t bin_ns;                          /* width of the bins */
	struct trace_bin *bins;
	size_t nr_bins;
	uint64_t min_sector, max_sector;          /* range touched */
};

/* log2 bin of v (v = 0 goes to bin 0); clamps to the last bin. */
unsigned trace_log2_bin(uint64_t v);
/* "512", "4k", "1m": the lower bound of bin k, for metric names. */
void trace_bin_label(unsigned k, char *buf, size_t len);

/*
 * Is request rq a seek after prev?  *dist gets the signed distance in
 * sectors from prev's end to rq's start.  prev may be NULL (never a seek).
 */
int trace_is_seek(const struct trace_rq *prev, const struct trace_rq *rq,
		  int64_t *dist);

/*
 * Pair issues with completions (by start sector, first in first out) and
 * return the requests in issue order; completions without an issue are
 * dropped, issues without a completion keep complete_ns = 0.
 */
struct trace_rq *trace_pair_events(const struct trace_ev *ev, size_t nr,
				   size_t *nr_out);

/*
 * Compute everything.  rq must be in issue order.  start_ns/end_ns bound
 * the time series (0, 0 = the span of the requests).  s->bins is
 * allocated: release with trace_stats_release().
 */
void trace_analyze(const struct trace_rq *rq, size_t nr, uint64_t start_ns,
		   uint64_t end_ns, struct trace_stats *s);
void trace_stats_release(struct trace_stats *s);

/*
 * Add the figures to a phase as trace.* metrics (see README.md); the
 * time series only in at most TRACE_METRIC_BINS coarser bins.  wall_s is
 * the duration seeks/s and rates refer to.
 */
void trace_stats_to_metrics(const struct trace_stats *s, double wall_s,
			    struct phase_rec *rec);

/*
 * The request sample stored with a traced phase: the data requests
 * (reads and writes with a size; no flushes, no discards) of rq, with
 * issue times relative to t0_ns, evenly thinned to at most cap of them
 * when there are more (request j*n/cap for j = 0..cap-1, so the sample
 * spans the whole trace).  *out is allocated (NULL when empty); returns
 * how many are in it, *total how many data requests there were.
 */
size_t trace_sample(const struct trace_rq *rq, size_t nr, uint64_t t0_ns,
		    size_t cap, struct rq_sample **out, uint64_t *total);

/*
 * `--trace=PHASE,...`: is every comma-separated name in phases one of
 * the NULL-terminated lists in known[0..nr)?  0 if so (or phases is NULL
 * or empty); else -1 with "unknown phase 'X' for --trace (valid: a, b,
 * ...)" in err, the valid names deduplicated in list order.
 */
int trace_check_phases(const char *phases, const char *const *const *known,
		       size_t nr, char *err, size_t errlen);

#endif
