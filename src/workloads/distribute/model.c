/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.c - distribute's pure helpers: sizes, names, shares, the
 * delivery ledger and the interval sampler (declared in distribute.h,
 * unit-tested).
 */
#include "workloads/distribute/distribute.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/splitmix.h"
#include "util/util.h"

/* ---- pure helpers (declared in distribute.h, unit-tested) ---- */

int dist_parse_size(const char *s, uint64_t *min, uint64_t *max, char *err,
		    size_t errlen)
{
	const char *dash = strchr(s, '-');
	char *a;
	int bad;

	if (!dash) {
		if (parse_size(s, min)) {
			snprintf(err, errlen, "'%s' is not a size for 'size'",
				 s);
			return -1;
		}
		*max = *min;
	} else {
		a = xstrndup(s, (size_t)(dash - s));
		bad = parse_size(a, min) || parse_size(dash + 1, max);
		free(a);
		if (bad) {
			snprintf(err, errlen, "'%s' is not a size or a "
				 "range MIN-MAX for 'size'", s);
			return -1;
		}
		if (*min > *max) {
			snprintf(err, errlen, "size range '%s' has its "
				 "minimum above its maximum", s);
			return -1;
		}
	}
	if (*max > DIST_MAX_SIZE) {
		snprintf(err, errlen, "size '%s' is above the 1G limit", s);
		return -1;
	}
	return 0;
}

uint64_t dist_threads(const struct dist_opts *o)
{
	return (uint64_t)o->instances *
	       ((uint64_t)o->sources + 1 + (uint64_t)o->fanout *
		(uint64_t)o->workers);
}

int dist_check(const struct dist_opts *o, char *err, size_t errlen)
{
	uint64_t min, max;

	if (o->files && o->rate) {
		snprintf(err, errlen, "'files' (burst) and 'rate' (open "
			 "loop) are exclusive: set one");
		return -1;
	}
	if (o->fanout < 1 || o->sources < 1 || o->instances < 1 ||
	    o->workers < 1 || o->batch < 1) {
		snprintf(err, errlen, "'fanout', 'sources', 'instances', "
			 "'workers' and 'batch' must be at least 1");
		return -1;
	}
	if (dist_parse_size(o->size ? o->size : "", &min, &max, err,
			    errlen))
		return -1;
	if (dist_threads(o) > DIST_MAX_THREADS) {
		snprintf(err, errlen, "%llu threads (instances x (sources + "
			 "1 + fanout x workers)) is above the limit of %d",
			 (unsigned long long)dist_threads(o),
			 DIST_MAX_THREADS);
		return -1;
	}
	if ((o->rate || o->until == DIST_TIME) && o->timeout < o->duration) {
		snprintf(err, errlen, "'timeout' (%llds) is below "
			 "'duration' (%llds)", o->timeout, o->duration);
		return -1;
	}
	return 0;
}

uint64_t dist_population(const struct dist_opts *o)
{
	if (o->rate)
		return 0;
	return o->files ? (uint64_t)o->files : DIST_DEFAULT_FILES;
}

uint64_t dist_file_size(uint64_t seed, unsigned inst, unsigned src,
			uint64_t seq, uint64_t min, uint64_t max)
{
	/* splitmix64: a good 64-bit mix, so sizes need no table */
	uint64_t h = splitmix64(splitmix64(splitmix64(seed) ^ inst) ^
				((uint64_t)src << 40) ^ seq);

	if (max <= min)
		return min;
	return min + h % (max - min + 1);
}

void dist_file_name(char *buf, size_t len, unsigned src, uint64_t seq)
{
	snprintf(buf, len, "s%u-%08llu", src, (unsigned long long)seq);
}

int dist_parse_name(const char *name, unsigned *src, uint64_t *seq)
{
	const char *p = name;
	uint64_t s = 0, q = 0;
	size_t digits = 0;

	if (*p++ != 's' || *p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		s = s * 10 + (uint64_t)(*p++ - '0');
		if (s > UINT_MAX)
			return -1;
	}
	if (*p++ != '-')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (q > (UINT64_MAX - 9) / 10)
			return -1;
		q = q * 10 + (uint64_t)(*p - '0');
	}
	if (*p || digits < 8)
		return -1;
	*src = (unsigned)s;
	*seq = q;
	return 0;
}

uint64_t dist_share(uint64_t total, uint64_t parts, uint64_t idx)
{
	if (!parts || idx >= parts)
		return 0;
	return total / parts + (idx < total % parts);
}

