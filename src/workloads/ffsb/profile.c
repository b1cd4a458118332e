/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.c - parse and validate FFSB profiles (FFSB's transaction
 * counting and the seeded draws are model.c).
 *
 * FFSB's own parser tries every known key against each line with
 * sscanf() and quietly leaves a value at zero when the text does not
 * match (a "4x" size reads as 0, a misspelt weight leaves the op out).
 * This one tokenises each line once, looks the key up in the table of
 * the section it is in, converts the value strictly, and stops at the
 * first problem with "file:line: reason".  See doc/ffsb.md for the keys.
 *
 * One job, kept in one file although it is past 800 lines: the grammar,
 * its key tables and their validation belong together.
 */
#include "workloads/ffsb/profile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/opt.h"
#include "util/suggest.h"
#include "util/util.h"

/* ---- the parser ---- */

enum sect { S_ROOT, S_FS, S_TG, S_AGE_TG, S_STATS, S_NR };

static const char *const sect_names[S_NR] = {
	"global", "filesystem", "threadgroup", "threadgroup", "stats",
};

enum ktype {
	K_U32, K_BOOL, K_SIZE, K_DOUBLE, K_STR, K_SIZE_WEIGHT,
	K_DEPRECATED, K_FSYNC_FILE, K_RANGE, K_ACCEPT, K_TIME,
	K_UNSUPPORTED_STR,
};

struct key {
	const char *name;
	enum ktype type;
	size_t off;
};

#define PO(f) offsetof(struct ffsb_profile, f)
#define FO(f) offsetof(struct ffsb_fs, f)
#define TO(f) offsetof(struct ffsb_tg, f)

static const struct key root_keys[] = {
	{ "num_filesystems", K_DEPRECATED, 0 },
	{ "num_threadgroups", K_DEPRECATED, 0 },
	{ "verbose", K_BOOL, PO(verbose) },
	{ "time", K_TIME, PO(time) },
	{ "directio", K_BOOL, PO(directio) },
	{ "bufferio", K_BOOL, PO(bufferio) },
	{ "alignio", K_BOOL, PO(alignio) },
	{ "callout", K_UNSUPPORTED_STR, 0 },
	{ NULL, 0, 0 },
};

static const struct key fs_keys[] = {
	{ "location", K_STR, FO(location) },
	{ "num_files", K_U32, FO(num_files) },
	{ "num_dirs", K_U32, FO(num_dirs) },
	{ "reuse", K_BOOL, FO(reuse) },
	{ "min_filesize", K_SIZE, FO(min_filesize) },
	{ "max_filesize", K_SIZE, FO(max_filesize) },
	{ "create_blocksize", K_SIZE, FO(create_blocksize) },
	{ "age_blocksize", K_SIZE, FO(age_blocksize) },
	{ "desired_util", K_DOUBLE, FO(desired_util) },
	{ "agefs", K_BOOL, FO(agefs) },
	{ "size_weight", K_SIZE_WEIGHT, 0 },
	{ "init_util", K_DOUBLE, FO(init_util) },
	{ "init_size", K_SIZE, FO(init_size) },
	{ "clone", K_STR, FO(clone) },
	{ NULL, 0, 0 },
};

/* Weight keys are found by name (<op>_weight), not listed here. */
static const struct key tg_keys[] = {
	{ "bindfs", K_STR, TO(bindfs) },
	{ "num_threads", K_U32, TO(num_threads) },
	{ "read_random", K_BOOL, TO(read_random) },
	{ "read_skip", K_BOOL, TO(read_skip) },
	{ "read_size", K_SIZE, TO(read_size) },
	{ "read_blocksize", K_SIZE, TO(read_blocksize) },
	{ "read_skipsize", K_SIZE, TO(read_skipsize) },
	{ "write_random", K_BOOL, TO(write_random) },
	{ "fsync_file", K_FSYNC_FILE, 0 },
	{ "write_size", K_SIZE, TO(write_size) },
	{ "write_blocksize", K_SIZE, TO(write_blocksize) },
	{ "op_delay", K_U32, TO(op_delay) },
	{ NULL, 0, 0 },
};

/* fslab always records latencies; the keys are read and checked only. */
static const struct key stats_keys[] = {
	{ "enable_stats", K_ACCEPT, 0 },
	{ "enable_range", K_ACCEPT, 0 },
	{ "ignore", K_ACCEPT, 0 },
	{ "msec_range", K_RANGE, 0 },
	{ NULL, 0, 0 },
};

