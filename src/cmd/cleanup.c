/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cleanup.c - `fslab cleanup`: undo what a killed fslab left behind
 * (mounts, loop devices, images, mount points), using only its state
 * journal, so nothing fslab did not create is ever touched.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "fs/state.h"
#include "fs/undo.h"
#include "trace/blktrace.h"
#include "util/util.h"

struct cleanup_args {
	bool dry_run, verbose;
};

static const struct cmdopt cleanup_table[] = {
	CMDOPT_BOOL('n', "dry-run", struct cleanup_args, dry_run,
		    "only print what would be done"),
	CMDOPT_BOOL('v', "verbose", struct cleanup_args, verbose,
		    "also print what was already gone"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_cleanup_opts = {
	.name = "cleanup",
	.summary = "remove mounts, loop devices and images left by a killed "
		   "fslab",
	.usage = "[--dry-run] [-v]",
	.desc = "Remove the mounts, loop devices, images and mount points "
		"recorded in the state journals of fslab processes that are "
		"no longer running (killed, crashed, machine reset).  "
		"Journals of running fslab processes are skipped, and what "
		"they hold is listed.  An entry is acted on only when it is "
		"provably fslab's: a root-owned journal, inside a marked "
		"scratch directory, the inode or device journaled at "
		"creation.  Journal directory: $FSLAB_STATE_DIR, "
		"default /var/lib/fslab/state.",
	.opts = cleanup_table,
	.footer = "Exit status: 0 when everything is clean, 1 when something "
		  "could not be removed (the journal is kept for another "
		  "try).",
};

int cmd_cleanup(int argc, char **argv)
{
	struct cleanup_args a = { .dry_run = false };
	bool dry_run, verbose;
	int first;

	first = cmdopt_parse(&cmd_cleanup_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	if (first < argc)
		return cmdopt_usage_error(&cmd_cleanup_opts, "unexpected "
					  "argument '%s'", argv[first]);
	dry_run = a.dry_run;
	verbose = a.verbose;
	if (!dry_run && !is_root()) {
		error("cleanup needs root to unmount and detach; see what it "
		      "would do with 'fslab cleanup --dry-run'");
		return EXIT_RUNTIME;
	}
	/* The owners of each kind of resource know how to undo it. */
	fs_register_undo();
	trace_register_undo();
	return state_cleanup(dry_run, verbose) ? EXIT_RUNTIME : EXIT_OK;
}
