/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shquote.c - POSIX shell quoting.  Single quotes keep everything
 * literal except the quote itself, written '\'' ; words made only of
 * characters no shell treats specially stay bare so the common command
 * line reads as the user typed it.
 */
#include "util/shquote.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static bool is_safe(const char *s)
{
	if (!*s)
		return false;
	/* '=' and ',' are safe in words but '=' first is not for zsh. */
	if (*s == '=' || *s == '~')
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "@%+=:,./-_", *s))
			return false;
	return true;
}

char *sh_quote(const char *word)
{
	size_t n = 3;
	char *out, *p;

	if (is_safe(word))
		return xstrdup(word);
	for (const char *s = word; *s; s++)
		n += *s == '\'' ? 4 : 1;
	out = p = xmalloc(n);
	*p++ = '\'';
	for (const char *s = word; *s; s++) {
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *s;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

char *sh_join(size_t argc, const char *const *argv)
{
	size_t len = 1, used = 0;
	char *out = xmalloc(len);

	*out = '\0';
	for (size_t i = 0; i < argc; i++) {
		char *q = sh_quote(argv[i]);
		size_t n = strlen(q);

		out = xrealloc(out, used + n + 2);
		if (used)
			out[used++] = ' ';
		memcpy(out + used, q, n + 1);
		used += n;
		free(q);
	}
	return out;
}
