/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_ageprofile.c - libFuzzer target for aging profiles
 * (profile_parse, src/age/profile.c: [size]/[depth]/[age] sections of
 * "VALUE WEIGHT" lines).
 *
 * A rejected profile must print one error naming "fuzz:" (file and line
 * where there is one).  An accepted one must hold normalised shares and
 * increasing bucket bounds, and the bucket helpers `fslab age` calls on
 * every file must work on it.
 */
#include "fuzz.h"

#include <math.h>

#include "age/profile.h"
#include "util/util.h"

FUZZ_INIT_DEFAULT()

static void check_dist(const struct age_dist *d)
{
	uint64_t counts[AGE_MAX_BUCKETS] = { 0 };
	double sum = 0;

	FUZZ_CHECK(d->nr <= AGE_MAX_BUCKETS);
	for (size_t i = 0; i < d->nr; i++) {
		FUZZ_CHECK(d->share[i] >= 0 && d->share[i] <= 1);
		sum += d->share[i];
		counts[i] = i;
	}
	FUZZ_CHECK(d->nr == 0 || fabs(sum - 1) < 1e-6);
	if (d->nr) {
		(void)profile_pick_below(d, counts, d->nr);
		(void)profile_pick_above(d, counts, d->nr);
		(void)profile_distance(d, counts, d->nr);
		(void)profile_distance(d, counts, 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct age_profile p;

	memset(&p, 0, sizeof(p));
	if (profile_parse(s, "fuzz", &p) < 0) {
		FUZZ_CHECK(fuzz_names(last_error(), "fuzz"));
		free(s);
		return 0;
	}
	for (int d = 0; d < AGE_NR_DIMS; d++)
		check_dist(&p.d[d]);
	if (p.d[AGE_DIM_SIZE].nr) {
		const struct age_dist *d = &p.d[AGE_DIM_SIZE];
		uint64_t sizes[] = { 0, 1, 4095, 4096, 1 << 20, UINT64_MAX };

		for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
			FUZZ_CHECK(profile_size_bucket(d, sizes[i]) < d->nr);
		for (size_t i = 0; i < d->nr; i++) {
			uint64_t lo, hi;

			profile_size_range(d, i, &lo, &hi);
			FUZZ_CHECK(lo <= hi);
		}
	}
	if (p.d[AGE_DIM_DEPTH].nr)
		for (unsigned k = 0; k < 8; k++)
			(void)profile_depth_bucket(&p.d[AGE_DIM_DEPTH], k);
	if (p.d[AGE_DIM_AGE].nr)
		for (double g = 0; g < 1e6; g = g * 10 + 1)
			FUZZ_CHECK(profile_age_bucket(&p.d[AGE_DIM_AGE], g) <
				   p.d[AGE_DIM_AGE].nr);
	profile_release(&p);
	free(s);
	return 0;
}
