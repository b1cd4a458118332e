/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * defaults.h - defaults that several commands share, named once so that
 * `fslab run`, `fslab compilebench`, `fslab age` and a target's age=
 * cannot drift apart.
 */
#ifndef FSLAB_UTIL_DEFAULTS_H
#define FSLAB_UTIL_DEFAULTS_H

/* --seed of run and compilebench: compilebench 0.6's random.Random() seed */
#define FSLAB_DEFAULT_SEED 555
/* share of the filesystem aging fills (fslab age --fullness, age=) */
#define FSLAB_DEFAULT_FULLNESS 0.8
/* fslab age --seed, and the seed of a target's age=PROFILE */
#define FSLAB_DEFAULT_AGE_SEED 1
/* aging converges when every distribution distance is at most this */
#define FSLAB_DEFAULT_AGE_TOLERANCE 0.01
/* aging stops after writing this many times the capacity */
#define FSLAB_DEFAULT_AGE_BUDGET_X 30

/* A default as a string literal, for help texts and option tables. */
#define FSLAB_STR(x) FSLAB_STR_(x)
#define FSLAB_STR_(x) #x

#endif
