/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - the exec workload's output parsers (parse.c), pure so the
 * unit tests read captured output of the real tools.
 */
#ifndef FSLAB_WL_EXEC_INTERNAL_H
#define FSLAB_WL_EXEC_INTERNAL_H

#include <stddef.h>

#include "measure/result.h"

struct exec_metric {
	char *name;      /* as stored: "cmd.NAME", "dbench.MB/s" ... */
	double value;
	char *unit;
	enum better better;
};

struct exec_metrics {
	struct exec_metric *v;
	size_t nr, alloc;
};

void exec_metrics_release(struct exec_metrics *m);

/*
 * `name value [unit] [higher|lower]` per line ('#' lines and blank lines
 * skipped); each name stored as "cmd.NAME".  Anything else is an error
 * naming the line: a command's stdout under metrics=lines is its metrics.
 */
int exec_parse_lines(const char *text, struct exec_metrics *m, char *err,
		     size_t errlen);
/*
 * One JSON object: {"NAME": number} or {"NAME": {"value": number,
 * "unit": "...", "better": "higher"|"lower"|"none"}}.
 */
int exec_parse_json(const char *text, struct exec_metrics *m, char *err,
		    size_t errlen);
/* dbench's closing "Throughput X MB/sec N clients ... max_latency=Y ms". */
int exec_parse_dbench(const char *text, struct exec_metrics *m, char *err,
		      size_t errlen);
/* fs_mark's table: files/s of every iteration and over all of them. */
int exec_parse_fs_mark(const char *text, struct exec_metrics *m, char *err,
		       size_t errlen);

#endif