struct frame {
	enum sect sect;
	int line;
	int num;             /* [threadgroup3] -> 3; -1 without a number */
	bool fsync_file;
	struct ffsb_tg age;  /* scratch for an aging threadgroup */
};

struct parser {
	struct ffsb_profile *p;
	const char *name;
	int line;
	char *err;
	size_t errlen;
	struct frame stack[4];
	int depth;           /* frames in use; stack[0] is the root */
};

static int perr(struct parser *ps, int line, const char *fmt, ...)
	PRINTF(3, 4);

static int perr(struct parser *ps, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(ps->err, ps->errlen, "%s:%d: ", ps->name, line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < ps->errlen)
		vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static void notice(struct parser *ps, const char *fmt, ...) PRINTF(2, 3);

static void notice(struct parser *ps, const char *fmt, ...)
{
	struct ffsb_profile *p = ps->p;
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ALLOC_GROW(p->notices, p->nr_notices + 1, p->alloc_notices);
	p->notices[p->nr_notices++] = xasprintf("%s:%d: %s", ps->name,
						ps->line, buf);
}

/* "4k", "64KB", "1g": FFSB's suffixes, binary, case-insensitive. */
static int parse_ffsb_size(struct parser *ps, const char *key,
			   const char *v, uint64_t *out)
{
	uint64_t n = 0, mult = 1;
	const char *s = v;

	if (!isdigit((unsigned char)*s))
		return perr(ps, ps->line, "'%s' is not a size for '%s'", v,
			    key);
	for (; isdigit((unsigned char)*s); s++) {
		if (n > (UINT64_MAX - 9) / 10)
			return perr(ps, ps->line, "size '%s' for '%s' is too "
				    "large", v, key);
		n = n * 10 + (uint64_t)(*s - '0');
	}
	switch (tolower((unsigned char)*s)) {
	case '\0':
		break;
	case 'k':
		mult = 1ULL << 10;
		break;
	case 'm':
		mult = 1ULL << 20;
		break;
	case 'g':
		mult = 1ULL << 30;
		break;
	default:
		return perr(ps, ps->line, "bad size suffix in '%s' for '%s' "
			    "(k, m or g)", v, key);
	}
	if (*s) {
		s++;
		if (tolower((unsigned char)*s) == 'b')
			s++;
		if (*s)
			return perr(ps, ps->line, "bad size suffix in '%s' "
				    "for '%s' (k, m or g)", v, key);
	}
	if (n > UINT64_MAX / mult)
		return perr(ps, ps->line, "size '%s' for '%s' is too large",
			    v, key);
	*out = n * mult;
	return 0;
}

static int parse_u32(struct parser *ps, const char *key, const char *v,
		     unsigned *out)
{
	uint64_t n;

	if (parse_u64(v, &n) || n > UINT32_MAX)
		return perr(ps, ps->line, "'%s' is not a number for '%s'", v,
			    key);
	*out = (unsigned)n;
	return 0;
}

/*
 * A profile is FFSB's own text, whose booleans are 0/1; fslab's one
 * boolean rule (yes/no, and 1/0 true/false on/off) reads them, so a
 * profile written either way runs, and one written for FFSB stays one.
 */
static int parse_bool(struct parser *ps, const char *key, const char *v,
		      bool *out)
{
	if (!*v || opt_parse_bool(v, out))
		return perr(ps, ps->line, "'%s' for '%s' is not a boolean "
			    "(0 or 1 as FFSB writes it, or no or yes)", v,
			    key);
	return 0;
}

static int parse_dbl(struct parser *ps, const char *key, const char *v,
		     double *out)
{
	char *end;

	errno = 0;
	*out = strtod(v, &end);
	if (end == v || *end || errno || *out < 0)
		return perr(ps, ps->line, "'%s' is not a number for '%s'", v,
			    key);
	return 0;
}

/* Split "a b" into two words; NULL when the count is not two. */
static int two_words(struct parser *ps, const char *key, char *v,
		     char **a, char **b)
{
	char *sp = v + strcspn(v, " \t");

	if (!*sp)
		return perr(ps, ps->line, "'%s' needs two values, not '%s'",
			    key, v);
	*sp++ = '\0';
	sp += strspn(sp, " \t");
	if (!*sp || sp[strcspn(sp, " \t")])
		return perr(ps, ps->line, "'%s' needs two values", key);
	*a = v;
	*b = sp;
	return 0;
}

static void *sect_base(struct parser *ps, struct frame *f)
{
	switch (f->sect) {
	case S_ROOT:
		return ps->p;
	case S_FS:
		return &ps->p->fs[ps->p->nr_fs - 1];
	case S_TG:
		return &ps->p->tg[ps->p->nr_tg - 1];
	case S_AGE_TG:
		return &f->age;
	default:
		return NULL;
	}
}

static const struct key *sect_keys(enum sect s)
{
	switch (s) {
	case S_ROOT:
		return root_keys;
	case S_FS:
		return fs_keys;
	case S_TG:
	case S_AGE_TG:
		return tg_keys;
	default:
		return stats_keys;
	}
}

/* The closest key of the section into buf, for "did you mean". */
static const char *suggest_key(enum sect s, const char *key, char *buf,
			       size_t len)
{
	struct suggest sg;
	char wname[64];

	*buf = '\0';
	suggest_init(&sg, key);
	for (const struct key *k = sect_keys(s); k->name; k++)
		if (suggest_add(&sg, k->name))
			snprintf(buf, len, "%s", k->name);
	for (int i = 0; (s == S_TG || s == S_AGE_TG) && i < FFSB_OP_NR; i++) {
		snprintf(wname, sizeof(wname), "%s_weight", ffsb_op_name((enum ffsb_op)i));
		if (suggest_add(&sg, wname))
			snprintf(buf, len, "%s", wname);
	}
	return suggest_result(&sg) ? buf : NULL;
}

static int set_key(struct parser *ps, char *key, char *val)
{
	struct frame *f = &ps->stack[ps->depth - 1];
	char *base = sect_base(ps, f), *a, *b, sug[64];
	size_t kl = strlen(key);
	const struct key *k;

	if (!*val)
		return perr(ps, ps->line, "missing value for '%s'", key);
	if ((f->sect == S_TG || f->sect == S_AGE_TG) && kl > 7 &&
	    !strcmp(key + kl - 7, "_weight")) {
		struct ffsb_tg *tg = (struct ffsb_tg *)(void *)base;
		enum ffsb_op op;

		key[kl - 7] = '\0';
		op = ffsb_op_from_name(key);
		key[kl - 7] = '_';
		if (op != FFSB_OP_NR)
			return parse_u32(ps, key, val, &tg->weight[op]);
	}
	for (k = sect_keys(f->sect); k->name; k++)
		if (!strcmp(k->name, key))
			break;
	if (!k->name) {
		if (suggest_key(f->sect, key, sug, sizeof(sug)))
			return perr(ps, ps->line, "unknown key '%s' in [%s] "
				    "(did you mean '%s'?)", key,
				    sect_names[f->sect], sug);
		return perr(ps, ps->line, "unknown key '%s' in [%s]", key,
			    sect_names[f->sect]);
	}
	if (k->type != K_SIZE_WEIGHT && k->type != K_RANGE &&
	    val[strcspn(val, " \t")])
		return perr(ps, ps->line, "'%s' takes one value, not '%s'",
			    key, val);
	switch (k->type) {
	case K_U32:
		/* num_files and friends are uint64_t, threads unsigned */
		if (f->sect == S_FS) {
			unsigned v = 0;

			if (parse_u32(ps, key, val, &v))
				return -1;
			*(uint64_t *)(void *)(base + k->off) = v;
			return 0;
		}
		return parse_u32(ps, key, val,
				 (unsigned *)(void *)(base + k->off));
	case K_TIME:
		if (parse_u32(ps, key, val, &ps->p->time))
			return -1;
		ps->p->time_line = ps->line;
		return 0;
	case K_BOOL:
		return parse_bool(ps, key, val,
				    (bool *)(void *)(base + k->off));
	case K_SIZE:
		return parse_ffsb_size(ps, key, val,
				       (uint64_t *)(void *)(base + k->off));
	case K_DOUBLE:
		return parse_dbl(ps, key, val,
				 (double *)(void *)(base + k->off));
	case K_STR: {
		char **dst = (char **)(void *)(base + k->off);

		free(*dst);
		*dst = xstrdup(val);
		return 0;
	}
	case K_SIZE_WEIGHT: {
		struct ffsb_fs *fs = (struct ffsb_fs *)(void *)base;
		struct ffsb_size_weight sw;

		if (two_words(ps, key, val, &a, &b) ||
		    parse_ffsb_size(ps, key, a, &sw.size) ||
		    parse_u32(ps, key, b, &sw.weight))
			return -1;
		ALLOC_GROW(fs->sw, fs->nr_sw + 1, fs->alloc_sw);
		fs->sw[fs->nr_sw++] = sw;
		return 0;
	}
	case K_RANGE: {
		double x, y;

		if (two_words(ps, key, val, &a, &b) ||
		    parse_dbl(ps, key, a, &x) || parse_dbl(ps, key, b, &y))
			return -1;
		if (y < x)
			return perr(ps, ps->line, "'%s' range %s..%s is "
				    "reversed", key, a, b);
		return 0;
	}
	case K_DEPRECATED:
		notice(ps, "'%s' is deprecated and ignored: the sections "
		       "are counted", key);
		return 0;
	case K_FSYNC_FILE:
		if (parse_bool(ps, key, val, &f->fsync_file))
			return -1;
		if (f->fsync_file)
			notice(ps, "fsync_file=1: write, create, append and "
			       "writeall weights count as write_fsync, "
			       "create_fsync, append_fsync and "
			       "writeall_fsync");
		return 0;
	case K_ACCEPT:
		return 0;
	case K_UNSUPPORTED_STR:
		return perr(ps, ps->line, "'%s' is not supported by fslab",
			    key);
	}
	return 0;
}

/* 5.x fsync_file: the plain write ops become their _fsync variants. */
static void apply_fsync_file(struct ffsb_tg *tg)
{
	static const enum ffsb_op map[][2] = {
		{ FFSB_OP_WRITE, FFSB_OP_WRITE_FSYNC },
		{ FFSB_OP_CREATE, FFSB_OP_CREATE_FSYNC },
		{ FFSB_OP_APPEND, FFSB_OP_APPEND_FSYNC },
		{ FFSB_OP_WRITEALL, FFSB_OP_WRITEALL_FSYNC },
	};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		tg->weight[map[i][1]] += tg->weight[map[i][0]];
		tg->weight[map[i][0]] = 0;
	}
}

