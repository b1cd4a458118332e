/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.h - one aging session: build the target, age it to a profile
 * (fill, then create/delete until the distributions converge) or by
 * replaying an op log, survey its fragmentation into the store as phases
 * of a workload run named "age", and optionally keep the aged image as a
 * golden copy.  `fslab age` (cmd/age.c) parses its command line into a
 * struct age_args and calls age_session().
 */
#ifndef FSLAB_AGE_SESSION_H
#define FSLAB_AGE_SESSION_H

#include <stdbool.h>
#include <stdint.h>

/* --data: how files get their bytes; true (non-zero) means written */
enum age_data { AGE_DATA_FALLOCATE = 0, AGE_DATA_WRITE = 1 };

struct age_args {
	const char *path, *target, *profile, *record, *replay, *save;
	const char *check, *db, *scratch, *tag, *with, *ops;
	double fullness, tolerance, budget_x, time_s;
	uint64_t seed, budget, max_ops, survey_every;
	enum age_data data;
	bool final_set, quiet;
};

/*
 * Run the session a describes; argc/argv (without "fslab") are stored as
 * the run's command line.  Returns an exit code (enum exit_code).
 */
int age_session(struct age_args *a, int argc, char **argv);

/* --check-golden NAME: copy the golden image and compare checksums.
 * Returns an exit code. */
int age_check_golden(const struct age_args *a);

#endif
