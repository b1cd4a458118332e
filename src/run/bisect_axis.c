/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect_axis.c - git: and steps: axes of `fslab bisect` (see
 * bisect_axis.h).
 */
#include "run/bisect_axis.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/safedir.h"
#include "util/interrupt.h"
#include "util/shquote.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/util.h"

#define OUT_CAP (4u << 20)

int bisect_axis_kind(const char *arg, enum bisect_kind *kind,
		     const char **path)
{
	static const struct {
		const char *prefix;
		enum bisect_kind kind;
	} kinds[] = {
		{ "targets:", BISECT_TARGETS },
		{ "git:", BISECT_GIT },
		{ "steps:", BISECT_STEPS },
	};

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].prefix);

		if (!strncmp(arg, kinds[i].prefix, n) && arg[n]) {
			*kind = kinds[i].kind;
			*path = arg + n;
			return 0;
		}
	}
	return -1;
}

static bool never(void)
{
	return false;
}

/*
 * Run argv in dir (NULL: here); 0 when it exited 0, else 1 with its
 * stderr's last lines in why, -1 when it could not start.  *out gets
 * stdout when out is not NULL.
 */
static int run(char *const argv[], const char *dir, bool stoppable,
	       char **out, const char *what, char *why, size_t whylen)
{
	struct spawn_result res;
	char tail[400];
	int fd = -1, rc;

	if (dir) {
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			snprintf(why, whylen, "cannot open '%s': %s", dir,
				 strerror(errno));
			return -1;
		}
	}
	rc = spawn_run(argv, fd, OUT_CAP, 0,
		       stoppable ? interrupt_requested : never, &res);
	if (fd >= 0)
		close(fd);
	if (rc < 0) {
		snprintf(why, whylen, "%s: cannot run %s", what, argv[0]);
		return -1;
	}
	if (res.code) {
		spawn_tail_lines(res.err, 3, tail, sizeof(tail));
		snprintf(why, whylen, "%s exited %d%s%s", what, res.code,
			 *tail ? ": " : "", tail);
		spawn_result_release(&res);
		return 1;
	}
	if (out) {
		*out = res.out;
		res.out = NULL;
	}
	spawn_result_release(&res);
	return 0;
}

/* ref's commit id in repo (allocated), or NULL with err. */
static char *resolve(const char *repo, const char *opt, const char *ref,
		     char *err, size_t errlen)
{
	char *spec = xasprintf("%s^{commit}", ref), *out = NULL, *nl;
	char *argv[] = { (char *)"git", (char *)"-C", (char *)repo,
			 (char *)"rev-parse", (char *)"--verify",
			 (char *)"--quiet", (char *)"--end-of-options", spec,
			 NULL };
	char why[512];
	int rc = *ref == '-' ? 1 : run(argv, NULL, false, &out, "git",
				       why, sizeof(why));

	free(spec);
	if (rc) {
		snprintf(err, errlen, "%s '%s': no such commit in %s", opt,
			 ref, repo);
		free(out);
		return NULL;
	}
	nl = strchr(out, '\n');
	if (nl)
		*nl = '\0';
	return out;
}

static void axis_add(struct bisect_axis *ax, const char *label, unsigned line)
{
	ALLOC_GROW(ax->specs, ax->nr + 1, ax->alloc);
	ax->lines = xrealloc(ax->lines, ax->alloc * sizeof(*ax->lines));
	ax->specs[ax->nr] = xstrdup(label);
	ax->lines[ax->nr++] = line;
}

/*
 * The first-parent revisions of repo from good to bad, good first, as
 * full commit ids into ax (lines: 1, 2, ...).  good and bad are refs;
 * their ids go to *good_id, *bad_id (allocated).  -1 with err.
 */
