/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmdopt.h - one option table per command (git's parse-options, fio's
 * option table): the parser, `--help`, "did you mean" for a misspelt
 * long option, the man pages and the shell completion are all generated
 * from it, so they cannot drift apart.
 *
 * A row names the option (short letter and/or long name), its kind, where
 * its value lives in the command's argument struct (offsetof, checked
 * against the field's type at compile time by the macros below), the
 * argument's placeholder and one help sentence.  Help is unwrapped prose;
 * `--help` wraps it and the man generator hands it to roff.  Options
 * used by several commands (--db, --format, the compare/report filter)
 * are tables of their own, included with CMDOPT_INCLUDE at the offset of
 * a struct embedded in the command's argument struct.
 *
 * A row may name its default (.def), shown in --help and the man page as
 * "(default: X)"; the command still sets the field itself before parsing.
 *
 * The parser never exits: -h/--help prints the help and returns
 * CMDOPT_HELP; a usage error prints one line, git's way,
 * "error: reason; see 'fslab CMD --help'", and returns CMDOPT_ERROR.
 * cmdopt_exit() maps both to the command's exit code (0, EXIT_USAGE).
 *
 * Not to be confused with util/opt.h: that is the `key=val,...` table of
 * workload options and target specs.
 */
#ifndef FSLAB_CMDOPT_H
#define FSLAB_CMDOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

enum cmdopt_type {
	CMDOPT_END = 0,
	CMDOPT_GROUP,    /* a heading in --help and the man page */
	CMDOPT_INCLUDE,  /* .sub: a shared table, offsets relative to .off */
	CMDOPT_FLAG,     /* bool, set to true; no argument */
	CMDOPT_STRING,   /* const char *, points into argv; last one wins */
	CMDOPT_INT,      /* long long within [min, max] */
	CMDOPT_DOUBLE,   /* double within [dmin, dmax] (see the flags),
			  * stored times .scale when that is not 0 */
	CMDOPT_CHOICE,   /* const char *, one of .choices ("a|b|c") */
	CMDOPT_CALLBACK, /* .cb(field, arg, err): repeatable, custom checks */
	CMDOPT_U64,      /* uint64_t, a non-negative whole number */
	CMDOPT_SIZE,     /* uint64_t, bytes: 512, 4k, 64M, 1G, 2T (binary) */
	CMDOPT_ENUM,     /* int-sized: .values[i] (or i) for the i-th of
			  * .choices; a name whose value an earlier one has
			  * is an old alias, accepted and not shown */
	CMDOPT_ARGS,     /* .args_cb(the whole argument struct, arg, err) */
};

enum cmdopt_flags {
	CMDOPT_OPTARG = 1 << 0, /* argument optional, only as --name=VAL */
	CMDOPT_HIDDEN = 1 << 1, /* parsed, not shown in help/man/completion */
	CMDOPT_NEGATE = 1 << 2, /* CMDOPT_FLAG: set the bool to false */
	CMDOPT_ABOVE_MIN = 1 << 3, /* CMDOPT_DOUBLE: > dmin, not >= */
	CMDOPT_BELOW_MAX = 1 << 4, /* CMDOPT_DOUBLE: < dmax, not <= */
	CMDOPT_PERCENT = 1 << 5,   /* CMDOPT_DOUBLE: may end in '%' */
};

enum cmdopt_cmd_flags {
	/* Options end at the first positional argument (the rest is a
	 * command line of its own, as for `fslab trace -- CMD`). */
	CMDOPT_STOP_AT_ARG = 1 << 0,
};

/* What a positional argument or an option's value completes to. */
enum cmdopt_complete {
	CMDOPT_C_DEFAULT = 0, /* guessed from the placeholder */
	CMDOPT_C_NONE,
	CMDOPT_C_FILE,
	CMDOPT_C_DIR,
	CMDOPT_C_RUN,      /* run ids and tags of the store */
	CMDOPT_C_TARGET,   /* target SPEC types */
	CMDOPT_C_WORKLOAD, /* workload names, then their key= options */
	CMDOPT_C_COMMAND,  /* a command line */
};

struct cmdopt;

/*
 * Called with the address of the option's field and the argument (NULL
 * for a missing optional argument or a flag).  Returns 0, or -1 with a
 * one-line reason in err.
 */
