/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sets.c - which stored workload runs are compared with which: the
 * configurations (groups of repetitions) of each comparison set, matched
 * by target name across the runs named on the command line, or by
 * command-line index and option set within one run (compare.h has the
 * rules).
 */
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/internal.h"
#include "util/strbuf.h"
#include "util/util.h"

const char **compare_workloads(const struct run_rec *const *runs,
			       size_t nr_runs, size_t *nr)
{
	const char **names = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < nr_runs; i++) {
		for (size_t j = 0; j < runs[i]->nr_wlruns; j++) {
			const char *w = runs[i]->wlruns[j].workload;
			bool seen = false;

			if (!w)
				continue;
			for (size_t k = 0; k < n && !seen; k++)
				seen = !strcmp(names[k], w);
			if (seen)
				continue;
			ALLOC_GROW(names, n + 1, alloc);
			names[n++] = w;
		}
	}
	*nr = n;
	return names;
}

/* A group under construction: reps and the run of each. */
struct gbuild {
	struct cmp_group g;
	size_t alloc, ralloc;
};

static void group_add(struct gbuild *b, const struct run_rec *r,
		      const struct wlrun_rec *w)
{
	const struct wlrun_rec **reps = (const struct wlrun_rec **)b->g.reps;
	const struct run_rec **runs = (const struct run_rec **)b->g.rep_runs;
	size_t n = b->g.nr_reps;

	ALLOC_GROW(reps, n + 1, b->alloc);
	ALLOC_GROW(runs, n + 1, b->ralloc);
	reps[n] = w;
	runs[n] = r;
	b->g.reps = reps;
	b->g.rep_runs = runs;
	b->g.nr_reps = n + 1;
	if (!b->g.run)
		b->g.run = r;
}

static const char *wl_target_name(const struct run_rec *r,
				  const struct wlrun_rec *w)
{
	const struct target_rec *t = run_rec_target(r, w);

	return t && t->name ? t->name : "?";
}

static int wl_target_idx(const struct run_rec *r, const struct wlrun_rec *w)
{
	const struct target_rec *t = run_rec_target(r, w);

	return t ? t->idx : 0;
}

static bool is_wl(const struct wlrun_rec *w, const char *workload)
{
	return w->workload && !strcmp(w->workload, workload);
}

/* Target names of argument a for workload, in first-seen order. */
static const char **arg_names(const struct run_rec *const *runs,
			      const size_t *arg_of, size_t nr_runs, size_t a,
			      const char *workload, size_t *nr)
{
	const char **names = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < nr_runs; i++) {
		if (arg_of[i] != a)
			continue;
		for (size_t j = 0; j < runs[i]->nr_wlruns; j++) {
			const struct wlrun_rec *w = &runs[i]->wlruns[j];
			const char *nm;
			bool seen = false;

			if (!is_wl(w, workload))
				continue;
			nm = wl_target_name(runs[i], w);
			for (size_t k = 0; k < n && !seen; k++)
				seen = !strcmp(names[k], nm);
			if (!seen) {
				ALLOC_GROW(names, n + 1, alloc);
				names[n++] = nm;
			}
		}
	}
	*nr = n;
	return names;
}

static struct cmp_set *push_set(struct cmp_set **sets, size_t *n,
				size_t *alloc, const char *name)
{
	struct cmp_set *s;

	ALLOC_GROW(*sets, *n + 1, *alloc);
	s = &(*sets)[(*n)++];
	memset(s, 0, sizeof(*s));
	s->name = name ? xstrdup(name) : NULL;
	return s;
}

static void push_group(struct cmp_set *s, size_t *alloc, struct gbuild *b)
{
	if (!b->g.nr_reps)
		return;
	ALLOC_GROW(s->groups, s->nr_groups + 1, *alloc);
	s->groups[s->nr_groups++] = b->g;
}

static void set_release(struct cmp_set *s)
{
	for (size_t g = 0; g < s->nr_groups; g++) {
		free((void *)s->groups[g].reps);
		free((void *)s->groups[g].rep_runs);
	}
	free(s->groups);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

static void add_note(char ***notes, size_t *nr, size_t *alloc, char *note)
{
	if (!notes) {
		free(note);
		return;
	}
	ALLOC_GROW(*notes, *nr + 1, *alloc);
	(*notes)[(*nr)++] = note;
}

/* Does the "k=v,..." string opts hold the item [p, p + len)? */
static bool has_item(const char *opts, const char *p, size_t len)
{
	const char *q = opts;

	while (*q) {
		const char *e = opt_item_end(q);

		if ((size_t)(e - q) == len && !strncmp(q, p, len))
			return true;
		q = *e ? e + 1 : e;
	}
	return false;
}

/* The items of opts[k] not shared by every other option set: what sets
 * it apart ("files=100"). */
static char *distinct_items(const char *const *opts, size_t n, size_t k)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = opts[k];

	while (*p) {
		const char *e = opt_item_end(p);
		bool everywhere = true;

		for (size_t i = 0; i < n && everywhere; i++)
			everywhere = has_item(opts[i], p, (size_t)(e - p));
		if (!everywhere) {
			if (out.len)
				strbuf_addch(&out, ',');
			strbuf_add(&out, p, (size_t)(e - p));
		}
		p = *e ? e + 1 : e;
	}
	return strbuf_detach(&out, NULL);
}

static const char *wl_options(const struct wlrun_rec *w)
{
	return w->options ? w->options : "";
}

/*
 * One argument: its targets by command-line index (runs of one TAG share
 * the command line), every run's repetitions pooled.  A run that ran the
 * workload with several option sets (-w metadata:files=100 -w
 * metadata:files=1000) gives one comparison per option set, named by
 * its options: pooling them would mix different work.
 */
