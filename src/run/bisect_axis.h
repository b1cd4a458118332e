/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect_axis.h - the axes of `fslab bisect` other than a file of
 * targets: git:REPO (the revisions from good to bad, each built by the
 * user's --build command into a prefix of its own) and steps:FILE (one
 * step identifier a line, each set up by the user's --step command
 * before every measurement).  Both measure on one target (-t).
 *
 * Every command runs through util/spawn.h with /bin/sh -c: the user's
 * command is theirs to write; what fslab puts into it (a prefix, a
 * step's line) is shell-quoted.  Work trees and prefixes live in
 * directories fslab makes itself (mkdtemp) under the scratch folder, and
 * only those are ever removed.
 */
#ifndef FSLAB_RUN_BISECT_AXIS_H
#define FSLAB_RUN_BISECT_AXIS_H

#include <stdbool.h>
#include <stddef.h>

#include "run/bisect.h"

/* "git:" -> BISECT_GIT, and so on; *path after the colon.  -1: none. */
int bisect_axis_kind(const char *arg, enum bisect_kind *kind,
		     const char **path);

/*
 * Load s's axis (s->kind, s->src set).  A new bisection takes its ends
 * from good and bad (step numbers, refs for git:; NULL: the first and
 * the last step, HEAD~1 and HEAD) and sets s->good, bad, nr_steps and
 * for git: the ends' ids; a resumed one (resume) checks the axis still
 * has the steps it had.  -1 with err.
 */
int bisect_axis_open(struct bisect_setup *s, struct bisect_axis *ax,
		     bool resume, const char *good, const char *bad,
		     char *err, size_t errlen);

/* s with every `key` replaced by val (allocated). */
char *bisect_subst(const char *s, const char *key, const char *val);

/* What a step's preparation left: a folder fslab made, to remove. */
struct bisect_prep {
	char *dir;            /* NULL: nothing made */
	char *prefix;         /* git: the install prefix under dir */
};

/*
 * Prepare step k (its label `label`) for a measurement: for git, check
 * the revision out under a new folder of scratch and run the build
 * command there; for steps, run the step command.  0 when ready; 1 when
 * the command failed (the step is untestable, why says so); -1 when
 * fslab itself could not (why says so too).  Interrupts stop the
 * command.
 */
int bisect_prepare(const struct bisect_setup *s, const char *scratch,
		   const char *label, size_t k, struct bisect_prep *p,
		   char *why, size_t whylen);

/* Remove what the preparation made. */
void bisect_prep_release(struct bisect_prep *p);

#endif
