/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_checks_brief.c - the setup check's brief view at the end of a run
 * (output/checks.c): findings of one check on several phases collapse
 * to one line naming every phase once, the target and workload written
 * once when they share them; other levels and other ids stay apart;
 * accepted findings and notes stay out, except the repetitions note (a
 * run's resolution); the summary line counts every finding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/checks.h"

struct spec {
	const char *id;
	enum check_level level;
	const char *subject, *reason;
	bool accepted;
};

static char *brief(const struct spec *sp, size_t nr)
{
	struct check_finding f[8];
	struct check_report rep = { .run_id = 7, .f = f, .nr = nr,
				    .nr_checks = 17, .nr_checked = 15 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_true(nr <= 8);
	for (size_t i = 0; i < nr; i++)
		f[i] = (struct check_finding){ sp[i].id, sp[i].level,
					       strdup(sp[i].subject),
					       strdup(sp[i].reason),
					       sp[i].accepted };
	assert_non_null(out);
	checks_print_text(out, &rep, true);
	assert_int_equal(fclose(out), 0);
	for (size_t i = 0; i < nr; i++) {
		free(f[i].subject);
		free(f[i].reason);
	}
	return buf;
}

static size_t lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_collapse(void **state)
{
	const struct spec f[] = {
		{ "cpu-bound", CHECK_WARNING, "ext4 compilebench/native-a",
		  "own CPU 0.38 s of 0.38 s", false },
		{ "cache-fit", CHECK_WARNING, "ext4 compilebench/native-a",
		  "222 MiB logical, 0 reached", false },
		{ "cpu-bound", CHECK_WARNING, "ext4 compilebench/native-b",
		  "own CPU 0.13 s of 0.13 s", false },
		{ "cpu-bound", CHECK_WARNING, "xfs compilebench/native-c",
		  "own CPU 0.6 s of 0.6 s", false },
		{ "cpu-bound", CHECK_WARNING, "ext4 compilebench/native-d",
		  "own CPU 0.1 s of 0.1 s", true },
		{ "virtual-machine", CHECK_NOTE, "machine", "a VM", false },
	};
	char *s = brief(f, 6);

	(void)state;
	/* summary + cpu-bound + cache-fit + coverage */
	assert_int_equal(lines(s), 4);
	assert_non_null(strstr(s, "setup check: 0 invalid, 4 warnings, 1 "
				  "note, 1 accepted ('fslab check 7' for "
				  "all)\n"));
	assert_non_null(strstr(s, "  warning cpu-bound (3): ext4 "
				  "compilebench/native-a, native-b, xfs "
				  "compilebench/native-c: a phase whose own "
				  "CPU"));
	assert_non_null(strstr(s, "; the first: own CPU 0.38 s of 0.38 s\n"));
	assert_non_null(strstr(s, "  warning cache-fit: ext4 "
				  "compilebench/native-a: 222 MiB logical, 0 "
				  "reached\n"));
	assert_null(strstr(s, "native-d"));
	assert_null(strstr(s, "a VM"));
	free(s);
}

static void test_resolution_note(void **state)
{
	const struct spec f[] = {
		{ "repetitions", CHECK_NOTE, "ext4 ffsb",
		  "sees changes above 3.9 % (mdc)", false },
		{ "mitigations", CHECK_NOTE, "machine", "2 unmitigated",
		  false },
	};
	char *s = brief(f, 2);

	(void)state;
	assert_int_equal(lines(s), 3);
	assert_non_null(strstr(s, "setup check: no warning, 2 notes"));
	assert_non_null(strstr(s, "  note    repetitions: ext4 ffsb: sees "
				  "changes above 3.9 % (mdc)\n"));
	assert_null(strstr(s, "unmitigated"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collapse),
		cmocka_unit_test(test_resolution_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
