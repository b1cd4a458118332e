/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_age.c - aging without I/O: the profile parser and its file:line
 * errors, bucket selection, the convergence distance, the op-log format
 * and final set, and the ager's decision loop (fill to the target,
 * convergence, same seed => same log).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "age/ager.h"
#include "fs/golden.h"
#include "age/oplog.h"
#include "age/profile.h"
#include "fs/target.h"
#include "util/util.h"

/* error() goes to stderr; catch it to check the file:line part. */
static char *parse_err(const char *text, struct age_profile *p, int *rc)
{
	FILE *sink = tmpfile();
	int saved = dup(STDERR_FILENO);

	fflush(stderr);
	dup2(fileno(sink), STDERR_FILENO);
	*rc = profile_parse(text, "t.profile", p);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	fclose(sink);
	return xstrdup(last_error());
}

static void test_builtin_profiles(void **state)
{
	struct age_profile p;
	double below1k = 0, mid = 0, over = 0, cum = 0;

	(void)state;
	assert_int_equal(profile_load("desktop", &p), 0);
	assert_int_equal(p.d[AGE_DIM_SIZE].nr, 15);
	/* median ~4 KiB: the buckets below 4k hold half the files */
	for (size_t i = 0; i < p.d[AGE_DIM_SIZE].nr; i++)
		if (p.d[AGE_DIM_SIZE].value[i] <= 4096)
			cum += p.d[AGE_DIM_SIZE].share[i];
	assert_true(cum > 0.45 && cum < 0.55);
	assert_true(p.d[AGE_DIM_AGE].nr > 0);
	profile_release(&p);

	assert_int_equal(profile_load("compile-farm", &p), 0);
	for (size_t i = 0; i < p.d[AGE_DIM_SIZE].nr; i++) {
		double v = p.d[AGE_DIM_SIZE].value[i];
		double s = p.d[AGE_DIM_SIZE].share[i];

		if (v <= 1024)
			below1k += s;
		else if (v <= 1048576)
			mid += s;
		else
			over += s;
	}
	assert_true(below1k > 0.537 && below1k < 0.539);
	assert_true(mid > 0.458 && mid < 0.460);
	assert_true(over > 0.0032 && over < 0.0034);
	profile_release(&p);
	assert_null(profile_builtin("nosuch"));
}

static void test_parse(void **state)
{
	struct age_profile p;

	(void)state;
	assert_int_equal(profile_parse("# c\n[size]\n0 1\n4k 3 # x\n"
				       "1M 4\n[age]\n1 1\ninf 1\n", "t", &p),
			 0);
	assert_int_equal(p.d[AGE_DIM_SIZE].nr, 3);
	assert_true(p.d[AGE_DIM_SIZE].value[1] == 4096);
	assert_true(p.d[AGE_DIM_SIZE].share[2] == 0.5);
	/* no [depth]: everything at depth 0 */
	assert_int_equal(p.d[AGE_DIM_DEPTH].nr, 1);
	assert_int_equal(profile_size_bucket(&p.d[AGE_DIM_SIZE], 0), 0);
	assert_int_equal(profile_size_bucket(&p.d[AGE_DIM_SIZE], 1), 1);
	assert_int_equal(profile_size_bucket(&p.d[AGE_DIM_SIZE], 4095), 1);
	assert_int_equal(profile_size_bucket(&p.d[AGE_DIM_SIZE], 4096), 2);
	assert_int_equal(profile_size_bucket(&p.d[AGE_DIM_SIZE], 1 << 30), 2);
	assert_int_equal(profile_age_bucket(&p.d[AGE_DIM_AGE], 0.5), 0);
	assert_int_equal(profile_age_bucket(&p.d[AGE_DIM_AGE], 7), 1);
	profile_release(&p);
}

static void test_bad_profiles(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "1k 2\n", "t.profile:1: '1k' before any section" },
		{ "[size]\n1k\n", "t.profile:2: expected 'VALUE WEIGHT'" },
		{ "[size]\n1k 1\n\n512 1\n", "t.profile:4: size values must "
		  "increase" },
		{ "[sizes]\n", "t.profile:1: unknown section '[sizes]'" },
		{ "[size]\nabc 1\n", "t.profile:2: bad size value 'abc'" },
		{ "[size]\n1k -1\n", "t.profile:2: bad weight '-1'" },
		{ "[depth]\n1 1\n", "t.profile: no [size] section" },
		{ "[size]\n1k 0\n", "every weight in [size] is 0" },
		{ "[size]\n1k 1\n[age]\n0 1\n", "t.profile:4: bad age value" },
		{ "[size]\n1k 1\n[size]\n", "t.profile:3: section '[size]' "
		  "appears twice" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct age_profile p;
		int rc;
		char *msg = parse_err(bad[i].text, &p, &rc);

		assert_int_equal(rc, -1);
		if (!strstr(msg, bad[i].want))
			fail_msg("'%s': got '%s'", bad[i].want, msg);
		free(msg);
	}
}

