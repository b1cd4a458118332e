/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table.c - the table of co-metrics (defs[]), its name index and the
 * co_set slots (see cometric.h).
 */
#include "cometric/cometric.h"
#include "cometric/internal.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "measure/result.h"
#include "util/util.h"

/*
 * Every co-metric fslab records, in the order it is recorded.  Names
 * follow the metric naming rule: bytes end in _B, seconds in _s,
 * percentages in _pct, frequencies in _MHz, counts are bare nouns.
 */
static const struct cometric_def defs[] = {
	/* /proc/vmstat */
	{ "vm.dirtied_B", "B", CO_COUNTER, true,
	  "page cache dirtied (nr_dirtied, pages x page size)" },
	{ "vm.written_B", "B", CO_COUNTER, true,
	  "page cache written back (nr_written)" },
	{ "vm.pgpgin_B", "B", CO_COUNTER, true,
	  "paged in from block devices (pgpgin)" },
	{ "vm.pgpgout_B", "B", CO_COUNTER, true,
	  "paged out to block devices (pgpgout)" },
	{ "vm.pgfault", "faults", CO_COUNTER, true, "page faults (pgfault)" },
	{ "vm.pgmajfault", "faults", CO_COUNTER, true,
	  "major page faults (pgmajfault)" },
	{ "vm.allocstall", "stalls", CO_COUNTER, true,
	  "direct reclaim entries, all zones (allocstall_*)" },
	{ "vm.pgscan", "pages", CO_COUNTER, true,
	  "pages scanned by reclaim (pgscan_kswapd/direct/khugepaged/"
	  "proactive)" },
	{ "vm.pgsteal", "pages", CO_COUNTER, true,
	  "pages reclaimed (pgsteal_kswapd/direct/khugepaged/proactive)" },
	{ "vm.throttled_written_B", "B", CO_COUNTER, true,
	  "written while reclaim throttled on writeback "
	  "(nr_throttled_written, 5.16+)" },
	{ "vm.direct_throttle", "stalls", CO_COUNTER, true,
	  "direct reclaimers throttled (pgscan_direct_throttle)" },
	{ "vm.vmscan_write_B", "B", CO_COUNTER, true,
	  "written by reclaim itself (nr_vmscan_write)" },
	{ "vm.dirty_B", "B", CO_GAUGE, false,
	  "dirty page cache at the end of the phase (nr_dirty)" },
	{ "vm.writeback_B", "B", CO_GAUGE, false,
	  "page cache under writeback at the end of the phase "
	  "(nr_writeback)" },
	/* getrusage(), self and children */
	{ "proc.minor_faults", "faults", CO_COUNTER, true,
	  "fslab's minor faults (ru_minflt)" },
	{ "proc.major_faults", "faults", CO_COUNTER, true,
	  "fslab's major faults (ru_majflt)" },
	{ "proc.voluntary_switches", "switches", CO_COUNTER, true,
	  "fslab's voluntary context switches: it blocked (ru_nvcsw)" },
	{ "proc.involuntary_switches", "switches", CO_COUNTER, true,
	  "fslab's involuntary context switches: preempted (ru_nivcsw)" },
	/* /sys/block/DEV/stat */
	{ "dev.read_merges", "requests", CO_COUNTER, true,
	  "reads merged into a queued request" },
	{ "dev.write_merges", "requests", CO_COUNTER, true,
	  "writes merged into a queued request" },
	{ "dev.discards", "requests", CO_COUNTER, true,
	  "discard requests (4.18+)" },
	{ "dev.discard_B", "B", CO_COUNTER, true, "bytes discarded (4.18+)" },
	{ "dev.flushes", "requests", CO_COUNTER, true,
	  "cache flush requests (5.5+)" },
	{ "dev.in_flight", "requests", CO_GAUGE, false,
	  "requests in flight at the end of the phase" },
	{ "dev.util_pct", "%", CO_DERIVED, false,
	  "time the device had a request in flight (io_ticks / wall time)" },
	{ "dev.queue_depth", "requests", CO_DERIVED, false,
	  "average requests in flight (time_in_queue / wall time)" },
	{ "dev.read_lat_mean_ms", "ms", CO_DERIVED, false,
	  "average read request time (read ticks / reads)" },
	{ "dev.write_lat_mean_ms", "ms", CO_DERIVED, false,
	  "average write request time (write ticks / writes)" },
	{ "dev.flush_lat_mean_ms", "ms", CO_DERIVED, false,
	  "average flush request time (5.5+)" },
	{ "dev.read_rq_size_B", "B", CO_DERIVED, false,
	  "average read request size" },
	{ "dev.write_rq_size_B", "B", CO_DERIVED, false,
	  "average write request size" },
	{ "dev.rd_ios", "requests", CO_RAW, true, NULL },
	{ "dev.rd_bytes", "B", CO_RAW, true, NULL },
	{ "dev.rd_ticks_ms", "ms", CO_RAW, true, NULL },
	{ "dev.wr_ios", "requests", CO_RAW, true, NULL },
	{ "dev.wr_bytes", "B", CO_RAW, true, NULL },
	{ "dev.wr_ticks_ms", "ms", CO_RAW, true, NULL },
	{ "dev.io_ticks_ms", "ms", CO_RAW, true, NULL },
	{ "dev.time_in_queue_ms", "ms", CO_RAW, true, NULL },
	{ "dev.flush_ticks_ms", "ms", CO_RAW, true, NULL },
	/* /proc/pressure/{cpu,io,memory} (4.20+, CONFIG_PSI) */
	{ "psi.cpu_some_s", "s", CO_COUNTER, true,
	  "time some task waited for a CPU" },
	{ "psi.cpu_full_s", "s", CO_COUNTER, true,
	  "time all non-idle tasks waited for a CPU (5.13+)" },
	{ "psi.io_some_s", "s", CO_COUNTER, true,
	  "time some task waited for I/O" },
	{ "psi.io_full_s", "s", CO_COUNTER, true,
	  "time all non-idle tasks waited for I/O" },
	{ "psi.memory_some_s", "s", CO_COUNTER, true,
	  "time some task waited for memory (reclaim, refaults)" },
	{ "psi.memory_full_s", "s", CO_COUNTER, true,
	  "time all non-idle tasks waited for memory" },
	/* ext3/ext4: /proc/fs/jbd2/DEV-8/info, /sys/fs/ext4/DEV */
	{ "jbd2.commits", "transactions", CO_COUNTER, true,
	  "journal transactions committed" },
	{ "jbd2.commits_requested", "transactions", CO_COUNTER, true,
	  "commits somebody asked for (fsync, sync)" },
	{ "jbd2.handles", "handles", CO_COUNTER, true,
	  "journal handles (filesystem operations) committed" },
	{ "jbd2.blocks", "blocks", CO_COUNTER, true,
	  "metadata (and data=journal data) blocks in transactions" },
	{ "jbd2.blocks_logged", "blocks", CO_COUNTER, true,
	  "blocks written to the journal, descriptors included" },
	{ "jbd2.running_s", "s", CO_COUNTER, true,
	  "time transactions stayed open" },
	{ "jbd2.flushing_s", "s", CO_COUNTER, true,
	  "time commits waited for ordered data" },
	{ "jbd2.logging_s", "s", CO_COUNTER, true,
	  "time commits spent writing the journal" },
	{ "jbd2.commit_time_s", "s", CO_GAUGE, false,
	  "the journal's running average commit time at the end" },
	{ "ext4.written_B", "B", CO_COUNTER, true,
	  "bytes ext4 wrote to its device (session_write_kbytes)" },
	/* XFS: /sys/fs/xfs/DEV/stats/stats, else /proc/fs/xfs/stat */
	{ "xfs.log_writes", "writes", CO_COUNTER, true, "log buffer writes" },
	{ "xfs.log_blocks", "blocks", CO_COUNTER, true,
	  "log blocks written" },
	{ "xfs.log_forces", "forces", CO_COUNTER, true,
	  "log forces (fsync, sync transactions)" },
	{ "xfs.log_force_sleeps", "sleeps", CO_COUNTER, true,
	  "log forces that had to sleep" },
	{ "xfs.trans_sync", "transactions", CO_COUNTER, true,
	  "synchronous transactions" },
	{ "xfs.trans_async", "transactions", CO_COUNTER, true,
	  "asynchronous transactions" },
	{ "xfs.extents_allocated", "extents", CO_COUNTER, true,
	  "extents allocated" },
	{ "xfs.blocks_allocated", "blocks", CO_COUNTER, true,
	  "blocks allocated" },
	{ "xfs.extents_freed", "extents", CO_COUNTER, true, "extents freed" },
	{ "xfs.dir_creates", "entries", CO_COUNTER, true,
	  "directory entries created" },
	{ "xfs.dir_removes", "entries", CO_COUNTER, true,
	  "directory entries removed" },
	{ "xfs.ail_pushes", "pushes", CO_COUNTER, true,
	  "AIL (metadata writeback) pushes" },
	{ "xfs.btree_ops", "operations", CO_COUNTER, true,
	  "lookups, inserts and deletes over all btrees (v2 names)" },
	{ "xfs.bmbt_ops", "operations", CO_COUNTER, true,
	  "block map btree lookups, inserts and deletes" },
	{ "xfs.abt_ops", "operations", CO_COUNTER, true,
	  "free space btrees (by block and by count)" },
	{ "xfs.ibt_ops", "operations", CO_COUNTER, true,
	  "inode and free inode btrees" },
	{ "xfs.write_B", "B", CO_COUNTER, true,
	  "bytes written through XFS (xpc)" },
	{ "xfs.read_B", "B", CO_COUNTER, true,
	  "bytes read through XFS (xpc)" },
	/* btrfs: /sys/fs/btrfs/UUID/commit_stats (5.19+) */
	{ "btrfs.commits", "commits", CO_COUNTER, true,
	  "transaction commits" },
	{ "btrfs.commit_s", "s", CO_COUNTER, true,
	  "time spent committing transactions" },
	/* --co-metrics=all */
	{ "cpu.freq_MHz", "MHz", CO_DERIVED, false,
	  "mean CPU clock over all CPUs, average of both boundaries "
	  "(scaling_cur_freq)" },
	{ "cpu.freq_sum_MHz", "MHz", CO_RAW, false, NULL },
	{ "cpu.freq_cpus", "cpus", CO_RAW, false, NULL },
};

