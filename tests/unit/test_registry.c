/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_registry.c - the workload table keeps its promises: sorted and
 * unique names, every callback a workload needs, help for every option,
 * defaults that parse, canonical option strings that read back, and
 * key metrics of phases the workload declares.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/result.h"
#include "util/util.h"
#include "run/runner.h"
#include "workloads/registry.h"

static void test_table(void **state)
{
	(void)state;
	assert_non_null(workloads[0]);
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];

		assert_non_null(wl->name);
		assert_non_null(wl->summary);
		assert_true(strlen(wl->summary) > 10);
		assert_non_null(wl->run);
		assert_non_null(wl->report);
		assert_non_null(wl->phases);
		assert_non_null(wl->phases[0]);
		if (workloads[i + 1])
			assert_true(strcmp(wl->name, workloads[i + 1]->name) <
				    0);
		assert_ptr_equal(wl_find(wl->name), wl);
		for (const struct opt *o = wl->opts; o && o->name; o++) {
			assert_non_null(o->help);
			assert_true(strlen(o->help) > 3);
			for (const struct opt *p = o + 1; p->name; p++)
				assert_true(strcmp(o->name, p->name) != 0);
		}
	}
	assert_null(wl_find("no-such-workload"));
}

/*
 * Every key metric "phase/metric" names one of the workload's declared
 * .phases (phase_begin() accepts no other), never a core phase: those
 * are checks, not benchmark figures.  Phase names are unique.
 */
static void test_key_metric_phases(void **state)
{
	(void)state;
	assert_string_equal(wl_core_phases[0], "verify-data");
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];

		for (const char *const *p = wl->phases; *p; p++) {
			assert_false(strchr(*p, '/'));
			for (const char *const *q = p + 1; *q; q++)
				assert_true(strcmp(*p, *q) != 0);
			for (const char *const *c = wl_core_phases; *c; c++)
				assert_true(strcmp(*p, *c) != 0);
		}
		for (const char *const *k = wl->key_metrics; k && *k; k++) {
			const char *slash = strchr(*k, '/');
			char *phase;
			bool declared = false;

			if (!slash)
				fail_msg("%s: key metric '%s' is not "
					 "phase/metric", wl->name, *k);
			phase = strndup(*k, (size_t)(slash - *k));
			/* A glob names the phases the input makes (fio's
			 * job sections): only a workload with phases_of. */
			if (strpbrk(phase, "*?[")) {
				assert_non_null(wl->phases_of);
				free(phase);
				continue;
			}
			for (const char *const *p = wl->phases; *p; p++)
				declared |= !strcmp(*p, phase);
			if (!declared)
				fail_msg("%s: key metric '%s' names phase "
					 "'%s', not in its .phases", wl->name,
					 *k, phase);
			assert_true(wl_phase_declared(wl, phase));
			free(phase);
		}
	}
}

/*
 * Every key metric a workload declares is "phase/name" with a name under
 * the naming rule (result.h): the spellings the rule retired fail here;
 * a stored figure is checked against its unit when the store writes it.
 */
static void test_key_metric_names(void **state)
{
	(void)state;
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];

		for (const char *const *k = wl->key_metrics; k && *k; k++) {
			const char *slash = strchr(*k, '/');
			const char *why;

			if (!slash || slash == *k)
				fail_msg("%s: key metric '%s' is not "
					 "phase/name", wl->name, *k);
			/* exec's "cmd.*": the command names its figures */
			why = strpbrk(slash + 1, "*?[") ? NULL :
			      metric_name_check(slash + 1, NULL);
			if (why)
				fail_msg("%s: key metric '%s': %s", wl->name,
					 *k, why);
		}
	}
	/* the traced figures compare shows by default, too */
	for (const char *const *k = trace_key_metrics; *k; k++)
		assert_null(metric_name_check(*k, NULL));
}

/* Workloads whose input the user must name: their defaults are refused,
 * with a message that names the option. */
static const struct {
	const char *wl, *key;
} required[] = { { "exec", "cmd=" }, { "fio", "job=" } };

static const char *required_key(const char *name)
{
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!strcmp(required[i].wl, name))
			return required[i].key;
	return NULL;
}

