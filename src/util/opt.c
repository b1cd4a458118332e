/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opt.c - declarative option tables and `key=val,...` lists (see opt.h).
 *
 * The tables are the single source of truth for a workload's options:
 * defaults, parsing, canonical formatting (stored with every run, so a
 * stored run says exactly what it ran with) and help text.
 */
#include "util/opt.h"
#include "util/strbuf.h"
#include "util/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

PRINTF(3, 4)
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int kv_parse(const char *s, struct kvlist *out, char *err, size_t errlen)
{
	size_t len = strlen(s);
	char *buf = xmalloc(len + 1);

	memset(out, 0, sizeof(*out));
	if (!*s)
		goto done;
	for (;;) {
		size_t n = 0, eq = (size_t)-1;
		char quote = 0;
		struct kv *kv;

		for (; *s; s++) {
			if (quote) {
				if (*s == quote) {
					quote = 0;
					continue;
				}
				if (*s == '\\' && s[1] == quote) {
					buf[n++] = *++s;
					continue;
				}
				buf[n++] = *s;
				continue;
			}
			if (*s == ',')
				break;
			if (*s == '\\') {
				if (!s[1]) {
					free(buf);
					kv_release(out);
					return fail(err, errlen,
						    "trailing backslash");
				}
				buf[n++] = *++s;
				continue;
			}
			/* Quotes only start a value, so paths with ' work. */
			if ((*s == '\'' || *s == '"') &&
			    (n == 0 || (eq != (size_t)-1 && n == eq + 1))) {
				quote = *s;
				continue;
			}
			if (*s == '=' && eq == (size_t)-1) {
				eq = n;
				buf[n++] = '=';
				continue;
			}
			buf[n++] = *s;
		}
		if (quote) {
			free(buf);
			kv_release(out);
			return fail(err, errlen, "unbalanced %c quote", quote);
		}
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		kv = &out->v[out->nr++];
		if (eq == (size_t)-1) {
			kv->key = xstrndup(buf, n);
			kv->val = xstrdup("");
			kv->has_val = false;
		} else {
			kv->key = xstrndup(buf, eq);
			kv->val = xstrndup(buf + eq + 1, n - eq - 1);
			kv->has_val = true;
		}
		if (!*kv->key) {
			free(buf);
			kv_release(out);
			return fail(err, errlen, "empty key in option list");
		}
		if (!*s)
			break;
		s++; /* the comma */
	}
done:
	free(buf);
	return 0;
}

void kv_release(struct kvlist *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->v[i].key);
		free(l->v[i].val);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const char *opt_suggest(const struct opt *tab, const char *key)
{
	struct suggest s;

	suggest_init(&s, key);
	for (const struct opt *o = tab; o && o->name; o++)
		suggest_add(&s, o->name);
	return suggest_result(&s);
}

/*
 * One convention for option keys (README "Conventions"): words joined by
 * '-' (`initial-dirs`), with '_' accepted for '-' everywhere (`byte_io` =
 * `byte-io`), so old spellings keep working; the stored options keep
 * each table's canonical name, so earlier runs still compare.
 */
static bool key_eq(const char *name, const char *key)
{
	for (; *name && *key; name++, key++)
		if (*name != *key && !((*name == '-' || *name == '_') &&
				       (*key == '-' || *key == '_')))
			return false;
	return *name == *key;
}

/* Other spellings of the same option across workloads. */
static const char *const key_aliases[][2] = {
	{ "buffer-size", "bufsize" },
};

static const struct opt *opt_find(const struct opt *tab, const char *key)
{
	for (const struct opt *o = tab; o && o->name; o++)
		if (key_eq(o->name, key))
			return o;
	for (size_t i = 0; i < ARRAY_SIZE(key_aliases); i++)
		for (int a = 0; a < 2; a++)
			if (key_eq(key_aliases[i][a], key))
				for (const struct opt *o = tab; o && o->name;
				     o++)
					if (key_eq(o->name,
						   key_aliases[i][!a]))
						return o;
	return NULL;
}

int opt_parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on", "" };
	static const char *const no[] = { "0", "no", "false", "off" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return 0;
		}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return 0;
		}
	return -1;
}

