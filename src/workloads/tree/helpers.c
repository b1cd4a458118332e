/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helpers.c - tree's pure helpers: order names and parsing, sorting by
 * inode and by disk position, m:ss, atime modes (declared in tree.h,
 * unit-tested).
 */
#include "workloads/tree/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/target.h"
#include "measure/measure.h"
#include "model/tarball.h"
#include "model/treemodel.h"
#include "util/sort.h"
#include "util/util.h"

/* ---- pure helpers (tree.h) ---- */

static const char *const order_names[TREE_NR_ORDERS] = {
	"readdir", "inode", "disk",
};

const char *tree_order_name(enum tree_order o)
{
	return (unsigned)o < TREE_NR_ORDERS ? order_names[o] : "?";
}

int tree_parse_orders(const char *s, enum tree_order *orders, size_t *nr,
		      char *err, size_t errlen)
{
	*nr = 0;
	while (*s) {
		size_t l = strcspn(s, "+");
		int o;

		for (o = 0; o < TREE_NR_ORDERS; o++)
			if (strlen(order_names[o]) == l &&
			    !strncmp(s, order_names[o], l))
				break;
		if (o == TREE_NR_ORDERS) {
			snprintf(err, errlen, "unknown order '%.*s' (want "
				 "readdir, inode or disk)", (int)l, s);
			return -1;
		}
		for (size_t i = 0; i < *nr; i++) {
			if (orders[i] == (enum tree_order)o) {
				snprintf(err, errlen, "order '%s' given "
					 "twice", order_names[o]);
				return -1;
			}
		}
		orders[(*nr)++] = (enum tree_order)o;
		s += l;
		if (*s == '+' && !*++s) {
			snprintf(err, errlen, "order list ends in '+'");
			return -1;
		}
	}
	if (!*nr) {
		snprintf(err, errlen, "no traversal order given");
		return -1;
	}
	return 0;
}

static int cmp_ino(const struct tree_file *a, const struct tree_file *b)
{
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return strcmp(a->path, b->path);
}

static int cmp_phys(const struct tree_file *a, const struct tree_file *b)
{
	if (a->phys != b->phys)
		return a->phys < b->phys ? -1 : 1;
	return cmp_ino(a, b);
}

struct file_cmp {
	int (*cmp)(const struct tree_file *, const struct tree_file *);
};

static int cmp_file(const void *a, const void *b, void *arg)
{
	const struct file_cmp *c = arg;

	return c->cmp(a, b);
}

/* Stable, so equal keys keep the walk order. */
static void file_sort(struct tree_file *v, size_t n,
		      int (*cmp)(const struct tree_file *,
				 const struct tree_file *))
{
	struct file_cmp c = { cmp };

	stable_sort(v, n, sizeof(*v), cmp_file, &c);
}

void tree_sort_ino(struct tree_file *v, size_t n)
{
	file_sort(v, n, cmp_ino);
}

void tree_sort_phys(struct tree_file *v, size_t n)
{
	file_sort(v, n, cmp_phys);
}

char *tree_fmt_mss(char *buf, size_t len, double secs)
{
	long long tenths;

	if (secs < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	tenths = (long long)(secs * 10 + 0.5);
	if (!tenths)
		snprintf(buf, len, "<0:00.1");
	else
		snprintf(buf, len, "%lld:%02lld.%lld", tenths / 600,
			 tenths / 10 % 60, tenths % 10);
	return buf;
}

static bool has_opt(const char *opts, const char *name)
{
	size_t l = strlen(name);

	for (const char *p = opts; p && *p;) {
		size_t n = strcspn(p, ",");

		if (n == l && !strncmp(p, name, l))
			return true;
		p += n;
		if (*p)
			p++;
	}
	return false;
}

const char *tree_atime_mode(const char *mount_opts)
{
	if (has_opt(mount_opts, "noatime"))
		return "noatime";
	if (has_opt(mount_opts, "relatime"))
		return "relatime";
	/* mountinfo shows no flag for strictatime */
	return "strictatime";
}

int tree_atime_code(const char *mode)
{
	return !strcmp(mode, "noatime") ? 0 :
	       !strcmp(mode, "relatime") ? 1 : 2;
}
