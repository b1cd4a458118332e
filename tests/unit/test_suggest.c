/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_suggest.c - the one "did you mean" rule: closest candidate, first
 * on a tie, offered only within 1 + a third of the typed length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/suggest.h"

static const char *pick(const char *key, const char *const *cands)
{
	struct suggest s;

	suggest_init(&s, key);
	for (; *cands; cands++)
		suggest_add(&s, *cands);
	return suggest_result(&s);
}

static void test_suggest(void **state)
{
	static const char *const cmds[] = { "run", "results", "report",
					    "compare", "cleanup", NULL };
	struct suggest s;

	(void)state;
	assert_string_equal(pick("comapre", cmds), "compare");
	assert_string_equal(pick("rn", cmds), "run");     /* 1 <= 1 + 0 */
	assert_string_equal(pick("resluts", cmds), "results");
	assert_null(pick("xyz", cmds));                   /* 3 > 1 + 1 */
	assert_null(pick("frobnicate", cmds));
	assert_null(pick("anything", (const char *const[]){ NULL }));
	/* the first of equally close candidates; add says when it leads */
	suggest_init(&s, "ab");
	assert_true(suggest_add(&s, "ac"));
	assert_false(suggest_add(&s, "ad"));
	assert_string_equal(suggest_result(&s), "ac");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suggest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