static void tg_release(struct ffsb_tg *tg)
{
	free(tg->bindfs);
	tg->bindfs = NULL;
}

static int open_section(struct parser *ps, const char *name, int num)
{
	struct frame *top = &ps->stack[ps->depth - 1], *f;
	struct ffsb_profile *p = ps->p;
	enum sect s;

	if (!strcmp(name, "filesystem") && top->sect == S_ROOT) {
		s = S_FS;
	} else if (!strcmp(name, "threadgroup") && top->sect == S_ROOT) {
		s = S_TG;
	} else if (!strcmp(name, "threadgroup") && top->sect == S_FS) {
		s = S_AGE_TG;
	} else if (!strcmp(name, "stats") && top->sect != S_STATS) {
		s = S_STATS;
	} else if (!strcmp(name, "filesystem") ||
		   !strcmp(name, "threadgroup") || !strcmp(name, "stats")) {
		return perr(ps, ps->line, "[%s] cannot be inside [%s] "
			    "(opened at line %d)", name,
			    sect_names[top->sect], top->line);
	} else {
		return perr(ps, ps->line, "unknown section '[%s]'", name);
	}
	if (ps->depth == (int)ARRAY_SIZE(ps->stack))
		return perr(ps, ps->line, "sections nested too deep");
	f = &ps->stack[ps->depth++];
	memset(f, 0, sizeof(*f));
	f->sect = s;
	f->line = ps->line;
	f->num = num;
	if (s == S_FS) {
		struct ffsb_fs *fs;

		ALLOC_GROW(p->fs, p->nr_fs + 1, p->alloc_fs);
		fs = &p->fs[p->nr_fs++];
		memset(fs, 0, sizeof(*fs));
		fs->line = ps->line;
		fs->create_blocksize = 4096;
	} else if (s == S_TG) {
		struct ffsb_tg *tg;

		ALLOC_GROW(p->tg, p->nr_tg + 1, p->alloc_tg);
		tg = &p->tg[p->nr_tg++];
		memset(tg, 0, sizeof(*tg));
		tg->line = ps->line;
	} else if (s == S_AGE_TG) {
		p->fs[p->nr_fs - 1].nr_age_tgs++;
	}
	return 0;
}

