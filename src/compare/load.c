/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.c - resolve RUN|TAG|SELECTOR arguments against one or more
 * results databases and load the runs (see load.h).  A missing database
 * is reported, never created: comparing is read-only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare/load.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "workloads/registry.h"

static bool complete(const struct run_rec *r)
{
	return r->status && !strcmp(r->status, "complete");
}

static bool newer(const struct run_rec *a, const struct run_rec *b)
{
	return a->started > b->started ||
	       (a->started == b->started && a->id > b->id);
}

struct cands {
	struct run_rec **v;
	size_t *db;        /* which store each came from */
	size_t n, alloc, dalloc;
};

/* A run already there under its global id (imported into both) once. */
static void cand_add(struct cands *c, struct run_rec *r, size_t db)
{
	for (size_t i = 0; r->uuid && i < c->n; i++)
		if (c->v[i]->uuid && !strcmp(c->v[i]->uuid, r->uuid)) {
			run_rec_free(r);
			return;
		}
	ALLOC_GROW(c->v, c->n + 1, c->alloc);
	ALLOC_GROW(c->db, c->n + 1, c->dalloc);
	c->db[c->n] = db;
	c->v[c->n++] = r;
}

static int load_ids(struct store *st, const int64_t *ids, size_t n,
		    struct cands *c, size_t db)
{
	for (size_t i = 0; i < n; i++) {
		struct run_rec *r;

		if (store_load_run(st, ids[i], &r))
			return -1;
		/* runs stored under older spellings compare as today's */
		wl_canonical_options(r);
		cand_add(c, r, db);
	}
	return 0;
}

/* The runs arg names in one store, quietly: none is not an error here. */
static int resolve_one(struct store *st, const char *arg, struct cands *c,
		       size_t db)
{
	int64_t *ids = NULL, id = 0;
	size_t n = 0;
	bool exists;
	int rc;

	if (store_is_selector(arg)) {
		if (store_select_runs(st, arg, &ids, &n))
			return -1;
		rc = load_ids(st, ids, n, c, db);
		free(ids);
		return rc;
	}
	if (all_digits(arg)) {
		long long v;

		if (parse_int(arg, 1, INT64_MAX, &v))
			return 0;
		id = v;
		if (store_run_exists(st, id, &exists))
			return -1;
		return exists ? load_ids(st, &id, 1, c, db) : 0;
	}
	if (strcmp(arg, "latest")) {
		if (store_tag_runs(st, arg, &ids, &n))
			return -1;
		if (n) {
			rc = load_ids(st, ids, n, c, db);
			free(ids);
			return rc;
		}
		free(ids);
	}
	/* latest, or a tag whose runs are all still running. */
	if (store_latest_run(st, strcmp(arg, "latest") ? arg : NULL, &id))
		return -1;
	return id ? load_ids(st, &id, 1, c, db) : 0;
}

/*
 * Keep what arg stands for: "latest" the newest run of all stores; a
 * tag or selector naming several runs its complete ones (a failed or
 * interrupted attempt does not poison the repetitions that completed;
 * with none complete the newest stands, and shows as failed).
 */
static void narrow(const char *arg, struct cands *c)
{
	size_t keep = 0, best = 0;
	bool any = false;

	if (c->n < 2)
		return;
	for (size_t i = 0; i < c->n; i++) {
		any |= complete(c->v[i]);
		if (newer(c->v[i], c->v[best]))
			best = i;
	}
	for (size_t i = 0; i < c->n; i++) {
		bool k = strcmp(arg, "latest") ? (any ? complete(c->v[i])
						      : i == best)
					       : i == best;

		if (!k) {
			run_rec_free(c->v[i]);
			continue;
		}
		c->db[keep] = c->db[i];
		c->v[keep++] = c->v[i];
	}
	c->n = keep;
}

