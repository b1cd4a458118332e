/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase.c - one bonnie++ test as one phase: begin, fail, end with
 * bonnie's figures as metrics; reorder and --verify helpers.
 */
#include "workloads/bonnie/internal.h"

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
#include <sys/sysinfo.h>
#include <unistd.h>

#include "util/pyrand.h"
#include "phase/par.h"
#include "util/util.h"
#include "util/verify.h"

/* Point the read tests at rank peer's file (on) or back at ours. */
void bon_read_peer(struct bon_run *r, bool on)
{
	if (!r->peer_path)
		return;
	r->path = on ? r->peer_path : r->own_path;
	r->vname = on ? r->peer_path : r->own_vname;
	r->vid = on ? r->peer_vid : r->own_vid;
}

/* The stored evidence of reorder: whose file rank 0 read. */
void bon_add_reorder(const struct bon_run *r, struct phase *ph)
{
	if (!r->o->reorder)
		return;
	phase_metric(ph, "reorder", (double)r->o->reorder, "ranks",
		     BETTER_NONE);
	phase_metric(ph, "peer_of_rank0",
		     (double)par_peer(0, r->o->reorder, r->ctx->nranks),
		     "rank", BETTER_NONE);
	phase_metric(ph, "peers_same_host",
		     (double)par_same_node_peers(r->o->reorder), "ranks",
		     BETTER_NONE);
}

/*
 * reorder=K: learn every rank's pid (the scratch file is Bonnie.PID in
 * each rank's directory) and aim the read tests at rank r+K's file.
 * Collective when reorder is set (every rank has the same options).
 */
void bon_setup_reorder(struct bon_run *r)
{
	struct wl_ctx *ctx = r->ctx;
	int n = ctx->nranks > 0 ? ctx->nranks : 1;
	uint64_t mine = (uint64_t)getpid(), *pids;
	char *dir, name[32];

	if (!r->o->reorder)
		return;
	pids = xcalloc((size_t)n, sizeof(*pids));
	par_allgather_u64(&mine, 1, pids);
	r->peer = par_peer(ctx->rank, r->o->reorder, n);
	if (r->peer == ctx->rank) {
		fprintf(ctx->progress, "bonnie: reorder=%lld: every rank reads "
			"its own file (%d rank%s), so it does not defeat the "
			"cache\n", r->o->reorder, n, n == 1 ? "" : "s");
		free(pids);
		return;
	}
	dir = wl_rank_dir(ctx, r->peer);
	snprintf(name, sizeof(name), "Bonnie.%llu",
		 (unsigned long long)pids[r->peer]);
	r->own_path = r->path;
	r->own_vname = r->vname;
	r->own_vid = r->vid;
	r->peer_path = path_join(dir, name);
	r->peer_vid = verify_file_id(name);
	fprintf(ctx->progress, "bonnie: reorder=%lld: getc and block read "
		"read %s (rank %d)\n", r->o->reorder, r->peer_path, r->peer);
	par_reorder_note(ctx->progress, "bonnie", r->o->reorder);
	if (par_nodes() == 1)
		fprintf(ctx->progress, "bonnie: note: all %d ranks run on one "
			"node and share its page cache, so reading another "
			"rank's file does not defeat it; the cold-cache step "
			"(cold=1%s) still is what makes it cold\n", n,
			r->o->cold ? ", on" : ", now OFF");
	free(dir);
	free(pids);
}

/* A file-test file's name without its directory: its --verify id. */
const char *bon_file_base(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash ? slash + 1 : name;
}

/* The per-char tests' expected byte at offset i. */
unsigned char bon_vbyte(struct bon_run *r, uint64_t i)
{
	if (!(i % VERIFY_BLOCK))
		verify_fill(r->ctx->seed, r->vid, i, r->vblk, VERIFY_BLOCK);
	return r->vblk[i % VERIFY_BLOCK];
}

/* A block read back is not the pattern: fail the phase, say where. */
int bp_verify_fail(struct bon_run *r, struct phase *ph,
		   const char *shown, uint64_t id, uint64_t off,
		   const void *buf, size_t len)
{
	struct verify_bad bad;

	if (verify_check(r->ctx->seed, id, off, buf, len, &bad))
		BUG("verify_check passed what it failed");
	return verify_fail(ph, shown, &bad);
}

/* Check what a read returned; 0 when it is the pattern. */
int bp_verify(struct bon_run *r, struct phase *ph, const char *shown,
	      uint64_t id, uint64_t off, const void *buf, size_t len)
{
	struct verify_bad bad;

	if (!r->verify || verify_check(r->ctx->seed, id, off, buf, len, &bad))
		return 0;
	return verify_fail(ph, shown, &bad);
}

/*
 * A per-char read found a wrong byte at off: re-read its whole block to
 * say what the block holds.
 */
