/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * golden.h - aged-image golden copies: `fslab age --save NAME` keeps the
 * aged loop image as <scratch>/golden/NAME.img with NAME.meta beside it
 * (checksum, profile, seed, fstype, mkfs and mount options, operation
 * count), and the target spec aged:NAME starts every use from a fresh
 * copy, so every repetition sees the same aged state.
 *
 * Copies are sparse (SEEK_DATA/SEEK_HOLE + copy_file_range), or a
 * reflink (FICLONE) where the scratch filesystem can; a copy that does
 * not fit in the scratch filesystem is refused with the numbers.
 *
 * The checksum is "fnv1a64w:HEX": FNV-1a over 64-bit words of every
 * 4 KiB block that is not all zero, each preceded by its offset - the
 * same for a file however its zeros are stored (hole or data).  It
 * detects accidental change, not tampering; it is not a cryptographic
 * hash.
 */
#ifndef FSLAB_FS_GOLDEN_H
#define FSLAB_FS_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct golden_meta {
	char *checksum, *fstype, *mkfs_args, *mount_opts, *mkfs_version;
	char *profile, *source;
	uint64_t seed, ops, size;
	double fullness;
};

/* Letters, digits, '.', '_', '-'; not starting with '.'. */
bool golden_name_ok(const char *name);
/* <scratch>/golden/NAME.img and .meta (new strings). */
char *golden_image_path(const char *scratch, const char *name);
char *golden_meta_path(const char *scratch, const char *name);

/* Copy src to the new file dst (must not exist).  0, -1 on failure, -2
 * when the destination filesystem lacks room (message with numbers). */
int golden_copy(const char *src, const char *dst);
/* "fnv1a64w:..." of path into out (>= 26 bytes).  0 or -1. */
int golden_checksum(const char *path, char *out, size_t len);

/* Copy image into the golden store as NAME (replacing an older NAME),
 * checksum it, fill m->checksum and m->size, write the meta file. */
int golden_save(const char *scratch, const char *name, const char *image,
		struct golden_meta *m);
/*
 * Parse a .meta file's text (len bytes, NUL-terminated, modified in
 * place); path is for messages.  Strict: every line is a comment, blank
 * or a known key=value given once; checksum, size and fstype are
 * required.  0, or -1 with "PATH:LINE: what was expected" printed.
 */
int golden_parse_meta(const char *path, char *text, size_t len,
		      struct golden_meta *m);
/* Read NAME.meta.  0, or -1 (message names the file). */
int golden_load_meta(const char *scratch, const char *name,
		     struct golden_meta *m);
void golden_meta_release(struct golden_meta *m);

#endif
