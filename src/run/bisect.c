/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect.c - `fslab bisect`'s runs: the axis file, one measurement, the
 * stored bisection (see bisect.h).
 */
#include "run/bisect.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/target.h"
#include "store/store.h"
#include "util/interrupt.h"
#include "util/strbuf.h"
#include "util/util.h"

int bisect_axis_load(const char *path, bool targets,
		     struct bisect_axis *ax, char *err, size_t errlen)
{
	char *text = read_file(path, NULL), *line, *save = NULL;
	unsigned nr = 0;

	memset(ax, 0, sizeof(*ax));
	if (!text) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	/* strtok_r would skip empty lines and lose the line count */
	for (line = text; line; line = save) {
		char *end, why[512];
		struct target_spec ts;

		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		nr++;
		while (isspace((unsigned char)*line))
			line++;
		end = line + strlen(line);
		while (end > line && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*line || *line == '#')
			continue;
		if (targets &&
		    target_spec_parse(line, &ts, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s:%u: bad target '%s': %s",
				 path, nr, line, why);
			free(text);
			bisect_axis_release(ax);
			return -1;
		}
		if (targets)
			target_spec_release(&ts);
		ALLOC_GROW(ax->specs, ax->nr + 1, ax->alloc);
		ax->lines = xrealloc(ax->lines, ax->alloc * sizeof(*ax->lines));
		ax->specs[ax->nr] = xstrdup(line);
		ax->lines[ax->nr++] = nr;
	}
	free(text);
	return 0;
}

void bisect_axis_release(struct bisect_axis *ax)
{
	for (size_t i = 0; i < ax->nr; i++)
		free(ax->specs[i]);
	free(ax->specs);
	free(ax->lines);
	memset(ax, 0, sizeof(*ax));
}

int bisect_setup_metric(struct bisect_setup *s, char *err, size_t errlen)
{
	const char *slash = s->metric ? strchr(s->metric, '/') : NULL;

	free(s->phase);
	free(s->name);
	s->phase = s->name = NULL;
	if (!slash || slash == s->metric || !slash[1]) {
		snprintf(err, errlen, "--metric takes PHASE/METRIC "
			 "(create/files/s), not '%s'",
			 s->metric ? s->metric : "");
		return -1;
	}
	s->phase = xstrndup(s->metric, (size_t)(slash - s->metric));
	s->name = xstrdup(slash + 1);
	return 0;
}

void bisect_setup_release(struct bisect_setup *s)
{
	free(s->tag);
	free(s->axis);
	free(s->workload);
	free(s->metric);
	free(s->phase);
	free(s->name);
	free(s->src);
	free(s->target);
	free(s->command);
	free(s->good_rev);
	free(s->bad_rev);
	memset(s, 0, sizeof(*s));
}

char *bisect_step_tag(const char *tag, size_t k)
{
	return xasprintf("%s:step=%zu", tag, k);
}

/* What a complete run without the metric has instead, for the error. */
static void no_metric(const struct wlrun_rec *w, const struct phase_rec *p,
		      const struct bisect_setup *s, struct bisect_meas *m)
{
	struct strbuf sb = STRBUF_INIT;

	if (!p) {
		for (size_t i = 0; i < w->nr_phases; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "",
				    w->phases[i].name);
		snprintf(m->why, sizeof(m->why), "run %" PRId64 " has no "
			 "phase '%s' (it has: %s)", m->run_id, s->phase,
			 sb.len ? sb.buf : "none");
	} else {
		for (size_t i = 0; i < p->nr_metrics; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "",
				    p->metrics[i].name);
		snprintf(m->why, sizeof(m->why), "phase '%s' of run %" PRId64
			 " has no metric '%s' (it has: %s)", s->phase,
			 m->run_id, s->name, sb.len ? sb.buf : "none");
	}
	strbuf_release(&sb);
	m->outcome = BISECT_NO_METRIC;
}

/* The measurement run id holds (its step from its facts). */
static int bisect_read_run(struct store *st, int64_t id,
			   const struct bisect_setup *s,
			   struct bisect_meas *m)
{
	const struct phase_rec *p;
	const struct metric *mt;
	const struct wlrun_rec *w;
	struct run_rec *r;
	const char *step;

