/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bins.c - the survey's pure aggregation: size bins, run counting
 * with filefrag's rule, the layout score, the worst-N heap.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frag/frag.h"
#include "frag/openq.h"
#include "util/util.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)

void frag_bins_default(struct frag_bins *b)
{
	static const uint64_t k[] = { 1, 2, 3, 4, 5, 6, 10, 20, 30, 40,
				      50, 60, 100 };
	size_t n = 0;

	for (uint64_t i = 0; i < 10; i++)
		b->edge[n++] = i * 100;
	for (size_t i = 0; i < ARRAY_SIZE(k); i++)
		b->edge[n++] = k[i] * KIB;
	b->edge[n++] = MIB;
	b->edge[n++] = 10 * MIB;
	b->edge[n++] = 100 * MIB;
	b->edge[n++] = GIB;
	b->edge[n++] = 10 * GIB;
	b->edge[n++] = 100 * GIB;
	b->nr = n;
}

int frag_bins_parse(const char *s, struct frag_bins *b, char *err,
		    size_t errlen)
{
	char *dup = xstrdup(s), *save = NULL, *tok;
	int rc = 0;

	b->nr = 0;
	b->edge[b->nr++] = 0;
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (parse_size(tok, &v) < 0) {
			snprintf(err, errlen, "'%s' is not a size in --bins",
				 tok);
			rc = -1;
			break;
		}
		if (v == 0 && b->nr == 1)
			continue;
		if (v <= b->edge[b->nr - 1]) {
			snprintf(err, errlen, "--bins edges must increase "
				 "('%s')", tok);
			rc = -1;
			break;
		}
		if (b->nr == FRAG_MAX_BINS) {
			snprintf(err, errlen, "--bins takes at most %d edges",
				 FRAG_MAX_BINS);
			rc = -1;
			break;
		}
		b->edge[b->nr++] = v;
	}
	free(dup);
	return rc;
}

size_t frag_bin_of(const struct frag_bins *b, uint64_t size)
{
	size_t lo = 0, hi = b->nr;

	/* Last edge <= size, by bisection: edges increase strictly. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->edge[mid] <= size)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t group_unit(uint64_t lower)
{
	return lower < KIB ? 1 : lower < MIB ? KIB : lower < GIB ? MIB : GIB;
}

const char *frag_bin_group(const struct frag_bins *b, size_t i)
{
	uint64_t u = group_unit(b->edge[i]);

	return u == 1 ? "B" : u == KIB ? "K" : u == MIB ? "M" : "G";
}

static void fmt_edge(char *buf, size_t len, uint64_t v, uint64_t unit)
{
	if (v % unit == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(v / unit));
	else
		snprintf(buf, len, "%.2f", (double)v / (double)unit);
}

void frag_bin_label(const struct frag_bins *b, size_t i, char *buf,
		    size_t len)
{
	uint64_t u = group_unit(b->edge[i]);
	char lo[32], hi[32];

	fmt_edge(lo, sizeof(lo), b->edge[i], u);
	if (i + 1 < b->nr)
		fmt_edge(hi, sizeof(hi), b->edge[i + 1], u);
	else
		snprintf(hi, sizeof(hi), "inf");
	snprintf(buf, len, "[%s,%s)", lo, hi);
}

size_t frag_run_bucket(uint64_t runs)
{
	size_t i = 2;
	uint64_t top = 2;

	if (runs < 3)
		return (size_t)runs;
	while (i < FRAG_RUN_BUCKETS - 1) {
		i++;
		top *= 2;
		if (runs <= top)
			return i;
	}
	return FRAG_RUN_BUCKETS - 1;
}

void frag_run_bucket_label(size_t i, char *buf, size_t len)
{
	uint64_t lo, hi;

	if (i < 3) {
		snprintf(buf, len, "%zu", i);
		return;
	}
	hi = 1ULL << (i - 1);
	lo = hi / 2 + 1;
	if (i == FRAG_RUN_BUCKETS - 1)
		snprintf(buf, len, "%llu+", (unsigned long long)lo);
	else
		snprintf(buf, len, "%llu-%llu", (unsigned long long)lo,
			 (unsigned long long)hi);
}

void frag_file_init(struct frag_file *f, uint64_t blksize)
{
	memset(f, 0, sizeof(*f));
	f->blksize = blksize ? blksize : 4096;
}

/* Where the data of an extent is not (yet) a place on disk. */
#define NO_PLACE (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | \
		  FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED)

