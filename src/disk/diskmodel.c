/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmodel.c - geometry, the seek curve and the service-time model of
 * diskmodel.h.  Nothing here reads a clock or a file: the same stream
 * and profile always give the same time, so an A/A comparison of a
 * layout shows no noise at all.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "disk/diskmodel.h"
#include "util/util.h"

/* ---- geometry ---- */

static double lba_fraction(const struct disk_profile *p, uint64_t sector)
{
	double x = (double)sector * 512.0 / p->capacity;

	return x < 0 ? 0 : x > 1 ? 1 : x;
}

static double rate_at(const struct disk_profile *p, double x)
{
	return (p->outer_mbs + (p->inner_mbs - p->outer_mbs) * x) * 1e6;
}

double disk_rate(const struct disk_profile *p, uint64_t sector)
{
	return rate_at(p, lba_fraction(p, sector));
}

/* The rate falls linearly in x and a cylinder holds heads revolutions of
 * it, so dc/dx is proportional to 1/r(x): c(x) = N ln(r_o/r(x)) /
 * ln(r_o/r_i), or N x when the rate is constant. */
static double cyl_of_x(const struct disk_profile *p, double x)
{
	double ro = p->outer_mbs, ri = p->inner_mbs;

	if (ro - ri < 1e-9 * ro)
		return p->ncyl * x;
	return p->ncyl * log(ro / (ro + (ri - ro) * x)) / log(ro / ri);
}

double disk_cyl(const struct disk_profile *p, uint64_t sector)
{
	return cyl_of_x(p, lba_fraction(p, sector));
}

uint64_t disk_sector_of_cyl(const struct disk_profile *p, double c)
{
	double ro = p->outer_mbs, ri = p->inner_mbs, x;

	if (c <= 0)
		return 0;
	if (c > p->ncyl)
		c = p->ncyl;
	if (ro - ri < 1e-9 * ro)
		x = c / p->ncyl;
	else
		x = (ro - ro * pow(ri / ro, c / p->ncyl)) / (ro - ri);
	return (uint64_t)(x * p->capacity / 512.0);
}

/* ---- the seek curve ---- */

double disk_seek_ms(const struct disk_profile *p, double d)
{
	if (d < 1)
		return 0;
	if (d < p->seek_bound)
		return p->seek_a + p->seek_b * sqrt(d);
	return p->seek_c + p->seek_e * d;
}

/*
 * The mean over distances with density 2 (N - d) / N^2 on [0, N] (the
 * continuous form of the datasheets' weight N + 1 - n), each piece in
 * closed form.  Below one cylinder the curve is not used (a seek is at
 * least track-to-track), so [0, 1] counts at seek(1).
 */
static double curve_mean(double n, double a, double b, double c, double e,
			 double bd)
{
	double s = (a + b) * (n - 0.5);

	s += a * (n * (bd - 1) - (bd * bd - 1) / 2);
	s += b * (2 * n * (pow(bd, 1.5) - 1) / 3 -
		  2 * (pow(bd, 2.5) - 1) / 5);
	s += c * (n * (n - bd) - (n * n - bd * bd) / 2);
	s += e * (n * (n * n - bd * bd) / 2 - (n * n * n - bd * bd * bd) / 3);
	return 2 * s / (n * n);
}

double disk_seek_mean_ms(const struct disk_profile *p)
{
	return curve_mean(p->ncyl, p->seek_a, p->seek_b, p->seek_c, p->seek_e,
			  p->seek_bound);
}

/*
 * One shape parameter s in [0, 2) spans the family.  s <= 1: boundary
 * B = N^s and the pieces meet with equal slope (b / (2 sqrt B) = e),
 * from almost linear (mean near a third of the stroke) to a pure square
 * root (mean 8/15 of it); s > 1: B = N^(2-s) and the long piece is flat
 * at the full-stroke time, the mean rising towards the full stroke.
 * The mean grows with s, so bisection finds the average.
 */
