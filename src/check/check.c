// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check.c - the validity checks (see check.h; the reasoning and sources
 * of each are in doc/validity.md).
 *
 * Thresholds are deliberately coarse: a check fires only when a figure
 * is off by a wide margin (device I/O under an eighth of the logical
 * I/O, CPU at three quarters of the wall time), so a clean run stays
 * clean on a noisy machine and a finding is worth reading.
 */
#include "check/check.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "stats/ttest.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "workloads/registry.h"

#define MIB (1024.0 * 1024.0)
/* Below this a phase's I/O is too small to say where it was served. */
#define CACHE_MIN_BYTES (16.0 * MIB)
/* Device I/O under 1/CACHE_RATIO of the logical I/O: the cache served. */
#define CACHE_RATIO 8.0
#define CPU_BOUND_FRAC 0.75
#define TREND_MIN_POINTS 6
#define TREND_MIN_CHANGE 0.25
#define TREND_MIN_T 3.0
#define MIN_REPS 3

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
	o->min_change_pct = 2.0;
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

/* One phase of one workload on one target, over its repetitions. */
struct pgroup {
	int tidx;
	const char *tname, *fstype, *wl, *phase;
	double logical, device, cpu, runq, wall; /* summed over instances */
	size_t inst, dev_inst;
	size_t workers;
	bool too_short;
};

struct ctx {
	const struct run_rec *r;
	const struct check_opts *o;
	struct check_report *rep;
	struct pgroup *g;
	size_t nr_g, alloc_g;
};

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

static void PRINTF(5, 6) add(struct ctx *c, const char *id,
			     enum check_level level, const char *subject,
			     const char *fmt, ...)
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

static void PRINTF(3, 4) unchecked(struct ctx *c, const char *id,
				   const char *fmt, ...)
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

static const char *machine_fact(const struct ctx *c, const char *key)
{
	const char *v = run_rec_fact(c->r, "machine", key);

	return v && strcmp(v, "absent") ? v : NULL;
}

static const char *target_fact(const struct ctx *c, int idx, const char *key)
{
	char scope[32];
	const char *v;

	snprintf(scope, sizeof(scope), "target:%d", idx);
	v = run_rec_fact(c->r, scope, key);
	return v && strcmp(v, "absent") ? v : NULL;
}

static char *subject(const struct pgroup *g)
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
	const char *mem = machine_fact(c, "mem.total_B");
	double ram = mem ? strtod(mem, NULL) : NAN;
	bool any = false;

	for (size_t i = 0; i < c->nr_g; i++) {
		const struct pgroup *g = &c->g[i];
		const char *mode = cache_mode(c, g);
		char *s, *l, *d, *ws, *rm;

		any |= g->dev_inst > 0;
		if (!served_by_cache(g) || (mode && !strcmp(mode, "cold")))
			continue;
		s = subject(g);
		l = fmt_bytes(g->logical / (double)g->inst);
		d = fmt_bytes(g->device / (double)g->inst);
		ws = fmt_bytes(working_set(c, g));
		rm = isfinite(ram) ? fmt_bytes(ram) : xstrdup("unknown");
		add(c, "cache-fit", CHECK_WARNING, s,
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
		unchecked(c, "cache-fit", "no device I/O counters");
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
		s = subject(g);
		l = fmt_bytes(g->logical / (double)g->inst);
		d = fmt_bytes(g->device / (double)g->inst);
		add(c, "cold-cache", CHECK_WARNING, s,
		    "declared cold, yet %s logical I/O per run took only %s "
		    "from the device: the caches were not empty (drop them "
		    "as root, or remount the target)", l, d);
		free(s);
		free(l);
		free(d);
	}
	if (!any_mode)
		unchecked(c, "cold-cache", "cache modes not recorded");
	return any_mode;
}

