/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html_internal.h - what html.c and its figure files (htmltrace.c,
 * htmltail.c, htmlstall.c) share.
 */
#ifndef FSLAB_OUTPUT_HTML_INTERNAL_H
#define FSLAB_OUTPUT_HTML_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "output/html.h"

/* Distinct strings in the order first seen (owned copies). */
struct keyset {
	char **v;
	size_t n, alloc;
};

/* Add a copy of k unless it is there; true when it was added. */
bool keyset_add(struct keyset *s, const char *k);
void keyset_release(struct keyset *s);

/* Call fn on every phase of every repetition of every configuration of
 * the section, configurations in order, then repetitions, then phases. */
void html_each_phase(const struct html_section *sec,
		     void (*fn)(const struct phase_rec *p, void *data),
		     void *data);

/* Per traced phase, its figure for every configuration (htmltrace.c);
 * *id numbers the figures of the page.  0, or -1 with a message. */
int html_trace_figures(FILE *out, const struct html_section *sec, int *id);

/* Per phase and op class with latency histograms, the configurations'
 * CDFs and the quantile table of compare (htmltail.c).  0 or -1. */
int html_tail_figures(FILE *out, const struct html_section *sec,
		      double alpha, int *id);

/* Per phase with a stored completion series, the configurations'
 * series and their stalls (htmlstall.c).  0 or -1. */
int html_stall_figures(FILE *out, const struct html_section *sec, int *id);

#endif
