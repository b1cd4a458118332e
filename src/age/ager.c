/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ager.c - the Geriatrix-style aging model (Kadekodi et al., ATC'18).
 *
 * Fill: create files until the accounted usage reaches the target
 * fullness.  Then age: below the target create, at or above it delete
 * (or, with an op mix, draw the op by weight and turn growing ops into
 * deletes while at or above the target).
 *
 * Bucket selection: a create takes its size bucket and its depth bucket
 * as the ones furthest below their target share (profile_pick_below),
 * the exact size log-uniformly inside the bucket, and the directory at
 * that depth at random among `fanout` names per level.  A delete takes
 * the age bucket furthest above its target share and a random file in
 * it.  So every create and every delete moves the population toward the
 * profile, and the distributions converge instead of drifting.
 *
 * Age is counted in operations, in generations of g = live files at the
 * end of the fill.  Slots are kept in creation order, so births are
 * sorted: an age bucket is a slot range found by binary search, and a
 * Fenwick tree over "slot is live" counts and picks the k-th live file
 * of a range in O(log n).
 *
 * Convergence: once filled, aging stops when the size, depth and age
 * distances (profile_distance) are all within the tolerance - checked
 * only with an [age] section, which a fresh fill can never satisfy -
 * or at the byte budget or op limit.  The time limit is the caller's:
 * it cuts the log short but never changes an op that was emitted.
 */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "age/ager.h"
#include "util/defaults.h"
#include "util/opt.h"
#include "util/pyrand.h"
#include "util/util.h"

struct slot {
	uint64_t birth, size, name;
	uint32_t dir;
	uint8_t sb, db;
	bool live;
};

struct dir {
	char *path;       /* "" for the work directory */
	unsigned depth;
};

struct ager {
	struct ager_params p;
	struct pyrand rng;
	struct slot *slot;
	size_t nr_slots, cap;
	int32_t *fen;     /* Fenwick tree over slot[i].live, 1-based */
	struct dir *dirs;
	size_t nr_dirs, alloc_dirs;
	struct age_strmap dirmap;
	uint64_t cnt[AGE_NR_DIMS][AGE_MAX_BUCKETS];
	uint64_t live, ops, fill_ops, gen, used, written, target, next_name;
	bool filling;
	const char *stop;
	struct age_op queue[64];
	size_t nq, qhead;
	unsigned wsum;
};

/* ---- Fenwick tree ---- */

static void fen_add(struct ager *a, size_t i, int32_t d)
{
	for (i++; i <= a->cap; i += i & -i)
		a->fen[i] += d;
}

/* Live slots in [0, i). */
static uint64_t fen_prefix(const struct ager *a, size_t i)
{
	uint64_t s = 0;

	for (; i > 0; i -= i & -i)
		s += (uint64_t)a->fen[i];
	return s;
}

/* The slot of the k-th live file (0-based). */
static size_t fen_kth(const struct ager *a, uint64_t k)
{
	size_t pos = 0, step = 1;

	while (step * 2 <= a->cap)
		step *= 2;
	for (; step; step /= 2)
		if (pos + step <= a->cap &&
		    (uint64_t)a->fen[pos + step] <= k) {
			pos += step;
			k -= (uint64_t)a->fen[pos];
		}
	return pos;
}

static void fen_rebuild(struct ager *a)
{
	memset(a->fen, 0, (a->cap + 1) * sizeof(*a->fen));
	for (size_t i = 0; i < a->nr_slots; i++)
		if (a->slot[i].live)
			fen_add(a, i, 1);
}

/* Room for one more slot: compact dead ones away, or grow. */
static void slots_make_room(struct ager *a)
{
	size_t j = 0;

	if (a->nr_slots < a->cap)
		return;
	if (a->live * 2 > a->cap) {
		a->cap *= 2;
		a->slot = xrealloc(a->slot, a->cap * sizeof(*a->slot));
		a->fen = xrealloc(a->fen, (a->cap + 1) * sizeof(*a->fen));
	} else {
		for (size_t i = 0; i < a->nr_slots; i++)
			if (a->slot[i].live)
				a->slot[j++] = a->slot[i];
		a->nr_slots = j;
	}
	fen_rebuild(a);
}

/* ---- the model ---- */

static uint64_t round_up(const struct ager *a, uint64_t n)
{
	return (n + a->p.bsize - 1) / a->p.bsize * a->p.bsize;
}

struct ager *ager_new(const struct ager_params *p)
{
	struct ager *a;

	if (!(p->fullness > 0 && p->fullness < 1)) {
		error("fullness must be between 0 and 1, not %g", p->fullness);
		return NULL;
	}
	if (p->base_used >= (uint64_t)(p->fullness * (double)p->capacity)) {
		error("the filesystem is %.1f%% full already: more than the "
		      "target %.1f%%",
		      100.0 * (double)p->base_used / (double)p->capacity,
		      100 * p->fullness);
		return NULL;
	}
	a = xcalloc(1, sizeof(*a));
	a->p = *p;
	if (!a->p.fanout)
		a->p.fanout = 4;
	if (!a->p.bsize)
		a->p.bsize = 4096;
	pyrand_seed(&a->rng, p->seed);
	a->cap = 1024;
	a->slot = xmalloc(a->cap * sizeof(*a->slot));
	a->fen = xcalloc(a->cap + 1, sizeof(*a->fen));
	a->used = p->base_used;
	a->target = (uint64_t)(p->fullness * (double)p->capacity);
	a->filling = true;
	for (int i = 0; i < AOP_NR_KINDS; i++)
		if (i != AOP_MKDIR && i != AOP_RMDIR)
			a->wsum += p->weights[i];
	ALLOC_GROW(a->dirs, 1, a->alloc_dirs);
	a->dirs[0].path = xstrdup("");
	a->dirs[0].depth = 0;
	a->nr_dirs = 1;
	strmap_add(&a->dirmap, "", 0);
	return a;
}

void ager_free(struct ager *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr_dirs; i++)
		free(a->dirs[i].path);
	free(a->dirs);
	strmap_release(&a->dirmap);
	free(a->slot);
	free(a->fen);
	free(a);
}

