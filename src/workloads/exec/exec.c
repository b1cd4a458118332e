/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec.c - the "exec" workload: any benchmark command, run in the
 * workload directory on each target and repetition, as one phase.
 *
 * fslab measures the phase like any other (wall time, the CPU of the
 * command and its children, device I/O, co-metrics, the block trace);
 * what the command prints on stdout can add its own figures (metrics=
 * lines or json, or a built-in parser for dbench and fs_mark, format=).
 * The command line is part of the stored options, so two runs of
 * different commands are never compared as one.  A command that fails
 * fails its phase with its exit code and the last lines of its stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/spawn.h"
#include "util/util.h"
#include "phase/workload.h"
#include "workloads/exec/internal.h"

#define EXEC_OUT_MAX (16u << 20)

enum exec_metrics_mode { EXEC_NONE, EXEC_LINES, EXEC_JSON };
enum exec_format { EXEC_FMT_NONE, EXEC_FMT_DBENCH, EXEC_FMT_FS_MARK };

struct exec_opts {
	char *cmd;
	int metrics;   /* enum exec_metrics_mode */
	int format;    /* enum exec_format */
};

static const struct opt_enum metrics_modes[] = {
	{ "none", EXEC_NONE, "only what fslab measures, and cmd.elapsed_s" },
	{ "lines", EXEC_LINES, "stdout lines 'name value [unit] "
			       "[higher|lower]'" },
	{ "json", EXEC_JSON, "stdout one JSON object of metrics" },
	{ NULL, 0, NULL },
};

static const struct opt_enum formats[] = {
	{ "none", EXEC_FMT_NONE, "no built-in parser" },
	{ "dbench", EXEC_FMT_DBENCH, "dbench's Throughput line: MB/s, max "
				     "latency" },
	{ "fs_mark", EXEC_FMT_FS_MARK, "fs_mark's table: files/s per "
				       "iteration and overall" },
	{ NULL, 0, NULL },
};

static const struct opt exec_opt_table[] = {
	{ "cmd", OPT_STRING, offsetof(struct exec_opts, cmd), "",
	  "the command, run by /bin/sh -c in the workload directory "
	  "(required)", 0, 0, NULL },
	{ "format", OPT_ENUM, offsetof(struct exec_opts, format), "none",
	  "a built-in parser of the command's output", 0, 0, formats },
	{ "metrics", OPT_ENUM, offsetof(struct exec_opts, metrics), "none",
	  "how the command's stdout gives metrics", 0, 0, metrics_modes },
	OPT_END,
};

static const char *const exec_phase_names[] = { "exec", NULL };

static int exec_check(const void *vo, char *err, size_t errlen)
{
	const struct exec_opts *o = vo;

	if (!o->cmd || !*o->cmd) {
		snprintf(err, errlen, "give the command: -w 'exec:cmd=...'");
		return -1;
	}
	if (strchr(o->cmd, '\n')) {
		snprintf(err, errlen, "cmd= is one line");
		return -1;
	}
	if (o->metrics != EXEC_NONE && o->format != EXEC_FMT_NONE) {
		snprintf(err, errlen, "metrics= and format= both read stdout: "
			 "give one");
		return -1;
	}
	return 0;
}