static void test_bucket_selection(void **state)
{
	struct age_dist d = { .nr = 3, .value = { 1, 2, 3 },
			      .share = { 0.5, 0.3, 0.2 } };
	uint64_t c[3] = { 0, 0, 0 };

	(void)state;
	/* empty: the largest share is furthest below */
	assert_int_equal(profile_pick_below(&d, c, 0), 0);
	c[0] = 5;
	c[1] = 1;
	c[2] = 4; /* shares .5 .1 .4 */
	assert_int_equal(profile_pick_below(&d, c, 10), 1);
	assert_int_equal(profile_pick_above(&d, c, 10), 2);
	/* zero-share buckets are never picked for creates */
	d.share[1] = 0;
	d.share[0] = 0.8;
	assert_int_equal(profile_pick_below(&d, c, 10), 0);
	memset(c, 0, sizeof(c));
	assert_int_equal(profile_pick_above(&d, c, 0), (size_t)-1);
}

static void test_distance(void **state)
{
	struct age_dist d = { .nr = 2, .share = { 0.5, 0.5 } };
	uint64_t eq[2] = { 50, 50 }, off[2] = { 100, 0 }, near[2] = { 52, 48 };

	(void)state;
	assert_true(profile_distance(&d, eq, 100) < 1e-12);
	assert_true(profile_distance(&d, near, 100) < 0.01);
	assert_true(profile_distance(&d, off, 100) > 0.3);
	assert_true(profile_distance(&d, eq, 0) == 1);
}

static void test_oplog_roundtrip(void **state)
{
	static const char *const lines[] = {
		"mkdir d1\n", "create d1/f0 4096\n", "append d1/f0 10\n",
		"truncate d1/f0 7\n", "overwrite d1/f0 2 3\n",
		"rename d1/f0 d1/f1\n", "delete d1/f1\n", "rmdir d1\n",
	};
	static const char *const bad[] = {
		"create /abs 1", "create a/../b 1", "create a", "frob a",
		"create a x", "rename a", "delete a b", "create a/ 1",
	};
	struct age_op op;
	char err[128], buf[600];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		assert_int_equal(oplog_parse_line(lines[i], &op, err,
						  sizeof(err)), 1);
		oplog_format(&op, buf, sizeof(buf));
		assert_string_equal(buf, lines[i]);
	}
	assert_int_equal(oplog_parse_line("# c\n", &op, err, sizeof(err)),
			 0);
	assert_int_equal(oplog_parse_line("  \n", &op, err, sizeof(err)), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(oplog_parse_line(bad[i], &op, err,
						  sizeof(err)), -1);
}

static void test_final_set(void **state)
{
	const char *log = OPLOG_HEADER "\nmkdir a\nmkdir b\ncreate a/x 10\n"
			  "create b/y 20\nappend a/x 5\ncreate a/z 1\n"
			  "rename a/x b/x\ndelete a/z\ntruncate b/y 3\n"
			  "rmdir b\n";
	char *out = NULL;
	size_t len = 0;
	FILE *in = fmemopen((void *)log, strlen(log), "r");
	FILE *o = open_memstream(&out, &len);

	(void)state;
	assert_int_equal(oplog_final_set(in, "log", o), 0);
	fclose(o);
	fclose(in);
	assert_string_equal(out, OPLOG_HEADER "\nmkdir a\ncreate b/x 15\n"
			    "create b/y 3\n");
	free(out);
}

static struct ager *mk_ager(const struct age_profile *p, uint64_t seed,
			    const unsigned *w)
{
	struct ager_params ap = {
		.prof = p, .seed = seed, .fullness = 0.6,
		.capacity = 1ULL << 30, .base_used = 20 << 20,
		.bsize = 4096, .tolerance = 0.01, .max_ops = 400000,
	};

	if (w)
		memcpy(ap.weights, w, sizeof(ap.weights));
	return ager_new(&ap);
}

/* The whole op sequence, hashed (FNV-1a over the formatted lines). */
static uint64_t log_hash(struct ager *a, uint64_t *nops)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct age_op op;
	char buf[600];

	*nops = 0;
	while (ager_next(a, &op)) {
		oplog_format(&op, buf, sizeof(buf));
		for (char *c = buf; *c; c++)
			h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
		++*nops;
	}
	return h;
}