static void push(struct ager *a, const struct age_op *op)
{
	if (a->nq == ARRAY_SIZE(a->queue))
		BUG("ager op queue overflow");
	a->queue[a->nq++] = *op;
}

static void slot_path(const struct ager *a, const struct slot *s, char *buf,
		      size_t len, uint64_t name)
{
	const char *d = a->dirs[s->dir].path;

	snprintf(buf, len, "%s%sf%llu", d, *d ? "/" : "",
		 (unsigned long long)name);
}

/* A directory at depth, creating (queueing mkdir for) what is missing. */
static uint32_t pick_dir(struct ager *a, unsigned depth)
{
	char path[256] = "";
	size_t len = 0;
	long idx = 0;

	for (unsigned lvl = 1; lvl <= depth; lvl++) {
		unsigned r = (unsigned)pyrand_below(&a->rng, a->p.fanout);
		int n = snprintf(path + len, sizeof(path) - len, "%sd%u",
				 lvl > 1 ? "/" : "", r);

		if (n < 0 || (size_t)n >= sizeof(path) - len)
			BUG("directory path too long");
		len += (size_t)n;
		idx = strmap_find(&a->dirmap, path);
		if (idx < 0) {
			struct age_op op = { .kind = AOP_MKDIR };

			if ((size_t)snprintf(op.path, sizeof(op.path), "%s",
					     path) >= sizeof(op.path))
				BUG("directory path too long for an op");
			push(a, &op);
			idx = (long)a->nr_dirs;
			ALLOC_GROW(a->dirs, a->nr_dirs + 1, a->alloc_dirs);
			a->dirs[a->nr_dirs].path = xstrdup(path);
			a->dirs[a->nr_dirs].depth = lvl;
			a->nr_dirs++;
			strmap_add(&a->dirmap, path, (uint64_t)idx);
			a->used += a->p.bsize;
		} else {
			idx = (long)a->dirmap.ent[idx].val;
		}
	}
	return (uint32_t)idx;
}

/* A size from bucket b: log-uniform in [lo, hi). */
static uint64_t draw_size(struct ager *a, size_t b)
{
	uint64_t lo, hi, v;
	double x;

	profile_size_range(&a->p.prof->d[AGE_DIM_SIZE], b, &lo, &hi);
	if (!hi)
		return 0;
	if (hi <= lo + 1)
		return lo;
	x = log((double)lo) + pyrand_random(&a->rng) *
	    (log((double)hi) - log((double)lo));
	v = (uint64_t)exp(x);
	if (v < lo)
		v = lo;
	if (v >= hi)
		v = hi - 1;
	return v;
}

