/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - FFSB's transactions table and "tps@%CPU over baseline"
 * comparison, from the stored phases only.
 */
#include "workloads/ffsb/internal.h"

#include <stdio.h>
#include <string.h>

#include "stats/stats.h"
#include "util/util.h"

/* ---- the report, from stored phases only ---- */

static double op_val(const struct phase_rec *p, enum ffsb_op op,
		     const char *what, bool *have)
{
	char name[96];
	const struct metric *m;

	ffsb_metric_name(name, sizeof(name), op, what);
	m = phase_rec_metric(p, name);
	if (have)
		*have = m != NULL;
	return m ? m->value : 0.0;
}

/* FFSB's ffsb_printsize(): binary units, "B", "KB", "MB", "GB". */
static char *fmt_rate(char *buf, size_t len, double bytes_s)
{
	static const char *const u[] = { "B", "KB", "MB", "GB", "TB" };
	size_t i = 0;

	while (bytes_s >= 1024.0 && i + 1 < ARRAY_SIZE(u)) {
		bytes_s /= 1024.0;
		i++;
	}
	snprintf(buf, len, "%.3g%s/sec", bytes_s, u[i]);
	return buf;
}

void ffsb_report(FILE *out, const struct run_rec *run,
			const struct wlrun_rec *wr)
{
	const struct phase_rec *p = wlrun_rec_phase(wr, "run", true);
	const struct phase_rec *su = wlrun_rec_phase(wr, "setup", true);
	double total, secs, tps, threads;
	char rb[32];
	bool have;

	(void)run;
	if (!p) {
		fprintf(out, "\nffsb: no completed run phase\n");
		return;
	}
	total = phase_rec_value(p, "transactions", 0);
	secs = phase_rec_value(p, "elapsed_s", 0);
	tps = phase_rec_value(p, "transactions/s", 0);
	threads = phase_rec_value(p, "threads", 0);
	fprintf(out, "\nffsb profile %s: %.0f s, %.0f thread%s, seed %.0f\n",
		p->label ? p->label : "?", phase_rec_value(p, "time_s", 0),
		threads, threads == 1 ? "" : "s", phase_rec_value(p, "seed", 0));
	if (su)
		fprintf(out, "Setup: %llu files, %.1f MiB in %.2f sec "
			"(untimed)\n", (unsigned long long)su->files,
			(double)su->bytes / 1048576.0,
			(double)su->m.wall_ns / 1e9);
	fprintf(out, "\nResults:\nBenchmark took %.2f sec\n\n", secs);
	if (phase_rec_value(p, "stopped_full", 0) > 0)
		fprintf(out, "(fslab: stopped cleanly at %.1f %% full, before "
			"the %.0f s were up: the target's free space bounds "
			"a timed run, doc/ffsb.md)\n\n",
			phase_rec_value(p, "fullness_pct", 0),
			phase_rec_value(p, "time_s", 0));
	fprintf(out, "Total Results\n===============\n");
	fprintf(out, "%20s %14s %14s %12s %15s %14s\n", "Op Name",
		"Transactions", "Trans/sec", "% Trans", "% Op Weight",
		"Throughput");
	fprintf(out, "%20s %14s %14s %12s %15s %14s\n", "=======",
		"============", "=========", "=======", "===========",
		"==========");
	for (int i = 0; i < FFSB_OP_NR; i++) {
		enum ffsb_op op = (enum ffsb_op)i;
		double t = op_val(p, op, "transactions", &have);

		if (!have)
			continue;
		fprintf(out, "%18s : %14.0f %14.2f %11.3f%% %14.3f%% %14s\n",
			ffsb_op_name(op), t,
			op_val(p, op, "transactions/s", NULL),
			total ? 100.0 * t / total : 0.0,
			op_val(p, op, "ffsb_weight_pct", NULL),
			fmt_rate(rb, sizeof(rb),
				 secs ? op_val(p, op, "data_B", NULL) / secs
				      : 0.0));
	}
	fprintf(out, "-\n%.2f Transactions per Second\n\n", tps);
	fprintf(out, "Throughput Results\n===================\n");
	fprintf(out, "Read Throughput: %s\n", fmt_rate(rb, sizeof(rb),
		secs ? phase_rec_value(p, "read_B", 0) / secs : 0.0));
	fprintf(out, "Write Throughput: %s\n\n", fmt_rate(rb, sizeof(rb),
		secs ? phase_rec_value(p, "write_B", 0) / secs : 0.0));
	fprintf(out, "%.1f%% User   Time\n", phase_rec_value(p, "user_pct", 0));
	fprintf(out, "%.1f%% System Time\n", phase_rec_value(p, "sys_pct", 0));
	fprintf(out, "%.1f%% CPU Utilization\n", phase_rec_value(p, "cpu_pct", 0));

	fprintf(out, "\nfslab additions\n===============\n");
	if (p->m.sys_busy_pct >= 0)
		fprintf(out, "%.1f%% System-wide CPU busy\n",
			p->m.sys_busy_pct);
	else
		fprintf(out, "System-wide CPU busy: unknown\n");
	fprintf(out, "%.2f fsyncs/sec\n", phase_rec_value(p, "fsyncs/s", 0));
	fprintf(out, "%.2f files/sec created (%.0f created, %.0f deleted)\n",
		phase_rec_value(p, "files/s", 0), phase_rec_value(p, "files_created", 0),
		phase_rec_value(p, "files_deleted", 0));
	fprintf(out, "%.2f sec final sync (inside the timed run)\n",
		phase_rec_value(p, "sync_s", 0));
	fprintf(out, "Seed: %.0f\n\n", phase_rec_value(p, "seed", 0));
	fprintf(out, "Operation latency in millisecs\n");
	fprintf(out, "%20s %12s %12s %12s %12s %12s\n", "Op Name", "Calls",
		"p50", "p95", "p99", "max");
	for (int i = 0; i < FFSB_OP_NR; i++) {
		enum ffsb_op op = (enum ffsb_op)i;
		double p50 = op_val(p, op, "lat_p50_ms", &have);

		if (!have)
			continue;
		fprintf(out, "%18s : %12.0f %12.3f %12.3f %12.3f %12.3f\n",
			ffsb_op_name(op), op_val(p, op, "calls", NULL), p50,
			op_val(p, op, "lat_p95_ms", NULL),
			op_val(p, op, "lat_p99_ms", NULL),
			op_val(p, op, "lat_max_ms", NULL));
	}
}