static int parse_output(const struct exec_opts *o, const char *out,
			struct exec_metrics *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	if (o->format == EXEC_FMT_DBENCH)
		return exec_parse_dbench(out, m, err, errlen);
	if (o->format == EXEC_FMT_FS_MARK)
		return exec_parse_fs_mark(out, m, err, errlen);
	if (o->metrics == EXEC_LINES)
		return exec_parse_lines(out, m, err, errlen);
	if (o->metrics == EXEC_JSON)
		return exec_parse_json(out, m, err, errlen);
	return 0;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static int exec_run(struct wl_ctx *ctx, const void *vo)
{
	const struct exec_opts *o = vo;
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", o->cmd, NULL };
	struct spawn_result res;
	struct exec_metrics m;
	struct phase *ph;
	char why[512], tail[600];
	uint64_t t0;
	int dirfd, rc = 0;

	dirfd = open(ctx->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		     O_CLOEXEC);
	if (dirfd < 0)
		return error_errno("cannot open '%s'", ctx->dir);
	ph = phase_begin(ctx, "exec", NULL);
	t0 = now_ns();
	if (spawn_run(argv, dirfd, EXEC_OUT_MAX, 0, phase_stop_requested,
		      &res) < 0) {
		phase_fail(ph, "cannot run /bin/sh");
		close(dirfd);
		phase_end(ctx, ph, NULL);
		return -1;
	}
	close(dirfd);
	phase_metric(ph, "exec.exit_status", res.code, "", BETTER_NONE);
	phase_metric(ph, "exec.user_s", tv_s(res.ru.ru_utime), "s",
		     BETTER_NONE);
	phase_metric(ph, "exec.sys_s", tv_s(res.ru.ru_stime), "s",
		     BETTER_NONE);
	if (res.stopped) {
		/* phase_end marks it interrupted */
	} else if (res.code) {
		spawn_tail_lines(res.err, 5, tail, sizeof(tail));
		phase_fail(ph, "the command exited %d%s%s", res.code,
			   *tail ? "; stderr: " : " (no stderr)", tail);
		error("exec: the command exited %d%s%s", res.code,
		      *tail ? "; stderr: " : "", tail);
		rc = -1;
	} else if (parse_output(o, res.out, &m, why, sizeof(why)) < 0) {
		phase_fail(ph, "%s", why);
		error("exec: %s", why);
		rc = -1;
	} else {
		if (o->metrics == EXEC_NONE && o->format == EXEC_FMT_NONE)
			phase_metric(ph, "cmd.elapsed_s",
				     (double)(now_ns() - t0) / 1e9, "s",
				     BETTER_LOWER);
		for (size_t i = 0; i < m.nr; i++)
			phase_metric(ph, m.v[i].name, m.v[i].value,
				     m.v[i].unit, m.v[i].better);
		exec_metrics_release(&m);
	}
	if (res.out_truncated)
		warning("exec: the command's stdout was cut at %u MiB",
			EXEC_OUT_MAX >> 20);
	spawn_result_release(&res);
	if (phase_end(ctx, ph, NULL) < 0)
		rc = -1;
	return rc;
}

static void exec_report(FILE *out, const struct run_rec *run,
			const struct wlrun_rec *wr)
{
	(void)run;
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];
		const char *sep = ",";

		fprintf(out, "exec rep %d: ", wr->rep + 1);
		if (p->status != PHASE_OK) {
			fprintf(out, "%s: %s\n", p->status == PHASE_FAILED ?
				"failed" : "interrupted",
				p->error ? p->error : "?");
			continue;
		}
		fprintf(out, "%.3f s", (double)p->m.wall_ns / 1e9);
		for (size_t j = 0; j < p->nr_metrics; j++) {
			const struct metric *mt = &p->metrics[j];

			if (strncmp(mt->name, "cmd.", 4) &&
			    strncmp(mt->name, "dbench.", 7) &&
			    strncmp(mt->name, "fs_mark.", 8))
				continue;
			fprintf(out, "%s %s %g%s%s", sep,
				mt->name, mt->value, *mt->unit ? " " : "",
				mt->unit);
		}
		fputc('\n', out);
	}
}

static const char *const exec_key_metrics[] = {
	"exec/cmd.*", "exec/dbench.MB/s", "exec/dbench.lat_max_ms",
	"exec/fs_mark.files/s", NULL,
};

const struct workload wl_exec = {
	.name = "exec",
	.summary = "any benchmark command in the workload directory as one "
		   "phase; its stdout may add metrics (see doc/exec.md)",
	.phases = exec_phase_names,
	.flags = WL_MPI_AWARE,
	.opts = exec_opt_table,
	.opts_size = sizeof(struct exec_opts),
	.check = exec_check,
	.run = exec_run,
	.report = exec_report,
	.key_metrics = exec_key_metrics,
	.no_verify = "fslab cannot know what the command wrote; check data "
		     "in the command itself",
};
