// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cometric.c - co-metrics around every phase (see cometric.h): the
 * definitions, the pure parsers, the snapshot and the difference.
 */
#include "cometric/cometric.h"

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

static void co_set_add(struct co_set *s, const char *name, double v)
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

/* ---- parsers ---- */

/* One line of a "KEY VALUE" text: the key (not NUL-terminated) and
 * where its value starts. */
struct kv {
	const char *key, *val;
	size_t klen;
};

/* The line at *p into kv, *p moved past it; false at the end. */
static bool next_kv(const char **p, struct kv *kv)
{
	const char *s = *p, *eol;

	if (!s || !*s)
		return false;
	eol = strchrnul(s, '\n');
	*p = *eol ? eol + 1 : eol;
	while (*s == ' ' || *s == '\t')
		s++;
	kv->key = s;
	while (s < eol && *s != ' ' && *s != '\t')
		s++;
	kv->klen = (size_t)(s - kv->key);
	while (s < eol && (*s == ' ' || *s == '\t'))
		s++;
	kv->val = s;
	return true;
}

/* The line's value, a decimal number ending the line or followed by a
 * blank; false when the line has none.  Parsed only for the lines a
 * parser wants: /proc/vmstat has some 180 and we use a few. */
static bool kv_value(const struct kv *kv, unsigned long long *v)
{
	char *end;

	if (*kv->val < '0' || *kv->val > '9')
		return false;
	*v = strtoull(kv->val, &end, 10);
	return !*end || *end == '\n' || *end == ' ' || *end == '\t';
}

static bool mem_is(const char *s, size_t len, const char *lit, size_t n)
{
	return len == n && !memcmp(s, lit, n);
}

static bool mem_prefix(const char *s, size_t len, const char *lit, size_t n)
{
	return len >= n && !memcmp(s, lit, n);
}

#define KEY_IS(s, len, lit) mem_is(s, len, lit, sizeof(lit) - 1)
#define KEY_PREFIX(s, len, lit) mem_prefix(s, len, lit, sizeof(lit) - 1)