static int set_one(const struct opt *o, void *dst, const char *val, char *err,
		   size_t errlen)
{
	char *field = (char *)dst + o->off;

	switch (o->type) {
	case OPT_BOOL:
		if (opt_parse_bool(val, (bool *)field) < 0)
			return fail(err, errlen,
				    "'%s' is not a boolean for '%s' "
				    "(use yes or no)",
				    val, o->name);
		return 0;
	case OPT_SEED: {
		long long v;

		if (!strcasecmp(val, OPT_SEED_DEFAULT) || !strcmp(val, "-1")) {
			*(long long *)field = OPT_SEED_RUN;
			return 0;
		}
		for (const struct opt_enum *e = o->values; e && e->name; e++)
			if (!strcmp(e->name, val)) {
				*(long long *)field = OPT_SEED_RUN;
				return 0;
			}
		if (parse_int(val, 0, INT64_MAX, &v) < 0)
			return fail(err, errlen,
				    "'%s' is not a seed for '%s' (a number "
				    ">= 0, or run: the run's --seed)",
				    val, o->name);
		*(long long *)field = v;
		return 0;
	}
	case OPT_INT: {
		long long v, min = o->min, max = o->max;

		if (!min && !max) {
			min = INT64_MIN;
			max = INT64_MAX;
		}
		if (parse_int(val, INT64_MIN, INT64_MAX, &v) < 0)
			return fail(err, errlen,
				    "'%s' is not an integer for '%s'", val,
				    o->name);
		if (v < min || v > max)
			return fail(err, errlen,
				    "'%s' is out of range for '%s' "
				    "(%lld..%lld)",
				    val, o->name, min, max);
		*(long long *)field = v;
		return 0;
	}
	case OPT_SIZE: {
		uint64_t v;

		if (parse_size(val, &v) < 0)
			return fail(err, errlen,
				    "'%s' is not a size for '%s' "
				    "(a number with optional k/m/g/t suffix)",
				    val, o->name);
		if ((o->min && v < (uint64_t)o->min) ||
		    (o->max && v > (uint64_t)o->max))
			return fail(err, errlen,
				    "'%s' is out of range for '%s' "
				    "(%lld..%lld bytes)",
				    val, o->name, o->min, o->max);
		*(uint64_t *)field = v;
		return 0;
	}
	case OPT_DOUBLE: {
		char *end;
		double v;

		errno = 0;
		v = strtod(val, &end);
		if (!*val || *end || errno || !isfinite(v))
			return fail(err, errlen,
				    "'%s' is not a number for '%s'", val,
				    o->name);
		if ((o->min || o->max) &&
		    (v < (double)o->min || v > (double)o->max))
			return fail(err, errlen,
				    "'%s' is out of range for '%s' "
				    "(%lld..%lld)",
				    val, o->name, o->min, o->max);
		*(double *)field = v;
		return 0;
	}
	case OPT_STRING:
		free(*(char **)field);
		*(char **)field = xstrdup(val);
		return 0;
	case OPT_ENUM: {
		char names[256] = "";

		for (const struct opt_enum *e = o->values; e && e->name; e++) {
			if (!strcmp(e->name, val)) {
				*(int *)field = e->value;
				return 0;
			}
			if (names[0])
				strncat(names, "|",
					sizeof(names) - strlen(names) - 1);
			strncat(names, e->name,
				sizeof(names) - strlen(names) - 1);
		}
		return fail(err, errlen, "'%s' is not valid for '%s' (one of %s)",
			    val, o->name, names);
	}
	}
	BUG("bad option type %d", o->type);
}

void opt_defaults(const struct opt *tab, void *dst)
{
	char err[256];

	for (const struct opt *o = tab; o && o->name; o++) {
		if (o->type == OPT_STRING)
			*(char **)((char *)dst + o->off) = NULL;
		if (set_one(o, dst, o->def ? o->def : "", err,
			    sizeof(err)) < 0)
			BUG("bad default for option '%s': %s", o->name, err);
	}
}

int opt_set(const struct opt *tab, void *dst, const char *key,
	    const char *val, char *err, size_t errlen)
{
	const struct opt *o = opt_find(tab, key);

	if (!o) {
		const char *s = opt_suggest(tab, key);

		if (s)
			return fail(err, errlen,
				    "unknown option '%s' (did you mean '%s'?)",
				    key, s);
		return fail(err, errlen, "unknown option '%s'", key);
	}
	return set_one(o, dst, val, err, errlen);
}

