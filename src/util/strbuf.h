/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * strbuf.h - a growing string, after git's strbuf.
 *
 * Invariants (every function keeps them, so code may rely on them):
 *  - buf is never NULL and always NUL-terminated: buf[len] == '\0';
 *  - alloc == 0 means nothing is allocated and buf points to a shared
 *    empty string that must not be written; otherwise len < alloc and
 *    buf is owned by the strbuf;
 *  - len counts the bytes before the terminator; the content may hold
 *    NULs of its own when added with strbuf_add().
 *
 *	struct strbuf sb = STRBUF_INIT;
 *
 *	strbuf_addf(&sb, "%s=%d", key, v);
 *	use(sb.buf);
 *	strbuf_release(&sb);      (or: char *s = strbuf_detach(&sb, NULL);)
 *
 * Allocation failure dies (xrealloc), like everything in util.
 */
#ifndef FSLAB_UTIL_STRBUF_H
#define FSLAB_UTIL_STRBUF_H

#include <stddef.h>

#include "util/util.h"

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
/* Free the buffer; sb is empty (STRBUF_INIT) afterwards. */
void strbuf_release(struct strbuf *sb);
/* The buffer, now the caller's (never NULL); sb is empty afterwards. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Room for at least extra more bytes (plus the terminator). */
void strbuf_grow(struct strbuf *sb, size_t extra);
/* Empty the string, keeping the allocation. */
void strbuf_reset(struct strbuf *sb);

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) PRINTF(2, 3);

/*
 * prefix, then each argv[i] after a space: a command line as one string
 * ("fslab run -t ext4").  prefix may be NULL or "".  Allocated.
 */
char *argv_join(const char *prefix, int argc, char *const *argv);

#endif
