// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decision.c - the text of a run's --until decided state (decision.h):
 * one line for the run, one per comparison, its change with the
 * repeated confidence interval of the look that decided it.
 */
#include <math.h>

#include "output/decision.h"

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

void decision_print(FILE *out, const struct run_rec *r)
{
	if (!r->until_rule)
		return;
	fprintf(out, "\nuntil %s: %s (%d repetition%s)\n", r->until_rule,
		or_dash(r->decision), r->decision_reps,
		r->decision_reps == 1 ? "" : "s");
	for (size_t i = 0; i < r->nr_decisions; i++) {
		const struct decision_rec *d = &r->decisions[i];

		fprintf(out, "  %s%s%s %s %s, %s vs baseline: %s",
			or_dash(d->workload), d->name ? " " : "",
			d->name ? d->name : "", or_dash(d->phase),
			or_dash(d->metric), or_dash(d->label),
			or_dash(d->verdict));
		if (isfinite(d->pct))
			fprintf(out, " %+.1f%%", d->pct);
		if (isfinite(d->lo_pct) && isfinite(d->hi_pct))
			fprintf(out, " [%+.1f%%, %+.1f%%]", d->lo_pct,
				d->hi_pct);
		if (d->reps)
			fprintf(out, " at %d", d->reps);
		else if (isfinite(d->mdc_pct))
			fprintf(out, " (mdc %.1f%%)", d->mdc_pct);
		fputc('\n', out);
	}
}
