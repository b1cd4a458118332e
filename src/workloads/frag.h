/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frag.h - the options of the "frag" workload (frag.c), which are also
 * those `fslab frag --db` stores its surveys with.
 */
#ifndef FSLAB_WL_FRAG_H
#define FSLAB_WL_FRAG_H

#include <stdbool.h>

struct frag_wl_opts {
	char *path;             /* relative to the run's workload area */
	long long jobs;
	bool sync, xdev;
	long long worst;
	char *bins;             /* "default" or bin edges */
	bool io_uring;
};

#endif
