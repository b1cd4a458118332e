// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cometric.c - co-metrics around every phase (see cometric.h): the
 * snapshot: which files are read for a target, and reading them
 * (the table and the difference are in table.c, the parsers in parse.c).
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