/* Mean tps and %CPU over a group's completed repetitions; 0 reps: -1. */
static int group_means(const struct cmp_group *g, double *tps, double *cpu)
{
	double t[64], c[64];
	size_t n = 0;

	for (size_t i = 0; i < g->nr_reps && n < ARRAY_SIZE(t); i++) {
		const struct phase_rec *p = wlrun_rec_phase(g->reps[i], "run", true);

		if (!p || !phase_rec_metric(p, "transactions/s"))
			continue;
		t[n] = phase_rec_value(p, "transactions/s", 0);
		c[n] = phase_rec_value(p, "cpu_pct", 0);
		n++;
	}
	if (!n)
		return -1;
	*tps = stats_mean(t, n);
	*cpu = stats_mean(c, n);
	return (int)n;
}

/* The FLEX_BG mail's lines: "name  tps@%CPU  +x% over baseline". */
void ffsb_report_compare(FILE *out, const struct cmp_group *groups,
				size_t nr_groups)
{
	double base = 0, tps, cpu;
	size_t width = 8;

	for (size_t i = 0; i < nr_groups; i++)
		if (strlen(groups[i].label) > width)
			width = strlen(groups[i].label);
	fprintf(out, "ffsb transactions/s @ %% CPU (FFSB's CPU Utilization), "
		"mean of the repetitions\n");
	for (size_t i = 0; i < nr_groups; i++) {
		int n = group_means(&groups[i], &tps, &cpu);

		if (n < 0) {
			fprintf(out, "  %-*s  no completed run\n", (int)width,
				groups[i].label);
			continue;
		}
		fprintf(out, "  %-*s  %10.2f@%.1f%%", (int)width,
			groups[i].label, tps, cpu);
		if (!i) {
			base = tps;
			fprintf(out, "  (baseline, %d rep%s)\n", n,
				n == 1 ? "" : "s");
		} else if (base > 0) {
			fprintf(out, "  %+.1f%% over baseline\n",
				100.0 * (tps - base) / base);
		} else {
			fputc('\n', out);
		}
	}
}
