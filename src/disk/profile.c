/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.c - disk profiles: the shipped texts (the same as the files
 * in examples/disks, embedded so fslab works uninstalled;
 * tests/unit/test_diskmodel.c checks they match), the parser and the
 * fit of the seek curve.
 *
 * Format: "KEY VALUE" lines, '#' starts a comment.  Every key at most
 * once; rpm, capacity_gb, heads, the three seek figures and the two
 * rates are required.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "disk/diskmodel.h"
#include "util/util.h"

static const char prof_desktop[] =
	"# SPDX-License-Identifier: GPL-2.0-or-later\n"
	"# desktop-7200 - a 3.5-inch 7200 rpm desktop disk of the ext4/Orlov era:\n"
	"# Hitachi Deskstar 7K500 (HDS725050KLA360, 500 GB, 5 platters).\n"
	"# Sources: Deskstar 7K500 specification, table 10 \"Data transfer speed\"\n"
	"# (sustained disk-buffer read, zone 0: 64.8 MB/s, zone 29: 31.0 MB/s)\n"
	"# and its average read seek (8.5 ms typical, also on the product\n"
	"# sheet).  The 7K500 sheet at hand lacks the single-track and\n"
	"# full-stroke figures; they are the Deskstar 7K320 specification's\n"
	"# (same maker, same rpm; tables 6 and 7: 1.0 ms and 20.0 ms read).\n"
	"# Read-ahead and segments: the 16 MB buffer as a handful of segments\n"
	"# (assumed; drives do not publish their segmentation).\n"
	"name desktop-7200\n"
	"rpm 7200\n"
	"capacity_gb 500\n"
	"heads 10\n"
	"track_to_track_ms 1.0\n"
	"average_seek_ms 8.5\n"
	"full_stroke_ms 20.0\n"
	"outer_mb_s 64.8\n"
	"inner_mb_s 31.0\n"
	"command_overhead_ms 0.1\n"
	"readahead_kib 256\n"
	"cache_segments 16\n"
	"queue_depth 1\n"
	"scheduler fifo\n"
	"rotation half\n"
;
static const char prof_laptop[] =
	"# SPDX-License-Identifier: GPL-2.0-or-later\n"
	"# laptop-5400 - a 2.5-inch 5400 rpm notebook disk: Hitachi Travelstar\n"
	"# 5K320 (HTS543232L9SA00, 320 GB, 2 platters).\n"
	"# Sources: Travelstar 5K320 SATA OEM specification, section 4.4.2:\n"
	"# average seek 12 ms read (table 5, \"weighted average of all possible\n"
	"# seek combinations\"), full stroke 20.0 ms (table 6), single track\n"
	"# 1.0 ms (table 7), 5400 rpm, 11.1 ms per revolution (table 8).\n"
	"# Sustained rates: not in that table; 60 MB/s outer and 32 MB/s inner\n"
	"# are assumed (a 160 GB/platter 2.5-inch drive's zone ratio, like the\n"
	"# 7K500's 31.0/64.8).  Segments assumed as for the desktop profile.\n"
	"name laptop-5400\n"
	"rpm 5400\n"
	"capacity_gb 320\n"
	"heads 4\n"
	"track_to_track_ms 1.0\n"
	"average_seek_ms 12.0\n"
	"full_stroke_ms 20.0\n"
	"outer_mb_s 60\n"
	"inner_mb_s 32\n"
	"command_overhead_ms 0.1\n"
	"readahead_kib 256\n"
	"cache_segments 8\n"
	"queue_depth 1\n"
	"scheduler fifo\n"
	"rotation half\n"
;
static const char prof_enterprise[] =
	"# SPDX-License-Identifier: GPL-2.0-or-later\n"
	"# enterprise-15k - a 15k rpm SAS disk: Seagate Cheetah 15K.7\n"
	"# (ST3600057SS, 600 GB, 4 platters).\n"
	"# Sources: Cheetah 15K.7 SAS product manual (100516226), performance\n"
	"# characteristics: sustained transfer rate 122 to 204 MB/s, average\n"
	"# seek read 3.4 ms, single track read 0.2 ms, 15000 rpm.  Full stroke:\n"
	"# 6.6 ms assumed (not in the excerpt at hand; about twice the\n"
	"# average, as the 15k drives of that generation).\n"
	"name enterprise-15k\n"
	"rpm 15000\n"
	"capacity_gb 600\n"
	"heads 8\n"
	"track_to_track_ms 0.2\n"
	"average_seek_ms 3.4\n"
	"full_stroke_ms 6.6\n"
	"outer_mb_s 204\n"
	"inner_mb_s 122\n"
	"command_overhead_ms 0.05\n"
	"readahead_kib 512\n"
	"cache_segments 32\n"
	"queue_depth 1\n"
	"scheduler fifo\n"
	"rotation half\n"
;

const char *const disk_profile_names[] = {
	"desktop-7200", "laptop-5400", "enterprise-15k", NULL,
};