typedef int (*cmdopt_cb)(const struct cmdopt *o, void *field,
			 const char *arg, char *err, size_t errlen);
/*
 * The same for an option that fills several fields (--target appends to
 * the target list and its allocation count): called with the whole
 * argument struct of the row's table, whatever the order of its members.
 */
typedef int (*cmdopt_args_cb)(const struct cmdopt *o, void *args,
			      const char *arg, char *err, size_t errlen);

struct cmdopt {
	enum cmdopt_type type;
	int short_name;          /* 0: none */
	const char *long_name;   /* NULL: none */
	size_t off;              /* offsetof into the argument struct */
	const char *argh;        /* placeholder ("PATH"); NULL: no argument */
	const char *help;        /* one unwrapped sentence or more */
	unsigned flags;          /* enum cmdopt_flags */
	long long min, max;      /* CMDOPT_INT bounds */
	double dmin, dmax;       /* CMDOPT_DOUBLE bounds */
	double scale;            /* CMDOPT_DOUBLE: stored = given * scale */
	const char *choices;     /* CMDOPT_CHOICE/ENUM: "text|json|csv" */
	const int *values;       /* CMDOPT_ENUM: one per choice; NULL: index */
	const char *def;         /* the default, for help and man; or NULL */
	cmdopt_cb cb;            /* CMDOPT_CALLBACK */
	cmdopt_args_cb args_cb;  /* CMDOPT_ARGS */
	const struct cmdopt *sub; /* CMDOPT_INCLUDE */
	enum cmdopt_complete complete;
};

/* A command: its table plus the text around it. */
struct cmdopt_cmd {
	const char *name;     /* "run"; "" for fslab itself */
	const char *summary;  /* one line, for `fslab help` and NAME in man */
	const char *usage;    /* synopsis after "fslab NAME ", '\n' between lines */
	const char *desc;     /* paragraphs, unwrapped, "\n\n" between them */
	const struct cmdopt *opts;
	void (*more_help)(FILE *out); /* after the options (fslab's commands) */
	const char *footer;   /* a last paragraph (exit codes, notes) or NULL */
	unsigned flags;       /* enum cmdopt_cmd_flags */
	enum cmdopt_complete args; /* what positional arguments are */
	const char *const *subcommands; /* fixed first words ("capture"), or NULL */
};

/*
 * The field of struct T named f, checked to be of type `type` (a
 * mismatch is a compile error, as git's BARF_UNLESS_* macros).
 */
#define CMDOPT_FIELD(T, f, type)                                           \
	(offsetof(T, f) + 0 * sizeof(_Generic(((T *)0)->f, type: 1)))

#define CMDOPT_BOOL(s, l, T, f, h)                                         \
	{ .type = CMDOPT_FLAG, .short_name = (s), .long_name = (l),        \
	  .off = CMDOPT_FIELD(T, f, bool), .help = (h) }
/* --no-X for a bool that defaults to true; the last of a pair wins. */
#define CMDOPT_CLEAR(s, l, T, f, h)                                        \
	{ .type = CMDOPT_FLAG, .short_name = (s), .long_name = (l),        \
	  .off = CMDOPT_FIELD(T, f, bool), .help = (h),                    \
	  .flags = CMDOPT_NEGATE }
/* An alias kept for old scripts: parsed, never shown. */
#define CMDOPT_HIDDEN_BOOL(s, l, T, f)                                     \
	{ .type = CMDOPT_FLAG, .short_name = (s), .long_name = (l),        \
	  .off = CMDOPT_FIELD(T, f, bool), .help = "", .flags = CMDOPT_HIDDEN }
#define CMDOPT_STR(s, l, T, f, a, h)                                       \
	{ .type = CMDOPT_STRING, .short_name = (s), .long_name = (l),      \
	  .off = CMDOPT_FIELD(T, f, const char *), .argh = (a), .help = (h) }
#define CMDOPT_STR_C(s, l, T, f, a, c, h)                                  \
	{ .type = CMDOPT_STRING, .short_name = (s), .long_name = (l),      \
	  .off = CMDOPT_FIELD(T, f, const char *), .argh = (a), .help = (h), \
	  .complete = (c) }
#define CMDOPT_INTEGER(s, l, T, f, a, lo, hi, h)                           \
	{ .type = CMDOPT_INT, .short_name = (s), .long_name = (l),         \
	  .off = CMDOPT_FIELD(T, f, long long), .argh = (a), .help = (h),  \
	  .min = (lo), .max = (hi) }