void frag_file_add(struct frag_file *f, const struct frag_extent *e)
{
	const struct frag_extent *l = &f->last;

	/*
	 * filefrag's rule (e2fsprogs misc/filefrag.c): an extent starts a
	 * new run unless it continues the previous one physically, either
	 * as the file's offsets would place it (holes included) or simply
	 * right after it on disk.  Flags do not matter to it, so not here.
	 */
	if (!f->have_last) {
		f->runs = 1;
	} else if (e->logical != 0 &&
		   e->physical != l->physical + (e->logical - l->logical) &&
		   e->physical != l->physical + l->length) {
		f->runs++;
	}
	f->extents++;
	f->flags |= e->flags;

	/* Layout score: only blocks with a known place count, and a block
	 * follows its predecessor only when strictly adjacent on disk. */
	if (!(e->flags & NO_PLACE) && e->length) {
		uint64_t nb = (e->length + f->blksize - 1) / f->blksize;

		if (f->have_phys) {
			if (e->physical == f->end_phys)
				f->follow_blocks++;
		} else {
			f->first_phys = e->physical;
		}
		f->follow_blocks += nb - 1;
		f->blocks += nb;
		f->end_phys = e->physical + e->length;
		f->have_phys = true;
	}
	f->last = *e;
	f->have_last = true;
}

void frag_file_add_cb(void *arg, const struct frag_extent *e)
{
	frag_file_add(arg, e);
}

void frag_opts_default(struct frag_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sync = true;
	o->xdev = true;
	o->uring = true;
	o->worst = FRAG_DEFAULT_WORST;
}

void frag_result_init(struct frag_result *r, const struct frag_bins *b,
		      size_t worst_cap)
{
	memset(r, 0, sizeof(*r));
	if (b)
		r->bins = *b;
	else
		frag_bins_default(&r->bins);
	r->worst_cap = worst_cap;
	if (worst_cap)
		r->worst = xcalloc(worst_cap, sizeof(*r->worst));
}

void frag_result_release(struct frag_result *r)
{
	for (size_t i = 0; i < r->nr_worst; i++)
		free(r->worst[i].path);
	free(r->worst);
	r->worst = NULL;
	r->nr_worst = 0;
}

/* Worse = more runs, then more extents, then bigger. */
static int worst_cmp(const struct frag_worst *a, const struct frag_worst *b)
{
	if (a->runs != b->runs)
		return a->runs < b->runs ? -1 : 1;
	if (a->extents != b->extents)
		return a->extents < b->extents ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return 0;
}

/* True when a file with these counts would enter the worst list. */
static bool frag_result_wants_worst(const struct frag_result *r, uint64_t runs,
				    uint64_t extents, uint64_t size)
{
	struct frag_worst w = { NULL, runs, extents, size };

	if (!r->worst_cap || runs < 2)
		return false;
	return r->nr_worst < r->worst_cap || worst_cmp(&w, &r->worst[0]) > 0;
}

static void heap_swap(struct frag_worst *h, size_t a, size_t b)
{
	struct frag_worst t = h[a];

	h[a] = h[b];
	h[b] = t;
}

/* Min-heap on worst_cmp: the root is the mildest of the worst. */
static void heap_push(struct frag_result *r, struct frag_worst w)
{
	struct frag_worst *h = r->worst;
	size_t i;

	if (r->nr_worst < r->worst_cap) {
		i = r->nr_worst++;
		h[i] = w;
		while (i && worst_cmp(&h[i], &h[(i - 1) / 2]) < 0) {
			heap_swap(h, i, (i - 1) / 2);
			i = (i - 1) / 2;
		}
		return;
	}
	free(h[0].path);
	h[0] = w;
	i = 0;
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < r->nr_worst && worst_cmp(&h[l], &h[m]) < 0)
			m = l;
		if (l + 1 < r->nr_worst && worst_cmp(&h[l + 1], &h[m]) < 0)
			m = l + 1;
		if (m == i)
			break;
		heap_swap(h, i, m);
		i = m;
	}
}

