/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * freesp.c - free-space fragmentation: parse e2freefrag, xfs_db
 * freesp and mb_groups, probe a mounted filesystem.
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

/* ---- free-space fragmentation ---- */

void frag_freesp_release(struct frag_freesp *fs)
{
	free(fs->device);
	free(fs->fstype);
	fs->device = fs->fstype = NULL;
}

static uint64_t field_u64(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* "   64M...  128M-  :             4        118375   47.50%" */
int frag_parse_e2freefrag(const char *text, struct frag_freesp *fs)
{
	const char *p = strstr(text, "HISTOGRAM OF FREE EXTENT SIZES:");

	fs->blksize = field_u64(text, "Blocksize: ");
	fs->free_bytes = field_u64(text, "Free blocks: ") * fs->blksize;
	fs->free_extents = field_u64(text, "Num. free extent: ");
	fs->max_extent = field_u64(text, "Max. free extent: ") * 1024;
	if (!fs->blksize || !p)
		return -1;
	fs->nr_bins = 0;
	for (p = strchr(p, '\n'); p && *p; p = strchr(p, '\n')) {
		char lo[32], hi[32];
		unsigned long long ext, blocks;
		uint64_t l, h;

		p++;
		if (sscanf(p, " %31[0-9KMGTP]... %31[0-9KMGTP]- : %llu %llu",
			   lo, hi, &ext, &blocks) != 4)
			continue;
		if (parse_size(lo, &l) < 0 || parse_size(hi, &h) < 0 ||
		    fs->nr_bins == FRAG_FREESP_BINS)
			continue;
		fs->bins[fs->nr_bins].lo = l;
		fs->bins[fs->nr_bins].hi = h;
		fs->bins[fs->nr_bins].extents = ext;
		fs->bins[fs->nr_bins].bytes = blocks * fs->blksize;
		fs->nr_bins++;
	}
	return 0;
}

/*
 * One "freesp -s" section: "from to extents blocks pct" rows, then
 * "total free extents N" / "total free blocks N".  Returns the text
 * after the section, or NULL when there is none.
 */
static const char *xfs_section(const char *p, uint64_t blksize,
			       struct frag_freesp *fs, uint64_t *largest)
{
	bool any = false;

	if (fs)
		fs->nr_bins = 0;
	*largest = 0;
	while (p && *p) {
		unsigned long long from, to, ext, blocks;
		const char *nl = strchr(p, '\n');

		if (sscanf(p, " %llu %llu %llu %llu", &from, &to, &ext,
			   &blocks) == 4) {
			uint64_t big;

			any = true;
			/* The largest extent of the top bucket: exact when
			 * it is alone, else bounded by the others' minimum. */
			big = ext <= 1 ? blocks : blocks - (ext - 1) * from;
			if (big > to)
				big = to;
			if (ext)
				*largest = big * blksize;
			if (fs && fs->nr_bins < FRAG_FREESP_BINS) {
				fs->bins[fs->nr_bins].lo = from * blksize;
				fs->bins[fs->nr_bins].hi = (to + 1) * blksize;
				fs->bins[fs->nr_bins].extents = ext;
				fs->bins[fs->nr_bins].bytes = blocks * blksize;
				fs->nr_bins++;
			}
		} else if (!strncmp(p, "total free extents ", 19)) {
			if (fs)
				fs->free_extents = strtoull(p + 19, NULL, 10);
		} else if (!strncmp(p, "total free blocks ", 18)) {
			if (fs)
				fs->free_bytes = strtoull(p + 18, NULL, 10) *
						 blksize;
		} else if (!strncmp(p, "average free extent size", 24)) {
			return nl ? nl + 1 : p + strlen(p);
		}
		p = nl ? nl + 1 : NULL;
	}
	return any ? p : NULL;
}

int frag_parse_xfs_freesp(const char *text, uint64_t blksize,
			  struct frag_freesp *fs)
{
	uint64_t largest;

	fs->blksize = blksize;
	if (!xfs_section(text, blksize, fs, &largest))
		return -1;
	fs->max_extent = largest;
	return 0;
}

int frag_parse_xfs_ag_freesp(const char *text, double **pct, size_t *n)
{
	size_t alloc = 0;
	const char *p = text;

	*pct = NULL;
	*n = 0;
	for (;;) {
		struct frag_freesp one;
		uint64_t largest;

		memset(&one, 0, sizeof(one));
		p = xfs_section(p, 1, &one, &largest);
		if (!p)
			break;
		ALLOC_GROW(*pct, *n + 1, alloc);
		(*pct)[(*n)++] = one.free_bytes ? 100.0 * (1.0 -
			(double)largest / (double)one.free_bytes) : 0.0;
	}
	return *n ? 0 : -1;
}

/* "#0    : 28521 1     4247  [ 1 0 ... 3 ]": free, frags, first, buddy
 * counts per order.  One fragment: the largest is all of it; else the
 * biggest buddy order, a lower bound (buddies are aligned). */
int frag_parse_mb_groups(const char *text, double **pct, size_t *n)
{
	size_t alloc = 0;

	*pct = NULL;
	*n = 0;
	for (const char *p = text; p && *p; p = strchr(p, '\n')) {
		unsigned long long free_b, frags, first;
		unsigned long long largest = 0;
		const char *q;
		int order = 0, used;

		if (*p == '\n')
			p++;
		if (*p != '#' || p[1] < '0' || p[1] > '9')
			continue;
		q = strchr(p, ':');
		if (!q || sscanf(q + 1, " %llu %llu %llu [%n", &free_b, &frags,
				 &first, &used) != 3)
			continue;
		q += 1 + used;
		for (;;) {
			unsigned long long c;
			int m;

			if (sscanf(q, " %llu%n", &c, &m) != 1)
				break;
			if (c)
				largest = 1ULL << order;
			order++;
			q += m;
		}
		if (frags == 1)
			largest = free_b;
		ALLOC_GROW(*pct, *n + 1, alloc);
		(*pct)[(*n)++] = free_b ? 100.0 * (1.0 - (double)largest /
						   (double)free_b) : 0.0;
	}
	return *n ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void frag_freesp_groups(struct frag_freesp *fs, double *pct, size_t n)
{
	double sum = 0;

	fs->groups = n;
	if (!n)
		return;
	qsort(pct, n, sizeof(*pct), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += pct[i];
	fs->grp_mean = sum / (double)n;
	/* Nearest rank. */
	fs->grp_p50 = pct[(size_t)ceil(0.50 * (double)n) - 1];
	fs->grp_p95 = pct[(size_t)ceil(0.95 * (double)n) - 1];
	fs->grp_max = pct[n - 1];
}

/* The mount whose mount point is exactly path: source and fstype. */
static int mount_root_of(const char *path, char **src, char **fstype)
{
	char *real = realpath(path, NULL);
	char *text = read_file("/proc/self/mountinfo", NULL);
	char *line, *save = NULL;
	int rc = -1;

	if (!real || !text)
		goto out;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char mp[4096], fst[64], source[4096];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1 ||
		    sscanf(dash + 3, "%63s %4095s", fst, source) != 2)
			continue;
		/* The last match wins: it is the mount on top. */
		if (!strcmp(mp, real)) {
			free(*src);
			free(*fstype);
			*src = xstrdup(source);
			*fstype = xstrdup(fst);
			rc = 0;
		}
	}
out:
	free(real);
	free(text);
	return rc;
}

static void probe_ext4(struct frag_freesp *fs)
{
	char *argv[] = { (char *)"e2freefrag", fs->device, NULL };
	char *out = NULL, *mb, *sysp;
	double *pct;
	size_t n;
	int st;

	snprintf(fs->tool, sizeof(fs->tool), "e2freefrag");
	st = run_cmd(argv, &out, true);
	if (st != 0 || frag_parse_e2freefrag(out, fs) < 0) {
		snprintf(fs->why, sizeof(fs->why), "e2freefrag failed "
			 "(exit %d)", st);
		free(out);
		return;
	}
	free(out);
	fs->available = true;
	sysp = xasprintf("/proc/fs/ext4/%s/mb_groups",
			 strrchr(fs->device, '/') + 1);
	mb = read_file(sysp, NULL);
	free(sysp);
	if (mb && frag_parse_mb_groups(mb, &pct, &n) == 0) {
		frag_freesp_groups(fs, pct, n);
		free(pct);
	}
	free(mb);
}

static void probe_xfs(struct frag_freesp *fs)
{
	char *argv[] = { (char *)"xfs_db", (char *)"-r", (char *)"-c",
			 (char *)"sb 0", (char *)"-c", (char *)"p blocksize",
			 (char *)"-c", (char *)"p agcount", fs->device, NULL };
	char *out = NULL, **av;
	uint64_t bs, agc;
	size_t na = 0;
	double *pct;
	size_t n;
	int st;

	snprintf(fs->tool, sizeof(fs->tool), "xfs_db");
	st = run_cmd(argv, &out, true);
	bs = out ? field_u64(out, "blocksize = ") : 0;
	agc = out ? field_u64(out, "agcount = ") : 0;
	free(out);
	if (st != 0 || !bs || !agc || agc > 1000000) {
		snprintf(fs->why, sizeof(fs->why), "xfs_db failed (exit %d)",
			 st);
		return;
	}
	/* One xfs_db: the whole fs, then every AG. */
	/* xfs_db -r -c 'freesp -s' (-c AG)... DEV NULL */
	av = xcalloc(2 * agc + 6, sizeof(*av));
	av[na++] = xstrdup("xfs_db");
	av[na++] = xstrdup("-r");
	av[na++] = xstrdup("-c");
	av[na++] = xstrdup("freesp -s");
	for (uint64_t i = 0; i < agc; i++) {
		av[na++] = xstrdup("-c");
		av[na++] = xasprintf("freesp -s -a %llu",
				     (unsigned long long)i);
	}
	av[na++] = xstrdup(fs->device);
	out = NULL;
	st = run_cmd(av, &out, true);
	for (size_t i = 0; i < na; i++)
		free(av[i]);
	free(av);
	if (st != 0 || !out || frag_parse_xfs_freesp(out, bs, fs) < 0) {
		snprintf(fs->why, sizeof(fs->why), "xfs_db freesp failed "
			 "(exit %d)", st);
		free(out);
		return;
	}
	fs->available = true;
	{
		/* Skip the whole-fs section; the rest are the AGs. */
		const char *p = strstr(out, "average free extent size");

		p = p ? strchr(p, '\n') : NULL;
		if (p && frag_parse_xfs_ag_freesp(p + 1, &pct, &n) == 0) {
			frag_freesp_groups(fs, pct, n);
			free(pct);
		}
	}
	free(out);
}

void frag_freesp_probe(const char *path, struct frag_freesp *fs)
{
	struct stat st;

	memset(fs, 0, sizeof(*fs));
	if (!is_root()) {
		snprintf(fs->why, sizeof(fs->why), "needs root");
		return;
	}
	if (mount_root_of(path, &fs->device, &fs->fstype) < 0) {
		snprintf(fs->why, sizeof(fs->why), "'%s' is not the root of "
			 "a mount", path);
		return;
	}
	if (stat(fs->device, &st) < 0 || !S_ISBLK(st.st_mode)) {
		snprintf(fs->why, sizeof(fs->why), "'%s' is not a block "
			 "device", fs->device);
		return;
	}
	if (!strcmp(fs->fstype, "ext4") || !strcmp(fs->fstype, "ext3") ||
	    !strcmp(fs->fstype, "ext2"))
		probe_ext4(fs);
	else if (!strcmp(fs->fstype, "xfs"))
		probe_xfs(fs);
	else
		snprintf(fs->why, sizeof(fs->why), "no free-space tool for "
			 "%s", fs->fstype);
}
