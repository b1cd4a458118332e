/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * distribute.h - the pure parts of the distribute workload
 * (distribute.c), an afdbench-like file distribution pipeline: options
 * and their checks, file names and sizes, how work is split into shares
 * and batches, the accounting ledger that proves every delivery, and
 * the bounded interval series.  None of it touches a disk, so
 * tests/unit/test_distribute.c can pin it down exactly.
 */
#ifndef FSLAB_DISTRIBUTE_H
#define FSLAB_DISTRIBUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dist_deliver { DIST_LINK, DIST_COPY, DIST_MOVE };
enum dist_fsync { DIST_FSYNC_NONE, DIST_FSYNC_FILE, DIST_FSYNC_BATCH };
enum dist_until { DIST_DRAINED, DIST_TIME };

#define DIST_DEFAULT_FILES 10000  /* burst population when files=0 */
#define DIST_MAX_THREADS 1024
#define DIST_MAX_SIZE (1ULL << 30)

struct dist_opts {
	long long sources;    /* source directories (producers) per instance */
	long long fanout;     /* destinations per file */
	long long instances;  /* independent pipelines */
	long long files;      /* burst population; 0: default unless rate */
	long long rate;       /* open-loop files/s, all producers; 0: burst */
	char *size;           /* "N" or "MIN-MAX" */
	long long batch;      /* files per scanner pass */
	int deliver;          /* enum dist_deliver */
	long long workers;    /* delivery threads per destination */
	int fsync;            /* enum dist_fsync */
	int until;            /* enum dist_until */
	long long duration;   /* s: production (rate), run (until=time) */
	long long timeout;    /* s: hard limit on the distribute phase */
	long long seed;       /* 0: the run seed */
};

/* Parse "N" or "MIN-MAX" (sizes with k/m/g suffixes).  0 or -1 + err. */
int dist_parse_size(const char *s, uint64_t *min, uint64_t *max, char *err,
		    size_t errlen);
/* Cross-field option rules.  0, or -1 with the reason in err. */
int dist_check(const struct dist_opts *o, char *err, size_t errlen);
/* The burst population files=0 stands for (0 in rate mode). */
uint64_t dist_population(const struct dist_opts *o);
/* Threads one run starts: per instance sources + 1 + fanout * workers. */
uint64_t dist_threads(const struct dist_opts *o);

/* The size of file (inst, src, seq): a hash of them, uniform in [min,max]. */
uint64_t dist_file_size(uint64_t seed, unsigned inst, unsigned src,
			uint64_t seq, uint64_t min, uint64_t max);
/* "s<src>-<seq, 8 digits>"; buf needs 32 bytes. */
void dist_file_name(char *buf, size_t len, unsigned src, uint64_t seq);
/* Inverse of dist_file_name; dot names and anything else give -1. */
int dist_parse_name(const char *name, unsigned *src, uint64_t *seq);
/* Share idx of total split into parts (the first ones get one more). */
uint64_t dist_share(uint64_t total, uint64_t parts, uint64_t idx);
/* Scanner passes needed for n files, and the length of pass i. */
uint64_t dist_batches(uint64_t n, uint64_t batch);
uint64_t dist_batch_len(uint64_t n, uint64_t batch, uint64_t i);

/*
 * The ledger: where every (destination, file) pair was found.  Every
 * produced file must be found exactly once per destination: delivered
 * (in the destination), outgoing (in an outgoing directory for that
 * destination) or upstream (in a source or pool directory, which counts
 * for every destination).  Drained means only "delivered" is allowed.
 */
enum dist_loc { DIST_LOC_DST, DIST_LOC_OUT, DIST_LOC_UP };

struct dist_ledger {
	unsigned nsrc, fanout;
	uint64_t *first;      /* nsrc + 1 offsets into the per-file arrays */
	uint8_t *dst;         /* fanout * total: times found delivered */
	uint8_t *out;         /* fanout * total: times found outgoing */
	uint8_t *up;          /* total: times found upstream */
};

enum dist_flaw { DIST_OK, DIST_LOST, DIST_DUPLICATE, DIST_LEFT };

struct dist_verdict {
	uint64_t expected;    /* produced * fanout */
	uint64_t delivered;   /* pairs found exactly once, delivered */
	uint64_t backlog;     /* pairs found exactly once, not delivered */
	uint64_t lost, duplicated;
	/* the first flaw, in (destination, source, seq) order */
	enum dist_flaw flaw;
	unsigned flaw_dest, flaw_src;
	uint64_t flaw_seq;
};

void dist_ledger_init(struct dist_ledger *l, unsigned nsrc,
		      const uint64_t *produced, unsigned fanout);
void dist_ledger_release(struct dist_ledger *l);
/* Record one sighting; -1 when (src, seq) was never produced. */
int dist_ledger_mark(struct dist_ledger *l, enum dist_loc loc,
		     unsigned dest, unsigned src, uint64_t seq);
/* Count and find the first flaw; backlog is a flaw (LEFT) if drained. */
void dist_ledger_check(const struct dist_ledger *l, bool drained,
		       struct dist_verdict *v);
static inline bool dist_verdict_ok(const struct dist_verdict *v)
{
	return v->flaw == DIST_OK;
}

/*
 * Interval series: one slot per tick, at most DIST_MAX_INTERVALS; when
 * full, neighbouring slots merge pairwise and a slot spans twice the
 * ticks, so a long run keeps a bounded, evenly spaced series.
 */
#define DIST_MAX_INTERVALS 600

struct dist_slot {
	double secs;          /* real time covered */
	uint64_t delivered;   /* deliveries in the slot */
	uint64_t source, pool, outgoing; /* backlog at the slot's end */
};

struct dist_intervals {
	struct dist_slot v[DIST_MAX_INTERVALS];
	size_t nr;
	unsigned ticks_per_slot;  /* 1, 2, 4 ... */
	unsigned ticks;           /* ticks in the open slot v[nr - 1] */
};

void dist_intervals_init(struct dist_intervals *iv);
/* Add one tick of secs real time. */
void dist_intervals_tick(struct dist_intervals *iv, double secs,
			 uint64_t delivered, uint64_t source, uint64_t pool,
			 uint64_t outgoing);

#endif
