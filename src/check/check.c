// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check.c - the validity checks (see check.h; the reasoning and sources
 * of each are in doc/validity.md): the table of checks, the run
 * regrouped, the findings, and the checks of the figures themselves
 * (cache fit, CPU-bound); setup.c checks the machine and the targets,
 * shape.c the repetitions and phases.
 *
 * Thresholds are deliberately coarse: a check fires only when a figure
 * is off by a wide margin (device I/O under an eighth of the logical
 * I/O, CPU at three quarters of the wall time), so a clean run stays
 * clean on a noisy machine and a finding is worth reading.
 */
#include "check/check.h"
#include "check/internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/util.h"

#define MIB CHECK_MIB
/* Below this a phase's I/O is too small to say where it was served. */
#define CACHE_MIN_BYTES (16.0 * MIB)
/* Device I/O under 1/CACHE_RATIO of the logical I/O: the cache served. */
#define CACHE_RATIO 8.0
#define CPU_BOUND_FRAC 0.75

static const struct check_def defs[] = {
	{ "cache-fit", "a phase's logical I/O far above what reached the "
	  "device, with the working set against RAM",
	  "Traeger et al. 2008 (4.1, caches); bonnie++ documentation "
	  "(file size twice RAM)" },
	{ "cold-cache", "a phase declared cold whose device I/O is far below "
	  "its logical I/O", "Traeger et al. 2008 (4.1: state cold or warm, "
	  "and make it so)" },
	{ "cpu-bound", "a phase whose own CPU (plus run-queue wait) is near "
	  "its wall time", "Traeger et al. 2008 (5: compile benchmarks, "
	  "32x slower reads changed elapsed time 2-5 %)" },
	{ "memfs", "a target on tmpfs, ramfs, overlay or a network or FUSE "
	  "filesystem", "Traeger et al. 2008 (4: state the storage stack)" },
	{ "loop-cache", "a loop image without direct I/O, or whose backing "
	  "file lives in memory", "Traeger et al. 2008 (4.1); fslab's loop "
	  "design (LOOP_CONFIGURE with direct I/O)" },
	{ "virtual-machine", "the run was in a virtual machine",
	  "Traeger et al. 2008 (4: describe the machine); LKP practice "
	  "(bare metal)" },
	{ "device-cache", "the device's volatile write cache and online "
	  "discard", "Traeger et al. 2008 (4: describe the disk and its "
	  "cache)" },
	{ "kernel-debug", "debug options of the running kernel that slow "
	  "locks, allocations or the filesystem (lockdep, KASAN, kmemleak, "
	  "XFS_DEBUG...)", "LKP practice; kernel regression reports" },
	{ "mitigations", "CPU vulnerabilities left unmitigated (not the "
	  "kernel's default)", "LKP practice (record mitigations=)" },
	{ "cpu-governor", "a CPU frequency governor other than performance",
	  "LKP practice (performance governor); Kalibera & Jones 2013 "
	  "(control the platform)" },
	{ "repetitions", "too few repetitions, or a minimum detectable "
	  "change above --min-change", "Traeger et al. 2008 (3: runs, "
	  "confidence intervals); Kalibera & Jones 2013" },
	{ "short-phase", "phases too short to time reliably",
	  "Traeger et al. 2008 (3: run long enough); Kalibera & Jones 2013" },
	{ "trend", "an interval series that trends within a phase (no "
	  "steady state)", "Traeger et al. 2008 (3: steady state); "
	  "Kalibera & Jones 2013 (warm-up within a run)" },
	{ "warm-up", "a first repetition that differs from the rest",
	  "Kalibera & Jones 2013 (initialisation and warm-up)" },
	{ "cache-declared", "the cache mode (cold or warm) of every phase "
	  "recorded", "Traeger et al. 2008 (4.1, 6: state the cache "
	  "state)" },
	{ "fs-state", "fresh or aged filesystem recorded",
	  "Traeger et al. 2008 (4.2: aging); Smith & Seltzer 1997" },
	{ "versions", "fslab, mkfs and tool versions recorded",
	  "Traeger et al. 2008 (6: reproducibility)" },
};

