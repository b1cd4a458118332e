/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify.c - distribute's phase `verify`: walk every directory and
 * account for each produced file (see doc/distribute.md).
 */
#include "workloads/distribute/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/verify.h"

struct verify_state {
	struct dist_run *r;
	struct dist_ledger l;
	struct phase *ph;
	uint64_t files, ops, bad, bytes;
	unsigned inst;
	char *first_bad;        /* the first flaw found while walking */
	char *data_bad;         /* --verify: the first content mismatch */
};

static void PRINTF(2, 3) verify_bad(struct verify_state *v,
		   const char *fmt, ...)
{
	va_list ap;

	v->bad++;
	if (v->first_bad)
		return;
	va_start(ap, fmt);
	if (vasprintf(&v->first_bad, fmt, ap) < 0)
		v->first_bad = xstrdup("verification failed");
	va_end(ap);
}

/*
 * --verify: read one file and check its data.  A mismatch is kept in
 * v->data_bad (the first one) and counted as a flaw; -1 only when the
 * file cannot be read.
 */
static int verify_content(struct verify_state *v, int dfd, const char *rel,
			  const char *name)
{
	struct dist_run *r = v->r;
	struct verify_bad bad;
	char vrel[300];
	uint64_t vid = dist_vid(v->inst, name, vrel, sizeof(vrel)), n = 0;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return error_errno("cannot open '%s/%s/%s/%s'", r->ctx->dir,
				   TOPDIR, rel, name);
	rc = verify_fd(fd, r->ctx->seed, vid, &bad, &n);
	close(fd);
	if (rc < 0)
		return error_errno("cannot read '%s/%s/%s/%s'", r->ctx->dir,
				   TOPDIR, rel, name);
	v->bytes += n;
	if (rc > 0) {
		v->bad++;
		if (!v->data_bad)
			v->data_bad = xasprintf("verify: file %s/%s offset "
						"%llu: %s", rel, name,
						(unsigned long long)bad.block,
						bad.what);
	}
	return 0;
}

/* Walk one directory of files, marking each in the ledger. */
static int verify_dir(struct verify_state *v, int dfd, const char *rel,
		      enum dist_loc loc, unsigned dest, bool check_size)
{
	struct dist_run *r = v->r;
	DIR *d = opendir_at(dfd);
	struct dirent *de;

	if (!d)
		return error_errno("cannot open '%s/%s/%s'", r->ctx->dir,
				   TOPDIR, rel);
	while ((de = readdir(d))) {
		unsigned src;
		uint64_t seq, want;
		struct stat sb;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		v->files++;
		v->ops++;
		if (dist_parse_name(de->d_name, &src, &seq)) {
			verify_bad(v, "unexpected file '%s/%s' (a partial "
				   "or foreign file)", rel, de->d_name);
			continue;
		}
		if (dist_ledger_mark(&v->l, loc, dest, src, seq)) {
			verify_bad(v, "'%s/%s' was never produced", rel,
				   de->d_name);
			continue;
		}
		if (!check_size)
			continue;
		if (fstatat(dfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW)) {
			closedir(d);
			return error_errno("cannot stat '%s/%s/%s/%s'",
					   r->ctx->dir, TOPDIR, rel,
					   de->d_name);
		}
		want = dist_file_size(r->seed, v->inst, src, seq, r->min_size,
				      r->max_size);
		if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size != want)
			verify_bad(v, "'%s/%s' has %lld bytes, expected %llu",
				   rel, de->d_name, (long long)sb.st_size,
				   (unsigned long long)want);
		else if (r->verify && verify_content(v, dfd, rel, de->d_name))
			return -1;
	}
	closedir(d);
	return 0;
}

/* Every subdirectory of dfd (pool/ or out/), walked with verify_dir. */
static int verify_subdirs(struct verify_state *v, int dfd, const char *rel,
			  enum dist_loc loc)
{
	DIR *d = opendir_at(dfd);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return error_errno("cannot open '%s/%s/%s'", v->r->ctx->dir,
				   TOPDIR, rel);
	while (!ret && (de = readdir(d))) {
		unsigned long long pass;
		unsigned dest = 0;
		char sub[320];
		int n = 0, sfd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", rel, de->d_name);
		if (loc == DIST_LOC_OUT &&
		    (sscanf(de->d_name, "%llu.%u%n", &pass, &dest, &n) != 2 ||
		     de->d_name[n] || dest >= v->r->fanout)) {
			verify_bad(v, "unexpected entry '%s'", sub);
			continue;
		}
		sfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY |
			     O_CLOEXEC);
		if (sfd < 0) {
			verify_bad(v, "unexpected entry '%s'", sub);
			continue;
		}
		ret = verify_dir(v, sfd, sub, loc, dest, true);
		close(sfd);
	}
	closedir(d);
	return ret;
}

