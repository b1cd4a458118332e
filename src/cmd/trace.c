/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.c - `fslab trace --dev DEV -- COMMAND...`: trace one block
 * device's requests while an arbitrary command runs, print the seek and
 * layout figures, and optionally draw seekwatcher's panels (--png) and
 * write the figures with their time series as JSON (--json).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd.h"
#include "disk/diskphase.h"
#include "fs/state.h"
#include "trace/blktrace.h"
#include "trace/plot.h"
#include "util/interrupt.h"
#include "util/util.h"

struct trace_args {
	const char *dev, *png, *svg, *json, *blk, *disk_model;
};

static const struct cmdopt trace_table[] = {
	CMDOPT_STR_C('d', "dev", struct trace_args, dev, "DEV", CMDOPT_C_FILE,
		     "block device to trace, e.g. /dev/loop3 (for a loop "
		     "device: what the filesystem asked for)"),
	CMDOPT_STR(0, "png", struct trace_args, png, "FILE",
		   "seekwatcher's three panels as a PNG"),
	CMDOPT_STR(0, "svg", struct trace_args, svg, "FILE",
		   "the same panels as SVG"),
	CMDOPT_STR(0, "json", struct trace_args, json, "FILE",
		   "the figures and time series as JSON ('-' = stdout)"),
	CMDOPT_STR(0, "trace-blk", struct trace_args, blk, "FILE",
		   "also a blktrace binary stream, for 'blkparse -i - <FILE' "
		   "and 'btt -i FILE' (Q, M/F, I, D and C events)"),
	CMDOPT_STR(0, "disk-model", struct trace_args, disk_model, "PROFILE",
		   "what the data requests would cost on this disk (default "
		   DISK_DEFAULT_PROFILE "): " DISK_PROFILES_HELP),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_trace_opts = {
	.name = "trace",
	.summary = "block-I/O trace of a command: seeks, layout, pictures",
	.usage = "--dev DEV [--png FILE] [--svg FILE] [--json FILE]\n"
		 "[--trace-blk FILE] [--disk-model PROFILE]\n"
		 "-- COMMAND [ARG]...",
	.desc = "Trace the block requests of device DEV (block_rq_issue/"
		"complete tracepoints in a private tracefs instance) while "
		"COMMAND runs, then print requests, seeks, the layout score "
		"and latency percentiles.  With --trace-blk the queue side "
		"(block_bio_queue, block_rq_insert, bio merges) is captured "
		"too, which btt needs for its tables.",
	.opts = trace_table,
	.footer = "Needs root.  Exit codes: 0 success, 1 tracing or COMMAND "
		  "failed, 2 usage error.",
	.flags = CMDOPT_STOP_AT_ARG,
	.args = CMDOPT_C_COMMAND,
};

/* The modelled disk: every data request, in issue order. */
struct modelled {
	const char *profile;
	struct disk_result r;
};

static void model_disk(const struct disk_profile *p,
		       const struct trace_result *res, struct modelled *md)
{
	struct rq_sample *rqs;
	uint64_t total;
	size_t n = trace_sample(res->rq, res->nr, res->start_ns, SIZE_MAX,
				&rqs, &total);

	md->profile = p->name;
	disk_model_sample(p, rqs, n, total, &md->r);
	free(rqs);
}

static void print_disk(FILE *out, const struct modelled *md, double wall_s)
{
	const struct disk_result *r = &md->r;

	fprintf(out, "modelled disk (%s): %.3f s for a wall time of %.3f s",
		md->profile, r->time_s, wall_s);
	if (r->time_s > 0)
		fprintf(out, ", %.2f MiB/s; seek %.3f s, rotation %.3f s, "
			"transfer %.3f s (%.1f %% positioning); %llu "
			"positionings, %llu buffer hits",
			(double)r->bytes / 1048576.0 / r->time_s, r->seek_s,
			r->rot_s, r->xfer_s,
			100 * (r->seek_s + r->rot_s) / r->time_s,
			(unsigned long long)r->positionings,
			(unsigned long long)r->hits);
	fputc('\n', out);
}

static void print_stats(FILE *out, const char *dev,
			const struct trace_result *res,
			const struct trace_stats *s, double wall_s)
{
	fprintf(out, "trace of %s over %.3f s%s\n", dev, wall_s,
		!strncmp(dev, "/dev/loop", 9) ? " (a loop device: the "
		"requests the filesystem made)" : "");
	fprintf(out, "requests %llu (reads %llu, writes %llu, other %llu), "
		"%.1f MiB read, %.1f MiB written\n",
		(unsigned long long)s->reqs, (unsigned long long)s->rd_reqs,
		(unsigned long long)s->wr_reqs,
		(unsigned long long)s->other_reqs,
		(double)s->rd_bytes / 1048576.0,
		(double)s->wr_bytes / 1048576.0);
	fprintf(out, "seeks %llu (forward %llu, backward %llu), %.1f seeks/s",
		(unsigned long long)s->seeks, (unsigned long long)s->fwd_seeks,
		(unsigned long long)s->bwd_seeks,
		wall_s > 0 ? (double)s->seeks / wall_s : 0.0);
	if (s->seeks)
		fprintf(out, ", distance mean %.0f median %.0f sectors",
			s->seek_mean, s->seek_median);
	fputc('\n', out);
	if (!isnan(s->layout_score))
		fprintf(out, "layout score %.4f (%llu discontiguous reads, "
			"%llu 4 KiB blocks)\n", s->layout_score,
			(unsigned long long)s->rd_discontig,
			(unsigned long long)s->rd_blocks);
	if (!isnan(s->lat_p50_ms))
		fprintf(out, "latency ms p50 %.3f p95 %.3f p99 %.3f max %.3f\n",
			s->lat_p50_ms, s->lat_p95_ms, s->lat_p99_ms,
			s->lat_max_ms);
	fprintf(out, "lost events %llu\n", (unsigned long long)res->lost);
}

static json_t *hist_json(const uint64_t *h)
{
	json_t *o = json_object();
	char lbl[16];

	for (unsigned k = 0; k < TRACE_HIST_BINS; k++) {
		if (!h[k])
			continue;
		trace_bin_label(k, lbl, sizeof(lbl));
		json_object_set_new(o, lbl, json_integer((json_int_t)h[k]));
	}
	return o;
}

static json_t *num(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *disk_json(const struct modelled *md)
{
	const struct disk_result *r = &md->r;

	return json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I}",
			 "profile", md->profile, "time_s", r->time_s,
			 "seek_s", r->seek_s, "rotation_s", r->rot_s,
			 "transfer_s", r->xfer_s, "seek_share",
			 r->time_s > 0 ? (r->seek_s + r->rot_s) / r->time_s
				       : 0.0,
			 "requests", (json_int_t)r->reqs, "positionings",
			 (json_int_t)r->positionings, "buffer_hits",
			 (json_int_t)r->hits);
}