/* A bucket drawn by share (for append and overwrite lengths). */
static size_t draw_bucket(struct ager *a, const struct age_dist *d)
{
	double x = pyrand_random(&a->rng), acc = 0;

	for (size_t i = 0; i < d->nr; i++) {
		acc += d->share[i];
		if (x < acc)
			return i;
	}
	return d->nr - 1;
}

static void set_size(struct ager *a, struct slot *s, uint64_t size)
{
	const struct age_dist *sd = &a->p.prof->d[AGE_DIM_SIZE];

	a->used -= round_up(a, s->size);
	a->cnt[AGE_DIM_SIZE][s->sb]--;
	s->size = size;
	s->sb = (uint8_t)profile_size_bucket(sd, size);
	a->cnt[AGE_DIM_SIZE][s->sb]++;
	a->used += round_up(a, size);
}

static void do_create(struct ager *a)
{
	const struct age_profile *pr = a->p.prof;
	struct age_op op = { .kind = AOP_CREATE };
	size_t sb, db;
	struct slot *s;

	sb = profile_pick_below(&pr->d[AGE_DIM_SIZE], a->cnt[AGE_DIM_SIZE],
				a->live);
	db = profile_pick_below(&pr->d[AGE_DIM_DEPTH], a->cnt[AGE_DIM_DEPTH],
				a->live);
	slots_make_room(a);
	s = &a->slot[a->nr_slots];
	memset(s, 0, sizeof(*s));
	s->dir = pick_dir(a, (unsigned)pr->d[AGE_DIM_DEPTH].value[db]);
	s->size = draw_size(a, sb);
	s->sb = (uint8_t)sb;
	s->db = (uint8_t)db;
	s->name = a->next_name++;
	s->live = true;
	/* Born when its op is emitted: after the queued mkdirs. */
	s->birth = a->ops + a->nq;
	fen_add(a, a->nr_slots, 1);
	a->nr_slots++;
	a->live++;
	a->cnt[AGE_DIM_SIZE][sb]++;
	a->cnt[AGE_DIM_DEPTH][db]++;
	a->used += round_up(a, s->size);
	a->written += s->size;
	slot_path(a, s, op.path, sizeof(op.path), s->name);
	op.a = s->size;
	push(a, &op);
}