uint64_t dist_batches(uint64_t n, uint64_t batch)
{
	return batch ? (n + batch - 1) / batch : 0;
}

uint64_t dist_batch_len(uint64_t n, uint64_t batch, uint64_t i)
{
	if (!batch || i * batch >= n)
		return 0;
	return n - i * batch < batch ? n - i * batch : batch;
}

void dist_ledger_init(struct dist_ledger *l, unsigned nsrc,
		      const uint64_t *produced, unsigned fanout)
{
	uint64_t total;

	l->nsrc = nsrc;
	l->fanout = fanout;
	l->first = xcalloc(nsrc + 1, sizeof(*l->first));
	for (unsigned s = 0; s < nsrc; s++)
		l->first[s + 1] = l->first[s] + produced[s];
	total = l->first[nsrc];
	l->dst = xcalloc((size_t)(total * fanout) + 1, 1);
	l->out = xcalloc((size_t)(total * fanout) + 1, 1);
	l->up = xcalloc((size_t)total + 1, 1);
}

void dist_ledger_release(struct dist_ledger *l)
{
	free(l->first);
	free(l->dst);
	free(l->out);
	free(l->up);
	memset(l, 0, sizeof(*l));
}

static void count_up(uint8_t *c)
{
	if (*c < UINT8_MAX)
		(*c)++;
}

int dist_ledger_mark(struct dist_ledger *l, enum dist_loc loc,
		     unsigned dest, unsigned src, uint64_t seq)
{
	uint64_t total = l->first[l->nsrc], idx;

	if (src >= l->nsrc || seq >= l->first[src + 1] - l->first[src] ||
	    (loc != DIST_LOC_UP && dest >= l->fanout))
		return -1;
	idx = l->first[src] + seq;
	switch (loc) {
	case DIST_LOC_DST:
		count_up(&l->dst[dest * total + idx]);
		break;
	case DIST_LOC_OUT:
		count_up(&l->out[dest * total + idx]);
		break;
	case DIST_LOC_UP:
		count_up(&l->up[idx]);
		break;
	}
	return 0;
}

void dist_ledger_check(const struct dist_ledger *l, bool drained,
		       struct dist_verdict *v)
{
	uint64_t total = l->first[l->nsrc];

	memset(v, 0, sizeof(*v));
	v->expected = total * l->fanout;
	for (unsigned d = 0; d < l->fanout; d++) {
		for (unsigned s = 0; s < l->nsrc; s++) {
			for (uint64_t i = l->first[s]; i < l->first[s + 1];
			     i++) {
				unsigned nd = l->dst[d * total + i];
				unsigned n = nd + l->out[d * total + i] +
					     l->up[i];
				enum dist_flaw f = DIST_OK;

				if (!n) {
					v->lost++;
					f = DIST_LOST;
				} else if (n > 1) {
					v->duplicated++;
					f = DIST_DUPLICATE;
				} else if (nd) {
					v->delivered++;
				} else {
					v->backlog++;
					if (drained)
						f = DIST_LEFT;
				}
				if (f != DIST_OK && v->flaw == DIST_OK) {
					v->flaw = f;
					v->flaw_dest = d;
					v->flaw_src = s;
					v->flaw_seq = i - l->first[s];
				}
			}
		}
	}
}

void dist_intervals_init(struct dist_intervals *iv)
{
	memset(iv, 0, sizeof(*iv));
	iv->ticks_per_slot = 1;
}

void dist_intervals_tick(struct dist_intervals *iv, double secs,
			 uint64_t delivered, uint64_t source, uint64_t pool,
			 uint64_t outgoing)
{
	struct dist_slot *s;

	if (!iv->nr || iv->ticks >= iv->ticks_per_slot) {
		if (iv->nr == DIST_MAX_INTERVALS) {
			/* merge pairs: sums add, backlog is the later one */
			for (size_t i = 0; i < iv->nr / 2; i++) {
				struct dist_slot a = iv->v[2 * i];
				struct dist_slot b = iv->v[2 * i + 1];

				b.secs += a.secs;
				b.delivered += a.delivered;
				iv->v[i] = b;
			}
			iv->nr /= 2;
			iv->ticks_per_slot *= 2;
		}
		iv->v[iv->nr++] = (struct dist_slot){ 0 };
		iv->ticks = 0;
	}
	s = &iv->v[iv->nr - 1];
	s->secs += secs;
	s->delivered += delivered;
	s->source = source;
	s->pool = pool;
	s->outgoing = outgoing;
	iv->ticks++;
}
