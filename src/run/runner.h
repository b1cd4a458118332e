/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner.h - the run loop shared by `fslab run` and the drop-in
 * `fslab compilebench`: build each target, run each workload on it,
 * measure and store every phase, print each workload's classic report,
 * tear everything down (also on SIGINT/SIGTERM).
 */
#ifndef FSLAB_RUNNER_H
#define FSLAB_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "fs/target.h"
#include "phase/phase.h"
#include "phase/workload.h"

struct run_workload {
	const struct workload *wl;
	void *opts;          /* parsed option struct, wl->opts_size bytes */
	char *spec;          /* as given on the command line */
};

struct run_config {
	struct target_spec *targets;
	size_t nr_targets;
	struct run_workload *wls;
	size_t nr_wls;
	int repeat;              /* >= 1; the minimum with until_cov */
	int max_repeat;          /* upper bound with until_cov */
	double until_cov;        /* >0: repeat until CoV % <= this */
	bool until_decided;      /* --until decided: repeat until the
				  * sequential test decides every key metric
				  * (compare/sequential.h), max_repeat at most */
	int min_repeat;          /* its first look */
	double min_change_pct;   /* its practical threshold */
	bool change_planned;     /* --min-change or --until decided named
				  * it: recorded as fact plan/min_change_pct
				  * for the setup check */
	double alpha;            /* its family-wise level */
	int stall_ms;            /* a gap between completions this long
				  * is a stall (phase/stall.h); 0: default */
	bool reuse;              /* one filesystem per target for all reps */
	bool blocked;            /* A A A B B B instead of A B A B A B */
	bool fixed_order;        /* A B A B every repetition instead of the
				  * counterbalanced order (order.h) */
	size_t fresh_vs_aged;    /* >0: targets[i + n] is targets[i] aged */
	const char *db;          /* NULL = store_default_path(); "" = no store */
	const char *scratch;     /* image + mount point directory */
	const char *tag;         /* NULL = none */
	const char *json;        /* --json FILE, or NULL */
	const char *destroy_data;
	uint64_t seed;
	const char *cmdline;     /* for the run row */
	bool plain;              /* only the workloads' own output (drop-ins) */
	bool verify;             /* --verify, copied to every wl_ctx */
	target_age_fn age;       /* ages an age=PROFILE target (fs/target.h) */
	const char **accept;     /* --accept: check ids silenced on purpose */
	size_t nr_accept;
	struct phase_hook *hooks; /* run around every phase (phase.h) */
	int co_metrics;          /* enum cometric_level; 0 = basic */
	const struct fact *facts; /* recorded with the run as they are
				  * (fslab bisect: which step it measured) */
	size_t nr_facts;
	bool no_report;          /* no per-workload report or run summary
				  * on stdout (fslab bisect prints its own
				  * line per run); errors still go out */
	size_t nr_hooks, alloc_hooks;
};

/* Append a copy of hook to cfg's phase hooks; free(cfg->hooks) after. */
void run_config_add_hook(struct run_config *cfg,
			 const struct phase_hook *hook);

/*
 * SIGINT/SIGTERM/SIGHUP: the first sets phase_stop_requested(), the
 * second kills.  runner_execute installs it; other commands that run
 * workloads (fslab age --with) call it themselves.
 */
void runner_install_signals(void);

/* Run everything; returns an exit code (enum exit_code). */
int runner_execute(const struct run_config *cfg);

/* Parse "NAME[:k=v,...]" into w (allocates w->opts).  0 or -1 with err. */
int run_workload_parse(const char *s, struct run_workload *w, char *err,
		       size_t errlen);
void run_workload_release(struct run_workload *w);

#endif
