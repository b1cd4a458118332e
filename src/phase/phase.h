/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase.h - phase hooks: called around every phase of every workload of
 * a run (block tracing, --pause-before).  The run configuration carries
 * them (struct run_config), so a hook lives exactly as long as its run;
 * begin runs in the order given, end in reverse.
 */
#ifndef FSLAB_PHASE_H
#define FSLAB_PHASE_H

struct wl_ctx;
struct phase_rec;

/* begin may return -1 to fail the phase; end may add metrics. */
struct phase_hook {
	const char *name;
	int (*begin)(void *data, struct wl_ctx *ctx, const char *phase);
	void (*end)(void *data, struct wl_ctx *ctx, struct phase_rec *rec);
	void *data;
};

#endif
