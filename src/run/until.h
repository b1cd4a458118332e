/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * until.h - `fslab run --until decided`: after every complete
 * repetition (each target once, in the counterbalanced order) from
 * --min-repeat on, compare the run's stored repetitions as `fslab
 * compare RUN` would and carry the sequential test of
 * compare/sequential.h one look further; stop when every key metric is
 * decided or at --max-repeat.  Each look's state is written to the
 * store at once, so an interrupted run keeps its last complete look.
 */
#ifndef FSLAB_UNTIL_H
#define FSLAB_UNTIL_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/sequential.h"
#include "measure/result.h"
#include "store/store.h"

struct run_writer;

struct until {
	struct cmp_seq seq;
	int min_n, max_n;
	double alpha, min_change_pct;
	bool on;
};

/*
 * Off (every look says "not yet", the cap aside) unless on; else 0, or
 * -1 (with a message) when the bounds make no design.
 */
int until_init(struct until *u, bool on, int min_n, int max_n, double alpha,
	       double min_change_pct);
void until_release(struct until *u);

/*
 * The look after n complete repetitions of w's run (dbpath: where it is
 * stored; a writer without a store: judge the run as held in memory).
 * Records the state in the run (and through the writer) and says so on
 * out.  True when the series is done:
 * every comparison decided, or n reached the cap.  Collective under
 * MPI: every rank gets rank 0's answer.
 */
bool until_look(struct until *u, struct run_writer *w, const char *dbpath,
		int n, FILE *out);

#endif