static void sets_one_arg(const struct run_rec *const *runs, size_t nr_runs,
			 const char *workload, struct cmp_set **sets,
			 size_t *n, size_t *alloc)
{
	const char **opts = NULL;
	size_t nopts = 0, oalloc = 0;
	int max_idx = -1;

	for (size_t i = 0; i < nr_runs; i++)
		for (size_t j = 0; j < runs[i]->nr_wlruns; j++) {
			const struct wlrun_rec *w = &runs[i]->wlruns[j];
			size_t k;

			if (!is_wl(w, workload))
				continue;
			if (wl_target_idx(runs[i], w) > max_idx)
				max_idx = wl_target_idx(runs[i], w);
			for (k = 0; k < nopts && strcmp(opts[k],
							 wl_options(w)); k++)
				;
			if (k == nopts) {
				ALLOC_GROW(opts, nopts + 1, oalloc);
				opts[nopts++] = wl_options(w);
			}
		}
	for (size_t o = 0; o < nopts && max_idx >= 0; o++) {
		struct cmp_set *s = push_set(sets, n, alloc, NULL);
		size_t galloc = 0;

		if (nopts > 1) {
			s->name = distinct_items(opts, nopts, o);
			s->name_is_options = true;
		}

		for (int idx = 0; idx <= max_idx; idx++) {
			struct gbuild b = { 0 };

			for (size_t i = 0; i < nr_runs; i++) {
				for (size_t j = 0; j < runs[i]->nr_wlruns;
				     j++) {
					const struct wlrun_rec *w =
						&runs[i]->wlruns[j];

					if (!is_wl(w, workload) ||
					    wl_target_idx(runs[i], w) != idx ||
					    strcmp(wl_options(w), opts[o]))
						continue;
					if (!b.g.label)
						b.g.label = wl_target_name(
							runs[i], w);
					group_add(&b, runs[i], w);
				}
			}
			push_group(s, &galloc, &b);
		}
	}
	free(opts);
}

struct cmp_set *compare_sets(const struct run_rec *const *runs,
			     const size_t *arg_of, size_t nr_runs,
			     const char *const *labels, size_t nr_args,
			     const char *workload, size_t *nr, char ***notes,
			     size_t *nr_notes)
{
	struct cmp_set *sets = NULL;
	size_t n = 0, alloc = 0, nalloc = 0, all_n = 0;
	const char **all = NULL, ***names;
	size_t *nnames, aall = 0;
	bool shared = false, singles = true;

	if (notes) {
		*notes = NULL;
		*nr_notes = 0;
	}
	if (nr_args <= 1) {
		sets_one_arg(runs, nr_runs, workload, &sets, &n, &alloc);
		*nr = n;
		return sets;
	}
	names = xcalloc(nr_args, sizeof(*names));
	nnames = xcalloc(nr_args, sizeof(*nnames));
	for (size_t a = 0; a < nr_args; a++) {
		names[a] = arg_names(runs, arg_of, nr_runs, a, workload,
				     &nnames[a]);
		if (nnames[a] > 1)
			singles = false;
		for (size_t k = 0; k < nnames[a]; k++) {
			bool seen = false;

			for (size_t m = 0; m < all_n && !seen; m++)
				seen = !strcmp(all[m], names[a][k]);
			if (!seen) {
				ALLOC_GROW(all, all_n + 1, aall);
				all[all_n++] = names[a][k];
			}
		}
	}
	/* Which names appear in more than one argument? */
	for (size_t m = 0; m < all_n; m++) {
		size_t in = 0;

		for (size_t a = 0; a < nr_args; a++)
			for (size_t k = 0; k < nnames[a]; k++)
				in += !strcmp(names[a][k], all[m]);
		if (in > 1)
			shared = true;
	}
	if (!shared && singles) {
		/* One target each, named differently: compare those. */
		struct cmp_set *s = push_set(&sets, &n, &alloc, NULL);
		size_t galloc = 0;

		for (size_t a = 0; a < nr_args; a++) {
			struct gbuild b = { .g.label = labels[a] };

			for (size_t i = 0; i < nr_runs; i++)
				for (size_t j = 0; arg_of[i] == a &&
						   j < runs[i]->nr_wlruns; j++)
					if (is_wl(&runs[i]->wlruns[j],
						  workload))
						group_add(&b, runs[i],
							  &runs[i]->wlruns[j]);
			push_group(s, &galloc, &b);
		}
		if (!s->nr_groups)
			n--;
		goto out;
	}
	for (size_t m = 0; m < all_n; m++) {
		struct cmp_set *s = push_set(&sets, &n, &alloc, all[m]);
		size_t galloc = 0;

		for (size_t a = 0; a < nr_args; a++) {
			struct gbuild b = { .g.label = labels[a] };

			for (size_t i = 0; i < nr_runs; i++) {
				if (arg_of[i] != a)
					continue;
				for (size_t j = 0; j < runs[i]->nr_wlruns;
				     j++) {
					const struct wlrun_rec *w =
						&runs[i]->wlruns[j];

					if (is_wl(w, workload) &&
					    !strcmp(wl_target_name(runs[i], w),
						    all[m]))
						group_add(&b, runs[i], w);
				}
			}
			push_group(s, &galloc, &b);
		}
		if (s->nr_groups < 2) {
			add_note(notes, nr_notes, &nalloc, xasprintf(
				"%s: %s only in %s, not compared", workload,
				all[m], s->nr_groups ? s->groups[0].label
						     : "none"));
			set_release(s);
			n--;
		}
	}
out:
	for (size_t a = 0; a < nr_args; a++)
		free(names[a]);
	free(names);
	free(nnames);
	free(all);
	*nr = n;
	return sets;
}

void compare_sets_free(struct cmp_set *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		set_release(&s[i]);
	free(s);
}