static bool check_cpu_bound(struct ctx *c)
{
	const char *cores_s = machine_fact(c, "cpu.cores");
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
		s = subject(g);
		add(c, "cpu-bound", CHECK_WARNING, s,
		    "own CPU %.2f s + run-queue wait %.2f s of %.2f s wall "
		    "(%.0f %%): the CPU, not the filesystem, sets its pace, so "
		    "a filesystem change can hardly show; judge it by CPU cost "
		    "or use a phase that waits on I/O", g->cpu, g->runq,
		    g->wall, 100 * frac);
		free(s);
	}
	if (!any)
		unchecked(c, "cpu-bound", "no timed phase");
	return any;
}

static bool memfs_type(const char *t, bool *invalid)
{
	static const char *const mem[] = { "tmpfs", "ramfs" };
	static const char *const other[] = { "overlay", "fuse", "nfs",
					     "cifs", "aufs" };

	for (size_t i = 0; i < ARRAY_SIZE(mem); i++)
		if (!strcmp(t, mem[i])) {
			*invalid = true;
			return true;
		}
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		if (!strncmp(t, other[i], strlen(other[i]))) {
			*invalid = false;
			return true;
		}
	return false;
}

/* The first target record of each command-line index. */
#define EACH_TARGET(c, t)                                                  \
	for (const struct target_rec *t = (c)->r->targets;                 \
	     t < (c)->r->targets + (c)->r->nr_targets; t++)                \
		if (first_of_idx((c)->r, t))

static bool first_of_idx(const struct run_rec *r, const struct target_rec *t)
{
	for (const struct target_rec *u = r->targets; u < t; u++)
		if (u->idx == t->idx)
			return false;
	return true;
}

static bool check_memfs(struct ctx *c)
{
	EACH_TARGET(c, t) {
		const char *ft = target_fact(c, t->idx, "fs.type");
		bool invalid = false;

		if (!ft)
			ft = t->fstype;
		if (!ft || !memfs_type(ft, &invalid))
			continue;
		add(c, "memfs", invalid ? CHECK_INVALID : CHECK_WARNING,
		    t->name,
		    "the target's working directory is on %s: %s; use a loop "
		    "or dev: target on a real filesystem", ft,
		    invalid ? "it measures memory, not a filesystem on a "
			      "device" : "the figures include that layer "
			      "(and its caching) on top of the filesystem");
	}
	return true;
}

static bool check_loop_cache(struct ctx *c)
{
	bool ok = true;

	EACH_TARGET(c, t) {
		const char *dio, *bfs;
		bool invalid = false;

		if (!t->kind || (strcmp(t->kind, "loop") &&
				 strcmp(t->kind, "aged")))
			continue;
		dio = target_fact(c, t->idx, "loop.dio");
		bfs = target_fact(c, t->idx, "loop.backing_fs");
		if (!dio) {
			ok = false;
			continue;
		}
		if (bfs && memfs_type(bfs, &invalid) && invalid)
			add(c, "loop-cache", CHECK_INVALID, t->name,
			    "the loop image lives on %s: every device I/O is "
			    "a memory copy; put --scratch on a disk", bfs);
		else if (!strcmp(dio, "0"))
			add(c, "loop-cache", CHECK_WARNING, t->name,
			    "loop device without direct I/O (loop.dio 0) over "
			    "a file on %s: its reads can come from the backing "
			    "file's page cache; put --scratch on a filesystem "
			    "that supports O_DIRECT (ext4, xfs, btrfs)",
			    bfs ? bfs : "an unknown filesystem");
	}
	if (!ok)
		unchecked(c, "loop-cache", "loop state not recorded");
	return ok;
}

static bool check_vm(struct ctx *c)
{
	const char *vm = machine_fact(c, "virt.vm");

	if (!vm) {
		unchecked(c, "virtual-machine", "not recorded");
		return false;
	}
	if (!strncmp(vm, "yes", 3))
		add(c, "virtual-machine", CHECK_NOTE, "machine",
		    "virtual machine (virt.vm %s): the host's caches and load "
		    "shape the virtual disk's figures; compare only runs on "
		    "the same VM and host", vm);
	return true;
}

