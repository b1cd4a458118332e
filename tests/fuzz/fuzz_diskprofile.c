/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_diskprofile.c - libFuzzer target for disk profiles
 * (disk_profile_parse, src/disk/profile.c: "KEY VALUE" lines, then the
 * seek-curve fit).
 *
 * A rejected profile must print one error naming "fuzz:" (with the line
 * where there is one).  An accepted one must have a seek curve that
 * meets its own figures (track-to-track at one cylinder, full stroke at
 * all of them, the average over all seek combinations) and never falls,
 * and the model must give a finite, non-negative time for a small mixed
 * stream on it.
 */
#include "fuzz.h"

#include <math.h>

#include "disk/diskmodel.h"
#include "util/util.h"

FUZZ_INIT_DEFAULT()

static void check_curve(const struct disk_profile *p)
{
	double span = p->full_ms - p->t2t_ms, prev = 0;

	FUZZ_CHECK(p->ncyl >= 2 && p->rev_ms > 0);
	FUZZ_CHECK(fabs(disk_seek_ms(p, 1) - p->t2t_ms) <= 1e-6 * p->full_ms);
	FUZZ_CHECK(fabs(disk_seek_ms(p, p->ncyl) - p->full_ms) <=
		   1e-6 * p->full_ms);
	FUZZ_CHECK(fabs(disk_seek_mean_ms(p) - p->avg_ms) <= 0.01 * span);
	FUZZ_CHECK(disk_seek_ms(p, 0) == 0);
	for (double d = 1; d <= p->ncyl; d = d * 1.7 + 1) {
		double s = disk_seek_ms(p, d);

		FUZZ_CHECK(isfinite(s) && s >= prev - 1e-9 * p->full_ms);
		prev = s;
	}
}

static void check_model(const struct disk_profile *p)
{
	struct disk_req rq[64];
	struct disk_result res;
	uint64_t last = (uint64_t)(p->capacity / 512);

	for (size_t i = 0; i < ARRAY_SIZE(rq); i++) {
		rq[i].sector = i % 3 ? (uint64_t)i * 64 : last - i * 8;
		rq[i].nr_sector = 8 + (uint32_t)(i % 5) * 56;
		rq[i].write = i % 7 == 3;
	}
	disk_model_run(p, rq, ARRAY_SIZE(rq), &res);
	FUZZ_CHECK(isfinite(res.time_s) && res.time_s >= 0);
	FUZZ_CHECK(res.reqs == ARRAY_SIZE(rq));
	FUZZ_CHECK(res.seek_s >= 0 && res.rot_s >= 0 && res.xfer_s > 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct disk_profile p;

	if (disk_profile_parse(s, "fuzz", &p) < 0) {
		FUZZ_CHECK(fuzz_names(last_error(), "fuzz"));
		free(s);
		return 0;
	}
	check_curve(&p);
	check_model(&p);
	disk_profile_release(&p);
	free(s);
	return 0;
}
