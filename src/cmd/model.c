/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.c - `fslab model`: write the tree model (doc/tree.md) of an
 * existing directory or of a tarball, so the `tree` workload can replay
 * a user's own source tree with model=FILE without shipping its data.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "model/tarball.h"
#include "model/treemodel.h"
#include "util/util.h"

static const char usage_text[] =
	"usage: fslab model capture DIR > FILE\n"
	"       fslab model tarball TARBALL > FILE\n"
	"\n"
	"Write a tree model: one 'path size' line per file, 'dir/' for an\n"
	"empty directory, 'link -> target' for a symbolic link (see\n"
	"doc/tree.md).  capture walks DIR (sorted, so the same tree gives\n"
	"the same model on any filesystem); tarball lists an archive in its\n"
	"order.  Replay with: fslab run --workload tree:model=FILE\n";

int cmd_model(int argc, char **argv)
{
	struct treemodel m;
	int ret;

	if (cmd_wants_help(argc, argv)) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	if (argc != 3 || (strcmp(argv[1], "capture") &&
			  strcmp(argv[1], "tarball"))) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
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
