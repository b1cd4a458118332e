// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plan.c - `fslab plan RUN|TAG --change PCT`: repetitions needed, from
 * a stored pilot run (engine: compare/plan.c; text: output/plantext.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "compare/load.h"
#include "compare/plan.h"
#include "compare/sequential.h"
#include "compare/session.h"
#include "output/plantext.h"
#include "util/defaults.h"
#include "util/util.h"

struct plan_args {
	struct cmdopt_store store;
	double change, alpha, min_change;
	long long min_repeat, max_repeat, sims;
	uint64_t seed;
};

static const struct cmdopt plan_table[] = {
	CMDOPT_INCLUDE_AT(struct plan_args, store, cmdopt_store_opts),
	CMDOPT_PCT(0, "change", struct plan_args, change, "PCT", 0, 1000,
		   NULL, "the change to detect, in % (required)"),
	CMDOPT_DBL_OPEN(0, "alpha", struct plan_args, alpha, "LEVEL", 0, 0.5,
			"0.05", "family-wise error level"),
	CMDOPT_DBL(0, "min-change", struct plan_args, min_change, "PCT", 0,
		   HUGE_VAL, "2", "--until decided's practical threshold"),
	CMDOPT_INTEGER(0, "min-repeat", struct plan_args, min_repeat, "N", 3,
		       SEQ_MAX_LOOKS,
		       "--until decided's first look (default "
		       FSLAB_STR(SEQ_DEFAULT_MIN_REPEAT) ")"),
	CMDOPT_INTEGER(0, "max-repeat", struct plan_args, max_repeat, "N", 3,
		       SEQ_MAX_LOOKS,
		       "--until decided's cap (default "
		       FSLAB_STR(SEQ_DEFAULT_MAX_REPEAT) ")"),
	CMDOPT_INTEGER(0, "sims", struct plan_args, sims, "N", 0, 1000000,
		       "simulated sequences (default 2000; 0: none)"),
	CMDOPT_UINT64(0, "seed", struct plan_args, seed, "N",
		      FSLAB_STR(FSLAB_DEFAULT_SEED), "seed of the simulation"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_plan_opts = {
	.name = "plan",
	.summary = "repetitions a comparison needs, from a pilot run",
	.usage = "RUN|TAG --change PCT [--db PATH] [--alpha LEVEL]\n"
		 "[--min-change PCT] [--min-repeat N] [--max-repeat N]\n"
		 "[--sims N] [--seed N]",
	.desc = "From the spread of a stored pilot run, per key metric and "
		"configuration: the repetitions a fixed design needs to "
		"detect a change of PCT % at 80 % power (at Holm's first-step "
		"level, as compare's mdc), the expected repetitions under "
		"'run --until decided' (by seeded simulation at the pilot's "
		"CoV), and, where a phase runs several instances in one "
		"repetition, the variance between repetitions and between "
		"instances (Kalibera and Jones) with where more measuring "
		"pays most.",
	.opts = plan_table,
	.args = CMDOPT_C_RUN,
	.footer = "Exit codes: 0 success, 1 the run cannot be read, 2 usage "
		  "error.",
};

int cmd_plan(int argc, char **argv)
{
	struct plan_args a = {
		.alpha = COMPARE_ALPHA, .min_change = COMPARE_MIN_CHANGE_PCT,
		.min_repeat = SEQ_DEFAULT_MIN_REPEAT,
		.max_repeat = SEQ_DEFAULT_MAX_REPEAT, .sims = 2000,
		.seed = FSLAB_DEFAULT_SEED,
	};
	struct compare_opts o;
	struct cmp_input in;
	struct cmp_session s;
	struct plan p;
	int first;

	first = cmdopt_parse(&cmd_plan_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	if (argc - first != 1)
		return cmdopt_usage_error(&cmd_plan_opts, "name one pilot "
					  "RUN or TAG");
	if (!(a.change > 0))
		return cmdopt_usage_error(&cmd_plan_opts, "--change PCT "
					  "above 0 is required");
	if (!(a.alpha > 0 && a.alpha < 0.5))
		return cmdopt_usage_error(&cmd_plan_opts, "--alpha wants a "
					  "level between 0 and 0.5");
	if (a.max_repeat < a.min_repeat)
		return cmdopt_usage_error(&cmd_plan_opts, "--max-repeat is "
					  "below --min-repeat");
	if (cmp_input_load(&a.store.db, a.store.db ? 1 : 0, argv + first, 1,
			   &in))
		return EXIT_RUNTIME;
	compare_opts_init(&o);
	o.alpha = a.alpha;
	o.min_change_pct = a.min_change;
	compare_session_build(&in, &o, &s);
	plan_build(&s, a.change, a.alpha, a.min_change, (int)a.min_repeat,
		   (int)a.max_repeat, (size_t)a.sims, a.seed, &p);
	plan_print(stdout, &p);
	plan_release(&p);
	compare_session_release(&s);
	cmp_input_release(&in);
	if (fflush(stdout)) {
		error_errno("cannot write to stdout");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
