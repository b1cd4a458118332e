/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - distribute's report, from the stored phases only.
 */
#include "workloads/distribute/internal.h"

#include <math.h>
#include <string.h>

#include "measure/result.h"

/* ---- report, from the stored phases only ---- */

/* A stored figure; NAN when the phase or the metric is missing. */
static double mval(const struct phase_rec *p, const char *name)
{
	return phase_rec_value(p, name, NAN);
}

static void report_intervals(FILE *out, const struct phase_rec *p)
{
	size_t n = isnan(mval(p, "intervals")) ? 0 :
		   (size_t)mval(p, "intervals");
	double secs = 0, t = 0, lo = INFINITY, hi = 0, total = 0, span;
	char name[64];

	if (!n)
		return;
	fprintf(out, "\n%8s %10s %9s %9s %9s\n", "t(s)", "files/s",
		"source", "pool", "outgoing");
	for (size_t i = 0; i < n; i++) {
		double fs, s;

		snprintf(name, sizeof(name), "interval.%zu.files/s", i);
		fs = mval(p, name);
		snprintf(name, sizeof(name), "interval.%zu.s", i);
		s = mval(p, name);
		if (isnan(fs) || isnan(s))
			continue;
		t += s;
		secs += s;
		total += fs * s;
		if (fs < lo)
			lo = fs;
		if (fs > hi)
			hi = fs;
		/* a long series is summarised: first 10, last 10 rows */
		if (n > 30 && i >= 10 && i + 10 < n) {
			if (i == 10)
				fprintf(out, "%8s\n", "...");
			continue;
		}
		fprintf(out, "%8.1f %10.1f", t, fs);
		snprintf(name, sizeof(name), "interval.%zu.source", i);
		fprintf(out, " %9.0f", mval(p, name));
		snprintf(name, sizeof(name), "interval.%zu.pool", i);
		fprintf(out, " %9.0f", mval(p, name));
		snprintf(name, sizeof(name), "interval.%zu.outgoing", i);
		fprintf(out, " %9.0f\n", mval(p, name));
	}
	fprintf(out, "%8s %10.1f   (%zu intervals of %.0f s, min %.1f "
		"max %.1f files/s)\n", "total", secs > 0 ? total / secs : 0,
		n, mval(p, "interval_s"), lo, hi);
	span = mval(p, "span_s");
	if (secs > 0 && !isnan(span) && fabs(secs - span) > 0.01 * span)
		fprintf(out, "%8s the intervals cover %.2f s from release, the "
			"headline the %.2f s from the first delivery to the "
			"last\n", "", secs, span);
}

void dist_report(FILE *out, const struct run_rec *run,
		 const struct wlrun_rec *wr)
{
	const struct phase_rec *fill = wlrun_rec_phase(wr, "fill", false);
	const struct phase_rec *p = wlrun_rec_phase(wr, "distribute", false);
	const struct phase_rec *v = wlrun_rec_phase(wr, "verify", false);
	double wall, span, fs, mibs;

	(void)run;
	fprintf(out, "\ndistribute (%s)\n", wr->options ? wr->options : "");
	if (fill)
		fprintf(out, "fill: %.0f files, %.2f MiB in %.2f s "
			"(%.2f files/s, scanners paused; not part of the "
			"rates below)\n", mval(fill, "produced"),
			(double)fill->bytes / MIB,
			(double)fill->m.wall_ns / 1e9,
			isnan(mval(fill, "files/s")) ? 0 :
			mval(fill, "files/s"));
	if (!p) {
		fprintf(out, "no distribute phase stored\n");
		return;
	}
	wall = (double)p->m.wall_ns / 1e9;
	span = mval(p, "span_s");
	fs = mval(p, "files/s");
	mibs = mval(p, "MiB/s");
	fprintf(out, "%.2f files/s  %.2f MiB/s\n", isnan(fs) ? 0 : fs,
		isnan(mibs) ? 0 : mibs);
	if (isnan(span))
		fprintf(out, "delivered %.0f of %.0f (%.0f files x fanout "
			"%.0f), %.2f MiB in %.2f s%s\n", mval(p, "delivered"),
			mval(p, "expected"), mval(p, "produced"),
			mval(p, "fanout"), mval(p, "delivered_MiB"), wall,
			p->status == PHASE_OK ? "" :
			" (phase did not complete)");
	else
		fprintf(out, "delivered %.0f of %.0f (%.0f files x fanout "
			"%.0f), %.2f MiB in %.2f s from the first delivery to "
			"the last (phase %.2f s)%s\n", mval(p, "delivered"),
			mval(p, "expected"), mval(p, "produced"),
			mval(p, "fanout"), mval(p, "delivered_MiB"), span,
			wall, p->status == PHASE_OK ? "" :
			" (phase did not complete)");
	report_intervals(out, p);
	if (!isnan(mval(p, "lat_p50_ms")))
		fprintf(out, "\nlatency publish->delivery: p50 %.2f ms  p95 "
			"%.2f ms  p99 %.2f ms  max %.2f ms\n",
			mval(p, "lat_p50_ms"), mval(p, "lat_p95_ms"),
			mval(p, "lat_p99_ms"), mval(p, "lat_max_ms"));
	fprintf(out, "backlog at end: source %.0f  pool %.0f  outgoing "
		"%.0f\n", mval(p, "backlog.source"), mval(p, "backlog.pool"),
		mval(p, "backlog.outgoing"));
	fprintf(out, "cpu: user %.2f s  sys %.2f s", (double)p->m.user_ns /
		1e9, (double)p->m.sys_ns / 1e9);
	if (p->m.sys_busy_pct >= 0)
		fprintf(out, "  machine busy %.1f%%", p->m.sys_busy_pct);
	fputc('\n', out);
	if (!v)
		fprintf(out, "accounting: not verified\n");
	else if (v->status == PHASE_OK)
		fprintf(out, "accounting: ok, %.0f of %.0f deliveries "
			"verified%s\n", mval(v, "verified"),
			mval(v, "expected"), mval(v, "drained") > 0 ?
			", nothing left in a pool or outgoing directory" :
			"");
	else
		fprintf(out, "accounting: FAILED, %s\n",
			v->error ? v->error : "unknown reason");
}