static char *db_names(struct store *const *st, size_t nst)
{
	struct strbuf b = STRBUF_INIT;

	for (size_t k = 0; k < nst; k++)
		strbuf_addf(&b, "%s'%s'", k ? ", " : "", store_path(st[k]));
	return strbuf_detach(&b, NULL);
}

char *cmp_split_db_ref(const char *arg, size_t nst, size_t *only)
{
	const char *at = strrchr(arg, '@');
	long long k;

	*only = SIZE_MAX;
	if (!at || at == arg || parse_int(at + 1, 1, (long long)nst, &k))
		return NULL;
	*only = (size_t)k - 1;
	return xstrndup(arg, (size_t)(at - arg));
}

static int resolve(struct store *const *st, size_t nst, const char *arg,
		   struct cands *c)
{
	size_t only;
	char *plain = cmp_split_db_ref(arg, nst, &only);
	const char *a = plain ? plain : arg;
	char *names;
	int rc = 0;

	for (size_t k = 0; k < nst && !rc; k++)
		if (only == SIZE_MAX || only == k)
			rc = resolve_one(st[k], a, c, k);
	if (!rc && all_digits(a) && c->n > 1) {
		names = db_names(st, nst);
		rc = error("run %s is in more than one database (%s): write "
			   "%s@N for the N-th --db", a, names, a);
		free(names);
	}
	if (!rc && !c->n) {
		char dym[128] = "";

		for (size_t k = 0; k < nst && !*dym; k++)
			if (only == SIZE_MAX || only == k)
				store_did_you_mean(st[k], a, dym, sizeof(dym));
		names = only == SIZE_MAX ? db_names(st, nst)
					 : db_names(st + only, 1);
		rc = error("no run%s '%s' in %s%s",
			   all_digits(a) ? "" : " or tag", a, names, dym);
		free(names);
	}
	if (!rc)
		narrow(a, c);
	free(plain);
	return rc;
}

int cmp_input_load(const char *const *dbs, size_t nr_dbs, char *const *args,
		   size_t nr_args, struct cmp_input *in)
{
	static char latest[] = "latest";
	static const char *const no_db[] = { NULL };
	char *const dflt[] = { latest };
	size_t alloc = 0, lalloc = 0, aalloc = 0, dalloc = 0, nst = 0;
	struct store **st;
	int rc = 0;

	memset(in, 0, sizeof(*in));
	if (!nr_args) {
		args = dflt;
		nr_args = 1;
	}
	if (!nr_dbs) {
		dbs = no_db;
		nr_dbs = 1;
	}
	st = xcalloc(nr_dbs, sizeof(*st));
	in->nr_dbs = nr_dbs;
	for (; nst < nr_dbs; nst++)
		if (store_open_existing(dbs[nst], &st[nst])) {
			rc = -1;
			goto out;
		}
	in->arg_labels = xcalloc(nr_args, sizeof(*in->arg_labels));
	for (size_t a = 0; a < nr_args && !rc; a++) {
		struct cands c = { 0 };

		if (resolve(st, nst, args[a], &c)) {
			rc = -1;
			free(c.v);
			free(c.db);
			break;
		}
		in->arg_labels[in->nr_args++] = strcmp(args[a], "latest") ?
			xstrdup(args[a]) :
			xasprintf("%lld", (long long)c.v[0]->id);
		for (size_t k = 0; k < c.n; k++) {
			ALLOC_GROW(in->runs, in->nr + 1, alloc);
			ALLOC_GROW(in->labels, in->nr + 1, lalloc);
			ALLOC_GROW(in->arg_of, in->nr + 1, aalloc);
			ALLOC_GROW(in->db_of, in->nr + 1, dalloc);
			in->db_of[in->nr] = c.db[k];
			in->runs[in->nr] = c.v[k];
			in->labels[in->nr] = xstrdup(in->arg_labels[a]);
			in->arg_of[in->nr++] = a;
		}
		free(c.v);
		free(c.db);
	}
out:
	for (size_t k = 0; k < nst; k++)
		store_close(st[k]);
	free(st);
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
	free(in->db_of);
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
