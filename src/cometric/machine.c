// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * machine.c - the static facts recorded with every run (see machine.h).
 *
 * Everything is read from /proc and /sys, once per run and once per
 * target: nothing here runs a program, so a run on a machine without
 * systemd-detect-virt or lscpu records the same facts.  A file that
 * cannot be read gives "absent", which the checks report as "could not
 * be checked" rather than as fine.
 */
#include "cometric/machine.h"

#include <archive.h>
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "measure/result.h"
#include "util/strbuf.h"
#include "util/util.h"

#define MACHINE "machine"

/*
 * Lockdep, KASAN, kmemleak and page poisoning slow every lock, allocation
 * or page; the filesystems' own debug options add checks to every
 * operation (LKP builds its performance kernels without them).
 */
static const char *const machine_debug_options[] = {
	"CONFIG_LOCKDEP", "CONFIG_PROVE_LOCKING", "CONFIG_DEBUG_LOCK_ALLOC",
	"CONFIG_LOCK_STAT", "CONFIG_KASAN", "CONFIG_KCSAN", "CONFIG_KMSAN",
	"CONFIG_DEBUG_KMEMLEAK", "CONFIG_DEBUG_PAGEALLOC",
	"CONFIG_PAGE_POISONING", "CONFIG_DEBUG_OBJECTS", "CONFIG_DEBUG_VM",
	"CONFIG_DEBUG_ATOMIC_SLEEP", "CONFIG_SLUB_DEBUG_ON",
	"CONFIG_EXT4_DEBUG", "CONFIG_JBD2_DEBUG", "CONFIG_XFS_DEBUG",
	"CONFIG_XFS_WARN", "CONFIG_BTRFS_DEBUG", "CONFIG_BTRFS_ASSERT",
	"CONFIG_F2FS_CHECK_FS", "CONFIG_F2FS_FS_DEBUG", NULL,
};

/* Not listed: KFENCE and UBSAN's bounds checks, on in distribution
 * kernels and cheap enough not to distort a filesystem benchmark. */

void machine_config_debug(const char *config, size_t len, struct strbuf *out)
{
	size_t start = out->len;
	const char *p = config, *end = config + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);

		for (size_t i = 0; machine_debug_options[i]; i++) {
			size_t ol = strlen(machine_debug_options[i]);

			if (ll >= ol + 2 &&
			    !memcmp(p, machine_debug_options[i], ol) &&
			    p[ol] == '=' && (p[ol + 1] == 'y' ||
					     p[ol + 1] == 'm')) {
				if (out->len > start)
					strbuf_addch(out, ',');
				strbuf_addstr(out, machine_debug_options[i] +
					      strlen("CONFIG_"));
			}
		}
		p += ll + 1;
	}
	if (out->len == start)
		strbuf_addstr(out, "none");
}

char *machine_bracketed(const char *s)
{
	const char *o = strchr(s, '['), *c = o ? strchr(o, ']') : NULL;
	size_t n;

	if (o && c)
		return xstrndup(o + 1, (size_t)(c - o - 1));
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* The first line of a small file, trimmed; NULL when unreadable. */
static char *read_line(const char *path)
{
	char *s = read_file(path, NULL);
	size_t n;

	if (!s)
		return NULL;
	n = strcspn(s, "\n");
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	s[n] = '\0';
	return s;
}

static void add_file(struct run_rec *r, const char *scope, const char *key,
		     const char *path, bool bracketed)
{
	char *v = read_line(path);

	if (v && bracketed) {
		char *b = machine_bracketed(v);

		free(v);
		v = b;
	}
	run_rec_add_fact(r, scope, key, v && *v ? v : NULL);
	free(v);
}

/* A gzip'd file (/proc/config.gz) through libarchive's raw format. */
static char *read_gz(const char *path, size_t *len)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	struct strbuf sb = STRBUF_INIT;
	char buf[16384];
	la_ssize_t n;
	bool ok = false;

	archive_read_support_filter_gzip(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_filename(a, path, sizeof(buf)) == ARCHIVE_OK &&
	    archive_read_next_header(a, &e) == ARCHIVE_OK) {
		while ((n = archive_read_data(a, buf, sizeof(buf))) > 0)
			strbuf_add(&sb, buf, (size_t)n);
		ok = n == 0;
	}
	archive_read_free(a);
	if (!ok) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, len);
}

/* FNV-1a, 64 bits: a digest to tell two configs apart, not a checksum
 * against tampering. */
