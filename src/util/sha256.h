/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sha256.h - SHA-256 (FIPS 180-4) as hex, through nettle: the content
 * checksum of export files and the hash of fio job files.
 */
#ifndef FSLAB_SHA256_H
#define FSLAB_SHA256_H

#include <stddef.h>

/* The digest of data[0..len) as 64 lower-case hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char out[65]);

#endif