int opt_parse(const struct opt *tab, void *dst, const char *s, char *err,
	      size_t errlen)
{
	struct kvlist l;
	int rc = 0;

	if (kv_parse(s, &l, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < l.nr && !rc; i++) {
		const struct opt *o = opt_find(tab, l.v[i].key);

		/* A bare "flag" means flag=yes for booleans only. */
		if (o && !l.v[i].has_val && o->type != OPT_BOOL) {
			rc = fail(err, errlen, "option '%s' needs a value",
				  l.v[i].key);
			break;
		}
		rc = opt_set(tab, dst, l.v[i].key, l.v[i].val, err, errlen);
	}
	kv_release(&l);
	return rc;
}

void opt_release(const struct opt *tab, void *dst)
{
	for (const struct opt *o = tab; o && o->name; o++) {
		if (o->type == OPT_STRING) {
			char **f = (char **)((char *)dst + o->off);

			free(*f);
			*f = NULL;
		}
	}
}

/* Quote a value so kv_parse reads it back unchanged. */
static void append_value(struct strbuf *sb, const char *v)
{
	for (const char *p = v; *p; p++) {
		if (*p == ',' || *p == '\\' ||
		    ((*p == '\'' || *p == '"') && p == v))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
}

char *opt_format(const struct opt *tab, const void *dst)
{
	struct strbuf sb = STRBUF_INIT;

	for (const struct opt *o = tab; o && o->name; o++) {
		const char *field = (const char *)dst + o->off;
		char tmp[64];
		const char *v = tmp;

		switch (o->type) {
		case OPT_BOOL:
			v = *(const bool *)field ? "yes" : "no";
			break;
		case OPT_SEED:
			if (*(const long long *)field == OPT_SEED_RUN)
				v = OPT_SEED_DEFAULT;
			else
				snprintf(tmp, sizeof(tmp), "%lld",
					 *(const long long *)field);
			break;
		case OPT_INT:
			snprintf(tmp, sizeof(tmp), "%lld",
				 *(const long long *)field);
			break;
		case OPT_SIZE:
			snprintf(tmp, sizeof(tmp), "%llu",
				 (unsigned long long)*(const uint64_t *)field);
			break;
		case OPT_DOUBLE:
			snprintf(tmp, sizeof(tmp), "%.17g",
				 *(const double *)field);
			break;
		case OPT_STRING:
			v = *(char *const *)field ? *(char *const *)field : "";
			break;
		case OPT_ENUM:
			v = "?";
			for (const struct opt_enum *e = o->values; e && e->name;
			     e++)
				if (e->value == *(const int *)field)
					v = e->name;
			break;
		}
		strbuf_addf(&sb, "%s%s=", sb.len ? "," : "", o->name);
		append_value(&sb, v);
	}
	return strbuf_detach(&sb, NULL);
}

static const char *type_name(enum opt_type t)
{
	switch (t) {
	case OPT_BOOL: return "bool";
	case OPT_INT: return "int";
	case OPT_SIZE: return "size";
	case OPT_STRING: return "string";
	case OPT_ENUM: return "enum";
	case OPT_DOUBLE: return "number";
	case OPT_SEED: return "seed";
	}
	return "?";
}

const char *opt_default_text(const struct opt *o)
{
	if (o->type == OPT_SEED && o->def &&
	    !strcmp(o->def, OPT_SEED_DEFAULT))
		return "run (the run's --seed)";
	return o->def && *o->def ? o->def : "(none)";
}

char *opt_canonical(const struct opt *tab, size_t size, const char *stored,
		    const uint64_t *run_seed)
{
	void *o = xcalloc(1, size ? size : 1);
	char err[256], *s = NULL;

	opt_defaults(tab, o);
	if (!opt_parse(tab, o, stored ? stored : "", err, sizeof(err))) {
		for (const struct opt *r = tab; run_seed && r->name; r++) {
			long long *v = (long long *)((char *)o + r->off);

			if (r->type == OPT_SEED && *v != OPT_SEED_RUN &&
			    (uint64_t)*v == *run_seed)
				*v = OPT_SEED_RUN;
		}
		s = opt_format(tab, o);
	}
	opt_release(tab, o);
	free(o);
	return s;
}

void opt_help(FILE *out, const struct opt *tab, const char *indent)
{
	for (const struct opt *o = tab; o && o->name; o++) {
		bool run_seed = o->type == OPT_SEED && o->def &&
				!strcmp(o->def, OPT_SEED_DEFAULT);

		fprintf(out, "%s%-16s %-6s default %-10s %s%s\n", indent,
			o->name, type_name(o->type),
			run_seed ? o->def : opt_default_text(o), o->help,
			run_seed ? " (run: the run's --seed)" : "");
		/* a seed's values are old spellings, not choices */
		for (const struct opt_enum *e = o->type == OPT_ENUM ?
						o->values : NULL;
		     e && e->name; e++)
			fprintf(out, "%s%16s   %-10s %s\n", indent, "", e->name,
				e->help ? e->help : "");
	}
}
