/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pyrand.c - CPython 3 compatible MT19937 (see pyrand.h).  The generator
 * is the reference MT19937 by Matsumoto and Nishimura; the reductions on
 * top of it follow CPython's Lib/random.py and Modules/_randommodule.c so
 * that a given seed yields the same sequence of values.
 */
#include "util/pyrand.h"

#include <string.h>

#include "util/util.h"

#define MT_M 397
#define MATRIX_A 0x9908b0dfU
#define UPPER_MASK 0x80000000U
#define LOWER_MASK 0x7fffffffU

static void init_genrand(struct pyrand *r, uint32_t s)
{
	r->mt[0] = s;
	for (int i = 1; i < PYRAND_N; i++)
		r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) +
			   (uint32_t)i;
	r->mti = PYRAND_N;
}

static void init_by_array(struct pyrand *r, const uint32_t *key, size_t len)
{
	size_t i = 1, j = 0, k;
	uint32_t *mt = r->mt;

	init_genrand(r, 19650218U);
	for (k = PYRAND_N > len ? PYRAND_N : len; k; k--) {
		mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) +
			key[j] + (uint32_t)j;
		i++;
		j++;
		if (i >= PYRAND_N) {
			mt[0] = mt[PYRAND_N - 1];
			i = 1;
		}
		if (j >= len)
			j = 0;
	}
	for (k = PYRAND_N - 1; k; k--) {
		mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) *
				  1566083941U)) - (uint32_t)i;
		i++;
		if (i >= PYRAND_N) {
			mt[0] = mt[PYRAND_N - 1];
			i = 1;
		}
	}
	mt[0] = 0x80000000U;
}

/*
 * CPython splits abs(seed) into 32-bit words, least significant first;
 * zero becomes the one-word key {0}.
 */
void pyrand_seed(struct pyrand *r, uint64_t seed)
{
	uint32_t key[2];
	size_t len = 1;

	key[0] = (uint32_t)seed;
	key[1] = (uint32_t)(seed >> 32);
	if (key[1])
		len = 2;
	init_by_array(r, key, len);
}

uint32_t pyrand_u32(struct pyrand *r)
{
	uint32_t y;

	if (r->mti >= PYRAND_N) {
		static const uint32_t mag01[2] = { 0, MATRIX_A };
		uint32_t *mt = r->mt;
		int kk;

		for (kk = 0; kk < PYRAND_N - MT_M; kk++) {
			y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
			mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1];
		}
		for (; kk < PYRAND_N - 1; kk++) {
			y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
			mt[kk] = mt[kk + (MT_M - PYRAND_N)] ^ (y >> 1) ^
				 mag01[y & 1];
		}
		y = (mt[PYRAND_N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
		mt[PYRAND_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1];
		r->mti = 0;
	}
	y = r->mt[r->mti++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680U;
	y ^= (y << 15) & 0xefc60000U;
	y ^= y >> 18;
	return y;
}

/* Words are filled least significant first; the last one is shifted. */
uint64_t pyrand_getrandbits(struct pyrand *r, unsigned k)
{
	uint64_t lo;

	if (k == 0)
		return 0;
	if (k > 64)
		BUG("getrandbits(%u) is limited to 64 bits", k);
	if (k <= 32)
		return pyrand_u32(r) >> (32 - k);
	lo = pyrand_u32(r);
	return lo | ((uint64_t)(pyrand_u32(r) >> (64 - k)) << 32);
}

uint64_t pyrand_below(struct pyrand *r, uint64_t n)
{
	unsigned k = 0;
	uint64_t v;

	if (!n)
		BUG("randbelow(0)");
	for (v = n; v; v >>= 1)
		k++;
	do
		v = pyrand_getrandbits(r, k);
	while (v >= n);
	return v;
}

int64_t pyrand_randint(struct pyrand *r, int64_t a, int64_t b)
{
	if (b < a)
		BUG("randint(%lld, %lld)", (long long)a, (long long)b);
	return a + (int64_t)pyrand_below(r, (uint64_t)(b - a) + 1);
}

double pyrand_random(struct pyrand *r)
{
	uint32_t a = pyrand_u32(r) >> 5, b = pyrand_u32(r) >> 6;

	return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

void pyrand_shuffle(struct pyrand *r, void *base, size_t n, size_t size)
{
	unsigned char *p = base, tmp[64];

	if (size > sizeof(tmp))
		BUG("pyrand_shuffle element too large (%zu)", size);
	for (size_t i = n ? n - 1 : 0; i >= 1; i--) {
		size_t j = (size_t)pyrand_below(r, i + 1);

		if (j == i)
			continue;
		memcpy(tmp, p + i * size, size);
		memcpy(p + i * size, p + j * size, size);
		memcpy(p + j * size, tmp, size);
	}
}
