/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * list.c - `fslab list`: the workloads, their phases and options, all
 * generated from the registry and the option tables.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/util.h"
#include "workloads/registry.h"

struct list_args {
	bool verbose;
};

static const struct cmdopt list_table[] = {
	CMDOPT_BOOL('v', "verbose", struct list_args, verbose,
		    "also every workload's phases and option table"),
	CMDOPT_TABLE_END,
};

static const char *const list_words[] = { "workloads", NULL };

const struct cmdopt_cmd cmd_list_opts = {
	.name = "list",
	.summary = "workloads, their phases and options",
	.usage = "[workloads] [-v] [NAME]",
	.desc = "List the workloads with their phases and options (-v, or a "
		"NAME, for the option tables).",
	.opts = list_table,
	.args = CMDOPT_C_WORKLOAD,
	.subcommands = list_words,
};

static void list_one(const struct workload *wl, int verbose)
{
	printf("%-14s %s\n", wl->name, wl->summary);
	if (!verbose)
		return;
	printf("  phases:");
	for (const char *const *p = wl->phases; p && *p; p++)
		printf(" %s", *p);
	if (wl->key_metrics && wl->key_metrics[0]) {
		/* what compare's verdict and --fail-on-regression test */
		printf("\n  key metrics:");
		for (const char *const *k = wl->key_metrics; *k; k++)
			printf(" %s", *k);
	}
	printf("\n  options (--workload %s:key=val,...):\n", wl->name);
	opt_help(stdout, wl->opts, "    ");
	printf("\n");
}

int cmd_list(int argc, char **argv)
{
	struct list_args a = { .verbose = false };
	int verbose, first;
	const char *name = NULL;

	first = cmdopt_parse(&cmd_list_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	verbose = a.verbose;
	if (first < argc && !strcmp(argv[first], "workloads"))
		first++;
	if (first < argc)
		name = argv[first++];
	if (first < argc)
		return cmdopt_usage_error(&cmd_list_opts, "unexpected "
					  "argument '%s'", argv[first]);
	if (name) {
		const struct workload *wl = wl_find(name);

		if (!wl) {
			const char *s = wl_suggest(name);

			return cmdopt_usage_error(&cmd_list_opts,
						  "unknown workload '%s'%s%s%s",
						  name, s ? " (did you mean '" :
						  "", s ? s : "", s ? "'?)" :
						  "");
		}
		list_one(wl, 1);
		return EXIT_OK;
	}
	for (size_t i = 0; workloads[i]; i++)
		list_one(workloads[i], verbose);
	return EXIT_OK;
}
