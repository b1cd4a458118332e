/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify.h - verifiable file data for `fslab run --verify`.
 *
 * The content of a file is a pure function of (file id, absolute file
 * offset, seed), so a write of any length at any offset fills its bytes
 * from the pattern and a read of any range can be checked.  Every 4 KiB
 * block (at a multiple of 4096 in the file) starts with a 32-byte header
 *
 *	u32 magic "FSLV", u32 check (a hash of the three fields below),
 *	u64 file id, u64 block offset, u64 seed      (host byte order)
 *
 * followed by 4064 pseudo-random bytes: a counter-based splitmix64 stream
 * keyed by the header fields (several GB/s per core; bench/verify-
 * overhead.sh measures it).  On a mismatch the header tells what the block
 * holds instead: another block of ours (misdirected or stale write),
 * zeros, or garbage.
 *
 * File id: verify_file_id() of the path relative to the workload's
 * directory (ctx->dir), so the final pass can recompute it by walking the
 * tree; workloads that never rename a file use that everywhere.
 */
#ifndef FSLAB_VERIFY_H
#define FSLAB_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VERIFY_BLOCK 4096u
#define VERIFY_HDR 32u
#define VERIFY_MAGIC 0x56534c46u /* "FLSV" in memory on little endian */

struct wl_ctx;
struct phase;

/* FNV-1a 64 of a relative path: the file id the workloads use. */
uint64_t verify_file_id(const char *relpath);

/* Fill buf with the pattern bytes [off, off + len) of file id. */
void verify_fill(uint64_t seed, uint64_t id, uint64_t off, void *buf,
		 size_t len);

/* Where and how data differed from the pattern. */
struct verify_bad {
	uint64_t block;     /* file offset of the block that differs */
	uint64_t byte;      /* file offset of the first differing byte */
	char what[192];     /* what the block holds instead */
};

/*
 * Check that buf holds the pattern bytes [off, off + len) of file id.
 * Returns true when it does; false with *bad describing the first
 * differing block.
 */
bool verify_check(uint64_t seed, uint64_t id, uint64_t off,
		  const void *buf, size_t len, struct verify_bad *bad);

/*
 * Read fd from offset 0 to EOF and check it.  Returns 0 when it all
 * matches, 1 on a mismatch (*bad filled), -1 on a read error (errno).
 * *bytes (may be NULL) receives the bytes read.
 */
int verify_fd(int fd, uint64_t seed, uint64_t id, struct verify_bad *bad,
	      uint64_t *bytes);

/* verify_fail() and verify_phase_tree(), which run phases, are declared
 * in workload.h (src/phase/phase_verify.c). */

#endif
