/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diff.c - what differs between the configurations of a comparison
 * (host, kernel, filesystem, mkfs and mount options, workload options,
 * target order...), printed before any figure so that a reader knows
 * what the verdict is about, and the first workload option that differs,
 * which makes compare refuse unless told otherwise.
 *
 * Besides the run and target fields, every recorded fact (struct fact:
 * sysctls, kernel config, CPU governor, device queue...) of the machine
 * and of each group's target is compared.  A difference is "declared"
 * when --factor names it (its factor or its own name); the targets of
 * one run declare what their specs set (filesystem, mkfs, mount, size,
 * the target's device).  The rest is what a reader must be warned of:
 * two runs that differ in vm.dirty_ratio compare the sysctl too.
 */
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/internal.h"
#include "util/strbuf.h"
#include "util/util.h"

struct strset {
	char **v;
	size_t n, alloc;
};

static void strset_add(struct strset *s, const char *v)
{
	const char *x = v ? v : "-";

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], x))
			return;
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = xstrdup(x);
}

static char *strset_join(struct strset *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < s->n; i++) {
		if (i)
			strbuf_addstr(&sb, " | ");
		strbuf_addstr(&sb, s->v[i]);
		free(s->v[i]);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
	return strbuf_detach(&sb, NULL);
}

enum diff_field {
	DF_HOST, DF_KERNEL, DF_VERSION, DF_FSTYPE, DF_MKFS, DF_MKFS_VERSION,
	DF_MOUNT, DF_SIZE, DF_OPTIONS, DF_ORDER, DF_NR,
};

static const char *const diff_names[DF_NR] = {
	"host", "kernel", "fslab version", "filesystem", "mkfs options",
	"mkfs version", "mount options", "image size", "workload options",
	"target order",
};

/* What --factor calls each field; facts are named by their group. */
static const char *const diff_factors[DF_NR] = {
	"host", "kernel", "version", "fstype", "mkfs", "mkfs", "mount",
	"size", "options", "order",
};

/* Fields a target spec sets: declared between the targets of one run. */
static const bool diff_per_target[DF_NR] = {
	[DF_FSTYPE] = true, [DF_MKFS] = true, [DF_MKFS_VERSION] = true,
	[DF_MOUNT] = true, [DF_SIZE] = true,
};

static const char *const compare_factor_names[] = {
	"host", "kernel", "version", "fstype", "mkfs", "mount", "size",
	"options", "order", "sysctl", "cpu", "mem", "virt", "thp",
	"mitigations", "dev", "loop", "fs", "cache", NULL,
};

bool compare_factor_known(const char *name)
{
	size_t n = strcspn(name, ".");

	for (size_t i = 0; compare_factor_names[i]; i++)
		if (strlen(compare_factor_names[i]) == n &&
		    !strncmp(compare_factor_names[i], name, n))
			return true;
	return false;
}

/* The factor of a fact key: its group, as one of the static names. */
static const char *fact_factor(const char *key)
{
	size_t n = strcspn(key, ".");

	for (size_t i = 0; compare_factor_names[i]; i++)
		if (strlen(compare_factor_names[i]) == n &&
		    !strncmp(compare_factor_names[i], key, n))
			return compare_factor_names[i];
	return "other";
}

static bool factor_named(const struct compare_opts *o, const char *factor,
			 const char *field)
{
	for (size_t i = 0; o && i < o->nr_factors; i++)
		if (!strcmp(o->factors[i], factor) ||
		    !strcmp(o->factors[i], field))
			return true;
	return false;
}

static char *field_value(const struct run_rec *r, const struct wlrun_rec *w,
			 enum diff_field f)
{
	const struct target_rec *t = run_rec_target(r, w);

	switch (f) {
	case DF_HOST:
		return xstrdup(r->host ? r->host : "-");
	case DF_KERNEL:
		return xstrdup(r->kernel ? r->kernel : "-");
	case DF_VERSION:
		return xstrdup(r->version ? r->version : "-");
	case DF_FSTYPE:
		return xstrdup(t && t->fstype ? t->fstype : "-");
	case DF_MKFS:
		return xstrdup(t && t->mkfs_opts && *t->mkfs_opts ?
			       t->mkfs_opts : "(none)");
	case DF_MKFS_VERSION:
		return xstrdup(t && t->mkfs_version ? t->mkfs_version : "-");
	case DF_MOUNT:
		return xstrdup(t && t->eff_mount_opts ? t->eff_mount_opts :
			       t && t->mount_opts && *t->mount_opts ?
			       t->mount_opts : "(default)");
	case DF_SIZE:
		return t && t->size ? xasprintf("%.1f GiB", (double)t->size /
						(1024.0 * 1024 * 1024))
				    : xstrdup("-");
	case DF_OPTIONS:
		return xstrdup(w->options ? w->options : "");
	case DF_ORDER:
		return xstrdup(r->target_order ? r->target_order : "-");
	case DF_NR:
		break;
	}
	return xstrdup("-");
}

