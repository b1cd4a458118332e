/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tarball.h - read a tar archive (plain, gzip, bzip2, xz, zstd: whatever
 * libarchive recognises) entry by entry, with the time and CPU spent
 * inside libarchive - decompression and tar parsing - kept apart, so the
 * `tree` workload can report filesystem time without the decompressor's.
 *
 * Paths come out normalised and safe to create under a directory: no
 * leading "/" or "./", no trailing "/", and entries with a ".."
 * component are skipped (counted), as are devices, fifos and sockets.
 */
#ifndef FSLAB_TARBALL_H
#define FSLAB_TARBALL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/treemodel.h"

struct archive;

struct tar_entry {
	const char *path;    /* normalised, valid until the next call */
	enum tm_type type;
	uint64_t size;       /* TM_FILE: bytes of data to read */
	const char *target;  /* TM_LINK: contents; hard link: its source */
	bool hardlink;       /* TM_FILE that is a hard link to ->target */
	unsigned mode;       /* permission bits */
};

struct tarball {
	struct archive *a;
	char *name;                 /* for messages */
	uint64_t lib_ns;            /* wall time inside libarchive */
	uint64_t lib_cpu_ns;        /* this thread's CPU inside libarchive */
	size_t skipped;             /* entries not returned (see above) */
	size_t nr;                  /* entries read, for messages */
	struct treemodel links;     /* symlink entries so far */
	char path[PATH_MAX];
	char target[PATH_MAX];
};

/* Open a compressed or plain tar file.  0, or -1 (message printed). */
int tarball_open(struct tarball *t, const char *path);
/* Open an archive held in memory (name labels messages). */
int tarball_open_memory(struct tarball *t, const void *buf, size_t len,
			const char *name);
/* Next entry: 1, 0 at the end, -1 on a bad archive (message printed). */
int tarball_next(struct tarball *t, struct tar_entry *e);
/* Data of the current file entry: bytes read, 0 at its end, or -1. */
ssize_t tarball_read(struct tarball *t, void *buf, size_t len);
/* Open an uncompressed tar stream read from fd (a pipe). */
int tarball_open_fd(struct tarball *t, int fd, const char *name);
void tarball_close(struct tarball *t);
/*
 * Decompress the file into fd as an uncompressed tar stream, as bzip2
 * does for `tar xjf`: run in a thread of its own so the caller unpacks
 * while it decompresses.  *cpu_ns gets this thread's CPU time.  A reader
 * that closed its end (EPIPE) is not an error.  0, or -1 (message
 * printed).
 */
int tarball_decompress_fd(const char *path, int fd, uint64_t *cpu_ns);
/*
 * Decompress the whole file into memory (an uncompressed tar), for
 * runs whose timed phase must be filesystem work only.  *buf is
 * malloc'd.  0, or -1 (message printed).
 */
int tarball_decompress(const char *path, char **buf, size_t *len);
/*
 * The tree an archive holds, in archive order (m initialised): files
 * with sizes (a hard link as a file of its source's size), symbolic
 * links, directories.  0, or -1 (message printed).
 */
int tarball_load(struct treemodel *m, const char *path);
/*
 * Normalise an archive path into out (see above).  Returns 0, or -1 when
 * the entry must be skipped ("..", empty after normalisation, too long).
 * Pure; unit-tested.
 */
int tarball_norm_path(const char *in, char *out, size_t outlen);

#endif
