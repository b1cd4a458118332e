/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_bisect.c - fslab bisect's axis file (steps numbered in file
 * order, their lines kept, comments and blank lines skipped, a bad line
 * named by its line), the step tag and the --metric split.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/bisect.h"

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/fslab-test-bisect.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_axis(void **state)
{
	char *path = write_tmp("# good first\n  ext4  \n\n"
			       "ext4:mount=sync\n\t# not a step\n"
			       "xfs:size=2G");
	struct bisect_axis ax;
	char err[512];

	(void)state;
	assert_int_equal(bisect_axis_load(path, true, &ax, err, sizeof(err)), 0);
	assert_int_equal(ax.nr, 3);
	assert_string_equal(ax.specs[0], "ext4");
	assert_string_equal(ax.specs[1], "ext4:mount=sync");
	assert_string_equal(ax.specs[2], "xfs:size=2G");
	assert_int_equal(ax.lines[0], 2);
	assert_int_equal(ax.lines[1], 4);
	assert_int_equal(ax.lines[2], 6);
	bisect_axis_release(&ax);
	unlink(path);
	free(path);
}

/* A steps: file holds any text a step command takes, not targets. */
static void test_axis_steps(void **state)
{
	char *path = write_tmp("# kernels\n6.1.0-25-amd64\n\n"
			       "  linux-image 6.12 'quoted'  \n");
	struct bisect_axis ax;
	char err[512];

	(void)state;
	assert_int_equal(bisect_axis_load(path, true, &ax, err, sizeof(err)),
			 -1);
	assert_int_equal(bisect_axis_load(path, false, &ax, err, sizeof(err)),
			 0);
	assert_int_equal(ax.nr, 2);
	assert_string_equal(ax.specs[0], "6.1.0-25-amd64");
	assert_string_equal(ax.specs[1], "linux-image 6.12 'quoted'");
	assert_int_equal(ax.lines[1], 4);
	bisect_axis_release(&ax);
	unlink(path);
	free(path);
}

static void test_axis_refused(void **state)
{
	char *path = write_tmp("ext4\n\next4:sze=1G\n");
	struct bisect_axis ax;
	char err[512], want[600];

	(void)state;
	assert_int_equal(bisect_axis_load(path, true, &ax, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:3: bad target 'ext4:sze=1G'", path);
	assert_memory_equal(err, want, strlen(want));
	assert_int_equal(ax.nr, 0);
	unlink(path);
	assert_int_equal(bisect_axis_load(path, true, &ax, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read"));
	free(path);
}

static void test_tag_and_metric(void **state)
{
	struct bisect_setup s = { .metric = strdup("summary/patch.avg_MiB/s") };
	char err[256], *t = bisect_step_tag("nightly", 12);

	(void)state;
	assert_string_equal(t, "nightly:step=12");
	free(t);
	/* the phase ends at the first '/': metric names carry their own */
	assert_int_equal(bisect_setup_metric(&s, err, sizeof(err)), 0);
	assert_string_equal(s.phase, "summary");
	assert_string_equal(s.name, "patch.avg_MiB/s");
	free(s.metric);
	s.metric = strdup("files/");
	assert_int_equal(bisect_setup_metric(&s, err, sizeof(err)), -1);
	free(s.metric);
	s.metric = strdup("/files/s");
	assert_int_equal(bisect_setup_metric(&s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "PHASE/METRIC"));
	bisect_setup_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_axis),
		cmocka_unit_test(test_axis_steps),
		cmocka_unit_test(test_axis_refused),
		cmocka_unit_test(test_tag_and_metric),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