static void test_ager_fill_converge(void **state)
{
	struct age_profile p;
	struct ager_status st;
	struct ager *a;
	struct age_op op;
	uint64_t n1, n2, h1, h2;

	(void)state;
	assert_int_equal(profile_load("desktop", &p), 0);
	a = mk_ager(&p, 7, NULL);
	assert_non_null(a);
	while (ager_filling(a)) {
		assert_int_equal(ager_next(a, &op), 1);
		assert_true(op.kind == AOP_CREATE || op.kind == AOP_MKDIR);
	}
	ager_status(a, &st);
	assert_true(st.fullness >= 0.6 && st.fullness < 0.61);
	assert_true(st.dist[AGE_DIM_SIZE] < 0.01);
	assert_true(st.dist[AGE_DIM_DEPTH] < 0.01);
	assert_true(st.dist[AGE_DIM_AGE] > 0.01);
	while (ager_next(a, &op))
		;
	ager_status(a, &st);
	assert_string_equal(st.stop, "converged");
	assert_true(st.fullness > 0.59 && st.fullness < 0.61);
	assert_true(st.dist[AGE_DIM_AGE] <= 0.01);
	ager_free(a);

	/* same seed => same log; another seed => another */
	a = mk_ager(&p, 7, NULL);
	h1 = log_hash(a, &n1);
	ager_free(a);
	a = mk_ager(&p, 7, NULL);
	h2 = log_hash(a, &n2);
	ager_free(a);
	assert_true(h1 == h2 && n1 == n2);
	a = mk_ager(&p, 8, NULL);
	h2 = log_hash(a, &n2);
	ager_free(a);
	assert_true(h1 != h2);
	profile_release(&p);
}

static void test_ager_mix(void **state)
{
	unsigned w[AOP_NR_KINDS];
	struct age_profile p;
	uint64_t seen[AOP_NR_KINDS] = { 0 }, n1, n2;
	struct ager_status st;
	struct ager *a;
	struct age_op op;
	char err[128];

	(void)state;
	assert_int_equal(ager_parse_ops("create=4,delete=3,append=2,"
					"truncate=1,overwrite=1,rename=1", w,
					err, sizeof(err)), 0);
	assert_int_equal(ager_parse_ops("create=1", w, err, sizeof(err)),
			 -1);
	assert_int_equal(ager_parse_ops("create=1,delete=1,frob=2", w, err,
					sizeof(err)), -1);
	assert_int_equal(ager_parse_ops("create=4,delete=3,append=2,"
					"truncate=1,overwrite=1,rename=1", w,
					err, sizeof(err)), 0);
	assert_int_equal(profile_load("compile-farm", &p), 0);
	a = mk_ager(&p, 3, w);
	while (ager_next(a, &op))
		seen[op.kind]++;
	ager_status(a, &st);
	for (int k = AOP_CREATE; k <= AOP_DELETE; k++)
		assert_true(seen[k] > 0);
	assert_true(st.fullness > 0.58 && st.fullness < 0.62);
	ager_free(a);
	a = mk_ager(&p, 3, w);
	n1 = log_hash(a, &n2);
	ager_free(a);
	a = mk_ager(&p, 3, w);
	assert_true(log_hash(a, &n2) == n1);
	ager_free(a);
	profile_release(&p);
}

static void test_ager_refuses(void **state)
{
	struct age_profile p;
	struct ager_params ap = { 0 };

	(void)state;
	assert_int_equal(profile_load("desktop", &p), 0);
	ap.prof = &p;
	ap.fullness = 0.5;
	ap.capacity = 1 << 30;
	ap.base_used = 600 << 20;
	assert_null(ager_new(&ap));
	profile_release(&p);
}

static void test_golden_names(void **state)
{
	struct target_spec ts;
	char err[256];

	(void)state;
	assert_int_equal(target_spec_parse("aged:desk80:mount=noatime", &ts,
					   err, sizeof(err)), 0);
	assert_int_equal(ts.kind, TARGET_AGED);
	assert_string_equal(ts.path, "desk80");
	assert_string_equal(ts.mount_opts, "noatime");
	assert_string_equal(ts.name, "aged:desk80");
	target_spec_release(&ts);
	assert_int_equal(target_spec_parse("xfs:age=desktop,size=2G", &ts,
					   err, sizeof(err)), 0);
	assert_string_equal(ts.age, "desktop");
	assert_string_equal(ts.name, "xfs+age(desktop)");
	target_spec_release(&ts);
	assert_int_equal(target_spec_parse("dir:/tmp:age=desktop", &ts, err,
					   sizeof(err)), -1);
	assert_int_equal(target_spec_parse("aged:a/b", &ts, err,
					   sizeof(err)), -1);
	assert_int_equal(target_spec_parse("aged:x:size=1G", &ts, err,
					   sizeof(err)), -1);
	assert_true(golden_name_ok("desk-80.v1_a"));
	assert_false(golden_name_ok(""));
	assert_false(golden_name_ok(".hidden"));
	assert_false(golden_name_ok("a/b"));
	assert_false(golden_name_ok("a b"));
}

