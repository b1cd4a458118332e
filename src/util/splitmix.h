/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * splitmix.h - SplitMix64 (Steele, Lea, Flood: "Fast splittable
 * pseudorandom number generators", OOPSLA 2014), the one copy: a
 * counter-based 64-bit generator whose output for counter x is
 * splitmix64(x), so any draw can be recomputed from its index.  Header
 * only: the verify pattern runs it at gigabytes per second.
 */
#ifndef FSLAB_UTIL_SPLITMIX_H
#define FSLAB_UTIL_SPLITMIX_H

#include <stdint.h>

/* The golden-ratio increment between successive states. */
#define SPLITMIX64_GAMMA 0x9e3779b97f4a7c15ULL

/* The output function (Stafford's "Mix13"), a bijection on 64 bits. */
static inline uint64_t splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The output after the state x: mix(x + gamma). */
static inline uint64_t splitmix64(uint64_t x)
{
	return splitmix64_mix(x + SPLITMIX64_GAMMA);
}

#endif
