/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck.c - the "fsck" workload: time the filesystem checker on the
 * target, read-only and unmounted (e2fsck -fn, xfs_repair -n,
 * btrfs check --readonly), the figure that grows as a filesystem ages.
 * Wall time comes from the phase; the checker's own CPU and peak memory
 * from wait4()'s rusage of the child.  A checker that reports errors is
 * a finding, never hidden: the phase fails with "*** fsck found errors
 * ***" and the checker's summary, and the report shows it loudly.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "fs/target.h"
#include "util/spawn.h"
#include "util/util.h"
#include "phase/workload.h"

#define FSCK_OUT_MAX (1u << 20)
#define FSCK_FOUND "*** fsck found errors ***"

struct fsck_opts {
	char *extra;    /* extra checker arguments */
};

static const struct opt fsck_opt_table[] = {
	{ "extra", OPT_STRING, offsetof(struct fsck_opts, extra), "",
	  "extra arguments for the checker", 0, 0, NULL },
	OPT_END,
};

static const char *const fsck_phase_names[] = { "fsck", NULL };

/* The read-only checker command for fstype; NULL if none is known. */
static char **fsck_argv(const char *fstype, const char *dev,
			const char *extra)
{
	char *cmd;
	char **argv, err[128];

	if (!fstype)
		return NULL;
	if (!strncmp(fstype, "ext", 3))
		cmd = xasprintf("e2fsck -f -n %s '%s'", extra, dev);
	else if (!strcmp(fstype, "xfs"))
		cmd = xasprintf("xfs_repair -n %s '%s'", extra, dev);
	else if (!strcmp(fstype, "btrfs"))
		cmd = xasprintf("btrfs check --readonly %s '%s'", extra, dev);
	else
		return NULL;
	argv = argv_split(cmd, err, sizeof(err));
	free(cmd);
	return argv;
}

/*
 * A checker that rejected its command line (a bad extra=) has found no
 * errors: e2fsck says so with exit 8/16, xfs_repair and btrfs check with
 * their usage text (their exit code for it is the same as for damage).
 */
static bool usage_error(const char *fstype, int code, const char *out)
{
	if (!strncmp(fstype, "ext", 3) && (code & (8 | 16)))
		return true;
	return out && (strcasestr(out, "usage:") ||
		       strstr(out, "invalid option") ||
		       strstr(out, "unrecognized option") ||
		       strstr(out, "unknown option"));
}

/* The first non-blank line of text, at most len - 1 bytes. */
static void first_line(const char *text, char *buf, size_t len)
{
	while (*text == '\n' || *text == ' ')
		text++;
	snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
}

/* The last few lines: where checkers put their verdict. */
static void summary(const char *text, char *buf, size_t len)
{
	size_t n = strlen(text);
	int lines = 0;
	const char *p = text + n;

	while (p > text && (p[-1] == '\n'))
		p--;
	while (p > text && lines < 3) {
		p--;
		if (*p == '\n')
			lines++;
	}
	snprintf(buf, len, "%s", p + (*p == '\n'));
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
}

