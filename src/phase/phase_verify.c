/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_verify.c - the phase side of --verify: failing a phase on a
 * mismatch and the final "verify-data" phase.  The pattern itself and
 * its checker (util/verify.c) know nothing of phases.
 */
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"
#include "util/verify.h"
#include "phase/workload.h"

int verify_fail(struct phase *ph, const char *path,
		const struct verify_bad *bad)
{
	if (ph)
		phase_fail(ph, "verify: file %s offset %llu: %s", path,
			   (unsigned long long)bad->block, bad->what);
	return error("verify: file %s offset %llu: %s", path,
		     (unsigned long long)bad->block, bad->what);
}

int verify_phase_tree(struct wl_ctx *ctx, const char *sub)
{
	char *root = sub ? path_join(ctx->dir, sub) : xstrdup(ctx->dir);
	char *argv[] = { root, NULL };
	size_t skip = strlen(ctx->dir) + 1;
	uint64_t bytes = 0, files = 0;
	struct phase *ph;
	FTSENT *e;
	FTS *fts;
	int ret = 0;

	/* What the checks read must come from the disk, not from memory. */
	if (wl_drop_caches(ctx) < 0)
		warning("verify: cannot drop caches; checking cached data");
	ph = phase_begin(ctx, "verify-data", NULL);
	fts = fts_open(argv, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	if (!fts) {
		phase_fail(ph, "verify: cannot walk '%s': %s", root,
			   strerror(errno));
		ret = error_errno("verify: cannot walk '%s'", root);
	}
	while (!ret && fts && (e = fts_read(fts)) &&
	       !phase_stop_requested()) {
		struct verify_bad bad;
		const char *rel;
		uint64_t n = 0;
		int fd, rc;

		if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR) {
			errno = e->fts_errno;
			phase_fail(ph, "verify: cannot read '%s': %s",
				   e->fts_path, strerror(errno));
			ret = error_errno("verify: cannot read '%s'",
					  e->fts_path);
			break;
		}
		if (e->fts_info != FTS_F)
			continue;
		rel = strlen(e->fts_path) > skip ? e->fts_path + skip :
						    e->fts_path;
		fd = open(e->fts_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			phase_fail(ph, "verify: cannot open '%s': %s", rel,
				   strerror(errno));
			ret = error_errno("verify: cannot open '%s'", rel);
			break;
		}
		rc = verify_fd(fd, ctx->seed, verify_file_id(rel), &bad, &n);
		if (rc < 0) {
			phase_fail(ph, "verify: cannot read '%s': %s", rel,
				   strerror(errno));
			ret = error_errno("verify: cannot read '%s'", rel);
		} else if (rc > 0) {
			ret = verify_fail(ph, rel, &bad);
		}
		close(fd);
		bytes += n;
		files++;
	}
	if (fts)
		fts_close(fts);
	phase_work(ph, bytes, files, files);
	phase_metric(ph, "verified_files", (double)files, "files",
		     BETTER_NONE);
	if (phase_end(ctx, ph, NULL) < 0)
		ret = -1;
	free(root);
	return ret;
}
