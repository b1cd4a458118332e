/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diff.c - what differs between the configurations of a comparison
 * (host, kernel, filesystem, mkfs and mount options, workload options,
 * target order...), printed before any figure so that a reader knows
 * what the verdict is about, and the first workload option that differs,
 * which makes compare refuse unless told otherwise.
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

void compare_find_diffs(struct cmp_table *t, const struct cmp_group *groups)
{
	size_t alloc = 0;

	for (int f = 0; f < DF_NR; f++) {
		char **v = xcalloc(t->nr_groups + 1, sizeof(*v));
		bool differ = false;
		struct cmp_diff *d;

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
		ALLOC_GROW(t->diffs, t->nr_diffs + 1, alloc);
		d = &t->diffs[t->nr_diffs++];
		d->field = xstrdup(diff_names[f]);
		d->values = v;
	}
	t->option_mismatch = option_mismatch(groups, t->nr_groups);
}