static int bisect_axis_git(const char *repo, const char *good,
			   const char *bad, struct bisect_axis *ax,
			   char **good_id, char **bad_id, char *err,
			   size_t errlen)
{
	char *range, *out = NULL, *line, *save, why[512];
	char *top[] = { (char *)"git", (char *)"-C", (char *)repo,
			(char *)"rev-parse", (char *)"--git-dir", NULL };
	int rc;

	memset(ax, 0, sizeof(*ax));
	*good_id = *bad_id = NULL;
	if (run(top, NULL, false, NULL, "git", why, sizeof(why))) {
		snprintf(err, errlen, "--axis git:%s: not a git repository",
			 repo);
		return -1;
	}
	*good_id = resolve(repo, "--good", good, err, errlen);
	*bad_id = *good_id ? resolve(repo, "--bad", bad, err, errlen) : NULL;
	if (!*bad_id)
		goto fail;
	range = xasprintf("%s..%s", *good_id, *bad_id);
	{
		char *argv[] = { (char *)"git", (char *)"-C", (char *)repo,
				 (char *)"rev-list", (char *)"--reverse",
				 (char *)"--first-parent", range, NULL };

		rc = run(argv, NULL, false, &out, "git rev-list", why,
			 sizeof(why));
	}
	free(range);
	if (rc) {
		snprintf(err, errlen, "%s", why);
		goto fail;
	}
	axis_add(ax, *good_id, 1);
	for (line = out; line && *line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		axis_add(ax, line, (unsigned)ax->nr + 1);
	}
	free(out);
	/* bad must be reached from good along the first parents */
	if (strcmp(ax->specs[ax->nr - 1], *bad_id)) {
		snprintf(err, errlen, "--good %s is not a first-parent "
			 "ancestor of --bad %s in %s", good, bad, repo);
		goto fail;
	}
	return 0;
fail:
	free(*good_id);
	free(*bad_id);
	*good_id = *bad_id = NULL;
	bisect_axis_release(ax);
	return -1;
}

char *bisect_subst(const char *s, const char *key, const char *val)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(key);
	const char *hit;

	while ((hit = strstr(s, key))) {
		strbuf_add(&sb, s, (size_t)(hit - s));
		strbuf_addstr(&sb, val);
		s = hit + n;
	}
	strbuf_addstr(&sb, s);
	return strbuf_detach(&sb, NULL);
}

/* The user's command, quoted values put in, run by /bin/sh in dir. */
static int run_user(const char *cmd, const char *key, const char *val,
		    const char *dir, const char *what, char *why,
		    size_t whylen)
{
	char *q = sh_quote(val), *line = bisect_subst(cmd, key, q);
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", line, NULL };
	int rc;

	fflush(NULL);
	rc = run(argv, dir, true, NULL, what, why, whylen);
	free(line);
	free(q);
	return rc;
}

/* git archive of rev into p->dir/src, then --build there. */
static int prepare_git(const struct bisect_setup *s, const char *rev,
		       struct bisect_prep *p, char *why, size_t whylen)
{
	char *src = path_join(p->dir, "src"), *tar = path_join(p->dir,
							       "src.tar");
	char *arch[] = { (char *)"git", (char *)"-C", s->src,
			 (char *)"archive", (char *)"--format=tar",
			 (char *)"-o", tar, (char *)rev, NULL };
	char *untar[] = { (char *)"tar", (char *)"-x", (char *)"-f", tar,
			  (char *)"-C", src, NULL };
	int rc = -1;

	p->prefix = path_join(p->dir, "prefix");
	if (mkdir(src, 0755) < 0 || mkdir(p->prefix, 0755) < 0) {
		snprintf(why, whylen, "cannot make folders in '%s': %s",
			 p->dir, strerror(errno));
		goto out;
	}
	rc = run(arch, NULL, true, NULL, "git archive", why, whylen);
	if (!rc)
		rc = run(untar, NULL, true, NULL, "tar", why, whylen);
	unlink(tar);
	if (rc) {
		rc = -1;
		goto out;
	}
	setenv("FSLAB_PREFIX", p->prefix, 1);
	setenv("FSLAB_REV", rev, 1);
	rc = run_user(s->command, "{prefix}", p->prefix, src, "the build",
		      why, whylen);
out:
	free(src);
	free(tar);
	return rc;
}

int bisect_prepare(const struct bisect_setup *s, const char *scratch,
		   const char *label, size_t k, struct bisect_prep *p,
		   char *why, size_t whylen)
{
	char *tmpl, *real;
	int fd;

	memset(p, 0, sizeof(*p));
	if (s->kind == BISECT_STEPS) {
		char num[32];

		snprintf(num, sizeof(num), "%zu", k);
		setenv("FSLAB_STEP", label, 1);
		setenv("FSLAB_STEP_NR", num, 1);
		return run_user(s->command, "{}", label, NULL,
				"the step command", why, whylen);
	}
	/* as for images: a scratch another user can write is refused,
	 * or the folder below could be swapped for a symlink */
	fd = safedir_open(scratch, &real, why, whylen);
	if (fd < 0)
		return -1;
	close(fd);
	/* a folder of our own: mkdtemp never takes one that exists */
	tmpl = xasprintf("%s/bisect-%s-%zu-XXXXXX", real, s->tag, k);
	free(real);
	if (!mkdtemp(tmpl)) {
		snprintf(why, whylen, "cannot make a folder in '%s': %s",
			 scratch, strerror(errno));
		free(tmpl);
		return -1;
	}
	p->dir = tmpl;
	/* the workload gets it as an unquoted $FSLAB_PREFIX */
	if (strpbrk(tmpl, " \t\n*?[]'\"\\$`;&|<>(){}")) {
		snprintf(why, whylen, "the scratch folder '%s' has blanks or "
			 "shell characters: the prefix must not", scratch);
		return -1;
	}
	return prepare_git(s, label, p, why, whylen);
}