const char *disk_profile_builtin(const char *name)
{
	if (!strcmp(name, "desktop-7200"))
		return prof_desktop;
	if (!strcmp(name, "laptop-5400"))
		return prof_laptop;
	if (!strcmp(name, "enterprise-15k"))
		return prof_enterprise;
	return NULL;
}

enum key_kind { K_NUM, K_NAME, K_SCHED, K_ROT };

struct key {
	const char *name;
	enum key_kind kind;
	size_t off;             /* of the double (K_NUM) */
	double min, max;        /* K_NUM: inclusive, min exclusive if > 0 */
	bool required;
};

#define OFF(f) offsetof(struct disk_profile, f)
static const struct key keys[] = {
	{ "name", K_NAME, 0, 0, 0, false },
	{ "rpm", K_NUM, OFF(rpm), 1000, 30000, true },
	{ "capacity_gb", K_NUM, OFF(capacity), 0.001, 1e6, true },
	{ "heads", K_NUM, OFF(heads), 1, 64, true },
	{ "cylinders", K_NUM, OFF(cylinders), 2, 1e9, false },
	{ "track_to_track_ms", K_NUM, OFF(t2t_ms), 0.001, 1000, true },
	{ "average_seek_ms", K_NUM, OFF(avg_ms), 0.001, 1000, true },
	{ "full_stroke_ms", K_NUM, OFF(full_ms), 0.001, 1000, true },
	{ "outer_mb_s", K_NUM, OFF(outer_mbs), 0.001, 1e5, true },
	{ "inner_mb_s", K_NUM, OFF(inner_mbs), 0.001, 1e5, true },
	{ "command_overhead_ms", K_NUM, OFF(overhead_ms), 0, 100, false },
	{ "readahead_kib", K_NUM, OFF(readahead), 0, 1048576, false },
	{ "cache_segments", K_NUM, 0, 0, 1024, false },
	{ "queue_depth", K_NUM, 0, 1, 1024, false },
	{ "scheduler", K_SCHED, 0, 0, 0, false },
	{ "rotation", K_ROT, 0, 0, 0, false },
};
#undef OFF

static int parse_num(const char *s, double min, double max, double *v)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || *end || !isfinite(*v) || *v < min || *v > max)
		return -1;
	return 0;
}

static int set_key(struct disk_profile *p, const struct key *k,
		   const char *val, const char *origin, int lineno)
{
	double v;

	switch (k->kind) {
	case K_NAME:
		for (const char *c = val; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr("-_.", *c))
				return error("%s:%d: bad name '%s' (letters, "
					     "digits, '-', '_', '.')", origin,
					     lineno, val);
		free(p->name);
		p->name = xstrdup(val);
		return 0;
	case K_SCHED:
		if (!strcmp(val, "fifo"))
			p->sched = DISK_FIFO;
		else if (!strcmp(val, "sstf"))
			p->sched = DISK_SSTF;
		else if (!strcmp(val, "elevator"))
			p->sched = DISK_ELEVATOR;
		else
			return error("%s:%d: unknown scheduler '%s' (fifo, "
				     "sstf or elevator)", origin, lineno, val);
		return 0;
	case K_ROT:
		if (!strcmp(val, "half"))
			p->rot = DISK_ROT_HALF;
		else if (!strcmp(val, "angular"))
			p->rot = DISK_ROT_ANGULAR;
		else
			return error("%s:%d: unknown rotation '%s' (half or "
				     "angular)", origin, lineno, val);
		return 0;
	case K_NUM:
		break;
	}
	if (parse_num(val, k->min, k->max, &v) < 0)
		return error("%s:%d: bad %s '%s' (a number from %g to %g)",
			     origin, lineno, k->name, val, k->min, k->max);
	if (!strcmp(k->name, "cache_segments") ||
	    !strcmp(k->name, "queue_depth")) {
		if (v != floor(v))
			return error("%s:%d: %s must be a whole number, not "
				     "'%s'", origin, lineno, k->name, val);
		if (k->name[0] == 'c')
			p->segments = (unsigned)v;
		else
			p->queue_depth = (unsigned)v;
		return 0;
	}
	*(double *)((char *)p + k->off) = v;
	return 0;
}

