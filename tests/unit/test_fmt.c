/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fmt.c - the one number formatter, the one verdict-to-text and the
 * one JSON helper set that every renderer shares (output/fmt.h,
 * util/jsonout.h): four significant digits, the verdict words (never
 * "same"), intervals as [lo, hi] when they are not symmetric, invalid
 * UTF-8 and non-finite numbers handled one way, no key ever dropped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/fmt.h"
#include "util/jsonout.h"

static void test_sig4(void **state)
{
	static const struct { double v; const char *s; } c[] = {
		{ 1234.5, "1234" }, { 123.45, "123.5" }, { 12.345, "12.35" },
		{ 1.2345, "1.234" }, { 0.012345, "0.01235" }, { 0, "0" },
		{ -56.78, "-56.78" }, { 1e9, "1000000000" }, { NAN, "-" },
		{ INFINITY, "inf" },
	};
	char buf[64];
	(void)state;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fmt_sig4(buf, sizeof(buf), c[i].v);
		assert_string_equal(buf, c[i].s);
	}
}

static void test_mean_ci(void **state)
{
	char buf[96];
	(void)state;

	fmt_mean_ci(buf, sizeof(buf), 100, 90, 110, 1);
	assert_string_equal(buf, "100.0 ± 10.0");
	/* the harmonic-mean rate of issue 34: ± would claim -788 */
	fmt_mean_ci(buf, sizeof(buf), 238.2, 27.3, 2080.6, 1);
	assert_string_equal(buf, "238.2 [27.30, 2081]");
	fmt_mean_ci(buf, sizeof(buf), 5, NAN, NAN, 3);
	assert_string_equal(buf, "5.000");
}

static void test_verdicts(void **state)
{
	struct compare_opts o;
	struct cmp_delta d = { 0 };
	char buf[64];
	(void)state;

	compare_opts_init(&o);
	d.verdict = CMP_BETTER;
	verdict_text(buf, sizeof(buf), &d, &o);
	assert_string_equal(buf, "improvement");
	d.verdict = CMP_WORSE;
	assert_string_equal(verdict_word(&d, &o), "REGRESSION");
	/* not significant, and it could not have seen 2 %: can't tell */
	d.verdict = CMP_SAME;
	d.mdc_pct = 613.4;
	verdict_text(buf, sizeof(buf), &d, &o);
	assert_string_equal(buf, "can't tell (mdc 613%)");
	d.mdc_pct = NAN;
	verdict_text(buf, sizeof(buf), &d, &o);
	assert_string_equal(buf, "can't tell (mdc -)");
	/* it could have seen 2 % and did not */
	d.mdc_pct = 2.0;
	verdict_text(buf, sizeof(buf), &d, &o);
	assert_string_equal(buf, "no significant change (mdc 2.0%)");
	d.verdict = CMP_EQUIVALENT;
	verdict_text(buf, sizeof(buf), &d, &o);
	assert_string_equal(buf, "equivalent within 2%");
	d.verdict = CMP_NA;
	assert_string_equal(verdict_word(&d, &o), "too few reps");
	d.verdict = CMP_SHORT;
	assert_string_equal(verdict_word(&d, &o), "too short");
	d.verdict = CMP_INFO;
	assert_string_equal(verdict_word(&d, &o), "no verdict");
	for (int v = CMP_NA; v <= CMP_EQUIVALENT; v++) {
		d.verdict = (enum cmp_verdict)v;
		d.mdc_pct = 50;
		verdict_text(buf, sizeof(buf), &d, &o);
		assert_null(strstr(buf, "same"));
	}
}

static void test_jsonout(void **state)
{
	json_t *o = json_object();
	char *s;
	(void)state;

	/* a stray byte, a truncated sequence, an overlong '/', a surrogate */
	jout_set(o, "a", jout_str("x\xff" "y"));
	jout_set(o, "b", jout_str("\xc3"));
	jout_set(o, "c", jout_str("\xc0\xaf"));
	jout_set(o, "d", jout_str("\xed\xa0\x80"));
	jout_set(o, "e", jout_str("caf\xc3\xa9"));
	jout_set(o, "nan", jout_num(NAN));
	jout_set(o, "inf", jout_num(-INFINITY));
	jout_set(o, "null", NULL);
	jout_set(o, "big", jout_u64(UINT64_MAX));
	jout_set(o, "nums", jout_nums((const double[]){ 1.5, NAN }, 2));
	assert_string_equal(json_string_value(json_object_get(o, "a")),
			    "x\xef\xbf\xbdy");
	assert_string_equal(json_string_value(json_object_get(o, "b")),
			    "\xef\xbf\xbd");
	assert_string_equal(json_string_value(json_object_get(o, "c")),
			    "\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(json_string_value(json_object_get(o, "d")),
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(json_string_value(json_object_get(o, "e")),
			    "caf\xc3\xa9");
	/* every key is there: no value is null, never a dropped key */
	assert_int_equal(json_object_size(o), 10);
	assert_true(json_is_null(json_object_get(o, "nan")));
	assert_true(json_is_null(json_object_get(o, "inf")));
	assert_true(json_is_null(json_object_get(o, "null")));
	assert_string_equal(json_string_value(json_object_get(o, "big")),
			    "18446744073709551615");
	assert_true(json_is_null(json_array_get(json_object_get(o, "nums"),
						1)));
	s = jout_dumps(o);
	assert_non_null(s);
	assert_int_equal(s[strlen(s) - 1], '\n');
	assert_null(strstr(s, "NaN"));
	free(s);
	json_decref(o);
}

/* The latency words the tail tables print, at each unit's edges. */
static void test_fmt_ns(void **state)
{
	char b[32];
	(void)state;

	fmt_ns(b, sizeof(b), 812, false);
	assert_string_equal(b, "812ns");
	fmt_ns(b, sizeof(b), 999, false);
	assert_string_equal(b, "999ns");
	fmt_ns(b, sizeof(b), 1000, false);
	assert_string_equal(b, "1us");
	fmt_ns(b, sizeof(b), 12345, true);
	assert_string_equal(b, "12.3 us");
	fmt_ns(b, sizeof(b), 4560000, false);
	assert_string_equal(b, "4.56ms");
	fmt_ns(b, sizeof(b), 1230000000, true);
	assert_string_equal(b, "1.23 s");
	fmt_ns(b, sizeof(b), 0, false);
	assert_string_equal(b, "0ns");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_ns),
		cmocka_unit_test(test_sig4),
		cmocka_unit_test(test_mean_ci),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_jsonout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
