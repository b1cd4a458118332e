/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_spec.c - libFuzzer target for target SPEC strings
 * (target_spec_parse, src/fs/spec.c), the `--target` argument.
 *
 * A SPEC comes from the command line, so any byte string must either
 * parse into a spec with a name, or be refused with a non-empty one-line
 * reason.  Nothing is created: parsing is pure.
 */
#include "fuzz.h"

#include "fs/target.h"

FUZZ_INIT_DEFAULT()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct target_spec ts;
	char err[512] = "";

	if (target_spec_parse(s, &ts, err, sizeof(err)) == 0) {
		FUZZ_CHECK(ts.spec && ts.name);
		FUZZ_CHECK(ts.kind == TARGET_DIR || ts.path || ts.fstype);
		target_spec_release(&ts);
	} else {
		FUZZ_CHECK_REASON(s, err);
	}
	free(s);
	return 0;
}