static int close_section(struct parser *ps, int num)
{
	struct frame *f = &ps->stack[ps->depth - 1];

	if (ps->depth == 1)
		return perr(ps, ps->line, "'[end]' without an open section");
	if (num >= 0 && f->num >= 0 && num != f->num)
		return perr(ps, ps->line, "'[end%d]' closes '[%s%d]' of line "
			    "%d", num, sect_names[f->sect], f->num, f->line);
	if (f->sect == S_TG && f->fsync_file)
		apply_fsync_file(&ps->p->tg[ps->p->nr_tg - 1]);
	if (f->sect == S_AGE_TG)
		tg_release(&f->age);
	ps->depth--;
	return 0;
}

static int section_line(struct parser *ps, char *s)
{
	char *close = strchr(s, ']'), *d;
	int num = -1;

	if (!close || close[1])
		return perr(ps, ps->line, "bad section header (want "
			    "'[name]' alone on its line)");
	*close = '\0';
	s++;
	for (d = s; isalpha((unsigned char)*d); d++)
		;
	if (*d) {
		long long n;

		if (parse_int(d, 0, 9999, &n))
			return perr(ps, ps->line, "bad section header (want "
				    "'[name]' or '[nameN]')");
		num = (int)n;
		*d = '\0';
	}
	if (!strcmp(s, "end"))
		return close_section(ps, num);
	return open_section(ps, s, num);
}

