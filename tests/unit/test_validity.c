/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_validity.c - the validity checks (check/check.h) over the corpus
 * in tests/data/validity/: every seeded bad setup (bad/) is flagged with
 * the id it names in "expect", every clean one (clean/) gets no warning
 * and no invalid (notes are allowed).  Each fixture is a small run as
 * JSON: facts by scope, targets, workload runs with their phases.  Also
 * the machine facts' pure parsers and compare's undeclared differences.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "compare/compare.h"
#include "cometric/machine.h"
#include "measure/result.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *jstr(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static double jnum(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct run_rec *load_fixture(const char *path, char **expect)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err), *facts, *arr, *v;
	struct run_rec *r;
	const char *scope, *key;
	size_t i;

	if (!root)
		fail_msg("%s: %s (line %d)", path, err.text, err.line);
	r = xcalloc(1, sizeof(*r));
	r->id = 1;
	r->version = xstrdup("test");
	r->status = xstrdup("complete");
	*expect = dup_or_null(jstr(root, "expect"));
	facts = json_object_get(root, "facts");
	json_object_foreach(facts, scope, v) {
		json_t *val;

		json_object_foreach(v, key, val)
			run_rec_add_fact(r, scope, key,
					 json_string_value(val));
	}
	arr = json_object_get(root, "targets");
	json_array_foreach(arr, i, v) {
		struct target_rec *t = run_rec_new_target(r);

		t->idx = (int)i;
		t->name = dup_or_null(jstr(v, "name"));
		t->kind = dup_or_null(jstr(v, "kind"));
		t->fstype = dup_or_null(jstr(v, "fstype"));
		t->mkfs_version = dup_or_null(jstr(v, "mkfs_version"));
		t->eff_mount_opts = dup_or_null(jstr(v, "eff_mount_opts"));
	}
	arr = json_object_get(root, "wlruns");
	json_array_foreach(arr, i, v) {
		struct wlrun_rec *w = run_rec_new_wlrun(r);
		json_t *ph;
		size_t k;

		w->workload = xstrdup(jstr(v, "workload"));
		w->target_idx = (int)jnum(v, "target");
		w->rep = (int)jnum(v, "rep");
		w->status = xstrdup(jstr(v, "status"));
		json_array_foreach(json_object_get(v, "phases"), k, ph) {
			struct phase_rec *p = wlrun_rec_new_phase(w);
			const char *mname;
			json_t *mv;

			p->name = xstrdup(jstr(ph, "name"));
			p->m.wall_ns = (uint64_t)(jnum(ph, "wall_s") * 1e9);
			p->m.user_ns = (uint64_t)(jnum(ph, "cpu_s") * 1e9);
			p->m.have_dev = json_is_true(json_object_get(ph,
							"have_dev"));
			p->m.rd_bytes = (uint64_t)jnum(ph, "rd_bytes");
			p->m.wr_bytes = (uint64_t)jnum(ph, "wr_bytes");
			p->bytes = (uint64_t)jnum(ph, "bytes");
			p->files = (uint64_t)jnum(ph, "files");
			p->ops = (uint64_t)jnum(ph, "ops");
			for (int n = 0; n < (int)jnum(ph, "workers"); n++) {
				ALLOC_GROW(p->workers, p->nr_workers + 1,
					   p->alloc_workers);
				memset(&p->workers[p->nr_workers], 0,
				       sizeof(*p->workers));
				p->workers[p->nr_workers++].worker = n;
			}
			json_object_foreach(json_object_get(ph, "metrics"),
					    mname, mv)
				phase_rec_add_metric(p, mname,
						     json_number_value(mv), "",
						     BETTER_HIGHER);
		}
	}
	json_decref(root);
	return r;
}