static int fsck_run(struct wl_ctx *ctx, const void *vo)
{
	const struct fsck_opts *o = vo;
	struct target *t = ctx->target;
	struct phase *ph;
	struct spawn_result res = { 0 };
	struct rusage ru;
	char **argv, *out = NULL, label[160], why[512], cmdline[256];
	int code, rc = 0;

	if (t->spec.kind == TARGET_DIR) {
		ph = phase_begin(ctx, "fsck", NULL);
		phase_fail(ph, "fsck needs a filesystem fslab mounted "
			   "(FSTYPE, dev: or aged: target), not the "
			   "directory '%s'", t->spec.path);
		error("fsck needs a filesystem fslab mounted, not the "
		      "directory '%s'", t->spec.path);
		phase_end(ctx, ph, NULL);
		return -1;
	}
	argv = fsck_argv(t->fstype, t->device, o->extra ? o->extra : "");
	if (!argv) {
		ph = phase_begin(ctx, "fsck", NULL);
		phase_fail(ph, "no read-only checker known for '%s'",
			   t->fstype ? t->fstype : "?");
		error("no read-only checker known for '%s'",
		      t->fstype ? t->fstype : "?");
		phase_end(ctx, ph, NULL);
		return -1;
	}
	if (target_unmount(t) < 0) {
		argv_free(argv);
		return -1;
	}
	cmdline[0] = '\0';
	for (size_t i = 0; argv[i]; i++)
		snprintf(cmdline + strlen(cmdline),
			 sizeof(cmdline) - strlen(cmdline), "%s%s",
			 i ? " " : "", argv[i]);
	fprintf(ctx->progress, "fslab: fsck: %s\n", cmdline);
	ph = phase_begin(ctx, "fsck", cmdline);
	/* Interleaved: checkers print their verdict on either stream. */
	if (spawn_run(argv, -1, FSCK_OUT_MAX, SPAWN_MERGE_ERR,
		      phase_stop_requested, &res) < 0) {
		phase_fail(ph, "cannot run '%s'", argv[0]);
		rc = -1;
		goto end;
	}
	out = res.out;
	ru = res.ru;
	code = res.code;
	first_line(out, label, sizeof(label));
	phase_metric(ph, "exit_status", code, "", BETTER_NONE);
	phase_metric(ph, "checker_user_s",
		     (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
		     "s", BETTER_LOWER);
	phase_metric(ph, "checker_sys_s",
		     (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
		     "s", BETTER_LOWER);
	phase_metric(ph, "peak_rss_B", (double)ru.ru_maxrss * 1024, "B",
		     BETTER_LOWER);
	if (res.stopped) {
		/* phase_end marks it interrupted: no verdict either way */
	} else if (code == 127) {
		phase_fail(ph, "'%s' is not installed", argv[0]);
		error("'%s' is not installed", argv[0]);
		rc = -1;
	} else if (usage_error(t->fstype, code, out)) {
		summary(out, why, sizeof(why));
		phase_fail(ph, "%s refused its arguments (extra='%s'), exit "
			   "%d: %s", argv[0], o->extra ? o->extra : "", code,
			   why);
		error("%s refused its arguments (fsck:extra='%s'): %s",
		      argv[0], o->extra ? o->extra : "", why);
		rc = -1;
	} else if (code) {
		summary(out, why, sizeof(why));
		phase_fail(ph, FSCK_FOUND " %s exited %d: %s", argv[0], code,
			   why);
		fprintf(stderr, "fslab: " FSCK_FOUND " on %s: %s exited %d\n"
			"%s", t->spec.name, argv[0], code, out);
		rc = -1;
	} else if (*label) {
		fprintf(ctx->progress, "fslab: fsck: clean: %s\n", label);
	}
end:
	if (phase_end(ctx, ph, NULL) < 0)
		rc = -1;
	if (target_mount_again(t) < 0)
		rc = -1;
	spawn_result_release(&res);
	argv_free(argv);
	return rc;
}

static void fsck_report(FILE *out, const struct run_rec *run,
			const struct wlrun_rec *wr)
{
	(void)run;
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];
		const struct metric *rss = phase_rec_metric(p, "peak_rss_B");
		const struct metric *us = phase_rec_metric(p,
							   "checker_user_s");
		const struct metric *ss = phase_rec_metric(p,
							   "checker_sys_s");

		if (p->status == PHASE_FAILED && p->error &&
		    strstr(p->error, FSCK_FOUND))
			fprintf(out, "\n%s\n%s\n%s\n\n", FSCK_FOUND, p->error,
				FSCK_FOUND);
		else if (p->status != PHASE_OK)
			fprintf(out, "fsck: failed: %s\n",
				p->error ? p->error : "?");
		fprintf(out, "fsck %s: %.3f s wall, %.3f s user, %.3f s sys, "
			"peak %.1f MiB\n", p->label ? p->label : "",
			(double)p->m.wall_ns / 1e9, us ? us->value : 0,
			ss ? ss->value : 0,
			rss ? rss->value / (1 << 20) : 0);
	}
}

static const char *const fsck_key_metrics[] = { "fsck/wall_s", NULL };

const struct workload wl_fsck = {
	.name = "fsck",
	.summary = "time the read-only filesystem checker (e2fsck -fn, "
		   "xfs_repair -n, btrfs check --readonly) unmounted",
	.phases = fsck_phase_names,
	.flags = WL_NEEDS_ROOT | WL_NO_DATA,
	.opts = fsck_opt_table,
	.opts_size = sizeof(struct fsck_opts),
	.run = fsck_run,
	.report = fsck_report,
	.key_metrics = fsck_key_metrics,
};
