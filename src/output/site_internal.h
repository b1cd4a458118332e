/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * site_internal.h - what site.c (the pages) and sitefile.c (the
 * directory and its files) share.
 */
#ifndef FSLAB_OUTPUT_SITE_INTERNAL_H
#define FSLAB_OUTPUT_SITE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* Open dir (creating it, with the marker, when missing or empty); the
 * fd, or -1 with a message when it is not fslab site's. */
int site_dir_open(const char *dir);
/* Put buf[0..len) at name in dfd unless it holds exactly that;
 * *written (optional) says which.  0, or -1 with a message. */
int site_put(int dfd, const char *name, const char *buf, size_t len,
	     bool *written);
/* Remove every page (*.html) of dfd not in keep (sorted here). */
int site_prune(int dfd, char **keep, size_t nkeep, size_t *removed);

#endif
