/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * params.c - bonnie's pure helpers: RAM, sizes, the -n file spec, option
 * checks, seek tickets, file names (declared in bonnie.h,
 * unit-tested).
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
#include "workloads/registry.h"

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

/* RAM for the size rule: "auto" is sysram.  0 or -1 with err. */
static int bon_parse_ram(const char *s, uint64_t sysram, uint64_t *ram,
			 char *err, size_t errlen)
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
		snprintf(err, errlen, "byte-io must be between 1 and the "
			 "size, not %llu", (unsigned long long)o->byte_io);
		return -1;
	}
	if (o->seeks < 1 || o->seekers < 1) {
		snprintf(err, errlen, "seeks and seekers must be positive");
		return -1;
	}
	return 0;
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

int bon_perchar_of(const struct bon_opts *o)
{
	if (o->perchar != BON_PERCHAR_AUTO)
		return o->perchar;
	return o->format == BON_FMT_103 ? BON_PERCHAR_STDIO :
					  BON_PERCHAR_SYSCALL;
}
