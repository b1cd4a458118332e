/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What an empty strbuf points at: readable, never written (alloc 0). */
char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = strbuf_slopbuf;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *s;

	strbuf_grow(sb, 0);  /* the slop buffer is not ours to hand out */
	s = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return s;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	bool fresh = !sb->alloc;
	size_t want;

	if (extra > SIZE_MAX - sb->len - 1)
		die("strbuf: %zu + %zu bytes do not fit", sb->len, extra);
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return;
	if (fresh)
		sb->buf = NULL;
	sb->alloc = want < 2 * sb->alloc ? 2 * sb->alloc
		    : want < 16 ? 16 : want;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	if (fresh)
		sb->buf[0] = '\0';
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0,
		      fmt, ap);
	va_end(ap);
	if (n < 0)
		die("strbuf: bad format '%s'", fmt);
	if ((size_t)n >= (sb->alloc ? sb->alloc - sb->len : 0)) {
		strbuf_grow(sb, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

char *argv_join(const char *prefix, int argc, char *const *argv)
{
	struct strbuf sb = STRBUF_INIT;

	if (prefix)
		strbuf_addstr(&sb, prefix);
	for (int i = 0; i < argc; i++) {
		if (sb.len)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, argv[i]);
	}
	return strbuf_detach(&sb, NULL);
}