void check_opts_init(struct check_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->min_change_pct = NAN;
	o->min_wall_s = 0.050;
	o->alpha = 0.05;
	o->power = 0.80;
}

const struct check_def *check_defs(size_t *nr)
{
	*nr = ARRAY_SIZE(defs);
	return defs;
}

const struct check_def *check_def_find(const char *id)
{
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++)
		if (!strcmp(defs[i].id, id))
			return &defs[i];
	return NULL;
}

const char *check_level_name(enum check_level l)
{
	switch (l) {
	case CHECK_NOTE:
		return "note";
	case CHECK_WARNING:
		return "warning";
	case CHECK_INVALID:
		return "invalid";
	case CHECK_NONE:
		break;
	}
	return "ok";
}

/* ---- the run, regrouped ---- */

static struct pgroup *pgroup_get(struct ctx *c, const struct target_rec *t,
				 const char *wl, const char *phase)
{
	int tidx = t ? t->idx : -1;
	struct pgroup *g;

	for (size_t i = 0; i < c->nr_g; i++)
		if (c->g[i].tidx == tidx && !strcmp(c->g[i].wl, wl) &&
		    !strcmp(c->g[i].phase, phase))
			return &c->g[i];
	ALLOC_GROW(c->g, c->nr_g + 1, c->alloc_g);
	g = &c->g[c->nr_g++];
	memset(g, 0, sizeof(*g));
	g->tidx = tidx;
	g->tname = t && t->name ? t->name : "?";
	g->fstype = t && t->fstype ? t->fstype : "?";
	g->wl = wl;
	g->phase = phase;
	return g;
}

static void regroup(struct ctx *c)
{
	for (size_t i = 0; i < c->r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &c->r->wlruns[i];
		const struct target_rec *t = run_rec_target(c->r, w);

		for (size_t k = 0; k < w->nr_phases; k++) {
			const struct phase_rec *p = &w->phases[k];
			struct pgroup *g;
			double rq;

			if (p->status != PHASE_OK)
				continue;
			g = pgroup_get(c, t, w->workload, p->name);
			g->inst++;
			g->logical += (double)p->bytes;
			g->work += p->bytes + p->files + p->ops;
			if (p->m.have_dev) {
				g->device += (double)(p->m.rd_bytes +
						      p->m.wr_bytes);
				g->dev_inst++;
			}
			g->cpu += (double)(p->m.user_ns + p->m.sys_ns) / 1e9;
			rq = phase_rec_value(p, "sched.runq_wait_s", NAN);
			if (isfinite(rq))
				g->runq += rq;
			g->wall += (double)p->m.wall_ns / 1e9;
			if (p->nr_workers > g->workers)
				g->workers = p->nr_workers;
			g->too_short |= p->too_short;
		}
	}
}

static bool accepted(const struct ctx *c, const char *id)
{
	if (run_rec_fact(c->r, "accept", id))
		return true;
	for (size_t i = 0; i < c->o->nr_accept; i++)
		if (!strcmp(c->o->accept[i], id))
			return true;
	return false;
}

void check_add(struct ctx *c, const char *id, enum check_level level,
	       const char *subject, const char *fmt, ...)
{
	struct check_report *rep = c->rep;
	struct check_finding *f;
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ALLOC_GROW(rep->f, rep->nr + 1, rep->alloc);
	f = &rep->f[rep->nr++];
	f->id = check_def_find(id)->id;
	f->level = level;
	f->subject = xstrdup(subject ? subject : "run");
	f->reason = xstrdup(buf);
	f->accepted = accepted(c, id);
}

void check_unchecked(struct ctx *c, const char *id, const char *fmt, ...)
{
	struct check_report *rep = c->rep;
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ALLOC_GROW(rep->unchecked, rep->nr_unchecked + 1,
		   rep->alloc_unchecked);
	rep->unchecked[rep->nr_unchecked++] = xasprintf("%s (%s)", id, buf);
}

const char *check_machine_fact(const struct ctx *c, const char *key)
{
	const char *v = run_rec_fact(c->r, "machine", key);

	return v && strcmp(v, "absent") ? v : NULL;
}

