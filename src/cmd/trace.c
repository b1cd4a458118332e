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

#include "cmd/cmd.h"
#include "disk/diskphase.h"
#include "fs/state.h"
#include "trace/blktrace.h"
#include "trace/plot.h"
#include "trace/report.h"
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
	struct trace_modelled md;
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
	trace_model_disk(&disk, &res, &md);
	trace_print_stats(json && !strcmp(json, "-") ? stderr : stdout, dev, &res,
		    &s, wall_s);
	trace_print_disk(json && !strcmp(json, "-") ? stderr : stdout, &md, wall_s);
	if (json && trace_write_json(json, dev, &res, &s, wall_s, &md) < 0)
		rc = EXIT_RUNTIME;
	if (png && trace_write_png(png, &res, &s, dev) < 0)
		rc = EXIT_RUNTIME;
	if (svg && trace_write_svg(svg, &res, &s, dev) < 0)
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