int bp_verify_byte(struct bon_run *r, struct phase *ph, int fd,
		   uint64_t off)
{
	unsigned char blk[VERIFY_BLOCK];
	uint64_t b = off - off % VERIFY_BLOCK;
	ssize_t n = pread(fd, blk, sizeof(blk), (off_t)b);

	if (n > 0 && !verify_check(r->ctx->seed, r->vid, b, blk, (size_t)n,
				    &(struct verify_bad){ 0 }))
		return bp_verify_fail(r, ph, r->vname, r->vid, b, blk,
				      (size_t)n);
	phase_fail(ph, "verify: file %s offset %llu: byte read differs from "
		   "the pattern", r->vname, (unsigned long long)off);
	return error("verify: file %s offset %llu: byte read differs from "
		     "the pattern", r->vname, (unsigned long long)off);
}

void bp_begin(struct bon_run *r, struct bon_phase *bp,
	      enum bon_test t)
{
	memset(bp, 0, sizeof(*bp));
	lathist_init(&bp->lat);
	bp->ph = phase_begin(r->ctx, bon_phase_names[t], NULL);
	bp->t0 = now_ns();
}

int bp_fail(struct bon_phase *bp, const char *what,
	    const char *path)
{
	int e = errno;

	phase_fail(bp->ph, "cannot %s '%s': %s", what, path, strerror(e));
	return error("cannot %s '%s': %s", what, path, strerror(e));
}

/*
 * End a test: its rate is work / wall (bonnie++ times from the first op
 * to the final fsync/close), or for seeks given by the caller.
 */
int bp_end(struct bon_run *r, struct bon_phase *bp, enum bon_test t,
	   int ret, double rate_override)
{
	uint64_t wall = now_ns() - bp->t0;
	double s = (double)wall / 1e9, rate;

	if (rate_override >= 0)
		rate = rate_override;
	else if (t < BON_SEEKS)
		rate = s > 0 ? (double)bp->bytes / 1024.0 / s : 0;
	else
		rate = s > 0 ? (double)bp->files / s : 0;
	phase_work(bp->ph, bp->bytes, bp->files, bp->ops);
	if (!ret) {
		/* "rate_" + the unit, by the naming rule (result.h) */
		phase_metric(bp->ph, bon_rate_metric(t), rate,
			     bon_rate_metric(t) + 5, BETTER_HIGHER);
		phase_metric(bp->ph, "too_fast", bon_too_fast(wall), "flag",
			     BETTER_NONE);
		/* bonnie++'s latency is the maximum; p50/p99 beside it */
		if (bp->lat.count)
			phase_latency(bp->ph, NULL, &bp->lat);
		phase_metric(bp->ph, "seed", (double)r->seed, "", BETTER_NONE);
		if (t < BON_SEQ_CREATE) {
			phase_metric(bp->ph, "size_B", (double)r->size, "B",
				     BETTER_NONE);
			phase_metric(bp->ph, "chunk_B", (double)r->o->chunk,
				     "B", BETTER_NONE);
			phase_metric(bp->ph, "seeks", (double)r->o->seeks,
				     "seeks", BETTER_NONE);
			phase_metric(bp->ph, "seekers", (double)r->o->seekers,
				     "threads", BETTER_NONE);
			phase_metric(bp->ph, "perchar_stdio", r->stdio,
				     "flag", BETTER_NONE);
		} else {
			phase_metric(bp->ph, "files_n", (double)r->files.n,
				     "x1024", BETTER_NONE);
			phase_metric(bp->ph, "files_max_B",
				     (double)r->files.max, "B", BETTER_NONE);
			phase_metric(bp->ph, "files_min_B",
				     (double)r->files.min, "B", BETTER_NONE);
			phase_metric(bp->ph, "files_dirs",
				     (double)r->files.dirs, "dirs",
				     BETTER_NONE);
			phase_metric(bp->ph, "files_chunk_B",
				     (double)r->files.chunk, "B",
				     BETTER_NONE);
		}
	}
	if (phase_end(r->ctx, bp->ph, NULL) < 0)
		ret = -1;
	bp->ph = NULL;
	if (!ret && !phase_stop_requested())
		fprintf(r->ctx->progress, "bonnie: %s done (%.2f s)\n",
			bon_phase_names[t], s);
	return ret;
}

/* Between tests: nothing, like bonnie++, unless cold=1. */
int bon_between(struct bon_run *r)
{
	if (!r->o->cold || phase_stop_requested())
		return 0;
	return wl_cold_cache(r->ctx);
}

int bon_fsync_close(struct bon_phase *bp, int fd, const char *path, int ret)
{
	/* After a failure the data is not worth syncing. */
	if (ret) {
		close(fd);
		return ret;
	}
	if (fsync(fd))
		ret = bp_fail(bp, "fsync", path);
	if (close(fd) && !ret)
		ret = bp_fail(bp, "close", path);
	return ret;
}

bool bp_chars_done(struct bon_phase *bp, uint64_t *t, uint64_t chunk)
{
	uint64_t t1 = now_ns();

	lathist_add(&bp->lat, t1 - *t);
	*t = t1;
	phase_progress(bp->ph, chunk, 0, 0);
	return phase_stop_requested();
}

void bp_block_done(struct bon_phase *bp, uint64_t lat_ns, uint64_t bytes)
{
	lathist_add(&bp->lat, lat_ns);
	bp->bytes += bytes;
	bp->ops++;
	phase_progress(bp->ph, bytes, 0, 0);
}
