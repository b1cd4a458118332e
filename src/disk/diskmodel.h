/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmodel.h - what a block request stream would cost on a rotating
 * disk.  Pure: a profile (text, parsed here) and an array of requests in
 * issue order go in, modelled service time comes out; no I/O except
 * disk_profile_load() reading a profile file.
 *
 * The model (README.md, "Modelled disk time"):
 *  - geometry: the sustained media rate falls linearly over the LBA
 *    range from the outer to the inner zone's figure; a track holds one
 *    revolution of it, a cylinder `heads` tracks, so the cylinder of
 *    LBA fraction x is N ln(r_o / r(x)) / ln(r_o / r_i), N the number
 *    of cylinders (derived from capacity, heads, rpm and rates unless
 *    the profile names it);
 *  - seek time over a distance of d cylinders (Ruemmler & Wilkes 1994):
 *    a + b sqrt(d) below a boundary B, c + e d above it, fitted so
 *    seek(1) is the track-to-track figure, seek(N) the full stroke and
 *    the mean over all seek combinations (the datasheets' "weighted
 *    average of all possible seeks", distances weighted by N - d) the
 *    average-seek figure; the two pieces meet with equal slope, or, for
 *    averages above what a pure square root gives, the long piece flattens
 *    out at the full-stroke time;
 *  - rotational latency: none for a request that starts where the
 *    previous media access ended, else half a revolution (or, with
 *    `rotation angular`, the wait from the head's angle after the seek
 *    to the sector's angle, the platter turning at rpm from angle 0);
 *  - transfer at the zone rate of the request's start;
 *  - a track buffer of `cache_segments` segments: a read that misses
 *    fills a segment up to `readahead_kib` beyond its end; later reads
 *    inside a segment need no positioning (their media time is charged:
 *    the drive read those sectors once), and while the head streams a
 *    segment it keeps reading ahead; writes go to the media and
 *    invalidate what they overlap (no write cache, no reordering);
 *  - a queue of `queue_depth` requests in issue order from which the
 *    scheduler (fifo, sstf, elevator) picks the next; the disk is the
 *    bottleneck: requests are served back to back, think time is not
 *    modelled, so the result is the disk's busy time.
 */
#ifndef FSLAB_DISK_DISKMODEL_H
#define FSLAB_DISK_DISKMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISK_DEFAULT_PROFILE "desktop-7200"
/* What --disk-model takes, for the help of every command that has it. */
#define DISK_PROFILES_HELP \
	"desktop-7200, laptop-5400, enterprise-15k or a profile file " \
	"(README \"Modelled disk time\")"

enum disk_sched { DISK_FIFO, DISK_SSTF, DISK_ELEVATOR };
enum disk_rot { DISK_ROT_HALF, DISK_ROT_ANGULAR };

struct disk_profile {
	char *name;
	double rpm;
	double capacity;        /* bytes */
	double heads;           /* recording surfaces */
	double cylinders;       /* 0: derived */
	double t2t_ms, avg_ms, full_ms;
	double outer_mbs, inner_mbs;  /* sustained, MB/s = 10^6 B/s */
	double overhead_ms;     /* per command */
	double readahead;       /* bytes; 0: no track buffer */
	unsigned segments;
	unsigned queue_depth;
	enum disk_sched sched;
	enum disk_rot rot;
	/* Fitted by the parser. */
	double ncyl, rev_ms;
	double seek_a, seek_b, seek_c, seek_e, seek_bound;
};

/* The shipped profiles (examples/disks/NAME.disk), NULL-terminated. */
extern const char *const disk_profile_names[];
/* A shipped profile's text, or NULL. */
const char *disk_profile_builtin(const char *name);
/*
 * Parse and fit.  origin names the text in "origin:LINE: reason"
 * errors (printed).  0 or -1; on -1 nothing needs releasing.
 */
int disk_profile_parse(const char *text, const char *origin,
		       struct disk_profile *p);
/*
 * NAME (shipped) or FILE, optionally followed by ":key=value,..." lines
 * that override the profile's ("desktop-7200:queue_depth=32,
 * scheduler=elevator").  0 or -1 (message printed).
 */
int disk_profile_load(const char *spec, struct disk_profile *p);
void disk_profile_release(struct disk_profile *p);

/*
 * For the parser: fit the seek curve to p's t2t, average and full-stroke
 * figures over p->ncyl cylinders.  0, or -1 with the averages the curve
 * family can reach in *lo..*hi.
 */
int disk_fit_seek(struct disk_profile *p, double *lo, double *hi);

/* Continuous cylinder of a sector (clamped to the disk). */
double disk_cyl(const struct disk_profile *p, uint64_t sector);
/* The first sector of (continuous) cylinder c. */
uint64_t disk_sector_of_cyl(const struct disk_profile *p, double c);
/* Sustained media rate at a sector, bytes per second. */
double disk_rate(const struct disk_profile *p, uint64_t sector);
/* Seek time over d cylinders, ms (0 for d < 1: same cylinder). */
double disk_seek_ms(const struct disk_profile *p, double d);
/* The mean of the seek curve over all seek combinations, ms. */
double disk_seek_mean_ms(const struct disk_profile *p);

struct disk_req {
	uint64_t sector;
	uint32_t nr_sector;
	bool write;
};

struct disk_result {
	double time_s;          /* total modelled service time */
	double seek_s, rot_s, xfer_s, overhead_s;
	uint64_t reqs, bytes;
	uint64_t positionings;  /* accesses that needed seek or rotation */
	uint64_t seeks;         /* of them, to another cylinder */
	uint64_t hits;          /* reads served from the track buffer */
};

/* Model rq[0..nr) (issue order) on p.  Deterministic. */
void disk_model_run(const struct disk_profile *p, const struct disk_req *rq,
		    size_t nr, struct disk_result *res);

#endif
