/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metadata.c - fs_mark/mdtest-style metadata storms: N threads create,
 * stat, read and unlink many small files, spread over subdirectories of
 * their own (or of one shared directory), and make and remove those
 * directories.  One phase per operation; each op is timed into a
 * per-thread latency histogram, and each thread's start and end are
 * recorded so the rate is total files over the wall time of the whole
 * phase (first start to last end, as IOR/mdtest count), never a sum of
 * per-thread rates, which overstates when the threads finish unevenly.
 *
 * After the timed work the workload checks its books: the stat phase
 * must have seen every created file with the right size, and after
 * unlink every directory must be empty; a mismatch fails the run.
 *
 * Under MPI (mdtest's modes): each rank in its own tree, or with shared
 * all in one; stonewall=S ends create at a deadline the ranks agree on
 * (wear-out: all go on to the largest count); reorder=K has rank r stat
 * and read rank r+K's files.  Every rank makes the same collective calls
 * in the same order, also when one failed: see md_run_fn.
 *
 * This file: options, the pure logic of metadata.h, and the phases;
 * worker.c is one thread's share of a phase, report.c the report.
 */
#include "workloads/metadata/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "phase/par.h"
#include "stats/lathist.h"
#include "util/pyrand.h"
#include "util/splitmix.h"
#include "util/util.h"
#include "util/verify.h"
#include "workloads/registry.h"

const struct opt_enum md_names_values[] = {
	{ "seq", MD_NAMES_SEQ, "number first: names sort in creation order, "
	  "files are visited in order" },
	{ "random", MD_NAMES_RANDOM, "random characters first, files visited "
	  "in a seeded random order" },
	{ NULL, 0, NULL },
};

const struct opt_enum md_sync_values[] = {
	{ "none", MD_SYNC_NONE, "no sync (fs_mark -S 0)" },
	{ "fsync", MD_SYNC_FSYNC, "fsync each file before close (-S 1)" },
	{ "fsync-dir", MD_SYNC_FSYNC_DIR, "fsync each file and its "
	  "directory" },
	{ "batch", MD_SYNC_BATCH, "one syncfs after all creates, timed" },
	{ "uring", MD_SYNC_URING, "write each file and hold it open; every "
	  "batch= files, fsync them together through io_uring "
	  "(IORING_OP_FSYNC), wait for all, close.  A file's latency is its "
	  "open to its fsync's completion, waiting for its batch included; "
	  "no io_uring is an error, never a fallback" },
	{ NULL, 0, NULL },
};

/* seed=0 meant the run's --seed before every seed defaulted to "run";
 * stored runs and scripts that say so still mean it. */
static const struct opt_enum seed_was_zero[] = {
	{ "0", 0, "the old spelling of run" },
	{ NULL, 0, NULL },
};

#define OFF(f) offsetof(struct md_opts, f)
const struct opt md_opt_table[] = {
	{ "files", OPT_INT, OFF(files), "10000", "files per thread",
	  1, 10000000, NULL },
	{ "size", OPT_SIZE, OFF(size), "0", "bytes written per file (0: "
	  "pure metadata, as mdtest; no read phase), up to 1G", 0, 0, NULL },
	{ "dirs", OPT_INT, OFF(dirs), "1", "subdirectories per thread (in "
	  "all with shared), filled one after the other", 1, 1000000, NULL },
	{ "threads", OPT_INT, OFF(threads), "1", "threads, each with its own "
	  "directory", 1, 256, NULL },
	{ "shared", OPT_BOOL, OFF(shared), "no", "all threads work in one "
	  "shared directory tree", 0, 0, NULL },
	{ "names", OPT_ENUM, OFF(names), "seq", "file names and visiting "
	  "order", 0, 0, md_names_values },
	{ "sync", OPT_ENUM, OFF(sync), "none", "durability of the creates",
	  0, 0, md_sync_values },
	{ "cold", OPT_BOOL, OFF(cold), "yes", "cold cache before the stat, "
	  "read and unlink phases", 0, 0, NULL },
	{ "seed", OPT_SEED, OFF(seed), OPT_SEED_DEFAULT, "seed of the "
	  "names and orders", 0, 0, seed_was_zero },
	{ "stonewall", OPT_DOUBLE, OFF(stonewall), "0", "seconds: create "
	  "stops at this deadline, as mdtest -W (0: no deadline)", 0, 86400,
	  NULL },
	{ "wearout", OPT_BOOL, OFF(wearout), "yes", "after the stonewall "
	  "every thread of every rank goes on up to the largest count any "
	  "reached, so later phases find the same files everywhere", 0, 0,
	  NULL },
	{ "reorder", OPT_INT, OFF(reorder), "0", "rank r stats and reads "
	  "the files of rank r+K (mod ranks), IOR -C/-Q cache defeat",
	  -1000000, 1000000, NULL },
	{ "batch", OPT_INT, OFF(batch), "32", "sync=uring: files whose "
	  "fsyncs are submitted together (a file counts, and its latency "
	  "ends, when its fsync completes)", 1, MD_BATCH_MAX, NULL },
	OPT_END,
};


static const char *const md_phase_names[] = {
	"mkdir", "create", "stat", "read", "unlink", "rmdir", NULL,
};

static const char *const md_key_metrics[] = {
	"create/files/s", "stat/files/s", "unlink/files/s", NULL,
};

/* ---- pure logic (metadata.h) ---- */

/*
 * The random characters are a counter-based PRNG: splitmix64 of (seed,
 * num).  Any phase can rebuild any name from its number without storing
 * millions of strings, and the same seed gives the same names.  Ten
 * base-62 digits of one 64-bit draw (62^10 < 2^64).
 */
void md_name(char buf[MD_NAME_LEN], enum md_names names, uint64_t seed,
	     uint64_t num)
{
	static const char alnum[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "abcdefghijklmnopqrstuvwxyz";
	uint64_t x = splitmix64(splitmix64(seed) ^ num);
	char rnd[11];

	for (int i = 0; i < 10; i++) {
		rnd[i] = alnum[x % 62];
		x /= 62;
	}
	rnd[10] = '\0';
	if (names == MD_NAMES_SEQ)
		snprintf(buf, MD_NAME_LEN, "%010" PRIu64 "%s", num, rnd);
	else
		snprintf(buf, MD_NAME_LEN, "%s%010" PRIu64, rnd, num);
}

/*
 * Contiguous, balanced blocks: file k of files goes to directory
 * floor(k * dirs / files), so directory d is filled completely before
 * d + 1 (like fs_mark's files-per-subdirectory) and no two directories
 * differ by more than one file.  k * dirs <= 10^7 * 10^6 fits easily.
 */
uint64_t md_file_dir(uint64_t k, uint64_t files, uint64_t dirs)
{
	if (files == 0 || dirs <= 1)
		return 0;
	return k * dirs / files;
}

void md_order(uint32_t *order, size_t n, bool shuffle, uint64_t seed)
{
	struct pyrand pr;

	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	if (!shuffle || n < 2)
		return;
	pyrand_seed(&pr, seed);
	pyrand_shuffle(&pr, order, n, sizeof(*order));
}

void md_visit_order(uint32_t *order, size_t count, size_t files,
		    bool shuffle, uint64_t create_seed, uint64_t seed)
{
	uint32_t *made;

	md_order(order, count, shuffle, seed);
	if (count >= files || !shuffle)
		return;
	/* seq creates in order 0, 1, ...: the first count are 0..count-1 */
	made = xmalloc(files * sizeof(*made));
	md_order(made, files, shuffle, create_seed);
	for (size_t i = 0; i < count; i++)
		order[i] = made[order[i]];
	free(made);
}

uint64_t md_name_num(const char *name, enum md_names names)
{
	const char *digits = name;
	uint64_t num = 0;

	if (strlen(name) != MD_NAME_LEN - 1)
		return UINT64_MAX;
	if (names == MD_NAMES_RANDOM)
		digits += 10;
	for (int i = 0; i < 10; i++) {
		if (digits[i] < '0' || digits[i] > '9')
			return UINT64_MAX;
		num = num * 10 + (uint64_t)(digits[i] - '0');
	}
	return num;
}

/* Cross-field option rules: 0, or -1 with the reason in err. */
static int md_check(const void *vopts, char *err, size_t errlen)
{
	const struct md_opts *o = vopts;

	if (o->files * o->threads > MD_MAX_TOTAL) {
		snprintf(err, errlen, "files x threads must not exceed %lld, "
			 "not %lld", MD_MAX_TOTAL, o->files * o->threads);
		return -1;
	}
	if (o->dirs > o->files) {
		snprintf(err, errlen, "dirs (%lld) must not exceed files "
			 "(%lld): directories would stay empty", o->dirs,
			 o->files);
		return -1;
	}
	/* a batch= on another sync would be ignored: say so */
	if (o->batch != MD_BATCH_DEF && o->sync != MD_SYNC_URING) {
		snprintf(err, errlen, "batch applies only to sync=uring, not "
			 "sync=%s", md_enum_name(md_sync_values, o->sync));
		return -1;
	}
	if (o->size > MD_MAX_SIZE) {
		snprintf(err, errlen, "size must not exceed 1G, not %" PRIu64,
			 o->size);
		return -1;
	}
	return 0;
}

static void progress(struct md_run *r, const struct phase_rec *p)
{
	const struct metric *rate = phase_rec_metric(p, "files/s");
	const struct metric *sw = phase_rec_metric(p, "stonewall_s");
	const struct metric *swn = phase_rec_metric(p, "stonewall_files");

	fprintf(r->ctx->progress, "metadata: %-6s %10" PRIu64 " %s in "
		"%.3f s", p->name, p->files,
		!strcmp(p->name, "mkdir") || !strcmp(p->name, "rmdir") ?
		"dirs " : "files", (double)p->m.wall_ns / 1e9);
	if (rate)
		fprintf(r->ctx->progress, " (%.0f/s)", rate->value);
	if (sw && swn)
		fprintf(r->ctx->progress, ", %.0f at the stonewall after "
			"%.3f s", swn->value, sw->value);
	fputc('\n', r->ctx->progress);
}

/* Start threads for w[0..nt), the gate shut; returns how many started. */
static int start_threads(struct md_run *r, struct md_worker *w,
			 pthread_t *th, int nt, int *ret)
{
	int started = 0;

	r->ready = 0;
	r->go = false;
	for (int i = 0; i < nt && !*ret; i++, started++) {
		int e = pthread_create(&th[i], NULL, md_worker_main, &w[i]);

		if (e) {
			errno = e;
			*ret = error_errno("cannot start thread %d", i);
			break;
		}
	}
	pthread_mutex_lock(&r->mu);
	while (r->ready < started)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
	return started;
}

static void open_gate_and_join(struct md_run *r, pthread_t *th, int n)
{
	pthread_mutex_lock(&r->mu);
	r->go = true;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}

/*
 * create with stonewall: at the deadline the threads stop, the ranks
 * agree on the largest count of any thread, and with wear-out every
 * thread goes on up to it (a second round, in the same phase and clock).
 */
static void stonewall_round(struct md_run *r, struct md_worker *w,
			    pthread_t *th, int started, int *ret)
{
	uint64_t *done = xcalloc((size_t)started + 1, sizeof(*done));
	uint64_t most;
	int again;

	for (int i = 0; i < started; i++)
		done[i] = w[i].files;
	most = phase_stonewall_agree(r->ctx, r->ph, done, (size_t)started,
				     "files");
	free(done);
	r->final_round = true;
	if (!r->o->wearout || *ret || atomic_load(&r->abort) ||
	    phase_stop_requested())
		return;
	for (int i = 0; i < started; i++) {
		w[i].from = w[i].files;
		w[i].n = most;
	}
	atomic_store(&r->done, 0);
	r->wearing_out = true;
	again = start_threads(r, w, th, started, ret);
	if (*ret)
		atomic_store(&r->abort, true);
	open_gate_and_join(r, th, again);
}

/* The stored evidence of reorder: which rank's files were visited. */
static void add_reorder(struct md_run *r, struct phase *ph)
{
	phase_metric(ph, "reorder", (double)r->o->reorder, "ranks",
		     BETTER_NONE);
	phase_metric(ph, "peer_of_rank0",
		     (double)par_peer(0, r->o->reorder, r->nranks), "rank",
		     BETTER_NONE);
	phase_metric(ph, "peers_same_host",
		     (double)par_same_node_peers(r->o->reorder), "ranks",
		     BETTER_NONE);
}

/*
 * Run one phase on every thread.  The threads open what they need and
 * wait at the gate; the phase begins just before the gate opens, so the
 * core's wall time is the threads' first start to last end plus the
 * join, and each thread's own start/end/work goes in as a worker row.
 * pre_fail: a check before the phase failed on some rank (every rank
 * still runs the phase's collective calls, with nothing to do).
 */
static int md_phase(struct md_run *r, enum md_kind kind, bool pre_fail)
{
	int nt = r->nthreads, started = 0, ret = pre_fail ? -1 : 0;
	struct md_worker *w = xcalloc((size_t)nt, sizeof(*w));
	pthread_t *th = xcalloc((size_t)nt, sizeof(*th));
	const char *name = md_phase_names[kind];
	uint64_t files = 0, bytes = 0, ops = 0, missing = 0, wrong = 0;
	uint64_t sync_ns = 0, want = 0;
	const struct md_worker *failed = NULL;
	struct lathist *lat = xmalloc(sizeof(*lat));
	const struct phase_rec *rec;
	struct phase *ph;
	bool wall = kind == MD_CREATE && r->o->stonewall > 0;

	for (int i = 0; i < nt; i++)
		w[i].topfd = -1;
	atomic_store(&r->abort, false);
	atomic_store(&r->done, 0);
	r->final_round = !(wall && r->o->wearout);
	r->wearing_out = false;
	for (int i = 0; i < nt && !ret; i++)
		ret = md_prepare_worker(r, &w[i], i, kind);
	started = start_threads(r, w, th, ret ? 0 : nt, &ret);

	ph = phase_begin(r->ctx, name, NULL);
	r->ph = ph;
	if (kind != MD_MKDIR && kind != MD_RMDIR)
		phase_expect(ph, 0, r->files * (uint64_t)nt, 0);
	if (wall)
		phase_stonewall_arm(ph, r->o->stonewall);
	if (ret) {
		atomic_store(&r->abort, true);
		phase_fail(ph, pre_fail ? "a check before the phase failed" :
			   "cannot set up the threads");
	}
	open_gate_and_join(r, th, started);
	if (wall)
		stonewall_round(r, w, th, started, &ret);

	lathist_init(lat);
	for (int i = 0; i < started; i++) {
		lathist_merge(lat, &w[i].lat);
		phase_worker(ph, i, w[i].start_ns, w[i].end_ns, w[i].bytes,
			     w[i].files, w[i].ops);
		files += w[i].files;
		bytes += w[i].bytes;
		ops += w[i].ops;
		missing += w[i].missing;
		wrong += w[i].wrong_size;
		sync_ns += w[i].sync_ns;
		want += w[i].n;
		if (w[i].err && !failed)
			failed = &w[i];
	}
	phase_work(ph, bytes, files, ops);
	phase_latency(ph, NULL, lat);
	if (kind == MD_CREATE && r->o->sync == MD_SYNC_BATCH)
		phase_metric(ph, "sync_s", (double)sync_ns / 1e9, "s",
			     BETTER_LOWER);
	if ((kind == MD_STAT || kind == MD_READ) && r->o->reorder)
		add_reorder(r, ph);
	if (kind == MD_STAT && r->have_disk) {
		phase_metric(ph, "disk_files_min", (double)r->disk_min,
			     "files", BETTER_NONE);
		phase_metric(ph, "disk_files_max", (double)r->disk_max,
			     "files", BETTER_NONE);
	}
	if (failed && failed->bad_data) {
		char top[32], rel[128];

		md_top_name(r, md_worker_top(failed), top, sizeof(top));
		snprintf(rel, sizeof(rel), "%s/%s", top, failed->path);
		ret = verify_fail(ph, rel, &failed->bad);
	} else if (failed) {
		char top[32];

		md_top_name(r, md_worker_top(failed), top, sizeof(top));
		ret = error("cannot %s '%s/%s/%s': %s", failed->what,
			    r->ctx->dir, top, failed->path,
			    strerror(failed->err));
		phase_fail(ph, "cannot %s '%s/%s': %s", failed->what, top,
			   failed->path, strerror(failed->err));
	}
	/* the books: not timed, the work is already done */
	if (!ret && !phase_stop_requested() && (missing || wrong)) {
		phase_fail(ph, "%s found %" PRIu64 " of %" PRIu64 " files "
			   "(%" PRIu64 " missing, %" PRIu64 " not of %" PRIu64
			   " bytes)", name, want - missing, want, missing,
			   wrong, r->o->size);
		ret = error("%s found %" PRIu64 " of %" PRIu64 " files (%"
			    PRIu64 " missing, %" PRIu64 " not of %" PRIu64
			    " bytes)", name, want - missing, want, missing,
			    wrong, r->o->size);
	}
	r->ph = NULL;
	if (phase_end(r->ctx, ph, &rec) < 0)
		ret = -1;
	else if (!phase_stop_requested())
		progress(r, rec);
	if (kind == MD_CREATE) {
		/* every rank learns every thread's count, for reorder */
		uint64_t *mine = xcalloc((size_t)nt, sizeof(*mine));

		for (int i = 0; i < started; i++)
			mine[i] = w[i].files;
		par_allgather_u64(mine, (size_t)nt, r->counts);
		free(mine);
	}
	free(lat);
	free(th);
	md_release_workers(w, nt);
	return ret;
}

/* With shared the first rank makes (and removes) the one shared top. */
static bool makes_tops(const struct md_run *r)
{
	return !r->o->shared || r->rank == 0;
}

/* mkdir (or, to remove, rmdir) this rank's top directories. */
static int each_top(struct md_run *r, bool remove)
{
	char top[32];

	if (!makes_tops(r))
		return 0;
	for (int t = 0; t < r->ntops; t++) {
		char *base = md_tops_base(r, r->rank), *p;

		md_top_name(r, t, top, sizeof(top));
		p = path_join(base, top);
		free(base);
		if (remove ? rmdir(p) : mkdir(p, 0755)) {
			if (remove)
				error_errno("'%s' is not empty after rmdir", p);
			else
				error_errno("cannot create '%s'", p);
			free(p);
			return -1;
		}
		free(p);
	}
	return 0;
}

/*
 * Visit every subdirectory of this rank's tops: count the entries in
 * them, or with mine only this rank's files (by the number in the
 * name: with shared all ranks' files are there).
 */
static int count_entries(struct md_run *r, bool mine, uint64_t *count)
{
	char top[32], sub[64];
	char *base = md_tops_base(r, r->rank);
	uint64_t lo = md_global_thread(r, r->rank, 0) * r->files;
	uint64_t hi = lo + (uint64_t)r->nthreads * r->files;
	int ret = 0;

	*count = 0;
	for (int t = 0; t < r->ntops && !ret; t++) {
		md_top_name(r, t, top, sizeof(top));
		for (uint64_t d = 0; d < r->ndirs && !ret; d++) {
			char *p;
			DIR *dir;
			struct dirent *de;

			snprintf(sub, sizeof(sub), "%s/d%" PRIu64, top, d);
			p = path_join(base, sub);
			dir = opendir(p);
			if (!dir) {
				ret = error_errno("cannot open '%s'", p);
				free(p);
				break;
			}
			while ((de = readdir(dir))) {
				uint64_t num;

				if (!strcmp(de->d_name, ".") ||
				    !strcmp(de->d_name, ".."))
					continue;
				num = md_name_num(de->d_name,
						  (enum md_names)r->o->names);
				if (!mine || (num >= lo && num < hi))
					(*count)++;
			}
			closedir(dir);
			free(p);
		}
	}
	free(base);
	return ret;
}

/* After unlink, every subdirectory must be empty. */
static int check_empty(struct md_run *r)
{
	uint64_t n;

	if (!makes_tops(r))
		return 0;
	if (count_entries(r, false, &n))
		return -1;
	if (n)
		return error("%" PRIu64 " entries left in the directories "
			     "after unlink", n);
	return 0;
}

/*
 * The books after a stonewalled create: every rank counts its files on
 * disk (readdir, untimed), which must be what its threads made, and the
 * ranks' counts go into the stat phase (disk_files_min/max): with
 * wear-out they are all the same.
 */
static int count_on_disk(struct md_run *r)
{
	uint64_t n = 0, made = 0, v[1], lo[1];
	int ret = count_entries(r, true, &n);

	for (int t = 0; t < r->nthreads; t++)
		made += r->counts[(size_t)r->rank * (size_t)r->nthreads +
				  (size_t)t];
	if (!ret && n != made)
		ret = error("rank %d: %" PRIu64 " files on disk after the "
			    "create, but its threads made %" PRIu64, r->rank,
			    n, made);
	v[0] = lo[0] = n;
	par_allreduce_u64(v, 1, PAR_MAX);
	par_allreduce_u64(lo, 1, PAR_MIN);
	r->disk_max = v[0];
	r->disk_min = lo[0];
	r->have_disk = true;
	return ret;
}

const char *md_enum_name(const struct opt_enum *v, int value)
{
	for (; v->name; v++)
		if (v->value == value)
			return v->name;
	return "?";
}

/* FNV-1a of the options as stored, to see that all ranks got the same. */
static uint64_t opts_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/*
 * Ranks must agree on the options and the seed: names, directory shares
 * and counts are computed from them for other ranks' files too.
 */
static int same_options(struct md_run *r)
{
	uint64_t hi[1], lo[1];

	/* the seed too: names come from it (--seed may differ per rank) */
	hi[0] = lo[0] = opts_hash(r->ctx->wlrun ? r->ctx->wlrun->options
						: NULL) ^ splitmix64(r->seed);
	par_allreduce_u64(hi, 1, PAR_MAX);
	par_allreduce_u64(lo, 1, PAR_MIN);
	if (hi[0] != lo[0])
		return error("metadata: the ranks were given different "
			     "options; every rank must run the same");
	return 0;
}

/*
 * sync=uring holds threads x batch files open at once: raise the soft
 * limit on open files to what that needs, or refuse up front.
 */
static int uring_fd_limit(const struct md_opts *o)
{
	uint64_t need = md_uring_fds(o->threads, o->batch);
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return error_errno("metadata: cannot read the open-file limit");
	if (rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max >= need) {
		rl.rlim_cur = need;
		if (!setrlimit(RLIMIT_NOFILE, &rl))
			return 0;
	}
	return error("metadata: sync=uring with threads=%lld and batch=%lld "
		     "holds up to %" PRIu64 " files open, over the open-file "
		     "limit %llu (ulimit -n); use a smaller batch", o->threads,
		     o->batch, need, (unsigned long long)rl.rlim_max);
}

static void reorder_note(const struct md_run *r)
{
	FILE *p = r->ctx->progress;

	if (!r->o->reorder)
		return;
	if (r->nranks < 2 || r->peer == r->rank) {
		fprintf(p, "metadata: reorder=%lld: every rank reads its own "
			"files (%d rank%s), so it does not defeat the cache\n",
			r->o->reorder, r->nranks, r->nranks == 1 ? "" : "s");
		return;
	}
	fprintf(p, "metadata: reorder=%lld: rank r stats%s the files of "
		"rank r%+lld (mod %d)\n", r->o->reorder, r->o->size ?
		" and reads" : "", r->o->reorder, r->nranks);
	par_reorder_note(p, "metadata", r->o->reorder);
	if (par_nodes() == 1)
		fprintf(p, "metadata: note: all %d ranks run on one node and "
			"share its page cache, so reading another rank's "
			"files does not defeat it; the cold-cache step "
			"(cold=yes%s) still is what makes it cold\n",
			r->nranks, r->o->cold ? ", on" : ", now OFF");
}

static int md_run_fn(struct wl_ctx *ctx, const void *vopts)
{
	const struct md_opts *o = vopts;
	static const enum md_kind order[] = {
		MD_MKDIR, MD_CREATE, MD_STAT, MD_READ, MD_UNLINK, MD_RMDIR,
	};
	struct md_run r = {
		.ctx = ctx, .o = o,
		.seed = opt_seed(o->seed, ctx->seed),
		.nthreads = (int)o->threads, .files = (uint64_t)o->files,
		.ndirs = (uint64_t)o->dirs, .ntops = o->shared ? 1 :
						      (int)o->threads,
		.rank = ctx->rank, .nranks = ctx->nranks > 0 ? ctx->nranks : 1,
		.verify = ctx->verify,
	};
	size_t nr_counts;
	int ret = 0;

	r.peer = par_peer(r.rank, o->reorder, r.nranks);
	fprintf(ctx->progress, "metadata: %d threads x %" PRIu64 " files of "
		"%" PRIu64 " bytes in %" PRIu64 " %sdirectories, sync=%s, "
		"names=%s, seed %" PRIu64 "\n", r.nthreads, r.files, o->size,
		r.ndirs, o->shared ? "shared " : "", md_enum_name(md_sync_values,
		o->sync), md_enum_name(md_names_values, o->names), r.seed);
	if (o->shared && r.nranks > 1)
		fprintf(ctx->progress, "metadata: shared=1: all %d ranks in "
			"one tree, %s/shared; each rank unlinks its own "
			"files, rmdir is shared out like mkdir, rank 0 "
			"removes the tree\n", r.nranks, ctx->shared_dir);
	if (o->shared && (uint64_t)o->files * (uint64_t)o->threads *
				 (uint64_t)r.nranks > MD_MAX_TOTAL)
		return error("metadata: files x threads x ranks must not "
			     "exceed %lld with shared=1", MD_MAX_TOTAL);
	/* the final pass walks ctx->dir; a shared tree lives beside it */
	if (r.verify && o->shared && r.nranks > 1)
		return error("metadata: --verify with shared=1 on several "
			     "ranks is not supported (each rank verifies its "
			     "own tree); use shared=0 or run on one rank");
	if (o->sync == MD_SYNC_URING) {
		struct md_ring *probe;

		fprintf(ctx->progress, "metadata: sync=uring: fsyncs in "
			"batches of %lld through io_uring\n", o->batch);
		/* the cause of a missing io_uring before any phase starts */
		if (uring_fd_limit(o) || md_ring_open(&probe,
						      (unsigned)o->batch))
			return -1;
		md_ring_close(probe);
	}
	if (o->stonewall > 0)
		fprintf(ctx->progress, "metadata: stonewall %.3g s on create, "
			"wear-out %s\n", o->stonewall, o->wearout ? "on" :
			"off");
	reorder_note(&r);
	if (same_options(&r))
		return -1;
	nr_counts = (size_t)r.nranks * (size_t)r.nthreads;
	r.counts = xcalloc(nr_counts, sizeof(*r.counts));
	for (size_t i = 0; i < nr_counts; i++)
		r.counts[i] = r.files;
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	/* with shared, nobody starts before rank 0 made the tree */
	ret = wl_ranks_agree(ctx, each_top(&r, false), "to create its directories");
	for (size_t i = 0; !ret && i < ARRAY_SIZE(order); i++) {
		enum md_kind k = order[i];
		bool pre_fail = false;

		if (phase_stop_requested())
			break;
		if (k == MD_READ && !o->size)
			continue;
		if (k == MD_STAT && o->stonewall > 0 &&
		    wl_ranks_agree(ctx, count_on_disk(&r),
				   "the file count on disk")) {
			ret = -1;
			break;
		}
		/* --verify "at the end": what unlink is about to remove */
		if (k == MD_UNLINK && r.verify &&
		    (ret = verify_phase_tree(ctx, NULL)) < 0)
			break;
		if (o->cold && (k == MD_STAT || k == MD_READ ||
				k == MD_UNLINK) && wl_cold_cache(ctx)) {
			ret = error("cannot make the cache cold before '%s'",
				    md_phase_names[k]);
			break;
		}
		/* the rmdir phase runs anyway, failed, so that every rank
		 * makes the same collective calls */
		if (k == MD_RMDIR &&
		    wl_ranks_agree(ctx, check_empty(&r), "the empty check"))
			pre_fail = true;
		ret = md_phase(&r, k, pre_fail);
	}
	if (!ret && !phase_stop_requested())
		ret = each_top(&r, true);
	free(r.counts);
	pthread_cond_destroy(&r.cv);
	pthread_mutex_destroy(&r.mu);
	return ret;
}

/*
 * Pre-flight: every file of every thread (and rank) exists at once
 * between create and unlink; data rounded up to 4 KiB blocks.
 */
static void md_needs(const void *vopts, int nranks, struct wl_needs *n)
{
	const struct md_opts *o = vopts;
	uint64_t threads = (uint64_t)o->threads * (uint64_t)nranks;
	uint64_t nr = (uint64_t)o->files * threads;
	uint64_t dirs = o->shared ? (uint64_t)o->dirs
				  : (uint64_t)o->dirs * threads;

	/* A stonewall stops create long before files= (on purpose). */
	if (o->stonewall > 0)
		return;
	n->bytes = nr * ((o->size + 4095) / 4096 * 4096);
	n->inodes = nr + dirs;
	snprintf(n->what, sizeof(n->what), "metadata's %llu files of %llu "
		 "bytes", (unsigned long long)nr,
		 (unsigned long long)o->size);
}

const struct workload wl_metadata = {
	.name = "metadata",
	.summary = "fs_mark/mdtest-style storms: threads create, stat, read "
		   "and unlink many files, mkdir and rmdir their directories",
	.phases = md_phase_names,
	/* Own directories per rank, or with shared=1 one tree for all. */
	.flags = WL_MPI_AWARE | WL_VERIFY,
	.opts = md_opt_table,
	.opts_size = sizeof(struct md_opts),
	.check = md_check,
	.run = md_run_fn,
	.report = md_report,
	.key_metrics = md_key_metrics,
	.needs = md_needs,
};
