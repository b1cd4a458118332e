// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * import.c - `fslab import`: add the runs of export files to a store.
 * Runs are matched by their global id, so importing a file twice, or a
 * run back into the store it came from, adds nothing.
 */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "store/store.h"
#include "util/util.h"
#include "xfer/xfer.h"

struct import_args {
	struct cmdopt_store store;
};

static const struct cmdopt import_table[] = {
	CMDOPT_INCLUDE_AT(struct import_args, store, cmdopt_store_opts),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_import_opts = {
	.name = "import",
	.summary = "add the runs of 'fslab export' files to a store",
	.usage = "FILE... [--db PATH]",
	.desc = "Add every run of the export files (plain or compressed) to "
		"the store, keeping the host each came from.  A run already "
		"there (same global id, same content) is skipped; the same id "
		"with different content, a file from a newer fslab, or a "
		"truncated or altered file (each carries a SHA-256 of its "
		"runs) refuses the whole import: it is one transaction, so "
		"either every new run is added or none.",
	.opts = import_table,
	.footer = "Exit codes: 0 success (also when nothing was new), 1 "
		  "failure: nothing imported.",
	.args = CMDOPT_C_FILE,
};

int cmd_import(int argc, char **argv)
{
	struct import_args a = { 0 };
	struct xfer_stats stats;
	struct store *st;
	char *db;
	int first, rc;

	first = cmdopt_parse(&cmd_import_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	if (first == argc)
		return cmdopt_usage_error(&cmd_import_opts,
					  "import needs at least one FILE");
	db = a.store.db ? xstrdup(a.store.db) : store_default_path();
	rc = store_open(db, &st);
	free(db);
	if (rc)
		return EXIT_RUNTIME;
	rc = xfer_import(st, (const char *const *)argv + first,
			 (size_t)(argc - first), &stats);
	if (!rc)
		fprintf(stderr, "fslab: imported %zu run%s, %zu already "
			"present, into %s\n", stats.added,
			stats.added == 1 ? "" : "s", stats.present,
			store_path(st));
	store_close(st);
	return rc ? EXIT_RUNTIME : EXIT_OK;
}
