/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_golden.c - libFuzzer target for the aged-image metadata file
 * <scratch>/golden/NAME.meta (golden_load_meta, src/fs/golden.c), the
 * only key=value config file fslab reads back.
 *
 * The loader takes a scratch directory, so each input is written to a
 * private temporary one (removed at exit) and loaded from there.  A
 * rejected file must get a message naming it; an accepted one has the
 * two keys the loader requires.
 */
#include "fuzz.h"

#include <sys/stat.h>

#include "fs/golden.h"
#include "util/util.h"

static char dir[] = "/tmp/fslab-fuzz-golden.XXXXXX";
static char *meta;

static void cleanup(void)
{
	char *g = xasprintf("%s/golden", dir);

	unlink(meta);
	rmdir(g);
	rmdir(dir);
	free(g);
	free(meta);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *g;

	(void)argc;
	(void)argv;
	fuzz_init();
	if (!mkdtemp(dir))
		abort();
	g = xasprintf("%s/golden", dir);
	if (mkdir(g, 0700) < 0)
		abort();
	free(g);
	meta = golden_meta_path(dir, "fuzz");
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct golden_meta m;
	FILE *f = fopen(meta, "w");

	FUZZ_CHECK(f);
	FUZZ_CHECK(fwrite(data, 1, size, f) == size);
	FUZZ_CHECK(fclose(f) == 0);
	if (golden_load_meta(dir, "fuzz", &m) < 0) {
		FUZZ_CHECK(strstr(last_error(), "fuzz.meta"));
		return 0;
	}
	FUZZ_CHECK(m.fstype && m.checksum);
	golden_meta_release(&m);
	return 0;
}
