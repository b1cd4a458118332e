/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify.c - the --verify data pattern, its checker and the final pass.
 * Layout and file ids: see verify.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/interrupt.h"
#include "util/splitmix.h"
#include "util/util.h"
#include "util/verify.h"

static uint32_t hdr_check(uint64_t id, uint64_t block, uint64_t seed)
{
	uint64_t k = splitmix64_mix(seed ^ VERIFY_MAGIC);

	return (uint32_t)splitmix64_mix(id ^ splitmix64_mix(block ^ k));
}

/* The stream key: distinct per block, so no two blocks share a body. */
static uint64_t body_key(uint64_t id, uint64_t block, uint64_t seed)
{
	uint64_t k = splitmix64_mix(block + SPLITMIX64_GAMMA *
						 splitmix64_mix(seed));

	return splitmix64_mix(id + SPLITMIX64_GAMMA * k);
}

uint64_t verify_file_id(const char *relpath)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *p = (const unsigned char *)relpath; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return h;
}

/*
 * One whole block.  Every word is an independent function of its
 * counter (no carried state), so the loop pipelines well: that is what
 * keeps generation far above any disk's speed.
 */
static void gen_block(uint64_t seed, uint64_t id, uint64_t block,
		      uint64_t *w)
{
	uint64_t k = body_key(id, block, seed);
	uint32_t hdr[2] = { VERIFY_MAGIC, hdr_check(id, block, seed) };

	memcpy(&w[0], hdr, sizeof(hdr));
	w[1] = id;
	w[2] = block;
	w[3] = seed;
	for (size_t i = VERIFY_HDR / 8; i < VERIFY_BLOCK / 8; i++)
		w[i] = splitmix64_mix(k + SPLITMIX64_GAMMA * i);
}

void verify_fill(uint64_t seed, uint64_t id, uint64_t off, void *buf,
		 size_t len)
{
	unsigned char *p = buf;
	uint64_t tmp[VERIFY_BLOCK / 8];

	while (len) {
		uint64_t block = off & ~(uint64_t)(VERIFY_BLOCK - 1);
		size_t in = (size_t)(off - block);
		size_t n = VERIFY_BLOCK - in;

		if (n > len)
			n = len;
		if (!in && n == VERIFY_BLOCK &&
		    !((uintptr_t)p & (sizeof(uint64_t) - 1))) {
			gen_block(seed, id, block, (uint64_t *)(void *)p);
		} else {
			gen_block(seed, id, block, tmp);
			memcpy(p, (unsigned char *)tmp + in, n);
		}
		p += n;
		off += n;
		len -= n;
	}
}

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * Say what a block that is not what we expected holds.  got is the part
 * of it we read, starting in-block offset `in` (0 when we have its
 * header).
 */
static void describe(uint64_t seed, uint64_t id, uint64_t block,
		     const unsigned char *got, size_t in, size_t n,
		     size_t first, char *what, size_t len)
{
	uint64_t tmp[VERIFY_BLOCK / 8];
	uint32_t hdr[2];
	uint64_t hid, hblock, hseed;

	if (all_zero(got, n)) {
		snprintf(what, len, "block holds zeros (lost write or hole)");
		return;
	}
	if (in || n < VERIFY_HDR) {
		snprintf(what, len, "data differ from byte %zu of the block "
			 "(its header was not read)", in + first);
		return;
	}
	memcpy(hdr, got, sizeof(hdr));
	memcpy(&hid, got + 8, 8);
	memcpy(&hblock, got + 16, 8);
	memcpy(&hseed, got + 24, 8);
	if (hdr[0] != VERIFY_MAGIC || hdr[1] != hdr_check(hid, hblock, hseed)) {
		snprintf(what, len, "block holds garbage (no fslab header)");
		return;
	}
	if (hid == id && hblock == block && hseed == seed) {
		snprintf(what, len, "header is right, data corrupt from byte "
			 "%zu of the block", first);
		return;
	}
	gen_block(hseed, hid, hblock, tmp);
	snprintf(what, len, "block holds file %016llx offset %llu%s%.0llu "
		 "(%s)", (unsigned long long)hid, (unsigned long long)hblock,
		 hseed != seed ? " seed " : "",
		 hseed != seed ? (unsigned long long)hseed : 0ULL,
		 memcmp(tmp, got, n) ? "misplaced header, corrupt data" :
		 hid == id ? "misdirected write within the file" :
			     "misdirected write");
}

bool verify_check(uint64_t seed, uint64_t id, uint64_t off,
		  const void *buf, size_t len, struct verify_bad *bad)
{
	const unsigned char *p = buf;
	uint64_t tmp[VERIFY_BLOCK / 8];

	while (len) {
		uint64_t block = off & ~(uint64_t)(VERIFY_BLOCK - 1);
		size_t in = (size_t)(off - block);
		size_t n = VERIFY_BLOCK - in;
		const unsigned char *want = (unsigned char *)tmp + in;

		if (n > len)
			n = len;
		gen_block(seed, id, block, tmp);
		if (memcmp(p, want, n)) {
			size_t first = 0;

			while (p[first] == want[first])
				first++;
			bad->block = block;
			bad->byte = off + first;
			describe(seed, id, block, p, in, n, first, bad->what,
				 sizeof(bad->what));
			return false;
		}
		p += n;
		off += n;
		len -= n;
	}
	return true;
}

int verify_fd(int fd, uint64_t seed, uint64_t id, struct verify_bad *bad,
	      uint64_t *bytes)
{
	const size_t chunk = 1 << 20;
	char *buf = xmalloc(chunk);
	uint64_t off = 0;
	int ret = 0;

	for (;;) {
		ssize_t n = pread(fd, buf, chunk, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -1;
			break;
		}
		if (!n)
			break;
		if (!verify_check(seed, id, off, buf, (size_t)n, bad)) {
			ret = 1;
			break;
		}
		off += (uint64_t)n;
		if (interrupt_requested())
			break;
	}
	if (bytes)
		*bytes = off;
	free(buf);
	return ret;
}
