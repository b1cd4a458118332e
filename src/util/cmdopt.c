/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmdopt.c - command option tables: the parser, --help and "did you
 * mean" (see cmdopt.h).  A hand-written scanner rather than getopt_long:
 * getopt keeps global state (optind, reset to 0 or 1 depending on who
 * wrote the command), prints its own messages unless told not to, and
 * cannot tell an unknown long option from a misspelt one.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/cmdopt.h"
#include "util/opt.h"
#include "util/suggest.h"

#define HELP_WIDTH 79

/* ---- shared groups ---- */

const struct cmdopt cmdopt_store_opts[] = {
	CMDOPT_STR_C(0, "db", struct cmdopt_store, db, "PATH", CMDOPT_C_FILE,
		     "results database (default: "
		     "$XDG_DATA_HOME/fslab/results.db)"),
	CMDOPT_TABLE_END,
};

const struct cmdopt cmdopt_format_opts[] = {
	CMDOPT_CHOOSE(0, "format", struct cmdopt_format, format, "FORMAT",
		      "text|json|csv",
		      "output format: text (the default), json or csv"),
	CMDOPT_TABLE_END,
};

/* ---- lookup ---- */

struct found {
	const struct cmdopt *o;
	size_t base;   /* offset of the row's table in the argument struct */
	int nr;        /* prefix matches (long names) */
	const struct cmdopt *other; /* a second prefix match, for the message */
};

static bool takes_arg(const struct cmdopt *o)
{
	return o->argh != NULL;
}

static void find_long(const struct cmdopt *tab, size_t base,
		      const char *name, size_t len, bool exact,
		      struct found *f)
{
	for (const struct cmdopt *o = tab; o && o->type != CMDOPT_END; o++) {
		if (o->type == CMDOPT_INCLUDE) {
			find_long(o->sub, base + o->off, name, len, exact, f);
			continue;
		}
		if (o->type == CMDOPT_GROUP || !o->long_name ||
		    strncmp(o->long_name, name, len))
			continue;
		if (exact && o->long_name[len])
			continue;
		if (!f->nr) {
			f->o = o;
			f->base = base + o->off;
		} else {
			f->other = o;
		}
		f->nr++;
	}
}

static bool find_short(const struct cmdopt *tab, size_t base, int c,
		       struct found *f)
{
	for (const struct cmdopt *o = tab; o && o->type != CMDOPT_END; o++) {
		if (o->type == CMDOPT_INCLUDE) {
			if (find_short(o->sub, base + o->off, c, f))
				return true;
			continue;
		}
		if (o->type != CMDOPT_GROUP && o->short_name == c) {
			f->o = o;
			f->base = base + o->off;
			return true;
		}
	}
	return false;
}

static void suggest_walk(const struct cmdopt *tab, struct suggest *sg)
{
	for (const struct cmdopt *o = tab; o && o->type != CMDOPT_END; o++) {
		if (o->type == CMDOPT_INCLUDE)
			suggest_walk(o->sub, sg);
		else if (o->long_name && !(o->flags & CMDOPT_HIDDEN))
			suggest_add(sg, o->long_name);
	}
}

const char *cmdopt_suggest(const struct cmdopt *tab, const char *name)
{
	struct suggest sg;

	suggest_init(&sg, name);
	suggest_walk(tab, &sg);
	return suggest_result(&sg);
}

