/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cleanup.c - `fslab cleanup`: undo what a killed fslab left behind
 * (mounts, loop devices, images, mount points), using only its state
 * journal, so nothing fslab did not create is ever touched.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "fs/state.h"
#include "fs/undo.h"
#include "trace/blktrace.h"
#include "util/util.h"

static const char usage_text[] =
	"usage: fslab cleanup [--dry-run] [-v]\n"
	"\n"
	"Remove the mounts, loop devices, images and mount points recorded\n"
	"in the state journals of fslab processes that are no longer\n"
	"running (killed, crashed, machine reset).  Journals of running\n"
	"fslab processes are skipped, and what they hold is listed.\n"
	"Journal directory: $FSLAB_STATE_DIR, "
	"default /var/lib/fslab/state.\n"
	"\n"
	"  -n, --dry-run   only print what would be done\n"
	"  -v, --verbose   also print what was already gone\n"
	"  -h, --help      this text\n"
	"\n"
	"Exit status: 0 when everything is clean, 1 when something could\n"
	"not be removed (the journal is kept for another try).\n";

int cmd_cleanup(int argc, char **argv)
{
	bool dry_run = false, verbose = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "-n") ||
			   !strcmp(argv[i], "--dry-run")) {
			dry_run = true;
		} else if (!strcmp(argv[i], "-v") ||
			   !strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else if (argv[i][0] == '-') {
			usage_die("unknown option '%s' (see 'fslab cleanup "
				  "--help')", argv[i]);
		} else {
			usage_die("unexpected argument '%s'", argv[i]);
		}
	}
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
