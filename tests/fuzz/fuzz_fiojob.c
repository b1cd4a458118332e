/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_fiojob.c - libFuzzer target for fio job files as fslab reads them
 * (src/workloads/fio/jobfile.c): the root-safety scan and the sections.
 *
 * A rejected file must have a reason; an accepted one renders back to
 * itself without overrides (modulo a final newline), parses again to the
 * same sections, and with overrides still parses to them: the appended
 * lines can never open a way out of the workload directory.
 */
#include "fuzz.h"

#include "util/util.h"
#include "workloads/fio/internal.h"

FUZZ_INIT_DEFAULT()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ov[] = { "size=1m", "runtime=2", NULL };
	char *s = fuzz_str(data, size), *out, err[512] = "";
	struct fio_jobfile jf, jf2;

	if (fio_jobfile_parse(s, &jf, err, sizeof(err)) < 0) {
		FUZZ_CHECK_REASON(s, err);
		free(s);
		return 0;
	}
	FUZZ_CHECK(jf.nr_sections > 0);
	out = fio_jobfile_render(&jf, NULL);
	FUZZ_CHECK(!strncmp(out, s, strlen(out) - 1));
	free(out);
	out = fio_jobfile_render(&jf, ov);
	FUZZ_CHECK(fio_jobfile_parse(out, &jf2, err, sizeof(err)) == 0);
	FUZZ_CHECK(jf2.nr_sections == jf.nr_sections);
	for (size_t i = 0; i < jf.nr_sections; i++)
		FUZZ_CHECK(!strcmp(jf.sections[i].name, jf2.sections[i].name));
	fio_jobfile_release(&jf2);
	fio_jobfile_release(&jf);
	free(out);
	free(s);
	return 0;
}
