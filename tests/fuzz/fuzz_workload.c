/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_workload.c - libFuzzer target for workload option strings
 * (`--workload NAME:key=val,...`: run_workload_parse in src/run/runner.c,
 * which is kv_parse + opt_set of src/util/opt.c plus each workload's
 * check()).
 *
 * An accepted string is rendered back with opt_format() and parsed again:
 * the canonical form must be accepted and render the same.  A rejected
 * one must carry a non-empty one-line reason.  Some checks look at files
 * (ffsb profile=, tree model=, compilebench sources=), so inputs with a
 * '/' are skipped: the most a check can then do is read a regular file
 * or list a directory of the current one, never a device, FIFO or /proc
 * file, and nothing is written.
 */
#include "fuzz.h"

#include <stdbool.h>

#include "run/runner.h"
#include "util/opt.h"
#include "util/util.h"
#include "phase/workload.h"

FUZZ_INIT_DEFAULT()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_workload w, w2;
	char err[1024] = "", err2[1024] = "";
	char *s, *canon, *again, *canon2;

	if (memchr(data, '/', size) || size > 4096)
		return 0;
	s = fuzz_str(data, size);
	if (run_workload_parse(s, &w, err, sizeof(err)) < 0) {
		FUZZ_CHECK_REASON(s, err);
		free(s);
		return 0;
	}
	canon = opt_format(w.wl->opts, w.opts);
	again = xasprintf("%s:%s", w.wl->name, canon);
	if (run_workload_parse(again, &w2, err2, sizeof(err2)) < 0) {
		fprintf(fuzz_err, "canonical form '%s' rejected: %s\n",
			again, err2);
		FUZZ_CHECK(!"opt_format output parses");
	}
	canon2 = opt_format(w2.wl->opts, w2.opts);
	if (strcmp(canon, canon2))
		fprintf(fuzz_err, "'%s' != '%s'\n", canon, canon2);
	FUZZ_CHECK(!strcmp(canon, canon2));
	free(canon2);
	run_workload_release(&w2);
	free(again);
	free(canon);
	run_workload_release(&w);
	free(s);
	return 0;
}