	memset(m, 0, sizeof(*m));
	m->run_id = id;
	m->value = NAN;
	if (store_load_run_metrics(st, id, &r) < 0)
		return -1;
	step = run_rec_fact(r, "bisect", "bisect.step");
	m->step = step ? strtoul(step, NULL, 10) : 0;
	if (!strcmp(r->status, "incomplete") ||
	    !strcmp(r->status, "running")) {
		m->outcome = BISECT_INTERRUPTED;
		run_rec_free(r);
		return 0;
	}
	w = r->nr_wlruns ? &r->wlruns[0] : NULL;
	if (strcmp(r->status, "complete") || !w ||
	    strcmp(w->status, "complete")) {
		m->outcome = BISECT_FAILED;
		snprintf(m->why, sizeof(m->why), "run %" PRId64 " %s", id,
			 w ? w->status : r->status);
		run_rec_free(r);
		return 0;
	}
	p = wlrun_rec_phase(w, s->phase, true);
	mt = p ? phase_rec_metric(p, s->name) : NULL;
	if (!mt) {
		no_metric(w, p, s, m);
	} else if (!(mt->value > 0)) {
		/* the log of the figure is what is bisected */
		m->outcome = BISECT_FAILED;
		snprintf(m->why, sizeof(m->why), "run %" PRId64 ": %s is "
			 "%g, not a positive figure", id, s->metric,
			 mt->value);
	} else {
		m->outcome = BISECT_MEASURED;
		m->value = mt->value;
	}
	run_rec_free(r);
	return 0;
}

/* A fact of the bisection: the runner copies it, nothing writes it. */
static struct fact fact_of(const char *key, const char *value)
{
	return (struct fact){ (char *)"bisect", (char *)key, (char *)value };
}

/* The facts every run of the bisection carries; label is the step's. */
static size_t setup_facts(const struct bisect_setup *s, size_t k,
			  const char *label, struct fact *f, char (*buf)[32])
{
	size_t n = 0;

	snprintf(buf[0], sizeof(buf[0]), "%zu", k);
	snprintf(buf[1], sizeof(buf[1]), "%zu", s->good);
	snprintf(buf[2], sizeof(buf[2]), "%zu", s->bad);
	snprintf(buf[3], sizeof(buf[3]), "%zu", s->nr_steps);
	f[n++] = fact_of("bisect.tag", s->tag);
	f[n++] = fact_of("bisect.step", buf[0]);
	f[n++] = fact_of("bisect.spec", label);
	f[n++] = fact_of("bisect.axis", s->axis);
	f[n++] = fact_of("bisect.workload", s->workload);
	f[n++] = fact_of("bisect.metric", s->metric);
	f[n++] = fact_of("bisect.good", buf[1]);
	f[n++] = fact_of("bisect.bad", buf[2]);
	f[n++] = fact_of("bisect.steps", buf[3]);
	if (s->kind == BISECT_TARGETS)
		return n;
	f[n++] = fact_of("bisect.target", s->target);
	f[n++] = fact_of("bisect.command", s->command);
	f[n++] = fact_of("bisect.aa", s->aa ? "1" : "0");
	if (s->kind != BISECT_GIT)
		return n;
	/* what compare and history show of a git step: its revision */
	f[n++] = fact_of("bisect.rev", label);
	f[n++] = fact_of("bisect.good_rev", s->good_rev);
	f[n++] = fact_of("bisect.bad_rev", s->bad_rev);
	return n;
}

int bisect_measure(struct store *st, const struct run_config *base,
		   const struct bisect_setup *s, struct run_workload *w,
		   const char *spec, const char *label, size_t k,
		   struct bisect_meas *m, int *rc)
{
	struct run_config cfg = *base;
	struct target_spec ts;
	struct fact facts[15];
	char buf[4][32], err[512];
	int64_t before = 0, id = 0;
	char *tag = bisect_step_tag(s->tag, k);