const char *check_target_fact(const struct ctx *c, int idx, const char *key)
{
	char scope[32];
	const char *v;

	snprintf(scope, sizeof(scope), "target:%d", idx);
	v = run_rec_fact(c->r, scope, key);
	return v && strcmp(v, "absent") ? v : NULL;
}

char *check_subject(const struct pgroup *g)
{
	return xasprintf("%s %s/%s", g->tname, g->wl, g->phase);
}

static char *fmt_bytes(double b)
{
	if (b >= 1024 * MIB)
		return xasprintf("%.1f GiB", b / (1024 * MIB));
	return xasprintf("%.1f MiB", b / MIB);
}

/* ---- the checks; each returns false when it could not look ---- */

/* The largest single phase's logical I/O of a workload on a target:
 * roughly the file or tree it works on. */
static double working_set(const struct ctx *c, const struct pgroup *g)
{
	double ws = 0;

	for (size_t i = 0; i < c->nr_g; i++)
		if (c->g[i].tidx == g->tidx && !strcmp(c->g[i].wl, g->wl) &&
		    c->g[i].inst)
			ws = fmax(ws, c->g[i].logical / (double)c->g[i].inst);
	return ws;
}

static const char *cache_mode(const struct ctx *c, const struct pgroup *g)
{
	char *key = xasprintf("%s/%s", g->wl, g->phase);
	const char *v = run_rec_fact(c->r, "cache", key);

	free(key);
	return v;
}

static bool served_by_cache(const struct pgroup *g)
{
	return g->dev_inst == g->inst && g->inst &&
	       g->logical / (double)g->inst >= CACHE_MIN_BYTES &&
	       g->device * CACHE_RATIO < g->logical;
}

static bool check_cache_fit(struct ctx *c)
{
	const char *mem = check_machine_fact(c, "mem.total_B");
	double ram = mem ? strtod(mem, NULL) : NAN;
	bool any = false;

	for (size_t i = 0; i < c->nr_g; i++) {
		const struct pgroup *g = &c->g[i];
		const char *mode = cache_mode(c, g);
		char *s, *l, *d, *ws, *rm;

		any |= g->dev_inst > 0;
		if (!served_by_cache(g) || (mode && !strcmp(mode, "cold")))
			continue;
		s = check_subject(g);
		l = fmt_bytes(g->logical / (double)g->inst);
		d = fmt_bytes(g->device / (double)g->inst);
		ws = fmt_bytes(working_set(c, g));
		rm = isfinite(ram) ? fmt_bytes(ram) : xstrdup("unknown");
		check_add(c, "cache-fit", CHECK_WARNING, s,
		    "%s logical I/O per run but %s reached the device (%.0f %%)"
		    "; working set %s vs %s RAM: the page cache served it; "
		    "use a working set of at least twice RAM or drop the "
		    "caches before the phase", l, d,
		    100 * g->device / g->logical, ws, rm);
		free(s);
		free(l);
		free(d);
		free(ws);
		free(rm);
	}
	if (!any)
		check_unchecked(c, "cache-fit", "no device I/O counters");
	return any;
}

static bool check_cold_cache(struct ctx *c)
{
	bool any_mode = false;

	for (size_t i = 0; i < c->nr_g; i++) {
		const struct pgroup *g = &c->g[i];
		const char *mode = cache_mode(c, g);
		char *s, *l, *d;

		any_mode |= mode != NULL;
		if (!mode || strcmp(mode, "cold") || !served_by_cache(g))
			continue;
		s = check_subject(g);
		l = fmt_bytes(g->logical / (double)g->inst);
		d = fmt_bytes(g->device / (double)g->inst);
		check_add(c, "cold-cache", CHECK_WARNING, s,
		    "declared cold, yet %s logical I/O per run took only %s "
		    "from the device: the caches were not empty (drop them "
		    "as root, or remount the target)", l, d);
		free(s);
		free(l);
		free(d);
	}
	if (!any_mode)
		check_unchecked(c, "cold-cache", "cache modes not recorded");
	return any_mode;
}