static bool check_device_cache(struct ctx *c)
{
	bool any = false;

	EACH_TARGET(c, t) {
		const char *wc = target_fact(c, t->idx, "dev.write_cache");
		const char *model = target_fact(c, t->idx, "dev.model");
		const char *mo = t->eff_mount_opts;

		if (mo && (strstr(mo, ",discard") == mo ||
			   strstr(mo, ",discard") || !strncmp(mo, "discard", 7)))
			add(c, "device-cache", CHECK_NOTE, t->name,
			    "mounted with online discard: deletes issue TRIMs "
			    "whose cost depends on the device");
		if (!wc)
			continue;
		any = true;
		if (model && !strcmp(model, "loop"))
			continue;
		if (!strcmp(wc, "write back"))
			add(c, "device-cache", CHECK_NOTE, t->name,
			    "volatile write cache on (dev.write_cache 'write "
			    "back'): fsync costs depend on the drive's cache "
			    "flushes; state it with the results");
	}
	if (!any)
		unchecked(c, "device-cache", "no block device recorded");
	return any;
}

static bool check_kernel_debug(struct ctx *c)
{
	const char *dbg = machine_fact(c, "kernel.debug");

	if (!dbg) {
		unchecked(c, "kernel-debug", "kernel config not readable: no "
			  "/proc/config.gz or /boot/config-RELEASE");
		return false;
	}
	if (strcmp(dbg, "none"))
		add(c, "kernel-debug", CHECK_WARNING, "machine",
		    "the kernel was built with %s: they slow locking, "
		    "allocation or the filesystem itself by up to several "
		    "times; measure on a kernel built without them", dbg);
	return true;
}

static bool check_mitigations(struct ctx *c)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, vul = 0;

	for (size_t i = 0; i < c->r->nr_facts; i++) {
		const struct fact *f = &c->r->facts[i];

		if (strcmp(f->scope, "machine") ||
		    strncmp(f->key, "mitigations.", 12))
			continue;
		n++;
		if (!strncmp(f->value, "Vulnerable", 10)) {
			if (vul++)
				strbuf_addstr(&sb, ", ");
			strbuf_addstr(&sb, f->key + 12);
		}
	}
	if (!n) {
		strbuf_release(&sb);
		unchecked(c, "mitigations", "not recorded");
		return false;
	}
	if (vul)
		add(c, "mitigations", CHECK_NOTE, "machine",
		    "%zu of %zu CPU vulnerabilities unmitigated (%s): system "
		    "call and context switch costs differ from a mitigated "
		    "machine; compare only runs with the same mitigations",
		    vul, n, sb.buf);
	strbuf_release(&sb);
	return true;
}

static bool check_governor(struct ctx *c)
{
	const char *gov = machine_fact(c, "cpu.governor");
	const char *lo = machine_fact(c, "cpu.freq_min_kHz");
	const char *hi = machine_fact(c, "cpu.freq_max_kHz");

	if (!gov) {
		unchecked(c, "cpu-governor", "no cpufreq%s",
			  machine_fact(c, "virt.vm") &&
			  !strncmp(machine_fact(c, "virt.vm"), "yes", 3) ?
			  ": virtual machine" : "");
		return false;
	}
	if (strcmp(gov, "performance"))
		add(c, "cpu-governor", CHECK_WARNING, "machine",
		    "CPU governor '%s' (%.0f-%.0f MHz): the clock follows the "
		    "load, so CPU-heavy phases vary with it; set 'performance' "
		    "(cpupower frequency-set -g performance)", gov,
		    lo ? strtod(lo, NULL) / 1e3 : NAN,
		    hi ? strtod(hi, NULL) / 1e3 : NAN);
	return true;
}

/* ---- repetitions ---- */

/* The figure repetitions are judged by: the workload's first key metric
 * ("phase/metric"), else the workload run's total wall time. */
static double rep_value(const struct wlrun_rec *w, const char **what)
{
	const struct workload *wl = wl_find(w->workload);
	const char *key = wl && wl->key_metrics ? wl->key_metrics[0] : NULL;
	double v = 0;

	if (key && strchr(key, '/')) {
		const char *slash = strchr(key, '/');
		char *phase = xstrndup(key, (size_t)(slash - key));
		const struct phase_rec *p = wlrun_rec_phase(w, phase, true);

		free(phase);
		*what = key;
		return p ? phase_rec_value(p, slash + 1, NAN) : NAN;
	}
	*what = "wall time";
	for (size_t k = 0; k < w->nr_phases; k++)
		v += (double)w->phases[k].m.wall_ns / 1e9;
	return w->nr_phases ? v : NAN;
}

