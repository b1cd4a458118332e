/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bonnie.c - Russell Coker's bonnie++ in C: sequential per-char and
 * block output, rewrite, per-char and block input, random seeks from
 * several threads, and the file-creation tests, with bonnie++'s text
 * table and a CSV row bon_csv2txt/bon_csv2html accept.
 *
 * Every test is one phase, so the core measures time, CPU and device
 * I/O the same way as for every other workload; bonnie's own figures
 * (its rate, latencies, the +++++ flag and the parameters the CSV row
 * needs) are phase metrics, so `fslab show` renders the same table and
 * CSV from the store.  Like bonnie++, caches are never dropped unless
 * cold=1 asks for it: bonnie++ relies on a file twice the size of RAM.
 * See doc/bonnie.md.
 */
#include "workloads/bonnie.h"

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
#include "par.h"
#include "util/util.h"
#include "util/verify.h"
#include "workloads/registry.h"

#define MIB (1024ULL * 1024ULL)
#define RAND_EXTRA_LEN 12   /* bonnie++'s RandExtraLen */
#define DIRECT_ALIGN 4096

/* ---- pure helpers (declared in bonnie.h, unit-tested) ---- */

uint64_t bon_system_ram(void)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return 0;
	return (uint64_t)si.totalram * si.mem_unit;
}

uint64_t bon_default_size(uint64_t ram)
{
	uint64_t s = 2 * ram;

	s = (s + MIB - 1) / MIB * MIB;
	return s < 300 * MIB ? 300 * MIB : s;
}

int bon_parse_ram(const char *s, uint64_t sysram, uint64_t *ram, char *err,
		  size_t errlen)
{
	if (!s || !*s || !strcmp(s, "auto")) {
		*ram = sysram;
		return 0;
	}
	if (parse_size(s, ram)) {
		snprintf(err, errlen, "'%s' is not a size for 'ram'", s);
		return -1;
	}
	return 0;
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

int bon_parse_files(const char *s, struct bon_files *f, char *err,
		    size_t errlen)
{
	char *dup = xstrdup(s ? s : "0"), *save = NULL, *tok;
	int field = 0, ret = 0;

	memset(f, 0, sizeof(*f));
	f->dirs = 1;
	f->chunk = 4096;
	/* strtok_r would merge "::"; bonnie++ fields are positional */
	for (tok = dup; tok && !ret; tok = save, field++) {
		char *colon = strchr(tok, ':');
		uint64_t v;

		save = colon ? colon + 1 : NULL;
		if (colon)
			*colon = '\0';
		if (field > 4) {
			snprintf(err, errlen, "too many fields in files '%s'",
				 s);
			ret = -1;
			break;
		}
		if (!*tok && field)
			continue;
		if (field == 0 || field == 3) {
			long long n;

			if (parse_int(tok, field ? 1 : 0, 99999, &n)) {
				snprintf(err, errlen, "bad %s '%s' in files "
					 "'%s'", field ? "directory count" :
					 "file count", tok, s);
				ret = -1;
			} else if (field) {
				f->dirs = n;
			} else {
				f->n = n;
			}
			continue;
		}
		if (parse_size(tok, &v)) {
			snprintf(err, errlen, "'%s' is not a size in files "
				 "'%s'", tok, s);
			ret = -1;
		} else if (field == 1) {
			f->max = v;
		} else if (field == 2) {
			f->min = v;
		} else {
			f->chunk = v;
		}
	}
	free(dup);
	if (ret)
		return -1;
	if (f->min > f->max) {
		snprintf(err, errlen, "files: min size %llu is above max "
			 "size %llu", (unsigned long long)f->min,
			 (unsigned long long)f->max);
		return -1;
	}
	if (f->chunk < 1 || f->chunk > 64 * MIB) {
		snprintf(err, errlen, "files: chunk must be 1..64M, not %llu",
			 (unsigned long long)f->chunk);
		return -1;
	}
	return 0;
}

uint64_t bon_effective_size(const struct bon_opts *o, uint64_t sysram)
{
	uint64_t ram = sysram;
	char err[128];

	if (o->size)
		return o->size;
	if (bon_parse_ram(o->ram, sysram, &ram, err, sizeof(err)))
		ram = sysram;
	return bon_default_size(ram);
}

int bon_check_opts(const struct bon_opts *o, uint64_t sysram, char *err,
		   size_t errlen)
{
	struct bon_files f;
	uint64_t ram, size;

	if (!is_pow2(o->chunk) || o->chunk < 256 || o->chunk > MIB) {
		snprintf(err, errlen, "chunk must be a power of two from 256 "
			 "to 1M, not %llu", (unsigned long long)o->chunk);
		return -1;
	}
	if (o->direct && o->chunk < DIRECT_ALIGN) {
		snprintf(err, errlen, "direct=1 needs chunk >= %d, not %llu",
			 DIRECT_ALIGN, (unsigned long long)o->chunk);
		return -1;
	}
	if (bon_parse_ram(o->ram, sysram, &ram, err, errlen) ||
	    bon_parse_files(o->files, &f, err, errlen))
		return -1;
	size = bon_effective_size(o, sysram);
	if (size < 2 * o->chunk) {
		snprintf(err, errlen, "size %llu is below two chunks",
			 (unsigned long long)size);
		return -1;
	}
	if (size % o->chunk) {
		snprintf(err, errlen, "size %llu is not a multiple of chunk "
			 "%llu", (unsigned long long)size,
			 (unsigned long long)o->chunk);
		return -1;
	}
	/* bonnie++'s reason: reads must not come from the page cache */
	if (ram && !o->direct && size < 2 * ram) {
		snprintf(err, errlen, "size %lluM is below twice the RAM "
			 "(%lluM): reads would come from the page cache; "
			 "give ram=0, a smaller ram= or direct=1",
			 (unsigned long long)(size / MIB),
			 (unsigned long long)(ram / MIB));
		return -1;
	}
	if (o->perchar != BON_PERCHAR_NONE &&
	    (o->byte_io < 1 || o->byte_io > size)) {
		snprintf(err, errlen, "byte_io must be between 1 and the "
			 "size, not %llu", (unsigned long long)o->byte_io);
		return -1;
	}
	if (o->seeks < 1 || o->seekers < 1) {
		snprintf(err, errlen, "seeks and seekers must be positive");
		return -1;
	}
	return 0;
}

bool bon_too_fast(uint64_t wall_ns)
{
	return wall_ns < BON_MIN_NS;
}

void bon_fmt_rate(char *buf, size_t len, const struct bon_cell *c,
		  enum bon_test t)
{
	if (!c->present)
		snprintf(buf, len, "%s", "");
	else if (c->too_fast)
		snprintf(buf, len, "+++++");
	else if (t == BON_SEEKS && c->rate < 1000)
		snprintf(buf, len, "%.1f", c->rate);
	else
		snprintf(buf, len, "%lld", (long long)c->rate);
}

void bon_fmt_cpu(char *buf, size_t len, const struct bon_cell *c)
{
	if (!c->present)
		snprintf(buf, len, "%s", "");
	else if (c->too_fast)
		snprintf(buf, len, "+++");
	else
		snprintf(buf, len, "%d", (int)c->cpu_pct);
}

void bon_fmt_latency(char *buf, size_t len, double us)
{
	if (us < 0)
		snprintf(buf, len, "%s", "");
	else if (us < 10000)
		snprintf(buf, len, "%dus", (int)us);
	else if (us < 10000000)
		snprintf(buf, len, "%dms", (int)(us / 1000));
	else
		snprintf(buf, len, "%ds", (int)(us / 1000000));
}

void bon_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	uint64_t m = bytes / MIB;

	if (m && !(m % 1024))
		snprintf(buf, len, "%lluG", (unsigned long long)(m / 1024));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)m);
}