static void curve_at(const struct disk_profile *p, double s, double *a,
		     double *b, double *c, double *e, double *bd)
{
	double n = p->ncyl, t = p->t2t_ms, f = p->full_ms;

	if (s <= 1) {
		double r;

		*bd = pow(n, s);
		if (*bd < 1)
			*bd = 1;
		r = sqrt(*bd);
		*b = (f - t) / (r / 2 + n / (2 * r) - 1);
		*a = t - *b;
		*e = *b / (2 * r);
		*c = *a + *b * r / 2;
	} else {
		*bd = pow(n, 2 - s);
		if (*bd < 1.0001)
			*bd = 1.0001;
		*b = (f - t) / (sqrt(*bd) - 1);
		*a = t - *b;
		*c = f;
		*e = 0;
	}
}

static double mean_at(const struct disk_profile *p, double s)
{
	double a, b, c, e, bd;

	curve_at(p, s, &a, &b, &c, &e, &bd);
	return curve_mean(p->ncyl, a, b, c, e, bd);
}

int disk_fit_seek(struct disk_profile *p, double *lo, double *hi)
{
	double s0 = 0, s1 = 2 - 1e-9;

	*lo = mean_at(p, s0);
	*hi = mean_at(p, s1);
	if (!(p->avg_ms >= *lo && p->avg_ms <= *hi))
		return -1;
	for (int i = 0; i < 100; i++) {
		double m = (s0 + s1) / 2;

		if (mean_at(p, m) < p->avg_ms)
			s0 = m;
		else
			s1 = m;
	}
	curve_at(p, (s0 + s1) / 2, &p->seek_a, &p->seek_b, &p->seek_c,
		 &p->seek_e, &p->seek_bound);
	return 0;
}

/* ---- the service-time model ---- */

struct segment {
	uint64_t s, e;          /* buffered sectors [s, e) */
	uint64_t used;          /* LRU stamp; 0 = empty */
};

struct disk_state {
	const struct disk_profile *p;
	uint64_t head;          /* sector under the head: where the last
				 * media access (or its read-ahead) ended */
	long stream;            /* segment the head streams, or -1 */
	double clock_ms;        /* for the angular position */
	struct segment *seg;
	uint64_t tick;
	struct disk_result *res;
};

static double xfer_ms(const struct disk_profile *p, uint64_t sector,
		      uint64_t nr)
{
	return (double)nr * 512.0 / disk_rate(p, sector) * 1e3;
}

static long find_segment(const struct disk_state *st, uint64_t sector)
{
	for (unsigned i = 0; i < st->p->segments; i++)
		if (st->seg[i].used && st->seg[i].s <= sector &&
		    sector < st->seg[i].e)
			return (long)i;
	return -1;
}

static long new_segment(struct disk_state *st)
{
	unsigned best = 0;

	for (unsigned i = 1; i < st->p->segments; i++)
		if (st->seg[i].used < st->seg[best].used)
			best = i;
	return (long)best;
}

/* The angle (in revolutions) a sector passes under the head at. */
static double sector_angle(const struct disk_profile *p, uint64_t sector)
{
	double tracks = disk_cyl(p, sector) * p->heads;

	return tracks - floor(tracks);
}

/* Seek and rotate to sector unless the head is there; adds to res. */
static double position(struct disk_state *st, uint64_t sector)
{
	const struct disk_profile *p = st->p;
	double d, seek, rot;

	if (sector == st->head)
		return 0;
	d = fabs(floor(disk_cyl(p, sector)) - floor(disk_cyl(p, st->head)));
	seek = disk_seek_ms(p, d);
	if (p->rot == DISK_ROT_ANGULAR) {
		double at = (st->clock_ms + seek) / p->rev_ms;
		double w = sector_angle(p, sector) - (at - floor(at));

		rot = (w - floor(w)) * p->rev_ms;
	} else {
		rot = p->rev_ms / 2;
	}
	st->res->positionings++;
	if (d >= 1)
		st->res->seeks++;
	st->res->seek_s += seek / 1e3;
	st->res->rot_s += rot / 1e3;
	return seek + rot;
}

static double media(struct disk_state *st, uint64_t s, uint64_t nr)
{
	double t = position(st, s), x = xfer_ms(st->p, s, nr);

	st->res->xfer_s += x / 1e3;
	st->head = s + nr;
	return t + x;
}

