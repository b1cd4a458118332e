/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * format.c - bonnie++'s formats: table cells and the CSV row
 * bon_csv2txt/bon_csv2html accept (declared in bonnie.h, unit-tested).
 */
#include "workloads/bonnie/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "util/pyrand.h"
#include "par.h"
#include "util/util.h"
#include "util/verify.h"

bool bon_too_fast(uint64_t wall_ns)
{
	return wall_ns < BON_MIN_NS;
}

void bon_fmt_rate(char *buf, size_t len, const struct bon_cell *c,
		  enum bon_test t)
{
	if (!c->present)
		snprintf(buf, len, "%s", "");
	else if (c->too_fast)
		snprintf(buf, len, "+++++");
	else if (t == BON_SEEKS && c->rate < 1000)
		snprintf(buf, len, "%.1f", c->rate);
	else
		snprintf(buf, len, "%lld", (long long)c->rate);
}

void bon_fmt_cpu(char *buf, size_t len, const struct bon_cell *c)
{
	if (!c->present)
		snprintf(buf, len, "%s", "");
	else if (c->too_fast)
		snprintf(buf, len, "+++");
	else
		snprintf(buf, len, "%d", (int)c->cpu_pct);
}

void bon_fmt_latency(char *buf, size_t len, double us)
{
	if (us < 0)
		snprintf(buf, len, "%s", "");
	else if (us < 10000)
		snprintf(buf, len, "%dus", (int)us);
	else if (us < 10000000)
		snprintf(buf, len, "%dms", (int)(us / 1000));
	else
		snprintf(buf, len, "%ds", (int)(us / 1000000));
}

void bon_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	uint64_t m = bytes / MIB;

	if (m && !(m % 1024))
		snprintf(buf, len, "%lluG", (unsigned long long)(m / 1024));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)m);
}

struct sbuf {
	char *s;
	size_t nr, alloc;
};

static void sb_add(struct sbuf *b, const char *s)
{
	size_t l = strlen(s);

	ALLOC_GROW(b->s, b->nr + l + 1, b->alloc);
	memcpy(b->s + b->nr, s, l + 1);
	b->nr += l;
}

/*
 * Field by field, 0-based as bon_csv2txt indexes them:
 * 0 format 1.98, 1 version, 2 name, 3 concurrency, 4 seed, 5 size,
 * 6 chunk, 7 seeks, 8 seekers, 9..20 the six I/O rates with %CP,
 * 21 files, 22 max, 23 min, 24 dirs, 25 file chunk, 26..37 the six
 * file-test rates with %CP, 38..49 the twelve latencies.
 *
 * bonnie++ 2.00a leaves field 6 (chunk) empty even though it has one,
 * and field 24 (dirs) empty when there is one directory; fslab fills
 * both (bon_csv2txt then shows "256M:8192:8192:5" and "1/1").  max and
 * min stay empty when 0, as bonnie++ writes them.
 */
char *bon_csv_row(const struct bon_row *r)
{
	struct sbuf b = { 0 };
	char t[64], u[64];

	snprintf(t, sizeof(t), "1.98,%s,", r->version);
	sb_add(&b, t);
	sb_add(&b, r->machine);
	snprintf(t, sizeof(t), ",%d,%llu,", r->concurrency,
		 (unsigned long long)r->seed);
	sb_add(&b, t);
	if (r->size) {
		bon_fmt_size(t, sizeof(t), r->size);
		sb_add(&b, t);
		snprintf(t, sizeof(t), ",%llu,%lld,%lld",
			 (unsigned long long)r->chunk, r->seeks, r->seekers);
		sb_add(&b, t);
	} else {
		sb_add(&b, ",,,");
	}
	for (int i = 0; i < BON_NR_IO; i++) {
		bon_fmt_rate(t, sizeof(t), &r->cell[i], (enum bon_test)i);
		bon_fmt_cpu(u, sizeof(u), &r->cell[i]);
		sb_add(&b, ",");
		sb_add(&b, t);
		sb_add(&b, ",");
		sb_add(&b, u);
	}
	if (r->have_files) {
		const struct bon_files *f = &r->files;

		snprintf(t, sizeof(t), ",%lld,", f->n);
		sb_add(&b, t);
		if (f->max) {
			snprintf(t, sizeof(t), "%llu",
				 (unsigned long long)f->max);
			sb_add(&b, t);
		}
		sb_add(&b, ",");
		if (f->min) {
			snprintf(t, sizeof(t), "%llu",
				 (unsigned long long)f->min);
			sb_add(&b, t);
		}
		snprintf(t, sizeof(t), ",%lld,", f->dirs);
		sb_add(&b, t);
		if (f->max) {
			snprintf(t, sizeof(t), "%llu",
				 (unsigned long long)f->chunk);
			sb_add(&b, t);
		}
	} else {
		sb_add(&b, ",,,,,");
	}
	for (int i = BON_NR_IO; i < BON_NR; i++) {
		bon_fmt_rate(t, sizeof(t), &r->cell[i], (enum bon_test)i);
		bon_fmt_cpu(u, sizeof(u), &r->cell[i]);
		sb_add(&b, ",");
		sb_add(&b, t);
		sb_add(&b, ",");
		sb_add(&b, u);
	}
	for (int i = 0; i < BON_NR; i++) {
		bon_fmt_latency(t, sizeof(t), r->cell[i].present ?
				r->cell[i].lat_us : -1);
		sb_add(&b, ",");
		sb_add(&b, t);
	}
	return b.s;
}
