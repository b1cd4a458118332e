/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd.h - subcommands.  Each lives in src/cmd/<name>.c as
 * `int cmd_<name>(int argc, char **argv)` and returns an exit code
 * (enum exit_code).  argv[0] is the subcommand name.
 *
 * Adding a subcommand:
 *  1. write src/cmd/<name>.c with cmd_<name>() and its --help text
 *  2. declare it here and add a row to commands[] in src/main.c
 *  3. add the file to the Makefile
 *  4. a test in tests/t/ (t0001-help.sh checks every command's --help)
 */
#ifndef FSLAB_CMD_H
#define FSLAB_CMD_H

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_compilebench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_frag(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_age(int argc, char **argv);
int cmd_disk(int argc, char **argv);

/* True when argv holds -h or --help before any "--". */
int cmd_wants_help(int argc, char **argv);

#endif