size_t compare_nr_fields(void)
{
	return DF_NR;
}

const char *compare_field_name(size_t f)
{
	return f < DF_NR ? diff_names[f] : "?";
}

char *compare_field_value(const struct run_rec *r, const struct wlrun_rec *w,
			  size_t f)
{
	return field_value(r, w, (enum diff_field)f);
}

static char *group_value(const struct cmp_group *g, enum diff_field f)
{
	struct strset s = { 0 };

	for (size_t r = 0; r < g->nr_reps; r++) {
		const struct run_rec *run = g->rep_runs ? g->rep_runs[r]
							: g->run;
		char *v = field_value(run, g->reps[r], f);

		strset_add(&s, v);
		free(v);
	}
	return strset_join(&s);
}

/* The value of key in a canonical "k=v,k2=v2" option string, commas
 * inside values escaped as "\,"; NULL when absent. */
static char *opt_value(const char *opts, const char *key)
{
	size_t kl = strlen(key);
	const char *p = opts;

	while (p && *p) {
		const char *e = opt_item_end(p);

		if (!strncmp(p, key, kl) && p[kl] == '=')
			return xstrndup(p + kl + 1, (size_t)(e - p - kl - 1));
		p = *e ? e + 1 : e;
	}
	return NULL;
}

/* "files: 20000 (a), 1000 (b)" for the first option whose values
 * differ between (or inside) the groups; NULL when none does. */
static char *option_mismatch(const struct cmp_group *groups, size_t n)
{
	const char *ref = NULL;

	for (size_t g = 0; g < n; g++)
		for (size_t r = 0; r < groups[g].nr_reps; r++) {
			const char *o = groups[g].reps[r]->options;
			const char *p = o;

			if (!ref) {
				ref = o ? o : "";
				continue;
			}
			if (!strcmp(ref, o ? o : ""))
				continue;
			/* Find the key: walk both strings' keys. */
			for (int pass = 0; pass < 2; pass++) {
				p = pass ? ref : (o ? o : "");
				while (*p) {
					const char *e = opt_item_end(p), *eq;
					char *key, *a, *b, *msg;

					eq = memchr(p, '=', (size_t)(e - p));
					key = xstrndup(p, eq ? (size_t)(eq - p)
							     : (size_t)(e - p));
					a = opt_value(ref, key);
					b = opt_value(o ? o : "", key);
					if (!a || !b || strcmp(a, b)) {
						msg = xasprintf(
							"%s: %s (%s), %s (%s)",
							key, a ? a : "(unset)",
							groups[0].label,
							b ? b : "(unset)",
							groups[g].label);
						free(key);
						free(a);
						free(b);
						return msg;
					}
					free(key);
					free(a);
					free(b);
					p = *e ? e + 1 : e;
				}
			}
			return xasprintf("options: %s (%s), %s (%s)", ref,
					 groups[0].label, o ? o : "",
					 groups[g].label);
		}
	return NULL;
}

/* Facts that differ by nature (which loop device a run got). */
static bool fact_compared(const struct fact *f)
{
	return strcmp(f->scope, "accept") && strcmp(f->key, "dev.name") &&
	       strcmp(f->key, "kernel.release");
}

/* The scope a group's rep r reads target facts from. */
static void rep_scope(const struct cmp_group *g, size_t r, char *buf,
		      size_t len)
{
	const struct run_rec *run = g->rep_runs ? g->rep_runs[r] : g->run;
	const struct target_rec *t = run_rec_target(run, g->reps[r]);

	snprintf(buf, len, "target:%d", t ? t->idx : -1);
}

/* NULL when a rep's run did not record it (an older fslab, another
 * rank): unknown is no difference. */
static char *fact_group_value(const struct cmp_group *g, const char *scope,
			      const char *key)
{
	bool missing = false;
	struct strset s = { 0 };

	for (size_t r = 0; r < g->nr_reps; r++) {
		const struct run_rec *run = g->rep_runs ? g->rep_runs[r]
							: g->run;
		char ts[32];
		const char *sc = scope;

		if (!sc) {
			rep_scope(g, r, ts, sizeof(ts));
			sc = ts;
		}
		missing |= !run_rec_fact(run, sc, key);
		strset_add(&s, run_rec_fact(run, sc, key));
	}
	if (missing) {
		free(strset_join(&s));
		return NULL;
	}
	return strset_join(&s);
}

/* Every run of the comparison is the same one: its targets compared. */
static bool one_run(const struct cmp_table *t, const struct cmp_group *groups)
{
	const struct run_rec *first = NULL;

	for (size_t g = 0; g < t->nr_groups; g++)
		for (size_t r = 0; r < groups[g].nr_reps; r++) {
			const struct run_rec *run = groups[g].rep_runs ?
				groups[g].rep_runs[r] : groups[g].run;

			if (!first)
				first = run;
			else if (run->id != first->id)
				return false;
		}
	return true;
}