static void test_defaults_roundtrip(void **state)
{
	(void)state;
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];
		void *a = calloc(1, wl->opts_size ? wl->opts_size : 1);
		void *b = calloc(1, wl->opts_size ? wl->opts_size : 1);
		char err[256];
		char *s1, *s2;

		opt_defaults(wl->opts, a);
		if (required_key(wl->name)) {
			int rc = wl->prepare ? wl->prepare(a, err, sizeof(err))
					     : wl->check(a, err, sizeof(err));

			assert_int_equal(rc, -1);
			assert_non_null(strstr(err, required_key(wl->name)));
		} else if (wl->check) {
			assert_int_equal(wl->check(a, err, sizeof(err)), 0);
		}
		s1 = opt_format(wl->opts, a);
		opt_defaults(wl->opts, b);
		assert_int_equal(opt_parse(wl->opts, b, s1, err, sizeof(err)),
				 0);
		s2 = opt_format(wl->opts, b);
		assert_string_equal(s1, s2);
		free(s1);
		free(s2);
		opt_release(wl->opts, a);
		opt_release(wl->opts, b);
		free(a);
		free(b);
	}
}

/*
 * One convention for every workload's options (README "Conventions"):
 * keys are lowercase words joined by '-' (the old '_' spellings are
 * aliases, never a table's name); a boolean's default is yes or no and
 * its old spellings read the same; every seed is OPT_SEED with the one
 * default, "run" (the run's --seed), and nothing else is called seed.
 */
static void test_conventions(void **state)
{
	static const char *const old_bool[][2] = {
		{ "1", "yes" }, { "0", "no" }, { "true", "yes" },
		{ "false", "no" }, { "on", "yes" }, { "off", "no" },
	};

	(void)state;
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];

		for (const struct opt *o = wl->opts; o && o->name; o++) {
			bool is_seed = strstr(o->name, "seed") != NULL;

			for (const char *c = o->name; *c; c++)
				if (!((*c >= 'a' && *c <= 'z') ||
				      (*c >= '0' && *c <= '9') ||
				      (*c == '-' && c != o->name && c[1])))
					fail_msg("%s: option key '%s' is not "
						 "words joined by '-'",
						 wl->name, o->name);
			if (o->type == OPT_BOOL &&
			    (!o->def || (strcmp(o->def, "yes") &&
					 strcmp(o->def, "no"))))
				fail_msg("%s: boolean '%s' defaults to '%s', "
					 "not yes or no", wl->name, o->name,
					 o->def ? o->def : "(null)");
			if (is_seed != (o->type == OPT_SEED))
				fail_msg("%s: '%s' is %sa seed (OPT_SEED)",
					 wl->name, o->name,
					 is_seed ? "not " : "");
			if (o->type == OPT_SEED &&
			    (!o->def || strcmp(o->def, OPT_SEED_DEFAULT) ||
			     strcmp(opt_default_text(o),
				    "run (the run's --seed)")))
				fail_msg("%s: seed '%s' defaults to '%s', not "
					 "the run's --seed", wl->name,
					 o->name, o->def ? o->def : "(null)");
		}
		/* the old spellings of a boolean store as today's */
		for (const struct opt *o = wl->opts; o && o->name; o++) {
			char *want, *got, old[64], now[64];

			if (o->type != OPT_BOOL)
				continue;
			for (size_t k = 0; k < ARRAY_SIZE(old_bool); k++) {
				snprintf(old, sizeof(old), "%s=%s", o->name,
					 old_bool[k][0]);
				snprintf(now, sizeof(now), "%s=%s", o->name,
					 old_bool[k][1]);
				got = opt_canonical(wl->opts, wl->opts_size,
						    old, NULL);
				want = opt_canonical(wl->opts, wl->opts_size,
						     now, NULL);
				assert_non_null(got);
				assert_non_null(want);
				assert_string_equal(got, want);
				assert_non_null(strstr(got, now));
				free(got);
				free(want);
			}
		}
		/* the seed: "-1" was bonnie's and ffsb's spelling of run */
		for (const struct opt *o = wl->opts; o && o->name; o++) {
			char *got, *want, old[64], now[64];

			if (o->type != OPT_SEED)
				continue;
			snprintf(old, sizeof(old), "%s=-1", o->name);
			snprintf(now, sizeof(now), "%s=run", o->name);
			got = opt_canonical(wl->opts, wl->opts_size, old, NULL);
			want = opt_canonical(wl->opts, wl->opts_size, "",
					     NULL);
			assert_non_null(got);
			assert_string_equal(got, want);
			assert_non_null(strstr(got, now));
			free(got);
			free(want);
		}
	}
}

