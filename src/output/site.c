// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * site.c - the pages of `fslab site` (see site.h): index.html and one
 * page per series, rendered into memory and handed to sitefile.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/fmt.h"
#include "output/html.h"
#include "output/site.h"
#include "output/site_internal.h"
#include "output/trend.h"
#include "util/sha256.h"
#include "util/util.h"

static const char style[] =
	"<style>body{font-family:sans-serif;max-width:70em;margin:1em auto;"
	"padding:0 1em}table{border-collapse:collapse;margin:.5em 0}"
	"td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
	"td.n{text-align:right;font-family:monospace}"
	".worse{color:#b00}.better{color:#060}tr.cp td{border-top:3px solid "
	"#c33}svg{max-width:100%;height:auto}</style>";

/* The page name of a series: a readable slug and a hash of its key. */
static char *page_name(const struct hist_series *s)
{
	char *key = xasprintf("%s%c%s%c%s%c%s", s->workload, 0, s->target, 0,
			      s->phase, 0, s->metric);
	size_t klen = strlen(s->workload) + strlen(s->target) +
		      strlen(s->phase) + strlen(s->metric) + 3;
	char *raw = xasprintf("%s-%s-%s-%s", s->workload, s->target,
			      s->phase, s->metric);
	char sum[65], slug[64];
	size_t w = 0;

	sha256_hex(key, klen, sum);
	for (const char *p = raw; *p && w < 48; p++) {
		char c = *p;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			slug[w++] = c;
		else if (c >= 'A' && c <= 'Z')
			slug[w++] = (char)(c - 'A' + 'a');
		else if (w && slug[w - 1] != '-')
			slug[w++] = '-';
	}
	slug[w] = 0;
	free(key);
	free(raw);
	return xasprintf("%s-%.8s.html", slug, sum);
}

static void head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\">"
	      "<title>", out);
	html_escape(out, title);
	fprintf(out, "</title>%s</head>\n<body>\n", style);
}

static void date_of(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, len, "-");
}

static void series_title(FILE *out, const struct hist_series *s)
{
	html_escape(out, s->workload);
	fputs(", target ", out);
	html_escape(out, s->target);
	fputs(": ", out);
	html_escape(out, s->phase);
	fputc(' ', out);
	html_escape(out, s->metric);
	if (s->unit && *s->unit) {
		fputs(" [", out);
		html_escape(out, s->unit);
		fputc(']', out);
	}
}

static int cmp_run(const void *a, const void *b)
{
	const struct site_run *x = a, *y = b;

	if (x->db != y->db)
		return x->db < y->db ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static const char *host_of(const struct site_in *in, size_t db, int64_t id)
{
	struct site_run k = { db, id, NULL };
	const struct site_run *r = bsearch(&k, in->runs, in->nr_runs,
					   sizeof(k), cmp_run);

	return r ? r->host : "-";
}

/* The same series in one host's history, or NULL. */
static const struct hist_series *series_in(const struct history *h,
					   const struct hist_series *s)
{
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct hist_series *t = &h->series[i];

		if (!strcmp(t->workload, s->workload) &&
		    !strcmp(t->target, s->target) &&
		    !strcmp(t->phase, s->phase) &&
		    !strcmp(t->metric, s->metric))
			return t;
	}
	return NULL;
}

static void changed_list(FILE *out, const struct hist_change *c)
{
	if (!c->nr_changed)
		fputs("nothing recorded changed", out);
	for (size_t j = 0; j < c->nr_changed; j++) {
		if (j)
			fputs("; ", out);
		html_escape(out, c->changed[j]);
	}
}

static void step_cell(FILE *out, const struct hist_change *c)
{
	char pct[32];

	fmt_pct(pct, sizeof(pct), c->pct);
	fprintf(out, "<td class=\"n %s\">%s</td>", c->worse ? "worse" :
		"better", pct);
}