/* A double in [lo, hi] (hi may be HUGE_VAL); d: the default or NULL. */
#define CMDOPT_DBL(s, l, T, f, a, lo, hi, d, h)                            \
	{ .type = CMDOPT_DOUBLE, .short_name = (s), .long_name = (l),      \
	  .off = CMDOPT_FIELD(T, f, double), .argh = (a), .help = (h),     \
	  .dmin = (lo), .dmax = (hi), .def = (d) }
/* The same in (lo, hi): both bounds excluded. */
#define CMDOPT_DBL_OPEN(s, l, T, f, a, lo, hi, d, h)                       \
	{ .type = CMDOPT_DOUBLE, .short_name = (s), .long_name = (l),      \
	  .off = CMDOPT_FIELD(T, f, double), .argh = (a), .help = (h),     \
	  .dmin = (lo), .dmax = (hi), .def = (d),                          \
	  .flags = CMDOPT_ABOVE_MIN | CMDOPT_BELOW_MAX }
/* A percentage in (lo, hi], written with or without '%' ("5", "5%"). */
#define CMDOPT_PCT(s, l, T, f, a, lo, hi, d, h)                            \
	{ .type = CMDOPT_DOUBLE, .short_name = (s), .long_name = (l),      \
	  .off = CMDOPT_FIELD(T, f, double), .argh = (a), .help = (h),     \
	  .dmin = (lo), .dmax = (hi), .def = (d),                          \
	  .flags = CMDOPT_ABOVE_MIN | CMDOPT_PERCENT }
/* A double in [lo, hi] given in one unit, stored times sc ("MS" into
 * seconds: 1e-3). */
#define CMDOPT_DBL_SCALED(s, l, T, f, a, lo, hi, sc, d, h)                 \
	{ .type = CMDOPT_DOUBLE, .short_name = (s), .long_name = (l),      \
	  .off = CMDOPT_FIELD(T, f, double), .argh = (a), .help = (h),     \
	  .dmin = (lo), .dmax = (hi), .scale = (sc), .def = (d) }
#define CMDOPT_UINT64(s, l, T, f, a, d, h)                                 \
	{ .type = CMDOPT_U64, .short_name = (s), .long_name = (l),         \
	  .off = CMDOPT_FIELD(T, f, uint64_t), .argh = (a), .help = (h),   \
	  .def = (d) }
#define CMDOPT_BYTES(s, l, T, f, a, d, h)                                  \
	{ .type = CMDOPT_SIZE, .short_name = (s), .long_name = (l),        \
	  .off = CMDOPT_FIELD(T, f, uint64_t), .argh = (a), .help = (h),   \
	  .def = (d) }
/* The field is an enum (any int-sized type); vals: NULL or one int per
 * choice. */
#define CMDOPT_ENUMERATE(s, l, T, f, a, c, vals, d, h)                     \
	{ .type = CMDOPT_ENUM, .short_name = (s), .long_name = (l),        \
	  .off = offsetof(T, f) + 0 * sizeof(char[                         \
		 sizeof(((T *)0)->f) == sizeof(int) ? 1 : -1]),            \
	  .argh = (a), .help = (h), .choices = (c), .values = (vals),      \
	  .def = (d) }
#define CMDOPT_CHOOSE(s, l, T, f, a, c, h)                                 \
	{ .type = CMDOPT_CHOICE, .short_name = (s), .long_name = (l),      \
	  .off = CMDOPT_FIELD(T, f, const char *), .argh = (a), .help = (h), \
	  .choices = (c) }
/* The field's type is the callback's business. */
#define CMDOPT_CB(s, l, T, f, a, fn, h)                                    \
	{ .type = CMDOPT_CALLBACK, .short_name = (s), .long_name = (l),    \
	  .off = offsetof(T, f), .argh = (a), .help = (h), .cb = (fn) }
#define CMDOPT_CB_OPTARG(s, l, T, f, a, fn, h)                             \
	{ .type = CMDOPT_CALLBACK, .short_name = (s), .long_name = (l),    \
	  .off = offsetof(T, f), .argh = (a), .help = (h), .cb = (fn),     \
	  .flags = CMDOPT_OPTARG }
