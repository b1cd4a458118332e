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
	OPT_BOOL,   /* bool; accepts 1/0 yes/no true/false on/off */
	OPT_INT,    /* long long within [min, max] */
	OPT_SIZE,   /* uint64_t, bytes, with k/m/g/t suffixes */
	OPT_STRING, /* char *, xstrdup'd; freed by opt_release() */
	OPT_ENUM,   /* int, one of ->values */
	OPT_DOUBLE, /* double within [min, max] */
};

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
	const struct opt_enum *values; /* OPT_ENUM: terminated by {NULL} */
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
/* Render dst back into a canonical "k=v,k=v" string (all keys). */
char *opt_format(const struct opt *tab, const void *dst);
/* Print one line per option: name, type, default, help, enum values. */
void opt_help(FILE *out, const struct opt *tab, const char *indent);
/* Closest name in tab to key by edit distance, or NULL if none is close. */
const char *opt_suggest(const struct opt *tab, const char *key);
/* Levenshtein distance, for "did you mean" everywhere. */
size_t str_distance(const char *a, const char *b);

#endif