static int write_json(const char *path, const char *dev,
		      const struct trace_result *res,
		      const struct trace_stats *s, double wall_s,
		      const struct modelled *md)
{
	json_t *o = json_object(), *ts = json_array();
	double bw = (double)s->bin_ns / 1e9;
	int rc;

	json_object_set_new(o, "device", json_string(dev));
	json_object_set_new(o, "wall_s", json_real(wall_s));
	json_object_set_new(o, "requests", json_integer((json_int_t)s->reqs));
	json_object_set_new(o, "read_requests",
			    json_integer((json_int_t)s->rd_reqs));
	json_object_set_new(o, "write_requests",
			    json_integer((json_int_t)s->wr_reqs));
	json_object_set_new(o, "other_requests",
			    json_integer((json_int_t)s->other_reqs));
	json_object_set_new(o, "read_bytes",
			    json_integer((json_int_t)s->rd_bytes));
	json_object_set_new(o, "write_bytes",
			    json_integer((json_int_t)s->wr_bytes));
	json_object_set_new(o, "rqsize_hist_bytes", hist_json(s->rqsize_hist));
	json_object_set_new(o, "seeks", json_integer((json_int_t)s->seeks));
	json_object_set_new(o, "seeks_fwd",
			    json_integer((json_int_t)s->fwd_seeks));
	json_object_set_new(o, "seeks_bwd",
			    json_integer((json_int_t)s->bwd_seeks));
	json_object_set_new(o, "seeks_s",
			    json_real(wall_s > 0 ? (double)s->seeks / wall_s
						 : 0));
	json_object_set_new(o, "seekdist_hist_sectors",
			    hist_json(s->seekdist_hist));
	json_object_set_new(o, "seekdist_mean", json_real(s->seek_mean));
	json_object_set_new(o, "seekdist_median", json_real(s->seek_median));
	json_object_set_new(o, "layout_score", num(s->layout_score));
	json_object_set_new(o, "lat_p50_ms", num(s->lat_p50_ms));
	json_object_set_new(o, "lat_p95_ms", num(s->lat_p95_ms));
	json_object_set_new(o, "lat_p99_ms", num(s->lat_p99_ms));
	json_object_set_new(o, "lat_max_ms", num(s->lat_max_ms));
	json_object_set_new(o, "lost_events",
			    json_integer((json_int_t)res->lost));
	json_object_set_new(o, "bin_s", json_real(bw));
	for (size_t i = 0; i < s->nr_bins; i++) {
		const struct trace_bin *b = &s->bins[i];

		json_array_append_new(ts, json_pack(
			"{s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
			"t_s", (double)i * bw,
			"read_mib_s", b->rd_bytes / 1048576.0 / bw,
			"write_mib_s", b->wr_bytes / 1048576.0 / bw,
			"iops", b->ios / bw, "seeks_s", b->seeks / bw,
			"qd_avg", b->qd_avg, "qd_max", b->qd_max));
	}
	json_object_set_new(o, "series", ts);
	json_object_set_new(o, "disk_model", disk_json(md));
	if (!strcmp(path, "-"))
		rc = json_dumpf(o, stdout, JSON_INDENT(1) |
				JSON_REAL_PRECISION(10));
	else
		rc = json_dump_file(o, path, JSON_INDENT(1) |
				    JSON_REAL_PRECISION(10));
	json_decref(o);
	if (rc < 0)
		return error_errno("cannot write '%s'", path);
	return 0;
}

