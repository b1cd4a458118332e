/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * doc.h - man pages and bash completion generated from the command
 * option tables (util/cmdopt.h) and the workload option tables
 * (util/opt.h), so they list exactly what the parsers accept.  The build
 * runs the hidden `fslab --dump-man PAGE` and `fslab --dump-completion`.
 */
#ifndef FSLAB_DOC_H
#define FSLAB_DOC_H

#include <stdio.h>

/*
 * Write man page PAGE ("fslab", "fslab-run", ..., "fslab-workloads",
 * "fslab-targets") as roff, or with PAGE "list" the page names, one
 * "NAME SECTION" a line.  EXAMPLES come from README.md's indented
 * command lines when $FSLAB_README names it.  0, or -1 for an unknown
 * page.
 */
int doc_man(FILE *out, const char *page);

/* Write the bash completion script.  0 or -1. */
int doc_completion(FILE *out);

/*
 * `fslab __complete runs [--db PATH]`: the run ids and tags of the
 * store, one a line, for the completion; silent when there is no store.
 * `fslab __complete commands`: the commands; `fslab __complete options
 * CMD`: CMD's options, "-t --target" a line (for the tests).  Returns an
 * exit code.
 */
int doc_complete_words(int argc, char **argv);

#endif
