/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * show.c - `fslab show`: print one stored run again, the way it looked
 * when it ran (each workload's own report from the loaded records), or
 * as JSON.  Runs of workloads this build does not know still show, as a
 * generic phase table, so an old database stays readable.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "phase/order.h"
#include "output/checks.h"
#include "output/csv.h"
#include "disk/diskphase.h"
#include "output/decision.h"
#include "output/json.h"
#include "output/runplot.h"
#include "output/runreport.h"
#include "output/provenance.h"
#include "output/summary.h"
#include "store/store.h"
#include "util/util.h"
#include "workloads/registry.h"

struct show_args {
	struct cmdopt_store store;
	struct cmdopt_format fmt;
	const char *disk_model;
	const char *plot;
};

static const struct cmdopt show_table[] = {
	CMDOPT_INCLUDE_AT(struct show_args, store, cmdopt_store_opts),
	CMDOPT_INCLUDE_AT(struct show_args, fmt, cmdopt_format_opts),
	CMDOPT_STR(0, "disk-model", struct show_args, disk_model, "PROFILE",
		   "re-apply the disk model to the traced phases' stored "
		   "request samples with this profile: " DISK_PROFILES_HELP),
	CMDOPT_STR(0, "plot", struct show_args, plot, "FILE",
		   "also draw the run's latency distributions (each phase "
		   "and op class, repetitions merged, as a CDF on a log "
		   "axis) to FILE, .png or .svg"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_show_opts = {
	.name = "show",
	.summary = "one run's results in its workloads' classic format",
	.usage = "[RUN|latest|TAG] [--db PATH] [--format text|json|csv]\n"
		 "[--disk-model PROFILE] [--plot FILE.png|FILE.svg]",
	.desc = "Show one stored run: RUN is a run id (see 'fslab results'), "
		"a tag (the newest run with it) or 'latest' (the default).  "
		"The text format is each workload's own report, then each "
		"stalled phase's stalls (when and how long) and its "
		"completions per 100 ms; json has every phase's stalls and "
		"series too; csv has one row per target, workload, phase and "
		"metric.",
	.opts = show_table,
	.args = CMDOPT_C_RUN,
};

#define MIB (1024.0 * 1024.0)

/* The profile --disk-model re-applied, for the table's title. */
static const char *reapplied_model;

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static void print_header(FILE *out, const struct run_rec *r)
{
	provenance_text(out, r);
	order_print_run(out, r);
}

/* A rate, or "-" when there is nothing to divide by. */
static void fmt_rate(char *buf, size_t len, const struct phase_rec *p,
		     const char *metric, double amount, double scale)
{
	const struct metric *m = phase_rec_metric(p, metric);
	double v = NAN;

	if (m)
		v = m->value;
	else if (p->m.wall_ns && !p->too_short)
		v = amount / scale / ((double)p->m.wall_ns / 1e9);
	if (isfinite(v))
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "-");
}

/* For workloads without a report of their own (or unknown to us). */
static void print_generic(FILE *out, const struct wlrun_rec *w)
{
	if (!w->nr_phases) {
		fprintf(out, "no phases recorded\n");
		return;
	}
	fprintf(out, "%-16s %3s %8s %8s %9s %7s %7s %4s %8s %8s\n", "PHASE",
		"SEQ", "WALL_S", "MiB/s", "FILES/s", "USER_S", "SYS_S",
		"SYS%", "RD_MiB", "WR_MiB");
	for (size_t i = 0; i < w->nr_phases; i++) {
		const struct phase_rec *p = &w->phases[i];
		const struct measure *m = &p->m;
		char mibs[32], files[32], busy[16], rd[32], wr[32];

		fmt_rate(mibs, sizeof(mibs), p, "MiB/s", (double)p->bytes,
			 MIB);
		fmt_rate(files, sizeof(files), p, "files/s", (double)p->files,
			 1);
		if (m->sys_busy_pct >= 0)
			snprintf(busy, sizeof(busy), "%.0f", m->sys_busy_pct);
		else
			snprintf(busy, sizeof(busy), "-");
		if (m->have_dev) {
			snprintf(rd, sizeof(rd), "%.1f",
				 (double)m->rd_bytes / MIB);
			snprintf(wr, sizeof(wr), "%.1f",
				 (double)m->wr_bytes / MIB);
		} else {
			snprintf(rd, sizeof(rd), "-");
			snprintf(wr, sizeof(wr), "-");
		}
		fprintf(out, "%-16s %3d %8.3f %8s %9s %7.3f %7.3f %4s %8s "
			"%8s%s%s\n", str_or(p->name, "?"), p->seq,
			(double)m->wall_ns / 1e9, mibs, files,
			(double)m->user_ns / 1e9, (double)m->sys_ns / 1e9,
			busy, rd, wr, p->status == PHASE_OK ? "" : "  ",
			p->status == PHASE_FAILED ? "FAILED" :
			p->status == PHASE_INTERRUPTED ? "INTERRUPTED" : "");
	}
}

/*
 * What the classic reports leave out: why a phase failed (its stored
 * reason) and the traced figures of traced phases.
 */
static void print_phase_notes(FILE *out, const struct wlrun_rec *w)
{
	bool traced = false;

	for (size_t i = 0; i < w->nr_phases; i++) {
		const struct phase_rec *p = &w->phases[i];

		if (p->status != PHASE_OK)
			fprintf(out, "phase %s%s%s %s: %s\n", str_or(p->name, "?"),
				p->label ? " " : "", p->label ? p->label : "",
				p->status == PHASE_FAILED ? "FAILED"
							  : "INTERRUPTED",
				str_or(p->error, "no reason stored"));
		traced |= phase_rec_metric(p, "trace.requests") != NULL;
	}
	if (!traced)
		return;
	fprintf(out, "block I/O of the traced phases:\n");
	for (size_t i = 0; i < w->nr_phases; i++) {
		const struct phase_rec *p = &w->phases[i];

		if (!phase_rec_metric(p, "trace.requests"))
			continue;
		fprintf(out, "  %s%s%s\n", str_or(p->name, "?"),
			p->label ? " " : "", p->label ? p->label : "");
		summary_phase_trace(out, "    ", p);
	}
}

/*
 * A stalled phase's completion series in at most 60 columns, each the
 * worst (fewest) of its intervals against the busiest interval: a
 * blank is an interval in which nothing completed, so a stall shows
 * as a gap whatever the column width, where a sum would smooth it.
 */
static void print_sparkline(FILE *out, const struct phase_rec *p)
{
	static const char lv[] = " _.-=+*#";
	size_t per, cols;
	uint32_t max = 0;

	if (p->nr_series < 2 || !p->series_ns)
		return;
	for (size_t i = 0; i < p->nr_series; i++)
		if (p->series[i] > max)
			max = p->series[i];
	per = (p->nr_series + 59) / 60;
	cols = (p->nr_series + per - 1) / per;
	fprintf(out, "  completions per %.0f ms", (double)p->series_ns / 1e6);
	if (per > 1)
		fprintf(out, ", the fewest of each %zu", per);
	fputs(": |", out);
	for (size_t c = 0; c < cols; c++) {
		uint32_t m = UINT32_MAX;

		for (size_t i = c * per; i < (c + 1) * per &&
		     i < p->nr_series; i++)
			if (p->series[i] < m)
				m = p->series[i];
		fputc(!m || !max ? ' ' : lv[1 + (size_t)((uint64_t)m * 6 /
						      max)], out);
	}
	fprintf(out, "| (max %u)\n", max);
}

/*
 * Each stalled phase's stalls, from the stored list (README
 * "Measurement"): when in the phase and how long, the first 10 of them.
 */
static void print_stalls(FILE *out, const struct wlrun_rec *w)
{
	for (size_t i = 0; i < w->nr_phases; i++) {
		const struct phase_rec *p = &w->phases[i];
		double all = phase_rec_value(p, "stalls", 0);
		double longest = phase_rec_value(p, "stall_max_ms", 0);
		size_t n = p->nr_stall_list < 10 ? p->nr_stall_list : 10;

		if (!(all > 0))
			continue;
		fprintf(out, "phase %s%s%s stalls: %.0f (longest %.0f ms)%s",
			str_or(p->name, "?"), p->label ? " " : "",
			p->label ? p->label : "", all, longest,
			n ? ":" : "");
		for (size_t k = 0; k < n; k++)
			fprintf(out, "%s at %.1f s %.0f ms", k ? "," : "",
				(double)p->stall_list[k].start_ns / 1e9,
				(double)p->stall_list[k].len_ns / 1e6);
		if (all > (double)n)
			fprintf(out, "%s %.0f more", n ? "," : "",
				all - (double)n);
		fputc('\n', out);
		print_sparkline(out, p);
	}
}

static void print_wlrun(FILE *out, const struct run_rec *r,
			const struct wlrun_rec *w)
{
	const struct target_rec *t = run_rec_target(r, w);
	const struct workload *wl = w->workload ? wl_find(w->workload) : NULL;

	fprintf(out, "\n== %s on %s (%s, %s, mount: %s) rep %d: %s\n",
		str_or(w->workload, "?"), t ? str_or(t->name, "?") : "?",
		t ? str_or(t->fstype, "?") : "?",
		t ? str_or(t->device, str_or(t->path, "?")) : "?",
		t ? str_or(t->eff_mount_opts, "-") : "-", w->rep + 1,
		str_or(w->status, "?"));
	if (wl && wl->report)
		wl->report(out, r, w);
	else
		print_generic(out, w);
	print_phase_notes(out, w);
	print_stalls(out, w);
	disk_print_phases(out, w, reapplied_model);
}

static void print_unfinished(FILE *out, const struct run_rec *r)
{
	fprintf(out, "\nrun %lld is incomplete (its process is gone); "
		"finished phases:\n", (long long)r->id);
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];
		const struct target_rec *t = run_rec_target(r, w);

		fprintf(out, "  %s on %s rep %d:", str_or(w->workload, "?"),
			t ? str_or(t->name, "?") : "?", w->rep + 1);
		if (!w->nr_phases)
			fprintf(out, " none");
		for (size_t j = 0; j < w->nr_phases; j++)
			fprintf(out, "%s %s", j ? "," : "",
				str_or(w->phases[j].name, "?"));
		fputc('\n', out);
	}
	if (!r->nr_wlruns)
		fprintf(out, "  none\n");
}