struct svg_out {
	FILE *f;
};

static cairo_status_t svg_write(void *closure, const unsigned char *data,
				unsigned int len)
{
	struct svg_out *o = closure;

	return fwrite(data, 1, len, o->f) == len ? CAIRO_STATUS_SUCCESS
						 : CAIRO_STATUS_WRITE_ERROR;
}

static int write_svg(const char *path, const struct trace_result *res,
		     const struct trace_stats *s, const char *title)
{
	struct svg_out o = { fopen(path, "w") };
	int rc;

	if (!o.f)
		return error_errno("cannot create '%s'", path);
	rc = trace_plot_svg(svg_write, &o, TRACE_PLOT_WIDTH, TRACE_PLOT_HEIGHT,
			    res->rq, res->nr, s, title);
	if (fclose(o.f) != 0 && !rc)
		rc = error_errno("cannot write '%s'", path);
	return rc;
}

/* Run argv with default signals; returns its wait status or -1. */
static int run_child(char **argv, pid_t *pidp)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return error_errno("cannot fork");
	if (!pid) {
		/* exec resets caught signals, not ignored ones. */
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "fslab: error: cannot run '%s': %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	*pidp = pid;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return error_errno("cannot wait for '%s'", argv[0]);
		/* Pass it on: a signal sent to fslab alone must end COMMAND
		 * too (from a terminal the child got it already). */
		if (interrupt_signal())
			kill(pid, interrupt_signal());
	}
	return status;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_args a = { .disk_model = DISK_DEFAULT_PROFILE };
	const char *dev, *png, *svg, *json, *blk;
	struct disk_profile disk;
	struct modelled md;
	struct trace_capture *tc;
	struct trace_result res;
	struct trace_stats s;
	int status, rc = EXIT_OK, argi;
	double wall_s;
	pid_t pid = 0;

	argi = cmdopt_parse(&cmd_trace_opts, argc, argv, &a);
	if (argi < 0)
		return cmdopt_exit(argi);
	dev = a.dev;
	png = a.png;
	svg = a.svg;
	json = a.json;
	blk = a.blk;
	if (!dev)
		return cmdopt_usage_error(&cmd_trace_opts, "needs --dev DEV");
	{
		struct stat st;

		/* A missing path is a usage error in every command. */
		if (stat(dev, &st) < 0) {
			error_errno("cannot trace '%s'", dev);
			return EXIT_USAGE;
		}
		if (!S_ISBLK(st.st_mode)) {
			error("cannot trace '%s': not a block device", dev);
			return EXIT_USAGE;
		}
	}
	if (argi >= argc)
		return cmdopt_usage_error(&cmd_trace_opts, "needs a command "
					  "after '--'");
	if (disk_profile_load(a.disk_model, &disk) < 0)
		return EXIT_USAGE;

	/* Not SA_RESTART: a signal ends waitpid() so it can be passed on. */
	interrupt_install();

	if (trace_capture_start(dev, blk ? TRACE_CAP_QUEUE : 0, &tc) < 0) {
		state_finish();
		disk_profile_release(&disk);
		return EXIT_RUNTIME;
	}
	status = run_child(argv + argi, &pid);
	if (trace_capture_stop(tc, &res) < 0)
		rc = EXIT_RUNTIME;
	trace_teardown();
	state_finish();
	if (status < 0) {
		trace_result_release(&res);
		disk_profile_release(&disk);
		return EXIT_RUNTIME;
	}
	if (interrupt_signal()) {
		warning("interrupted; the trace covers the command until then");
		rc = 128 + interrupt_signal();  /* as every command (README) */
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (WIFEXITED(status))
			error("'%s' exited with %d", argv[argi],
			      WEXITSTATUS(status));
		else
			error("'%s' was killed by signal %d", argv[argi],
			      WTERMSIG(status));
		rc = EXIT_RUNTIME;
	}
	wall_s = (double)(res.end_ns - res.start_ns) / 1e9;
	trace_analyze(res.rq, res.nr, res.start_ns, res.end_ns, &s);
	model_disk(&disk, &res, &md);
	print_stats(json && !strcmp(json, "-") ? stderr : stdout, dev, &res,
		    &s, wall_s);
	print_disk(json && !strcmp(json, "-") ? stderr : stdout, &md, wall_s);
	if (json && write_json(json, dev, &res, &s, wall_s, &md) < 0)
		rc = EXIT_RUNTIME;
	if (png && trace_plot_png(png, res.rq, res.nr, &s, dev) < 0)
		rc = EXIT_RUNTIME;
	if (svg && write_svg(svg, &res, &s, dev) < 0)
		rc = EXIT_RUNTIME;
	if (blk && trace_write_blk(blk, &res) < 0)
		rc = EXIT_RUNTIME;
	if (png || svg)
		trace_plot_cleanup();
	trace_stats_release(&s);
	trace_result_release(&res);
	disk_profile_release(&disk);
	return rc;
}