static double serve(struct disk_state *st, const struct disk_req *r)
{
	const struct disk_profile *p = st->p;
	uint64_t s = r->sector, e = r->sector + r->nr_sector;
	uint64_t ra = (uint64_t)(p->readahead / 512);
	double t = p->overhead_ms;
	long k;

	st->res->overhead_s += p->overhead_ms / 1e3;
	if (r->write || !p->segments || !ra) {
		t += media(st, s, r->nr_sector);
		st->stream = -1;
		for (unsigned i = 0; r->write && i < p->segments; i++)
			if (st->seg[i].used && st->seg[i].s < e &&
			    s < st->seg[i].e)
				st->seg[i].used = 0;
		return t;
	}
	k = find_segment(st, s);
	if (k >= 0) {
		struct segment *g = &st->seg[k];
		uint64_t hit = e < g->e ? e : g->e;
		double x = xfer_ms(p, s, hit - s);

		/* Its sectors came off the media once: that time is real. */
		st->res->xfer_s += x / 1e3;
		t += x;
		g->used = ++st->tick;
		if (hit == e) {
			st->res->hits++;
			/* The drive keeps reading ahead of a stream it
			 * serves: the head stays at the segment's end. */
			if (st->stream == k && e + ra > g->e)
				g->e = st->head = e + ra;
			return t;
		}
		s = g->e;
	} else if (st->stream >= 0 && s == st->seg[st->stream].e) {
		k = st->stream;
	} else {
		k = new_segment(st);
		st->seg[k].s = s;
		st->seg[k].used = ++st->tick;
	}
	t += media(st, s, e - s);
	st->seg[k].e = st->head = e + ra;
	st->stream = k;
	return t;
}

/* Estimated positioning cost of r from the current state, for SSTF. */
static double cost_guess(const struct disk_state *st, const struct disk_req *r)
{
	if (r->sector == st->head ||
	    (!r->write && st->p->segments && st->p->readahead > 0 &&
	     find_segment(st, r->sector) >= 0))
		return -1;
	return disk_seek_ms(st->p, fabs(floor(disk_cyl(st->p, r->sector)) -
					floor(disk_cyl(st->p, st->head))));
}

/* Distance along a C-LOOK sweep: ahead of the head first, nearest
 * first; behind it only after the wrap to the lowest sector. */
static uint64_t ahead(const struct disk_state *st, uint64_t sector)
{
	return sector >= st->head ? sector - st->head
				  : UINT64_MAX / 2 + sector;
}

/*
 * Index into q[0..n) of the request to serve next.  Free ones (buffer
 * hits, continuations) go first, oldest first.  SSTF: the shortest seek,
 * ties to the nearest ahead.  Elevator: C-LOOK, the nearest ahead of the
 * head in ascending order, wrapping to the lowest; one direction only,
 * so a run is never served backwards (LOOK's downward sweep would).
 */
static size_t pick(const struct disk_state *st, const struct disk_req *rq,
		   const size_t *q, size_t n)
{
	size_t best = 0;
	double bc = INFINITY;

	if (st->p->sched == DISK_FIFO || n == 1)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (cost_guess(st, &rq[q[i]]) < 0)
			return i;
	for (size_t i = 0; i < n; i++) {
		const struct disk_req *r = &rq[q[i]];
		double c = st->p->sched == DISK_SSTF ? cost_guess(st, r) : 0;

		if (c < bc || (c == bc && ahead(st, r->sector) <
			       ahead(st, rq[q[best]].sector))) {
			bc = c;
			best = i;
		}
	}
	return best;
}

void disk_model_run(const struct disk_profile *p, const struct disk_req *rq,
		    size_t nr, struct disk_result *res)
{
	unsigned depth = p->queue_depth ? p->queue_depth : 1;
	size_t *q = xcalloc(depth, sizeof(*q));
	struct disk_state st = {
		.p = p, .stream = -1, .res = res,
	};
	size_t next = 0, n = 0;
	double total = 0;

	memset(res, 0, sizeof(*res));
	st.seg = xcalloc(p->segments ? p->segments : 1, sizeof(*st.seg));
	while (next < nr || n) {
		size_t i;
		double t;

		while (n < depth && next < nr)
			q[n++] = next++;
		i = pick(&st, rq, q, n);
		t = serve(&st, &rq[q[i]]);
		res->reqs++;
		res->bytes += (uint64_t)rq[q[i]].nr_sector * 512;
		total += t;
		st.clock_ms += t;
		memmove(q + i, q + i + 1, (n - i - 1) * sizeof(*q));
		n--;
	}
	res->time_s = total / 1e3;
	free(st.seg);
	free(q);
}
