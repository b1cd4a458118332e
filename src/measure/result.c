/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result.c - constructors and destructors for the result tree (result.h).
 */
#include "measure/result.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
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

const char *const trace_key_metrics[] = {
	"trace.seeks", "trace.seeks/s", "trace.seekdist_median",
	"trace.layout_score", "trace.lat_p50_ms", "trace.lat_p99_ms", NULL,
};
_Static_assert(sizeof(trace_key_metrics) / sizeof(trace_key_metrics[0]) ==
	       NR_TRACE_KEY_METRICS + 1, "NR_TRACE_KEY_METRICS");

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* The last component of a dotted name: "trace.ts.3.iops" -> "iops". */
static const char *last_part(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot ? dot + 1 : name;
}

static bool is_rate_unit(const char *unit)
{
	return ends_with(unit, "/s");
}

/* Units whose figures end in "_" + the unit itself. */
static bool is_suffix_unit(const char *unit)
{
	static const char *const u[] = { "s", "ms", "B", "KiB", "MiB", "GiB",
					 "MHz" };

	for (size_t i = 0; i < ARRAY_SIZE(u); i++)
		if (!strcmp(unit, u[i]))
			return true;
	return false;
}

const char *metric_name_check(const char *name, const char *unit)
{
	static const char *const retired[] = { "_bytes", "bytes", "_mib",
					       "_kib", "_gib", "mib_s",
					       "files_s", "seeks_s", "ops_s" };
	static const char *const suffixes[] = { "/s", "_s", "_ms", "_B",
						"_KiB", "_MiB", "_GiB", "_pct",
						"_MHz" };
	const char *last;
	char want[32];

	if (!name || !*name)
		return "empty name";
	if (isspace((unsigned char)name[0]) ||
	    isspace((unsigned char)name[strlen(name) - 1]))
		return "blank at an end";
	last = last_part(name);
	for (size_t i = 0; i < ARRAY_SIZE(retired); i++)
		if (ends_with(name, retired[i]))
			return "a retired spelling (bytes are _B, rates "
			       "end in /s)";
	if (!strcmp(last, "tps") || !strcmp(last, "iops"))
		return "a rate must end in /s";
	if (!unit)
		return NULL;
	if (is_rate_unit(unit))
		return ends_with(name, "/s") ? NULL : "a rate must end in /s";
	if (!strcmp(unit, "%"))
		return ends_with(name, "_pct") ? NULL
			: "a percentage must end in _pct";
	if (is_suffix_unit(unit)) {
		snprintf(want, sizeof(want), "_%s", unit);
		if (!ends_with(name, want))
			return !strcmp(unit, "s") ? "a duration must end in _s"
			       : !strcmp(unit, "ms") ? "latency must end in _ms"
			       : "a size must end in _ its unit (_B, _MiB)";
		return NULL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends_with(name, suffixes[i]))
			return "a count or ratio must not end in a unit suffix";
	return NULL;
}

bool metric_name_upgrade(const char *name, const char *unit, char *buf,
			 size_t len, const char **new_unit)
{
	size_t n = strlen(name), stem;
	const char *last = last_part(name);

	*new_unit = unit;
	if (!metric_name_check(name, unit ? unit : ""))
		return false;
	stem = (size_t)(last - name);
	if (!unit)
		unit = "";
	if (!strcmp(last, "iops")) {
		/* requests per second, beside "trace.requests" */
		snprintf(buf, len, "%.*srequests/s", (int)stem, name);
		*new_unit = "requests/s";
	} else if (!strcmp(last, "tps")) {
		snprintf(buf, len, "%.*stransactions/s", (int)stem, name);
	} else if (is_rate_unit(unit) && ends_with(name, "_s")) {
		/* "disk.mib_s", "trace.ts.3.seeks_s", "interval.2.files_s" */
		if (!strcmp(last, "mib_s"))
			snprintf(buf, len, "%.*sMiB/s", (int)stem, name);
		else
			snprintf(buf, len, "%.*s/s", (int)(n - 2), name);
	} else if (is_rate_unit(unit)) {
		/* a statistic of a rate: "rank_min", "summary/patch.avg",
		 * bonnie's "rate", "host:NAME" */
		snprintf(buf, len, "%s_%s", name, unit);
	} else if (!strcmp(unit, "s") && !strcmp(last, "s")) {
		/* "interval.2.s" */
		snprintf(buf, len, "%.*stime_s", (int)stem, name);
	} else if (!strcmp(unit, "B") && !strcmp(last, "bytes")) {
		/* "trace.bytes" */
		snprintf(buf, len, "%.*sdata_B", (int)stem, name);
	} else if (!strcmp(unit, "B") && ends_with(name, "_bytes")) {
		snprintf(buf, len, "%.*s_B", (int)(n - 6), name);
	} else if (!strcmp(unit, "B") && !strcmp(name, "bytes_scanned")) {
		snprintf(buf, len, "scanned_B");
	} else if (!strcmp(unit, "%")) {
		snprintf(buf, len, "%s_pct", name);
	} else if (is_suffix_unit(unit)) {
		snprintf(buf, len, "%s_%s", name, unit);
	} else {
		return false;  /* breaks the rule, but no older spelling */
	}
	return true;
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
	phase_rec_add_hist(p, prefix, h);
}

