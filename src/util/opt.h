/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opt.h - one declarative option table for workload options
 * (`--workload NAME:key=val,...`) and the `key=val` lists of target specs.
 *
 * A table row names the key, its type, where it lives in the option
 * struct (offsetof), its default as a string, bounds and help.  The same
 * table fills defaults, parses user input, and prints `fslab list` help,
 * so the three can never disagree.
 */
#ifndef FSLAB_OPT_H
#define FSLAB_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_BOOL,   /* bool, written yes/no; 1/0 true/false on/off read too */
	OPT_INT,    /* long long within [min, max] */
	OPT_SIZE,   /* uint64_t, bytes, with k/m/g/t suffixes */
	OPT_STRING, /* char *, xstrdup'd; freed by opt_release() */
	OPT_ENUM,   /* int, one of ->values */
	OPT_DOUBLE, /* double within [min, max] */
	OPT_SEED,   /* long long: a seed >= 0, or OPT_SEED_RUN written "run" */
};

/*
 * The one seed rule (README "Conventions"): every workload's `seed`
 * defaults to "run", the run's --seed.  A seed option is OPT_SEED with
 * default "run"; "-1" is read as "run" too (bonnie's and ffsb's old
 * spelling), and a row's ->values may list further old spellings that
 * meant the same (metadata's and distribute's "0").
 */
#define OPT_SEED_RUN (-1LL)
#define OPT_SEED_DEFAULT "run"

/* The seed a workload uses: its option's, or the run's. */
static inline uint64_t opt_seed(long long opt, uint64_t run_seed)
{
	return opt == OPT_SEED_RUN ? run_seed : (uint64_t)opt;
}

struct opt_enum {
	const char *name;
	int value;
	const char *help;
};

struct opt {
	const char *name;
	enum opt_type type;
	size_t off;                    /* offsetof into the option struct */
	const char *def;               /* default, as the user would type it */
	const char *help;
	long long min, max;            /* OPT_INT/OPT_DOUBLE bounds; 0,0 = none */
	const struct opt_enum *values; /* OPT_ENUM: terminated by {NULL};
					* OPT_SEED: old spellings of "run" */
};
#define OPT_END { NULL, 0, 0, NULL, NULL, 0, 0, NULL }

/* A parsed `key=val,key=val` list. */
struct kv {
	char *key;
	char *val; /* "" when the item had no '=' */
	bool has_val;
};
struct kvlist {
	struct kv *v;
	size_t nr, alloc;
};

/*
 * Split s on unescaped commas into key=value items.  A value may be
 * quoted with '...' or "..." (commas inside are literal), and `\,`, `\\`,
 * `\'`, `\"` escape one character.  The first '=' separates key from
 * value.  Returns 0, or -1 with a one-line reason in err.
 */
int kv_parse(const char *s, struct kvlist *out, char *err, size_t errlen);
void kv_release(struct kvlist *l);

/* Fill dst with every row's default.  BUG()s on a bad default. */
void opt_defaults(const struct opt *tab, void *dst);
/* Set one key.  Returns 0, or -1 with the reason in err ("unknown option
 * 'x' (did you mean 'y'?)", "'abc' is not a size for 'size'", ...). */
int opt_set(const struct opt *tab, void *dst, const char *key,
	    const char *val, char *err, size_t errlen);
/* kv_parse + opt_set for every item.  0 or -1 with err. */
int opt_parse(const struct opt *tab, void *dst, const char *s, char *err,
	      size_t errlen);
/* Free OPT_STRING members. */
void opt_release(const struct opt *tab, void *dst);
/* Render dst back into a canonical "k=v,k=v" string (all keys):
 * booleans as yes/no, seeds as "run" or the number. */
char *opt_format(const struct opt *tab, const void *dst);
/*
 * The canonical form of a stored "k=v,..." string: read it over the
 * table's defaults (size bytes of option struct) and format it again,
 * so old spellings (cold=0, byte_io=, seed=-1) and options added since
 * read as today's.  A seed equal to *run_seed (when not NULL) is "run":
 * the same draws, so compilebench's old default seed=555 under the
 * default --seed 555 reads as today's default.  Returns a new string,
 * or NULL when stored does not parse under tab (a key since removed).
 */
char *opt_canonical(const struct opt *tab, size_t size, const char *stored,
		    const uint64_t *run_seed);
/* A boolean as every table reads it: yes/no, 1/0, true/false, on/off
 * (any case), and "" for yes (a bare `key`).  0, or -1 when v is none. */
int opt_parse_bool(const char *v, bool *out);
/* What the help and man page print as a row's default ("run (the
 * run's --seed)" for a seed's "run", "(none)" for an empty default). */
const char *opt_default_text(const struct opt *o);
/* Print one line per option: name, type, default, help, enum values. */
void opt_help(FILE *out, const struct opt *tab, const char *indent);
/* Closest name in tab to key by edit distance, or NULL if none is close. */
const char *opt_suggest(const struct opt *tab, const char *key);

#endif
