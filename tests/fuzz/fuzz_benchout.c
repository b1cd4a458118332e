/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_benchout.c - libFuzzer target for what external benchmarks print
 * and fslab parses: fio's JSON (src/workloads/fio/fiojson.c) and the exec
 * workload's stdout contracts, dbench's and fs_mark's output
 * (src/workloads/exec/parse.c).  The first input byte picks the parser.
 *
 * A rejected output must have a reason; an accepted one gives finite
 * figures (no NaN bandwidth, no NaN metric) and names.
 */
#include "fuzz.h"

#include <math.h>

#include "util/util.h"
#include "workloads/exec/internal.h"
#include "workloads/fio/internal.h"

FUZZ_INIT_DEFAULT()

static void fio(const char *s, size_t len)
{
	struct fio_result r;
	char err[512] = "";

	if (fio_json_parse(s, len, &r, err, sizeof(err)) < 0) {
		FUZZ_CHECK(err[0]);
		return;
	}
	FUZZ_CHECK(r.nr_jobs > 0 && r.version);
	for (size_t i = 0; i < r.nr_jobs; i++)
		for (int d = 0; d < FIO_NR_DIRS; d++)
			FUZZ_CHECK(!isnan(r.jobs[i].dir[d].bw_bytes) &&
				   !isnan(r.jobs[i].dir[d].iops));
	fio_result_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int (*parsers[])(const char *, struct exec_metrics *, char *,
			 size_t) = { exec_parse_lines, exec_parse_json,
				     exec_parse_dbench, exec_parse_fs_mark };
	struct exec_metrics m;
	char *s, err[512] = "";
	unsigned which;

	if (!size)
		return 0;
	which = data[0] % 5;
	s = fuzz_str(data + 1, size - 1);
	if (which == 4) {
		fio(s, strlen(s));
		free(s);
		return 0;
	}
	if (parsers[which](s, &m, err, sizeof(err)) < 0) {
		FUZZ_CHECK(err[0]);
	} else {
		for (size_t i = 0; i < m.nr; i++)
			FUZZ_CHECK(m.v[i].name[0] && isfinite(m.v[i].value));
		exec_metrics_release(&m);
	}
	free(s);
	return 0;
}