void phase_rec_set_latency(struct phase_rec *p, const char *prefix,
			   const struct lathist *h)
{
	static const char *const stats[] = { "p50", "p95", "p99", "max",
					     "mean" };
	char name[128];
	size_t keep = 0;

	/* drop the old figures, keeping the others in their order */
	for (size_t i = 0; i < p->nr_metrics; i++) {
		struct metric *m = &p->metrics[i];
		bool mine = false;

		for (size_t k = 0; k < ARRAY_SIZE(stats) && !mine; k++)
			mine = !strcmp(m->name, latency_metric_name(
					name, sizeof(name), prefix, stats[k]));
		if (mine) {
			free(m->name);
			free(m->unit);
			continue;
		}
		p->metrics[keep++] = *m;
	}
	p->nr_metrics = keep;
	if (!h->count)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(stats); i++) {
		double q = i == 0 ? 0.50 : i == 1 ? 0.95 : i == 2 ? 0.99 : 1.0;
		double v = i == 4 ? lathist_mean(h)
				  : (double)lathist_quantile(h, q);

		phase_rec_add_metric(p, latency_metric_name(name, sizeof(name),
							    prefix, stats[i]),
				     v / 1e6, "ms", BETTER_LOWER);
	}
}

const struct hist_rec *phase_rec_hist(const struct phase_rec *p,
				      const char *op)
{
	if (!op)
		op = "";
	for (size_t i = 0; i < p->nr_hists; i++)
		if (!strcmp(p->hists[i].op, op))
			return &p->hists[i];
	return NULL;
}

void hist_rec_from_lathist(struct hist_rec *h, const struct lathist *src)
{
	size_t lo = 0, hi = LATHIST_NR;

	while (lo < hi && !src->b[lo])
		lo++;
	while (hi > lo && !src->b[hi - 1])
		hi--;
	free(h->b);
	h->count = src->count;
	h->sum = src->sum;
	h->min = src->min;
	h->max = src->max;
	h->nr_buckets = LATHIST_NR;
	h->first = lo < hi ? (uint32_t)lo : 0;
	h->nr = (uint32_t)(hi - lo);
	h->b = h->nr ? xmalloc(h->nr * sizeof(*h->b)) : NULL;
	if (h->nr)
		memcpy(h->b, src->b + lo, h->nr * sizeof(*h->b));
}

int hist_rec_to_lathist(const struct hist_rec *h, struct lathist *out)
{
	lathist_init(out);
	if (h->nr_buckets != LATHIST_NR ||
	    (uint64_t)h->first + h->nr > LATHIST_NR)
		return -1;
	for (uint32_t i = 0; i < h->nr; i++)
		out->b[h->first + i] = h->b[i];
	out->count = h->count;
	out->sum = h->sum;
	out->min = h->count ? h->min : out->min;
	out->max = h->max;
	return 0;
}

static struct hist_rec *new_hist(struct phase_rec *p, const char *op,
				 const char *unit)
{
	struct hist_rec *h;

	ALLOC_GROW(p->hists, p->nr_hists + 1, p->alloc_hists);
	h = &p->hists[p->nr_hists++];
	memset(h, 0, sizeof(*h));
	h->op = xstrdup(op ? op : "");
	h->unit = xstrdup(unit ? unit : "");
	return h;
}