struct sbuf {
	char *s;
	size_t nr, alloc;
};

static void sb_add(struct sbuf *b, const char *s)
{
	size_t l = strlen(s);

	ALLOC_GROW(b->s, b->nr + l + 1, b->alloc);
	memcpy(b->s + b->nr, s, l + 1);
	b->nr += l;
}

/*
 * Field by field, 0-based as bon_csv2txt indexes them:
 * 0 format 1.98, 1 version, 2 name, 3 concurrency, 4 seed, 5 size,
 * 6 chunk, 7 seeks, 8 seekers, 9..20 the six I/O rates with %CP,
 * 21 files, 22 max, 23 min, 24 dirs, 25 file chunk, 26..37 the six
 * file-test rates with %CP, 38..49 the twelve latencies.
 *
 * bonnie++ 2.00a leaves field 6 (chunk) empty even though it has one,
 * and field 24 (dirs) empty when there is one directory; fslab fills
 * both (bon_csv2txt then shows "256M:8192:8192:5" and "1/1").  max and
 * min stay empty when 0, as bonnie++ writes them.
 */
char *bon_csv_row(const struct bon_row *r)
{
	struct sbuf b = { 0 };
	char t[64], u[64];

	snprintf(t, sizeof(t), "1.98,%s,", r->version);
	sb_add(&b, t);
	sb_add(&b, r->machine);
	snprintf(t, sizeof(t), ",%d,%llu,", r->concurrency,
		 (unsigned long long)r->seed);
	sb_add(&b, t);
	if (r->size) {
		bon_fmt_size(t, sizeof(t), r->size);
		sb_add(&b, t);
		snprintf(t, sizeof(t), ",%llu,%lld,%lld",
			 (unsigned long long)r->chunk, r->seeks, r->seekers);
		sb_add(&b, t);
	} else {
		sb_add(&b, ",,,");
	}
	for (int i = 0; i < BON_NR_IO; i++) {
		bon_fmt_rate(t, sizeof(t), &r->cell[i], (enum bon_test)i);
		bon_fmt_cpu(u, sizeof(u), &r->cell[i]);
		sb_add(&b, ",");
		sb_add(&b, t);
		sb_add(&b, ",");
		sb_add(&b, u);
	}
	if (r->have_files) {
		const struct bon_files *f = &r->files;

		snprintf(t, sizeof(t), ",%lld,", f->n);
		sb_add(&b, t);
		if (f->max) {
			snprintf(t, sizeof(t), "%llu",
				 (unsigned long long)f->max);
			sb_add(&b, t);
		}
		sb_add(&b, ",");
		if (f->min) {
			snprintf(t, sizeof(t), "%llu",
				 (unsigned long long)f->min);
			sb_add(&b, t);
		}
		snprintf(t, sizeof(t), ",%lld,", f->dirs);
		sb_add(&b, t);
		if (f->max) {
			snprintf(t, sizeof(t), "%llu",
				 (unsigned long long)f->chunk);
			sb_add(&b, t);
		}
	} else {
		sb_add(&b, ",,,,,");
	}
	for (int i = BON_NR_IO; i < BON_NR; i++) {
		bon_fmt_rate(t, sizeof(t), &r->cell[i], (enum bon_test)i);
		bon_fmt_cpu(u, sizeof(u), &r->cell[i]);
		sb_add(&b, ",");
		sb_add(&b, t);
		sb_add(&b, ",");
		sb_add(&b, u);
	}
	for (int i = 0; i < BON_NR; i++) {
		bon_fmt_latency(t, sizeof(t), r->cell[i].present ?
				r->cell[i].lat_us : -1);
		sb_add(&b, ",");
		sb_add(&b, t);
	}
	return b.s;
}

void bon_seek_tickets(uint64_t seed, uint64_t nblocks, size_t n,
		      struct bon_ticket *out)
{
	struct pyrand r;

	pyrand_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		out[i].block = pyrand_below(&r, nblocks);
		/* bonnie++'s UpdateSeek: one seek in ten writes back */
		out[i].update = pyrand_below(&r, 10) == 0;
	}
}

char **bon_make_names(uint64_t seed, long long n, long long dirs,
		      bool random, int **dir_of)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	char **names = xcalloc((size_t)n ? (size_t)n : 1, sizeof(*names));
	long long per_dir = n / dirs, in_dir = 0;
	int dir = 0;
	struct pyrand r;

	if (dir_of)
		*dir_of = xcalloc((size_t)n ? (size_t)n : 1, sizeof(int));
	pyrand_seed(&r, seed);
	for (long long i = 0; i < n; i++) {
		char extra[RAND_EXTRA_LEN + 1], pre[16] = "";
		int len = (int)pyrand_below(&r, RAND_EXTRA_LEN + 1);

		for (int j = 0; j < len; j++)
			extra[j] = chars[pyrand_below(&r, sizeof(chars) - 1)];
		extra[len] = '\0';
		if (dirs > 1)
			snprintf(pre, sizeof(pre), "%05d/", dir);
		if (dir_of)
			(*dir_of)[i] = dir;
		/*
		 * bonnie++ moves on once a directory holds one name more
		 * than n / dirs, so the last directories may stay short.
		 */
		if (++in_dir > per_dir) {
			in_dir = 0;
			if (dir + 1 < dirs)
				dir++;
		}
		names[i] = random ? xasprintf("%s%s%07lld", pre, extra, i) :
				    xasprintf("%s%07lld%s", pre, i, extra);
	}
	return names;
}

