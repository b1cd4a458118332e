/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - a run as JSON, built with jansson (never printf), versioned
 * with "format_version" so consumers can rely on its shape.
 */
#ifndef FSLAB_JSON_H
#define FSLAB_JSON_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/result.h"

#define FSLAB_JSON_FORMAT_VERSION 1

/* Write r to path ("-" = stdout).  0, or -1 with a message. */
int json_write_run(const struct run_rec *r, const char *path);
/* Serialize r to a newly allocated string (caller frees). */
char *json_dump_run(const struct run_rec *r);

struct cmp_session;
struct cmp_input;
struct compare_opts;

/* The comparison as JSON on stdout (format_version 2): the settings,
 * each run's target orders, the notes and one table per comparison,
 * with one more member key: extra (stolen; NULL: none).  0, or -1 with a
 * message. */
int json_print_compare_with(const struct cmp_session *s,
			    const struct cmp_input *in,
			    const struct compare_opts *o, const char *key,
			    json_t *extra);

/* The run list of `fslab results` on stdout (format_version 1): per run
 * its id, times, status, tag, host, kernel, version, command line and
 * distinct target and workload names.  0, or -1 with a message. */
int json_print_run_list(struct run_rec *const *runs, size_t nr);

#endif
