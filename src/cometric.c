// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cometric.c - co-metrics around every phase (see cometric.h): the
 * definitions, the pure parsers, the snapshot and the difference.
 */
#include "cometric.h"

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "result.h"
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

const struct cometric_def *cometric_def(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++)
		if (!strcmp(defs[i].name, name))
			return &defs[i];
	return NULL;
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

static struct co_val *co_find(const struct co_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			return &s->v[i];
	return NULL;
}

void co_set_put(struct co_set *s, const char *name, double v)
{
	struct co_val *c = co_find(s, name);

	if (!c) {
		ALLOC_GROW(s->v, s->n + 1, s->alloc);
		c = &s->v[s->n++];
		c->name = name;
	}
	c->v = v;
}

static void co_set_add(struct co_set *s, const char *name, double v)
{
	struct co_val *c = co_find(s, name);

	if (c)
		c->v += v;
	else
		co_set_put(s, name, v);
}

bool co_set_get(const struct co_set *s, const char *name, double *v)
{
	const struct co_val *c = co_find(s, name);

	if (c && v)
		*v = c->v;
	return c != NULL;
}

void co_set_release(struct co_set *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* ---- parsers ---- */

/* The next line of *p as "KEY VALUE"; false at the end. */
static bool next_kv(const char **p, char *key, size_t klen,
		    unsigned long long *val, bool *have_val)
{
	const char *s = *p, *eol;
	size_t k = 0;
	char *end;

	if (!s || !*s)
		return false;
	eol = strchr(s, '\n');
	*p = eol ? eol + 1 : s + strlen(s);
	while (*s == ' ' || *s == '\t')
		s++;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n' && k + 1 < klen)
		key[k++] = *s++;
	key[k] = '\0';
	*val = strtoull(s, &end, 10);
	*have_val = end != s && (!*end || *end == '\n' || *end == ' ' ||
				 *end == '\t');
	return true;
}

static bool prefix_is(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* pgscan_kswapd, pgscan_direct (and 4.7's per-zone pgscan_direct_dma32
 * ...), pgscan_khugepaged, pgscan_proactive: not the anon/file split of
 * the same pages, not pgscan_direct_throttle. */
static bool reclaim_source(const char *rest)
{
	return prefix_is(rest, "kswapd") ||
	       (prefix_is(rest, "direct") && strcmp(rest, "direct_throttle")) ||
	       prefix_is(rest, "khugepaged") || prefix_is(rest, "proactive");
}

int cometric_parse_vmstat(const char *text, long page_size,
			  struct co_set *out)
{
	const double pg = (double)page_size;
	const char *p = text;
	unsigned long long v;
	char key[64];
	bool ok, any = false;

	while (next_kv(&p, key, sizeof(key), &v, &ok)) {
		double d = (double)v;

		if (!ok)
			continue;
		any = true;
		if (!strcmp(key, "nr_dirtied"))
			co_set_put(out, "vm.dirtied_B", d * pg);
		else if (!strcmp(key, "nr_written"))
			co_set_put(out, "vm.written_B", d * pg);
		else if (!strcmp(key, "pgpgin")) /* KiB */
			co_set_put(out, "vm.pgpgin_B", d * 1024);
		else if (!strcmp(key, "pgpgout"))
			co_set_put(out, "vm.pgpgout_B", d * 1024);
		else if (!strcmp(key, "pgfault"))
			co_set_put(out, "vm.pgfault", d);
		else if (!strcmp(key, "pgmajfault"))
			co_set_put(out, "vm.pgmajfault", d);
		else if (prefix_is(key, "allocstall"))
			co_set_add(out, "vm.allocstall", d);
		else if (prefix_is(key, "pgscan_") && reclaim_source(key + 7))
			co_set_add(out, "vm.pgscan", d);
		else if (prefix_is(key, "pgsteal_") && reclaim_source(key + 8))
			co_set_add(out, "vm.pgsteal", d);
		else if (!strcmp(key, "nr_throttled_written"))
			co_set_put(out, "vm.throttled_written_B", d * pg);
		else if (!strcmp(key, "pgscan_direct_throttle"))
			co_set_put(out, "vm.direct_throttle", d);
		else if (!strcmp(key, "nr_vmscan_write"))
			co_set_put(out, "vm.vmscan_write_B", d * pg);
		else if (!strcmp(key, "nr_dirty"))
			co_set_put(out, "vm.dirty_B", d * pg);
		else if (!strcmp(key, "nr_writeback"))
			co_set_put(out, "vm.writeback_B", d * pg);
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

/* Field i (from 0) of the line starting with "name " in an XFS stats
 * text; false when the line or the field is missing. */
static bool xfs_field(const char *text, const char *name, int i, double *v)
{
	size_t nl = strlen(name);
	const char *line = text;

	while (line && *line) {
		if (!strncmp(line, name, nl) && line[nl] == ' ') {
			const char *p = line + nl;
			unsigned long long x = 0;
			char *end;

			for (int k = 0; k <= i; k++) {
				x = strtoull(p, &end, 10);
				if (end == p || *p == '\n')
					return false;
				p = end;
			}
			*v = (double)x;
			return true;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return false;
}

int cometric_parse_xfs(const char *text, struct co_set *out)
{
	static const struct {
		const char *line;
		int field;
		const char *name;
	} one[] = {
		{ "log", 0, "xfs.log_writes" },
		{ "log", 1, "xfs.log_blocks" },
		{ "log", 3, "xfs.log_forces" },
		{ "log", 4, "xfs.log_force_sleeps" },
		{ "trans", 0, "xfs.trans_sync" },
		{ "trans", 1, "xfs.trans_async" },
		{ "extent_alloc", 0, "xfs.extents_allocated" },
		{ "extent_alloc", 1, "xfs.blocks_allocated" },
		{ "extent_alloc", 2, "xfs.extents_freed" },
		{ "dir", 1, "xfs.dir_creates" },
		{ "dir", 2, "xfs.dir_removes" },
		{ "push_ail", 0, "xfs.ail_pushes" },
		{ "xpc", 1, "xfs.write_B" },
		{ "xpc", 2, "xfs.read_B" },
	};
	/* The v2 btree lines (3.x+): lookup, compare, insrec, delrec, ... */
	static const struct {
		const char *line, *group;
	} bt[] = {
		{ "abtb2", "xfs.abt_ops" }, { "abtc2", "xfs.abt_ops" },
		{ "bmbt2", "xfs.bmbt_ops" }, { "ibt2", "xfs.ibt_ops" },
		{ "fibt2", "xfs.ibt_ops" }, { "rmapbt", NULL },
		{ "refcntbt", NULL },
	};
	bool any = false;
	double v;

	for (size_t i = 0; i < ARRAY_SIZE(one); i++)
		if (xfs_field(text, one[i].line, one[i].field, &v)) {
			co_set_put(out, one[i].name, v);
			any = true;
		}
	for (size_t i = 0; i < ARRAY_SIZE(bt); i++) {
		double sum = 0, x;
		bool have = false;

		for (int f = 0; f < 4; f++)
			if (f != 1 && xfs_field(text, bt[i].line, f, &x)) {
				sum += x;
				have = true;
			}
		if (!have)
			continue;
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
	char key[64];
	bool ok, any = false;

	while (next_kv(&p, key, sizeof(key), &v, &ok)) {
		if (!ok)
			continue;
		if (!strcmp(key, "commits")) {
			co_set_put(out, "btrfs.commits", (double)v);
			any = true;
		} else if (!strcmp(key, "total_commit_ms")) {
			co_set_put(out, "btrfs.commit_s", (double)v / 1e3);
			any = true;
		}
	}
	return any ? 0 : -1;
}

/* ---- the snapshot ---- */

/* Read a small /proc or /sys file; NULL when absent (not an error). */
static char *slurp(const char *path)
{
	return read_file(path, NULL);
}

static void read_parse(const char *path, struct co_set *out,
		       int (*parse)(const char *, struct co_set *))
{
	char *text = slurp(path);

	if (text)
		parse(text, out);
	free(text);
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

/* The CPU clock: absent on most VMs, so nothing is recorded there. */
static void snap_cpufreq(struct co_set *out)
{
	DIR *d = cometric_have_cpufreq() ? opendir("/sys/devices/system/cpu")
					 : NULL;
	struct dirent *de;
	double sum = 0;
	int n = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *path, *text;

		if (!cpu_dir(de->d_name))
			continue;
		path = xasprintf("/sys/devices/system/cpu/%s/cpufreq/"
				 "scaling_cur_freq", de->d_name);
		text = slurp(path);
		if (text) {
			sum += strtod(text, NULL) / 1e3; /* kHz */
			n++;
		}
		free(text);
		free(path);
	}
	closedir(d);
	if (n) {
		co_set_put(out, "cpu.freq_sum_MHz", sum);
		co_set_put(out, "cpu.freq_cpus", n);
	}
}

static bool is_ext(const char *fstype)
{
	return !strcmp(fstype, "ext3") || !strcmp(fstype, "ext4");
}

static void snap_fs(struct co_set *out, const struct cometric_src *src)
{
	const char *dev = src->devname, *fs = src->fstype;
	char *path, *text;

	if (!fs)
		return;
	if (dev && is_ext(fs)) {
		path = xasprintf("/proc/fs/jbd2/%s-8/info", dev);
		read_parse(path, out, cometric_parse_jbd2);
		free(path);
		path = xasprintf("/sys/fs/ext4/%s/session_write_kbytes", dev);
		text = slurp(path);
		if (text)
			co_set_put(out, "ext4.written_B",
				   strtod(text, NULL) * 1024);
		free(text);
		free(path);
	} else if (!strcmp(fs, "xfs")) {
		/* Per filesystem since 4.4; the global file otherwise. */
		path = dev ? xasprintf("/sys/fs/xfs/%s/stats/stats", dev)
			   : NULL;
		text = path ? slurp(path) : NULL;
		if (!text)
			text = slurp("/proc/fs/xfs/stat");
		if (text)
			cometric_parse_xfs(text, out);
		free(text);
		free(path);
	} else if (!strcmp(fs, "btrfs") && src->uuid && *src->uuid &&
		   !strchr(src->uuid, '/')) {
		path = xasprintf("/sys/fs/btrfs/%s/commit_stats", src->uuid);
		read_parse(path, out, cometric_parse_btrfs);
		free(path);
	}
}

static int parse_vmstat_here(const char *text, struct co_set *out)
{
	return cometric_parse_vmstat(text, sysconf(_SC_PAGESIZE), out);
}

void cometric_snap(struct cometric_snap *s, const struct cometric_src *src)
{
	static const char *const res[] = { "cpu", "io", "memory" };

	memset(s, 0, sizeof(*s));
	if (src->level == COMETRIC_NONE)
		return;
	read_parse("/proc/vmstat", &s->vals, parse_vmstat_here);
	snap_rusage(&s->vals);
	if (src->devname && !strchr(src->devname, '/')) {
		char *path = xasprintf("/sys/class/block/%s/stat",
				       src->devname);

		read_parse(path, &s->vals, cometric_parse_diskstat);
		free(path);
	}
	for (size_t i = 0; i < ARRAY_SIZE(res); i++) {
		char *path = xasprintf("/proc/pressure/%s", res[i]);
		char *text = slurp(path);

		if (text)
			cometric_parse_pressure(text, res[i], &s->vals);
		free(text);
		free(path);
	}
	snap_fs(&s->vals, src);
	if (src->level == COMETRIC_ALL)
		snap_cpufreq(&s->vals);
	s->mono_ns = now_ns();
}

void cometric_snap_release(struct cometric_snap *s)
{
	co_set_release(&s->vals);
}

/* end - begin of a counter present at both ends; a counter that went
 * backwards (a remount, a wrap) gives nothing. */
static bool delta(const struct cometric_snap *b, const struct cometric_snap *e,
		  const char *name, double *d)
{
	double x, y;

	if (!co_set_get(&b->vals, name, &x) || !co_set_get(&e->vals, name, &y) ||
	    y < x)
		return false;
	*d = y - x;
	return true;
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
			if (delta(b, e, def->name, &v))
				co_set_put(out, def->name, v);
			break;
		case CO_GAUGE:
			if (co_set_get(&e->vals, def->name, &v))
				co_set_put(out, def->name, v);
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
	for (size_t i = 0; i < vals->n; i++) {
		const struct cometric_def *def = cometric_def(vals->v[i].name);

		if (def && def->kind != CO_RAW && isfinite(vals->v[i].v))
			phase_rec_add_metric(p, def->name, vals->v[i].v,
					     def->unit, BETTER_NONE);
	}
}