void phase_rec_add_hist(struct phase_rec *p, const char *op,
			const struct lathist *h)
{
	struct hist_rec *old = (struct hist_rec *)phase_rec_hist(p, op);
	struct lathist *sum;

	if (!h->count)
		return;
	if (!old) {
		hist_rec_from_lathist(new_hist(p, op, "ns"), h);
		return;
	}
	/* the same op twice: one histogram of both, exactly */
	sum = xmalloc(sizeof(*sum));
	if (hist_rec_to_lathist(old, sum))
		BUG("histogram '%s' has %u buckets, not %u", old->op,
		    old->nr_buckets, (unsigned)LATHIST_NR);
	lathist_merge(sum, h);
	hist_rec_from_lathist(old, sum);
	free(sum);
}

struct hist_rec *phase_rec_copy_hist(struct phase_rec *p,
				     const struct hist_rec *src)
{
	struct hist_rec *h = new_hist(p, src->op, src->unit);
	uint64_t *b = NULL;

	if (src->nr) {
		b = xmalloc(src->nr * sizeof(*b));
		memcpy(b, src->b, src->nr * sizeof(*b));
	}
	*h = (struct hist_rec){ .op = h->op, .unit = h->unit,
				.count = src->count, .sum = src->sum,
				.min = src->min, .max = src->max,
				.nr_buckets = src->nr_buckets,
				.first = src->first, .nr = src->nr, .b = b };
	return h;
}

void hist_rec_release(struct hist_rec *h)
{
	free(h->op);
	free(h->unit);
	free(h->b);
	memset(h, 0, sizeof(*h));
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
	r->uuid = run_uuid_new();
	return r;
}

char *run_uuid_new(void)
{
	unsigned char b[16];
	size_t got = 0;

	/* getrandom blocks only before the pool is seeded at boot. */
	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("cannot read random bytes for a run id: %s",
			    strerror(errno));
		got += (size_t)n;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	return xasprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
			 "%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
			 b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
			 b[12], b[13], b[14], b[15]);
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
	for (size_t i = 0; i < p->nr_hists; i++)
		hist_rec_release(&p->hists[i]);
	free(p->hists);
	free(p->stall_list);
	free(p->series);
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
	free(t->mkfs_cmd);
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
	run_rec_clear_decisions(r);
	free(r->decisions);
	free(r->until_rule);
	free(r->decision);
	free(r->targets);
	free(r->wlruns);
	free(r->host);
	free(r->kernel);
	free(r->version);
	free(r->cmdline);
	free(r->tag);
	free(r->status);
	free(r->target_order);
	for (size_t i = 0; i < r->nr_facts; i++) {
		free(r->facts[i].scope);
		free(r->facts[i].key);
		free(r->facts[i].value);
	}
	free(r->facts);
	free(r->uuid);
	free(r->source_host);
	free(r);
}

const char *run_rec_fact(const struct run_rec *r, const char *scope,
			 const char *key)
{
	for (size_t i = 0; i < r->nr_facts; i++)
		if (!strcmp(r->facts[i].scope, scope) &&
		    !strcmp(r->facts[i].key, key))
			return r->facts[i].value;
	return NULL;
}

void run_rec_add_fact(struct run_rec *r, const char *scope, const char *key,
		      const char *value)
{
	struct fact *f;

	if (run_rec_fact(r, scope, key))
		return;
	ALLOC_GROW(r->facts, r->nr_facts + 1, r->alloc_facts);
	f = &r->facts[r->nr_facts++];
	f->scope = xstrdup(scope);
	f->key = xstrdup(key);
	f->value = xstrdup(value ? value : "absent");
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

struct decision_rec *run_rec_new_decision(struct run_rec *r)
{
	struct decision_rec *d;

	ALLOC_GROW(r->decisions, r->nr_decisions + 1, r->alloc_decisions);
	d = &r->decisions[r->nr_decisions++];
	memset(d, 0, sizeof(*d));
	return d;
}

void run_rec_clear_decisions(struct run_rec *r)
{
	for (size_t i = 0; i < r->nr_decisions; i++) {
		struct decision_rec *d = &r->decisions[i];

		free(d->workload);
		free(d->name);
		free(d->phase);
		free(d->metric);
		free(d->label);
		free(d->verdict);
	}
	r->nr_decisions = 0;
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