void bisect_prep_release(struct bisect_prep *p)
{
	if (p->dir) {
		/* a build that left a mount there keeps it, not its
		 * contents */
		char *argv[] = { (char *)"rm", (char *)"-rf",
				 (char *)"--one-file-system", (char *)"--",
				 p->dir, NULL };
		char why[512];

		if (run(argv, NULL, false, NULL, "rm", why, sizeof(why)))
			warning("cannot remove '%s': %s", p->dir, why);
	}
	free(p->dir);
	free(p->prefix);
	memset(p, 0, sizeof(*p));
}

/* A step number of --good/--bad: 0 with *v, -1 with err. */
static int step_nr(const char *opt, const char *arg, size_t *v, char *err,
		   size_t errlen)
{
	long long n;

	if (parse_int(arg, 1, 1000000, &n) < 0) {
		snprintf(err, errlen, "%s '%s': a step number from 1", opt,
			 arg);
		return -1;
	}
	*v = (size_t)n;
	return 0;
}

static int open_new(struct bisect_setup *s, struct bisect_axis *ax,
		    const char *good, const char *bad, char *err,
		    size_t errlen)
{
	if (s->kind == BISECT_GIT) {
		if (bisect_axis_git(s->src, good ? good : "HEAD~1",
				    bad ? bad : "HEAD", ax, &s->good_rev,
				    &s->bad_rev, err, errlen) < 0)
			return -1;
		s->good = 1;
		s->bad = ax->nr;
	} else {
		int rc = bisect_axis_load(s->src, s->kind != BISECT_STEPS,
					  ax, err, errlen);

		if (rc < 0)
			return -1;
		s->good = 1;
		s->bad = ax->nr;
		if ((good && step_nr("--good", good, &s->good, err,
				     errlen) < 0) ||
		    (bad && step_nr("--bad", bad, &s->bad, err, errlen) < 0))
			return -1;
	}
	s->nr_steps = ax->nr;
	if (ax->nr < 2) {
		snprintf(err, errlen, "%s has %zu step%s: a bisection needs "
			 "two or more", s->src, ax->nr, ax->nr == 1 ? "" : "s");
		return -1;
	}
	if (s->good > ax->nr || s->bad > ax->nr) {
		snprintf(err, errlen, "--good %zu/--bad %zu: %s has %zu steps",
			 s->good, s->bad, s->src, ax->nr);
		return -1;
	}
	if (s->good >= s->bad) {
		snprintf(err, errlen, "--good %zu must come before --bad %zu",
			 s->good, s->bad);
		return -1;
	}
	return 0;
}

int bisect_axis_open(struct bisect_setup *s, struct bisect_axis *ax,
		     bool resume, const char *good, const char *bad,
		     char *err, size_t errlen)
{
	char *g = NULL, *b = NULL;
	int rc;

	if (!resume)
		return open_new(s, ax, good, bad, err, errlen);
	if (s->kind == BISECT_GIT) {
		/* the ids, not the refs: the repository may have moved on */
		rc = bisect_axis_git(s->src, s->good_rev, s->bad_rev, ax, &g,
				     &b, err, errlen);
		free(g);
		free(b);
	} else {
		rc = bisect_axis_load(s->src, s->kind != BISECT_STEPS, ax,
				      err, errlen);
	}
	if (rc < 0)
		return -1;
	if (ax->nr != s->nr_steps || s->bad > ax->nr || s->good >= s->bad) {
		snprintf(err, errlen, "%s has changed since the bisection "
			 "began: %zu steps then, %zu now", s->src, s->nr_steps,
			 ax->nr);
		return -1;
	}
	return 0;
}
