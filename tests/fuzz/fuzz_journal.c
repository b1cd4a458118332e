/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_journal.c - libFuzzer target for the undo journal's replay
 * (state_cleanup, src/fs/replay.c and journal.c): the parser of
 * $FSLAB_STATE_DIR/<pid>.state and the checks that stand between a
 * journal line and an action as root.
 *
 * Each input is a journal written to a private state directory, after
 * replacing three tokens so seeds can name real places:
 *
 *	@S  a scratch directory carrying fslab's mark (the only place
 *	    images and mount points may be acted on)
 *	@O  a directory outside it, without the mark, holding files a
 *	    crafted journal would like to remove
 *	@I  "dev ino" of @O/w.fslab-1-1, a directory standing in for a
 *	    workload directory fslab created
 *
 * The undo handlers are stubs that act on nothing and check the promise:
 * every action on an image, loop, mount point or mount lies directly in
 * @S (or its golden/), and a workload directory is acted on only when it
 * is gone or is the inode the journal recorded.
 */
#include "fuzz.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "fs/state.h"
#include "util/util.h"

static char root[] = "/tmp/fslab-fuzz-journal.XXXXXX";
static char *scratch, *outside, *sdir, *jpath, *wdir, *ident;

static int check_in_scratch(const struct undo_journal *j,
			    const struct undo_entry *e, bool dry_run,
			    bool verbose)
{
	size_t n = strlen(scratch);
	const char *rest = e->arg + n;

	(void)j;
	(void)dry_run;
	(void)verbose;
	FUZZ_CHECK(!strncmp(e->arg, scratch, n) && *rest == '/');
	rest++;
	if (!strncmp(rest, "golden/", 7))
		rest += 7;
	FUZZ_CHECK(*rest && !strchr(rest, '/') && strcmp(rest, "..") &&
		   strcmp(rest, "."));
	return 1;
}

static int check_wldir(const struct undo_journal *j,
		       const struct undo_entry *e, bool dry_run, bool verbose)
{
	struct stat st;

	(void)j;
	(void)dry_run;
	(void)verbose;
	FUZZ_CHECK(*e->arg == '/');
	if (lstat(e->arg, &st) == 0)
		FUZZ_CHECK(e->have_ident &&
			   (unsigned long long)st.st_dev == e->dev &&
			   (unsigned long long)st.st_ino == e->ino);
	return 1;
}

static int check_name(const struct undo_journal *j,
		      const struct undo_entry *e, bool dry_run, bool verbose)
{
	(void)j;
	(void)dry_run;
	(void)verbose;
	FUZZ_CHECK(!strncmp(e->arg, "fslab-", 6) && !strchr(e->arg, '/'));
	return 1;
}

/* The same places and names as the real handlers (fs/undo.c, trace/). */
static const struct undo_handler stubs[] = {
	{ "mount", "mount on", UNDO_IN_SCRATCH, NULL, ".mnt",
	  check_in_scratch, NULL },
	{ "loop", "loop device for", UNDO_IN_SCRATCH, NULL, ".img",
	  check_in_scratch, NULL },
	{ "image", "image", UNDO_IN_SCRATCH | UNDO_IDENT, NULL, ".img",
	  check_in_scratch, NULL },
	{ "mountpoint", "mount point", UNDO_IN_SCRATCH | UNDO_IDENT, NULL,
	  ".mnt", check_in_scratch, NULL },
	{ "wldir", "workload directory", UNDO_IDENT, NULL, NULL, check_wldir,
	  NULL },
	{ "tracefs-instance", "tracefs instance", UNDO_NAME, "fslab-", NULL,
	  check_name, NULL },
};

static void touch(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		abort();
	close(fd);
	free(p);
}

static void cleanup(void)
{
	char *argv[] = { (char *)"rm", (char *)"-rf", root, NULL };

	run_cmd(argv, NULL, true);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct stat st;
	char *p;

	(void)argc;
	(void)argv;
	fuzz_init();
	if (!mkdtemp(root))
		abort();
	atexit(cleanup);
	scratch = path_join(root, "scratch");
	outside = path_join(root, "outside");
	sdir = path_join(root, "state");
	wdir = path_join(outside, "w.fslab-1-1");
	if (mkdir(scratch, 0700) || mkdir(outside, 0700) ||
	    mkdir(sdir, 0700) || mkdir(wdir, 0700))
		abort();
	p = path_join(scratch, "golden");
	if (mkdir(p, 0700))
		abort();
	free(p);
	touch(scratch, STATE_SCRATCH_MARK);
	touch(scratch, "t-0-1.img");
	touch(outside, "x.img");
	p = path_join(outside, "victim.mnt");
	if (mkdir(p, 0700))
		abort();
	free(p);
	if (stat(wdir, &st))
		abort();
	ident = xasprintf("%llu %llu", (unsigned long long)st.st_dev,
			  (unsigned long long)st.st_ino);
	jpath = path_join(sdir, "2147483647.state");
	setenv("FSLAB_STATE_DIR", sdir, 1);
	for (size_t i = 0; i < ARRAY_SIZE(stubs); i++)
		state_register_undo(&stubs[i]);
	return 0;
}

/* The input with @S, @O and @I replaced. */
static char *expand(const char *in)
{
	size_t n = 0, alloc = 0;
	char *out = NULL;

	for (; *in; in++) {
		const char *rep = NULL;

		if (in[0] == '@' && in[1] == 'S')
			rep = scratch;
		else if (in[0] == '@' && in[1] == 'O')
			rep = outside;
		else if (in[0] == '@' && in[1] == 'I')
			rep = ident;
		if (rep) {
			ALLOC_GROW(out, n + strlen(rep) + 1, alloc);
			memcpy(out + n, rep, strlen(rep));
			n += strlen(rep);
			in++;
			continue;
		}
		ALLOC_GROW(out, n + 2, alloc);
		out[n++] = *in;
	}
	ALLOC_GROW(out, n + 1, alloc);
	out[n] = '\0';
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_str(data, size), *text = expand(in);
	int fd, saved, null;

	fd = open(jpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write_full(fd, text, strlen(text)) == 0);
	close(fd);
	/* cleanup prints its actions on stdout; replay.c reports there. */
	fflush(stdout);
	saved = dup(1);
	null = open("/dev/null", O_WRONLY);
	FUZZ_CHECK(saved >= 0 && null >= 0);
	dup2(null, 1);
	close(null);
	state_cleanup(false, true);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	unlink(jpath);
	free(text);
	free(in);
	return 0;
}
