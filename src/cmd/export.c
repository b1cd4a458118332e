// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * export.c - `fslab export`: stored runs, whole, into one portable file
 * that `fslab import` reads on another machine (format in src/xfer/ and
 * doc/history.md).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "run/preflight.h"
#include "store/store.h"
#include "util/util.h"
#include "xfer/xfer.h"

struct export_args {
	struct cmdopt_store store;
	const char *output;
};

static const struct cmdopt export_table[] = {
	CMDOPT_STR_C('o', "output", struct export_args, output, "FILE",
		     CMDOPT_C_FILE,
		     "the file to write; compressed when its name ends in "
		     ".gz, .xz or .zst"),
	CMDOPT_INCLUDE_AT(struct export_args, store, cmdopt_store_opts),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_export_opts = {
	.name = "export",
	.summary = "write runs to a portable file for 'fslab import'",
	.usage = "[RUN|TAG|SELECTOR...] -o FILE [--db PATH]",
	.desc = "Write the named runs (default: every finished run) whole "
		"into one versioned JSON file: provenance, targets, workload "
		"runs with their options and order, every phase with its "
		"metrics, latency histograms, stalls and completion series, "
		"workers and trace sample, and each "
		"run's global id. "
		"A TAG names all its runs; a SELECTOR such as "
		"kernel=6.6*,host=box1 all runs that match (see 'fslab help "
		"history').  A store older than this fslab is migrated first, "
		"which gives its runs their ids.",
	.opts = export_table,
	.args = CMDOPT_C_RUN,
};

static void add_id(int64_t **ids, size_t *n, size_t *alloc, int64_t id)
{
	for (size_t i = 0; i < *n; i++)
		if ((*ids)[i] == id)
			return;
	ALLOC_GROW(*ids, *n + 1, *alloc);
	(*ids)[(*n)++] = id;
}

/* The ids an argument names (see cmd_export_opts.desc). */
static int resolve(struct store *st, const char *arg, int64_t **ids,
		   size_t *n, size_t *alloc)
{
	int64_t *sel = NULL, id;
	size_t nsel = 0;

	if (store_is_selector(arg)) {
		if (store_select_runs(st, arg, &sel, &nsel))
			return -1;
		for (size_t i = 0; i < nsel; i++)
			add_id(ids, n, alloc, sel[i]);
		free(sel);
		return nsel ? 0 : error("no run matches '%s' in '%s'", arg,
					store_path(st));
	}
	if (strcmp(arg, "latest") && !all_digits(arg)) {
		if (store_tag_runs(st, arg, &sel, &nsel))
			return -1;
		for (size_t i = 0; i < nsel; i++)
			add_id(ids, n, alloc, sel[i]);
		free(sel);
		if (nsel)
			return 0;
	}
	if (store_resolve_run(st, arg, &id))
		return -1;
	add_id(ids, n, alloc, id);
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = { 0 };
	struct run_rec **runs = NULL;
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, nr = 0;
	struct store *st;
	char *db, why[1024];
	int first, rc = EXIT_RUNTIME;

	first = cmdopt_parse(&cmd_export_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	if (!a.output)
		return cmdopt_usage_error(&cmd_export_opts,
					  "export needs -o FILE");
	if (preflight_output_path(a.output, "-o", why, sizeof(why)) < 0)
		return cmdopt_usage_error(&cmd_export_opts, "%s", why);
	db = a.store.db ? xstrdup(a.store.db) : store_default_path();
	if (access(db, F_OK) < 0) {
		error("no results database at '%s'", db);
		free(db);
		return EXIT_RUNTIME;
	}
	if (store_open(db, &st)) {
		free(db);
		return EXIT_RUNTIME;
	}
	free(db);
	if (first == argc) {
		if (store_select_runs(st, "since=@0", &ids, &n))
			goto out;
	}
	for (int i = first; i < argc; i++)
		if (resolve(st, argv[i], &ids, &n, &alloc))
			goto out;
	if (!n) {
		error("no finished runs in '%s' to export", store_path(st));
		goto out;
	}
	runs = xcalloc(n, sizeof(*runs));
	for (size_t i = 0; i < n; i++, nr++)
		if (store_load_run(st, ids[i], &runs[i]))
			goto out;
	if (xfer_export(a.output, runs, n))
		goto out;
	fprintf(stderr, "fslab: exported %zu run%s to %s\n", n,
		n == 1 ? "" : "s", a.output);
	rc = EXIT_OK;
out:
	for (size_t i = 0; i < nr; i++)
		run_rec_free(runs[i]);
	free(runs);
	free(ids);
	store_close(st);
	return rc;
}
