/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * site.h - `fslab site`: a static, self-contained web site of history
 * (compare/history.h) that any browser opens from disk: index.html with
 * the newest change points (regressions first) and a table of every
 * series, and one page per series with its trend chart (inline SVG,
 * output/trend.h), its points with their intervals and its change
 * points, beside the same series per host when it has several.  No
 * script, no style sheet, font or image from elsewhere, no link out of
 * the directory.
 *
 * The bytes depend only on the histories (no clock, sorted iteration,
 * file names from the series key), so the same stores give the same
 * tree, and a page is written only when its bytes changed.  The
 * directory is fslab's: one that exists without the marker .fslab-site
 * (and is not empty) is refused, and nothing in it is followed when a
 * symlink: every file is opened through the directory's fd with
 * O_NOFOLLOW and replaced by a rename, never written through.
 */
#ifndef FSLAB_OUTPUT_SITE_H
#define FSLAB_OUTPUT_SITE_H

#include <stddef.h>
#include <stdint.h>

#include "compare/history.h"

#define SITE_MARKER ".fslab-site"

/* One host's own history (the same options, only its runs). */
struct site_host {
	const char *name;
	const struct history *h;
};

/* Which host a run (store k from 0, local id) was recorded on. */
struct site_run {
	size_t db;
	int64_t id;
	const char *host;
};

struct site_in {
	const struct history *all;      /* every host's runs */
	const struct site_host *hosts;  /* sorted by name */
	size_t nr_hosts;
	const struct site_run *runs;    /* sorted by db, then id */
	size_t nr_runs;
};

struct site_stats {
	size_t written, unchanged, removed;
	size_t pages, bytes;
};

/* Write the site into dir (created when missing); 0, or -1 with a
 * message. */
int site_write(const char *dir, const struct site_in *in,
	       struct site_stats *st);

#endif
