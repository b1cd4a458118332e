/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.c - resolve RUN|TAG arguments against the results database and
 * load the runs (see load.h).  A missing database is reported, never
 * created: comparing is read-only.
 */
#include <stdlib.h>
#include <string.h>

#include "compare/load.h"
#include "store/store.h"
#include "util/util.h"

/* The run ids an argument names. */
static int resolve(struct store *st, const char *arg, int64_t **ids,
		   size_t *n)
{
	int64_t id;

	if (strcmp(arg, "latest") && !all_digits(arg)) {
		if (store_tag_runs(st, arg, ids, n))
			return -1;
		if (*n)
			return 0;
		free(*ids);
	}
	if (store_resolve_run(st, arg, &id))
		return -1;
	*ids = xcalloc(1, sizeof(**ids));
	(*ids)[0] = id;
	*n = 1;
	return 0;
}

static bool complete(const struct run_rec *r)
{
	return r->status && !strcmp(r->status, "complete");
}

/* Is run k (loaded as r) of a tag's n runs (oldest first) one to pool? */
static bool tag_member(struct store *st, const int64_t *ids, size_t n,
		       size_t k, const struct run_rec *r)
{
	bool any = false;

	if (complete(r))
		return true;
	for (size_t i = 0; i < n && !any; i++) {
		struct run_rec *o;

		if (i == k || store_load_run(st, ids[i], &o))
			continue;
		any = complete(o);
		run_rec_free(o);
	}
	return !any && k == n - 1;
}

int cmp_input_load(const char *db, char *const *args, size_t nr_args,
		   struct cmp_input *in)
{
	static char latest[] = "latest";
	char *const dflt[] = { latest };
	size_t alloc = 0, lalloc = 0, aalloc = 0;
	struct store *st;
	int rc = 0;

	memset(in, 0, sizeof(*in));
	if (!nr_args) {
		args = dflt;
		nr_args = 1;
	}
	if (store_open_existing(db, &st))
		return -1;
	in->arg_labels = xcalloc(nr_args, sizeof(*in->arg_labels));
	for (size_t a = 0; a < nr_args && !rc; a++) {
		int64_t *ids = NULL;
		size_t n = 0;

		if (resolve(st, args[a], &ids, &n)) {
			rc = -1;
			break;
		}
		in->arg_labels[in->nr_args++] = strcmp(args[a], "latest") ?
			xstrdup(args[a]) :
			xasprintf("%lld", (long long)ids[0]);
		for (size_t k = 0; k < n && !rc; k++) {
			struct run_rec *r;

			if (store_load_run(st, ids[k], &r)) {
				rc = -1;
				break;
			}
			/* A tag's failed or interrupted attempts do not poison
			 * the repetitions that completed; with none complete,
			 * the newest run stands (and shows as failed). */
			if (n > 1 && !tag_member(st, ids, n, k, r)) {
				run_rec_free(r);
				continue;
			}
			ALLOC_GROW(in->runs, in->nr + 1, alloc);
			ALLOC_GROW(in->labels, in->nr + 1, lalloc);
			ALLOC_GROW(in->arg_of, in->nr + 1, aalloc);
			in->runs[in->nr] = r;
			in->labels[in->nr] = xstrdup(in->arg_labels[a]);
			in->arg_of[in->nr++] = a;
		}
		free(ids);
	}
	store_close(st);
	if (rc)
		cmp_input_release(in);
	return rc;
}

void cmp_input_release(struct cmp_input *in)
{
	for (size_t i = 0; i < in->nr; i++) {
		run_rec_free(in->runs[i]);
		free(in->labels[i]);
	}
	for (size_t a = 0; a < in->nr_args; a++)
		free(in->arg_labels[a]);
	free(in->runs);
	free(in->labels);
	free(in->arg_of);
	free(in->arg_labels);
	memset(in, 0, sizeof(*in));
}

int cmp_input_pair(struct cmp_input *in, const char *pair)
{
	const char *eq = strchr(pair, '=');
	char *a, *b;
	int rc = 0;

	if (!eq || eq == pair || !eq[1] || strchr(eq + 1, '='))
		return error("--pair takes NAME=NAME, not '%s'", pair);
	a = xstrndup(pair, (size_t)(eq - pair));
	b = xstrdup(eq + 1);
	for (size_t i = 0; i < in->nr && !rc; i++) {
		struct run_rec *r = in->runs[i];
		bool has_a = false, has_b = false;

		for (size_t t = 0; t < r->nr_targets; t++) {
			const char *n = r->targets[t].name;

			has_a |= n && !strcmp(n, a);
			has_b |= n && !strcmp(n, b);
		}
		if (has_a && has_b && strcmp(a, b)) {
			rc = error("--pair %s: run %lld has targets named both "
				   "'%s' and '%s'", pair, (long long)r->id, a,
				   b);
			break;
		}
		for (size_t t = 0; t < r->nr_targets; t++) {
			char *n = r->targets[t].name;

			if (n && (!strcmp(n, a) || !strcmp(n, b))) {
				r->targets[t].name = xstrdup(pair);
				free(n);
			}
		}
	}
	free(a);
	free(b);
	return rc;
}
