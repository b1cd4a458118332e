/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.c - `fslab model`: write the tree model (doc/tree.md) of an
 * existing directory or of a tarball, so the `tree` workload can replay
 * a user's own source tree with model=FILE without shipping its data.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "model/tarball.h"
#include "model/treemodel.h"
#include "util/util.h"

struct model_args {
	int unused; /* no options yet */
};

static const struct cmdopt model_table[] = {
	CMDOPT_TABLE_END,
};

static const char *const model_words[] = { "capture", "tarball", NULL };

const struct cmdopt_cmd cmd_model_opts = {
	.name = "model",
	.summary = "write a tree model of a directory or tarball",
	.usage = "capture DIR > FILE\n"
		 "tarball TARBALL > FILE",
	.desc = "Write a tree model: one 'path size' line per file, 'dir/' "
		"for an empty directory, 'link -> target' for a symbolic "
		"link (see doc/tree.md).  capture walks DIR (sorted, so the "
		"same tree gives the same model on any filesystem); tarball "
		"lists an archive in its order.  Replay with: fslab run "
		"--workload tree:model=FILE",
	.opts = model_table,
	.args = CMDOPT_C_FILE,
	.subcommands = model_words,
};

int cmd_model(int argc, char **argv)
{
	struct model_args a = { 0 };
	struct treemodel m;
	int ret, first;

	first = cmdopt_parse(&cmd_model_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	argv += first - 1;
	argc -= first - 1;
	if (argc != 3 || (strcmp(argv[1], "capture") &&
			  strcmp(argv[1], "tarball")))
		return cmdopt_usage_error(&cmd_model_opts, "wants 'capture "
					  "DIR' or 'tarball TARBALL'");
	/* A missing path is a usage error, as in every command (README). */
	if (access(argv[2], F_OK) < 0) {
		error_errno("cannot read '%s'", argv[2]);
		return EXIT_USAGE;
	}
	treemodel_init(&m);
	if (!strcmp(argv[1], "capture"))
		ret = treemodel_capture(&m, argv[2]);
	else
		ret = tarball_load(&m, argv[2]);
	if (!ret && (treemodel_write(&m, stdout) || fflush(stdout))) {
		error_errno("cannot write the model");
		ret = -1;
	}
	treemodel_release(&m);
	return ret ? EXIT_RUNTIME : EXIT_OK;
}
