/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pyrand.h - a random generator that draws exactly what CPython 3's
 * random.Random(seed) draws: MT19937 seeded with init_by_array, and the
 * same reductions for getrandbits, randbelow, randint, choice, shuffle
 * and random().  Compilebench's op sequence is defined by those draws, so
 * reproducing it bit for bit is what keeps fslab's runs comparable with
 * the Python tool's.
 */
#ifndef FSLAB_PYRAND_H
#define FSLAB_PYRAND_H

#include <stddef.h>
#include <stdint.h>

#define PYRAND_N 624

struct pyrand {
	uint32_t mt[PYRAND_N];
	int mti;
};

/* Like random.Random(seed) for a non-negative integer seed. */
void pyrand_seed(struct pyrand *r, uint64_t seed);
/* genrand_uint32(): the raw 32-bit output. */
uint32_t pyrand_u32(struct pyrand *r);
/* getrandbits(k) for 0 <= k <= 64. */
uint64_t pyrand_getrandbits(struct pyrand *r, unsigned k);
/* _randbelow(n) for n >= 1 (rejection sampling; n = 1 still draws). */
uint64_t pyrand_below(struct pyrand *r, uint64_t n);
/* randint(a, b), a <= b. */
int64_t pyrand_randint(struct pyrand *r, int64_t a, int64_t b);
/* random(): a double in [0, 1) built from 53 bits. */
double pyrand_random(struct pyrand *r);
/* shuffle(): in place, n elements of size bytes each. */
void pyrand_shuffle(struct pyrand *r, void *base, size_t n, size_t size);

#endif
