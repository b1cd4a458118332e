/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - a trace's figures out: the text of `fslab trace`, its
 * --json document (through the shared util/jsonout.h helpers) and the
 * --svg panels, and what the traced requests would cost on a modelled
 * disk.  The command (cmd/trace.c) only parses, traces and calls these.
 */
#include "trace/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/plot.h"
#include "util/jsonout.h"
#include "util/outfile.h"
#include "util/util.h"

/* The modelled disk: every data request, in issue order. */
void trace_model_disk(const struct disk_profile *p,
		       const struct trace_result *res, struct trace_modelled *md)
{
	struct rq_sample *rqs;
	uint64_t total;
	size_t n = trace_sample(res->rq, res->nr, res->start_ns, SIZE_MAX,
				&rqs, &total);

	md->profile = p->name;
	disk_model_sample(p, rqs, n, total, &md->r);
	free(rqs);
}

void trace_print_disk(FILE *out, const struct trace_modelled *md, double wall_s)
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

void trace_print_stats(FILE *out, const char *dev,
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
		jout_set(o, lbl, jout_u64((uint64_t)h[k]));
	}
	return o;
}

static json_t *disk_json(const struct trace_modelled *md)
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

int trace_write_json(const char *path, const char *dev,
		      const struct trace_result *res,
		      const struct trace_stats *s, double wall_s,
		      const struct trace_modelled *md)
{
	json_t *o = json_object(), *ts = json_array();
	double bw = (double)s->bin_ns / 1e9;
	int rc;

	jout_set(o, "device", jout_str(dev));
	jout_set(o, "wall_s", jout_num(wall_s));
	jout_set(o, "requests", jout_u64((uint64_t)s->reqs));
	jout_set(o, "read_requests",
			    jout_u64((uint64_t)s->rd_reqs));
	jout_set(o, "write_requests",
			    jout_u64((uint64_t)s->wr_reqs));
	jout_set(o, "other_requests",
			    jout_u64((uint64_t)s->other_reqs));
	jout_set(o, "read_bytes",
			    jout_u64((uint64_t)s->rd_bytes));
	jout_set(o, "write_bytes",
			    jout_u64((uint64_t)s->wr_bytes));
	jout_set(o, "rqsize_hist_bytes", hist_json(s->rqsize_hist));
	jout_set(o, "seeks", jout_u64((uint64_t)s->seeks));
	jout_set(o, "seeks_fwd",
			    jout_u64((uint64_t)s->fwd_seeks));
	jout_set(o, "seeks_bwd",
			    jout_u64((uint64_t)s->bwd_seeks));
	jout_set(o, "seeks_s",
			    jout_num(wall_s > 0 ? (double)s->seeks / wall_s
						 : 0));
	jout_set(o, "seekdist_hist_sectors",
			    hist_json(s->seekdist_hist));
	jout_set(o, "seekdist_mean", jout_num(s->seek_mean));
	jout_set(o, "seekdist_median", jout_num(s->seek_median));
	jout_set(o, "layout_score", jout_num(s->layout_score));
	jout_set(o, "lat_p50_ms", jout_num(s->lat_p50_ms));
	jout_set(o, "lat_p95_ms", jout_num(s->lat_p95_ms));
	jout_set(o, "lat_p99_ms", jout_num(s->lat_p99_ms));
	jout_set(o, "lat_max_ms", jout_num(s->lat_max_ms));
	jout_set(o, "lost_events",
			    jout_u64((uint64_t)res->lost));
	jout_set(o, "bin_s", jout_num(bw));
	for (size_t i = 0; i < s->nr_bins; i++) {
		const struct trace_bin *b = &s->bins[i];

		jout_push(ts, json_pack(
			"{s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
			"t_s", (double)i * bw,
			"read_mib_s", b->rd_bytes / 1048576.0 / bw,
			"write_mib_s", b->wr_bytes / 1048576.0 / bw,
			"iops", b->ios / bw, "seeks_s", b->seeks / bw,
			"qd_avg", b->qd_avg, "qd_max", b->qd_max));
	}
	jout_set(o, "series", ts);
	jout_set(o, "disk_model", disk_json(md));
	rc = jout_write(o, path, "the trace");
	json_decref(o);
	return rc;
}

/* cairo's write function onto an outfile's stream. */
static cairo_status_t file_write(void *closure, const unsigned char *data,
				 unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
						    : CAIRO_STATUS_WRITE_ERROR;
}

int trace_write_svg(const char *path, const struct trace_result *res,
		     const struct trace_stats *s, const char *title)
{
	struct outfile of;
	int rc;

	if (!outfile_open(&of, path))
		return -1;
	rc = trace_plot_svg(file_write, of.f, TRACE_PLOT_WIDTH, TRACE_PLOT_HEIGHT,
			    res->rq, res->nr, s, title);
	return outfile_finish(&of, !rc) ? -1 : 0;
}

int trace_write_png(const char *path, const struct trace_result *res,
		    const struct trace_stats *s, const char *title)
{
	struct outfile of;
	int rc;

	if (!outfile_open(&of, path))
		return -1;
	rc = trace_plot_png(file_write, of.f, res->rq, res->nr, s, title);
	return outfile_finish(&of, !rc) ? -1 : 0;
}

