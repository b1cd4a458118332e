/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_histblob.c - libFuzzer target for histogram blobs and packs
 * (src/store/histblob.c), which read what a store file or another
 * process hands over.  The first 8 bytes are the row's count, the rest
 * the blob: a decoded blob must hold exactly count samples inside the
 * bucket scheme and encode back to the same bytes (one spelling per
 * histogram); a refused one must say why.  The same bytes go through
 * histblob_unpack as a pack.
 */
#include "fuzz.h"

#include <string.h>

#include "measure/result.h"
#include "stats/lathist.h"
#include "store/histblob.h"
#include "util/util.h"

FUZZ_INIT_DEFAULT()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hist_rec h = { .nr_buckets = LATHIST_NR };
	struct phase_rec p = { 0 };
	char why[200] = "";
	uint64_t total = 0;

	if (size < 8)
		return 0;
	memcpy(&h.count, data, 8);
	if (!histblob_decode(&h, data + 8, size - 8, why, sizeof(why))) {
		unsigned char *back;
		size_t len;

		FUZZ_CHECK((uint64_t)h.first + h.nr <= LATHIST_NR);
		for (uint32_t i = 0; i < h.nr; i++)
			total += h.b[i];
		FUZZ_CHECK(total == h.count);
		back = histblob_encode(&h, &len);
		FUZZ_CHECK(len == size - 8 && !memcmp(back, data + 8, len));
		free(back);
	} else {
		FUZZ_CHECK(why[0]);
	}
	hist_rec_release(&h);
	why[0] = '\0';
	if (histblob_unpack(&p, data, size, why, sizeof(why)))
		FUZZ_CHECK(why[0]);
	phase_rec_release(&p);
	return 0;
}
