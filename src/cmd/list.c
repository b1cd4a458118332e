/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.c - `fslab list`: the workloads, their phases and options, all
 * generated from the registry and the option tables.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "util/util.h"
#include "workloads/registry.h"

static const char usage_text[] =
	"usage: fslab list [workloads] [-v] [NAME]\n"
	"\n"
	"List the workloads with their phases and options (-v, or a NAME,\n"
	"for the option tables).\n";

static void list_one(const struct workload *wl, int verbose)
{
	printf("%-14s %s\n", wl->name, wl->summary);
	if (!verbose)
		return;
	printf("  phases:");
	for (const char *const *p = wl->phases; p && *p; p++)
		printf(" %s", *p);
	printf("\n  options (--workload %s:key=val,...):\n", wl->name);
	opt_help(stdout, wl->opts, "    ");
	printf("\n");
}

int cmd_list(int argc, char **argv)
{
	int verbose = 0;
	const char *name = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "-v") ||
			   !strcmp(argv[i], "--verbose")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "workloads") && !name) {
			continue;
		} else if (argv[i][0] == '-') {
			usage_die("unknown option '%s' (see 'fslab list "
				  "--help')", argv[i]);
		} else if (!name) {
			name = argv[i];
		} else {
			usage_die("unexpected argument '%s'", argv[i]);
		}
	}
	if (name) {
		const struct workload *wl = wl_find(name);

		if (!wl) {
			const char *s = wl_suggest(name);

			usage_die("unknown workload '%s'%s%s%s", name,
				  s ? " (did you mean '" : "", s ? s : "",
				  s ? "'?)" : "");
		}
		list_one(wl, 1);
		return EXIT_OK;
	}
	for (size_t i = 0; workloads[i]; i++)
		list_one(workloads[i], verbose);
	return EXIT_OK;
}
