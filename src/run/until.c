// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * until.c - the looks of `run --until decided` (see until.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/load.h"
#include "compare/session.h"
#include "phase/par.h"
#include "run/until.h"

#include "store/writer.h"
#include "util/util.h"

int until_init(struct until *u, bool on, int min_n, int max_n, double alpha,
	       double min_change_pct)
{
	struct compare_opts o;

	memset(u, 0, sizeof(*u));
	u->min_n = min_n;
	u->max_n = max_n;
	u->alpha = alpha;
	u->min_change_pct = min_change_pct;
	if (!on)
		return 0;
	compare_opts_init(&o);
	o.alpha = alpha;
	o.min_change_pct = min_change_pct;
	if (cmp_seq_init(&u->seq, min_n, max_n, &o) < 0)
		return error("--until decided: no sequential design for "
			     "repetitions %d to %d (at most %d looks)",
			     min_n, max_n, SEQ_MAX_LOOKS);
	u->on = true;
	return 0;
}

void until_release(struct until *u)
{
	if (u->on)
		cmp_seq_release(&u->seq);
	memset(u, 0, sizeof(*u));
}

/*
 * The run as compare sees it: loaded from the store (load.c, the same
 * path `fslab compare RUN` takes), or, without a store, the record in
 * memory, which holds the same rows.
 */
static int load(struct run_rec *run, struct store *st, const char *dbpath,
		struct cmp_input *in, bool *owned)
{
	char id[32];
	char *args[] = { id };

	*owned = false;
	if (st && dbpath && run->id > 0) {
		snprintf(id, sizeof(id), "%" PRId64, run->id);
		if (!cmp_input_load(&dbpath, 1, args, 1, in)) {
			*owned = true;
			return 0;
		}
		warning("--until decided: judging the run as held in memory");
	}
	memset(in, 0, sizeof(*in));
	in->runs = xcalloc(1, sizeof(*in->runs));
	in->labels = xcalloc(1, sizeof(*in->labels));
	in->arg_of = xcalloc(1, sizeof(*in->arg_of));
	in->arg_labels = xcalloc(1, sizeof(*in->arg_labels));
	in->runs[0] = run;
	in->labels[0] = in->arg_labels[0] = (char *)"run";
	in->nr = in->nr_args = 1;
	return 0;
}

static void unload(struct cmp_input *in, bool owned)
{
	if (owned) {
		cmp_input_release(in);
		return;
	}
	free(in->runs);
	free(in->labels);
	free(in->arg_of);
	free(in->arg_labels);
}

/* The state after this look into run's records. */
static void record(struct until *u, struct run_rec *run, int n, bool done)
{
	const struct cmp_seq *s = &u->seq;

	run_rec_clear_decisions(run);
	free(run->until_rule);
	free(run->decision);
	run->until_rule = xstrdup("decided");
	run->decision_reps = n;
	if (done && !s->nr) {
		/* too short, too few, no direction: nothing to decide */
		run->decision = xstrdup("no verdict: no key metric could be "
					"judged");
	} else if (done) {
		run->decision = xstrdup("decided");
	} else {
		double mdc = cmp_seq_mdc(s);

		run->decision = isfinite(mdc) ?
			xasprintf("undecided at %d: mdc %.1f %%", n, mdc) :
			xasprintf("undecided at %d", n);
	}
	for (size_t i = 0; i < s->nr; i++) {
		const struct cmp_seq_item *it = &s->items[i];
		struct decision_rec *d = run_rec_new_decision(run);

		d->workload = xstrdup(it->workload);
		d->name = it->name ? xstrdup(it->name) : NULL;
		d->phase = xstrdup(it->phase);
		d->metric = xstrdup(it->metric);
		d->label = xstrdup(it->label);
		d->verdict = xstrdup(cmp_seq_item_verdict(it));
		d->reps = it->c.decided_n;
		d->pct = it->c.pct;
		d->lo_pct = it->c.lo_pct;
		d->hi_pct = it->c.hi_pct;
		d->mdc_pct = it->c.mdc_pct;
	}
}

bool until_look(struct until *u, struct run_writer *w, const char *dbpath,
		int n, FILE *out)
{
	struct run_rec *run = w->run;
	struct store *st = w->st;
	uint64_t stop = 0;

	if (!u->on || n < u->min_n)
		return n >= u->max_n;
	if (par_rank() == 0) {
		struct compare_opts o;
		struct cmp_session ses;
		struct cmp_input in;
		bool owned, done;
		size_t decided;

		compare_opts_init(&o);
		o.alpha = u->alpha;
		o.min_change_pct = u->min_change_pct;
		load(run, st, dbpath, &in, &owned);
		compare_session_build(&in, &o, &ses);
		done = cmp_seq_look(&u->seq, ses.tabs, ses.nr, n);
		compare_session_release(&ses);
		unload(&in, owned);
		record(u, run, n, done);
		if (writer_decisions(w) < 0)
			warning("--until decided: the decision after %d "
				"repetitions is not stored", n);
		decided = u->seq.nr - u->seq.open;
		fprintf(out, "\nuntil decided: after %d repetition%s: %zu of "
			"%zu comparison%s decided%s%s\n", n, n == 1 ? "" : "s",
			decided, u->seq.nr, u->seq.nr == 1 ? "" : "s",
			done ? "" : "; ", done ? "" : run->decision);
		fflush(out);
		stop = done || n >= u->max_n;
	}
	par_allreduce_u64(&stop, 1, PAR_MAX);
	return stop != 0;
}
