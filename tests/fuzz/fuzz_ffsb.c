/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_ffsb.c - libFuzzer target for FFSB profiles
 * (ffsb_profile_parse, src/workloads/ffsb/profile.c), both the 5.x and
 * the 6.0 syntax.
 *
 * A rejected profile must come back with a reason naming "fuzz:" (the
 * file, and the line where there is one); an accepted one is validated
 * by the parser, so the pure helpers the workload calls on it (weights,
 * minimum size, seeded draws) must run on it without tripping.
 */
#include "fuzz.h"

#include "workloads/ffsb/profile.h"
#include "util/pyrand.h"

FUZZ_INIT_DEFAULT()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct ffsb_profile p;
	char err[1024] = "";

	if (ffsb_profile_parse(s, "fuzz", &p, err, sizeof(err)) < 0) {
		FUZZ_CHECK(fuzz_names(err, "fuzz"));
		fprintf(stderr, "rejected: %s\n", err);
		free(s);
		return 0;
	}
	for (size_t i = 0; i < p.nr_tg; i++) {
		struct pyrand r;

		FUZZ_CHECK(ffsb_tg_total_weight(&p.tg[i]) > 0);
		pyrand_seed(&r, ffsb_thread_seed(1, (unsigned)i));
		for (int k = 0; k < 4; k++)
			FUZZ_CHECK(ffsb_choose_op(&p.tg[i], &r) < FFSB_OP_NR);
	}
	for (size_t i = 0; i < p.nr_fs; i++) {
		struct pyrand r;

		pyrand_seed(&r, 1);
		(void)ffsb_fs_min_size(&p.fs[i]);
		for (int k = 0; k < 4; k++)
			(void)ffsb_choose_size(&p.fs[i], &r);
	}
	ffsb_profile_release(&p);
	free(s);
	return 0;
}
