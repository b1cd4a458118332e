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

/* ---- options ---- */

static const struct opt_enum perchar_values[] = {
	{ "write", BON_PERCHAR_SYSCALL, "one write(2)/read(2) per byte over "
	  "byte-io (bonnie++ >= 1.92)" },
	{ "stdio", BON_PERCHAR_STDIO, "putc/getc over the whole file "
	  "(bonnie++ 1.0x)" },
	{ "none", BON_PERCHAR_NONE, "skip the per-char tests (bonnie++ -f)" },
	{ "auto", BON_PERCHAR_AUTO, "the format's: stdio for 1.03, write "
	  "for 2.00a" },
	{ NULL, 0, NULL },
};

static const struct opt_enum format_values[] = {
	{ "2.00a", BON_FMT_200A, "bonnie++ 2.00a: bon_csv2txt's table, CSV "
	  "format 1.98 with latencies" },
	{ "1.03", BON_FMT_103, "bonnie++ 1.03: its K/sec table and CSV, "
	  "per-char by putc/getc" },
	{ NULL, 0, NULL },
};

#define OFF(f) offsetof(struct bon_opts, f)
const struct opt bon_opt_table[] = {
	{ "size", OPT_SIZE, OFF(size), "0",
	  "scratch file size (0: max(300M, 2 x ram), as bonnie++)",
	  0, 0, NULL },
	{ "chunk", OPT_SIZE, OFF(chunk), "8k",
	  "block I/O size, a power of two from 256 to 1M", 0, 0, NULL },
	{ "ram", OPT_STRING, OFF(ram), "auto",
	  "RAM the size must be twice of (auto: this machine; 0: no check)",
	  0, 0, NULL },
	{ "byte-io", OPT_SIZE, OFF(byte_io), "3M",
	  "bytes the per-char tests move with perchar=write", 0, 0, NULL },
	{ "perchar", OPT_ENUM, OFF(perchar), "auto",
	  "meaning of the per-char tests", 0, 0, perchar_values },
	{ "seeks", OPT_INT, OFF(seeks), "8192", "random seeks in total",
	  1, 100000000, NULL },
	{ "seekers", OPT_INT, OFF(seekers), "5",
	  "threads sharing the seeks, one fd each", 1, 1000, NULL },
	{ "files", OPT_STRING, OFF(files), "16",
	  "file tests N[:max[:min[:dirs[:chunk]]]], N x 1024 files "
	  "(0: none)", 0, 0, NULL },
	{ "direct", OPT_BOOL, OFF(direct), "no",
	  "O_DIRECT for the block, rewrite and seek tests", 0, 0, NULL },
	{ "cold", OPT_BOOL, OFF(cold), "no",
	  "drop caches between tests (bonnie++ never does)", 0, 0, NULL },
	{ "machine", OPT_STRING, OFF(machine), "",
	  "row name in the table and CSV (empty: the target's name)",
	  0, 0, NULL },
	{ "format", OPT_ENUM, OFF(format), "2.00a",
	  "bonnie++ version whose table and CSV are printed", 0, 0,
	  format_values },
	{ "seed", OPT_SEED, OFF(seed), OPT_SEED_DEFAULT,
	  "seed for seeks, names and sizes", 0, 0, NULL },
	{ "reorder", OPT_INT, OFF(reorder), "0",
	  "MPI cache defeat (IOR -C): getc and block read read the file "
	  "of rank r+K (mod ranks)", 0, 1000000, NULL },
	OPT_END,
};

const char *const bon_phase_names[] = {
	"putc", "block-write", "rewrite", "getc", "block-read", "seeks",
	"seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat",
	"rand-delete", NULL,
};

static int bon_check(const void *vopts, char *err, size_t errlen)
{
	return bon_check_opts(vopts, bon_system_ram(), err, errlen);
}