void bon_names_free(char **names, long long n)
{
	for (long long i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t bon_percentile(uint64_t *v, size_t n, double pct)
{
	size_t k;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), u64_cmp);
	k = (size_t)ceil(pct / 100.0 * (double)n);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

/* ---- options ---- */

static const struct opt_enum perchar_values[] = {
	{ "write", BON_PERCHAR_SYSCALL, "one write(2)/read(2) per byte over "
	  "byte_io (bonnie++ >= 1.92)" },
	{ "stdio", BON_PERCHAR_STDIO, "putc/getc over the whole file "
	  "(bonnie++ 1.0x)" },
	{ "none", BON_PERCHAR_NONE, "skip the per-char tests (bonnie++ -f)" },
	{ NULL, 0, NULL },
};

#define OFF(f) offsetof(struct bon_opts, f)
static const struct opt bon_opt_table[] = {
	{ "size", OPT_SIZE, OFF(size), "0",
	  "scratch file size (0: max(300M, 2 x ram), as bonnie++)",
	  0, 0, NULL },
	{ "chunk", OPT_SIZE, OFF(chunk), "8k",
	  "block I/O size, a power of two from 256 to 1M", 0, 0, NULL },
	{ "ram", OPT_STRING, OFF(ram), "auto",
	  "RAM the size must be twice of (auto: this machine; 0: no check)",
	  0, 0, NULL },
	{ "byte_io", OPT_SIZE, OFF(byte_io), "3M",
	  "bytes the per-char tests move with perchar=write", 0, 0, NULL },
	{ "perchar", OPT_ENUM, OFF(perchar), "write",
	  "meaning of the per-char tests", 0, 0, perchar_values },
	{ "seeks", OPT_INT, OFF(seeks), "8192", "random seeks in total",
	  1, 100000000, NULL },
	{ "seekers", OPT_INT, OFF(seekers), "5",
	  "threads sharing the seeks, one fd each", 1, 1000, NULL },
	{ "files", OPT_STRING, OFF(files), "16",
	  "file tests N[:max[:min[:dirs[:chunk]]]], N x 1024 files "
	  "(0: none)", 0, 0, NULL },
	{ "direct", OPT_BOOL, OFF(direct), "0",
	  "O_DIRECT for the block, rewrite and seek tests", 0, 0, NULL },
	{ "cold", OPT_BOOL, OFF(cold), "0",
	  "drop caches between tests (bonnie++ never does)", 0, 0, NULL },
	{ "machine", OPT_STRING, OFF(machine), "",
	  "machine name in the table and CSV (empty: the host name)",
	  0, 0, NULL },
	{ "seed", OPT_INT, OFF(seed), "-1",
	  "seed for seeks, names and sizes (-1: the run seed)",
	  -1, LLONG_MAX, NULL },
	{ "reorder", OPT_INT, OFF(reorder), "0",
	  "MPI cache defeat (IOR -C): getc and block read read the file "
	  "of rank r+K (mod ranks)", 0, 1000000, NULL },
	OPT_END,
};

static const char *const bon_phase_names[] = {
	"putc", "block-write", "rewrite", "getc", "block-read", "seeks",
	"seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat",
	"rand-delete", NULL,
};

static int bon_check(const void *vopts, char *err, size_t errlen)
{
	return bon_check_opts(vopts, bon_system_ram(), err, errlen);
}

/*
 * Pre-flight: the scratch file per rank, or the file tests' files if
 * they are larger (the scratch file is gone by then).
 */
static void bon_needs(const void *vopts, int nranks, struct wl_needs *n)
{
	const struct bon_opts *o = vopts;
	uint64_t size = bon_effective_size(o, bon_system_ram());
	struct bon_files f;
	char err[128], sz[32];

	n->bytes = size * (uint64_t)nranks;
	n->inodes = 1;
	snprintf(n->what, sizeof(n->what), "bonnie's %s scratch file%s",
		 fmt_size(sz, sizeof(sz), size), o->size ? "" :
		 " (size=0: twice the RAM; give size= or ram=)");
	if (bon_parse_files(o->files, &f, err, sizeof(err)) == 0 && f.n) {
		uint64_t nr = (uint64_t)f.n * 1024 * (uint64_t)nranks;

		n->inodes = nr + (uint64_t)f.dirs;
		if (nr * f.max > n->bytes) {
			n->bytes = nr * f.max;
			snprintf(n->what, sizeof(n->what), "bonnie's file "
				 "tests (%llu files of up to %s)",
				 (unsigned long long)nr,
				 fmt_size(sz, sizeof(sz), f.max));
		}
	}
}

/* ---- the run ---- */

struct lat {
	uint64_t *v;
	size_t nr, alloc;
};

static void lat_add(struct lat *l, uint64_t ns)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = ns;
}

struct bon_run {
	struct wl_ctx *ctx;
	const struct bon_opts *o;
	uint64_t size, seed;
	char *path;         /* the scratch file */
	char *fdir;         /* the file-test directory */
	char *buf;          /* chunk-sized, DIRECT_ALIGN-aligned */
	struct bon_files files;
	char **names;
	int *dir_of;
	long long nr_names;  /* entries in names */
	bool on_disk;        /* the file-test directory exists */
	bool stdio;
	/*
	 * --verify: the data is util/verify.h's pattern with ctx->seed; the
	 * scratch file's id is that of its name "Bonnie.PID", a file-test
	 * file's that of its own name (without the directory).
	 */
	bool verify;
	const char *vname;  /* r->path relative to ctx->dir, for messages */
	uint64_t vid;
	unsigned char vblk[VERIFY_BLOCK]; /* per-char tests: current block */
	/*
	 * reorder=K: the read tests swap path, vname and vid for those of
	 * rank peer's scratch file (its name has that rank's pid).
	 */
	int peer;
	char *peer_path, *own_path;
	const char *own_vname;
	uint64_t peer_vid, own_vid;
};

/* Point the read tests at rank peer's file (on) or back at ours. */
static void read_peer(struct bon_run *r, bool on)
{
	if (!r->peer_path)
		return;
	r->path = on ? r->peer_path : r->own_path;
	r->vname = on ? r->peer_path : r->own_vname;
	r->vid = on ? r->peer_vid : r->own_vid;
}

/* The stored evidence of reorder: whose file rank 0 read. */
static void add_reorder(const struct bon_run *r, struct phase *ph)
{
	if (!r->o->reorder)
		return;
	phase_metric(ph, "reorder", (double)r->o->reorder, "ranks",
		     BETTER_NONE);
	phase_metric(ph, "peer_of_rank0",
		     (double)par_peer(0, r->o->reorder, r->ctx->nranks),
		     "rank", BETTER_NONE);
}

/*
 * reorder=K: learn every rank's pid (the scratch file is Bonnie.PID in
 * each rank's directory) and aim the read tests at rank r+K's file.
 * Collective when reorder is set (every rank has the same options).
 */
static void setup_reorder(struct bon_run *r)
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
static const char *file_base(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash ? slash + 1 : name;
}

/* The per-char tests' expected byte at offset i. */
static unsigned char vbyte(struct bon_run *r, uint64_t i)
{
	if (!(i % VERIFY_BLOCK))
		verify_fill(r->ctx->seed, r->vid, i, r->vblk, VERIFY_BLOCK);
	return r->vblk[i % VERIFY_BLOCK];
}

/* A block read back is not the pattern: fail the phase, say where. */
static int bp_verify_fail(struct bon_run *r, struct phase *ph,
			  const char *shown, uint64_t id, uint64_t off,
			  const void *buf, size_t len)
{
	struct verify_bad bad;

	if (verify_check(r->ctx->seed, id, off, buf, len, &bad))
		BUG("verify_check passed what it failed");
	return verify_fail(ph, shown, &bad);
}