int cmdopt_for_each(const struct cmdopt *tab,
		    int (*fn)(const struct cmdopt *o, void *data), void *data)
{
	for (const struct cmdopt *o = tab; o && o->type != CMDOPT_END; o++) {
		int rc;

		if (o->type == CMDOPT_INCLUDE)
			rc = cmdopt_for_each(o->sub, fn, data);
		else
			rc = fn(o, data);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- errors ---- */

/* git's "error: " and a pointer to the help, on one line. */
static void vusage(const struct cmdopt_cmd *cmd, const char *fmt, va_list ap)
{
	const char *sp = *cmd->name ? " " : "";

	fflush(stdout);
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "; see 'fslab%s%s --help'\n", sp, cmd->name);
}

int cmdopt_usage_error(const struct cmdopt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage(cmd, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

PRINTF(2, 3)
static int parse_error(const struct cmdopt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage(cmd, fmt, ap);
	va_end(ap);
	return CMDOPT_ERROR;
}

/* ---- applying one option ---- */

/* The index of arg among choices ("a|b|c"), or -1. */
static int choice_index(const char *choices, const char *arg)
{
	size_t len = strlen(arg);
	int i = 0;

	for (const char *p = choices; *p; i++) {
		const char *e = strchrnul(p, '|');

		if ((size_t)(e - p) == len && !strncmp(p, arg, len))
			return i;
		p = *e ? e + 1 : e;
	}
	return -1;
}

bool cmdopt_has_choices(const struct cmdopt *o)
{
	return o->type == CMDOPT_CHOICE || o->type == CMDOPT_ENUM;
}

bool cmdopt_choice_hidden(const struct cmdopt *o, size_t i)
{
	if (o->type != CMDOPT_ENUM || !o->values)
		return false;
	for (size_t k = 0; k < i; k++)
		if (o->values[k] == o->values[i])
			return true;
	return false;
}

/* "a, b or c": the choices a user may be told about. */
static char *choice_list(const struct cmdopt *o)
{
	char *list = xcalloc(1, strlen(o->choices) * 2 + 8);
	size_t i = 0, n = 0, shown = 0;

	for (const char *p = o->choices; *p; i++) {
		const char *e = strchrnul(p, '|');

		if (!cmdopt_choice_hidden(o, i)) {
			if (shown++)
				n += (size_t)sprintf(list + n, ",");
			memcpy(list + n, p, (size_t)(e - p));
			n += (size_t)(e - p);
			list[n] = '\0';
		}
		p = *e ? e + 1 : e;
	}
	return list;
}

static int apply_double(const struct cmdopt_cmd *cmd, const struct cmdopt *o,
			const char *as, const char *arg, double *field)
{
	char *end, lo[32], hi[32];
	double d = strtod(arg, &end);
	bool above = o->flags & CMDOPT_ABOVE_MIN;
	bool below = o->flags & CMDOPT_BELOW_MAX;

	if ((o->flags & CMDOPT_PERCENT) && end != arg && *end == '%')
		end++;
	if (end != arg && !*end && isfinite(d) &&
	    (above ? d > o->dmin : d >= o->dmin) &&
	    (below ? d < o->dmax : d <= o->dmax)) {
		*field = o->scale ? d * o->scale : d;
		return 0;
	}
	snprintf(lo, sizeof(lo), "%g", o->dmin);
	snprintf(hi, sizeof(hi), "%g", o->dmax);
	if (isinf(o->dmax))
		return parse_error(cmd, "option '%s' wants a number %s %s, "
				   "not '%s'", as, above ? ">" : ">=", lo, arg);
	return parse_error(cmd, "option '%s' wants a number from %s to %s%s, "
			   "not '%s'", as, lo, hi, above || below ?
			   " (exclusive)" : "", arg);
}

static int apply(const struct cmdopt_cmd *cmd, const struct found *f,
		 const char *as, const char *arg, void *dst)
{
	const struct cmdopt *o = f->o;
	void *field = (char *)dst + f->base;
	char err[512];
	long long v;
	int idx;

	switch (o->type) {
	case CMDOPT_FLAG:
		*(bool *)field = !(o->flags & CMDOPT_NEGATE);
		return 0;
	case CMDOPT_STRING:
		*(const char **)field = arg;
		return 0;
	case CMDOPT_INT:
		if (parse_int(arg, o->min, o->max, &v) < 0)
			return parse_error(cmd, "option '%s' wants a whole "
					   "number from %lld to %lld, not '%s'",
					   as, o->min, o->max, arg);
		*(long long *)field = v;
		return 0;
	case CMDOPT_DOUBLE:
		return apply_double(cmd, o, as, arg, field);
	case CMDOPT_U64:
		if (parse_u64(arg, field) < 0)
			return parse_error(cmd, "option '%s' wants a whole "
					   "number >= 0, not '%s'", as, arg);
		return 0;
	case CMDOPT_SIZE:
		if (parse_size(arg, field) < 0)
			return parse_error(cmd, "option '%s' wants a size "
					   "(4096, 64k, 10M, 2G), not '%s'", as,
					   arg);
		return 0;
	case CMDOPT_CHOICE:
	case CMDOPT_ENUM:
		idx = choice_index(o->choices, arg);
		if (idx < 0) {
			char *list = choice_list(o);

			parse_error(cmd, "option '%s' is one of %s, not '%s'",
				    as, list, arg);
			free(list);
			return CMDOPT_ERROR;
		}
		if (o->type == CMDOPT_CHOICE)
			*(const char **)field = arg;
		else
			*(int *)field = o->values ? o->values[idx] : idx;
		return 0;
	case CMDOPT_ARGS:
		err[0] = '\0';
		/* f->base is the offset of the row's own table */
		if (o->args_cb(o, field, arg, err, sizeof(err)) < 0)
			return parse_error(cmd, "%s", *err ? err :
					   "bad option");
		return 0;
	case CMDOPT_CALLBACK:
		err[0] = '\0';
		if (o->cb(o, field, arg, err, sizeof(err)) < 0)
			return parse_error(cmd, "%s", *err ? err :
					   "bad option");
		return 0;
	case CMDOPT_END:
	case CMDOPT_GROUP:
	case CMDOPT_INCLUDE:
		break;
	}
	BUG("cmdopt: row '%s' of type %d cannot be applied",
	    o->long_name ? o->long_name : "?", (int)o->type);
}

static int parse_long(const struct cmdopt_cmd *cmd, int argc, char **argv,
		      int *i, void *dst)
{
	const char *a = argv[*i], *name = a + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	struct found f = { 0 };
	char as[128];

	find_long(cmd->opts, 0, name, len, true, &f);
	if (!f.nr && len == 4 && !strncmp(name, "help", 4))
		return CMDOPT_HELP;
	if (!f.nr) {
		find_long(cmd->opts, 0, name, len, false, &f);
		if (!f.nr && len && !strncmp("help", name, len))
			return CMDOPT_HELP;
	}
	snprintf(as, sizeof(as), "--%.*s", (int)len, name);
	if (f.nr > 1)
		return parse_error(cmd, "option '%s' is ambiguous "
				   "(--%s, --%s)", as, f.o->long_name,
				   f.other->long_name);
	if (!f.nr) {
		char *n = xstrndup(name, len);
		const char *s = cmdopt_suggest(cmd->opts, n);

		free(n);
		if (s)
			return parse_error(cmd, "unknown option '%s' (did you "
					   "mean '--%s'?)", as, s);
		return parse_error(cmd, "unknown option '%s'", as);
	}
	snprintf(as, sizeof(as), "--%s", f.o->long_name);
	if (!takes_arg(f.o)) {
		if (eq)
			return parse_error(cmd, "option '%s' takes no value",
					   as);
		return apply(cmd, &f, as, NULL, dst);
	}
	if (eq)
		return apply(cmd, &f, as, eq + 1, dst);
	if (f.o->flags & CMDOPT_OPTARG)
		return apply(cmd, &f, as, NULL, dst);
	if (*i + 1 >= argc)
		return parse_error(cmd, "option '%s' needs a value", as);
	return apply(cmd, &f, as, argv[++*i], dst);
}

static int parse_short(const struct cmdopt_cmd *cmd, int argc, char **argv,
		       int *i, void *dst)
{
	const char *a = argv[*i];

	for (size_t j = 1; a[j]; j++) {
		struct found f = { 0 };
		char as[3] = { '-', a[j], '\0' };
		int rc;

		if (!find_short(cmd->opts, 0, a[j], &f)) {
			if (a[j] == 'h')
				return CMDOPT_HELP;
			return parse_error(cmd, "unknown option '%s'", as);
		}
		if (!takes_arg(f.o) || (f.o->flags & CMDOPT_OPTARG)) {
			rc = apply(cmd, &f, as, NULL, dst);
		} else if (a[j + 1]) {
			return apply(cmd, &f, as, a + j + 1, dst);
		} else {
			if (*i + 1 >= argc)
				return parse_error(cmd, "option '%s' needs a "
						   "value", as);
			return apply(cmd, &f, as, argv[++*i], dst);
		}
		if (rc)
			return rc;
	}
	return 0;
}

int cmdopt_parse(const struct cmdopt_cmd *cmd, int argc, char **argv,
		 void *dst)
{
	char **opts = xcalloc((size_t)argc + 1, sizeof(*opts));
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	bool options = true;
	int nopts = 0, npos = 0, rc = 0;

	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		int start = i;

		if (options && !strcmp(a, "--")) {
			options = false;
			opts[nopts++] = a;
			continue;
		}
		if (!options || a[0] != '-' || !a[1]) {
			if (cmd->flags & CMDOPT_STOP_AT_ARG)
				options = false;
			pos[npos++] = a;
			continue;
		}
		if (a[1] == '-')
			rc = parse_long(cmd, argc, argv, &i, dst);
		else
			rc = parse_short(cmd, argc, argv, &i, dst);
		if (rc == CMDOPT_HELP)
			cmdopt_help(stdout, cmd);
		if (rc)
			break;
		while (start <= i)
			opts[nopts++] = argv[start++];
	}
	if (!rc) {
		/* getopt_long's permutation: options first, then the
		 * positional arguments in their order; nothing is lost, so
		 * a command can still record its whole command line. */
		memcpy(argv + 1, opts, (size_t)nopts * sizeof(*argv));
		memcpy(argv + 1 + nopts, pos, (size_t)npos * sizeof(*argv));
		rc = 1 + nopts;
	}
	free(opts);
	free(pos);
	return rc;
}

/* ---- help ---- */

enum cmdopt_complete cmdopt_completion(const struct cmdopt *o)
{
	const char *a = o->argh;

	if (o->complete)
		return o->complete;
	if (!a || cmdopt_has_choices(o))
		return CMDOPT_C_NONE;
	if (strstr(a, "FILE") || strstr(a, "PATH") || strstr(a, "LOG"))
		return CMDOPT_C_FILE;
	if (strstr(a, "DIR"))
		return CMDOPT_C_DIR;
	return CMDOPT_C_NONE;
}

char *cmdopt_signature(const struct cmdopt *o)
{
	char s[160];
	size_t n = 0;

	if (o->short_name)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "-%c%s",
				      o->short_name, o->long_name ? ", " : "");
	if (o->long_name)
		n += (size_t)snprintf(s + n, sizeof(s) - n, "--%s",
				      o->long_name);
	if (o->argh && n < sizeof(s)) {
		if (o->flags & CMDOPT_OPTARG)
			snprintf(s + n, sizeof(s) - n, "[=%s]", o->argh);
		else
			snprintf(s + n, sizeof(s) - n, " %s", o->argh);
	}
	return xstrdup(s);
}

/*
 * Print text word-wrapped to `width` columns after `first` spaces, the
 * cursor then being at column col0; every later line is indented by
 * `indent`.
 */
static void wrap(FILE *out, const char *text, int first, int col0,
		 int indent, int width)
{
	int col = col0;
	bool line_start = true;

	fprintf(out, "%*s", first, "");
	while (*text) {
		size_t wl;

		while (*text == ' ' || *text == '\n')
			text++;
		if (!*text)
			break;
		wl = strcspn(text, " \n");
		if (!line_start && col + 1 + (int)wl > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			line_start = true;
		}
		if (!line_start) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, wl, out);
		col += (int)wl;
		text += wl;
		line_start = false;
	}
	fputc('\n', out);
}