/* A summary row: points, newest mean, change points, the newest one. */
static void scope_row(FILE *out, const char *scope,
		      const struct hist_series *s)
{
	char m[32] = "-";
	const struct hist_change *c = s->nr_cps ? &s->cps[s->nr_cps - 1] :
				      NULL;

	if (s->nr_pts)
		fmt_sig4(m, sizeof(m), s->pts[s->nr_pts - 1].mean);
	fputs("<tr><td>", out);
	html_escape(out, scope);
	fprintf(out, "</td><td class=\"n\">%zu</td><td class=\"n\">%s</td>"
		"<td class=\"n\">%zu</td>", s->nr_pts, m, s->nr_cps);
	if (c) {
		step_cell(out, c);
		fputs("<td>", out);
		changed_list(out, c);
		fputs("</td>", out);
	} else {
		fputs("<td>-</td><td>-</td>", out);
	}
	fputs("</tr>\n", out);
}

static void points_table(FILE *out, const struct site_in *in,
			 const struct hist_series *s)
{
	size_t next = 0;

	fputs("<table><tr><th>#</th><th>run</th><th>host</th><th>started "
	      "(UTC)</th><th>mean</th><th>95 % interval</th><th>n</th>"
	      "<th>change</th></tr>\n", out);
	for (size_t k = 0; k < s->nr_pts; k++) {
		const struct hist_point *p = &s->pts[k];
		const struct hist_change *c = next < s->nr_cps &&
					      s->cps[next].at == k ?
					      &s->cps[next++] : NULL;
		char m[32], lo[32], hi[32], d[32];

		fmt_sig4(m, sizeof(m), p->mean);
		fmt_sig4(lo, sizeof(lo), p->lo);
		fmt_sig4(hi, sizeof(hi), p->hi);
		date_of(d, sizeof(d), p->first_started);
		fprintf(out, "<tr%s><td class=\"n\">%zu</td><td>",
			c ? " class=\"cp\"" : "", k + 1);
		html_escape(out, p->label);
		fputs("</td><td>", out);
		html_escape(out, host_of(in, p->first_db, p->first_run));
		fprintf(out, "</td><td>%s</td><td class=\"n\">%s</td>"
			"<td class=\"n\">%s &ndash; %s</td><td class=\"n\">%zu"
			"</td>", d, m, lo, hi, p->n);
		if (c)
			step_cell(out, c);
		else
			fputs("<td></td>", out);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void change_list(FILE *out, const struct hist_series *s)
{
	fputs("<ul>\n", out);
	if (!s->nr_cps)
		fputs("<li>no change point</li>\n", out);
	for (size_t k = 0; k < s->nr_cps; k++) {
		const struct hist_change *c = &s->cps[k];
		char pct[32];

		fmt_pct(pct, sizeof(pct), c->pct);
		fputs("<li>between run ", out);
		html_escape(out, s->pts[c->at - 1].label);
		fputs(" and run ", out);
		html_escape(out, s->pts[c->at].label);
		fprintf(out, ": <span class=\"%s\">%s%s</span>; ",
			c->worse ? "worse" : "better", pct,
			c->worse ? " (regression)" : "");
		changed_list(out, c);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

static int chart(FILE *out, int id, const struct hist_series *s)
{
	char *svg = trend_chart(id, s, HIST_BY_RUN);

	if (!svg)
		return -1;
	fputs(svg, out);
	fputc('\n', out);
	free(svg);
	return 0;
}

static int series_page(FILE *out, const struct site_in *in,
		       const struct hist_series *s)
{
	const struct hist_series **hs = xcalloc(in->nr_hosts + 1,
						sizeof(*hs));
	const char **hn = xcalloc(in->nr_hosts + 1, sizeof(*hn));
	size_t nh = 0;
	int rc = -1;
	char *title;
	int id = 0;

	for (size_t i = 0; i < in->nr_hosts; i++) {
		const struct hist_series *t = series_in(in->hosts[i].h, s);

		if (t && t->nr_pts) {
			hn[nh] = in->hosts[i].name;
			hs[nh++] = t;
		}
	}
	title = xasprintf("%s, target %s: %s %s - fslab", s->workload,
			  s->target, s->phase, s->metric);
	head(out, title);
	free(title);
	fputs("<p><a href=\"index.html\">all series</a></p>\n<h1>", out);
	series_title(out, s);
	fprintf(out, "</h1>\n<p>%s; one point per run: the mean over its "
		"repetitions%s with the 95 %% interval.  Dashed lines are "
		"change points, orange lines the segments' means.</p>\n",
		s->better == BETTER_HIGHER ? "higher is better" :
		s->better == BETTER_LOWER ? "lower is better" : "no direction",
		s->harmonic ? " (harmonic)" : "");
	fputs("<table><tr><th>hosts</th><th>points</th><th>newest mean</th>"
	      "<th>change points</th><th>newest step</th><th>what changed "
	      "there</th></tr>\n", out);
	if (nh > 1)
		scope_row(out, "all hosts", s);
	for (size_t i = 0; i < nh; i++)
		scope_row(out, hn[i], hs[i]);
	fputs("</table>\n<h2>All hosts</h2>\n", out);
	if (chart(out, ++id, s))
		goto out;
	change_list(out, s);
	points_table(out, in, s);
	for (size_t i = 0; nh > 1 && i < nh; i++) {
		fputs("<h2>Host ", out);
		html_escape(out, hn[i]);
		fputs("</h2>\n", out);
		if (chart(out, ++id, hs[i]))
			goto out;
		change_list(out, hs[i]);
	}
	fputs("</body></html>\n", out);
	rc = 0;
out:
	free(hs);
	free(hn);
	return rc;
}

/* A change point on the index: the series, its scope and where. */
struct cp_ref {
	size_t series;
	const char *scope;             /* NULL: all hosts */
	const struct hist_series *s;
	const struct hist_change *c;
};

static int cmp_cp(const void *a, const void *b)
{
	const struct cp_ref *x = a, *y = b;
	int64_t tx = x->s->pts[x->c->at].first_started;
	int64_t ty = y->s->pts[y->c->at].first_started;

	if (x->c->worse != y->c->worse)
		return x->c->worse ? -1 : 1;
	if (tx != ty)
		return tx > ty ? -1 : 1;
	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	if (!x->scope || !y->scope)
		return !x->scope ? (y->scope ? -1 : 0) : 1;
	return strcmp(x->scope, y->scope);
}

static struct cp_ref *index_cps(const struct site_in *in, size_t *n)
{
	struct cp_ref *v = NULL;
	size_t alloc = 0;

	*n = 0;
	for (size_t i = 0; i < in->all->nr_series; i++) {
		const struct hist_series *s = &in->all->series[i];
		size_t nh = 0;

		for (size_t k = 0; k < s->nr_cps; k++) {
			ALLOC_GROW(v, *n + 1, alloc);
			v[(*n)++] = (struct cp_ref){ i, NULL, s, &s->cps[k] };
		}
		for (size_t j = 0; j < in->nr_hosts; j++)
			nh += series_in(in->hosts[j].h, s) != NULL;
		for (size_t j = 0; nh > 1 && j < in->nr_hosts; j++) {
			const struct hist_series *t =
				series_in(in->hosts[j].h, s);

			for (size_t k = 0; t && k < t->nr_cps; k++) {
				ALLOC_GROW(v, *n + 1, alloc);
				v[(*n)++] = (struct cp_ref){
					i, in->hosts[j].name, t, &t->cps[k] };
			}
		}
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp_cp);
	return v;
}

static void index_changes(FILE *out, const struct site_in *in,
			  char *const *names)
{
	size_t n;
	struct cp_ref *v = index_cps(in, &n);

	fputs("<h2>Newest change points</h2>\n", out);
	if (!n)
		fputs("<p>No change point in any series.</p>\n", out);
	else
		fputs("<table><tr><th>series</th><th>hosts</th><th>step</th>"
		      "<th>between runs</th><th>from (UTC)</th><th>what "
		      "changed there</th></tr>\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct hist_point *a = &v[i].s->pts[v[i].c->at - 1];
		const struct hist_point *b = &v[i].s->pts[v[i].c->at];
		char d[32];

		date_of(d, sizeof(d), b->first_started);
		fprintf(out, "<tr><td><a href=\"%s\">", names[v[i].series]);
		series_title(out, v[i].s);
		fputs("</a></td><td>", out);
		html_escape(out, v[i].scope ? v[i].scope : "all hosts");
		fputs("</td>", out);
		step_cell(out, v[i].c);
		fputs("<td>", out);
		html_escape(out, a->label);
		fputs(" &rarr; ", out);
		html_escape(out, b->label);
		fprintf(out, "</td><td>%s</td><td>", d);
		changed_list(out, v[i].c);
		fputs("</td></tr>\n", out);
	}
	if (n)
		fputs("</table>\n", out);
	free(v);
}

static void index_page(FILE *out, const struct site_in *in,
		       char *const *names)
{
	const struct history *h = in->all;

	head(out, "fslab results");
	fprintf(out, "<h1>fslab results</h1>\n<p>%zu runs, %zu series, %zu "
		"host%s:", h->nr_runs, h->nr_series, in->nr_hosts,
		in->nr_hosts == 1 ? "" : "s");
	for (size_t i = 0; i < in->nr_hosts; i++) {
		fputs(i ? ", " : " ", out);
		html_escape(out, in->hosts[i].name);
	}
	fputs(".  Regressions first, then improvements, newest first.</p>\n",
	      out);
	index_changes(out, in, names);
	fputs("<h2>Every series</h2>\n<table><tr><th>series</th><th>points"
	      "</th><th>newest mean</th><th>change points</th><th>newest "
	      "step</th></tr>\n", out);
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct hist_series *s = &h->series[i];
		char m[32] = "-";

		if (s->nr_pts)
			fmt_sig4(m, sizeof(m), s->pts[s->nr_pts - 1].mean);
		fprintf(out, "<tr><td><a href=\"%s\">", names[i]);
		series_title(out, s);
		fprintf(out, "</a></td><td class=\"n\">%zu</td><td class=\"n\">"
			"%s</td><td class=\"n\">%zu</td>", s->nr_pts, m,
			s->nr_cps);
		if (s->nr_cps)
			step_cell(out, &s->cps[s->nr_cps - 1]);
		else
			fputs("<td>-</td>", out);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</body></html>\n", out);
}

static int put_page(int dfd, const char *name, char *buf, size_t len,
		    struct site_stats *st)
{
	bool w;

	if (site_put(dfd, name, buf, len, &w))
		return -1;
	st->pages++;
	st->bytes += len;
	if (w)
		st->written++;
	else
		st->unchanged++;
	return 0;
}

int site_write(const char *dir, const struct site_in *in,
	       struct site_stats *st)
{
	const struct history *h = in->all;
	char **names = xcalloc(h->nr_series + 2, sizeof(*names));
	int dfd, rc = -1;
	size_t len, i;
	char *buf;
	FILE *out;

	memset(st, 0, sizeof(*st));
	dfd = site_dir_open(dir);
	if (dfd < 0) {
		free(names);
		return -1;
	}
	for (i = 0; i < h->nr_series; i++)
		names[i] = page_name(&h->series[i]);
	for (i = 0; i < h->nr_series; i++) {
		out = open_memstream(&buf, &len);
		if (!out)
			die("out of memory");
		if (series_page(out, in, &h->series[i])) {
			fclose(out);
			free(buf);
			goto out;
		}
		fclose(out);
		rc = put_page(dfd, names[i], buf, len, st);
		free(buf);
		if (rc)
			goto out;
		rc = -1;
	}
	out = open_memstream(&buf, &len);
	if (!out)
		die("out of memory");
	index_page(out, in, names);
	fclose(out);
	names[h->nr_series] = xstrdup("index.html");
	if (!put_page(dfd, "index.html", buf, len, st))
		rc = site_prune(dfd, names, h->nr_series + 1, &st->removed);
	free(buf);
out:
	for (i = 0; i <= h->nr_series; i++)
		free(names[i]);
	free(names);
	close(dfd);
	return rc;
}
