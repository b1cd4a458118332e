/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_state.c - the undo journal: what state_record/state_done write,
 * when state_finish removes the journal, and that state_cleanup replays
 * only journals of dead processes and touches nothing they did not
 * record.  Uses only files and directories, so it runs without root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "fs/state.h"
#include "fs/undo.h"
#include "trace/blktrace.h"
#include "util/util.h"

struct fixture {
	char root[64];
	char *sdir;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	strcpy(f->root, "/tmp/fslab-test-state-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	f->sdir = path_join(f->root, "state");
	setenv("FSLAB_STATE_DIR", f->sdir, 1);
	fs_register_undo();
	trace_register_undo();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char *argv[] = { (char *)"rm", (char *)"-rf", f->root, NULL };

	run_cmd(argv, NULL, true);
	free(f->sdir);
	free(f);
	unsetenv("FSLAB_STATE_DIR");
	return 0;
}

static char *my_journal(const struct fixture *f)
{
	return xasprintf("%s/%ld.state", f->sdir, (long)getpid());
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	close(fd);
}

static size_t nr_journals(const struct fixture *f)
{
	char *argv[] = { (char *)"sh", (char *)"-c",
			 (char *)"ls \"$FSLAB_STATE_DIR\" 2>/dev/null | wc -l",
			 NULL };
	char *out = NULL;
	size_t n;

	(void)f;
	assert_int_equal(run_cmd(argv, &out, true), 0);
	n = strtoul(out, NULL, 10);
	free(out);
	return n;
}

/* Run state_cleanup with stdout captured into *out. */
static int cleanup_capture(bool dry_run, char **out)
{
	char tmpl[] = "/tmp/fslab-test-out-XXXXXX";
	int fd = mkstemp(tmpl), saved, ret;

	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	ret = state_cleanup(dry_run, true);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	*out = read_file(tmpl, NULL);
	assert_non_null(*out);
	unlink(tmpl);
	return ret;
}

/* Journal lines as written: pid line first, then records and dones. */
static void test_record_and_finish(void **state)
{
	struct fixture *f = *state;
	char *jpath = my_journal(f), *text, *want;

	assert_int_equal(state_record("image", "/nowhere/a b.img"), 0);
	assert_int_equal(state_record("mountpoint", "/nowhere/m"), 0);
	assert_int_equal(state_done("mountpoint", "/nowhere/m"), 0);
	text = read_file(jpath, NULL);
	assert_non_null(text);
	want = xasprintf("pid %ld ", (long)getpid());
	assert_memory_equal(text, want, strlen(want));
	assert_non_null(strstr(text, "\nimage /nowhere/a b.img\n"
				     "mountpoint /nowhere/m\n"
				     "done mountpoint /nowhere/m\n"));
	free(text);
	free(want);

	/* Something still open: the journal must survive. */
	state_finish();
	assert_true(exists(jpath));

	/* Reopened by the same process: appended to, not replaced. */
	assert_int_equal(state_done("image", "/nowhere/a b.img"), 0);
	text = read_file(jpath, NULL);
	assert_non_null(strstr(text, "image /nowhere/a b.img\n"));
	free(text);
	state_finish();
	assert_false(exists(jpath));
	free(jpath);
}

/* A child records resources and dies; cleanup removes exactly those. */
static void test_dead_owner_cleaned(void **state)
{
	struct fixture *f = *state;
	char *img = path_join(f->root, "t-0.img");
	char *mnt = path_join(f->root, "t-0.mnt");
	char *neighbour = path_join(f->root, "t-1.img");
	char *gone = path_join(f->root, "t-2.img");
	char *out;
	pid_t pid;
	int st;

	touch(neighbour);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct stat sb;

		if (state_scratch(f->root) || state_record("image", img) ||
		    state_record("image", gone))
			_exit(1);
		touch(img);
		touch(gone);
		if (stat(img, &sb) || state_ident("image", sb.st_dev,
						  sb.st_ino, img))
			_exit(1);
		if (unlink(gone) || state_done("image", gone))
			_exit(1);
		if (state_record("mountpoint", mnt) || mkdir(mnt, 0700))
			_exit(1);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_true(exists(img));
	assert_true(exists(mnt));
	assert_int_equal(nr_journals(f), 1);
	/* A file at a path whose record is done is not ours any more. */
	touch(gone);

	/* Dry run: says what it would do, does nothing. */
	assert_int_equal(cleanup_capture(true, &out), 0);
	assert_non_null(strstr(out, "would remove"));
	assert_true(exists(img));
	assert_true(exists(mnt));
	assert_int_equal(nr_journals(f), 1);
	free(out);

	assert_int_equal(cleanup_capture(false, &out), 0);
	assert_non_null(strstr(out, "removed mount point"));
	free(out);
	assert_false(exists(img));
	assert_false(exists(mnt));
	assert_true(exists(neighbour));
	assert_true(exists(gone));
	assert_int_equal(nr_journals(f), 0);

	assert_int_equal(cleanup_capture(false, &out), 0);
	assert_non_null(strstr(out, "nothing to clean up"));
	free(out);
	free(img);
	free(mnt);
	free(neighbour);
	free(gone);
}

/* Our own (live) journal is skipped, and its image survives. */
static void test_live_owner_skipped(void **state)
{
	struct fixture *f = *state;
	char *img = path_join(f->root, "live.img");
	char *jpath = my_journal(f), *out, *want;

	assert_int_equal(state_record("image", img), 0);
	touch(img);
	assert_int_equal(cleanup_capture(false, &out), 0);
	want = xasprintf("skipping resources of running fslab (pid %ld)",
			 (long)getpid());
	assert_non_null(strstr(out, want));
	assert_null(strstr(out, "nothing to clean up"));
	free(want);
	free(out);
	assert_true(exists(img));
	assert_true(exists(jpath));

	assert_int_equal(state_done("image", img), 0);
	state_finish();
	assert_false(exists(jpath));
	unlink(img);
	free(img);
	free(jpath);
}

/* Mark f->root as a scratch directory, as state_scratch() does. */
static void mark_scratch(const struct fixture *f)
{
	char *mark = path_join(f->root, STATE_SCRATCH_MARK);

	touch(mark);
	free(mark);
}

static void write_journal(const struct fixture *f, const char *name,
			  const char *text)
{
	char *path = path_join(f->sdir, name);
	FILE *fp;

	assert_int_equal(mkdir_p(f->sdir, 0700), 0);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	/* fslab's own journals are 0600; others are not trusted. */
	assert_int_equal(chmod(path, 0600), 0);
	free(path);
}

/*
 * A mount point that is not empty holds something fslab did not create:
 * it is left alone, counted as a problem, and the journal kept so the
 * next cleanup can retry.  A truncated last line is ignored.
 */
static void test_foreign_content_kept(void **state)
{
	struct fixture *f = *state;
	char *mnt = path_join(f->root, "busy.mnt");
	char *inside = path_join(mnt, "user-file");
	char *img = path_join(f->root, "cut.img");
	char *text, *out;

	assert_int_equal(mkdir(mnt, 0700), 0);
	touch(inside);
	touch(img);
	/* pid 2^31-1 never exists: pid_max is at most 2^22. */
	mark_scratch(f);
	text = xasprintf("pid 2147483647 1\nscratch %s\nmountpoint %s\n"
			 "image %s", f->root, mnt, img);
	write_journal(f, "2147483647.state", text);
	free(text);

	assert_int_equal(cleanup_capture(false, &out), 1);
	free(out);
	assert_true(exists(inside));
	assert_true(exists(img));
	assert_int_equal(nr_journals(f), 1);

	unlink(inside);
	assert_int_equal(cleanup_capture(false, &out), 0);
	assert_non_null(strstr(out, "removed mount point"));
	free(out);
	assert_false(exists(mnt));
	assert_true(exists(img));
	assert_int_equal(nr_journals(f), 0);
	unlink(img);
	free(img);
	free(inside);
	free(mnt);
}

/*
 * tracefs-instance entries: one whose instance is already gone is
 * cleaned silently; a name that is not fslab's ("../x") is never acted
 * on and keeps the journal.  (Removing a real instance needs root and
 * tracefs: tests/t/t8000-trace.sh.)
 */
static void test_tracefs_instance(void **state)
{
	struct fixture *f = *state;
	char *out;

	write_journal(f, "2147483647.state",
		      "pid 2147483647 1\n"
		      "tracefs-instance fslab-2147483647-0\n");
	assert_int_equal(cleanup_capture(false, &out), 0);
	free(out);
	assert_int_equal(nr_journals(f), 0);

	write_journal(f, "2147483647.state",
		      "pid 2147483647 1\ntracefs-instance ../x\n");
	assert_int_equal(cleanup_capture(false, &out), 1);
	free(out);
	assert_int_equal(nr_journals(f), 1);
}

/* A journal whose pid was reused by an unrelated process is dead. */
static void test_pid_reuse_is_dead(void **state)
{
	struct fixture *f = *state;
	char *img = path_join(f->root, "reuse.img");
	char *text, *out, *name;

	touch(img);
	mark_scratch(f);
	/* Our pid, but a start time we never had. */
	text = xasprintf("pid %ld 1\nscratch %s\nimage %s\n", (long)getpid(),
			 f->root, img);
	name = xasprintf("%ld.1.stale.state", (long)getpid());
	write_journal(f, name, text);
	assert_int_equal(cleanup_capture(false, &out), 0);
	assert_null(strstr(out, "skipping"));
	free(out);
	assert_false(exists(img));
	assert_int_equal(nr_journals(f), 0);
	free(name);
	free(text);
	free(img);
}

/* A stale <pid>.state from a dead process with our pid is set aside. */
static void test_stale_journal_renamed(void **state)
{
	struct fixture *f = *state;
	char *img = path_join(f->root, "stale.img");
	char *text, *name, *out;

	touch(img);
	mark_scratch(f);
	text = xasprintf("pid %ld 1\nscratch %s\nimage %s\n", (long)getpid(),
			 f->root, img);
	name = xasprintf("%ld.state", (long)getpid());
	write_journal(f, name, text);
	assert_int_equal(state_record("mountpoint", "/nowhere/x"), 0);
	assert_int_equal(nr_journals(f), 2);
	assert_int_equal(cleanup_capture(false, &out), 0);
	assert_non_null(strstr(out, "skipping resources"));
	free(out);
	assert_false(exists(img));
	assert_int_equal(nr_journals(f), 1);
	assert_int_equal(state_done("mountpoint", "/nowhere/x"), 0);
	state_finish();
	assert_int_equal(nr_journals(f), 0);
	free(name);
	free(text);
	free(img);
}

/*
 * Crafted journals: entries outside the marked scratch, in a scratch
 * without fslab's mark, of the wrong name, or whose inode is not the
 * journaled one are never acted on; each is a problem and the journal
 * is kept.
 */
static void test_crafted_refused(void **state)
{
	struct fixture *f = *state;
	char *victim_dir = path_join(f->root, "victim");
	char *victim = path_join(victim_dir, "x.img");
	char *odd = path_join(f->root, "notes.txt");
	char *swapped = path_join(f->root, "swapped.img");
	char *text, *out;
	struct stat st;

	assert_int_equal(mkdir(victim_dir, 0700), 0);
	touch(victim);
	touch(odd);
	touch(swapped);
	assert_int_equal(stat(victim, &st), 0);
	mark_scratch(f);
	/* Unmarked scratch, a path outside it, a foreign name, and an
	 * inode that is not the one recorded. */
	text = xasprintf("pid 2147483647 1\nscratch %s\nimage %s\n"
			 "scratch %s\nimage %s\nimage %s/../victim/x.img\n"
			 "mountpoint %s\nimage %s\n"
			 "ident image %llu %llu %s\n",
			 victim_dir, victim, f->root, victim, f->root, odd,
			 swapped, (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino, swapped);
	write_journal(f, "2147483647.state", text);
	free(text);
	assert_int_equal(cleanup_capture(false, &out), 5);
	free(out);
	assert_true(exists(victim));
	assert_true(exists(odd));
	assert_true(exists(swapped));
	assert_int_equal(nr_journals(f), 1);
	free(victim_dir);
	free(victim);
	free(odd);
	free(swapped);
}

/* A journal that is not ours (mode, owner) or a state dir others may
 * write to is not trusted at all. */
static void test_journal_ownership(void **state)
{
	struct fixture *f = *state;
	char *img = path_join(f->root, "own.img");
	char *jp = path_join(f->sdir, "2147483647.state");
	char *text, *out;

	touch(img);
	mark_scratch(f);
	text = xasprintf("pid 2147483647 1\nscratch %s\nimage %s\n",
			 f->root, img);
	write_journal(f, "2147483647.state", text);
	free(text);
	assert_int_equal(chmod(jp, 0644), 0);
	assert_int_equal(cleanup_capture(false, &out), 1);
	free(out);
	assert_true(exists(img));
	assert_int_equal(chmod(jp, 0600), 0);
	assert_int_equal(chmod(f->sdir, 0777), 0);
	assert_int_equal(cleanup_capture(false, &out), 1);
	free(out);
	assert_true(exists(img));
	/* ... and nothing is journaled there either. */
	assert_int_equal(state_record("image", img), -1);
	assert_int_equal(chmod(f->sdir, 0700), 0);
	assert_int_equal(cleanup_capture(false, &out), 0);
	free(out);
	assert_false(exists(img));
	free(img);
	free(jp);
}

/* What a live journal names is never touched through a dead one. */
static void test_live_names_spared(void **state)
{
	struct fixture *f = *state;
	char *img = path_join(f->root, "shared.img");
	char *text, *out;

	touch(img);
	assert_int_equal(state_scratch(f->root), 0);
	assert_int_equal(state_record("image", img), 0);
	text = xasprintf("pid 2147483647 1\nscratch %s\nimage %s\n",
			 f->root, img);
	write_journal(f, "2147483647.state", text);
	free(text);
	assert_int_equal(cleanup_capture(false, &out), 0);
	assert_non_null(strstr(out, "names what running fslab"));
	free(out);
	assert_true(exists(img));
	assert_int_equal(nr_journals(f), 1);
	assert_int_equal(state_done("image", img), 0);
	state_finish();
	unlink(img);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_record_and_finish,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_dead_owner_cleaned,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_owner_skipped,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_content_kept,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_tracefs_instance, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pid_reuse_is_dead,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_journal_renamed,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_crafted_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_journal_ownership,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_names_spared,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
