/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result.c - constructors and destructors for the result tree (result.h).
 */
#include "result.h"

#include <stdio.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "stats/lathist.h"
#include "util/util.h"
#include "util/version.h"

void phase_rec_add_metric(struct phase_rec *p, const char *name, double value,
			  const char *unit, enum better better)
{
	struct metric *m;

	ALLOC_GROW(p->metrics, p->nr_metrics + 1, p->alloc_metrics);
	m = &p->metrics[p->nr_metrics++];
	m->name = xstrdup(name);
	m->value = value;
	m->unit = xstrdup(unit ? unit : "");
	m->better = better;
}

const char *latency_metric_name(char *buf, size_t len, const char *prefix,
				const char *stat)
{
	snprintf(buf, len, "%s%slat_%s_ms", prefix ? prefix : "",
		 prefix ? "." : "", stat);
	return buf;
}

void phase_rec_add_latency(struct phase_rec *p, const char *prefix,
			   const struct lathist *h)
{
	static const struct { const char *stat; double q; } qs[] = {
		{ "p50", 0.50 }, { "p95", 0.95 }, { "p99", 0.99 },
		{ "max", 1.0 },
	};
	char name[128];

	if (!h->count)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(qs); i++)
		phase_rec_add_metric(p, latency_metric_name(name, sizeof(name),
							    prefix, qs[i].stat),
				     (double)lathist_quantile(h, qs[i].q) / 1e6,
				     "ms", BETTER_LOWER);
	phase_rec_add_metric(p, latency_metric_name(name, sizeof(name), prefix,
						    "mean"),
			     lathist_mean(h) / 1e6, "ms", BETTER_LOWER);
}

const struct metric *phase_rec_metric(const struct phase_rec *p,
				      const char *name)
{
	for (size_t i = 0; i < p->nr_metrics; i++)
		if (!strcmp(p->metrics[i].name, name))
			return &p->metrics[i];
	return NULL;
}

double phase_rec_value(const struct phase_rec *p, const char *name,
		       double def)
{
	const struct metric *m = p ? phase_rec_metric(p, name) : NULL;

	return m ? m->value : def;
}

const struct phase_rec *wlrun_rec_phase(const struct wlrun_rec *w,
					const char *name, bool ok_only)
{
	for (size_t i = 0; i < w->nr_phases; i++)
		if (!strcmp(w->phases[i].name, name) &&
		    (!ok_only || w->phases[i].status == PHASE_OK))
			return &w->phases[i];
	return NULL;
}

struct run_rec *run_rec_begin(const char *cmdline, const char *tag,
			      uint64_t seed)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct utsname u;

	r->started = (int64_t)(realtime_ns() / 1000000000ULL);
	if (uname(&u) == 0) {
		r->host = xstrdup(u.nodename);
		r->kernel = xasprintf("%s %s", u.release, u.version);
	} else {
		r->host = xstrdup("unknown");
		r->kernel = xstrdup("unknown");
	}
	r->version = xstrdup(FSLAB_VERSION);
	r->cmdline = xstrdup(cmdline ? cmdline : "");
	r->tag = tag ? xstrdup(tag) : NULL;
	r->seed = seed;
	r->status = xstrdup("running");
	return r;
}

void phase_rec_release(struct phase_rec *p)
{
	for (size_t i = 0; i < p->nr_metrics; i++) {
		free(p->metrics[i].name);
		free(p->metrics[i].unit);
	}
	free(p->metrics);
	free(p->workers);
	free(p->rqs);
	free(p->name);
	free(p->label);
	free(p->error);
	memset(p, 0, sizeof(*p));
}

void wlrun_rec_release(struct wlrun_rec *w)
{
	for (size_t i = 0; i < w->nr_phases; i++)
		phase_rec_release(&w->phases[i]);
	free(w->phases);
	for (size_t i = 0; i < w->nr_texts; i++) {
		free(w->texts[i].name);
		free(w->texts[i].content);
	}
	free(w->texts);
	free(w->workload);
	free(w->options);
	free(w->status);
	memset(w, 0, sizeof(*w));
}

void target_rec_release(struct target_rec *t)
{
	free(t->spec);
	free(t->name);
	free(t->kind);
	free(t->fstype);
	free(t->mkfs_opts);
	free(t->mount_opts);
	free(t->eff_mount_opts);
	free(t->device);
	free(t->uuid);
	free(t->mkfs_version);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

void run_rec_free(struct run_rec *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_targets; i++)
		target_rec_release(&r->targets[i]);
	for (size_t i = 0; i < r->nr_wlruns; i++)
		wlrun_rec_release(&r->wlruns[i]);
	free(r->targets);
	free(r->wlruns);
	free(r->host);
	free(r->kernel);
	free(r->version);
	free(r->cmdline);
	free(r->tag);
	free(r->status);
	free(r->target_order);
	free(r);
}

struct phase_rec *wlrun_rec_new_phase(struct wlrun_rec *w)
{
	struct phase_rec *p;

	ALLOC_GROW(w->phases, w->nr_phases + 1, w->alloc_phases);
	p = &w->phases[w->nr_phases];
	memset(p, 0, sizeof(*p));
	p->seq = (int)w->nr_phases++;
	return p;
}

struct target_rec *run_rec_new_target(struct run_rec *r)
{
	struct target_rec *t;

	ALLOC_GROW(r->targets, r->nr_targets + 1, r->alloc_targets);
	t = &r->targets[r->nr_targets++];
	memset(t, 0, sizeof(*t));
	return t;
}

struct wlrun_rec *run_rec_new_wlrun(struct run_rec *r)
{
	struct wlrun_rec *w;

	ALLOC_GROW(r->wlruns, r->nr_wlruns + 1, r->alloc_wlruns);
	w = &r->wlruns[r->nr_wlruns++];
	memset(w, 0, sizeof(*w));
	w->pos = -1;
	return w;
}

bool key_metric_match(const char *key, const char *phase, const char *metric)
{
	const char *slash = strchr(key, '/');
	char *pat;
	bool ok;

	if (!slash || !phase)
		return false;
	if (metric && fnmatch(slash + 1, metric, 0))
		return false;
	pat = xstrndup(key, (size_t)(slash - key));
	ok = !fnmatch(pat, phase, 0);
	free(pat);
	return ok;
}

void wlrun_rec_add_text(struct wlrun_rec *w, const char *name,
			const char *content)
{
	ALLOC_GROW(w->texts, w->nr_texts + 1, w->alloc_texts);
	w->texts[w->nr_texts].name = xstrdup(name);
	w->texts[w->nr_texts].content = xstrdup(content);
	w->nr_texts++;
}

const char *wlrun_rec_text(const struct wlrun_rec *w, const char *name)
{
	for (size_t i = 0; i < w->nr_texts; i++)
		if (!strcmp(w->texts[i].name, name))
			return w->texts[i].content;
	return NULL;
}

const struct target_rec *run_rec_target(const struct run_rec *r,
					const struct wlrun_rec *w)
{
	for (size_t i = 0; i < r->nr_targets; i++)
		if (w->target_id && r->targets[i].id == w->target_id)
			return &r->targets[i];
	if (w->target_idx >= 0 && (size_t)w->target_idx < r->nr_targets)
		return &r->targets[w->target_idx];
	return NULL;
}
