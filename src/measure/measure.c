/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure.c - phase measurement: clocks, getrusage, /proc/stat and
 * /sys/block/DEV/stat deltas, and the derived figures every phase gets.
 */
#include "measure/measure.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "util/util.h"

int measure_parse_procstat(const char *text, uint64_t *busy, uint64_t *total)
{
	unsigned long long v[10] = { 0 };
	const char *p = text;
	int n;

	/* The aggregate line is "cpu " (per-CPU lines are "cpu0"...). */
	while (p && strncmp(p, "cpu ", 4)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return -1;
	n = sscanf(p + 4, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]);
	if (n < 4)
		return -1;
	/*
	 * user nice system idle iowait irq softirq steal guest guest_nice:
	 * guest time is already counted in user/nice, so leave it out of the
	 * total; idle and iowait are "not busy".
	 */
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	*busy = *total - v[3] - v[4];
	return 0;
}

int measure_parse_blkstat(const char *text, uint64_t *rd_ios,
			  uint64_t *rd_sectors, uint64_t *wr_ios,
			  uint64_t *wr_sectors)
{
	unsigned long long ri, rm, rs, rt, wi, wm, ws;

	/* Documented in Documentation/block/stat.rst; sectors are 512 B. */
	if (sscanf(text, "%llu %llu %llu %llu %llu %llu %llu", &ri, &rm, &rs,
		   &rt, &wi, &wm, &ws) != 7)
		return -1;
	*rd_ios = ri;
	*rd_sectors = rs;
	*wr_ios = wi;
	*wr_sectors = ws;
	return 0;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL +
	       (uint64_t)tv->tv_usec * 1000ULL;
}

void measure_snap(struct measure_snap *s, const char *devname)
{
	struct rusage self, kids;
	char *text;

	memset(s, 0, sizeof(*s));
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	s->user_ns = tv_ns(&self.ru_utime) + tv_ns(&kids.ru_utime);
	s->sys_ns = tv_ns(&self.ru_stime) + tv_ns(&kids.ru_stime);

	text = read_file("/proc/stat", NULL);
	if (text && !measure_parse_procstat(text, &s->cpu_busy,
					    &s->cpu_total))
		s->have_cpu = true;
	free(text);

	if (devname) {
		char *path = xasprintf("/sys/class/block/%s/stat", devname);

		text = read_file(path, NULL);
		if (text && !measure_parse_blkstat(text, &s->rd_ios,
						   &s->rd_sectors, &s->wr_ios,
						   &s->wr_sectors))
			s->have_dev = true;
		free(text);
		free(path);
	}
	/* Clocks last at begin would be ideal, but symmetric is simpler:
	 * the reads above cost microseconds against phases of seconds. */
	s->real_ns = realtime_ns();
	s->mono_ns = now_ns();
}

static uint64_t delta(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

void measure_diff(const struct measure_snap *b, const struct measure_snap *e,
		  struct measure *m)
{
	memset(m, 0, sizeof(*m));
	m->start_ns = b->real_ns;
	m->wall_ns = delta(b->mono_ns, e->mono_ns);
	m->user_ns = delta(b->user_ns, e->user_ns);
	m->sys_ns = delta(b->sys_ns, e->sys_ns);
	m->sys_busy_pct = -1;
	if (b->have_cpu && e->have_cpu && e->cpu_total > b->cpu_total)
		m->sys_busy_pct = 100.0 *
				  (double)delta(b->cpu_busy, e->cpu_busy) /
				  (double)(e->cpu_total - b->cpu_total);
	if (b->have_dev && e->have_dev) {
		m->have_dev = true;
		m->rd_ios = delta(b->rd_ios, e->rd_ios);
		m->rd_bytes = delta(b->rd_sectors, e->rd_sectors) * 512;
		m->wr_ios = delta(b->wr_ios, e->wr_ios);
		m->wr_bytes = delta(b->wr_sectors, e->wr_sectors) * 512;
	}
}

/* Smallest wall time we trust a rate over (clock resolution, rounded up). */
static uint64_t measure_min_ns(void)
{
	static uint64_t min;
	struct timespec res;

	if (!min) {
		clock_getres(CLOCK_MONOTONIC, &res);
		min = (uint64_t)res.tv_sec * 1000000000ULL +
		      (uint64_t)res.tv_nsec;
		/* Below 1 us a rate says more about the clock call than the
		 * filesystem, whatever the resolution claims. */
		if (min < 1000)
			min = 1000;
	}
	return min;
}

void measure_derive(struct phase_rec *p)
{
	const struct measure *m = &p->m;
	double s = (double)m->wall_ns / 1e9;
	uint64_t span_ns = m->wall_ns;

	phase_rec_add_metric(p, "wall_s", s, "s", BETTER_LOWER);
	phase_rec_add_metric(p, "user_s", (double)m->user_ns / 1e9, "s",
			     BETTER_LOWER);
	phase_rec_add_metric(p, "sys_s", (double)m->sys_ns / 1e9, "s",
			     BETTER_LOWER);
	if (m->sys_busy_pct >= 0)
		phase_rec_add_metric(p, "sys_cpu_pct", m->sys_busy_pct, "%",
				     BETTER_NONE);
	if (m->have_dev) {
		phase_rec_add_metric(p, "dev_read_ios", (double)m->rd_ios,
				     "requests", BETTER_NONE);
		phase_rec_add_metric(p, "dev_read_MiB",
				     (double)m->rd_bytes / 1048576.0, "MiB",
				     BETTER_NONE);
		phase_rec_add_metric(p, "dev_write_ios", (double)m->wr_ios,
				     "requests", BETTER_NONE);
		phase_rec_add_metric(p, "dev_write_MiB",
				     (double)m->wr_bytes / 1048576.0, "MiB",
				     BETTER_NONE);
	}
	/*
	 * With worker rows (threads, ranks) a rate is total work over the
	 * span from the first worker's start to the last one's end, the
	 * IOR/mdtest way, not over the phase's own clock, which also holds
	 * thread start-up and joining.
	 */
	if (p->nr_workers) {
		uint64_t first = UINT64_MAX, last = 0;

		for (size_t i = 0; i < p->nr_workers; i++) {
			if (p->workers[i].start_ns < first)
				first = p->workers[i].start_ns;
			if (p->workers[i].end_ns > last)
				last = p->workers[i].end_ns;
		}
		if (last > first) {
			span_ns = last - first;
			s = (double)span_ns / 1e9;
			phase_rec_add_metric(p, "span_s", s, "s", BETTER_LOWER);
		}
	}
	if (span_ns < measure_min_ns()) {
		p->too_short = true;
		return;
	}
	if (p->bytes)
		phase_rec_add_metric(p, "MiB/s",
				     (double)p->bytes / 1048576.0 / s, "MiB/s",
				     BETTER_HIGHER);
	if (p->files)
		phase_rec_add_metric(p, "files/s", (double)p->files / s,
				     "files/s", BETTER_HIGHER);
	if (p->ops)
		phase_rec_add_metric(p, "ops/s", (double)p->ops / s, "ops/s",
				     BETTER_HIGHER);
}