struct series {
	int tidx;
	const char *tname, *wl, *what;
	double *x;
	size_t n, alloc;
};

static void collect_series(const struct run_rec *r, struct series **out,
			   size_t *nr)
{
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	/* In repetition order: wlruns are stored as they ran. */
	for (int rep = 0;; rep++) {
		bool any = false;

		for (size_t i = 0; i < r->nr_wlruns; i++) {
			const struct wlrun_rec *w = &r->wlruns[i];
			const struct target_rec *t = run_rec_target(r, w);
			struct series *s = NULL;
			const char *what;
			double v;

			if (w->rep != rep)
				continue;
			any = true;
			if (!w->status || strcmp(w->status, "complete"))
				continue;
			v = rep_value(w, &what);
			if (!isfinite(v))
				continue;
			for (size_t k = 0; k < *nr; k++)
				if ((*out)[k].tidx == (t ? t->idx : -1) &&
				    !strcmp((*out)[k].wl, w->workload))
					s = &(*out)[k];
			if (!s) {
				ALLOC_GROW(*out, *nr + 1, alloc);
				s = &(*out)[(*nr)++];
				memset(s, 0, sizeof(*s));
				s->tidx = t ? t->idx : -1;
				s->tname = t && t->name ? t->name : "?";
				s->wl = w->workload;
				s->what = what;
			}
			ALLOC_GROW(s->x, s->n + 1, s->alloc);
			s->x[s->n++] = v;
		}
		if (!any)
			break;
	}
}

/* Minimum detectable change (%) of comparing two configurations of n
 * repetitions each with this coefficient of variation (log scale). */
static double mdc_pct(double cov_pct, size_t n, const struct check_opts *o)
{
	double sl = sqrt(log1p(pow(cov_pct / 100, 2)));
	double m = ttest_mdc(sl * sqrt(2.0 / (double)n), 2.0 * (double)n - 2,
			     o->alpha, o->power);

	return isfinite(m) ? 100 * (exp(m) - 1) : NAN;
}

static bool check_repetitions(struct ctx *c, struct series *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		char *subj = xasprintf("%s %s", s[i].tname, s[i].wl);
		struct stats_summary st;
		double mdc;
		size_t need;

		if (s[i].n < MIN_REPS) {
			add(c, "repetitions", CHECK_WARNING, subj,
			    "%zu repetition%s: no confidence interval and no "
			    "verdict from compare, which needs %d; --repeat "
			    "%d or more", s[i].n, s[i].n == 1 ? "" : "s",
			    MIN_REPS, MIN_REPS);
			free(subj);
			continue;
		}
		stats_summarize(s[i].x, s[i].n, &st);
		mdc = mdc_pct(st.cov_pct, s[i].n, c->o);
		if (!isfinite(mdc) || mdc <= c->o->min_change_pct) {
			free(subj);
			continue;
		}
		for (need = s[i].n; need < 10000 &&
		     mdc_pct(st.cov_pct, need, c->o) > c->o->min_change_pct;)
			need = need < 64 ? need + 1 : need * 2;
		add(c, "repetitions", CHECK_WARNING, subj,
		    "%s varies by CoV %.1f %% over %zu repetitions: a "
		    "comparison could only see changes above %.1f %% (mdc), "
		    "not the %.1f %% asked for; --repeat %zu, or a quieter "
		    "machine", s[i].what, st.cov_pct, s[i].n, mdc,
		    c->o->min_change_pct, need);
		free(subj);
	}
	if (!nr)
		unchecked(c, "repetitions", "no complete workload run");
	return nr > 0;
}