const struct cometric_def *cometric_defs(size_t *nr)
{
	*nr = ARRAY_SIZE(defs);
	return defs;
}

static_assert(ARRAY_SIZE(defs) == COMETRIC_NR,
	      "COMETRIC_NR (cometric.h) must count the definitions");

/*
 * The name -> definition index: an open-addressed hash table built once,
 * so a put or a lookup by name is a hash and one strcmp rather than a
 * scan of the table (a snapshot puts some fifty values).
 */
#define CO_HASH_SIZE 256 /* a power of two, over twice COMETRIC_NR */
static_assert(CO_HASH_SIZE >= 2 * COMETRIC_NR, "the hash table is too full");
static unsigned char co_hash[CO_HASH_SIZE]; /* index + 1; 0: empty */
static pthread_once_t co_hash_once = PTHREAD_ONCE_INIT;

/* FNV-1a */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void co_hash_build(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++) {
		uint32_t h = name_hash(defs[i].name);

		while (co_hash[h & (CO_HASH_SIZE - 1)])
			h++;
		co_hash[h & (CO_HASH_SIZE - 1)] = (unsigned char)(i + 1);
	}
}

int cometric_index(const char *name)
{
	uint32_t h = name_hash(name);
	unsigned char e;

	pthread_once(&co_hash_once, co_hash_build);
	while ((e = co_hash[h & (CO_HASH_SIZE - 1)])) {
		if (!strcmp(defs[e - 1].name, name))
			return e - 1;
		h++;
	}
	return -1;
}

