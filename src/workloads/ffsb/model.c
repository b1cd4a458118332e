/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.c - FFSB's operations: their names, FFSB's transaction counting
 * and the seeded op and size draws (pure, unit-tested; declared in
 * profile.h with the profile they draw from).
 */
#include "workloads/ffsb/profile.h"

#include <math.h>
#include <string.h>

#include "util/splitmix.h"
#include "util/util.h"

static const char *const op_names[FFSB_OP_NR] = {
	[FFSB_OP_READ] = "read",
	[FFSB_OP_READALL] = "readall",
	[FFSB_OP_WRITE] = "write",
	[FFSB_OP_CREATE] = "create",
	[FFSB_OP_APPEND] = "append",
	[FFSB_OP_DELETE] = "delete",
	[FFSB_OP_METAOP] = "metaop",
	[FFSB_OP_CREATEDIR] = "createdir",
	[FFSB_OP_STAT] = "stat",
	[FFSB_OP_WRITEALL] = "writeall",
	[FFSB_OP_WRITEALL_FSYNC] = "writeall_fsync",
	[FFSB_OP_OPEN_CLOSE] = "open_close",
	[FFSB_OP_WRITE_FSYNC] = "write_fsync",
	[FFSB_OP_CREATE_FSYNC] = "create_fsync",
	[FFSB_OP_APPEND_FSYNC] = "append_fsync",
};

const char *ffsb_op_name(enum ffsb_op op)
{
	return op < FFSB_OP_NR ? op_names[op] : "?";
}

enum ffsb_op ffsb_op_from_name(const char *name)
{
	for (int i = 0; i < FFSB_OP_NR; i++)
		if (!strcmp(op_names[i], name))
			return (enum ffsb_op)i;
	return FFSB_OP_NR;
}

bool ffsb_op_is_data(enum ffsb_op op)
{
	switch (op) {
	case FFSB_OP_DELETE:
	case FFSB_OP_METAOP:
	case FFSB_OP_CREATEDIR:
	case FFSB_OP_STAT:
	case FFSB_OP_OPEN_CLOSE:
		return false;
	default:
		return op < FFSB_OP_NR;
	}
}

bool ffsb_op_fsyncs(enum ffsb_op op)
{
	return op == FFSB_OP_WRITEALL_FSYNC || op == FFSB_OP_WRITE_FSYNC ||
	       op == FFSB_OP_CREATE_FSYNC || op == FFSB_OP_APPEND_FSYNC;
}

bool ffsb_op_needs_file(enum ffsb_op op)
{
	return op != FFSB_OP_CREATE && op != FFSB_OP_CREATE_FSYNC &&
	       op != FFSB_OP_METAOP && op != FFSB_OP_CREATEDIR &&
	       op < FFSB_OP_NR;
}

static bool op_reads(enum ffsb_op op)
{
	return op == FFSB_OP_READ || op == FFSB_OP_READALL;
}

uint64_t ffsb_transactions(enum ffsb_op op, uint64_t size, uint64_t bs,
			   bool random)
{
	if (!ffsb_op_is_data(op))
		return 1;
	if (!bs)
		return 0;
	/* random ops do size/bs whole-block calls and nothing else */
	if (op_reads(op) || random)
		return size / bs;
	return size / bs + (size % bs != 0);
}

unsigned ffsb_tg_total_weight(const struct ffsb_tg *tg)
{
	unsigned t = 0;

	for (int i = 0; i < FFSB_OP_NR; i++)
		t += tg->weight[i];
	return t;
}

uint64_t ffsb_fs_min_size(const struct ffsb_fs *fs)
{
	uint64_t m = UINT64_MAX;

	if (!fs->nr_sw)
		return fs->min_filesize;
	for (size_t i = 0; i < fs->nr_sw; i++)
		if (fs->sw[i].weight && fs->sw[i].size < m)
			m = fs->sw[i].size;
	return m == UINT64_MAX ? 0 : m;
}

/*
 * Weighted choice as FFSB does it: a number in [0, total) walks the
 * weights in table order.  pyrand_below() is unbiased, so the only
 * difference from FFSB is the generator.
 */
enum ffsb_op ffsb_choose_op(const struct ffsb_tg *tg, struct pyrand *r)
{
	unsigned total = ffsb_tg_total_weight(tg);
	uint64_t n;

	if (!total)
		return FFSB_OP_NR;
	n = pyrand_below(r, total);
	for (int i = 0; i < FFSB_OP_NR; i++) {
		if (n < tg->weight[i])
			return (enum ffsb_op)i;
		n -= tg->weight[i];
	}
	BUG("weights changed under the draw");
}

uint64_t ffsb_choose_size(const struct ffsb_fs *fs, struct pyrand *r)
{
	uint64_t total = 0, n;

	if (!fs->nr_sw) {
		uint64_t range = fs->max_filesize - fs->min_filesize;

		return fs->min_filesize + (range ? pyrand_below(r, range + 1)
						 : 0);
	}
	for (size_t i = 0; i < fs->nr_sw; i++)
		total += fs->sw[i].weight;
	n = pyrand_below(r, total);
	for (size_t i = 0; i < fs->nr_sw; i++) {
		if (n < fs->sw[i].weight)
			return fs->sw[i].size;
		n -= fs->sw[i].weight;
	}
	BUG("size weights changed under the draw");
}

double ffsb_fs_mean_size(const struct ffsb_fs *fs)
{
	double sum = 0, w = 0;

	if (!fs->nr_sw)
		return ((double)fs->min_filesize + (double)fs->max_filesize) /
		       2;
	for (size_t i = 0; i < fs->nr_sw; i++) {
		sum += (double)fs->sw[i].size * fs->sw[i].weight;
		w += fs->sw[i].weight;
	}
	return w ? sum / w : 0;
}

double ffsb_growth_bound(const struct ffsb_profile *p, double t_create_s,
			 double t_append_s)
{
	double mean = 0, rate = 0;

	/* creates spread over the file sets: the mean of their means */
	for (size_t i = 0; i < p->nr_fs; i++)
		mean += ffsb_fs_mean_size(&p->fs[i]) / (double)p->nr_fs;
	for (size_t i = 0; i < p->nr_tg; i++) {
		const struct ffsb_tg *tg = &p->tg[i];
		double total = ffsb_tg_total_weight(tg), pc, pa, pd, grow, op_s;

		if (!total)
			continue;
		pc = (tg->weight[FFSB_OP_CREATE] +
		      tg->weight[FFSB_OP_CREATE_FSYNC]) / total;
		pa = (tg->weight[FFSB_OP_APPEND] +
		      tg->weight[FFSB_OP_APPEND_FSYNC]) / total;
		pd = tg->weight[FFSB_OP_DELETE] / total;
		grow = pc * mean + pa * (double)tg->write_size - pd * mean;
		op_s = pc * t_create_s + pa * t_append_s +
		       tg->op_delay / 1000.0;
		if (grow <= 0)
			continue;
		/* an op that costs nothing measurable: no bound to give */
		if (op_s <= 0)
			return INFINITY;
		rate += tg->num_threads * grow / op_s;
	}
	return rate;
}

double ffsb_fill_seconds(double rate, double room)
{
	if (!(rate > 0))
		return INFINITY;
	return room > 0 ? room / rate : 0;
}

uint64_t ffsb_thread_seed(uint64_t seed, unsigned thread)
{
	return splitmix64_mix(seed + SPLITMIX64_GAMMA * ((uint64_t)thread + 1));
}