/* Derived geometry, the seek fit and the checks across keys. */
static int finish(struct disk_profile *p, const char *origin,
		  const int *line_of)
{
	double ro, ri, lo, hi, rev_s;
	int la = line_of[6];

	p->capacity *= 1e9;
	p->readahead *= 1024;
	p->rev_ms = 60000.0 / p->rpm;
	rev_s = p->rev_ms / 1e3;
	ro = p->outer_mbs * 1e6;
	ri = p->inner_mbs * 1e6;
	if (ri > ro)
		return error("%s:%d: inner_mb_s %g is above outer_mb_s %g "
			     "(the outer zone is the fast one)", origin,
			     line_of[9], p->inner_mbs, p->outer_mbs);
	if (!(p->t2t_ms < p->avg_ms && p->avg_ms < p->full_ms))
		return error("%s:%d: want track_to_track_ms < "
			     "average_seek_ms < full_stroke_ms, not %g, %g, "
			     "%g", origin, la, p->t2t_ms, p->avg_ms,
			     p->full_ms);
	if (p->cylinders > 0)
		p->ncyl = p->cylinders;
	else if (ro - ri < 1e-9 * ro)
		p->ncyl = p->capacity / (p->heads * ro * rev_s);
	else
		p->ncyl = p->capacity * log(ro / ri) /
			  ((ro - ri) * p->heads * rev_s);
	if (!(p->ncyl >= 2 && p->ncyl <= 1e9))
		return error("%s: %g cylinders follow from capacity, heads, "
			     "rpm and rates; want 2 to 10^9", origin,
			     p->ncyl);
	if (disk_fit_seek(p, &lo, &hi) < 0)
		return error("%s:%d: no seek curve with track-to-track %g "
			     "and full stroke %g ms has an average of %g ms "
			     "over %.0f cylinders (possible: %.3f to %.3f)",
			     origin, la, p->t2t_ms, p->full_ms, p->avg_ms,
			     p->ncyl, lo, hi);
	return 0;
}

int disk_profile_parse(const char *text, const char *origin,
		       struct disk_profile *p)
{
	char *copy = xstrdup(text), *line, *next;
	int line_of[ARRAY_SIZE(keys)] = { 0 };
	int lineno = 0, rc = -1;

	memset(p, 0, sizeof(*p));
	p->queue_depth = 1;
	p->segments = 1;
	for (line = copy; line; line = next) {
		char *k, *v, *end;
		size_t i;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if ((end = strchr(line, '#')))
			*end = '\0';
		k = line + strspn(line, " \t\r");
		if (!*k)
			continue;
		v = k + strcspn(k, " \t\r");
		if (*v)
			*v++ = '\0';
		v += strspn(v, " \t\r");
		end = v + strlen(v);
		while (end > v && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*v || strpbrk(v, " \t"))
			goto bad_line;
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(keys[i].name, k))
				break;
		if (i == ARRAY_SIZE(keys)) {
			error("%s:%d: unknown key '%s'", origin, lineno, k);
			goto out;
		}
		if (line_of[i]) {
			error("%s:%d: '%s' given twice (first on line %d)",
			      origin, lineno, k, line_of[i]);
			goto out;
		}
		line_of[i] = lineno;
		if (set_key(p, &keys[i], v, origin, lineno) < 0)
			goto out;
		continue;
bad_line:
		error("%s:%d: expected 'KEY VALUE'", origin, lineno);
		goto out;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (keys[i].required && !line_of[i]) {
			error("%s: no '%s'", origin, keys[i].name);
			goto out;
		}
	if (finish(p, origin, line_of) < 0)
		goto out;
	if (!p->name)
		p->name = xstrdup(origin);
	rc = 0;
out:
	free(copy);
	if (rc)
		disk_profile_release(p);
	return rc;
}

int disk_profile_load(const char *spec, struct disk_profile *p)
{
	char *base = xstrdup(spec), *over = strchr(base, ':'), *text, *all;
	const char *bt;
	int rc;

	if (over)
		*over++ = '\0';
	bt = disk_profile_builtin(base);
	if (bt) {
		text = xstrdup(bt);
	} else if (!strchr(base, '/') && !strchr(base, '.')) {
		free(base);
		return error("unknown disk profile '%s' (shipped: "
			     "desktop-7200, laptop-5400, enterprise-15k; or "
			     "a file)", spec);
	} else if (!(text = read_file(base, NULL))) {
		rc = error_errno("cannot read disk profile '%s'", base);
		free(base);
		return rc;
	}
	/* Overrides as more lines: a key the profile sets is then "given
	 * twice", so drop the profile's line first. */
	if (over && *over) {
		char *o = xstrdup(over), *tok, *save = NULL;

		for (tok = strtok_r(o, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');
			size_t kl = eq ? (size_t)(eq - tok) : strlen(tok);

			for (char *l = text; l && *l;) {
				char *nl = strchr(l, '\n');
				size_t ll = nl ? (size_t)(nl - l) : strlen(l);

				if (ll >= kl && !strncmp(l, tok, kl) &&
				    (l[kl] == ' ' || l[kl] == '\t'))
					memset(l, ' ', ll);
				l = nl ? nl + 1 : NULL;
			}
			if (eq)
				*eq = ' ';
			all = xasprintf("%s\n%s", text, tok);
			free(text);
			text = all;
		}
		free(o);
	}
	rc = disk_profile_parse(text, base, p);
	if (!rc && bt && !over) {
		free(p->name);
		p->name = xstrdup(base);
	}
	free(text);
	free(base);
	return rc;
}

void disk_profile_release(struct disk_profile *p)
{
	free(p->name);
	p->name = NULL;
}