/* Paragraphs split on "\n\n"; one with a line starting with a space is
 * preformatted and printed as is. */
static void paragraphs(FILE *out, const char *text)
{
	while (text && *text) {
		const char *e = strstr(text, "\n\n");
		size_t len = e ? (size_t)(e - text) : strlen(text);
		char *p = xstrndup(text, len);

		if (p[0] == ' ' || strstr(p, "\n "))
			fprintf(out, "%s\n", p);
		else
			wrap(out, p, 0, 0, 0, HELP_WIDTH);
		free(p);
		text += len;
		if (*text) {
			text += 2;
			fputc('\n', out);
		}
	}
}

struct help_ctx {
	FILE *out;
	int col;         /* width of the left column */
	bool any_short;
	bool measure;
};

char *cmdopt_help_text(const struct cmdopt *o)
{
	return o->def ? xasprintf("%s (default: %s)", o->help, o->def)
		      : xstrdup(o->help);
}

static int help_row(const struct cmdopt *o, void *data)
{
	struct help_ctx *h = data;
	char *sig, *text;
	int len, pad;

	if (o->flags & CMDOPT_HIDDEN)
		return 0;
	if (o->type == CMDOPT_GROUP) {
		if (!h->measure)
			fprintf(h->out, "\n%s\n", o->help);
		return 0;
	}
	sig = cmdopt_signature(o);
	pad = h->any_short && !o->short_name ? 4 : 0;
	len = pad + (int)strlen(sig);
	if (h->measure) {
		if (o->short_name)
			h->any_short = true;
		if (len + 2 > h->col && len <= 22)
			h->col = len + 2;
	} else {
		text = cmdopt_help_text(o);
		fprintf(h->out, "  %*s%s", pad, "", sig);
		if (len + 2 > h->col) {
			fputc('\n', h->out);
			wrap(h->out, text, h->col + 2, h->col + 2,
			     h->col + 2, HELP_WIDTH);
		} else {
			wrap(h->out, text, h->col - len, h->col + 2,
			     h->col + 2, HELP_WIDTH);
		}
		free(text);
	}
	free(sig);
	return 0;
}

