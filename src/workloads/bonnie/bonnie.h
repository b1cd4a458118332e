/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bonnie.h - the pure parts of the bonnie workload (bonnie.c): option
 * checks, the `+++++` rule, number formatting, the bonnie++ 2.00a CSV
 * row and the random-seek tickets.  They touch no disk, so
 * tests/unit/test_bonnie.c can pin them down exactly.
 */
#ifndef FSLAB_BONNIE_H
#define FSLAB_BONNIE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The twelve tests, in bonnie++'s CSV order. */
enum bon_test {
	BON_PUTC, BON_WRITE, BON_REWRITE, BON_GETC, BON_READ, BON_SEEKS,
	BON_SEQ_CREATE, BON_SEQ_STAT, BON_SEQ_DEL,
	BON_RAND_CREATE, BON_RAND_STAT, BON_RAND_DEL,
	BON_NR,
};
#define BON_NR_IO BON_SEQ_CREATE

enum bon_perchar {
	BON_PERCHAR_SYSCALL, /* one write(2)/read(2) per byte (>= 1.92) */
	BON_PERCHAR_STDIO,   /* putc/getc over the whole file (1.0x) */
	BON_PERCHAR_NONE,    /* skip the per-char tests (bonnie++ -f) */
	BON_PERCHAR_AUTO,    /* the format's own: stdio for 1.03, else write */
};

/* The bonnie++ whose table and CSV the report prints. */
enum bon_format { BON_FMT_200A, BON_FMT_103 };

struct bon_opts {
	uint64_t size;      /* 0: max(300 MiB, 2 x RAM) */
	uint64_t chunk;
	char *ram;          /* "auto", or a size; "0" disables the check */
	uint64_t byte_io;
	int perchar;        /* enum bon_perchar */
	long long seeks;
	long long seekers;
	char *files;        /* N[:max[:min[:dirs[:chunk]]]], "0": none */
	bool direct;
	bool cold;
	char *machine;      /* "": the host name */
	long long seed;     /* -1: from the run seed */
	long long reorder;  /* MPI: getc and block read read rank r+K's file */
	int format;         /* enum bon_format */
};

/* The per-char meaning a run uses: perchar, with auto resolved. */
int bon_perchar_of(const struct bon_opts *o);

struct bon_files {
	long long n;        /* in units of 1024 files */
	uint64_t max, min;  /* file sizes, bytes */
	long long dirs;
	uint64_t chunk;
};

/* Shortest phase bonnie++ reports a figure for (its MinTime). */
#define BON_MIN_NS 500000000ULL

/* "N[:max[:min[:dirs[:chunk]]]]".  0 or -1 with err. */
int bon_parse_files(const char *s, struct bon_files *f, char *err,
		    size_t errlen);
/* bonnie++'s default size: max(300 MiB, 2 x ram), rounded to 1 MiB. */
uint64_t bon_default_size(uint64_t ram);
/* Cross-check the options against a machine with sysram bytes. */
int bon_check_opts(const struct bon_opts *o, uint64_t sysram, char *err,
		   size_t errlen);
/* The size the run uses (resolves size=0). */
uint64_t bon_effective_size(const struct bon_opts *o, uint64_t sysram);
/* The machine's RAM in bytes (sysinfo). */
uint64_t bon_system_ram(void);

/* bonnie++ prints +++++ for a phase shorter than 0.5 s. */
bool bon_too_fast(uint64_t wall_ns);
/* The name of test t's bonnie++ rate: "rate_KiB/s" for the I/O tests,
 * "rate_seeks/s" for seeks, "rate_files/s" for the file tests. */
const char *bon_rate_metric(enum bon_test t);

/* One cell of the result table. */
struct bon_cell {
	bool present;       /* the test ran */
	bool too_fast;
	double rate;        /* K/sec, seeks/sec or files/sec */
	double cpu_pct;
	double lat_us;      /* maximum per-op time; < 0 unknown */
};

struct bon_row {
	const char *version;
	const char *machine;
	int concurrency;
	uint64_t seed;
	uint64_t size;      /* bytes; 0 when the I/O tests did not run */
	uint64_t chunk;
	long long seeks, seekers;
	bool have_files;
	struct bon_files files;
	struct bon_cell cell[BON_NR];
};

/* "+++++", "51501" (K/sec, files/sec) or "271.1"/"1198" (seeks). */
void bon_fmt_rate(char *buf, size_t len, const struct bon_cell *c,
		  enum bon_test t);
/* "+++" or the integer %CP; "" when absent. */
void bon_fmt_cpu(char *buf, size_t len, const struct bon_cell *c);
/* bonnie++'s latency: "118us", "4567ms", "12s"; "" when unknown. */
void bon_fmt_latency(char *buf, size_t len, double us);
/* bonnie++'s size: "16G" when a whole GiB, else "300M". */
void bon_fmt_size(char *buf, size_t len, uint64_t bytes);
/* The CSV row in bonnie++ 2.00a's layout (format 1.98), no newline. */
char *bon_csv_row(const struct bon_row *r);
/* The CSV row in bonnie++ 1.03's layout (no format field), no newline. */
char *bon_csv_row_103(const struct bon_row *r);

/*
 * The tables of several CSV rows together: bon_csv2txt(1) 2.00a's for
 * 1.98 rows (byte for byte what `bon_csv2txt` prints for them; other
 * rows are skipped), and bonnie++ 1.03's layout for 1.03 rows (one row
 * per line, labelled with the row's name).
 */
void bon_csv2txt(FILE *out, const char *const *rows, size_t nr);
void bon_table_103(FILE *out, const char *const *rows, size_t nr);
/* bon_csv2txt's K/sec cell ("1128k", "51.2m"); a non-number is 0. */
void bon_conv_speed(char *buf, size_t len, const char *field);

/* One random seek: which chunk, and whether it is rewritten. */
struct bon_ticket {
	uint64_t block;
	bool update;
};
/* n tickets over nblocks chunks, about 1 in 10 updates, from seed. */
void bon_seek_tickets(uint64_t seed, uint64_t nblocks, size_t n,
		      struct bon_ticket *out);

/*
 * The file names of a file-creation test, built like bonnie++'s
 * make_names(): "%07d" then 0..12 random characters (sequential), or
 * the characters first (random), under "%05d/" when dirs > 1.
 * Returns n xmalloc'd strings; *dir_of (may be NULL) gets each one's
 * directory index.  Free with bon_names_free().
 */
char **bon_make_names(uint64_t seed, long long n, long long dirs,
		      bool random, int **dir_of);
void bon_names_free(char **names, long long n);

#endif
