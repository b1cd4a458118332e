/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse.c - what an external command printed, as metrics (internal.h).
 */
#include "workloads/exec/internal.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define EXEC_NAME_MAX 64

static void add(struct exec_metrics *m, const char *name, double value,
		const char *unit, enum better better)
{
	struct exec_metric *e;

	ALLOC_GROW(m->v, m->nr + 1, m->alloc);
	e = &m->v[m->nr++];
	e->name = xstrdup(name);
	e->value = value;
	e->unit = xstrdup(unit ? unit : "");
	e->better = better;
}

void exec_metrics_release(struct exec_metrics *m)
{
	for (size_t i = 0; i < m->nr; i++) {
		free(m->v[i].name);
		free(m->v[i].unit);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/* A metric name a command may choose: printable, no space, short. */
static bool good_name(const char *s, size_t n)
{
	if (!n || n > EXEC_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isgraph((unsigned char)s[i]) || s[i] == ',' ||
		    s[i] == '"' || s[i] == '\'')
			return false;
	return true;
}

static int parse_better(const char *s, enum better *b)
{
	if (!strcmp(s, "higher"))
		*b = BETTER_HIGHER;
	else if (!strcmp(s, "lower"))
		*b = BETTER_LOWER;
	else if (!strcmp(s, "none"))
		*b = BETTER_NONE;
	else
		return -1;
	return 0;
}

static bool dup_name(const struct exec_metrics *m, const char *name)
{
	for (size_t i = 0; i < m->nr; i++)
		if (!strcmp(m->v[i].name, name))
			return true;
	return false;
}

int exec_parse_lines(const char *text, struct exec_metrics *m, char *err,
		     size_t errlen)
{
	size_t lineno = 0;

	memset(m, 0, sizeof(*m));
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n), *tok[5], *save = NULL, *end;
		char name[EXEC_NAME_MAX + 8];
		enum better b = BETTER_NONE;
		const char *why;
		size_t nt = 0;
		double v;

		lineno++;
		p += n + (p[n] == '\n');
		for (char *t = strtok_r(line, " \t\r", &save); t && nt < 5;
		     t = strtok_r(NULL, " \t\r", &save))
			tok[nt++] = t;
		if (!nt || tok[0][0] == '#') {
			free(line);
			continue;
		}
		if (nt < 2 || nt > 4 || !good_name(tok[0], strlen(tok[0]))) {
			snprintf(err, errlen, "stdout line %zu is not 'name "
				 "value [unit] [higher|lower]'", lineno);
			goto fail;
		}
		v = strtod(tok[1], &end);
		if (*end || end == tok[1] || !isfinite(v)) {
			snprintf(err, errlen, "stdout line %zu: '%s' is not a "
				 "finite number", lineno, tok[1]);
			goto fail;
		}
		/* A lone third token is the direction if it spells one. */
		if (nt == 3 && !parse_better(tok[2], &b))
			tok[2] = (char *)"";
		else if (nt == 4 && parse_better(tok[3], &b)) {
			snprintf(err, errlen, "stdout line %zu: '%s' is not "
				 "higher, lower or none", lineno, tok[3]);
			goto fail;
		}
		snprintf(name, sizeof(name), "cmd.%s", tok[0]);
		if ((why = metric_name_check(name, nt >= 3 ? tok[2] : ""))) {
			snprintf(err, errlen, "stdout line %zu: metric '%s' "
				 "(unit '%s'): %s (README, Metric names)",
				 lineno, tok[0], nt >= 3 ? tok[2] : "", why);
			goto fail;
		}
		if (dup_name(m, name)) {
			snprintf(err, errlen, "stdout line %zu: metric '%s' "
				 "given twice", lineno, tok[0]);
			goto fail;
		}
		add(m, name, v, nt >= 3 ? tok[2] : "", b);
		free(line);
		continue;
fail:
		free(line);
		exec_metrics_release(m);
		return -1;
	}
	return 0;
}