static int parse_line(struct parser *ps, char *s)
{
	char *hash = strchr(s, '#'), *key, *val, *end;

	if (hash)
		*hash = '\0';
	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*s)
		return 0;
	if (*s == '[')
		return section_line(ps, s);
	key = s;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	if (s == key || (*s && *s != '=' && !isspace((unsigned char)*s)))
		/* No echo: the file may be anything root can read. */
		return perr(ps, ps->line, "not a 'key = value' line or a "
			    "[section]; is this an FFSB profile?");
	val = s + strspn(s, " \t");
	if (*val == '=')
		val++;
	*s = '\0';
	val += strspn(val, " \t");
	return set_key(ps, key, val);
}

static bool tg_has(const struct ffsb_tg *tg, const enum ffsb_op *ops,
		   size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tg->weight[ops[i]])
			return true;
	return false;
}

/*
 * Every count a profile sets has a ceiling that keeps a run within one
 * machine: a thread costs a stack and a buffer, a file a table entry
 * (num_threads = 100000 once woke the OOM killer).
 */
static int check_caps(struct parser *ps, const struct ffsb_profile *p)
{
	uint64_t threads = 0, files = 0, dirs = 0;

	for (size_t i = 0; i < p->nr_tg; i++) {
		threads += p->tg[i].num_threads;
		if (threads > FFSB_MAX_THREADS)
			return perr(ps, p->tg[i].line, "more than %d threads "
				    "in all threadgroups", FFSB_MAX_THREADS);
	}
	for (size_t i = 0; i < p->nr_fs; i++) {
		files += p->fs[i].num_files;
		dirs += p->fs[i].num_dirs;
		if (files > FFSB_MAX_FILES || dirs > FFSB_MAX_DIRS)
			return perr(ps, p->fs[i].line, "more than %llu files "
				    "or %llu directories in all filesystems",
				    (unsigned long long)FFSB_MAX_FILES,
				    (unsigned long long)FFSB_MAX_DIRS);
	}
	return 0;
}

static int validate_fs(struct parser *ps, struct ffsb_fs *fs)
{
	if (fs->agefs)
		return perr(ps, fs->line, "agefs=1 (aging the filesystem "
			    "first) is not supported by fslab");
	if (fs->clone)
		return perr(ps, fs->line, "'clone' is not supported by "
			    "fslab");
	if (!fs->nr_sw && !fs->max_filesize)
		return perr(ps, fs->line, "filesystem has no file size "
			    "(min_filesize/max_filesize or size_weight)");
	if (!fs->nr_sw && fs->min_filesize > fs->max_filesize)
		return perr(ps, fs->line, "min_filesize is larger than "
			    "max_filesize");
	if (fs->nr_sw) {
		uint64_t t = 0;

		for (size_t i = 0; i < fs->nr_sw; i++)
			t += fs->sw[i].weight;
		if (!t)
			return perr(ps, fs->line, "every size_weight is 0");
	}
	if (!fs->create_blocksize)
		return perr(ps, fs->line, "create_blocksize is 0");
	if (fs->init_util >= 1.0)
		return perr(ps, fs->line, "init_util must be below 1");
	return 0;
}

