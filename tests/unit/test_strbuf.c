/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_strbuf.c - the strbuf invariants: buf never NULL and always
 * terminated, len < alloc once allocated, the empty buffer not owned.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static void check_invariants(const struct strbuf *sb)
{
	assert_non_null(sb->buf);
	assert_int_equal(sb->buf[sb->len], '\0');
	if (sb->alloc)
		assert_true(sb->len < sb->alloc);
	else
		assert_ptr_equal(sb->buf, strbuf_slopbuf);
}

static void test_strbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char big[300];
	size_t len;
	char *s;

	(void)state;
	check_invariants(&sb);
	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "fslab");
	strbuf_addch(&sb, ' ');
	strbuf_addf(&sb, "%s=%d", "runs", 30);
	check_invariants(&sb);
	assert_string_equal(sb.buf, "fslab runs=30");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strbuf_addf(&sb, "[%s]", big);   /* beyond what was allocated */
	check_invariants(&sb);
	assert_int_equal(sb.len, 13 + 2 + 299);
	strbuf_add(&sb, "a\0b", 3);        /* embedded NUL counts */
	assert_int_equal(sb.len, 13 + 2 + 299 + 3);
	check_invariants(&sb);
	strbuf_reset(&sb);
	check_invariants(&sb);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
	check_invariants(&sb);
	s = strbuf_detach(&sb, &len);      /* empty: still a heap string */
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	assert_true(s != strbuf_slopbuf);
	free(s);
	check_invariants(&sb);
}

static void test_argv_join(void **state)
{
	char a0[] = "run", a1[] = "-t", a2[] = "", a3[] = "ext4";
	char *argv[] = { a0, a1, a2, a3 };
	char *s;

	(void)state;
	s = argv_join("fslab", 4, argv);
	assert_string_equal(s, "fslab run -t  ext4");
	free(s);
	s = argv_join(NULL, 2, argv);
	assert_string_equal(s, "run -t");
	free(s);
	s = argv_join("fslab", 0, argv);
	assert_string_equal(s, "fslab");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_argv_join),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