int exec_parse_json(const char *text, struct exec_metrics *m, char *err,
		    size_t errlen)
{
	json_error_t je;
	json_t *root = json_loads(text, 0, &je), *v;
	const char *key;
	char name[EXEC_NAME_MAX + 8];

	memset(m, 0, sizeof(*m));
	if (!root) {
		snprintf(err, errlen, "stdout is not JSON: line %d: %s",
			 je.line, je.text);
		return -1;
	}
	if (!json_is_object(root)) {
		snprintf(err, errlen, "stdout is JSON but not an object of "
			 "metrics");
		goto fail;
	}
	json_object_foreach(root, key, v) {
		enum better b = BETTER_NONE;
		const char *unit = "", *why;
		double x;

		if (!good_name(key, strlen(key))) {
			snprintf(err, errlen, "'%.40s' is not a metric name "
				 "(printable, no spaces, at most %d bytes)",
				 key, EXEC_NAME_MAX);
			goto fail;
		}
		if (json_is_object(v)) {
			json_t *val = json_object_get(v, "value");
			const char *bs = json_string_value(
				json_object_get(v, "better"));

			unit = json_string_value(json_object_get(v, "unit")) ?:
			       "";
			if (bs && parse_better(bs, &b)) {
				snprintf(err, errlen, "metric '%s': better is "
					 "'%s', not higher, lower or none",
					 key, bs);
				goto fail;
			}
			v = val;
		}
		if (!json_is_number(v) || !isfinite(json_number_value(v))) {
			snprintf(err, errlen, "metric '%s' has no finite "
				 "number", key);
			goto fail;
		}
		x = json_number_value(v);
		snprintf(name, sizeof(name), "cmd.%s", key);
		if ((why = metric_name_check(name, unit))) {
			snprintf(err, errlen, "metric '%s' (unit '%s'): %s "
				 "(README, Metric names)", key, unit, why);
			goto fail;
		}
		add(m, name, x, unit, b);
	}
	json_decref(root);
	return 0;
fail:
	json_decref(root);
	exec_metrics_release(m);
	return -1;
}

int exec_parse_dbench(const char *text, struct exec_metrics *m, char *err,
		      size_t errlen)
{
	const char *p = NULL, *q = text;
	double mb, lat = NAN;
	int clients, procs;

	memset(m, 0, sizeof(*m));
	/* The last "Throughput" line is the result; the per-second lines
	 * before it say "MB/sec  execute". */
	while ((q = strstr(q, "\nThroughput ")))
		p = ++q;
	if (!p && !strncmp(text, "Throughput ", 11))
		p = text;
	if (!p || sscanf(p, "Throughput %lf MB/sec %d clients %d procs",
			 &mb, &clients, &procs) != 3) {
		snprintf(err, errlen, "no 'Throughput N MB/sec N clients' line "
			 "in dbench's output");
		return -1;
	}
	q = strstr(p, "max_latency=");
	if (q && q < p + strcspn(p, "\n"))
		lat = strtod(q + 12, NULL);
	/* As dbench prints it (its "MB/sec"). */
	add(m, "dbench.MB/s", mb, "MB/s", BETTER_HIGHER);
	add(m, "dbench.clients", clients, "", BETTER_NONE);
	if (!isnan(lat))
		add(m, "dbench.lat_max_ms", lat, "ms", BETTER_LOWER);
	return 0;
}

int exec_parse_fs_mark(const char *text, struct exec_metrics *m, char *err,
		       size_t errlen)
{
	const char *p = strstr(text, "Files/sec");
	double inv = 0;
	size_t n = 0;

	memset(m, 0, sizeof(*m));
	if (!p) {
		snprintf(err, errlen, "no 'FSUse%% Count Size Files/sec' table "
			 "in fs_mark's output");
		return -1;
	}
	p += strcspn(p, "\n");
	while (*p == '\n') {
		double use, count, size, rate, overhead;
		char name[64];

		p++;
		if (sscanf(p, "%lf %lf %lf %lf %lf", &use, &count, &size,
			   &rate, &overhead) != 5)
			break;
		n++;
		snprintf(name, sizeof(name), "fs_mark.%zu.files/s", n);
		add(m, name, rate, "files/s", BETTER_NONE);
		if (rate > 0)
			inv += 1 / rate;
		p += strcspn(p, "\n");
	}
	if (!n) {
		snprintf(err, errlen, "fs_mark's table has no rows");
		return -1;
	}
	/* Iterations create the same number of files: the rate over all of
	 * them is the harmonic mean of theirs. */
	add(m, "fs_mark.files/s", inv > 0 ? (double)n / inv : 0, "files/s",
	    BETTER_HIGHER);
	add(m, "fs_mark.iterations", (double)n, "", BETTER_NONE);
	return 0;
}