int dist_verify_phase(struct dist_run *r, bool drained)
{
	struct phase *ph = phase_begin(r->ctx, "verify", NULL);
	struct verify_state v = { .r = r, .ph = ph };
	uint64_t expected = 0, got = 0, lost = 0, dup = 0, backlog = 0;
	char rel[64];
	int ret = 0;

	for (unsigned i = 0; i < r->ninst && !ret; i++) {
		struct dist_inst *in = &r->inst[i];
		struct dist_verdict vd;

		v.inst = i;
		dist_ledger_init(&v.l, r->nsrc, in->produced, r->fanout);
		for (unsigned s = 0; s < r->nsrc && !ret; s++) {
			snprintf(rel, sizeof(rel), "i%u/s%u", i, s);
			ret = verify_dir(&v, in->src_fd[s], rel, DIST_LOC_UP,
					 0, true);
		}
		snprintf(rel, sizeof(rel), "i%u/pool", i);
		if (!ret)
			ret = verify_subdirs(&v, in->pool_fd, rel,
					     DIST_LOC_UP);
		snprintf(rel, sizeof(rel), "i%u/out", i);
		if (!ret)
			ret = verify_subdirs(&v, in->out_fd, rel,
					     DIST_LOC_OUT);
		for (unsigned d = 0; d < r->fanout && !ret; d++) {
			snprintf(rel, sizeof(rel), "i%u/d%u", i, d);
			ret = verify_dir(&v, in->dst_fd[d], rel,
					 DIST_LOC_DST, d, true);
		}
		dist_ledger_check(&v.l, drained, &vd);
		dist_ledger_release(&v.l);
		expected += vd.expected;
		got += vd.delivered;
		lost += vd.lost;
		dup += vd.duplicated;
		backlog += vd.backlog;
		if (!ret && !dist_verdict_ok(&vd)) {
			char name[32];

			dist_file_name(name, sizeof(name), vd.flaw_src,
				       vd.flaw_seq);
			verify_bad(&v, "file '%s' %s for destination "
				   "'i%u/d%u'", name,
				   vd.flaw == DIST_LOST ? "was lost" :
				   vd.flaw == DIST_DUPLICATE ?
				   "was found twice" :
				   "was left in a source, pool or "
				   "outgoing directory", i, vd.flaw_dest);
		}
	}
	phase_work(ph, v.bytes, v.files, v.ops);
	phase_metric(ph, "expected", (double)expected, "files", BETTER_NONE);
	phase_metric(ph, "verified", (double)got, "files", BETTER_NONE);
	phase_metric(ph, "backlog", (double)backlog, "files", BETTER_NONE);
	phase_metric(ph, "lost", (double)lost, "files", BETTER_LOWER);
	phase_metric(ph, "duplicated", (double)dup, "files", BETTER_LOWER);
	phase_metric(ph, "flaws", (double)v.bad, "files", BETTER_LOWER);
	phase_metric(ph, "drained", drained, "bool", BETTER_NONE);
	phase_metric(ph, "ok", !ret && !v.bad, "bool", BETTER_HIGHER);
	if (!ret && v.data_bad) {
		error("%s", v.data_bad);
		phase_fail(ph, "%s", v.data_bad);
		ret = -1;
	} else if (!ret && v.bad) {
		error("distribute accounting failed: %s (%llu flaws)",
		      v.first_bad, (unsigned long long)v.bad);
		phase_fail(ph, "accounting failed: %s", v.first_bad);
		ret = -1;
	} else if (ret) {
		phase_fail(ph, "cannot walk the distribution directories");
	}
	free(v.first_bad);
	free(v.data_bad);
	if (phase_end(r->ctx, ph, NULL) < 0)
		ret = -1;
	return ret;
}