static int print_text(const struct run_rec *r)
{
	print_header(stdout, r);
	for (size_t i = 0; i < r->nr_wlruns; i++)
		print_wlrun(stdout, r, &r->wlruns[i]);
	runreport_print(stdout, r);
	facts_print_text(stdout, r);
	checks_print_run_brief(stdout, r);
	decision_print(stdout, r);
	if (r->status && !strcmp(r->status, "incomplete"))
		print_unfinished(stdout, r);
	if (fflush(stdout))
		return error_errno("cannot write to stdout");
	return 0;
}

static int csv_print_run(const struct run_rec *r)
{
	csv_write_run(stdout, r);
	if (fflush(stdout)) {
		error_errno("cannot write to stdout");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int cmd_show(int argc, char **argv)
{
	struct show_args a = { .fmt.format = "text" };
	const char *db, *format, *arg = NULL;
	struct run_rec *r = NULL;
	struct disk_profile disk;
	struct store *st;
	int64_t id = 0;
	int first, rc = EXIT_RUNTIME;

	first = cmdopt_parse(&cmd_show_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	db = a.store.db;
	format = a.fmt.format;
	if (first < argc)
		arg = argv[first++];
	if (first < argc)
		return cmdopt_usage_error(&cmd_show_opts, "unexpected argument "
					  "'%s'", argv[first]);

	if (a.plot && !runplot_name_ok(a.plot))
		return cmdopt_usage_error(&cmd_show_opts, "--plot '%s': name a "
					  ".png or .svg file", a.plot);
	reapplied_model = a.disk_model;
	if (reapplied_model && disk_profile_load(reapplied_model, &disk) < 0)
		return EXIT_USAGE;
	if (store_open_existing(db, &st)) {
		if (reapplied_model)
			disk_profile_release(&disk);
		return EXIT_RUNTIME;
	}
	if (!store_resolve_run(st, arg, &id) && !store_load_run(st, id, &r)) {
		/* a run stored as cold=0 shows as cold=no, as a new one */
		wl_canonical_options(r);
		if (reapplied_model)
			disk_run_apply(&disk, r);
		if (!strcmp(format, "json"))
			rc = json_write_run(r, "-") ? EXIT_RUNTIME : EXIT_OK;
		else if (!strcmp(format, "csv"))
			rc = csv_print_run(r);
		else
			rc = print_text(r) ? EXIT_RUNTIME : EXIT_OK;
		if (a.plot && runplot_write(r, a.plot) && rc == EXIT_OK)
			rc = EXIT_RUNTIME;
	}
	run_rec_free(r);
	store_close(st);
	if (reapplied_model)
		disk_profile_release(&disk);
	return rc;
}