const struct cometric_def *cometric_def(const char *name)
{
	int i = cometric_index(name);

	return i < 0 ? NULL : &defs[i];
}

int cometric_level_parse(const char *s)
{
	if (!strcmp(s, "none"))
		return COMETRIC_NONE;
	if (!strcmp(s, "basic"))
		return COMETRIC_BASIC;
	if (!strcmp(s, "all"))
		return COMETRIC_ALL;
	return -1;
}

/* ---- sets ---- */

static bool has(const struct co_set *s, size_t i)
{
	return s->have[i / 64] >> (i % 64) & 1;
}

static void put_at(struct co_set *s, size_t i, double v)
{
	if (!has(s, i)) {
		s->have[i / 64] |= UINT64_C(1) << (i % 64);
		s->n++;
	}
	s->v[i] = v;
}

static size_t slot(const char *name)
{
	int i = cometric_index(name);

	if (i < 0)
		BUG("'%s' is no co-metric", name);
	return (size_t)i;
}

void co_set_put(struct co_set *s, const char *name, double v)
{
	put_at(s, slot(name), v);
}

void co_set_add(struct co_set *s, const char *name, double v)
{
	size_t i = slot(name);

	put_at(s, i, has(s, i) ? s->v[i] + v : v);
}

bool co_set_at(const struct co_set *s, size_t i, double *v)
{
	if (i >= COMETRIC_NR || !has(s, i))
		return false;
	if (v)
		*v = s->v[i];
	return true;
}