/* ---- the run ---- */

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
	if (bon_remove_dirs(r))
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
	r.seed = opt_seed(o->seed, ctx->seed);
	r.stdio = bon_perchar_of(o) == BON_PERCHAR_STDIO;
	r.path = xasprintf("%s/Bonnie.%d", ctx->dir, (int)getpid());
	r.verify = ctx->verify;
	r.vname = r.path + strlen(ctx->dir) + 1;
	r.vid = verify_file_id(r.vname);
	r.fdir = xasprintf("%s/Bonnie.%d.d", ctx->dir, (int)getpid());
	bon_setup_reorder(&r);
	r.buf = aligned_alloc(DIRECT_ALIGN, (size_t)o->chunk);
	if (!r.buf)
		BUG("out of memory");
	for (size_t i = 0; i < o->chunk; i++)
		r.buf[i] = (char)('a' + i % 26);
	fprintf(ctx->progress, "bonnie: file %s, %lluM, chunk %llu, per-char "
		"%s%s\n", r.path, (unsigned long long)(r.size / MIB),
		(unsigned long long)o->chunk,
		perchar_values[bon_perchar_of(o)].name,
		o->direct ? ", O_DIRECT" : "");
	if (o->perchar != BON_PERCHAR_NONE)
		ret = bon_test_putc(&r);
	if (!ret && !phase_stop_requested())
		ret = bon_between(&r) ? -1 : bon_test_block_write(&r);
	if (!ret && !phase_stop_requested())
		ret = bon_between(&r) ? -1 : bon_test_rewrite(&r);
	if (!ret && !phase_stop_requested() &&
	    o->perchar != BON_PERCHAR_NONE) {
		bon_read_peer(&r, true);
		ret = bon_between(&r) ? -1 : bon_test_getc(&r);
		bon_read_peer(&r, false);
	}
	if (!ret && !phase_stop_requested()) {
		bon_read_peer(&r, true);
		ret = bon_between(&r) ? -1 : bon_test_block_read(&r);
		bon_read_peer(&r, false);
	}
	if (!ret && !phase_stop_requested())
		ret = bon_between(&r) ? -1 : bon_test_seeks(&r);
	/* --verify: the whole file once more, from the disk, at the end */
	if (!ret && !phase_stop_requested() && r.verify)
		ret = verify_phase_tree(ctx, r.vname);
	if (unlink(r.path) && errno != ENOENT && !ret)
		ret = error_errno("cannot remove '%s'", r.path);
	for (int pass = 0; pass < 2 && r.files.n && !ret; pass++) {
		bool rnd = pass == 1;

		if (!phase_stop_requested())
			ret = bon_test_create(&r, rnd);
		if (!ret && !phase_stop_requested())
			ret = bon_between(&r) ? -1 :
			      bon_test_stat_del(&r, rnd ? BON_RAND_STAT :
					    BON_SEQ_STAT);
		if (!ret && !phase_stop_requested())
			ret = bon_between(&r) ? -1 :
			      bon_test_stat_del(&r, rnd ? BON_RAND_DEL :
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
		snprintf(n->inodes_what, sizeof(n->inodes_what), "bonnie's "
			 "file tests (%llu files)", (unsigned long long)nr);
		if (nr * f.max > n->bytes) {
			n->bytes = nr * f.max;
			snprintf(n->what, sizeof(n->what), "bonnie's file "
				 "tests (%llu files of up to %s)",
				 (unsigned long long)nr,
				 fmt_size(sz, sizeof(sz), f.max));
		}
	}
}

/* bonnie++'s headline figures: block throughput, seeks, creates */
static const char *const bon_key_metrics[] = {
	"block-write/rate_KiB/s", "block-read/rate_KiB/s",
	"rewrite/rate_KiB/s", "seeks/rate_seeks/s", "seq-create/rate_files/s",
	"rand-create/rate_files/s", NULL,
};

const struct workload wl_bonnie = {
	.name = "bonnie",
	.summary = "bonnie++: per-char/block write, rewrite, read, random "
		   "seeks and file creation, with bonnie++'s table and CSV",
	.phases = bon_phase_names,
	/* One scratch file and file-test tree per rank, like bonnie++ -p;
	 * the phases depend only on the options, so ranks stay aligned. */
	.flags = WL_MPI_AWARE | WL_VERIFY,
	.opts = bon_opt_table,
	.opts_size = sizeof(struct bon_opts),
	.check = bon_check,
	.run = bon_run_fn,
	.report = bon_report,
	.report_run = bon_report_table,
	.report_compare = bon_report_table,
	.key_metrics = bon_key_metrics,
	.needs = bon_needs,
};