static bool check_cpu_bound(struct ctx *c)
{
	const char *cores_s = check_machine_fact(c, "cpu.cores");
	double cores = cores_s ? strtod(cores_s, NULL) : 1;
	bool any = false;

	for (size_t i = 0; i < c->nr_g; i++) {
		const struct pgroup *g = &c->g[i];
		double par = g->workers > 1 ? fmin((double)g->workers,
						   fmax(cores, 1)) : 1;
		double frac;
		char *s;

		if (!g->inst || !(g->wall > 0))
			continue;
		any = true;
		frac = (g->cpu + g->runq) / (g->wall * par);
		if (frac < CPU_BOUND_FRAC ||
		    g->wall / (double)g->inst < c->o->min_wall_s)
			continue;
		s = check_subject(g);
		check_add(c, "cpu-bound", CHECK_WARNING, s,
		    "own CPU %.2f s + run-queue wait %.2f s of %.2f s wall "
		    "(%.0f %%): the CPU, not the filesystem, sets its pace, so "
		    "a filesystem change can hardly show; judge it by CPU cost "
		    "or use a phase that waits on I/O", g->cpu, g->runq,
		    g->wall, 100 * frac);
		free(s);
	}
	if (!any)
		check_unchecked(c, "cpu-bound", "no timed phase");
	return any;
}

void check_run(const struct run_rec *r, const struct check_opts *o,
	       struct check_report *out)
{
	struct check_opts eff = *o;
	struct ctx c = { .r = r, .o = &eff, .rep = out };
	struct series *s;
	size_t nr_s, n = 0;

	/* A run says what change it was planned to see (run --min-change,
	 * or the default suite's own); an explicit check --min-change
	 * overrides it. */
	c.planned = !isnan(eff.min_change_pct);
	if (!c.planned) {
		const char *v = run_rec_fact(r, "plan", "min_change_pct");
		char *end;
		double pct = v ? strtod(v, &end) : NAN;

		c.planned = v && end != v && !*end && pct >= 0;
		eff.min_change_pct = c.planned ? pct : CHECK_MIN_CHANGE_PCT;
	}
	for (size_t i = 0; i < r->nr_targets && !c.planned; i++)
		c.planned = r->targets[i].idx != r->targets[0].idx;

	memset(out, 0, sizeof(*out));
	out->run_id = r->id;
	regroup(&c);
	shape_series(r, &s, &nr_s);
	n += check_cache_fit(&c);
	n += check_cold_cache(&c);
	n += check_cpu_bound(&c);
	n += check_memfs(&c);
	n += check_loop_cache(&c);
	n += check_vm(&c);
	n += check_device_cache(&c);
	n += check_kernel_debug(&c);
	n += check_mitigations(&c);
	n += check_governor(&c);
	n += check_repetitions(&c, s, nr_s);
	n += check_short(&c);
	n += check_trend(&c);
	n += check_warmup(&c, s, nr_s);
	n += check_cache_declared(&c);
	n += check_fs_state(&c);
	n += check_versions(&c);
	out->nr_checks = ARRAY_SIZE(defs);
	out->nr_checked = n;
	shape_series_free(s, nr_s);
	free(c.g);
}

void check_report_release(struct check_report *rep)
{
	for (size_t i = 0; i < rep->nr; i++) {
		free(rep->f[i].subject);
		free(rep->f[i].reason);
	}
	free(rep->f);
	for (size_t i = 0; i < rep->nr_unchecked; i++)
		free(rep->unchecked[i]);
	free(rep->unchecked);
	memset(rep, 0, sizeof(*rep));
}

enum check_level check_worst(const struct check_report *rep)
{
	enum check_level w = CHECK_NONE;

	for (size_t i = 0; i < rep->nr; i++)
		if (!rep->f[i].accepted && rep->f[i].level > w)
			w = rep->f[i].level;
	return w;
}

const struct check_finding *check_first(const struct check_report *rep,
					enum check_level level)
{
	for (size_t i = 0; i < rep->nr; i++)
		if (!rep->f[i].accepted && rep->f[i].level == level)
			return &rep->f[i];
	return NULL;
}