/* Parse text as a .meta file; returns the loader's result, and the error
 * text through last_error() when it fails. */
static int parse_meta(const char *text, struct golden_meta *m)
{
	char *copy = xstrdup(text);
	int rc = golden_parse_meta("x.meta", copy, strlen(copy), m);

	free(copy);
	return rc;
}

static void test_golden_meta(void **state)
{
	static const char good[] =
		"# fslab aged image\n"
		"checksum=fnv1a64w:00112233445566aB\nsize=1073741824\n"
		"fstype=ext4\nmkfs=-O ^has_journal\nmkfs_version=1.47.0\n"
		"mount=\nprofile=desktop\nseed=7\nops=1234\n"
		"fullness=0.8000\nsource=ext4:size=1G\n";
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "fstype=ext4\nsize=1\n", "lacks checksum=" },
		{ "checksum=fnv1a64w:0011223344556677\nfstype=ext4\n",
		  "lacks size=" },
		{ "checksum=fnv1a64w:0011223344556677\nsize=1\nfstype=\n",
		  "x.meta:3: fstype is empty" },
		{ "checksum=md5:00\nsize=1\nfstype=ext4\n",
		  "x.meta:1: checksum: expected fnv1a64w:" },
		{ "checksum=fnv1a64w:001122334455667g\nsize=1\nfstype=ext4\n",
		  "x.meta:1: checksum" },
		{ "checksum=fnv1a64w:0011223344556677\nsize=-1\nfstype=ext4\n",
		  "x.meta:2: size: expected a non-negative integer" },
		{ "checksum=fnv1a64w:0011223344556677\nsize=1k\nfstype=ext4\n",
		  "x.meta:2: size" },
		{ "checksum=fnv1a64w:0011223344556677\nsize=1\nfstype=ext4\n"
		  "fullness=1.5\n", "x.meta:4: fullness: expected a number" },
		{ "checksum=fnv1a64w:0011223344556677\nsize=1\nfstype=ext4\n"
		  "fullness=nan\n", "x.meta:4: fullness" },
		{ "checksum=fnv1a64w:0011223344556677\nsize=1\nfstype=ext4\n"
		  "colour=blue\n", "x.meta:4: unknown key 'colour'" },
		{ "checksum=fnv1a64w:0011223344556677\nsize=1\nfstype=ext4\n"
		  "fstype=xfs\n", "x.meta:4: key 'fstype' given twice" },
		{ "checksum=fnv1a64w:0011223344556677\n size=1\nfstype=ext4\n",
		  "x.meta:2: unknown key ' size'" },
		{ "checksum=fnv1a64w:0011223344556677\ngarbage\n",
		  "x.meta:2: expected key=value" },
	};
	struct golden_meta m;
	char nul[] = "checksum=fnv1a64w:0011223344556677\nsize=1\0\n";

	(void)state;
	assert_int_equal(parse_meta(good, &m), 0);
	assert_string_equal(m.checksum, "fnv1a64w:00112233445566aB");
	assert_int_equal(m.size, 1073741824);
	assert_string_equal(m.fstype, "ext4");
	assert_string_equal(m.mkfs_args, "-O ^has_journal");
	assert_null(m.mount_opts);
	assert_int_equal(m.seed, 7);
	assert_int_equal(m.ops, 1234);
	assert_true(m.fullness > 0.79 && m.fullness < 0.81);
	assert_string_equal(m.source, "ext4:size=1G");
	golden_meta_release(&m);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_meta(bad[i].text, &m), -1);
		if (!strstr(last_error(), bad[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, last_error(),
				 bad[i].msg);
		assert_null(m.fstype);
		assert_null(m.checksum);
	}
	assert_int_equal(golden_parse_meta("x.meta", nul, sizeof(nul) - 1, &m),
			 -1);
	assert_non_null(strstr(last_error(), "x.meta:2: NUL byte"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_profiles),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_bad_profiles),
		cmocka_unit_test(test_bucket_selection),
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_oplog_roundtrip),
		cmocka_unit_test(test_final_set),
		cmocka_unit_test(test_ager_fill_converge),
		cmocka_unit_test(test_ager_mix),
		cmocka_unit_test(test_ager_refuses),
		cmocka_unit_test(test_golden_names),
		cmocka_unit_test(test_golden_meta),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
