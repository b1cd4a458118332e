/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shquote.h - quote words for a POSIX shell, so a stored command line
 * can be pasted back into a terminal and run as it was.
 */
#ifndef FSLAB_SHQUOTE_H
#define FSLAB_SHQUOTE_H

#include <stddef.h>

/* One word: as is when it holds only safe characters, else '...'. */
char *sh_quote(const char *word);
/* argv[0..argc) quoted and joined with blanks; allocated. */
char *sh_join(size_t argc, const char *const *argv);

#endif
