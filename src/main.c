/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - fslab's own options and dispatch to the command table
 * (src/cmd/common.c).  After the command returns, stdout is flushed and
 * closed and a failure there (ENOSPC on a redirected report) turns into
 * a non-zero exit, never silence.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "doc/doc.h"
#include "phase/par.h"
#include "util/cmdopt.h"
#include "util/opt.h"
#include "util/suggest.h"
#include "util/util.h"
#include "util/version.h"

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

static int help_topic(const char *topic)
{
	const struct cmd_struct *cmd;

	if (!topic) {
		cmdopt_help(stdout, &cmd_fslab_opts);
		return finish_stdout(EXIT_OK);
	}
	if (!strcmp(topic, "targets")) {
		printf("target SPEC grammar:\n%s", cmd_targets_help);
		return finish_stdout(EXIT_OK);
	}
	cmd = cmd_find(topic);
	if (!cmd) {
		struct suggest sg;

		suggest_init(&sg, topic);
		suggest_add(&sg, "targets");
		for (const struct cmd_struct *c = cmd_table; c->name; c++)
			suggest_add(&sg, c->name);
		if (suggest_result(&sg))
			return cmdopt_usage_error(&cmd_fslab_opts, "no help "
						  "topic '%s' (did you mean "
						  "'%s'?)", topic,
						  suggest_result(&sg));
		return cmdopt_usage_error(&cmd_fslab_opts, "no help topic '%s'",
					  topic);
	}
	cmdopt_help(stdout, cmd->opts);
	return finish_stdout(EXIT_OK);
}

static int fslab_main(int argc, char **argv)
{
	struct fslab_args a = { .version = false };
	const struct cmd_struct *cmd;
	struct suggest sg;
	const char *best;
	int first;

	if (argc < 2) {
		cmdopt_help(stderr, &cmd_fslab_opts);
		return EXIT_USAGE;
	}
	first = cmdopt_parse(&cmd_fslab_opts, argc, argv, &a);
	if (first < 0)
		return first == CMDOPT_HELP ? finish_stdout(EXIT_OK)
					    : EXIT_USAGE;
	if (a.dump_man)
		return finish_stdout(doc_man(stdout, a.dump_man) ? EXIT_USAGE
								 : EXIT_OK);
	if (a.dump_completion)
		return finish_stdout(doc_completion(stdout) ? EXIT_RUNTIME
							    : EXIT_OK);
	if (a.version || (first < argc && !strcmp(argv[first], "version"))) {
		printf("fslab %s (mpi: %s)\n", FSLAB_VERSION,
		       par_built() ? "yes" : "no");
		return finish_stdout(EXIT_OK);
	}
	if (first >= argc) {
		cmdopt_help(stderr, &cmd_fslab_opts);
		return EXIT_USAGE;
	}
	argc -= first;
	argv += first;
	if (!strcmp(argv[0], "help")) {
		if (argc > 2)
			return cmdopt_usage_error(&cmd_fslab_opts, "help takes "
						  "one topic");
		return help_topic(argc > 1 ? argv[1] : NULL);
	}
	/* hidden: what the bash completion asks for (doc/completion.c) */
	if (!strcmp(argv[0], "__complete"))
		return finish_stdout(doc_complete_words(argc, argv));
	cmd = cmd_find(argv[0]);
	if (cmd)
		return finish_stdout(cmd->fn(argc, argv));

	suggest_init(&sg, argv[0]);
	for (const struct cmd_struct *c = cmd_table; c->name; c++)
		suggest_add(&sg, c->name);
	best = suggest_result(&sg);
	if (best)
		return cmdopt_usage_error(&cmd_fslab_opts, "'%s' is not an "
					  "fslab command (did you mean '%s'?)",
					  argv[0], best);
	return cmdopt_usage_error(&cmd_fslab_opts, "'%s' is not an fslab "
				  "command", argv[0]);
}

int main(int argc, char **argv)
{
	int rc;

	par_init(&argc, &argv);
	rc = fslab_main(argc, argv);
	par_finalize();
	return rc;
}