/* First slot whose birth is >= b. */
static size_t slot_lower(const struct ager *a, uint64_t b)
{
	size_t lo = 0, hi = a->nr_slots;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->slot[mid].birth < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Slot index where ages <= limit generations begin. */
static size_t age_edge(const struct ager *a, double limit)
{
	double ops = limit * (double)a->gen;

	if (isinf(limit) || ops >= (double)a->ops)
		return 0;
	return slot_lower(a, a->ops - (uint64_t)ops);
}

/* Age bucket i is the slot range [edge[i+1], edge[i]). */
static void age_edges(const struct ager *a, size_t *edge)
{
	const struct age_dist *d = &a->p.prof->d[AGE_DIM_AGE];

	/* edge[0] = end; edge[i+1] = start of bucket i */
	edge[0] = a->nr_slots;
	for (size_t i = 0; i < d->nr; i++)
		edge[i + 1] = i + 1 == d->nr ? 0 : age_edge(a, d->value[i]);
}

static void age_counts(const struct ager *a, uint64_t *counts)
{
	const struct age_dist *d = &a->p.prof->d[AGE_DIM_AGE];
	size_t edge[AGE_MAX_BUCKETS + 1];

	age_edges(a, edge);
	for (size_t i = 0; i < d->nr; i++)
		counts[i] = fen_prefix(a, edge[i]) -
			    fen_prefix(a, edge[i + 1]);
}

static void kill_slot(struct ager *a, size_t i)
{
	struct slot *s = &a->slot[i];
	struct age_op op = { .kind = AOP_DELETE };

	slot_path(a, s, op.path, sizeof(op.path), s->name);
	push(a, &op);
	s->live = false;
	fen_add(a, i, -1);
	a->live--;
	a->cnt[AGE_DIM_SIZE][s->sb]--;
	a->cnt[AGE_DIM_DEPTH][s->db]--;
	a->used -= round_up(a, s->size);
}

static size_t random_live(struct ager *a)
{
	return fen_kth(a, pyrand_below(&a->rng, a->live));
}

static void do_delete(struct ager *a)
{
	const struct age_dist *d = &a->p.prof->d[AGE_DIM_AGE];
	uint64_t counts[AGE_MAX_BUCKETS];
	size_t edge[AGE_MAX_BUCKETS + 1], b;
	uint64_t k;

	if (!d->nr) {
		kill_slot(a, random_live(a));
		return;
	}
	age_counts(a, counts);
	b = profile_pick_above(d, counts, a->live);
	age_edges(a, edge);
	k = fen_prefix(a, edge[b + 1]) + pyrand_below(&a->rng, counts[b]);
	kill_slot(a, fen_kth(a, k));
}

static void do_mix_op(struct ager *a, enum age_op_kind k)
{
	const struct age_dist *sd = &a->p.prof->d[AGE_DIM_SIZE];
	struct age_op op = { .kind = k };
	struct slot *s;
	size_t i;

	i = random_live(a);
	s = &a->slot[i];
	slot_path(a, s, op.path, sizeof(op.path), s->name);
	switch (k) {
	case AOP_APPEND:
		op.a = draw_size(a, draw_bucket(a, sd));
		a->written += op.a;
		set_size(a, s, s->size + op.a);
		break;
	case AOP_TRUNCATE:
		op.a = s->size ? pyrand_below(&a->rng, s->size) : 0;
		set_size(a, s, op.a);
		break;
	case AOP_OVERWRITE:
		op.a = s->size ? pyrand_below(&a->rng, s->size) : 0;
		op.b = draw_size(a, draw_bucket(a, sd));
		if (op.b > s->size - op.a)
			op.b = s->size - op.a;
		a->written += op.b;
		break;
	case AOP_RENAME:
		s->name = a->next_name++;
		slot_path(a, s, op.path2, sizeof(op.path2), s->name);
		break;
	default:
		BUG("bad mix op %d", k);
	}
	push(a, &op);
}

static enum age_op_kind draw_kind(struct ager *a)
{
	uint64_t x = pyrand_below(&a->rng, a->wsum);

	for (int i = 0; i < AOP_NR_KINDS; i++) {
		if (i == AOP_MKDIR || i == AOP_RMDIR)
			continue;
		if (x < a->p.weights[i])
			return i;
		x -= a->p.weights[i];
	}
	return AOP_CREATE;
}

static bool converged(const struct ager *a)
{
	struct ager_status st;

	if (!a->p.prof->d[AGE_DIM_AGE].nr)
		return false;
	ager_status(a, &st);
	for (int i = 0; i < AGE_NR_DIMS; i++)
		if (st.dist[i] > a->p.tolerance)
			return false;
	return true;
}

/* Decide the next step and queue its op(s); false when aging is over. */
static bool step(struct ager *a)
{
	bool full = a->used >= a->target;
	enum age_op_kind k;

	if (a->filling) {
		do_create(a);
		/* The fill ends with the create that reaches the target. */
		if (a->used >= a->target) {
			a->filling = false;
			a->fill_ops = a->ops + a->nq;
			a->gen = a->live;
		}
		return true;
	}
	if (a->p.max_ops && a->ops >= a->p.max_ops) {
		a->stop = "op limit";
		return false;
	}
	if (a->p.budget && a->written >= a->p.budget) {
		a->stop = "byte budget";
		return false;
	}
	if (converged(a)) {
		a->stop = "converged";
		return false;
	}
	if (!a->wsum) {
		if (full && a->live)
			do_delete(a);
		else
			do_create(a);
		return true;
	}
	k = draw_kind(a);
	if ((k == AOP_CREATE || k == AOP_APPEND) && full && a->live)
		k = AOP_DELETE;
	if (!a->live)
		k = AOP_CREATE;
	if (k == AOP_CREATE)
		do_create(a);
	else if (k == AOP_DELETE)
		do_delete(a);
	else
		do_mix_op(a, k);
	return true;
}

int ager_next(struct ager *a, struct age_op *op)
{
	if (a->qhead == a->nq) {
		a->qhead = a->nq = 0;
		if (a->stop || !step(a))
			return 0;
	}
	*op = a->queue[a->qhead++];
	a->ops++;
	return 1;
}

bool ager_filling(const struct ager *a)
{
	return a->filling || a->ops < a->fill_ops;
}

/* Live count per bucket of one dimension into counts (AGE_MAX_BUCKETS);
 * returns the number of live files. */
static uint64_t ager_counts(const struct ager *a, enum age_dim dim,
			    uint64_t *counts)
{
	memset(counts, 0, AGE_MAX_BUCKETS * sizeof(*counts));
	if (dim == AGE_DIM_AGE) {
		if (a->gen)
			age_counts(a, counts);
	} else {
		memcpy(counts, a->cnt[dim],
		       a->p.prof->d[dim].nr * sizeof(*counts));
	}
	return a->live;
}

void ager_status(const struct ager *a, struct ager_status *s)
{
	memset(s, 0, sizeof(*s));
	s->filling = ager_filling(a);
	s->ops = a->ops;
	s->fill_ops = a->fill_ops;
	s->files = a->live;
	s->dirs = a->nr_dirs - 1;
	s->used = a->used;
	s->written = a->written;
	s->fullness = (double)a->used / (double)a->p.capacity;
	s->stop = a->stop;
	for (int i = 0; i < AGE_NR_DIMS; i++) {
		uint64_t c[AGE_MAX_BUCKETS];

		if (!a->p.prof->d[i].nr || (i == AGE_DIM_AGE && !a->gen)) {
			s->dist[i] = i == AGE_DIM_AGE && a->p.prof->d[i].nr ?
				     1 : 0;
			continue;
		}
		ager_counts(a, i, c);
		s->dist[i] = profile_distance(&a->p.prof->d[i], c, a->live);
	}
}

int ager_parse_ops(const char *s, unsigned *weights, char *err,
		   size_t errlen)
{
	struct kvlist l = { 0 };
	int rc = -1;

	memset(weights, 0, AOP_NR_KINDS * sizeof(*weights));
	if (kv_parse(s, &l, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < l.nr; i++) {
		int k = oplog_kind_parse(l.v[i].key);
		long long w;

		if (k < 0 || k == AOP_MKDIR || k == AOP_RMDIR) {
			snprintf(err, errlen, "unknown operation '%s' in "
				 "--ops (create, delete, append, truncate, "
				 "overwrite, rename)", l.v[i].key);
			goto out;
		}
		if (parse_int(l.v[i].val, 0, 1000000, &w) < 0) {
			snprintf(err, errlen, "bad weight '%s' for '%s'",
				 l.v[i].val, l.v[i].key);
			goto out;
		}
		weights[k] = (unsigned)w;
	}
	if (!weights[AOP_CREATE] || !weights[AOP_DELETE]) {
		snprintf(err, errlen, "--ops needs create and delete weights");
		goto out;
	}
	rc = 0;
out:
	kv_release(&l);
	return rc;
}

/*
 * The one function here that does I/O: age dir to fullness with the
 * profile and seed (the default create/delete loop, real data when
 * data is true), for target specs with age=PROFILE.  One summary line
 * on stderr.  0 or -1 (message printed).
 */
static int ager_age_dir(const char *dir, const char *profile, double fullness,
			uint64_t seed, bool data)
{
	struct ager_params p = { 0 };
	struct age_profile prof;
	struct ager_status st;
	struct statvfs sv;
	struct age_op op;
	struct ager *a;
	int base, rc = 0;

	if (profile_load(profile, &prof) < 0)
		return -1;
	if (statvfs(dir, &sv) < 0) {
		profile_release(&prof);
		return error_errno("cannot stat filesystem of '%s'", dir);
	}
	p.prof = &prof;
	p.seed = seed;
	p.fullness = fullness;
	p.capacity = (uint64_t)sv.f_blocks * sv.f_frsize;
	p.base_used = (uint64_t)(sv.f_blocks - sv.f_bfree) * sv.f_frsize;
	p.bsize = sv.f_bsize;
	p.tolerance = FSLAB_DEFAULT_AGE_TOLERANCE;
	p.budget = FSLAB_DEFAULT_AGE_BUDGET_X * p.capacity;
	a = ager_new(&p);
	base = a ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (!a || base < 0) {
		if (a)
			error_errno("cannot open '%s'", dir);
		ager_free(a);
		profile_release(&prof);
		return -1;
	}
	while (!rc && ager_next(a, &op))
		rc = oplog_apply(base, &op, data);
	close(base);
	ager_status(a, &st);
	if (!rc)
		fprintf(stderr, "fslab: aged '%s' with '%s': %llu ops, %llu "
			"files, %.1f%% full, stopped: %s\n", dir, profile,
			(unsigned long long)st.ops,
			(unsigned long long)st.files, 100 * st.fullness,
			st.stop ? st.stop : "?");
	ager_free(a);
	profile_release(&prof);
	return rc;
}

int ager_age_default(const char *dir, const char *profile)
{
	return ager_age_dir(dir, profile, FSLAB_DEFAULT_FULLNESS,
			    FSLAB_DEFAULT_AGE_SEED, true);
}
