/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskphase.c - disk.* metrics of traced phases from their request
 * samples (diskphase.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "disk/diskphase.h"
#include "util/util.h"

/* Was the phase traced (it has trace.* figures or a request sample)? */
static bool disk_phase_traced(const struct phase_rec *rec)
{
	return rec->nr_rqs || phase_rec_metric(rec, "trace.requests");
}

static void drop_disk_metrics(struct phase_rec *rec)
{
	size_t j = 0;

	for (size_t i = 0; i < rec->nr_metrics; i++) {
		struct metric *m = &rec->metrics[i];

		if (!strncmp(m->name, "disk.", 5)) {
			free(m->name);
			free(m->unit);
			continue;
		}
		rec->metrics[j++] = *m;
	}
	rec->nr_metrics = j;
}

double disk_model_sample(const struct disk_profile *p,
			 const struct rq_sample *rqs, size_t nr,
			 uint64_t total, struct disk_result *res)
{
	struct disk_req *rq = xcalloc(nr ? nr : 1, sizeof(*rq));

	for (size_t i = 0; i < nr; i++) {
		rq[i].sector = rqs[i].sector;
		rq[i].nr_sector = rqs[i].bytes / 512;
		rq[i].write = rqs[i].rw != 'R';
	}
	disk_model_run(p, rq, nr, res);
	free(rq);
	/* A thinned sample holds every k-th request: each stands for k. */
	return nr && total > nr ? (double)total / (double)nr : 1;
}

void disk_phase_apply(const struct disk_profile *p, struct phase_rec *rec)
{
	struct disk_result res;
	double scale, t;

	if (!disk_phase_traced(rec))
		return;
	drop_disk_metrics(rec);
	/* No data request, no disk time: a 0 would only upset ratios. */
	if (!rec->nr_rqs)
		return;
	scale = disk_model_sample(p, rec->rqs, rec->nr_rqs, rec->rqs_total,
				  &res);
	t = res.time_s * scale;
	phase_rec_add_metric(rec, "disk.time_s", t, "s", BETTER_LOWER);
	phase_rec_add_metric(rec, "disk.seek_s", res.seek_s * scale, "s",
			     BETTER_NONE);
	phase_rec_add_metric(rec, "disk.rotation_s", res.rot_s * scale, "s",
			     BETTER_NONE);
	phase_rec_add_metric(rec, "disk.transfer_s", res.xfer_s * scale, "s",
			     BETTER_NONE);
	if (t > 0) {
		phase_rec_add_metric(rec, "disk.seek_share",
				     (res.seek_s + res.rot_s) / res.time_s,
				     "ratio", BETTER_NONE);
		phase_rec_add_metric(rec, "disk.transfer_share",
				     res.xfer_s / res.time_s, "ratio",
				     BETTER_NONE);
		if (rec->bytes)
			phase_rec_add_metric(rec, "disk.MiB/s",
					     (double)rec->bytes / 1048576.0 /
					     t, "MiB/s", BETTER_HIGHER);
		if (rec->files)
			phase_rec_add_metric(rec, "disk.files/s",
					     (double)rec->files / t, "files/s",
					     BETTER_HIGHER);
	}
	phase_rec_add_metric(rec, "disk.requests", (double)res.reqs * scale,
			     "requests", BETTER_NONE);
	phase_rec_add_metric(rec, "disk.positionings",
			     (double)res.positionings * scale, "requests",
			     BETTER_LOWER);
	phase_rec_add_metric(rec, "disk.buffer_hits", (double)res.hits * scale,
			     "requests", BETTER_NONE);
	if (scale > 1)
		phase_rec_add_metric(rec, "disk.sample_scale", scale, "ratio",
				     BETTER_NONE);
}

void disk_run_apply(const struct disk_profile *p, struct run_rec *r)
{
	for (size_t i = 0; i < r->nr_wlruns; i++)
		for (size_t j = 0; j < r->wlruns[i].nr_phases; j++)
			disk_phase_apply(p, &r->wlruns[i].phases[j]);
}

static double mval(const struct phase_rec *p, const char *name)
{
	const struct metric *m = phase_rec_metric(p, name);

	return m ? m->value : NAN;
}

static void cell(FILE *out, int width, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(out, " %*.*f", width, fmt[0] - '0', v);
	else
		fprintf(out, " %*s", width, "-");
}

void disk_print_phases(FILE *out, const struct wlrun_rec *w,
		       const char *profile)
{
	bool any = false;

	for (size_t i = 0; i < w->nr_phases && !any; i++)
		any = phase_rec_metric(&w->phases[i], "disk.time_s") != NULL;
	if (!any)
		return;
	fprintf(out, "\nmodelled disk (%s):\n", profile ? profile :
		"the profile the run was traced with");
	fprintf(out, "%-16s %-10s %9s %9s %7s %9s %10s %9s %9s %6s\n",
		"PHASE", "LABEL", "WALL_S", "DISK_S", "DISK/W", "MiB/s",
		"DISK_MiB/s", "FILES/s", "DISK_F/s", "SEEK%");
	for (size_t i = 0; i < w->nr_phases; i++) {
		const struct phase_rec *p = &w->phases[i];
		double wall = (double)p->m.wall_ns / 1e9;
		double t = mval(p, "disk.time_s");

		if (isnan(t))
			continue;
		fprintf(out, "%-16s %-10s", p->name ? p->name : "?",
			p->label && *p->label ? p->label : "-");
		cell(out, 9, "3", wall);
		cell(out, 9, "3", t);
		cell(out, 7, "2", wall > 0 ? t / wall : NAN);
		cell(out, 9, "2", p->bytes && wall > 0 ?
		     (double)p->bytes / 1048576.0 / wall : NAN);
		cell(out, 10, "2", mval(p, "disk.MiB/s"));
		cell(out, 9, "1", p->files && wall > 0 ?
		     (double)p->files / wall : NAN);
		cell(out, 9, "1", mval(p, "disk.files/s"));
		cell(out, 6, "1", mval(p, "disk.seek_share") * 100);
		if (phase_rec_metric(p, "disk.sample_scale"))
			fprintf(out, "  (thinned sample, scaled x%.1f)",
				mval(p, "disk.sample_scale"));
		fputc('\n', out);
	}
}
