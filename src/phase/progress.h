/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * progress.h - what a running `fslab run` shows while it measures.
 *
 * On a terminal (stderr a tty, TERM not dumb) one status line for the
 * running phase is redrawn in place four times a second by a timer
 * thread: target k of N, repetition, workload, phase, elapsed, the
 * phase's own progress (files/bytes and their rate, from phase_progress()
 * or else the device's I/O counters) and an ETA when the workload said
 * how much work to expect (phase_expect()).  Otherwise one plain line
 * per finished phase.  --quiet: neither.
 *
 * The measuring thread never formats or writes anything for it: the
 * phase API only stores into atomics, which the timer thread reads.
 * The timer thread is part of the process, so its CPU time is in every
 * phase's own-CPU figure (getrusage(RUSAGE_SELF) counts all threads).
 */
#ifndef FSLAB_PROGRESS_H
#define FSLAB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct phase_rec;

enum progress_mode {
	PROGRESS_AUTO,  /* redraw on a terminal, plain lines otherwise */
	PROGRESS_LINES, /* plain lines even on a terminal */
	PROGRESS_OFF,   /* --quiet */
};

/* Start (idempotent); the run loop calls it, and progress_stop() at end. */
void progress_start(enum progress_mode mode);
void progress_stop(void);

/* Where the run is: target k (from 1) of n named name, repetition rep
 * (from 0) of reps (0: unknown, --until-cov). */
void progress_where(size_t k, size_t n, const char *name, int rep, int reps);
/* Between phases: a step that takes time of its own (mkfs, aging); NULL
 * ends it. */
void progress_step(const char *what);

/* Called by the phase API (src/phase/phase.c) around every phase. */
void progress_phase_begin(const char *workload, const char *phase,
			  const char *label, const char *devname);
void progress_phase_end(const struct phase_rec *rec);

/* What workloads print their notes to (ctx->progress): clears the
 * status line first on a terminal, discards with --quiet, else stderr. */
FILE *progress_stream(void);
/* Work done in the running phase, for the status line (phase_progress). */
void progress_count(uint64_t bytes, uint64_t files, uint64_t ops);

/* Pure helpers, unit-tested: "1m05s", "3.2 s"; an ETA in seconds or -1. */
char *progress_fmt_secs(char *buf, size_t len, double secs);
double progress_eta(double elapsed, uint64_t done, uint64_t expected);

#endif
