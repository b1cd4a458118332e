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

#include "util/strbuf.h"
#include "util/util.h"

bool bon_too_fast(uint64_t wall_ns)
{
	return wall_ns < BON_MIN_NS;
}

const char *bon_rate_metric(enum bon_test t)
{
	return t < BON_SEEKS ? "rate_KiB/s" : t == BON_SEEKS ? "rate_seeks/s"
							    : "rate_files/s";
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

/* ",rate,%CP" for the tests [from, to) */
static void add_cells(struct strbuf *b, const struct bon_row *r, int from,
		      int to)
{
	char t[64], u[64];

	for (int i = from; i < to; i++) {
		bon_fmt_rate(t, sizeof(t), &r->cell[i], (enum bon_test)i);
		bon_fmt_cpu(u, sizeof(u), &r->cell[i]);
		strbuf_addf(b, ",%s,%s", t, u);
	}
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
	struct strbuf b;
	char t[64];

	strbuf_init(&b, 256);
	strbuf_addf(&b, "1.98,%s,%s,%d,%llu,", r->version, r->machine,
		    r->concurrency, (unsigned long long)r->seed);
	if (r->size) {
		bon_fmt_size(t, sizeof(t), r->size);
		strbuf_addf(&b, "%s,%llu,%lld,%lld", t,
			    (unsigned long long)r->chunk, r->seeks, r->seekers);
	} else {
		strbuf_addstr(&b, ",,,");
	}
	add_cells(&b, r, 0, BON_NR_IO);
	if (r->have_files) {
		const struct bon_files *f = &r->files;

		strbuf_addf(&b, ",%lld,", f->n);
		if (f->max)
			strbuf_addf(&b, "%llu", (unsigned long long)f->max);
		strbuf_addch(&b, ',');
		if (f->min)
			strbuf_addf(&b, "%llu", (unsigned long long)f->min);
		strbuf_addf(&b, ",%lld,", f->dirs);
		if (f->max)
			strbuf_addf(&b, "%llu", (unsigned long long)f->chunk);
	} else {
		strbuf_addstr(&b, ",,,,,");
	}
	add_cells(&b, r, BON_NR_IO, BON_NR);
	for (int i = 0; i < BON_NR; i++) {
		bon_fmt_latency(t, sizeof(t), r->cell[i].present ?
				r->cell[i].lat_us : -1);
		strbuf_addf(&b, ",%s", t);
	}
	return strbuf_detach(&b, NULL);
}
