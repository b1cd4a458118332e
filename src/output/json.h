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

#include "result.h"

#define FSLAB_JSON_FORMAT_VERSION 1

/* Write r to path ("-" = stdout).  0, or -1 with a message. */
int json_write_run(const struct run_rec *r, const char *path);
/* Serialize r to a newly allocated string (caller frees). */
char *json_dump_run(const struct run_rec *r);

/* Unix time t as an ISO 8601 UTC string, or JSON null when t is 0. */
json_t *json_time_iso(int64_t t);

#endif