void cmdopt_help(FILE *out, const struct cmdopt_cmd *cmd)
{
	static const struct cmdopt help_opt[] = {
		{ .type = CMDOPT_FLAG, .short_name = 'h', .long_name = "help",
		  .help = "show this help" },
		CMDOPT_TABLE_END,
	};
	struct help_ctx h = { .out = out, .col = 8, .measure = true,
			       .any_short = true }; /* -h is always there */
	const char *sp = *cmd->name ? " " : "";
	int indent = (int)(strlen("usage: fslab ") + strlen(cmd->name) +
			   strlen(sp));

	fprintf(out, "usage: fslab%s%s ", sp, cmd->name);
	for (const char *u = cmd->usage; *u;) {
		size_t len = strcspn(u, "\n");

		fwrite(u, 1, len, out);
		fputc('\n', out);
		u += len;
		if (*u && *++u)
			fprintf(out, "%*s", indent, "");
	}
	if (cmd->desc) {
		fputc('\n', out);
		paragraphs(out, cmd->desc);
	}
	fputc('\n', out);
	cmdopt_for_each(cmd->opts, help_row, &h);
	help_row(help_opt, &h);
	h.measure = false;
	cmdopt_for_each(cmd->opts, help_row, &h);
	help_row(help_opt, &h);
	if (cmd->more_help)
		cmd->more_help(out);
	if (cmd->footer) {
		fputc('\n', out);
		paragraphs(out, cmd->footer);
	}
}