/* Check what a read returned; 0 when it is the pattern. */
static int bp_verify(struct bon_run *r, struct phase *ph, const char *shown,
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
static int bp_verify_byte(struct bon_run *r, struct phase *ph, int fd,
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

struct bon_phase {
	struct phase *ph;
	struct lat lat;
	uint64_t bytes, files, ops;
	uint64_t t0;
};

static void bp_begin(struct bon_run *r, struct bon_phase *bp,
		     enum bon_test t)
{
	memset(bp, 0, sizeof(*bp));
	bp->ph = phase_begin(r->ctx, bon_phase_names[t], NULL);
	bp->t0 = now_ns();
}

static int bp_fail(struct bon_phase *bp, const char *what,
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
static int bp_end(struct bon_run *r, struct bon_phase *bp, enum bon_test t,
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
		phase_metric(bp->ph, "rate", rate, t < BON_SEEKS ? "KiB/s" :
			     t == BON_SEEKS ? "seeks/s" : "files/s",
			     BETTER_HIGHER);
		phase_metric(bp->ph, "too_fast", bon_too_fast(wall), "flag",
			     BETTER_NONE);
		if (bp->lat.nr) {
			uint64_t mx = 0;

			for (size_t i = 0; i < bp->lat.nr; i++)
				if (bp->lat.v[i] > mx)
					mx = bp->lat.v[i];
			phase_metric(bp->ph, "lat_max_us", (double)mx / 1e3,
				     "us", BETTER_LOWER);
			phase_metric(bp->ph, "lat_p50_us", (double)
				     bon_percentile(bp->lat.v, bp->lat.nr,
						    50) / 1e3, "us",
				     BETTER_LOWER);
			phase_metric(bp->ph, "lat_p99_us", (double)
				     bon_percentile(bp->lat.v, bp->lat.nr,
						    99) / 1e3, "us",
				     BETTER_LOWER);
		}
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
	free(bp->lat.v);
	if (phase_end(r->ctx, bp->ph, NULL) < 0)
		ret = -1;
	bp->ph = NULL;
	if (!ret && !phase_stop_requested())
		fprintf(r->ctx->progress, "bonnie: %s done (%.2f s)\n",
			bon_phase_names[t], s);
	return ret;
}

static ssize_t read_full(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* Between tests: nothing, like bonnie++, unless cold=1. */
static int between(struct bon_run *r)
{
	if (!r->o->cold || phase_stop_requested())
		return 0;
	return wl_cold_cache(r->ctx);
}

static int fsync_close(struct bon_phase *bp, int fd, const char *path)
{
	int ret = 0;

	if (fsync(fd))
		ret = bp_fail(bp, "fsync", path);
	if (close(fd) && !ret)
		ret = bp_fail(bp, "close", path);
	return ret;
}

static int test_putc(struct bon_run *r)
{
	struct bon_phase bp;
	uint64_t n = r->stdio ? r->size : r->o->byte_io, t = now_ns();
	uint64_t chunk = r->o->chunk;
	int ret = 0;

	bp_begin(r, &bp, BON_PUTC);
	phase_expect(bp.ph, n, 0, 0);
	if (r->stdio) {
		FILE *f = fopen(r->path, "w");

		if (!f)
			return bp_end(r, &bp, BON_PUTC,
				      bp_fail(&bp, "create", r->path), -1);
		for (uint64_t i = 0; i < n && !ret; i++) {
			int c = r->verify ? vbyte(r, i) : (int)(i & 0x7f);

			if (putc(c, f) == EOF)
				ret = bp_fail(&bp, "write", r->path);
			if ((i + 1) % chunk == 0) {
				uint64_t t1 = now_ns();

				lat_add(&bp.lat, t1 - t);
				t = t1;
				phase_progress(bp.ph, chunk, 0, 0);
				if (phase_stop_requested())
					break;
			}
		}
		if (fflush(f) && !ret)
			ret = bp_fail(&bp, "write", r->path);
		if (!ret && fsync(fileno(f)))
			ret = bp_fail(&bp, "fsync", r->path);
		if (fclose(f) && !ret)
			ret = bp_fail(&bp, "close", r->path);
	} else {
		int fd = open(r->path, O_WRONLY | O_CREAT | O_TRUNC |
			      O_CLOEXEC, 0600);

		if (fd < 0)
			return bp_end(r, &bp, BON_PUTC,
				      bp_fail(&bp, "create", r->path), -1);
		for (uint64_t i = 0; i < n && !ret; i++) {
			char c = r->verify ? (char)vbyte(r, i) :
					     (char)(i & 0x7f);

			if (write_full(fd, &c, 1))
				ret = bp_fail(&bp, "write", r->path);
			if ((i + 1) % chunk == 0) {
				uint64_t t1 = now_ns();

				lat_add(&bp.lat, t1 - t);
				t = t1;
				phase_progress(bp.ph, chunk, 0, 0);
				if (phase_stop_requested())
					break;
			}
		}
		if (ret)
			close(fd);
		else
			ret = fsync_close(&bp, fd, r->path);
	}
	bp.bytes = n;
	bp.ops = n;
	return bp_end(r, &bp, BON_PUTC, ret, -1);
}

static int open_block(struct bon_run *r, int flags)
{
	return open(r->path, flags | O_CLOEXEC | (r->o->direct ? O_DIRECT : 0),
		    0600);
}

static int test_block_write(struct bon_run *r)
{
	struct bon_phase bp;
	size_t chunk = (size_t)r->o->chunk;
	uint64_t nchunks = r->size / chunk;
	int fd, ret = 0;

	bp_begin(r, &bp, BON_WRITE);
	phase_expect(bp.ph, nchunks * chunk, 0, 0);
	fd = open_block(r, O_WRONLY | O_CREAT | O_TRUNC);
	if (fd < 0)
		return bp_end(r, &bp, BON_WRITE,
			      bp_fail(&bp, "create", r->path), -1);
	for (uint64_t i = 0; i < nchunks && !ret; i++) {
		uint64_t t = now_ns();

		/* one byte changed per chunk, so no two chunks are alike */
		if (r->verify)
			verify_fill(r->ctx->seed, r->vid, i * chunk, r->buf,
				    chunk);
		else
			r->buf[i % chunk]++;
		if (write_full(fd, r->buf, chunk))
			ret = bp_fail(&bp, "write", r->path);
		lat_add(&bp.lat, now_ns() - t);
		bp.bytes += chunk;
		bp.ops++;
		phase_progress(bp.ph, chunk, 0, 0);
		if (phase_stop_requested())
			break;
	}
	if (ret)
		close(fd);
	else
		ret = fsync_close(&bp, fd, r->path);
	return bp_end(r, &bp, BON_WRITE, ret, -1);
}

static int test_rewrite(struct bon_run *r)
{
	struct bon_phase bp;
	size_t chunk = (size_t)r->o->chunk;
	int fd, ret = 0;

	bp_begin(r, &bp, BON_REWRITE);
	phase_expect(bp.ph, r->size, 0, 0);
	fd = open_block(r, O_RDWR);
	if (fd < 0)
		return bp_end(r, &bp, BON_REWRITE,
			      bp_fail(&bp, "open", r->path), -1);
	while (!ret && !phase_stop_requested()) {
		uint64_t t = now_ns();
		ssize_t n = read_full(fd, r->buf, chunk);

		if (n < 0) {
			ret = bp_fail(&bp, "read", r->path);
			break;
		}
		if (!n)
			break;
		/* --verify: check what was read, write the same back */
		if (r->verify) {
			ret = bp_verify(r, bp.ph, r->vname, r->vid, bp.bytes,
					r->buf, (size_t)n);
			if (ret)
				break;
		} else {
			r->buf[bp.ops % (uint64_t)n]++;
		}
		if (lseek(fd, -n, SEEK_CUR) < 0)
			ret = bp_fail(&bp, "seek in", r->path);
		else if (write_full(fd, r->buf, (size_t)n))
			ret = bp_fail(&bp, "write", r->path);
		lat_add(&bp.lat, now_ns() - t);
		bp.bytes += (uint64_t)n;
		bp.ops++;
		phase_progress(bp.ph, (uint64_t)n, 0, 0);
	}
	if (ret)
		close(fd);
	else
		ret = fsync_close(&bp, fd, r->path);
	return bp_end(r, &bp, BON_REWRITE, ret, -1);
}

static int test_getc(struct bon_run *r)
{
	struct bon_phase bp;
	uint64_t n = r->stdio ? r->size : r->o->byte_io, got = 0;
	uint64_t chunk = r->o->chunk, t = now_ns();
	int ret = 0;

	bp_begin(r, &bp, BON_GETC);
	phase_expect(bp.ph, n, 0, 0);
	add_reorder(r, bp.ph);
	if (r->stdio) {
		FILE *f = fopen(r->path, "r");

		if (!f)
			return bp_end(r, &bp, BON_GETC,
				      bp_fail(&bp, "open", r->path), -1);
		int c;

		while (got < n && (c = getc(f)) != EOF) {
			if (r->verify && c != vbyte(r, got)) {
				ret = bp_verify_byte(r, bp.ph, fileno(f), got);
				break;
			}
			if (++got % chunk == 0) {
				uint64_t t1 = now_ns();

				lat_add(&bp.lat, t1 - t);
				t = t1;
				phase_progress(bp.ph, chunk, 0, 0);
				if (phase_stop_requested())
					break;
			}
		}
		if (ferror(f))
			ret = bp_fail(&bp, "read", r->path);
		fclose(f);
	} else {
		int fd = open(r->path, O_RDONLY | O_CLOEXEC);
		char c;

		if (fd < 0)
			return bp_end(r, &bp, BON_GETC,
				      bp_fail(&bp, "open", r->path), -1);
		while (got < n) {
			ssize_t k = read(fd, &c, 1);

			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				ret = bp_fail(&bp, "read", r->path);
			if (k <= 0)
				break;
			if (r->verify && (unsigned char)c != vbyte(r, got)) {
				ret = bp_verify_byte(r, bp.ph, fd, got);
				break;
			}
			if (++got % chunk == 0) {
				uint64_t t1 = now_ns();

				lat_add(&bp.lat, t1 - t);
				t = t1;
				phase_progress(bp.ph, chunk, 0, 0);
				if (phase_stop_requested())
					break;
			}
		}
		close(fd);
	}
	bp.bytes = got;
	bp.ops = got;
	return bp_end(r, &bp, BON_GETC, ret, -1);
}

static int test_block_read(struct bon_run *r)
{
	struct bon_phase bp;
	size_t chunk = (size_t)r->o->chunk;
	int fd, ret = 0;

	bp_begin(r, &bp, BON_READ);
	phase_expect(bp.ph, r->size, 0, 0);
	add_reorder(r, bp.ph);
	fd = open_block(r, O_RDONLY);
	if (fd < 0)
		return bp_end(r, &bp, BON_READ,
			      bp_fail(&bp, "open", r->path), -1);
	while (!phase_stop_requested()) {
		uint64_t t = now_ns();
		ssize_t n = read_full(fd, r->buf, chunk);

		if (n < 0)
			ret = bp_fail(&bp, "read", r->path);
		if (n <= 0)
			break;
		lat_add(&bp.lat, now_ns() - t);
		ret = bp_verify(r, bp.ph, r->vname, r->vid, bp.bytes, r->buf,
				(size_t)n);
		if (ret)
			break;
		bp.bytes += (uint64_t)n;
		bp.ops++;
		phase_progress(bp.ph, (uint64_t)n, 0, 0);
	}
	close(fd);
	return bp_end(r, &bp, BON_READ, ret, -1);
}

/* ---- random seeks ---- */

struct seeker {
	struct bon_run *r;
	const struct bon_ticket *tickets;
	size_t nr_tickets;
	atomic_size_t *next;
	struct lat lat;
	uint64_t start_ns, end_ns, ops, bytes;
	int err;            /* errno of the first failure, 0 if none */
	const char *what;
	bool bad;           /* --verify found a block that differs */
	uint64_t bad_off;   /* ... read at this offset, */
	char *bad_buf;      /* ... holding this (chunk bytes) */
};

static void *seeker_main(void *arg)
{
	struct seeker *s = arg;
	size_t chunk = (size_t)s->r->o->chunk;
	char *buf = aligned_alloc(DIRECT_ALIGN, chunk);
	int fd;

	if (!buf)
		BUG("out of memory");
	memset(buf, 0, chunk);
	s->start_ns = realtime_ns();
	fd = open_block(s->r, O_RDWR);
	if (fd < 0) {
		s->err = errno;
		s->what = "open";
	}
	while (fd >= 0 && !s->err && !phase_stop_requested()) {
		size_t i = atomic_fetch_add(s->next, 1);
		const struct bon_ticket *tk;
		off_t off;
		uint64_t t;

		if (i >= s->nr_tickets)
			break;
		tk = &s->tickets[i];
		off = (off_t)(tk->block * chunk);
		t = now_ns();
		if (lseek(fd, off, SEEK_SET) < 0) {
			s->err = errno;
			s->what = "seek in";
		} else if (read_full(fd, buf, chunk) != (ssize_t)chunk) {
			s->err = errno ? errno : EIO;
			s->what = "read";
		} else if (s->r->verify &&
			   !verify_check(s->r->ctx->seed, s->r->vid,
					 (uint64_t)off, buf, chunk,
					 &(struct verify_bad){ 0 })) {
			/* the main thread reports it, with phase_fail */
			s->bad = true;
			s->bad_off = (uint64_t)off;
			s->bad_buf = buf;
			buf = NULL;
			break;
		} else if (tk->update) {
			/* --verify writes the pattern back unchanged */
			if (!s->r->verify)
				buf[i % chunk]++;
			if (lseek(fd, off, SEEK_SET) < 0 ||
			    write_full(fd, buf, chunk)) {
				s->err = errno;
				s->what = "write";
			}
			s->bytes += chunk;
		}
		lat_add(&s->lat, now_ns() - t);
		s->bytes += chunk;
		s->ops++;
	}
	if (fd >= 0)
		close(fd);
	s->end_ns = realtime_ns();
	free(buf);
	return NULL;
}

static int test_seeks(struct bon_run *r)
{
	size_t n = (size_t)r->o->seeks, nt = (size_t)r->o->seekers;
	struct bon_ticket *tk = xcalloc(n, sizeof(*tk));
	struct seeker *s = xcalloc(nt, sizeof(*s));
	pthread_t *th = xcalloc(nt, sizeof(*th));
	atomic_size_t next = 0;
	uint64_t first = UINT64_MAX, last = 0;
	struct bon_phase bp;
	size_t started = 0;
	double rate;
	int ret = 0;

	bon_seek_tickets(r->seed, r->size / r->o->chunk, n, tk);
	bp_begin(r, &bp, BON_SEEKS);
	for (size_t i = 0; i < nt; i++) {
		s[i] = (struct seeker){ .r = r, .tickets = tk,
					.nr_tickets = n, .next = &next };
		if (pthread_create(&th[i], NULL, seeker_main, &s[i])) {
			errno = EAGAIN;
			ret = error_errno("cannot start seeker thread");
			phase_fail(bp.ph, "cannot start seeker thread");
			atomic_store(&next, n);
			break;
		}
		started++;
	}
	for (size_t i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		if (s[i].err && !ret) {
			errno = s[i].err;
			ret = bp_fail(&bp, s[i].what, r->path);
		}
		if (s[i].bad && !ret)
			ret = bp_verify_fail(r, bp.ph, r->vname, r->vid,
					     s[i].bad_off, s[i].bad_buf,
					     (size_t)r->o->chunk);
		free(s[i].bad_buf);
		if (s[i].start_ns < first)
			first = s[i].start_ns;
		if (s[i].end_ns > last)
			last = s[i].end_ns;
		phase_worker(bp.ph, (int)i, s[i].start_ns, s[i].end_ns,
			     s[i].bytes, 0, s[i].ops);
		for (size_t j = 0; j < s[i].lat.nr; j++)
			lat_add(&bp.lat, s[i].lat.v[j]);
		bp.ops += s[i].ops;
		bp.bytes += s[i].bytes;
		free(s[i].lat.v);
	}
	/* bonnie++: seeks / (last seeker's stop - first seeker's start) */
	rate = last > first ? (double)bp.ops / ((double)(last - first) / 1e9)
			    : 0;
	free(tk);
	free(s);
	free(th);
	return bp_end(r, &bp, BON_SEEKS, ret, rate);
}

/* ---- file creation tests ---- */

static int make_dirs(struct bon_run *r, struct bon_phase *bp)
{
	char sub[24];
	int dfd;

	if (mkdir(r->fdir, 0700))
		return bp_fail(bp, "create directory", r->fdir);
	if (r->files.dirs < 2)
		return 0;
	dfd = open(r->fdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return bp_fail(bp, "open directory", r->fdir);
	for (long long i = 0; i < r->files.dirs; i++) {
		snprintf(sub, sizeof(sub), "%05lld", i);
		if (mkdirat(dfd, sub, 0700)) {
			close(dfd);
			return bp_fail(bp, "create directory", sub);
		}
	}
	close(dfd);
	return 0;
}

/* Remove the directories (after the files); 0 or -1 with errno. */
static int remove_dirs(struct bon_run *r)
{
	char *p;

	for (long long i = 0; r->files.dirs > 1 && i < r->files.dirs; i++) {
		p = xasprintf("%s/%05lld", r->fdir, i);
		if (rmdir(p)) {
			free(p);
			return -1;
		}
		free(p);
	}
	return rmdir(r->fdir);
}

static int test_create(struct bon_run *r, bool random)
{
	enum bon_test t = random ? BON_RAND_CREATE : BON_SEQ_CREATE;
	const struct bon_files *f = &r->files;
	size_t fchunk = (size_t)f->chunk;
	char *buf = xcalloc(1, fchunk);
	struct bon_phase bp;
	struct pyrand rnd;
	int dfd = -1, ret;

	pyrand_seed(&rnd, r->seed + (random ? 3 : 2));
	bon_names_free(r->names, r->nr_names);
	free(r->dir_of);
	r->nr_names = f->n * 1024;
	r->names = bon_make_names(r->seed + (random ? 1 : 0), r->nr_names,
				  f->dirs, random, &r->dir_of);
	bp_begin(r, &bp, t);
	ret = make_dirs(r, &bp);
	r->on_disk = !ret;
	if (!ret) {
		dfd = open(r->fdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			ret = bp_fail(&bp, "open directory", r->fdir);
	}
	for (long long i = 0; !ret && i < r->nr_names; i++) {
		uint64_t size = f->max, tt = now_ns();
		int fd;

		if (phase_stop_requested())
			break;
		if (f->max > f->min)
			size = f->min + pyrand_below(&rnd, f->max - f->min + 1);
		fd = openat(dfd, r->names[i], O_WRONLY | O_CREAT | O_TRUNC |
			    O_CLOEXEC, 0600);
		if (fd < 0) {
			ret = bp_fail(&bp, "create", r->names[i]);
			break;
		}
		for (uint64_t done = 0; done < size && !ret;) {
			size_t w = size - done < fchunk ? (size_t)(size - done)
							: fchunk;

			if (r->verify)
				verify_fill(r->ctx->seed,
					    verify_file_id(file_base(
						    r->names[i])),
					    done, buf, w);
			if (write_full(fd, buf, w))
				ret = bp_fail(&bp, "write", r->names[i]);
			done += w;
			bp.bytes += w;
		}
		if (close(fd) && !ret)
			ret = bp_fail(&bp, "close", r->names[i]);
		lat_add(&bp.lat, now_ns() - tt);
		bp.files++;
		bp.ops++;
	}
	if (dfd >= 0)
		close(dfd);
	/* the final sync belongs to the test: the files must be on disk */
	if (!ret && !phase_stop_requested() && wl_sync(r->ctx)) {
		phase_fail(bp.ph, "sync failed");
		ret = -1;
	}
	free(buf);
	return bp_end(r, &bp, t, ret, -1);
}

/* stat a file and read it when it has data, as bonnie++'s stat_file. */
static int stat_one(struct bon_run *r, struct bon_phase *bp, int dfd,
		    const char *name, const char *shown)
{
	size_t fchunk = (size_t)r->files.chunk;
	struct stat sb;
	int fd;

	if (fstatat(dfd, name, &sb, 0))
		return bp_fail(bp, "stat", shown);
	if (sb.st_size) {
		fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return bp_fail(bp, "open", shown);
		for (off_t done = 0; done < sb.st_size;) {
			char *tmp = r->buf;
			size_t want = fchunk;
			ssize_t n;

			/* r->buf is one I/O chunk; larger file chunks loop */
			if (want > r->o->chunk)
				want = (size_t)r->o->chunk;
			n = read(fd, tmp, want);
			if (n <= 0) {
				close(fd);
				errno = n ? errno : EIO;
				return bp_fail(bp, "read", shown);
			}
			if (bp_verify(r, bp->ph, shown,
				      verify_file_id(file_base(name)),
				      (uint64_t)done, tmp, (size_t)n)) {
				close(fd);
				return -1;
			}
			done += n;
			bp->bytes += (uint64_t)n;
		}
		close(fd);
	}
	return 0;
}

/* Walk the directories in readdir order: stat (+read), or delete. */
static int walk_files(struct bon_run *r, struct bon_phase *bp, bool del)
{
	long long count = 0;
	int ret = 0;

	for (long long i = 0; i < r->files.dirs && !ret; i++) {
		char *dir = r->files.dirs > 1 ?
			    xasprintf("%s/%05lld", r->fdir, i) :
			    xstrdup(r->fdir);
		int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		struct dirent *de;
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;

		if (!d) {
			ret = bp_fail(bp, "open directory", dir);
			if (dfd >= 0)
				close(dfd);
			free(dir);
			break;
		}
		while (!ret && (de = readdir(d))) {
			uint64_t t = now_ns();

			if (de->d_name[0] == '.' ||
			    (r->files.dirs == 1 && de->d_type == DT_DIR))
				continue;
			if (phase_stop_requested())
				break;
			if (del) {
				if (unlinkat(dfd, de->d_name, 0))
					ret = bp_fail(bp, "delete",
						      de->d_name);
			} else {
				ret = stat_one(r, bp, dfd, de->d_name,
					       de->d_name);
			}
			lat_add(&bp->lat, now_ns() - t);
			count++;
			bp->files++;
			bp->ops++;
		}
		closedir(d);
		free(dir);
	}
	if (!ret && !phase_stop_requested() && count != r->nr_names) {
		phase_fail(bp->ph, "expected %lld files, found %lld",
			   r->nr_names, count);
		ret = error("expected %lld files in '%s', found %lld",
			    r->nr_names, r->fdir, count);
	}
	return ret;
}

static void shuffle_names(struct bon_run *r, uint64_t salt)
{
	struct pyrand rnd;
	long long *idx = xcalloc((size_t)r->nr_names, sizeof(*idx));
	char **nn = xcalloc((size_t)r->nr_names, sizeof(*nn));
	int *nd = xcalloc((size_t)r->nr_names, sizeof(*nd));

	for (long long i = 0; i < r->nr_names; i++)
		idx[i] = i;
	pyrand_seed(&rnd, r->seed + salt);
	pyrand_shuffle(&rnd, idx, (size_t)r->nr_names, sizeof(*idx));
	for (long long i = 0; i < r->nr_names; i++) {
		nn[i] = r->names[idx[i]];
		nd[i] = r->dir_of[idx[i]];
	}
	free(r->names);
	free(r->dir_of);
	r->names = nn;
	r->dir_of = nd;
	free(idx);
}

static int test_stat_del(struct bon_run *r, enum bon_test t)
{
	bool del = t == BON_SEQ_DEL || t == BON_RAND_DEL;
	struct bon_phase bp;
	int dfd, ret = 0;

	if (t == BON_RAND_STAT || t == BON_RAND_DEL)
		shuffle_names(r, (uint64_t)t);
	bp_begin(r, &bp, t);
	if (t == BON_SEQ_STAT || t == BON_SEQ_DEL) {
		ret = walk_files(r, &bp, del);
	} else {
		dfd = open(r->fdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			ret = bp_fail(&bp, "open directory", r->fdir);
		for (long long i = 0; !ret && i < r->nr_names; i++) {
			uint64_t tt = now_ns();

			if (phase_stop_requested())
				break;
			if (del) {
				if (unlinkat(dfd, r->names[i], 0))
					ret = bp_fail(&bp, "delete",
						      r->names[i]);
			} else {
				ret = stat_one(r, &bp, dfd, r->names[i],
					       r->names[i]);
			}
			lat_add(&bp.lat, now_ns() - tt);
			bp.files++;
			bp.ops++;
		}
		if (dfd >= 0)
			close(dfd);
	}
	if (!ret && del && !phase_stop_requested()) {
		if (remove_dirs(r))
			ret = bp_fail(&bp, "remove directory", r->fdir);
		else
			r->on_disk = false;
	}
	if (!ret && !phase_stop_requested() && wl_sync(r->ctx)) {
		phase_fail(bp.ph, "sync failed");
		ret = -1;
	}
	return bp_end(r, &bp, t, ret, -1);
}

/* Leave nothing behind, also after a failure or an interrupt. */
static void cleanup(struct bon_run *r)
{
	struct stat sb;

	if (!lstat(r->path, &sb) && S_ISREG(sb.st_mode) && unlink(r->path))
		warning("cannot remove '%s': %s", r->path, strerror(errno));
	if (!r->on_disk || lstat(r->fdir, &sb))
		return;
	for (long long i = 0; i < r->nr_names; i++) {
		char *p = path_join(r->fdir, r->names[i]);

		unlink(p);
		free(p);
	}
	if (remove_dirs(r))
		warning("cannot remove '%s': %s", r->fdir, strerror(errno));
}

static int bon_run_fn(struct wl_ctx *ctx, const void *vopts)
{
	const struct bon_opts *o = vopts;
	struct bon_run r = { .ctx = ctx, .o = o };
	char err[256];
	int ret = 0;

	if (bon_parse_files(o->files, &r.files, err, sizeof(err)))
		return error("%s", err);
	r.size = bon_effective_size(o, bon_system_ram());
	r.seed = o->seed >= 0 ? (uint64_t)o->seed : ctx->seed;
	r.stdio = o->perchar == BON_PERCHAR_STDIO;
	r.path = xasprintf("%s/Bonnie.%d", ctx->dir, (int)getpid());
	r.verify = ctx->verify;
	r.vname = r.path + strlen(ctx->dir) + 1;
	r.vid = verify_file_id(r.vname);
	r.fdir = xasprintf("%s/Bonnie.%d.d", ctx->dir, (int)getpid());
	setup_reorder(&r);
	r.buf = aligned_alloc(DIRECT_ALIGN, (size_t)o->chunk);
	if (!r.buf)
		BUG("out of memory");
	for (size_t i = 0; i < o->chunk; i++)
		r.buf[i] = (char)('a' + i % 26);
	fprintf(ctx->progress, "bonnie: file %s, %lluM, chunk %llu, per-char "
		"%s%s\n", r.path, (unsigned long long)(r.size / MIB),
		(unsigned long long)o->chunk,
		perchar_values[o->perchar].name, o->direct ? ", O_DIRECT" :
		"");
	if (o->perchar != BON_PERCHAR_NONE)
		ret = test_putc(&r);
	if (!ret && !phase_stop_requested())
		ret = between(&r) ? -1 : test_block_write(&r);
	if (!ret && !phase_stop_requested())
		ret = between(&r) ? -1 : test_rewrite(&r);
	if (!ret && !phase_stop_requested() &&
	    o->perchar != BON_PERCHAR_NONE) {
		read_peer(&r, true);
		ret = between(&r) ? -1 : test_getc(&r);
		read_peer(&r, false);
	}
	if (!ret && !phase_stop_requested()) {
		read_peer(&r, true);
		ret = between(&r) ? -1 : test_block_read(&r);
		read_peer(&r, false);
	}
	if (!ret && !phase_stop_requested())
		ret = between(&r) ? -1 : test_seeks(&r);
	/* --verify: the whole file once more, from the disk, at the end */
	if (!ret && !phase_stop_requested() && r.verify)
		ret = verify_phase_tree(ctx, r.vname);
	if (unlink(r.path) && errno != ENOENT && !ret)
		ret = error_errno("cannot remove '%s'", r.path);
	for (int pass = 0; pass < 2 && r.files.n && !ret; pass++) {
		bool rnd = pass == 1;

		if (!phase_stop_requested())
			ret = test_create(&r, rnd);
		if (!ret && !phase_stop_requested())
			ret = between(&r) ? -1 :
			      test_stat_del(&r, rnd ? BON_RAND_STAT :
					    BON_SEQ_STAT);
		if (!ret && !phase_stop_requested())
			ret = between(&r) ? -1 :
			      test_stat_del(&r, rnd ? BON_RAND_DEL :
					    BON_SEQ_DEL);
		if (phase_stop_requested())
			break;
	}
	cleanup(&r);
	bon_names_free(r.names, r.nr_names);
	free(r.dir_of);
	free(r.buf);
	free(r.own_path ? r.own_path : r.path);
	free(r.peer_path);
	free(r.fdir);
	return ret;
}

/* ---- the report, from the phase records alone ---- */

static enum bon_test test_of(const char *name)
{
	for (int i = 0; i < BON_NR; i++)
		if (!strcmp(bon_phase_names[i], name))
			return (enum bon_test)i;
	return BON_NR;
}

static double metric_or(const struct phase_rec *p, const char *name,
			double def)
{
	const struct metric *m = phase_rec_metric(p, name);

	return m ? m->value : def;
}

/* A rate and its %CP in 9 columns: the %CP gives way to wide rates. */
static void put_cell(FILE *out, const struct bon_cell *c, enum bon_test t)
{
	char a[32], b[16];
	int pad;

	bon_fmt_rate(a, sizeof(a), c, t);
	bon_fmt_cpu(b, sizeof(b), c);
	if (strlen(a) + 1 + 3 <= 9) {
		fprintf(out, " %5s %3s", a, b);
		return;
	}
	pad = 9 - (int)strlen(a) - 1 - (int)strlen(b);
	fprintf(out, " %*s%s %s", pad > 0 ? pad : 0, "", a, b);
}

static void put_lat_line(FILE *out, const char *tag, const double *us,
			 int from, int to)
{
	char t[32];

	fprintf(out, "%-12s", tag);
	for (int i = from; i < to; i++) {
		bon_fmt_latency(t, sizeof(t), us[i]);
		fprintf(out, " %9s", t);
	}
	fputc('\n', out);
}

static void bon_report(FILE *out, const struct run_rec *run,
		       const struct wlrun_rec *wr)
{
	struct bon_row row = { .version = "fslab-" FSLAB_VERSION,
			       .concurrency = 1 };
	double p50[BON_NR], p99[BON_NR], mx[BON_NR];
	struct bon_opts o;
	char err[256], size[32], *csv, pre[64];
	const char *machine;
	bool have_io = false, stdio = false;

	opt_defaults(bon_opt_table, &o);
	if (wr->options)
		(void)opt_parse(bon_opt_table, &o, wr->options, err,
				sizeof(err));
	machine = o.machine && *o.machine ? o.machine :
		  run && run->host ? run->host : "localhost";
	row.machine = machine;
	for (int i = 0; i < BON_NR; i++)
		p50[i] = p99[i] = mx[i] = -1;
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];
		enum bon_test t = test_of(p->name);
		struct bon_cell *c;

		if (t == BON_NR || p->status != PHASE_OK)
			continue;
		c = &row.cell[t];
		c->present = true;
		c->rate = metric_or(p, "rate", 0);
		c->too_fast = metric_or(p, "too_fast",
					bon_too_fast(p->m.wall_ns)) != 0;
		/* bonnie++'s %CP: the process's user+sys CPU over wall */
		c->cpu_pct = p->m.wall_ns ? 100.0 * (double)(p->m.user_ns +
			     p->m.sys_ns) / (double)p->m.wall_ns : 0;
		c->lat_us = mx[t] = metric_or(p, "lat_max_us", -1);
		p50[t] = metric_or(p, "lat_p50_us", -1);
		p99[t] = metric_or(p, "lat_p99_us", -1);
		row.seed = (uint64_t)metric_or(p, "seed", 0);
		if (t < BON_SEQ_CREATE) {
			have_io = true;
			row.size = (uint64_t)metric_or(p, "size_B", 0);
			row.chunk = (uint64_t)metric_or(p, "chunk_B", 0);
			row.seeks = (long long)metric_or(p, "seeks", 0);
			row.seekers = (long long)metric_or(p, "seekers", 0);
			stdio = metric_or(p, "perchar_stdio", 0) != 0;
		} else {
			row.have_files = true;
			row.files.n = (long long)metric_or(p, "files_n", 0);
			row.files.max = (uint64_t)metric_or(p, "files_max_B",
							    0);
			row.files.min = (uint64_t)metric_or(p, "files_min_B",
							    0);
			row.files.dirs = (long long)metric_or(p, "files_dirs",
							      1);
			row.files.chunk = (uint64_t)metric_or(p,
						"files_chunk_B", 0);
		}
	}
	fputc('\n', out);
	if (have_io) {
		int w;

		bon_fmt_size(size, sizeof(size), row.size);
		w = 12 - 1 - (int)strlen(size);
		snprintf(pre, sizeof(pre), "%-*.*s %s", w > 0 ? w : 0,
			 w > 0 ? w : 0, machine, size);
		fprintf(out, "%-12.12s ------Sequential Output------ "
			"--Sequential Input- --Random-\n",
			"fslab " FSLAB_VERSION);
		fprintf(out, "             -Per Chr- --Block-- -Rewrite- "
			"-Per Chr- --Block-- --Seeks--\n");
		fprintf(out, "Machine Size K/sec %%CP K/sec %%CP K/sec %%CP "
			"K/sec %%CP K/sec %%CP  /sec %%CP\n");
		fprintf(out, "%-12s", pre);
		for (int t = 0; t < BON_NR_IO; t++)
			put_cell(out, &row.cell[t], (enum bon_test)t);
		fputc('\n', out);
		put_lat_line(out, "Latency", mx, 0, BON_NR_IO);
		put_lat_line(out, "  p50", p50, 0, BON_NR_IO);
		put_lat_line(out, "  p99", p99, 0, BON_NR_IO);
		if (row.cell[BON_PUTC].present)
			fprintf(out, "Per Chr: %s\n", stdio ?
				"putc/getc over the whole file "
				"(bonnie++ 1.0x)" :
				"one write(2)/read(2) per byte over byte_io "
				"(bonnie++ >= 1.92)");
	}
	if (row.have_files) {
		const struct bon_files *f = &row.files;

		snprintf(pre, sizeof(pre), "%lld", f->n);
		if (f->max || f->min)
			snprintf(pre, sizeof(pre), "%lld:%llu:%llu", f->n,
				 (unsigned long long)f->max,
				 (unsigned long long)f->min);
		if (f->dirs > 1) {
			size_t l = strlen(pre);

			snprintf(pre + l, sizeof(pre) - l, "/%lld", f->dirs);
		}
		fprintf(out, "             ------Sequential Create------ "
			"--------Random Create--------\n");
		fprintf(out, "%-12.12s -Create-- --Read--- -Delete-- "
			"-Create-- --Read--- -Delete--\n", machine);
		fprintf(out, "       files  /sec %%CP  /sec %%CP  /sec %%CP "
			" /sec %%CP  /sec %%CP  /sec %%CP\n");
		fprintf(out, "%12s", pre);
		for (int t = BON_NR_IO; t < BON_NR; t++)
			put_cell(out, &row.cell[t], (enum bon_test)t);
		fputc('\n', out);
		put_lat_line(out, "Latency", mx, BON_NR_IO, BON_NR);
		put_lat_line(out, "  p50", p50, BON_NR_IO, BON_NR);
		put_lat_line(out, "  p99", p99, BON_NR_IO, BON_NR);
	}
	csv = bon_csv_row(&row);
	fprintf(out, "%s\n", csv);
	free(csv);
	opt_release(bon_opt_table, &o);
}

/* bonnie++'s headline figures: block throughput, seeks, creates */
static const char *const bon_key_metrics[] = {
	"block-write/rate", "block-read/rate", "rewrite/rate", "seeks/rate",
	"seq-create/rate", "rand-create/rate", NULL,
};

const struct workload wl_bonnie = {
	.name = "bonnie",
	.summary = "bonnie++: per-char/block write, rewrite, read, random "
		   "seeks and file creation, with bonnie++'s table and CSV",
	.phases = bon_phase_names,
	/* One scratch file and file-test tree per rank, like bonnie++ -p;
	 * the phases depend only on the options, so ranks stay aligned. */
	.flags = WL_MPI_AWARE,
	.opts = bon_opt_table,
	.opts_size = sizeof(struct bon_opts),
	.check = bon_check,
	.run = bon_run_fn,
	.report = bon_report,
	.key_metrics = bon_key_metrics,
	.needs = bon_needs,
};