/*
 * A stored run reads as today's: cold=0 is cold=no, byte_io is byte-io,
 * seed=-1 is seed=run, and compilebench's old default seed=555 under
 * the default --seed 555 is seed=run too; so compare matches old runs
 * with new ones instead of refusing an option mismatch.
 */
static void test_canonical_stored(void **state)
{
	static const struct {
		const char *wl, *old, *now;
	} cases[] = {
		{ "bonnie", "size=8M,ram=0,byte_io=64k,direct=0,cold=1,seed=-1",
		  "size=8M,ram=0,byte-io=64k,direct=no,cold=yes,seed=run" },
		{ "frag", "sync=1,xdev=1,io_uring=0",
		  "sync=yes,xdev=yes,io-uring=no" },
		{ "compilebench", "initial-dirs=2,runs=10,seed=555",
		  "initial-dirs=2,runs=10" },
		{ "metadata", "files=100,cold=0,seed=0",
		  "files=100,cold=no,seed=run" },
		{ "distribute", "files=10,seed=0", "files=10" },
		{ "ffsb", "time=3,seed=-1", "time=3" },
		{ "tree", "keep=1,verify=0,bufsize=4k",
		  "keep=yes,verify=no,buffer-size=4k" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct run_rec r = { .seed = 555 };
		struct wlrun_rec w = { 0 };
		char *want;

		w.workload = xstrdup(cases[i].wl);
		w.options = xstrdup(cases[i].old);
		r.wlruns = &w;
		r.nr_wlruns = 1;
		wl_canonical_options(&r);
		want = opt_canonical(wl_find(cases[i].wl)->opts,
				     wl_find(cases[i].wl)->opts_size,
				     cases[i].now, NULL);
		assert_non_null(want);
		if (strcmp(w.options, want))
			fail_msg("%s: '%s' read as '%s', want '%s'",
				 cases[i].wl, cases[i].old, w.options, want);
		free(want);
		free(w.workload);
		free(w.options);
	}
}

static void test_workload_spec(void **state)
{
	struct run_workload w;
	char err[512];
	(void)state;

	assert_int_equal(run_workload_parse("compilebench:initial-dirs=2,"
					    "runs=6", &w, err, sizeof(err)),
			 0);
	assert_ptr_equal(w.wl, &wl_compilebench);
	run_workload_release(&w);
	assert_int_equal(run_workload_parse("compilbench", &w, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "did you mean 'compilebench'"));
	assert_int_equal(run_workload_parse("compilebench:rusn=1", &w, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "did you mean 'runs'"));
}

static bool has_opt(const struct workload *wl, const char *name)
{
	for (const struct opt *o = wl->opts; o && o->name; o++)
		if (!strcmp(o->name, name))
			return true;
	return false;
}

/*
 * The capability flags agree with what the workload offers: the MPI-only
 * options (reorder=K reads another rank's files, shared=1 one directory
 * for all ranks) only on WL_MPI_AWARE workloads; --verify either checked
 * (WL_VERIFY), meaningless (WL_NO_DATA) or refused with a reason, never
 * two of these; a workload that writes no data has no size to write.
 */
static void test_flags(void **state)
{
	const unsigned known = WL_NEEDS_ROOT | WL_MPI_AWARE | WL_VERIFY |
			       WL_NO_DATA;

	(void)state;
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];
		bool verify = wl->flags & WL_VERIFY;
		bool no_data = wl->flags & WL_NO_DATA;

		assert_int_equal(wl->flags & ~known, 0);
		if (has_opt(wl, "reorder") || has_opt(wl, "shared"))
			assert_true(wl->flags & WL_MPI_AWARE);
		assert_false(verify && no_data);
		if (verify || no_data)
			assert_null(wl->no_verify);
		else
			assert_non_null(wl->no_verify);
		if (no_data)
			assert_false(has_opt(wl, "size"));
	}
	/* the ones the README names */
	assert_true(wl_find("tree")->no_verify != NULL);
	assert_true(wl_find("fsck")->flags & WL_NO_DATA);
	assert_true(wl_find("fsck")->flags & WL_NEEDS_ROOT);
	assert_true(wl_find("metadata")->flags & WL_VERIFY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_metric_names),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_key_metric_phases),
		cmocka_unit_test(test_defaults_roundtrip),
		cmocka_unit_test(test_conventions),
		cmocka_unit_test(test_canonical_stored),
		cmocka_unit_test(test_workload_spec),
		cmocka_unit_test(test_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
