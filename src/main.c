/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - the subcommand table and dispatch.  Preconditions live in the
 * table's flags and are applied here, in one place; after the command
 * returns, stdout is flushed and closed and a failure there (ENOSPC on a
 * redirected report) turns into a non-zero exit, never silence.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "par.h"
#include "util/opt.h"
#include "util/suggest.h"
#include "util/util.h"
#include "util/version.h"

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd_struct commands[] = {
	{ "age", cmd_age, "age a filesystem to a profile or by replay" },
	{ "cleanup", cmd_cleanup, "remove mounts, loop devices and images "
				  "left by a killed fslab" },
	{ "compilebench", cmd_compilebench, "drop-in replacement for "
					    "compilebench 0.6" },
	{ "compare", cmd_compare, "statistics of configurations against a "
				  "baseline" },
	{ "disk", cmd_disk, "disk profiles of the modelled disk time" },
	{ "frag", cmd_frag, "fragmentation and layout survey of trees" },
	{ "list", cmd_list, "workloads, their phases and options" },
	{ "model", cmd_model, "write a tree model of a directory or tarball" },
	{ "report", cmd_report, "self-contained HTML report with charts" },
	{ "results", cmd_results, "stored runs, newest first" },
	{ "run", cmd_run, "build targets, run workloads, store results" },
	{ "show", cmd_show, "one run's results in its workloads' classic "
			    "format" },
	{ "trace", cmd_trace, "block-I/O trace of a command: seeks, layout, "
			      "pictures" },
};

static void print_help(FILE *out)
{
	fprintf(out,
		"usage: fslab [--version] [help] <command> [<args>]\n"
		"\n"
		"fslab builds filesystems on loop images it owns (or uses a "
		"directory or\ndevice you name), runs classic filesystem "
		"workloads natively, measures\nevery phase and stores the "
		"results in SQLite.\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-13s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out,
		"\n'fslab <command> --help' describes one command; "
		"'fslab help targets' the\ntarget SPEC grammar.\n"
		"\nexit codes: 0 success, 1 runtime failure, 2 usage error or "
		"refusal\n(bad spec, unsafe device), 3 significant regression "
		"(compare).\n");
}

static void print_targets_help(FILE *out)
{
	fprintf(out,
		"target SPEC grammar:\n"
		"  FSTYPE[:key=val,...]      a filesystem on a loop image "
		"fslab owns\n"
		"      mkfs=ARGS             extra mkfs arguments "
		"(mkfs=-O ^flex_bg)\n"
		"      mount=OPTS            mount options "
		"(mount=noatime)\n"
		"      size=N                sparse image size, default 8G "
		"(k/m/g/t)\n"
		"      name=LABEL            label shown in reports\n"
		"      age=PROFILE           age it to 80%% full with PROFILE "
		"during setup\n"
		"  dev:/dev/X[:fs=T,mkfs=..,mount=..,name=..]\n"
		"                            format a real device; refused "
		"if it is mounted\n"
		"                            or holds any signature unless "
		"--destroy-data=/dev/X\n"
		"  dir:PATH[:name=LABEL]     an existing directory; nothing "
		"is formatted\n"
		"  aged:NAME[:mount=..,name=..]\n"
		"                            a fresh copy of the golden image "
		"'fslab age --save NAME'\n"
		"                            kept\n\n"
		"Commas inside a value are written '\\,' or the value is "
		"quoted:\n"
		"  ext4:mount=data=writeback\\,noatime\n"
		"  \"ext4:mount='data=writeback,noatime',name=wb\"\n");
}

static const struct cmd_struct *find_cmd(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int finish_stdout(int rc)
{
	/* Like git's run_builtin: a report that could not be written is
	 * an error, not a success with a truncated file. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "fslab: error: cannot write output: %s\n",
			strerror(errno));
		return rc ? rc : EXIT_RUNTIME;
	}
	if (fclose(stdout) && errno != EBADF) {
		fprintf(stderr, "fslab: error: cannot close output: %s\n",
			strerror(errno));
		return rc ? rc : EXIT_RUNTIME;
	}
	return rc;
}

static int fslab_main(int argc, char **argv)
{
	const struct cmd_struct *cmd;
	struct suggest sg;
	const char *best;

	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("fslab %s (mpi: %s)\n", FSLAB_VERSION,
		       par_built() ? "yes" : "no");
		return finish_stdout(EXIT_OK);
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && !strcmp(argv[2], "targets")) {
			print_targets_help(stdout);
			return finish_stdout(EXIT_OK);
		}
		if (argc > 2 && (cmd = find_cmd(argv[2]))) {
			char *hv[] = { argv[2], (char *)"--help", NULL };

			return finish_stdout(cmd->fn(2, hv));
		}
		if (argc > 2) {
			fprintf(stderr, "fslab: usage: no help topic '%s'\n",
				argv[2]);
			return EXIT_USAGE;
		}
		print_help(stdout);
		return finish_stdout(EXIT_OK);
	}
	cmd = find_cmd(argv[1]);
	if (cmd)
		return finish_stdout(cmd->fn(argc - 1, argv + 1));

	suggest_init(&sg, argv[1]);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		suggest_add(&sg, commands[i].name);
	best = suggest_result(&sg);
	if (best)
		fprintf(stderr, "fslab: usage: '%s' is not an fslab command; "
			"did you mean '%s'?\n", argv[1], best);
	else
		fprintf(stderr, "fslab: usage: '%s' is not an fslab command; "
			"see 'fslab help'\n", argv[1]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	int rc;

	par_init(&argc, &argv);
	rc = fslab_main(argc, argv);
	par_finalize();
	return rc;
}
