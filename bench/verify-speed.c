/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify-speed.c - how fast the --verify pattern is generated and checked
 * on one core, in GB/s of CPU time (bench/verify-overhead.sh builds and
 * runs it).  CPU time, not wall time, so a busy machine does not skew it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util/verify.h"

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t chunk = 1 << 20, total = (size_t)(argc > 1 ? atol(argv[1]) : 4096) << 20;
	void *buf = aligned_alloc(4096, chunk);
	struct verify_bad bad;
	double t0, t1, t2;

	t0 = cpu_s();
	for (size_t off = 0; off < total; off += chunk)
		verify_fill(555, 17, off, buf, chunk);
	t1 = cpu_s();
	for (size_t off = 0; off < total; off += chunk) {
		verify_fill(555, 17, off, buf, chunk);
		if (!verify_check(555, 17, off, buf, chunk, &bad))
			return 1;
	}
	t2 = cpu_s();
	printf("fill_GBps %.2f\n", (double)total / (t1 - t0) / 1e9);
	/* fill+check minus fill: the check alone */
	printf("check_GBps %.2f\n", (double)total / ((t2 - t1) - (t1 - t0)) / 1e9);
	free(buf);
	return 0;
}
