/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the files of src/compare/ share and nobody else
 * needs.
 */
#ifndef FSLAB_COMPARE_INTERNAL_H
#define FSLAB_COMPARE_INTERNAL_H

#include "compare/compare.h"

/*
 * The end of the item at p of a canonical "k=v,k2=v2" option string
 * (util/opt.c writes them, commas inside values escaped as "\,"): the
 * next unescaped comma, or the terminating NUL.
 */
static inline const char *opt_item_end(const char *p)
{
	while (*p && *p != ',')
		p += p[0] == '\\' && p[1] ? 2 : 1;
	return p;
}

/*
 * The recorded fields a comparison names when they differ (host,
 * kernel, fslab version, filesystem, mkfs options and version, mount
 * options, image size, workload options, target order): how many, the
 * name of field f, and its value for workload run w of run r (newly
 * allocated).  diff.c; history.c names the changes at a change point
 * with them.
 */
size_t compare_nr_fields(void);
const char *compare_field_name(size_t f);
char *compare_field_value(const struct run_rec *r, const struct wlrun_rec *w,
			  size_t f);

/* Fill t->diffs and t->option_mismatch from the groups (diff.c). */
void compare_find_diffs(struct cmp_table *t, const struct cmp_group *groups,
			const struct compare_opts *o);

#endif
