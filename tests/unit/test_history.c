/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_history.c - the history engine on hand-made runs: one point per
 * run in start order whatever order the runs come in, the mean over
 * repetitions as compare takes it, one change point where the figures
 * step, naming the recorded field that changed there (or nothing), and
 * byte-identical text, JSON and CSV for the same runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/history.h"
#include "output/history.h"
#include "measure/result.h"
#include "util/util.h"

/* Run i of 12: create files/s around 1000, 800 from run 7 on. */
static struct run_rec *make_run(int i, bool mount_changes)
{
	static const double noise[] = { 1.01, 0.99, 1.02, 0.98, 1.0, 1.01,
					0.99, 1.0, 1.02, 0.98, 1.01, 0.99 };
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct target_rec *t;

	r->id = i + 1;
	r->started = 1700000000 + 3600 * i;
	r->host = xstrdup("box1");
	r->kernel = xstrdup("6.6.1 #1");
	r->version = xstrdup("1.0");
	r->status = xstrdup("complete");
	t = run_rec_new_target(r);
	t->name = xstrdup("x");
	t->fstype = xstrdup("ext4");
	t->eff_mount_opts = xstrdup(mount_changes && i >= 6 ? "rw,sync"
							     : "rw");
	for (int rep = 0; rep < 2; rep++) {
		struct wlrun_rec *w = run_rec_new_wlrun(r);
		struct phase_rec *p = wlrun_rec_new_phase(w);
		double v = (i >= 6 ? 800 : 1000) * noise[i] * (rep ? 1.01 : 0.99);

		w->target_idx = 0;
		w->rep = rep;
		w->workload = xstrdup("metadata");
		w->options = xstrdup("files=300");
		w->status = xstrdup("complete");
		p->name = xstrdup("create");
		p->m.wall_ns = 1000000000;
		phase_rec_add_metric(p, "files/s", v, "files/s",
				     BETTER_HIGHER);
		phase_rec_add_metric(p, "wall_s", 1, "s", BETTER_LOWER);
	}
	return r;
}

static char *render(bool mount_changes, bool reversed, int fmt)
{
	struct hist_opts o = { 0 };
	struct history h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cp_opts_init(&o.cp);
	o.cp.log = true;
	history_init(&h, &o);
	for (int k = 0; k < 12; k++) {
		struct run_rec *r = make_run(reversed ? 11 - k : k,
					     mount_changes);

		history_add_run(&h, r);
		run_rec_free(r);
	}
	history_finish(&h);
	if (fmt == 0)
		history_print_text(f, &h);
	else if (fmt == 1)
		assert_int_equal(history_print_json(f, &h), 0);
	else
		history_print_csv(f, &h);
	assert_int_equal(h.nr_series, 1); /* the key metric only */
	assert_int_equal(h.series[0].nr_pts, 12);
	assert_int_equal(h.series[0].nr_cps, 1);
	assert_int_equal(h.series[0].cps[0].at, 6);
	assert_true(h.series[0].cps[0].worse);
	assert_true(history_newest_worse(&h));
	history_release(&h);
	fclose(f);
	return buf;
}

static void test_change_named(void **state)
{
	char *t = render(true, false, 0);
	(void)state;

	assert_non_null(strstr(t, "change point between run 6 and run 7"));
	assert_non_null(strstr(t, "    mount options: rw -> rw,sync\n"));
	assert_null(strstr(t, "nothing recorded changed"));
	/* The mean over two repetitions of run 1: harmonic, 1010 * ... */
	assert_non_null(strstr(t, "metadata, target x: create files/s"));
	free(t);
}

static void test_nothing_changed(void **state)
{
	char *t = render(false, false, 0);
	(void)state;

	assert_non_null(strstr(t, "change point between run 6 and run 7"));
	assert_non_null(strstr(t, "    nothing recorded changed\n"));
	free(t);
}

static void test_same_bytes(void **state)
{
	(void)state;
	for (int fmt = 0; fmt < 3; fmt++) {
		char *a = render(true, false, fmt), *b = render(true, true, fmt);

		assert_string_equal(a, b);
		free(a);
		free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_change_named),
		cmocka_unit_test(test_nothing_changed),
		cmocka_unit_test(test_same_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