static bool check_warmup(struct ctx *c, struct series *s, size_t nr)
{
	bool any = false;

	for (size_t i = 0; i < nr; i++) {
		struct stats_summary st;
		double dev, lim;
		char *subj;

		if (s[i].n < MIN_REPS)
			continue;
		any = true;
		stats_summarize(s[i].x + 1, s[i].n - 1, &st);
		if (!(st.mean != 0))
			continue;
		dev = 100 * (s[i].x[0] / st.mean - 1);
		lim = fmax(2 * c->o->min_change_pct,
			   4 * (isfinite(st.cov_pct) ? st.cov_pct : 0));
		if (fabs(dev) <= lim)
			continue;
		subj = xasprintf("%s %s", s[i].tname, s[i].wl);
		add(c, "warm-up", CHECK_WARNING, subj,
		    "first repetition's %s is %+.1f %% off the mean of the "
		    "other %zu (CoV %.1f %%): a warm-up; discard it or run one "
		    "unrecorded repetition first", s[i].what, dev, s[i].n - 1,
		    isfinite(st.cov_pct) ? st.cov_pct : 0);
		free(subj);
	}
	if (!any)
		unchecked(c, "warm-up", "fewer than %d repetitions", MIN_REPS);
	return any;
}

static bool check_short(struct ctx *c)
{
	bool any = false;

	for (size_t i = 0; i < c->nr_g; i++) {
		const struct pgroup *g = &c->g[i];
		double mean;
		char *s;

		if (!g->inst)
			continue;
		any = true;
		mean = g->wall / (double)g->inst;
		if (!g->too_short && mean >= c->o->min_wall_s)
			continue;
		s = subject(g);
		add(c, "short-phase", CHECK_WARNING, s,
		    "mean wall time %.1f ms%s, below the %.0f ms compare "
		    "needs to judge it; give the workload more work (files=, "
		    "size=, runs=)", 1e3 * mean,
		    g->too_short ? " (below the clock's resolution)" : "",
		    1e3 * c->o->min_wall_s);
		free(s);
	}
	if (!any)
		unchecked(c, "short-phase", "no timed phase");
	return any;
}

/* "interval.N.NAME" or "trace.ts.N.NAME" with a rate NAME: N, NAME. */
static const char *series_point(const char *metric, long *idx, size_t *plen)
{
	static const char *const pre[] = { "interval.", "trace.ts." };

	for (size_t i = 0; i < ARRAY_SIZE(pre); i++) {
		size_t pl = strlen(pre[i]);
		char *end;

		if (strncmp(metric, pre[i], pl))
			continue;
		*idx = strtol(metric + pl, &end, 10);
		if (end == metric + pl || *end != '.' || *idx < 0)
			return NULL;
		end++;
		*plen = pl;
		if (strstr(end, "/s") || (strlen(end) > 2 &&
					  !strcmp(end + strlen(end) - 2, "_s")))
			return end;
		return NULL;
	}
	return NULL;
}

/* Least-squares slope of y over 0..n-1, its t statistic and the mean. */
static void fit(const double *y, size_t n, double *slope, double *t,
		double *mean)
{
	double mx = (double)(n - 1) / 2, my = stats_mean(y, n), sxx = 0,
	       sxy = 0, sse = 0, b, a;

	for (size_t i = 0; i < n; i++) {
		sxx += ((double)i - mx) * ((double)i - mx);
		sxy += ((double)i - mx) * (y[i] - my);
	}
	b = sxx > 0 ? sxy / sxx : 0;
	a = my - b * mx;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - (a + b * (double)i);

		sse += e * e;
	}
	*slope = b;
	*mean = my;
	*t = sse > 0 && n > 2 ? b / sqrt(sse / (double)(n - 2) / sxx)
			      : (b != 0 ? INFINITY : 0);
}