static const enum ffsb_op read_ops[] = { FFSB_OP_READ, FFSB_OP_READALL };
static const enum ffsb_op write_ops[] = {
	FFSB_OP_WRITE, FFSB_OP_WRITE_FSYNC, FFSB_OP_CREATE,
	FFSB_OP_CREATE_FSYNC, FFSB_OP_APPEND, FFSB_OP_APPEND_FSYNC,
	FFSB_OP_WRITEALL, FFSB_OP_WRITEALL_FSYNC,
};
static const enum ffsb_op create_ops[] = {
	FFSB_OP_CREATE, FFSB_OP_CREATE_FSYNC,
};
static const enum ffsb_op ranged_write_ops[] = {
	FFSB_OP_WRITE, FFSB_OP_WRITE_FSYNC, FFSB_OP_APPEND,
	FFSB_OP_APPEND_FSYNC,
};
static const enum ffsb_op pwrite_ops[] = {
	FFSB_OP_WRITE, FFSB_OP_WRITE_FSYNC,
};

static int validate_tg(struct parser *ps, struct ffsb_tg *tg)
{
	struct ffsb_profile *p = ps->p;
	bool files_needed = false;

	if (!ffsb_tg_total_weight(tg))
		return perr(ps, tg->line, "threadgroup has no weighted "
			    "operation (set at least one <op>_weight)");
	if (!tg->num_threads)
		return perr(ps, tg->line, "threadgroup has no num_threads");
	if (tg_has(tg, read_ops, ARRAY_SIZE(read_ops)) && !tg->read_blocksize)
		return perr(ps, tg->line, "read and readall need a "
			    "read_blocksize");
	if (tg_has(tg, write_ops, ARRAY_SIZE(write_ops)) &&
	    !tg->write_blocksize)
		return perr(ps, tg->line, "write, writeall, create and "
			    "append need a write_blocksize");
	if (tg->weight[FFSB_OP_READ] && !tg->read_size)
		return perr(ps, tg->line, "read needs a read_size");
	if (tg_has(tg, ranged_write_ops, ARRAY_SIZE(ranged_write_ops)) &&
	    !tg->write_size)
		return perr(ps, tg->line, "write and append need a "
			    "write_size");
	if (tg->read_random && tg->read_skip)
		return perr(ps, tg->line, "read_random and read_skip are "
			    "mutually exclusive");
	if (tg->read_skip && !tg->read_skipsize)
		return perr(ps, tg->line, "read_skip needs a read_skipsize");
	if (tg->bindfs) {
		size_t i;

		for (i = 0; i < p->nr_fs; i++)
			if (p->fs[i].location &&
			    !strcmp(p->fs[i].location, tg->bindfs))
				break;
		if (i == p->nr_fs)
			return perr(ps, tg->line, "bindfs '%s' is no "
				    "filesystem's location", tg->bindfs);
	}
	for (int i = 0; i < FFSB_OP_NR; i++)
		if (tg->weight[i] && ffsb_op_needs_file((enum ffsb_op)i))
			files_needed = true;
	for (size_t i = 0; i < p->nr_fs; i++) {
		const struct ffsb_fs *fs = &p->fs[i];
		uint64_t min = ffsb_fs_min_size(fs), need;

		if (tg->bindfs && (!fs->location ||
				   strcmp(fs->location, tg->bindfs)))
			continue;
		if (files_needed && !fs->num_files && !fs->init_size &&
		    fs->init_util <= 0 &&
		    !tg_has(tg, create_ops, ARRAY_SIZE(create_ops)))
			return perr(ps, tg->line, "its operations need files "
				    "but the filesystem of line %d starts "
				    "with none and it creates none",
				    fs->line);
		need = tg->read_random ? tg->read_blocksize : tg->read_size;
		if (tg->read_skip)
			need = tg->read_size / tg->read_blocksize *
			       (tg->read_blocksize + tg->read_skipsize);
		if (tg->weight[FFSB_OP_READ] && min < need)
			return perr(ps, tg->line, "read of %llu bytes does "
				    "not fit the %llu-byte files of line %d",
				    (unsigned long long)need,
				    (unsigned long long)min, fs->line);
		need = tg->write_random ? tg->write_blocksize :
		       tg->write_size;
		if (tg_has(tg, pwrite_ops, ARRAY_SIZE(pwrite_ops)) &&
		    min < need)
			return perr(ps, tg->line, "write of %llu bytes does "
				    "not fit the %llu-byte files of line %d",
				    (unsigned long long)need,
				    (unsigned long long)min, fs->line);
	}
	return 0;
}

