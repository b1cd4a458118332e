/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse.c - the readers per source: /proc/vmstat, diskstats, pressure,
 * jbd2 info, xfs stats, btrfs sysfs, parsed into a co_set.
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
