/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * common.c - helpers every subcommand may use.  Kept out of main.c so the
 * unit-test binaries, which link every object but main.o, can link the
 * commands too.
 */
#include <string.h>

#include "cmd.h"
#include "compare/compare.h"

const struct cmdopt cmd_filter_opts[] = {
	CMDOPT_STR(0, "metric", struct compare_opts, metric, "GLOB",
		   "only metrics whose name matches GLOB"),
	CMDOPT_STR(0, "phase", struct compare_opts, phase, "GLOB",
		   "only phases whose name matches GLOB"),
	CMDOPT_BOOL(0, "all", struct compare_opts, all,
		    "every metric, not just the workload's key metrics and "
		    "MiB/s, files/s and wall_s"),
	CMDOPT_DBL(0, "min-change", struct compare_opts, min_change_pct,
		   "PCT", 0, 0,
		   "practical threshold: a significant change smaller than "
		   "PCT % is no change (default 2)"),
	CMDOPT_TABLE_END,
};

int cmd_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}
