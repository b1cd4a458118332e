/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd.h - subcommands.  Each lives in src/cmd/<name>.c as
 * `int cmd_<name>(int argc, char **argv)` and returns an exit code
 * (enum exit_code).  argv[0] is the subcommand name.
 *
 * Adding a subcommand:
 *  1. write src/cmd/<name>.c with cmd_<name>() and its option table,
 *     `const struct cmdopt_cmd cmd_<name>_opts` (util/cmdopt.h): the
 *     parser, --help, the man page fslab-<name>(1) and the bash
 *     completion all come from it
 *  2. declare both here and add a row to cmd_table[] in src/cmd/common.c
 *  3. a test in tests/t/ (t0001-help.sh checks every command's --help
 *     against its table; t0002-install.sh its man page and completion)
 */
#ifndef FSLAB_CMD_H
#define FSLAB_CMD_H

#include "util/cmdopt.h"

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
int cmd_check(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_site(int argc, char **argv);
int cmd_bisect(int argc, char **argv);

/*
 * Each command's option table and help text (src/util/cmdopt.h), from
 * which its parser, --help, man page and completion come.
 */
extern const struct cmdopt_cmd cmd_age_opts;
extern const struct cmdopt_cmd cmd_bisect_opts;
extern const struct cmdopt_cmd cmd_check_opts;
extern const struct cmdopt_cmd cmd_cleanup_opts;
extern const struct cmdopt_cmd cmd_compare_opts;
extern const struct cmdopt_cmd cmd_compilebench_opts;
extern const struct cmdopt_cmd cmd_disk_opts;
extern const struct cmdopt_cmd cmd_export_opts;
extern const struct cmdopt_cmd cmd_history_opts;
extern const struct cmdopt_cmd cmd_import_opts;
extern const struct cmdopt_cmd cmd_frag_opts;
extern const struct cmdopt_cmd cmd_list_opts;
extern const struct cmdopt_cmd cmd_model_opts;
extern const struct cmdopt_cmd cmd_plan_opts;
extern const struct cmdopt_cmd cmd_report_opts;
extern const struct cmdopt_cmd cmd_results_opts;
extern const struct cmdopt_cmd cmd_run_opts;
extern const struct cmdopt_cmd cmd_show_opts;
extern const struct cmdopt_cmd cmd_site_opts;
extern const struct cmdopt_cmd cmd_trace_opts;

/* The command table: name, function, option table; {NULL} at the end. */
struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const struct cmdopt_cmd *opts;
};
extern const struct cmd_struct cmd_table[];
const struct cmd_struct *cmd_find(const char *name);

/* fslab's own options (--version, --help) and its help text. */
extern const struct cmdopt_cmd cmd_fslab_opts;
struct fslab_args {
	bool version;
	const char *dump_man;
	bool dump_completion;
};

/*
 * The filter options compare and report share, on struct compare_opts
 * (include it with CMDOPT_INCLUDE_AT at the offset of that struct).
 */
extern const struct cmdopt cmd_filter_opts[];

/*
 * --accept ID (repeatable; run, check, compare): validity checks
 * (check/check.h) silenced on purpose.  The callback checks the id.
 */
struct cmd_accept {
	const char **v;
	size_t n, alloc;
};
int cmd_accept_cb(const struct cmdopt *o, void *field, const char *arg,
		  char *err, size_t errlen);
#define CMD_ACCEPT_HELP                                                    \
	"silence the validity check ID on purpose (repeatable; 'fslab "    \
	"check --help' lists them)"

/*
 * --db PATH given up to CMD_MAX_DBS times (compare, report): every
 * database is read, none written.
 */
#define CMD_MAX_DBS 16
struct cmd_dbs {
	const char *v[CMD_MAX_DBS];
	size_t n;
};
extern const struct cmdopt cmd_dbs_opts[];

/*
 * The runs history and site read: every finished run of the stores
 * (default: the default store), or those args name (run ids, ID@N with
 * several stores, tags, selectors), each once even when imported into
 * several, one in memory at a time.  Each goes to feed->add (k: its
 * store, from 0) or, with feed NULL, to history_add_run(h).  0, or -1
 * with a message.
 */
struct history;
struct run_rec;
struct cmd_history_feed {
	void (*add)(void *data, const struct run_rec *r, size_t k);
	void *data;
};
int cmd_history_feed(struct history *h, const struct cmd_dbs *dbs,
		     char **args, size_t nargs,
		     const struct cmd_history_feed *feed);

/* `fslab help targets` and fslab-targets(7): the target SPEC grammar. */
extern const char cmd_targets_help[];

#endif