static char **list_dir(const char *sub, size_t *n)
{
	char *dir = xasprintf("%s/validity/%s", FSLAB_TEST_DATA_DIR, sub);
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t alloc = 0;

	*n = 0;
	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l < 6 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		ALLOC_GROW(v, *n + 1, alloc);
		v[(*n)++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	free(dir);
	return v;
}

static void print_report(const char *path, const struct check_report *rep)
{
	fprintf(stderr, "%s:\n", path);
	for (size_t i = 0; i < rep->nr; i++)
		fprintf(stderr, "  %s %s: %s: %s%s\n",
			check_level_name(rep->f[i].level), rep->f[i].id,
			rep->f[i].subject, rep->f[i].reason,
			rep->f[i].accepted ? " (accepted)" : "");
}

static void test_bad_corpus(void **state)
{
	size_t n, flagged = 0;
	char **files = list_dir("bad", &n);

	(void)state;
	assert_true(n >= 15);
	for (size_t i = 0; i < n; i++) {
		char *expect = NULL;
		struct run_rec *r = load_fixture(files[i], &expect);
		struct check_opts o;
		struct check_report rep;
		bool hit = false;

		check_opts_init(&o);
		check_run(r, &o, &rep);
		assert_non_null(expect);
		assert_non_null(check_def_find(expect));
		for (size_t k = 0; k < rep.nr; k++)
			hit |= !strcmp(rep.f[k].id, expect) &&
			       !rep.f[k].accepted;
		if (!hit)
			print_report(files[i], &rep);
		assert_true(hit);
		flagged += hit;
		/* Accepting the id silences it: no such finding counts. */
		o.accept = (const char *const *)&expect;
		o.nr_accept = 1;
		check_report_release(&rep);
		check_run(r, &o, &rep);
		for (size_t k = 0; k < rep.nr; k++)
			if (!strcmp(rep.f[k].id, expect))
				assert_true(rep.f[k].accepted);
		check_report_release(&rep);
		run_rec_free(r);
		free(expect);
		free(files[i]);
	}
	free(files);
	printf("validity corpus: %zu of %zu bad setups flagged with their "
	       "expected id\n", flagged, n);
}

static void test_clean_corpus(void **state)
{
	size_t n, clean = 0;
	char **files = list_dir("clean", &n);

	(void)state;
	assert_true(n >= 20);
	for (size_t i = 0; i < n; i++) {
		char *expect = NULL;
		struct run_rec *r = load_fixture(files[i], &expect);
		struct check_opts o;
		struct check_report rep;

		check_opts_init(&o);
		check_run(r, &o, &rep);
		assert_null(expect);
		if (check_worst(&rep) > CHECK_NOTE)
			print_report(files[i], &rep);
		assert_true(check_worst(&rep) <= CHECK_NOTE);
		/* The coverage counts every recommendation. */
		assert_int_equal(rep.nr_checks, rep.nr_checked +
				 rep.nr_unchecked);
		clean++;
		check_report_release(&rep);
		run_rec_free(r);
		free(files[i]);
	}
	free(files);
	printf("validity corpus: %zu of %zu clean setups without warning or "
	       "invalid\n", clean, n);
}

static void test_config_debug(void **state)
{
	static const char cfg[] =
		"# comment\nCONFIG_LOCKDEP=y\nCONFIG_KASAN is not set\n"
		"# CONFIG_KASAN is not set\nCONFIG_XFS_DEBUG=m\n"
		"CONFIG_LOCKDEP_SUPPORT=y\nCONFIG_EXT4_DEBUG=n\n"
		"CONFIG_BTRFS_ASSERT=y";
	struct strbuf sb = STRBUF_INIT;
	char *b;

	(void)state;
	machine_config_debug(cfg, strlen(cfg), &sb);
	assert_string_equal(sb.buf, "LOCKDEP,XFS_DEBUG,BTRFS_ASSERT");
	strbuf_reset(&sb);
	machine_config_debug("CONFIG_EXT4_FS=y\n", 17, &sb);
	assert_string_equal(sb.buf, "none");
	strbuf_release(&sb);
	b = machine_bracketed("none [mq-deadline] kyber\n");
	assert_string_equal(b, "mq-deadline");
	free(b);
	b = machine_bracketed("  write back\n");
	assert_string_equal(b, "write back");
	free(b);
}

/* Two runs alike but for vm.dirty_ratio: compare lists the sysctl as an
 * undeclared difference, declared once --factor names it. */
static void test_undeclared(void **state)
{
	char *e1, *e2, *path = xasprintf("%s/validity/clean/ext4-5reps.json",
					  FSLAB_TEST_DATA_DIR);
	struct run_rec *a = load_fixture(path, &e1), *b = load_fixture(path,
								      &e2);
	const struct wlrun_rec *ra[8], *rb[8];
	struct cmp_group g[2];
	struct compare_opts o;
	struct cmp_table t;
	const char *factor = "sysctl";
	bool found = false;

	(void)state;
	b->id = 2;
	for (size_t i = 0; i < b->nr_facts; i++)
		if (!strcmp(b->facts[i].key, "sysctl.vm.dirty_ratio")) {
			free(b->facts[i].value);
			b->facts[i].value = xstrdup("30");
		}
	for (size_t i = 0; i < a->nr_wlruns && i < 8; i++) {
		ra[i] = &a->wlruns[i];
		rb[i] = &b->wlruns[i];
	}
	memset(g, 0, sizeof(g));
	g[0] = (struct cmp_group){ .label = "a", .run = a, .reps = ra,
				   .nr_reps = a->nr_wlruns };
	g[1] = (struct cmp_group){ .label = "b", .run = b, .reps = rb,
				   .nr_reps = b->nr_wlruns };
	for (int pass = 0; pass < 2; pass++) {
		compare_opts_init(&o);
		if (pass) {
			o.factors = &factor;
			o.nr_factors = 1;
		}
		compare_build("bonnie", g, 2, &o, &t);
		compare_finish(&t, 1, &o);
		found = false;
		for (size_t i = 0; i < t.nr_diffs; i++)
			if (!strcmp(t.diffs[i].field,
				    "sysctl.vm.dirty_ratio")) {
				found = true;
				assert_string_equal(t.diffs[i].values[0], "20");
				assert_string_equal(t.diffs[i].values[1], "30");
				assert_string_equal(t.diffs[i].factor,
						    "sysctl");
				assert_int_equal(t.diffs[i].declared, pass);
			}
		assert_true(found);
		assert_int_equal(t.nr_undeclared, pass ? 0 : 1);
		/* An invalid setup: no verdict, no roll-up. */
		compare_mark_invalid(&t, 1, "memfs: tmpfs");
		for (size_t i = 0; i < t.nr_rows; i++)
			assert_true(t.rows[i].d[1].verdict == CMP_INFO ||
				    t.rows[i].d[1].verdict == CMP_FAILED);
		assert_true(isnan(t.rollup[1]));
		assert_false(t.regression);
		compare_table_release(&t);
	}
	run_rec_free(a);
	run_rec_free(b);
	free(e1);
	free(e2);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_corpus),
		cmocka_unit_test(test_clean_corpus),
		cmocka_unit_test(test_config_debug),
		cmocka_unit_test(test_undeclared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
