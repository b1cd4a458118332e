/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_csv.c - RFC 4180 quoting and the shape of the CSV outputs: a
 * header, CRLF records, one row per (target, workload, phase, metric)
 * for a run and per (phase, metric, group) for a comparison.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare/compare.h"
#include "output/csv.h"
#include "stats/lathist.h"
#include "util/util.h"

static char *field(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	csv_field(f, s, true);
	fclose(f);
	return buf;
}

static void test_quoting(void **state)
{
	static const char *const cases[][2] = {
		{ "plain", "plain" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "two\nlines", "\"two\nlines\"" },
		{ "cr\r", "\"cr\r\"" },
		{ "", "" },
		/* formula injection: kept as text */
		{ "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"" },
		{ "+1", "\"'+1\"" },
		{ "-O ^flex_bg", "\"'-O ^flex_bg\"" },
		{ "@SUM(A1)", "\"'@SUM(A1)\"" },
		{ "a=b", "a=b" },
	};
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *s = field(cases[i][0]);

		assert_string_equal(s, cases[i][1]);
		free(s);
	}
}

static struct run_rec *make_run(void)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));

	r->id = 7;
	r->tag = xstrdup("x,y");
	for (int k = 0; k < 2; k++) {
		struct target_rec *t = run_rec_new_target(r);
		struct wlrun_rec *w = run_rec_new_wlrun(r);
		struct phase_rec *p;

		t->name = xstrdup("ext4");
		t->rep = k;
		w->workload = xstrdup("synth");
		w->target_idx = k;
		w->rep = k;
		p = wlrun_rec_new_phase(w);
		p->name = xstrdup("read");
		phase_rec_add_metric(p, "MiB/s", 100 + k, "MiB/s",
				     BETTER_HIGHER);
		phase_rec_add_metric(p, "wall_s", 1.5, "s", BETTER_LOWER);
		if (!k) {
			struct lathist *h = xmalloc(sizeof(*h));

			lathist_init(h);
			lathist_add_n(h, 10, 2);
			phase_rec_add_hist(p, "read", h);
			free(h);
		}
	}
	return r;
}

/* Records (CRLF-terminated), none spanning lines in this data. */
static size_t records(const char *s, char first[256])
{
	size_t n = 0;
	const char *e = strstr(s, "\r\n");

	snprintf(first, 256, "%.*s", e ? (int)(e - s) : 0, s);
	for (; (e = strstr(s, "\r\n")); s = e + 2)
		n++;
	assert_true(*s == '\0');  /* ends with CRLF */
	return n;
}

static void test_run_shape(void **state)
{
	struct run_rec *r = make_run();
	char *buf = NULL, head[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	size_t prov = 0;

	(void)state;
	csv_write_run(f, r);
	fclose(f);
	/* The provenance rows (metric "provenance:KEY") come first. */
	for (const char *p = buf; (p = strstr(p, ",provenance:")); p++)
		prov++;
	assert_true(prov >= 6);
	/* Then the recorded setup and the validity checks. */
	for (const char *p = buf; (p = strstr(p, ",check:")); p++)
		prov++;
	for (const char *p = buf; (p = strstr(p, ",setup:")); p++)
		prov++;
	/* two metrics a phase, and the first's one histogram bucket */
	assert_int_equal(records(buf, head), 1 + prov + 2 * 2 + 1);
	assert_non_null(strstr(buf, ",synth,read,0,,ok,read.lat_hist:10-10,"
			       "2,samples,none\r\n"));
	assert_string_equal(head, "run,tag,target,target_idx,rep,workload,"
			    "phase,seq,label,status,metric,value,unit,"
			    "better");
	assert_non_null(strstr(buf, "7,\"x,y\",ext4,0,1,synth,read,0,,ok,"
			       "MiB/s,101,MiB/s,higher\r\n"));
	free(buf);
	run_rec_free(r);
}

static void test_compare_shape(void **state)
{
	struct run_rec *r = make_run();
	const struct run_rec *runs[] = { r, r };
	const char *labels[] = { "a", "b" };
	const size_t arg_of[] = { 0, 1 };
	struct compare_opts o;
	struct cmp_set *s;
	struct cmp_table t;
	char *buf = NULL, head[512];
	size_t len = 0, ns;
	FILE *f = open_memstream(&buf, &len);
	(void)state;

	compare_opts_init(&o);
	s = compare_sets(runs, arg_of, 2, labels, 2, "synth", &ns, NULL,
			 NULL);
	compare_build("synth", s[0].groups, s[0].nr_groups, &o, &t);
	compare_finish(&t, 1, &o);
	csv_write_compare(f, &t, 1, &o);
	fclose(f);
	/* Two shown rows (MiB/s, wall_s) times two groups. */
	assert_int_equal(records(buf, head), 1 + 2 * 2);
	assert_non_null(strstr(head, "workload,target,phase,metric,unit,"
				  "better,"));
	assert_non_null(strstr(head, ",p,p_adj,mdc_pct,"));
	assert_non_null(strstr(buf, ",baseline,"));
	assert_non_null(strstr(buf, ",too few reps,"));
	compare_table_release(&t);
	compare_sets_free(s, ns);
	free(buf);
	run_rec_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_run_shape),
		cmocka_unit_test(test_compare_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