/* A callback given the whole argument struct of the table, not a field. */
#define CMDOPT_ARGS_CB(s, l, a, fn, h)                                     \
	{ .type = CMDOPT_ARGS, .short_name = (s), .long_name = (l),        \
	  .argh = (a), .help = (h), .args_cb = (fn) }
#define CMDOPT_ARGS_CB_C(s, l, a, fn, c, h)                                \
	{ .type = CMDOPT_ARGS, .short_name = (s), .long_name = (l),        \
	  .argh = (a), .help = (h), .args_cb = (fn), .complete = (c) }
#define CMDOPT_ARGS_CB_OPTARG(s, l, a, fn, h)                              \
	{ .type = CMDOPT_ARGS, .short_name = (s), .long_name = (l),        \
	  .argh = (a), .help = (h), .args_cb = (fn), .flags = CMDOPT_OPTARG }
#define CMDOPT_HEADING(h) { .type = CMDOPT_GROUP, .help = (h) }
/* Include shared table `tab` for the struct embedded as field f of T. */
#define CMDOPT_INCLUDE_AT(T, f, tab)                                       \
	{ .type = CMDOPT_INCLUDE, .off = offsetof(T, f), .sub = (tab) }
#define CMDOPT_TABLE_END { .type = CMDOPT_END }

/* ---- shared option groups ---- */

/* --db PATH */
struct cmdopt_store {
	const char *db;
};
extern const struct cmdopt cmdopt_store_opts[];

/* --format text|json|csv; set .format = "text" before parsing. */
struct cmdopt_format {
	const char *format;
};
extern const struct cmdopt cmdopt_format_opts[];

/* ---- parsing ---- */

enum {
	CMDOPT_HELP = -1,  /* -h/--help was given and the help printed */
	CMDOPT_ERROR = -2, /* a usage error, printed */
};

/*
 * Parse argv[1..argc-1] (argv[0] is the command name) against cmd's
 * table into dst.  Options and positional arguments may mix (unless
 * CMDOPT_STOP_AT_ARG); "--" ends the options; an unambiguous prefix of
 * a long name is accepted, as getopt_long does.  Like getopt_long, argv
 * is permuted so that the positional arguments come last, in their
 * order, and the index of the first one is returned (argc when there is
 * none), or CMDOPT_HELP / CMDOPT_ERROR.
 */
int cmdopt_parse(const struct cmdopt_cmd *cmd, int argc, char **argv,
		 void *dst);

/* The exit code for a negative cmdopt_parse() result. */
static inline int cmdopt_exit(int rc)
{
	return rc == CMDOPT_HELP ? EXIT_OK : EXIT_USAGE;
}

/*
 * Print "error: <message>; see 'fslab CMD --help'" to stderr and return
 * EXIT_USAGE: the one form of every usage error, the parser's and the
 * command's own checks after it.
 */
int cmdopt_usage_error(const struct cmdopt_cmd *cmd, const char *fmt, ...)
	PRINTF(2, 3);

/* Print cmd's --help: usage, description, options, footer. */
void cmdopt_help(FILE *out, const struct cmdopt_cmd *cmd);

/*
 * Walk every option row of a table (groups and includes flattened;
 * hidden rows too).  fn gets the row; a non-zero return stops the walk
 * and is returned.
 */
int cmdopt_for_each(const struct cmdopt *tab,
		    int (*fn)(const struct cmdopt *o, void *data), void *data);

/* What an option's value completes to (its .complete or a guess). */
enum cmdopt_complete cmdopt_completion(const struct cmdopt *o);

/* "-t, --target SPEC", "--trace[=PHASE,...]": the left column of help. */
char *cmdopt_signature(const struct cmdopt *o);

/* o's help sentence with "(default: X)" when it names one; free it. */
char *cmdopt_help_text(const struct cmdopt *o);
/* Does o pick its value from o->choices (CMDOPT_CHOICE, CMDOPT_ENUM)? */
bool cmdopt_has_choices(const struct cmdopt *o);
/* Is the i-th of an enum's choices an old alias (not to be shown)? */
bool cmdopt_choice_hidden(const struct cmdopt *o, size_t i);

/* Closest long name to `name` (without dashes), or NULL. */
const char *cmdopt_suggest(const struct cmdopt *tab, const char *name);

#endif
