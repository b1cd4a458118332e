/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonout.c - the shared JSON helpers (see jsonout.h for the rules).
 */
#include "util/jsonout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/outfile.h"
#include "util/util.h"

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when invalid. */
static size_t utf8_seq(const unsigned char *p)
{
	size_t n;
	unsigned cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* jansson refuses invalid UTF-8: a stray byte in a path must not lose
 * the string (or the document), so each such byte becomes U+FFFD. */
json_t *jout_str(const char *s)
{
	const unsigned char *p;
	char *copy, *q;
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	q = copy = xmalloc(3 * strlen(s) + 1);
	for (p = (const unsigned char *)s; *p; ) {
		size_t n = utf8_seq(p);

		if (n) {
			memcpy(q, p, n);
			q += n;
			p += n;
		} else {
			memcpy(q, "\xef\xbf\xbd", 3);
			q += 3;
			p++;
		}
	}
	*q = '\0';
	j = json_string(copy);
	free(copy);
	if (!j)
		BUG("jout_str: repaired string still refused");
	return j;
}

json_t *jout_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *jout_u64(uint64_t v)
{
	char buf[24];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return json_string(buf);
}

json_t *jout_nums(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		jout_push(a, jout_num(x[i]));
	return a;
}

void jout_set(json_t *o, const char *key, json_t *v)
{
	if (json_object_set_new(o, key, v ? v : json_null()))
		BUG("cannot set JSON key '%s'", key);
}

void jout_push(json_t *a, json_t *v)
{
	if (json_array_append_new(a, v ? v : json_null()))
		BUG("cannot append to a JSON array");
}

#define JOUT_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | \
		    JSON_REAL_PRECISION(17))

char *jout_dumps(json_t *root)
{
	char *s = json_dumps(root, JOUT_FLAGS), *out;

	if (!s)
		return NULL;
	out = xasprintf("%s\n", s);
	free(s);
	return out;
}

int jout_write(json_t *root, const char *path, const char *what)
{
	char *s = jout_dumps(root);
	struct outfile of;
	int rc;

	if (!s)
		return error("cannot serialize %s to JSON", what);
	if (!outfile_open(&of, path)) {
		free(s);
		return -1;
	}
	if (fputs(s, of.f) < 0) {
		error_errno("cannot write %s to '%s'", what,
			    strcmp(path, "-") ? path : "stdout");
		outfile_abort(&of);
		rc = -1;
	} else {
		rc = outfile_commit(&of);
	}
	free(s);
	return rc;
}