static bool prefix_is(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* pgscan_kswapd, pgscan_direct (and 4.7's per-zone pgscan_direct_dma32
 * ...), pgscan_khugepaged, pgscan_proactive: not the anon/file split of
 * the same pages, not pgscan_direct_throttle. */
static bool reclaim_source(const char *rest, size_t len)
{
	return KEY_PREFIX(rest, len, "kswapd") ||
	       (KEY_PREFIX(rest, len, "direct") &&
		!KEY_IS(rest, len, "direct_throttle")) ||
	       KEY_PREFIX(rest, len, "khugepaged") ||
	       KEY_PREFIX(rest, len, "proactive");
}

enum vm_unit { VM_COUNT, VM_PAGES, VM_KIB };

/* The /proc/vmstat lines recorded as they are (scaled to bytes). */
static const struct {
	const char *key;
	size_t len;
	enum vm_unit unit;
	const char *name;
} vm_keys[] = {
#define VK(k) k, sizeof(k) - 1
	{ VK("nr_dirtied"), VM_PAGES, "vm.dirtied_B" },
	{ VK("nr_written"), VM_PAGES, "vm.written_B" },
	{ VK("pgpgin"), VM_KIB, "vm.pgpgin_B" },
	{ VK("pgpgout"), VM_KIB, "vm.pgpgout_B" },
	{ VK("pgfault"), VM_COUNT, "vm.pgfault" },
	{ VK("pgmajfault"), VM_COUNT, "vm.pgmajfault" },
	{ VK("nr_throttled_written"), VM_PAGES, "vm.throttled_written_B" },
	{ VK("pgscan_direct_throttle"), VM_COUNT, "vm.direct_throttle" },
	{ VK("nr_vmscan_write"), VM_PAGES, "vm.vmscan_write_B" },
	{ VK("nr_dirty"), VM_PAGES, "vm.dirty_B" },
	{ VK("nr_writeback"), VM_PAGES, "vm.writeback_B" },
#undef VK
};

int cometric_parse_vmstat(const char *text, long page_size,
			  struct co_set *out)
{
	const double scale[] = { [VM_COUNT] = 1, [VM_PAGES] = page_size,
				 [VM_KIB] = 1024 };
	const char *p = text;
	unsigned long long v;
	bool any = false;
	struct kv kv;

	while (next_kv(&p, &kv)) {
		const char *k = kv.key, *name = NULL;
		size_t len = kv.klen, ki;

		/* Shaped "KEY VALUE" at all?  Asked until one line is. */
		if (!any) {
			if (!kv_value(&kv, &v))
				continue;
			any = true;
		}
		for (ki = 0; ki < ARRAY_SIZE(vm_keys); ki++)
			if (mem_is(k, len, vm_keys[ki].key, vm_keys[ki].len))
				break;
		if (ki < ARRAY_SIZE(vm_keys))
			name = vm_keys[ki].name;
		else if (KEY_PREFIX(k, len, "allocstall"))
			name = "vm.allocstall";
		else if (KEY_PREFIX(k, len, "pgscan_") &&
			 reclaim_source(k + 7, len - 7))
			name = "vm.pgscan";
		else if (KEY_PREFIX(k, len, "pgsteal_") &&
			 reclaim_source(k + 8, len - 8))
			name = "vm.pgsteal";
		if (!name || !kv_value(&kv, &v))
			continue;
		if (ki < ARRAY_SIZE(vm_keys)) /* one line each */
			co_set_put(out, name,
				   (double)v * scale[vm_keys[ki].unit]);
		else /* the sum of a family of lines */
			co_set_add(out, name, (double)v);
	}
	return any ? 0 : -1;
}

int cometric_parse_diskstat(const char *text, struct co_set *out)
{
	unsigned long long f[17];
	const char *p = text;
	char *end;
	int n = 0;

	while (n < 17) {
		f[n] = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
		n++;
	}
	/* Documentation/block/stat.rst: 11 fields, 15 since 4.18, 17
	 * since 5.5; sectors are 512 bytes whatever the device's. */
	if (n < 11)
		return -1;
	co_set_put(out, "dev.rd_ios", (double)f[0]);
	co_set_put(out, "dev.read_merges", (double)f[1]);
	co_set_put(out, "dev.rd_bytes", (double)f[2] * 512);
	co_set_put(out, "dev.rd_ticks_ms", (double)f[3]);
	co_set_put(out, "dev.wr_ios", (double)f[4]);
	co_set_put(out, "dev.write_merges", (double)f[5]);
	co_set_put(out, "dev.wr_bytes", (double)f[6] * 512);
	co_set_put(out, "dev.wr_ticks_ms", (double)f[7]);
	co_set_put(out, "dev.in_flight", (double)f[8]);
	co_set_put(out, "dev.io_ticks_ms", (double)f[9]);
	co_set_put(out, "dev.time_in_queue_ms", (double)f[10]);
	if (n >= 15) {
		co_set_put(out, "dev.discards", (double)f[11]);
		co_set_put(out, "dev.discard_B", (double)f[13] * 512);
	}
	if (n >= 17) {
		co_set_put(out, "dev.flushes", (double)f[15]);
		co_set_put(out, "dev.flush_ticks_ms", (double)f[16]);
	}
	return 0;
}

int cometric_parse_pressure(const char *text, const char *res,
			    struct co_set *out)
{
	static const char *const names[][2] = {
		{ "psi.cpu_some_s", "psi.cpu_full_s" },
		{ "psi.io_some_s", "psi.io_full_s" },
		{ "psi.memory_some_s", "psi.memory_full_s" },
	};
	int r = !strcmp(res, "cpu") ? 0 : !strcmp(res, "io") ? 1 :
		!strcmp(res, "memory") ? 2 : -1;
	const char *line = text;
	bool any = false;

	if (r < 0)
		return -1;
	while (line && *line) {
		int which = prefix_is(line, "some ") ? 0 :
			    prefix_is(line, "full ") ? 1 : -1;
		const char *eol = strchr(line, '\n');
		const char *t = strstr(line, "total=");

		if (which >= 0 && t && (!eol || t < eol)) {
			/* total is in microseconds */
			co_set_put(out, names[r][which],
				   (double)strtoull(t + 6, NULL, 10) / 1e6);
			any = true;
		}
		line = eol ? eol + 1 : NULL;
	}
	return any ? 0 : -1;
}

/*
 * jbd2 prints averages over every transaction since mount (integer
 * divisions), so a total is the count times its average: exact for the
 * count, within one unit per transaction for the rest, which on the
 * fresh filesystem of a repetition is far below a phase's own figures.
 */
int cometric_parse_jbd2(const char *text, struct co_set *out)
{
	static const struct {
		const char *tail, *name;
		double scale;
	} avg[] = {
		{ "ms running transaction", "jbd2.running_s", 1e-3 },
		{ "ms flushing data (in ordered mode)", "jbd2.flushing_s", 1e-3 },
		{ "ms logging transaction", "jbd2.logging_s", 1e-3 },
		{ " handles per transaction", "jbd2.handles", 1 },
		{ " blocks per transaction", "jbd2.blocks", 1 },
		{ " logged blocks per transaction", "jbd2.blocks_logged", 1 },
	};
	unsigned long long tid, req = 0;
	const char *line;

	if (sscanf(text, "%llu transactions (%llu requested)", &tid, &req) < 1)
		return -1;
	co_set_put(out, "jbd2.commits", (double)tid);
	co_set_put(out, "jbd2.commits_requested", (double)req);
	/*
	 * Before its first commit the journal prints the first line only
	 * (jbd2_seq_info_show returns when ts_tid is 0), yet every total
	 * is known: nothing has been committed, so each is 0.  Leaving
	 * them out lost the first phase of every fresh filesystem, the
	 * create phase of a planted cause included, for want of a start.
	 */
	if (tid == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(avg); i++)
			co_set_put(out, avg[i].name, 0);
		return 0;
	}
	for (line = strchr(text, '\n'); line; line = strchr(line, '\n')) {
		unsigned long long v;
		char *end;
		size_t len;

		line++;
		while (*line == ' ')
			line++;
		v = strtoull(line, &end, 10);
		if (end == line)
			continue;
		len = strcspn(end, "\n");
		if (len == strlen("us average transaction commit time") &&
		    !strncmp(end, "us average transaction commit time", len)) {
			co_set_put(out, "jbd2.commit_time_s", (double)v / 1e6);
			continue;
		}
		for (size_t i = 0; i < ARRAY_SIZE(avg); i++)
			if (strlen(avg[i].tail) == len &&
			    !strncmp(end, avg[i].tail, len))
				co_set_put(out, avg[i].name, (double)v *
					   (double)tid * avg[i].scale);
	}
	return 0;
}

