// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check.c - `fslab check`: is a stored run's setup honest?  Every
 * validity check (src/check/) over the run's records and recorded setup,
 * as text, JSON or CSV.
 */
#include <math.h>
#include <string.h>

#include "check/check.h"
#include "cmd/cmd.h"
#include "output/checks.h"
#include "store/store.h"
#include "util/jsonout.h"
#include "util/strbuf.h"
#include "util/util.h"

struct check_args {
	struct cmdopt_store store;
	struct cmdopt_format fmt;
	struct cmd_accept accept;
	double min_change;
	bool facts;
};

int cmd_accept_cb(const struct cmdopt *o, void *field, const char *arg,
		  char *err, size_t errlen)
{
	struct cmd_accept *a = field;

	(void)o;
	if (!check_def_find(arg)) {
		size_t n;
		const struct check_def *d = check_defs(&n);
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < n; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", d[i].id);
		snprintf(err, errlen, "--accept: no check '%s' (checks: %s)",
			 arg, sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	ALLOC_GROW(a->v, a->n + 1, a->alloc);
	a->v[a->n++] = arg;
	return 0;
}

static const struct cmdopt check_table[] = {
	CMDOPT_INCLUDE_AT(struct check_args, store, cmdopt_store_opts),
	CMDOPT_INCLUDE_AT(struct check_args, fmt, cmdopt_format_opts),
	CMDOPT_CB(0, "accept", struct check_args, accept, "ID",
		  cmd_accept_cb, CMD_ACCEPT_HELP),
	CMDOPT_DBL(0, "min-change", struct check_args, min_change, "PCT", 0,
		   HUGE_VAL, NULL,
		   "the change a comparison should be able to see, for the "
		   "repetitions check (default: the --min-change the run "
		   "was made with, else 2; a run of one target that named "
		   "none is told its resolution as a note)"),
	CMDOPT_BOOL(0, "facts", struct check_args, facts,
		    "text: also list the recorded setup (machine, devices)"),
	CMDOPT_TABLE_END,
};

static void list_checks(FILE *out)
{
	size_t n;
	const struct check_def *d = check_defs(&n);

	fprintf(out, "\nchecks (id: what; source):\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-16s %s; %s\n", d[i].id, d[i].what,
			d[i].source);
}

const struct cmdopt_cmd cmd_check_opts = {
	.name = "check",
	.summary = "is a run's setup honest? checks from the benchmarking "
		   "literature",
	.usage = "[RUN|TAG...] [--db PATH] [--format text|json|csv]\n"
		 "[--accept ID]... [--min-change PCT] [--facts]",
	.desc = "Check stored runs (default: the latest; a TAG is its newest "
		"run) against the recommendations of the file-system "
		"benchmarking literature: a figure served from the page cache, "
		"a CPU-bound phase, a memory-backed target or loop image, a "
		"debug kernel, too few repetitions for --min-change, a "
		"warm-up, an undeclared cache mode...  Each finding has a "
		"stable id, a level (note, warning, invalid) and a reason "
		"naming the figure and the fix; a coverage line says which "
		"recommendations the run's records could not answer.  "
		"Sources: doc/validity.md.",
	.opts = check_table,
	.more_help = list_checks,
	.footer = "A check accepted with --accept (here, or on the run) is "
		  "still listed, marked accepted, and no longer counts.  Exit "
		  "codes: 0 checked (whatever was found), 1 failure, 2 usage "
		  "error.",
	.args = CMDOPT_C_RUN,
};

int cmd_check(int argc, char **argv)
{
	struct check_args a = { .fmt.format = "text", .min_change = NAN };
	struct store *st;
	json_t *arr = NULL;
	int first, rc = EXIT_OK;
	size_t nargs;

	first = cmdopt_parse(&cmd_check_opts, argc, argv, &a);
	if (first < 0) {
		free(a.accept.v);
		return cmdopt_exit(first);
	}
	if (store_open_existing(a.store.db, &st)) {
		free(a.accept.v);
		return EXIT_RUNTIME;
	}
	nargs = first < argc ? (size_t)(argc - first) : 1;
	if (!strcmp(a.fmt.format, "json"))
		arr = json_array();
	for (size_t i = 0; i < nargs && !rc; i++) {
		const char *arg = first < argc ? argv[first + (int)i] : NULL;
		struct check_opts o;
		struct check_report rep;
		struct run_rec *r;
		int64_t id;

		if (store_resolve_run(st, arg, &id) ||
		    store_load_run(st, id, &r)) {
			rc = EXIT_RUNTIME;
			break;
		}
		check_opts_init(&o);
		o.min_change_pct = a.min_change;
		o.accept = a.accept.v;
		o.nr_accept = a.accept.n;
		check_run(r, &o, &rep);
		if (arr) {
			json_t *j = checks_json(&rep);

			jout_set(j, "run", json_integer(r->id));
			jout_set(j, "facts", facts_json(r));
			jout_push(arr, j);
		} else if (!strcmp(a.fmt.format, "csv")) {
			checks_write_csv(stdout, &rep, i == 0);
		} else {
			printf("run %lld%s%s:\n", (long long)r->id,
			       r->tag ? " tag " : "", r->tag ? r->tag : "");
			if (a.facts)
				facts_print_text(stdout, r);
			if (!rep.nr)
				printf("  nothing found\n");
			checks_print_text(stdout, &rep, false);
		}
		check_report_release(&rep);
		run_rec_free(r);
	}
	if (arr) {
		if (!rc)
			json_dumpf(arr, stdout, JSON_INDENT(2) |
				   JSON_PRESERVE_ORDER);
		if (!rc)
			putchar('\n');
		json_decref(arr);
	}
	if (fflush(stdout))
		rc = error_errno("cannot write to stdout") ? EXIT_RUNTIME
							    : EXIT_RUNTIME;
	store_close(st);
	free(a.accept.v);
	return rc;
}