static void add_diff(struct cmp_table *t, size_t *alloc, const char *field,
		     char **v, const char *factor, bool declared)
{
	struct cmp_diff *d;

	ALLOC_GROW(t->diffs, t->nr_diffs + 1, *alloc);
	d = &t->diffs[t->nr_diffs++];
	d->field = xstrdup(field);
	d->values = v;
	d->factor = factor;
	d->declared = declared;
	t->nr_undeclared += !declared;
}

/* Compare the value of a fact (scope NULL: each rep's target) over the
 * groups; add a diff when it differs. */
static void fact_diff(struct cmp_table *t, const struct cmp_group *groups,
		      const struct compare_opts *o, size_t *alloc,
		      const char *scope, const char *key, bool same_run)
{
	char **v = xcalloc(t->nr_groups + 1, sizeof(*v));
	bool differ = false;
	const char *factor = fact_factor(key);

	bool missing = false;

	for (size_t g = 0; g < t->nr_groups; g++) {
		v[g] = fact_group_value(&groups[g], scope, key);
		missing |= !v[g];
	}
	for (size_t g = 0; g < t->nr_groups && !missing; g++)
		differ |= strcmp(v[g], v[0]) != 0 ||
			  strstr(v[g], " | ") != NULL;
	if (!differ) {
		for (size_t g = 0; g < t->nr_groups; g++)
			free(v[g]);
		free(v);
		return;
	}
	add_diff(t, alloc, key, v, factor,
		 factor_named(o, factor, key) || (same_run && !scope));
}

static bool key_seen(char **keys, size_t n, const char *scope,
		     const char *key)
{
	for (size_t i = 0; i < n; i += 2)
		if (!strcmp(keys[i], scope) && !strcmp(keys[i + 1], key))
			return true;
	return false;
}

static void find_fact_diffs(struct cmp_table *t, const struct cmp_group *groups,
			    const struct compare_opts *o, size_t *alloc)
{
	bool same_run = one_run(t, groups);
	char **keys = NULL;  /* pairs: "machine"|"target"|"cache", key */
	size_t n = 0, kalloc = 0;

	for (size_t g = 0; g < t->nr_groups; g++)
		for (size_t r = 0; r < groups[g].nr_reps; r++) {
			const struct run_rec *run = groups[g].rep_runs ?
				groups[g].rep_runs[r] : groups[g].run;
			char ts[32];

			rep_scope(&groups[g], r, ts, sizeof(ts));
			for (size_t i = 0; i < run->nr_facts; i++) {
				const struct fact *f = &run->facts[i];
				const char *sc;

				if (!fact_compared(f))
					continue;
				if (!strcmp(f->scope, "machine") ||
				    !strcmp(f->scope, "cache"))
					sc = f->scope;
				else if (!strcmp(f->scope, ts))
					sc = "target";
				else
					continue;
				if (key_seen(keys, n, sc, f->key))
					continue;
				ALLOC_GROW(keys, n + 2, kalloc);
				keys[n++] = xstrdup(sc);
				keys[n++] = xstrdup(f->key);
			}
		}
	for (size_t i = 0; i < n; i += 2) {
		fact_diff(t, groups, o, alloc,
			  strcmp(keys[i], "target") ? keys[i] : NULL,
			  keys[i + 1], same_run);
		free(keys[i]);
		free(keys[i + 1]);
	}
	free(keys);
}

void compare_find_diffs(struct cmp_table *t, const struct cmp_group *groups,
			const struct compare_opts *o)
{
	size_t alloc = 0;
	bool same_run = one_run(t, groups);

	for (int f = 0; f < DF_NR; f++) {
		char **v = xcalloc(t->nr_groups + 1, sizeof(*v));
		bool differ = false;

		for (size_t g = 0; g < t->nr_groups; g++) {
			v[g] = group_value(&groups[g], (enum diff_field)f);
			differ |= strcmp(v[g], v[0]) != 0 ||
				  strstr(v[g], " | ") != NULL;
		}
		if (!differ) {
			for (size_t g = 0; g < t->nr_groups; g++)
				free(v[g]);
			free(v);
			continue;
		}
		add_diff(t, &alloc, diff_names[f], v, diff_factors[f],
			 factor_named(o, diff_factors[f], diff_names[f]) ||
			 (same_run && diff_per_target[f]) ||
			 /* refused unless --allow-option-mismatch */
			 f == DF_OPTIONS);
	}
	find_fact_diffs(t, groups, o, &alloc);
	t->option_mismatch = option_mismatch(groups, t->nr_groups);
}