	memset(m, 0, sizeof(*m));
	m->step = k;
	m->value = NAN;
	if (target_spec_parse(spec, &ts, err, sizeof(err)) < 0)
		BUG("step %zu's spec '%s' no longer parses: %s", k, spec,
		    err);
	cfg.targets = &ts;
	cfg.nr_targets = 1;
	cfg.wls = w;
	cfg.nr_wls = 1;
	cfg.repeat = cfg.max_repeat = 1;
	cfg.tag = tag;
	cfg.facts = facts;
	cfg.nr_facts = setup_facts(s, k, label, facts, buf);
	if (store_latest_run(st, NULL, &before) < 0)
		goto fail;
	*rc = runner_execute(&cfg);
	target_spec_release(&ts);
	if (store_latest_run(st, tag, &id) < 0)
		goto fail_released;
	free(tag);
	/* refused before it measured anything: the runner kept no row */
	if (id <= before) {
		m->outcome = interrupt_requested() ? BISECT_INTERRUPTED
						   : BISECT_FAILED;
		snprintf(m->why, sizeof(m->why), "the run was refused "
			 "(exit %d)", *rc);
		return 0;
	}
	if (bisect_read_run(st, id, s, m) < 0)
		return -1;
	m->step = k;
	return 0;
fail:
	target_spec_release(&ts);
fail_released:
	free(tag);
	return -1;
}

/* The setup from the facts of a stored run of the bisection. */
static int setup_from(struct store *st, int64_t id, const char *tag,
		      struct bisect_setup *s)
{
	static const char *const keys[] = {
		"bisect.axis", "bisect.workload", "bisect.metric",
		"bisect.good", "bisect.bad", "bisect.steps",
	};
	const char *v[ARRAY_SIZE(keys)];
	struct run_rec *r;
	char err[512];

	if (store_load_run_metrics(st, id, &r) < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		v[i] = run_rec_fact(r, "bisect", keys[i]);
		if (!v[i]) {
			run_rec_free(r);
			return error("run %" PRId64 " of bisection '%s' "
				     "lacks its fact %s", id, tag, keys[i]);
		}
	}
	s->tag = xstrdup(tag);
	s->axis = xstrdup(v[0]);
	s->workload = xstrdup(v[1]);
	s->metric = xstrdup(v[2]);
	s->good = strtoul(v[3], NULL, 10);
	s->bad = strtoul(v[4], NULL, 10);
	s->nr_steps = strtoul(v[5], NULL, 10);
	if (!strncmp(s->axis, "git:", 4) || !strncmp(s->axis, "steps:", 6)) {
		const char *t = run_rec_fact(r, "bisect", "bisect.target");
		const char *c = run_rec_fact(r, "bisect", "bisect.command");
		const char *aa = run_rec_fact(r, "bisect", "bisect.aa");
		const char *g = run_rec_fact(r, "bisect", "bisect.good_rev");
		const char *b = run_rec_fact(r, "bisect", "bisect.bad_rev");

		s->kind = s->axis[0] == 'g' ? BISECT_GIT : BISECT_STEPS;
		s->src = xstrdup(strchr(s->axis, ':') + 1);
		if (!t || !c || (s->kind == BISECT_GIT && (!g || !b))) {
			run_rec_free(r);
			return error("run %" PRId64 " of bisection '%s' lacks "
				     "the facts of its %s axis", id, tag,
				     s->kind == BISECT_GIT ? "git:" : "steps:");
		}
		s->target = xstrdup(t);
		s->command = xstrdup(c);
		s->aa = aa && !strcmp(aa, "1");
		s->good_rev = g ? xstrdup(g) : NULL;
		s->bad_rev = b ? xstrdup(b) : NULL;
	} else {
		s->src = xstrdup(s->axis);
	}
	run_rec_free(r);
	if (bisect_setup_metric(s, err, sizeof(err)) < 0)
		return error("bisection '%s': %s", tag, err);
	return 0;
}

int bisect_load(struct store *st, const char *tag, struct bisect_setup *s,
		struct bisect_meas **ms, size_t *nr)
{
	char *sel = xasprintf("tag=%s:step=*", tag);
	int64_t *ids = NULL;
	size_t n = 0;
	int rc;

	*ms = NULL;
	*nr = 0;
	rc = store_select_runs(st, sel, &ids, &n);
	free(sel);
	if (rc < 0)
		return -1;
	if (n && setup_from(st, ids[0], tag, s) < 0) {
		free(ids);
		return -1;
	}
	*ms = xcalloc(n ? n : 1, sizeof(**ms));
	for (size_t i = 0; i < n; i++)
		if (bisect_read_run(st, ids[i], s, &(*ms)[i]) < 0) {
			free(ids);
			free(*ms);
			*ms = NULL;
			return -1;
		}
	*nr = n;
	free(ids);
	return 0;
}
