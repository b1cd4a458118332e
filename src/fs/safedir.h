/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safedir.h - directories nobody but fslab's own user can redirect.
 *
 * fslab runs as root and creates images, mount points and workload
 * directories by name.  A name is only as safe as the directories on its
 * way: if another user may write to any of them, that user can swap an
 * entry for a symlink between fslab's check and its use.  A directory is
 * "safe" when every ancestor is owned by root (or us) and is not writable
 * by group or others unless sticky (as /tmp and /var/tmp are), and the
 * directory itself is owned by us and writable by nobody else.  A leaf
 * module: it depends on util/ only.
 */
#ifndef FSLAB_SAFEDIR_H
#define FSLAB_SAFEDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Is path a safe directory (see above)?  0, or -1 with a reason naming
 * the fix in why ("... is owned by uid 65534; remove it or use another
 * --scratch").  errno is ENOENT when path (or an ancestor) is missing.
 */
int safedir_check(const char *path, char *why, size_t len);

/*
 * Create path (mode 0700, parents 0755) unless it exists, check it is
 * safe and open it (O_DIRECTORY, no symlink followed in its last
 * component).  Returns the fd and, in *canon, its canonical path
 * (caller frees); -1 with the reason in why.
 */
int safedir_open(const char *path, char **canon, char *why, size_t len);

/* Is name one plain component ("a", not "", ".", "..", "a/b")? */
bool safedir_plain_name(const char *name);

#endif
