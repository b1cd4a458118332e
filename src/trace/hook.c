/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hook.c - `fslab run --trace`: the phase hook that captures the
 * target's block I/O during the selected phases (capture.c) and turns
 * it into the phase's trace.* metrics and its request sample
 * (analyze.c).  The only file of trace/ that knows about targets and
 * phases.
 */
#include "trace/hook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disk/diskphase.h"
#include "fs/target.h"
#include "trace/blktrace.h"
#include "util/util.h"
#include "phase/workload.h"

struct hook_data {
	char **phases;             /* NULL = all */
	struct trace_capture *tc;
	const struct disk_profile *disk;
	bool warned;
};

static struct hook_data hook_data;

static bool phase_selected(const struct hook_data *hd, const char *phase)
{
	if (!hd->phases)
		return true;
	for (char **p = hd->phases; *p; p++)
		if (!strcmp(*p, phase))
			return true;
	return false;
}

static int hook_begin(void *data, struct wl_ctx *ctx, const char *phase)
{
	struct hook_data *hd = data;
	const struct target *t = ctx->target;

	if (hd->tc) /* a phase inside a phase: the outer one traces */
		return 0;
	if (!phase_selected(hd, phase))
		return 0;
	if (!t || !t->device) {
		if (!hd->warned)
			warning("--trace: target '%s' has no block device; "
				"not tracing", t ? t->spec.name : "?");
		hd->warned = true;
		return 0;
	}
	if (!hd->warned && t->spec.kind == TARGET_LOOP)
		fprintf(stderr, "fslab: tracing %s, the loop device: the "
			"requests the filesystem made, not the backing "
			"disk's\n", t->device);
	hd->warned = true;
	return trace_capture_start(t->device, 0, &hd->tc);
}

static void hook_end(void *data, struct wl_ctx *ctx, struct phase_rec *rec)
{
	struct hook_data *hd = data;
	struct trace_result res;
	struct trace_stats s;

	if (!hd->tc)
		return;
	if (trace_capture_stop(hd->tc, &res) < 0)
		warning("tracefs teardown after phase '%s' failed; run "
			"'fslab cleanup'", rec->name);
	hd->tc = NULL;
	trace_analyze(res.rq, res.nr, res.start_ns, res.end_ns, &s);
	trace_stats_to_metrics(&s, (double)rec->m.wall_ns / 1e9, rec);
	/* The report's offset scatter: a bounded sample, not every request
	 * (a long phase issues millions). */
	free(rec->rqs);
	rec->nr_rqs = trace_sample(res.rq, res.nr, res.start_ns,
				   TRACE_SAMPLE_MAX, &rec->rqs,
				   &rec->rqs_total);
	if (hd->disk)
		disk_phase_apply(hd->disk, rec);
	phase_rec_add_metric(rec, "trace.lost_events", (double)res.lost,
			     "events", BETTER_NONE);
	phase_rec_add_metric(rec, "trace.loop_device",
			     ctx->target && ctx->target->spec.kind ==
			     TARGET_LOOP, "flag", BETTER_NONE);
	if (res.lost)
		warning("phase '%s': the trace lost %llu events", rec->name,
			(unsigned long long)res.lost);
	trace_stats_release(&s);
	trace_result_release(&res);
}

const struct phase_hook *trace_phase_hook(const char *phases,
					  const struct disk_profile *disk)
{
	static const struct phase_hook hook = {
		.name = "trace",
		.begin = hook_begin,
		.end = hook_end,
		.data = &hook_data,
	};

	hook_data.disk = disk;
	if (phases && *phases) {
		char *copy = xstrdup(phases), *tok, *save = NULL;
		size_t n = 0, alloc = 0;

		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			ALLOC_GROW(hook_data.phases, n + 2, alloc);
			hook_data.phases[n++] = xstrdup(tok);
			hook_data.phases[n] = NULL;
		}
		free(copy);
	}
	return &hook;
}