void ffsb_profile_release(struct ffsb_profile *p)
{
	for (size_t i = 0; i < p->nr_fs; i++) {
		free(p->fs[i].location);
		free(p->fs[i].clone);
		free(p->fs[i].sw);
	}
	for (size_t i = 0; i < p->nr_tg; i++)
		tg_release(&p->tg[i]);
	for (size_t i = 0; i < p->nr_notices; i++)
		free(p->notices[i]);
	free(p->notices);
	free(p->fs);
	free(p->tg);
	free(p->file);
	memset(p, 0, sizeof(*p));
}

int ffsb_profile_parse(const char *text, const char *name,
		       struct ffsb_profile *p, char *err, size_t errlen)
{
	struct parser ps = {
		.p = p, .name = name, .err = err, .errlen = errlen,
		.depth = 1,
	};
	char *copy = xstrdup(text), *s = copy;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->file = xstrdup(name);
	ps.stack[0].sect = S_ROOT;
	ps.stack[0].num = -1;
	while (s && !ret) {
		char *nl = strchr(s, '\n');

		if (!nl && !*s)
			break;   /* text ends in a newline: no line after it */
		if (nl)
			*nl = '\0';
		ps.line++;
		ret = parse_line(&ps, s);
		s = nl ? nl + 1 : NULL;
	}
	if (!ret && ps.depth > 1) {
		struct frame *f = &ps.stack[ps.depth - 1];

		ret = perr(&ps, f->line, "[%s] is never closed by [end]",
			   sect_names[f->sect]);
	}
	while (ps.depth > 1) {
		if (ps.stack[ps.depth - 1].sect == S_AGE_TG)
			tg_release(&ps.stack[ps.depth - 1].age);
		ps.depth--;
	}
	if (!ret && !p->nr_fs)
		ret = perr(&ps, ps.line, "no [filesystem] section");
	if (!ret && !p->nr_tg)
		ret = perr(&ps, ps.line, "no [threadgroup] section");
	if (!ret && p->bufferio)
		ret = perr(&ps, ps.line, "bufferio=1 (stdio buffered I/O) "
			   "is not supported by fslab");
	for (size_t i = 0; !ret && i < p->nr_fs; i++)
		ret = validate_fs(&ps, &p->fs[i]);
	for (size_t i = 0; !ret && i < p->nr_tg; i++)
		ret = validate_tg(&ps, &p->tg[i]);
	if (!ret)
		ret = check_caps(&ps, p);
	free(copy);
	if (ret)
		ffsb_profile_release(p);
	return ret;
}

int ffsb_profile_load(const char *path, struct ffsb_profile *p, char *err,
		      size_t errlen)
{
	char *text = read_file(path, NULL);
	int ret;

	if (!text) {
		snprintf(err, errlen, "cannot read profile '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	ret = ffsb_profile_parse(text, path, p, err, errlen);
	free(text);
	return ret;
}

/*
 * The FLEX_BG mail's profile as fslab reads it: one thread creating
 * 4-64 KiB files and fsyncing each (examples/ffsb/mail-create-fsync.ffsb
 * is the same text).
 */
const char ffsb_builtin_profile[] =
	"# fslab's built-in FFSB profile: single-threaded small creates\n"
	"# written in 4 KiB blocks and fsynced (the FLEX_BG mail)\n"
	"time = 300\n"
	"directio = 0\n"
	"\n"
	"[filesystem]\n"
	"\tlocation = /mnt/test\n"
	"\tnum_files = 1000\n"
	"\tnum_dirs = 100\n"
	"\tmin_filesize = 4k\n"
	"\tmax_filesize = 64k\n"
	"[end]\n"
	"\n"
	"[threadgroup]\n"
	"\tnum_threads = 1\n"
	"\tcreate_fsync_weight = 1\n"
	"\twrite_blocksize = 4k\n"
	"[end]\n";