/* The lines of an XFS stats text the co-metrics come from. */
enum xfs_line {
	XL_LOG, XL_TRANS, XL_EXTENT_ALLOC, XL_DIR, XL_PUSH_AIL, XL_XPC,
	XL_ABTB2, XL_ABTC2, XL_BMBT2, XL_IBT2, XL_FIBT2, XL_RMAPBT,
	XL_REFCNTBT, XL_NR
};

#define XFS_FIELDS 5 /* the most fields of a line we use */

int cometric_parse_xfs(const char *text, struct co_set *out)
{
	static const char *const line_name[XL_NR] = {
		[XL_LOG] = "log", [XL_TRANS] = "trans",
		[XL_EXTENT_ALLOC] = "extent_alloc", [XL_DIR] = "dir",
		[XL_PUSH_AIL] = "push_ail", [XL_XPC] = "xpc",
		[XL_ABTB2] = "abtb2", [XL_ABTC2] = "abtc2",
		[XL_BMBT2] = "bmbt2", [XL_IBT2] = "ibt2",
		[XL_FIBT2] = "fibt2", [XL_RMAPBT] = "rmapbt",
		[XL_REFCNTBT] = "refcntbt",
	};
	static const struct {
		enum xfs_line line;
		int field;
		const char *name;
	} one[] = {
		{ XL_LOG, 0, "xfs.log_writes" },
		{ XL_LOG, 1, "xfs.log_blocks" },
		{ XL_LOG, 3, "xfs.log_forces" },
		{ XL_LOG, 4, "xfs.log_force_sleeps" },
		{ XL_TRANS, 0, "xfs.trans_sync" },
		{ XL_TRANS, 1, "xfs.trans_async" },
		{ XL_EXTENT_ALLOC, 0, "xfs.extents_allocated" },
		{ XL_EXTENT_ALLOC, 1, "xfs.blocks_allocated" },
		{ XL_EXTENT_ALLOC, 2, "xfs.extents_freed" },
		{ XL_DIR, 1, "xfs.dir_creates" },
		{ XL_DIR, 2, "xfs.dir_removes" },
		{ XL_PUSH_AIL, 0, "xfs.ail_pushes" },
		{ XL_XPC, 1, "xfs.write_B" },
		{ XL_XPC, 2, "xfs.read_B" },
	};
	/* The v2 btree lines (3.x+): lookup, compare, insrec, delrec, ... */
	static const struct {
		enum xfs_line line;
		const char *group;
	} bt[] = {
		{ XL_ABTB2, "xfs.abt_ops" }, { XL_ABTC2, "xfs.abt_ops" },
		{ XL_BMBT2, "xfs.bmbt_ops" }, { XL_IBT2, "xfs.ibt_ops" },
		{ XL_FIBT2, "xfs.ibt_ops" }, { XL_RMAPBT, NULL },
		{ XL_REFCNTBT, NULL },
	};
	unsigned long long f[XL_NR][XFS_FIELDS];
	int nf[XL_NR]; /* fields read from the line; -1: no such line */
	const char *p = text;
	bool any = false;
	struct kv kv;

	for (int x = 0; x < XL_NR; x++)
		nf[x] = -1;
	/* One pass over the text, the first line of each name kept. */
	while (next_kv(&p, &kv)) {
		const char *q = kv.val;
		int x;

		for (x = 0; x < XL_NR; x++)
			if (nf[x] < 0 && kv.klen == strlen(line_name[x]) &&
			    !memcmp(kv.key, line_name[x], kv.klen))
				break;
		if (x == XL_NR)
			continue;
		for (nf[x] = 0; nf[x] < XFS_FIELDS; nf[x]++) {
			char *end;

			if (*q < '0' || *q > '9')
				break;
			f[x][nf[x]] = strtoull(q, &end, 10);
			for (q = end; *q == ' ' || *q == '\t'; q++)
				;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(one); i++)
		if (one[i].field < nf[one[i].line]) {
			co_set_put(out, one[i].name,
				   (double)f[one[i].line][one[i].field]);
			any = true;
		}
	for (size_t i = 0; i < ARRAY_SIZE(bt); i++) {
		int n = nf[bt[i].line];
		double sum = 0;

		if (n < 1)
			continue;
		for (int k = 0; k < 4 && k < n; k++)
			if (k != 1) /* compare: not an operation */
				sum += (double)f[bt[i].line][k];
		co_set_add(out, "xfs.btree_ops", sum);
		if (bt[i].group)
			co_set_add(out, bt[i].group, sum);
	}
	return any ? 0 : -1;
}

int cometric_parse_btrfs(const char *text, struct co_set *out)
{
	const char *p = text;
	unsigned long long v;
	bool any = false;
	struct kv kv;

	while (next_kv(&p, &kv)) {
		if (KEY_IS(kv.key, kv.klen, "commits") && kv_value(&kv, &v)) {
			co_set_put(out, "btrfs.commits", (double)v);
			any = true;
		} else if (KEY_IS(kv.key, kv.klen, "total_commit_ms") &&
			   kv_value(&kv, &v)) {
			co_set_put(out, "btrfs.commit_s", (double)v / 1e3);
			any = true;
		}
	}
	return any ? 0 : -1;
}

/* ---- the snapshot ---- */

/*
 * One file snapshots read.  path NULL: none.  fd -1: not open (to be
 * opened at the next read, unless gone).
 */
struct co_file {
	char *path;
	int fd;
	bool gone;      /* absent (or refused): not tried again */
	bool per_read;  /* opened for each read: the kernel copies the
			 * figures when it is opened (jbd2's info) */
	bool one_show;  /* a seq_file of one record (a sysfs attribute,
			 * single_open): the first read that leaves room in
			 * the buffer has the whole text, no read of the end
			 * needed; /proc/vmstat has a record per line */
};

enum {
	CF_VMSTAT, CF_PSI_CPU, CF_PSI_IO, CF_PSI_MEMORY, /* the machine's */
	CF_DISK, CF_FS, CF_FS_WRITTEN,                  /* the target's */
	CF_NR
};
#define CF_TARGET CF_DISK

enum co_fs { CO_FS_OTHER, CO_FS_EXT, CO_FS_XFS, CO_FS_BTRFS };

struct cometric_reader {
	struct co_file f[CF_NR];
	/* The target the files from CF_TARGET on are of. */
	bool bound;
	char *devname, *fstype, *uuid;
	enum co_fs fs;
	/* scaling_cur_freq of every CPU (--co-metrics=all), listed once */
	struct co_file *cpu;
	size_t nr_cpu;
	bool cpu_listed;
	char *buf; /* the text read last, reused */
	size_t alloc;
	long page_size;
};

static void co_file_set(struct co_file *f, char *path, bool one_show)
{
	free(f->path);
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->fd = -1;
	f->one_show = one_show;
}

static void co_file_close(struct co_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

static void co_file_release(struct co_file *f)
{
	co_file_close(f);
	free(f->path);
	f->path = NULL;
}

struct cometric_reader *cometric_reader_new(void)
{
	struct cometric_reader *r = xcalloc(1, sizeof(*r));

	for (size_t i = 0; i < CF_NR; i++)
		co_file_set(&r->f[i], NULL, true);
	co_file_set(&r->f[CF_VMSTAT], xstrdup("/proc/vmstat"), false);
	co_file_set(&r->f[CF_PSI_CPU], xstrdup("/proc/pressure/cpu"), true);
	co_file_set(&r->f[CF_PSI_IO], xstrdup("/proc/pressure/io"), true);
	co_file_set(&r->f[CF_PSI_MEMORY], xstrdup("/proc/pressure/memory"),
		    true);
	r->page_size = sysconf(_SC_PAGESIZE);
	return r;
}

void cometric_reader_free(struct cometric_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < CF_NR; i++)
		co_file_release(&r->f[i]);
	for (size_t i = 0; i < r->nr_cpu; i++)
		co_file_release(&r->cpu[i]);
	free(r->cpu);
	free(r->devname);
	free(r->fstype);
	free(r->uuid);
	free(r->buf);
	free(r);
}

/* Read fd from offset 0 into r->buf, NUL-terminated: its length, or -1
 * with errno set.  procfs and sysfs make the text again at offset 0. */
static ssize_t read_at0(struct cometric_reader *r, int fd, bool one_show)
{
	size_t n = 0;

	for (;;) {
		ssize_t got;

		if (r->alloc - n < 2)
			ALLOC_GROW(r->buf, n + 8192, r->alloc);
		got = pread(fd, r->buf + n, r->alloc - n - 1, (off_t)n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		n += (size_t)got;
		if (!got || (one_show && n < r->alloc - 1))
			break;
	}
	r->buf[n] = '\0';
	return (ssize_t)n;
}

static int co_open(struct co_file *f)
{
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	return f->fd < 0 ? -1 : 0;
}

/*
 * f's text (in r->buf, valid until the next read), or NULL when it
 * cannot be read: absent, as on a kernel without it, is no error.  A
 * file kept open that fails to read belonged to a kernel object that
 * went away (the filesystem was unmounted: ENODEV, EIO), so its path is
 * opened again, once.
 */
static const char *co_read(struct cometric_reader *r, struct co_file *f)
{
	bool fresh = f->fd < 0;
	ssize_t n;

	if (!f->path || f->gone)
		return NULL;
	if (fresh && co_open(f) < 0) {
		/* Out of descriptors or memory is for now, not for the run. */
		f->gone = errno != EMFILE && errno != ENFILE &&
			  errno != ENOMEM && errno != EINTR;
		return NULL;
	}
	n = read_at0(r, f->fd, f->one_show);
	if (n < 0 && !fresh) {
		co_file_close(f);
		if (co_open(f) < 0)
			return NULL; /* tried again at the next snapshot */
		n = read_at0(r, f->fd, f->one_show);
	}
	if (n < 0 || f->per_read)
		co_file_close(f);
	return n < 0 ? NULL : r->buf;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static bool is_ext(const char *fstype)
{
	return !strcmp(fstype, "ext3") || !strcmp(fstype, "ext4");
}

/* A name that is one path component. */
static bool component(const char *s)
{
	return s && *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

/* The target's files, named again when src is another target. */
static void bind_target(struct cometric_reader *r,
			const struct cometric_src *src)
{
	const char *dev = component(src->devname) ? src->devname : NULL;
	const char *fs = src->fstype;

	if (r->bound && same(r->devname, src->devname) &&
	    same(r->fstype, src->fstype) && same(r->uuid, src->uuid))
		return;
	free(r->devname);
	free(r->fstype);
	free(r->uuid);
	r->devname = dup_or_null(src->devname);
	r->fstype = dup_or_null(src->fstype);
	r->uuid = dup_or_null(src->uuid);
	r->bound = true;
	for (size_t i = CF_TARGET; i < CF_NR; i++) {
		co_file_release(&r->f[i]);
		co_file_set(&r->f[i], NULL, true);
	}
	r->fs = CO_FS_OTHER;
	if (dev)
		co_file_set(&r->f[CF_DISK],
			    xasprintf("/sys/class/block/%s/stat", dev), true);
	if (!fs)
		return;
	if (dev && is_ext(fs)) {
		r->fs = CO_FS_EXT;
		co_file_set(&r->f[CF_FS],
			    xasprintf("/proc/fs/jbd2/%s-8/info", dev), true);
		r->f[CF_FS].per_read = true;
		co_file_set(&r->f[CF_FS_WRITTEN],
			    xasprintf("/sys/fs/ext4/%s/session_write_kbytes",
				      dev), true);
	} else if (!strcmp(fs, "xfs")) {
		/* Per filesystem since 4.4, else the global file: sysfs's
		 * since 4.4 too, /proc/fs/xfs/stat before (a symbolic link
		 * to it since, not followed). */
		static const char *const global[] = {
			"/sys/fs/xfs/stats/stats", "/proc/fs/xfs/stat",
		};
		struct co_file *f = &r->f[CF_FS];

		r->fs = CO_FS_XFS;
		if (dev) {
			co_file_set(f, xasprintf("/sys/fs/xfs/%s/stats/stats",
						 dev), true);
			if (!co_open(f))
				return;
		}
		for (size_t i = 0; i < ARRAY_SIZE(global); i++) {
			co_file_set(f, xstrdup(global[i]), true);
			if (!co_open(f))
				return;
		}
		f->gone = true;
	} else if (!strcmp(fs, "btrfs") && component(src->uuid)) {
		r->fs = CO_FS_BTRFS;
		co_file_set(&r->f[CF_FS],
			    xasprintf("/sys/fs/btrfs/%s/commit_stats",
				      src->uuid), true);
	}
}

static void snap_rusage(struct co_set *out)
{
	struct rusage self, kids;

	if (getrusage(RUSAGE_SELF, &self) || getrusage(RUSAGE_CHILDREN, &kids))
		return;
	co_set_put(out, "proc.minor_faults",
		   (double)(self.ru_minflt + kids.ru_minflt));
	co_set_put(out, "proc.major_faults",
		   (double)(self.ru_majflt + kids.ru_majflt));
	co_set_put(out, "proc.voluntary_switches",
		   (double)(self.ru_nvcsw + kids.ru_nvcsw));
	co_set_put(out, "proc.involuntary_switches",
		   (double)(self.ru_nivcsw + kids.ru_nivcsw));
}

static bool cpu_dir(const char *name)
{
	if (strncmp(name, "cpu", 3) || !name[3])
		return false;
	for (const char *p = name + 3; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

bool cometric_have_cpufreq(void)
{
	return !access("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
		       R_OK);
}

/* Every CPU's clock file, listed at the first snapshot that wants them
 * (a CPU brought online later is not seen). */
static void list_cpus(struct cometric_reader *r)
{
	DIR *d;
	struct dirent *de;
	size_t alloc = 0;

	r->cpu_listed = true;
	d = cometric_have_cpufreq() ? opendir("/sys/devices/system/cpu")
				    : NULL;
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!cpu_dir(de->d_name))
			continue;
		ALLOC_GROW(r->cpu, r->nr_cpu + 1, alloc);
		co_file_set(&r->cpu[r->nr_cpu++],
			    xasprintf("/sys/devices/system/cpu/%s/cpufreq/"
				      "scaling_cur_freq", de->d_name), true);
	}
	closedir(d);
}

/* The CPU clock: absent on most VMs, so nothing is recorded there. */
static void snap_cpufreq(struct cometric_reader *r, struct co_set *out)
{
	double sum = 0;
	int n = 0;

	if (!r->cpu_listed)
		list_cpus(r);
	for (size_t i = 0; i < r->nr_cpu; i++) {
		const char *text = co_read(r, &r->cpu[i]);

		if (text) {
			sum += strtod(text, NULL) / 1e3; /* kHz */
			n++;
		}
	}
	if (n) {
		co_set_put(out, "cpu.freq_sum_MHz", sum);
		co_set_put(out, "cpu.freq_cpus", n);
	}
}

static void snap_fs(struct cometric_reader *r, struct co_set *out)
{
	const char *text = co_read(r, &r->f[CF_FS]);

	switch (r->fs) {
	case CO_FS_EXT:
		if (text)
			cometric_parse_jbd2(text, out);
		text = co_read(r, &r->f[CF_FS_WRITTEN]);
		if (text)
			co_set_put(out, "ext4.written_B",
				   strtod(text, NULL) * 1024);
		break;
	case CO_FS_XFS:
		if (text)
			cometric_parse_xfs(text, out);
		break;
	case CO_FS_BTRFS:
		if (text)
			cometric_parse_btrfs(text, out);
		break;
	case CO_FS_OTHER:
		break;
	}
}

void cometric_snap(struct cometric_snap *s, const struct cometric_src *src,
		   struct cometric_reader *r)
{
	static const char *const res[] = { "cpu", "io", "memory" };
	struct cometric_reader *own = NULL;
	const char *text;

	memset(s, 0, sizeof(*s));
	if (src->level == COMETRIC_NONE)
		return;
	if (!r)
		r = own = cometric_reader_new();
	bind_target(r, src);
	if ((text = co_read(r, &r->f[CF_VMSTAT])))
		cometric_parse_vmstat(text, r->page_size, &s->vals);
	snap_rusage(&s->vals);
	if ((text = co_read(r, &r->f[CF_DISK])))
		cometric_parse_diskstat(text, &s->vals);
	for (size_t i = 0; i < ARRAY_SIZE(res); i++)
		if ((text = co_read(r, &r->f[CF_PSI_CPU + i])))
			cometric_parse_pressure(text, res[i], &s->vals);
	snap_fs(r, &s->vals);
	if (src->level == COMETRIC_ALL)
		snap_cpufreq(r, &s->vals);
	s->mono_ns = now_ns();
	cometric_reader_free(own);
}

void cometric_snap_release(struct cometric_snap *s)
{
	co_set_release(&s->vals);
}

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