void frag_result_add(struct frag_result *r, const struct frag_file *f,
		     uint64_t size, char *(*path)(void *), void *arg)
{
	size_t b = frag_bin_of(&r->bins, size);
	bool frag = f->runs > 1;

	r->files++;
	r->bytes += size;
	r->bin_files[b]++;
	r->bin_bytes[b] += size;
	r->extents += f->extents;
	r->runs += f->runs;
	r->run_hist[frag_run_bucket(f->runs)]++;
	if (frag) {
		r->frag_files++;
		r->frag_bytes += size;
		r->bin_frag[b]++;
	}
	if (f->runs >= 3)
		r->files_3plus++;
	if (f->blocks >= 2) {
		r->layout_files++;
		r->layout_blocks += f->blocks - 1;
		r->layout_follow += f->follow_blocks;
	}
	r->f_inline += !!(f->flags & FIEMAP_EXTENT_DATA_INLINE);
	r->f_delalloc += !!(f->flags & FIEMAP_EXTENT_DELALLOC);
	r->f_unknown += !!(f->flags & FIEMAP_EXTENT_UNKNOWN);
	r->f_encoded += !!(f->flags & FIEMAP_EXTENT_ENCODED);
	r->f_unwritten += !!(f->flags & FIEMAP_EXTENT_UNWRITTEN);
	r->f_shared += !!(f->flags & FIEMAP_EXTENT_SHARED);
	if (path && frag_result_wants_worst(r, f->runs, f->extents, size)) {
		struct frag_worst w = { path(arg), f->runs, f->extents,
					size };

		heap_push(r, w);
	}
}

void frag_result_merge(struct frag_result *d, struct frag_result *s)
{
	for (size_t i = 0; i < FRAG_MAX_BINS; i++) {
		d->bin_files[i] += s->bin_files[i];
		d->bin_frag[i] += s->bin_frag[i];
		d->bin_bytes[i] += s->bin_bytes[i];
	}
	for (size_t i = 0; i < FRAG_RUN_BUCKETS; i++)
		d->run_hist[i] += s->run_hist[i];
#define ADD(x) d->x += s->x
	ADD(files); ADD(bytes); ADD(frag_files); ADD(frag_bytes);
	ADD(files_3plus); ADD(extents); ADD(runs); ADD(layout_files);
	ADD(layout_blocks); ADD(layout_follow); ADD(dirs); ADD(loc_pairs);
	ADD(loc_adjacent); ADD(loc_dirs); ADD(loc_gap_sum);
	ADD(loc_dir_mean_sum); ADD(f_inline); ADD(f_delalloc);
	ADD(f_unknown); ADD(f_encoded); ADD(f_unwritten); ADD(f_shared);
	ADD(unreadable); ADD(vanished); ADD(errors); ADD(nomap);
	ADD(mounts_skipped); ADD(special);
#undef ADD
	for (size_t i = 0; i < s->nr_worst; i++) {
		struct frag_worst *w = &s->worst[i];

		if (frag_result_wants_worst(d, w->runs, w->extents,
					    w->size)) {
			heap_push(d, *w);
		} else {
			free(w->path);
		}
	}
	s->nr_worst = 0;
}

static int worst_qsort(const void *a, const void *b)
{
	return -worst_cmp(a, b);
}

void frag_result_finish(struct frag_result *r)
{
	if (r->nr_worst)
		qsort(r->worst, r->nr_worst, sizeof(*r->worst), worst_qsort);
}

double frag_layout_score(const struct frag_result *r)
{
	if (!r->layout_blocks)
		return 1.0;
	return (double)r->layout_follow / (double)r->layout_blocks;
}
