/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * query_select.c - run selectors (KEY=VALUE,...; see store.h).
 */
#include "store/internal.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/suggest.h"

/* ---- selectors: kernel=GLOB,host=NAME,version=GLOB,since=..,until=.. ---- */

bool store_is_selector(const char *arg)
{
	static const char *const keys[] = { "kernel=", "host=", "version=",
					    "since=", "until=", "tag=" };

	for (size_t i = 0; arg && i < ARRAY_SIZE(keys); i++)
		if (!strncmp(arg, keys[i], strlen(keys[i])))
			return true;
	return false;
}

enum sel_key { SEL_KERNEL, SEL_HOST, SEL_VERSION, SEL_TAG, SEL_NR };

struct selector {
	char *glob[SEL_NR];       /* NULL: any */
	int64_t since, until;     /* unix time, inclusive; 0: open */
};

/*
 * "2026-12-04", "2026-12-04T15:30", "2026-12-04 15:30:10", local time,
 * or "@UNIXTIME".  A bare date as until= means the end of that day.
 */
static int parse_date(const char *v, bool end, int64_t *out)
{
	struct tm tm = { 0 };
	const char *rest;
	long long n;

	if (v[0] == '@' && !parse_int(v + 1, 0, INT64_MAX, &n)) {
		*out = n;
		return 0;
	}
	rest = strptime(v, "%Y-%m-%d", &tm);
	if (!rest)
		return -1;
	if (!*rest) {
		if (end) {
			tm.tm_hour = 23;
			tm.tm_min = 59;
			tm.tm_sec = 59;
		}
	} else if (*rest == 'T' || *rest == ' ') {
		const char *t = strptime(rest + 1, "%H:%M", &tm);

		if (t && *t == ':')
			t = strptime(t + 1, "%S", &tm);
		else if (t && end)
			tm.tm_sec = 59;
		if (!t || *t)
			return -1;
	} else {
		return -1;
	}
	tm.tm_isdst = -1;
	*out = (int64_t)mktime(&tm);
	return 0;
}

static void selector_release(struct selector *s)
{
	for (int k = 0; k < SEL_NR; k++)
		free(s->glob[k]);
}

static int selector_parse(const char *arg, struct selector *s)
{
	static const char *const names[SEL_NR] = { "kernel", "host",
						   "version", "tag" };
	const char *p = arg;

	memset(s, 0, sizeof(*s));
	while (*p) {
		const char *e = strchrnul(p, ','), *eq;
		char *key, *val;
		int k;

		eq = memchr(p, '=', (size_t)(e - p));
		if (!eq)
			goto bad;
		key = xstrndup(p, (size_t)(eq - p));
		val = xstrndup(eq + 1, (size_t)(e - eq - 1));
		for (k = 0; k < SEL_NR && strcmp(key, names[k]); k++)
			;
		if (k < SEL_NR) {
			free(s->glob[k]);
			s->glob[k] = val;
			val = NULL;
		} else if (!strcmp(key, "since") || !strcmp(key, "until")) {
			bool until = key[0] == 'u';

			if (parse_date(val, until, until ? &s->until
							  : &s->since)) {
				error("%s=%s: not a date (YYYY-MM-DD, "
				      "YYYY-MM-DDTHH:MM[:SS] or @UNIXTIME)",
				      key, val);
				free(key);
				free(val);
				goto fail;
			}
		} else {
			error("unknown selector key '%s' in '%s' (kernel, "
			      "host, version, tag, since, until)", key, arg);
			free(key);
			free(val);
			goto fail;
		}
		free(key);
		free(val);
		p = *e ? e + 1 : e;
	}
	return 0;
bad:
	error("'%s' is not a selector: KEY=VALUE[,KEY=VALUE...]", arg);
fail:
	selector_release(s);
	return -1;
}

static bool glob_ok(const char *glob, const char *v)
{
	return !glob || (v && !fnmatch(glob, v, 0));
}

int store_select_runs(struct store *st, const char *selector, int64_t **ids,
		      size_t *nr)
{
	struct selector sel;
	sqlite3_stmt *s;
	size_t alloc = 0;
	int rc;

	*ids = NULL;
	*nr = 0;
	if (selector_parse(selector, &sel))
		return -1;
	s = stmt_get(st, S_RUN_FIELDS);
	if (!s) {
		selector_release(&sel);
		return -1;
	}
	while ((rc = step_row(st, s, "select runs")) > 0) {
		int64_t started = col_i64(s, 1);
		const char *v[SEL_NR] = {
			[SEL_KERNEL] = (const char *)sqlite3_column_text(s, 3),
			[SEL_HOST] = (const char *)sqlite3_column_text(s, 2),
			[SEL_VERSION] = (const char *)sqlite3_column_text(s, 4),
			[SEL_TAG] = (const char *)sqlite3_column_text(s, 5),
		};
		bool ok = (!sel.since || started >= sel.since) &&
			  (!sel.until || started <= sel.until);

		for (int k = 0; k < SEL_NR && ok; k++)
			ok = glob_ok(sel.glob[k], v[k]);
		if (!ok)
			continue;
		ALLOC_GROW(*ids, *nr + 1, alloc);
		(*ids)[(*nr)++] = col_i64(s, 0);
	}
	sqlite3_reset(s);
	selector_release(&sel);
	if (rc < 0) {
		free(*ids);
		*ids = NULL;
		*nr = 0;
		return -1;
	}
	return 0;
}
