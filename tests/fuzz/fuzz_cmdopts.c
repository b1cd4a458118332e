/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_cmdopts.c - libFuzzer target for the small option-value parsers
 * of the commands: `fslab age --ops create=4,delete=3` (ager_parse_ops,
 * src/age/ager.c) and `fslab frag --bins 0,4k,1M` (frag_bins_parse,
 * src/frag/bins.c).  The first byte picks the parser, the rest is the
 * value.
 *
 * A rejected value must get a non-empty one-line reason; accepted bins
 * must be increasing and start at 0, accepted ops must weigh create and
 * delete.
 */
#include "fuzz.h"

#include "age/ager.h"
#include "age/oplog.h"
#include "frag/frag.h"

FUZZ_INIT_DEFAULT()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, err[512] = "";
	int rc;

	if (!size)
		return 0;
	s = fuzz_str(data + 1, size - 1);
	if (data[0] & 1) {
		struct frag_bins b;

		rc = frag_bins_parse(s, &b, err, sizeof(err));
		if (rc == 0) {
			FUZZ_CHECK(b.nr >= 1 && b.nr <= FRAG_MAX_BINS);
			FUZZ_CHECK(b.edge[0] == 0);
			for (size_t i = 1; i < b.nr; i++)
				FUZZ_CHECK(b.edge[i] > b.edge[i - 1]);
			FUZZ_CHECK(frag_bin_of(&b, 0) < b.nr);
			FUZZ_CHECK(frag_bin_of(&b, UINT64_MAX) < b.nr);
		}
	} else {
		unsigned w[AOP_NR_KINDS];

		rc = ager_parse_ops(s, w, err, sizeof(err));
		if (rc == 0)
			FUZZ_CHECK(w[AOP_CREATE] && w[AOP_DELETE]);
	}
	if (rc < 0)
		FUZZ_CHECK_REASON(s, err);
	free(s);
	return 0;
}
