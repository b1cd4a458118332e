/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results.c - `fslab results`: list the runs in the results database,
 * newest first, as a table or JSON, and delete one with --rm.  Read-only
 * by default: a missing database is reported, never created.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "output/csv.h"
#include "output/json.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/util.h"

struct results_args {
	struct cmdopt_store store;
	struct cmdopt_format fmt;
	long long rm;
};

static const struct cmdopt results_table[] = {
	CMDOPT_INCLUDE_AT(struct results_args, store, cmdopt_store_opts),
	CMDOPT_INCLUDE_AT(struct results_args, fmt, cmdopt_format_opts),
	CMDOPT_INTEGER(0, "rm", struct results_args, rm, "RUN", 1, INT64_MAX,
		       "delete run RUN and everything it measured"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_results_opts = {
	.name = "results",
	.summary = "stored runs, newest first",
	.usage = "[--db PATH] [--format text|json|csv] [--rm RUN]",
	.desc = "List the runs stored in the results database, newest "
		"first.  Read-only unless --rm is given: a missing database "
		"is reported, never created.",
	.opts = results_table,
};

/* Append v (NULL: "?") to the "a,b" list in sb unless it is there. */
static void add_distinct(struct strbuf *sb, const char *v)
{
	size_t len;

	v = v ? v : "?";
	len = strlen(v);
	for (const char *p = sb->buf; *p; ) {
		const char *e = strchrnul(p, ',');

		if ((size_t)(e - p) == len && !strncmp(p, v, len))
			return;
		p = *e ? e + 1 : e;
	}
	if (sb->len)
		strbuf_addch(sb, ',');
	strbuf_addstr(sb, v);
}

/* The distinct target names, then workloads, in first-seen order. */
static char *target_names(const struct run_rec *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->nr_targets; i++)
		add_distinct(&sb, r->targets[i].name);
	return strbuf_detach(&sb, NULL);
}

static char *workload_names(const struct run_rec *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->nr_wlruns; i++)
		add_distinct(&sb, r->wlruns[i].workload);
	return strbuf_detach(&sb, NULL);
}

static void fmt_local(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !localtime_r(&tt, &tm))
		snprintf(buf, len, "-");
	else
		strftime(buf, len, "%Y-%m-%d %H:%M", &tm);
}

struct row {
	char id[24], started[32];
	const char *status, *tag;
	char *targets, *workloads;
};

static int width(int w, const char *s)
{
	int l = (int)strlen(s);

	return l > w ? l : w;
}

static void print_text(struct run_rec **runs, size_t nr)
{
	struct row *rows = xcalloc(nr, sizeof(*rows));
	int w_id = 2, w_st = 7, w_status = 6, w_tag = 3, w_tg = 7;

	for (size_t i = 0; i < nr; i++) {
		struct row *rw = &rows[i];

		snprintf(rw->id, sizeof(rw->id), "%lld",
			 (long long)runs[i]->id);
		fmt_local(rw->started, sizeof(rw->started), runs[i]->started);
		rw->status = runs[i]->status ? runs[i]->status : "?";
		rw->tag = runs[i]->tag && *runs[i]->tag ? runs[i]->tag : "-";
		rw->targets = target_names(runs[i]);
		rw->workloads = workload_names(runs[i]);
		w_id = width(w_id, rw->id);
		w_st = width(w_st, rw->started);
		w_status = width(w_status, rw->status);
		w_tag = width(w_tag, rw->tag);
		w_tg = width(w_tg, rw->targets);
	}
	printf("%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", w_id, "ID", w_st,
	       "STARTED", w_status, "STATUS", w_tag, "TAG", w_tg, "TARGETS",
	       "WORKLOADS");
	for (size_t i = 0; i < nr; i++) {
		struct row *rw = &rows[i];

		printf("%*s  %-*s  %-*s  %-*s  %-*s  %s\n", w_id, rw->id,
		       w_st, rw->started, w_status, rw->status, w_tag, rw->tag,
		       w_tg, rw->targets, rw->workloads);
		free(rw->targets);
		free(rw->workloads);
	}
	free(rows);
}

int cmd_results(int argc, char **argv)
{
	struct results_args a = { .fmt.format = "text" };
	const char *db, *format;
	struct store *st;
	struct run_rec **runs;
	size_t nr;
	long long id;
	bool rm;
	int first, rc = EXIT_OK;

	first = cmdopt_parse(&cmd_results_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	if (first < argc)
		return cmdopt_usage_error(&cmd_results_opts, "unexpected "
					  "argument '%s'", argv[first]);
	db = a.store.db;
	format = a.fmt.format;
	id = a.rm;
	rm = id > 0;

	/* Listing only reads; --rm is the one write, on a file that
	 * must already be there. */
	if (rm ? store_open_existing_rw(db, &st) : store_open_existing(db, &st))
		return EXIT_RUNTIME;
	if (rm) {
		if (store_delete_run(st, id))
			rc = EXIT_RUNTIME;
		else
			printf("removed run %lld\n", id);
	} else if (store_list_runs(st, &runs, &nr)) {
		rc = EXIT_RUNTIME;
	} else {
		if (!strcmp(format, "json")) {
			if (json_print_run_list(runs, nr))
				rc = EXIT_RUNTIME;
		} else if (!strcmp(format, "csv")) {
			csv_write_run_list(stdout, runs, nr);
		} else if (!nr) {
			printf("no runs stored in '%s'\n", store_path(st));
		} else {
			print_text(runs, nr);
		}
		for (size_t i = 0; i < nr; i++)
			run_rec_free(runs[i]);
		free(runs);
	}
	store_close(st);
	return rc;
}
