/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * common.c - helpers every subcommand may use.  Kept out of main.c so the
 * unit-test binaries, which link every object but main.o, can link the
 * commands too.
 */
#include <string.h>

#include "cmd.h"

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