bool co_set_get(const struct co_set *s, const char *name, double *v)
{
	int i = cometric_index(name);

	return i >= 0 && co_set_at(s, (size_t)i, v);
}

void co_set_release(struct co_set *s)
{
	memset(s, 0, sizeof(*s));
}

/* ---- the difference of two snapshots ---- */

/* end - begin of a counter present at both ends; a counter that went
 * backwards (a remount, a wrap) gives nothing. */
static bool delta_at(const struct cometric_snap *b,
		     const struct cometric_snap *e, size_t i, double *d)
{
	double x, y;

	if (!co_set_at(&b->vals, i, &x) || !co_set_at(&e->vals, i, &y) ||
	    y < x)
		return false;
	*d = y - x;
	return true;
}

static bool delta(const struct cometric_snap *b, const struct cometric_snap *e,
		  const char *name, double *d)
{
	return delta_at(b, e, slot(name), d);
}

static void ratio(struct co_set *out, const char *name,
		  const struct cometric_snap *b, const struct cometric_snap *e,
		  const char *num, const char *den, double scale)
{
	double n, d;

	if (delta(b, e, num, &n) && delta(b, e, den, &d) && d > 0)
		co_set_put(out, name, n / d * scale);
}

static void derive(const struct cometric_def *def,
		   const struct cometric_snap *b,
		   const struct cometric_snap *e, struct co_set *out)
{
	double wall_ms = e->mono_ns > b->mono_ns
				 ? (double)(e->mono_ns - b->mono_ns) / 1e6
				 : 0;
	const char *n = def->name;
	double t, s0, s1, c0, c1;

	if (!strcmp(n, "dev.util_pct") && wall_ms > 0 &&
	    delta(b, e, "dev.io_ticks_ms", &t))
		co_set_put(out, n, fmin(100.0, 100.0 * t / wall_ms));
	else if (!strcmp(n, "dev.queue_depth") && wall_ms > 0 &&
		 delta(b, e, "dev.time_in_queue_ms", &t))
		co_set_put(out, n, t / wall_ms);
	else if (!strcmp(n, "dev.read_lat_mean_ms"))
		ratio(out, n, b, e, "dev.rd_ticks_ms", "dev.rd_ios", 1);
	else if (!strcmp(n, "dev.write_lat_mean_ms"))
		ratio(out, n, b, e, "dev.wr_ticks_ms", "dev.wr_ios", 1);
	else if (!strcmp(n, "dev.flush_lat_mean_ms"))
		ratio(out, n, b, e, "dev.flush_ticks_ms", "dev.flushes", 1);
	else if (!strcmp(n, "dev.read_rq_size_B"))
		ratio(out, n, b, e, "dev.rd_bytes", "dev.rd_ios", 1);
	else if (!strcmp(n, "dev.write_rq_size_B"))
		ratio(out, n, b, e, "dev.wr_bytes", "dev.wr_ios", 1);
	else if (!strcmp(n, "cpu.freq_MHz") &&
		 co_set_get(&b->vals, "cpu.freq_sum_MHz", &s0) &&
		 co_set_get(&e->vals, "cpu.freq_sum_MHz", &s1) &&
		 co_set_get(&b->vals, "cpu.freq_cpus", &c0) &&
		 co_set_get(&e->vals, "cpu.freq_cpus", &c1) && c0 > 0 && c1 > 0)
		co_set_put(out, n, (s0 / c0 + s1 / c1) / 2);
}

void cometric_diff(const struct cometric_snap *b,
		   const struct cometric_snap *e, struct co_set *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++) {
		const struct cometric_def *def = &defs[i];
		double v;

		switch (def->kind) {
		case CO_COUNTER:
			if (delta_at(b, e, i, &v))
				put_at(out, i, v);
			break;
		case CO_GAUGE:
			if (co_set_at(&e->vals, i, &v))
				put_at(out, i, v);
			break;
		case CO_DERIVED:
			derive(def, b, e, out);
			break;
		case CO_RAW:
			break;
		}
	}
}

void cometric_record(const struct co_set *vals, struct phase_rec *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++) {
		double v;

		if (co_set_at(vals, i, &v) && defs[i].kind != CO_RAW &&
		    isfinite(v))
			phase_rec_add_metric(p, defs[i].name, v, defs[i].unit,
					     BETTER_NONE);
	}
}