static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static void record_kernel(struct run_rec *r)
{
	struct utsname u;
	char *cfg = NULL, *path = NULL, digest[32];
	size_t len = 0;

	if (uname(&u) == 0) {
		run_rec_add_fact(r, MACHINE, "kernel.release", u.release);
		path = xasprintf("/boot/config-%s", u.release);
	}
	cfg = read_gz("/proc/config.gz", &len);
	if (cfg) {
		run_rec_add_fact(r, MACHINE, "kernel.config",
				 "/proc/config.gz");
	} else if (path && (cfg = read_file(path, &len))) {
		run_rec_add_fact(r, MACHINE, "kernel.config", path);
	}
	free(path);
	if (cfg) {
		struct strbuf sb = STRBUF_INIT;

		snprintf(digest, sizeof(digest), "%016" PRIx64,
			 fnv1a(cfg, len));
		run_rec_add_fact(r, MACHINE, "kernel.config_digest", digest);
		machine_config_debug(cfg, len, &sb);
		run_rec_add_fact(r, MACHINE, "kernel.debug", sb.buf);
		strbuf_release(&sb);
		free(cfg);
	} else {
		run_rec_add_fact(r, MACHINE, "kernel.config", NULL);
	}
}

static void record_cpu(struct run_rec *r)
{
	char *info = read_file("/proc/cpuinfo", NULL), *model = NULL;
	bool hyper = false;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	char buf[32];
	uint64_t mem = 0;
	char *mi;

	for (char *l = info; l && *l;) {
		char *nl = strchr(l, '\n');

		if (nl)
			*nl = '\0';
		if (!model && !strncmp(l, "model name", 10) && strchr(l, ':'))
			model = xstrdup(strchr(l, ':') + 2);
		if (!strncmp(l, "flags", 5) && strstr(l, " hypervisor"))
			hyper = true;
		l = nl ? nl + 1 : NULL;
	}
	free(info);
	run_rec_add_fact(r, MACHINE, "cpu.model", model);
	free(model);
	snprintf(buf, sizeof(buf), "%ld", n);
	run_rec_add_fact(r, MACHINE, "cpu.cores", n > 0 ? buf : NULL);
	add_file(r, MACHINE, "cpu.governor",
		 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", false);
	add_file(r, MACHINE, "cpu.driver",
		 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", false);
	add_file(r, MACHINE, "cpu.freq_min_kHz",
		 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq", false);
	add_file(r, MACHINE, "cpu.freq_max_kHz",
		 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq", false);
	add_file(r, MACHINE, "cpu.boost",
		 "/sys/devices/system/cpu/cpufreq/boost", false);

	mi = read_file("/proc/meminfo", NULL);
	if (mi && !strncmp(mi, "MemTotal:", 9))
		mem = strtoull(mi + 9, NULL, 10) * 1024;
	free(mi);
	snprintf(buf, sizeof(buf), "%" PRIu64, mem);
	run_rec_add_fact(r, MACHINE, "mem.total_B", mem ? buf : NULL);

	/* What the kernel reports: the CPU's hypervisor bit, then DMI. */
	if (hyper) {
		char *v = read_line("/sys/class/dmi/id/sys_vendor");
		char *p = read_line("/sys/class/dmi/id/product_name");
		char *s = xasprintf("yes%s%s%s%s%s", v || p ? " (" : "",
				    v ? v : "", v && p ? " " : "",
				    p ? p : "", v || p ? ")" : "");

		run_rec_add_fact(r, MACHINE, "virt.vm", s);
		free(s);
		free(v);
		free(p);
	} else {
		run_rec_add_fact(r, MACHINE, "virt.vm", "no");
	}
	run_rec_add_fact(r, MACHINE, "virt.container",
			 access("/.dockerenv", F_OK) == 0 ||
			 access("/run/.containerenv", F_OK) == 0 ? "yes" : "no");
}

/* The writeback and reclaim knobs that change what a filesystem
 * benchmark measures. */
static const char *const sysctls[] = {
	"vm/dirty_ratio", "vm/dirty_background_ratio", "vm/dirty_bytes",
	"vm/dirty_background_bytes", "vm/dirty_expire_centisecs",
	"vm/dirty_writeback_centisecs", "vm/swappiness",
	"vm/vfs_cache_pressure", "vm/min_free_kbytes", "vm/zone_reclaim_mode",
	"vm/laptop_mode", "kernel/numa_balancing", NULL,
};

static void record_sysctls(struct run_rec *r)
{
	for (size_t i = 0; sysctls[i]; i++) {
		char *path = xasprintf("/proc/sys/%s", sysctls[i]);
		char *key = xasprintf("sysctl.%s", sysctls[i]);

		for (char *p = key; *p; p++)
			if (*p == '/')
				*p = '.';
		add_file(r, MACHINE, key, path, false);
		free(key);
		free(path);
	}
	add_file(r, MACHINE, "thp.enabled",
		 "/sys/kernel/mm/transparent_hugepage/enabled", true);
	add_file(r, MACHINE, "thp.defrag",
		 "/sys/kernel/mm/transparent_hugepage/defrag", true);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void record_mitigations(struct run_rec *r)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;

	if (!d) {
		run_rec_add_fact(r, MACHINE, "mitigations", NULL);
		return;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			ALLOC_GROW(names, n + 1, alloc);
			names[n++] = xstrdup(de->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		char *key = xasprintf("mitigations.%s", names[i]);

		add_file(r, MACHINE, key, path, false);
		free(key);
		free(path);
		free(names[i]);
	}
	free(names);
}

void machine_record(struct run_rec *r)
{
	record_kernel(r);
	record_cpu(r);
	record_sysctls(r);
	record_mitigations(r);
}

int64_t machine_runq_wait_ns(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int64_t sum = 0;
	bool any = false;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[64], buf[128];
		unsigned long long run, wait;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%.20s/schedstat",
			 de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) &&
		    sscanf(buf, "%llu %llu", &run, &wait) == 2) {
			sum += (int64_t)wait;
			any = true;
		}
		fclose(f);
	}
	closedir(d);
	return any ? sum : -1;
}

static const char *machine_fs_name(long type, char *buf, size_t len)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} fs[] = {
		{ 0xEF53, "ext4" }, { 0x58465342, "xfs" },
		{ 0x9123683E, "btrfs" }, { 0xF2F52010, "f2fs" },
		{ 0x01021994, "tmpfs" }, { 0x858458F6, "ramfs" },
		{ 0x794C7630, "overlay" }, { 0x6969, "nfs" },
		{ 0x2FC12FC1, "zfs" }, { 0x65735546, "fuse" },
		{ 0xFF534D42, "cifs" }, { 0x4D44, "vfat" },
		{ 0x5346544E, "ntfs" }, { 0x73717368, "squashfs" },
		{ 0x9FA0, "proc" }, { 0x62656572, "sysfs" },
		{ 0x3153464A, "jfs" }, { 0x52654973, "reiserfs" },
		{ 0xCA451A4E, "bcachefs" }, { 0x2011BAB0, "exfat" },
		{ 0x24051905, "ubifs" }, { 0x5A3C69F0, "aufs" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(fs); i++)
		if ((unsigned long)(unsigned int)type == fs[i].magic)
			return fs[i].name;
	snprintf(buf, len, "0x%lx", (unsigned long)(unsigned int)type);
	return buf;
}

static void add_fstype(struct run_rec *r, const char *scope, const char *key,
		       const char *path)
{
	struct statfs sf;
	char buf[32];

	if (path && statfs(path, &sf) == 0)
		run_rec_add_fact(r, scope, key,
				 machine_fs_name((long)sf.f_type, buf,
						 sizeof(buf)));
	else
		run_rec_add_fact(r, scope, key, NULL);
}

void machine_record_target(struct run_rec *r, int idx, const char *devname,
			   const char *workdir, const char *state)
{
	char *scope = xasprintf("target:%d", idx);

	run_rec_add_fact(r, scope, "fs.state", state);
	add_fstype(r, scope, "fs.type", workdir);
	if (!devname || strchr(devname, '/') || devname[0] == '.') {
		run_rec_add_fact(r, scope, "dev.name", NULL);
		free(scope);
		return;
	}
	run_rec_add_fact(r, scope, "dev.name", devname);
	{
		static const struct {
			const char *key, *file;
			bool bracketed;
		} q[] = {
			{ "dev.model", "device/model", false },
			{ "dev.rotational", "queue/rotational", false },
			{ "dev.scheduler", "queue/scheduler", true },
			{ "dev.nr_requests", "queue/nr_requests", false },
			{ "dev.write_cache", "queue/write_cache", false },
			{ "dev.discard_max_B", "queue/discard_max_bytes",
			  false },
			{ "dev.read_ahead_kB", "queue/read_ahead_kb", false },
		};
		bool loop = !strncmp(devname, "loop", 4);

		for (size_t i = 0; i < ARRAY_SIZE(q); i++) {
			char *path = xasprintf("/sys/block/%s/%s", devname,
					       q[i].file);

			if (loop && !strcmp(q[i].key, "dev.model"))
				run_rec_add_fact(r, scope, q[i].key, "loop");
			else
				add_file(r, scope, q[i].key, path,
					 q[i].bracketed);
			free(path);
		}
		if (loop) {
			char *path = xasprintf("/sys/block/%s/loop/dio",
					       devname);
			char *bf = xasprintf("/sys/block/%s/loop/backing_file",
					     devname);
			char *backing = read_line(bf);
			char *dir = backing ? xstrdup(backing) : NULL;
			char *slash = dir ? strrchr(dir, '/') : NULL;

			add_file(r, scope, "loop.dio", path, false);
			if (slash)
				*(slash == dir ? slash + 1 : slash) = '\0';
			/* The directory: the image may be gone already. */
			add_fstype(r, scope, "loop.backing_fs", dir);
			free(dir);
			free(backing);
			free(bf);
			free(path);
		}
	}
	free(scope);
}