static void trend_phase(struct ctx *c, const struct target_rec *t,
			const struct wlrun_rec *w, const struct phase_rec *p,
			bool *any, bool *reported)
{
	for (size_t m = 0; m < p->nr_metrics && !*reported; m++) {
		long idx;
		size_t pl = 0;
		const char *mname = p->metrics[m].name;
		const char *name = series_point(mname, &idx, &pl);
		double *y = NULL, slope, tt, mean, change;
		size_t n = 0, alloc = 0;

		if (!name || idx != 0)
			continue;
		/* Gather the series N = 0, 1, ... with the same name. */
		for (long k = 0;; k++) {
			char *want = xasprintf("%.*s%ld.%s", (int)pl, mname, k,
					       name);
			const struct metric *mm = phase_rec_metric(p, want);

			free(want);
			if (!mm)
				break;
			ALLOC_GROW(y, n + 1, alloc);
			y[n++] = mm->value;
		}
		if (n < TREND_MIN_POINTS) {
			free(y);
			continue;
		}
		*any = true;
		fit(y, n, &slope, &tt, &mean);
		change = mean != 0 ? slope * (double)(n - 1) / mean : 0;
		if (fabs(change) >= TREND_MIN_CHANGE && fabs(tt) >= TREND_MIN_T) {
			char *s = xasprintf("%s %s/%s", t && t->name ? t->name
							      : "?",
					    w->workload, p->name);

			add(c, "trend", CHECK_WARNING, s,
			    "%s %s by %.0f %% from first to last of %zu "
			    "intervals (t %.1f): no steady state; run it "
			    "longer, or judge the steady part", name,
			    change < 0 ? "falls" : "rises", 100 * fabs(change),
			    n, tt);
			free(s);
			*reported = true;
		}
		free(y);
	}
}

static bool check_trend(struct ctx *c)
{
	bool any = false;

	for (size_t i = 0; i < c->r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &c->r->wlruns[i];
		const struct target_rec *t = run_rec_target(c->r, w);
		bool reported = false;

		/* One finding per workload run at most: the first series
		 * that trends says enough. */
		for (size_t k = 0; k < w->nr_phases && !reported; k++)
			if (w->phases[k].status == PHASE_OK)
				trend_phase(c, t, w, &w->phases[k], &any,
					    &reported);
	}
	if (!any)
		unchecked(c, "trend", "no interval series recorded");
	return any;
}

static bool check_cache_declared(struct ctx *c)
{
	for (size_t i = 0; i < c->r->nr_facts; i++)
		if (!strcmp(c->r->facts[i].scope, "cache"))
			return true;
	if (c->nr_g)
		add(c, "cache-declared", CHECK_NOTE, "run",
		    "the phases' cache modes (cold or warm) were not recorded "
		    "(an older fslab); state them with the results");
	return true;
}

static bool check_fs_state(struct ctx *c)
{
	EACH_TARGET(c, t) {
		const char *st = target_fact(c, t->idx, "fs.state");

		if (!st)
			add(c, "fs-state", CHECK_NOTE, t->name,
			    "fresh or aged not recorded (an older fslab)");
		else if (!strcmp(st, "existing"))
			add(c, "fs-state", CHECK_NOTE, t->name,
			    "an existing filesystem of unrecorded age and "
			    "fullness: state them, or use a loop target "
			    "(fresh, or aged with age=)");
	}
	return true;
}

static bool check_versions(struct ctx *c)
{
	if (!c->r->version || !*c->r->version)
		add(c, "versions", CHECK_WARNING, "run",
		    "fslab's version not recorded");
	EACH_TARGET(c, t) {
		if (!t->kind || (strcmp(t->kind, "loop") &&
				 strcmp(t->kind, "dev")))
			continue;
		if (!t->mkfs_version || !*t->mkfs_version)
			add(c, "versions", CHECK_WARNING, t->name,
			    "mkfs version not recorded for a filesystem fslab "
			    "made: install the filesystem's tools with their "
			    "-V output, or state the version");
	}
	return true;
}

void check_run(const struct run_rec *r, const struct check_opts *o,
	       struct check_report *out)
{
	struct ctx c = { .r = r, .o = o, .rep = out };
	struct series *s;
	size_t nr_s, n = 0;

	memset(out, 0, sizeof(*out));
	out->run_id = r->id;
	regroup(&c);
	collect_series(r, &s, &nr_s);
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
	for (size_t i = 0; i < nr_s; i++)
		free(s[i].x);
	free(s);
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
