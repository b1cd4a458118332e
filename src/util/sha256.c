/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sha256.c - SHA-256 as hex (sha256.h), from nettle: the digest is
 * nobody's to hand-roll.
 */
#include "util/sha256.h"

#include <nettle/sha2.h>
#include <stdint.h>
#include <stdio.h>

void sha256_hex(const void *data, size_t len, char out[65])
{
	struct sha256_ctx c;
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256_init(&c);
	sha256_update(&c, len, data);
	sha256_digest(&c, SHA256_DIGEST_SIZE, d);
	for (size_t i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
	out[64] = '\0';
}
