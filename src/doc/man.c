/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * man.c - roff man pages from the option tables: fslab(1), one
 * fslab-<command>(1) per row of the command table, fslab-workloads(7)
 * from the workload registry's option tables and fslab-targets(7) from
 * the SPEC grammar of `fslab help targets`.  Nothing here repeats an
 * option's text; EXAMPLES are README.md's own command lines.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "doc/doc.h"
#include "util/cmdopt.h"
#include "util/opt.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "util/version.h"
#include "phase/workload.h"
#include "workloads/registry.h"

/* ---- roff output ---- */

/* Text inside a line: backslashes escaped, every '-' a minus sign when
 * `minus` (option names, commands). */
static void esc(FILE *out, const char *s, size_t len, bool minus)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		if (s[i] == '\\')
			fputs("\\e", out);
		else if (s[i] == '-' && minus)
			fputs("\\-", out);
		else
			fputc(s[i], out);
	}
}

/*
 * Filled text: words wrapped at 72 columns and a new line after each
 * sentence, as roff sources are written; a line starting with '.' or
 * '\'' would be a request.
 */
static void line(FILE *out, const char *s, size_t len)
{
	const char *end = s + len;
	size_t col = 0;
	bool sentence_end = false;

	while (s < end) {
		size_t wl;

		while (s < end && (*s == ' ' || *s == '\n'))
			s++;
		if (s >= end || !*s)
			break;
		wl = strcspn(s, " \n");
		if (s + wl > end)
			wl = (size_t)(end - s);
		if (col && (col + 1 + wl > 72 ||
			    (sentence_end && isupper((unsigned char)*s)))) {
			fputc('\n', out);
			col = 0;
		}
		if (col) {
			fputc(' ', out);
			col++;
		} else if (*s == '.' || *s == '\'') {
			fputs("\\&", out);
		}
		esc(out, s, wl, false);
		col += wl;
		sentence_end = s[wl - 1] == '.' || s[wl - 1] == '?' ||
			       s[wl - 1] == '!' || s[wl - 1] == ':';
		s += wl;
	}
	if (col)
		fputc('\n', out);
}

/* Preformatted lines, as printed by --help. */
static void verbatim(FILE *out, const char *s, size_t len)
{
	fputs(".nf\n", out);
	while (len) {
		const char *e = memchr(s, '\n', len);
		size_t n = e ? (size_t)(e - s) : len;

		if (n) {
			if (*s == '.' || *s == '\'')
				fputs("\\&", out);
			esc(out, s, n, false);
		}
		fputc('\n', out);
		if (!e)
			break;
		len -= n + 1;
		s = e + 1;
	}
	fputs(".fi\n", out);
}

/* The paragraphs of a desc/footer text, with cmdopt_help's rules. */
static void paragraphs(FILE *out, const char *text)
{
	bool first = true;

	while (text && *text) {
		const char *e = strstr(text, "\n\n");
		size_t len = e ? (size_t)(e - text) : strlen(text);
		char *p = xstrndup(text, len);

		if (!first)
			fputs(".PP\n", out);
		first = false;
		if (p[0] == ' ' || strstr(p, "\n "))
			verbatim(out, p, len);
		else
			line(out, p, len);
		free(p);
		text += len;
		while (*text == '\n')
			text++;
	}
}

static void title(FILE *out, const char *name, int section)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	char date[32] = "";

	/* Reproducible builds set SOURCE_DATE_EPOCH (dpkg does). */
	if (gmtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	fputs(".TH \"", out);
	for (const char *p = name; *p; p++)
		if (*p == '-')
			fputs("\\-", out);
		else
			fputc(toupper((unsigned char)*p), out);
	fprintf(out, "\" \"%d\" \"%s\" \"fslab %s\" \"fslab manual\"\n",
		section, date, FSLAB_VERSION);
	fprintf(out, ".SH NAME\n");
	esc(out, name, strlen(name), true);
	fputs(" \\- ", out);
}

/* ---- options ---- */

static void signature(FILE *out, const struct cmdopt *o)
{
	if (o->short_name) {
		fprintf(out, "\\fB\\-%c\\fR", o->short_name);
		if (o->long_name)
			fputs(", ", out);
	}
	if (o->long_name) {
		fputs("\\fB\\-\\-", out);
		esc(out, o->long_name, strlen(o->long_name), true);
		fputs("\\fR", out);
	}
	if (o->argh) {
		fputs((o->flags & CMDOPT_OPTARG) ? "[=\\fI" : " \\fI", out);
		esc(out, o->argh, strlen(o->argh), false);
		fputs((o->flags & CMDOPT_OPTARG) ? "\\fR]" : "\\fR", out);
	}
	fputc('\n', out);
}

static int option_item(const struct cmdopt *o, void *data)
{
	FILE *out = data;

	if (o->flags & CMDOPT_HIDDEN)
		return 0;
	if (o->type == CMDOPT_GROUP) {
		fputs(".SS ", out);
		line(out, o->help, strlen(o->help));
		return 0;
	}
	fputs(".TP\n", out);
	signature(out, o);
	{
		char *text = cmdopt_help_text(o);

		line(out, text, strlen(text));
		free(text);
	}
	return 0;
}

static void options(FILE *out, const struct cmdopt_cmd *cmd)
{
	fputs(".SH OPTIONS\n", out);
	cmdopt_for_each(cmd->opts, option_item, out);
	fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nshow the help and "
	      "exit\n", out);
}

static void synopsis(FILE *out, const struct cmdopt_cmd *cmd)
{
	const char *u = cmd->usage;

	fputs(".SH SYNOPSIS\n.nf\n", out);
	while (*u) {
		size_t n = strcspn(u, "\n");

		fputs("\\fBfslab", out);
		if (*cmd->name) {
			fputc(' ', out);
			esc(out, cmd->name, strlen(cmd->name), true);
		}
		fputs("\\fR ", out);
		esc(out, u, n, true);
		fputc('\n', out);
		u += n;
		if (*u)
			u++;
	}
	fputs(".fi\n", out);
}

/* ---- EXAMPLES from README.md ---- */

/* Does this README code line run `fslab CMD` (any command when NULL)? */
static bool runs_cmd(const char *l, const char *cmd)
{
	const char *p = strstr(l, "fslab ");
	size_t n;

	if (!p || (p != l && p[-1] != ' '))
		return false;
	/* the synopsis lists of "Using it": options in brackets, or a
	 * description aligned after the command */
	if (strchr(l, '['))
		return false;
	p += 6;
	if (!cmd)
		return true;
	n = strlen(cmd);
	return !strncmp(p, cmd, n) && (p[n] == ' ' || !p[n]);
}

static bool aligned_text(const char *l)
{
	const char *gap = strstr(l, "   ");

	if (!gap)
		return false;
	while (*gap == ' ')
		gap++;
	return *gap != '#';
}

static void examples(FILE *out, const char *cmd)
{
	const char *path = getenv("FSLAB_README");
	char *buf = NULL, **lines = NULL;
	size_t len = 0, nr = 0, alloc = 0;
	bool any = false;

	if (!path || !(buf = read_file(path, &len)))
		return;
	for (char *p = buf, *e; p < buf + len; p = e + 1) {
		e = strchr(p, '\n');
		if (!e)
			e = buf + len;
		*e = '\0';
		ALLOC_GROW(lines, nr + 1, alloc);
		lines[nr++] = p;
	}
	for (size_t i = 0; i < nr; i++) {
		const char *l = lines[i];
		size_t start = i, end = i;

		if (strncmp(l, "    ", 4) || !runs_cmd(l + 4, cmd) ||
		    aligned_text(l + 4))
			continue;
		while (start > 0 && !strncmp(lines[start - 1], "    # ", 6))
			start--;
		while (end + 1 < nr && strlen(lines[end]) &&
		       lines[end][strlen(lines[end]) - 1] == '\\')
			end++;
		fputs(any ? ".sp\n" : ".SH EXAMPLES\n.nf\n", out);
		any = true;
		for (size_t j = start; j <= end; j++) {
			const char *t = lines[j] + 4;

			if (*t == '.' || *t == '\'')
				fputs("\\&", out);
			esc(out, t, strlen(t), false);
			fputc('\n', out);
		}
		i = end;
	}
	if (any)
		fputs(".fi\n", out);
	free(lines);
	free(buf);
}

static void see_also(FILE *out, const char *self)
{
	bool first = true;

	fputs(".SH SEE ALSO\n", out);
	if (strcmp(self, "fslab")) {
		fputs(".BR fslab (1)", out);
		first = false;
	}
	for (const struct cmd_struct *c = cmd_table; c->name; c++) {
		char *n = xasprintf("fslab-%s", c->name);

		if (strcmp(n, self)) {
			fprintf(out, "%s.BR fslab\\-", first ? "" : ",\n");
			esc(out, c->name, strlen(c->name), true);
			fputs(" (1)", out);
			first = false;
		}
		free(n);
	}
	if (strcmp(self, "fslab-workloads"))
		fputs(",\n.BR fslab\\-workloads (7)", out);
	if (strcmp(self, "fslab-targets"))
		fputs(",\n.BR fslab\\-targets (7)", out);
	fputc('\n', out);
}

/* ---- the pages ---- */

static void page_fslab(FILE *out)
{
	const struct cmdopt_cmd *f = &cmd_fslab_opts;

	title(out, "fslab", 1);
	line(out, f->summary, strlen(f->summary));
	synopsis(out, f);
	fputs(".SH DESCRIPTION\n", out);
	paragraphs(out, f->desc);
	options(out, f);
	fputs(".SH COMMANDS\n", out);
	for (const struct cmd_struct *c = cmd_table; c->name; c++) {
		fputs(".TP\n.BR fslab\\-", out);
		esc(out, c->name, strlen(c->name), true);
		fputs(" (1)\n", out);
		line(out, c->opts->summary, strlen(c->opts->summary));
	}
	fputs(".TP\n\\fBfslab help\\fR [\\fICOMMAND\\fR|\\fBtargets\\fR]\n"
	      "a command's help, or the target SPEC grammar\n", out);
	fputs(".SH EXIT STATUS\n"
	      ".TP\n.B 0\nsuccess\n"
	      ".TP\n.B 1\na run or command failed\n"
	      ".TP\n.B 2\nusage error, or a refused target\n(bad spec, "
	      "unsafe device, missing path, pre-flight)\n"
	      ".TP\n.B 3\na significant regression "
	      "(\\fBcompare \\-\\-fail\\-on\\-regression\\fR)\n"
	      ".TP\n.B 4\nno verdict: no key metric could be tested\n"
	      "(\\fBcompare \\-\\-fail\\-on\\-regression\\fR)\n"
	      ".TP\n.B 128+N\ninterrupted by signal N after tearing down "
	      "(130: Ctrl-C)\n", out);
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B XDG_DATA_HOME\nthe results database is "
	      "\\fI$XDG_DATA_HOME/fslab/results.db\\fR\n"
	      "(default \\fI~/.local/share/fslab/results.db\\fR)\n"
	      ".TP\n.B FSLAB_STATE_DIR\nthe state journal of images, loop "
	      "devices and mounts\n(default \\fI/var/lib/fslab/state\\fR)\n",
	      out);
	fputs(".SH FILES\n"
	      ".TP\n.I ~/.local/share/fslab/results.db\nthe results "
	      "database (SQLite), unless \\fB\\-\\-db\\fR names another\n"
	      ".TP\n.I /var/lib/fslab/state\nstate journals, read by "
	      "\\fBfslab cleanup\\fR after a crash\n"
	      ".TP\n.I /var/tmp/fslab\nscratch: sparse loop images, mount "
	      "points, golden aged images\n(\\fB\\-\\-scratch\\fR)\n", out);
	examples(out, "run");
	see_also(out, "fslab");
}

static void page_cmd(FILE *out, const struct cmd_struct *c)
{
	char *name = xasprintf("fslab-%s", c->name);

	title(out, name, 1);
	line(out, c->opts->summary, strlen(c->opts->summary));
	synopsis(out, c->opts);
	fputs(".SH DESCRIPTION\n", out);
	paragraphs(out, c->opts->desc);
	if (c->opts->footer) {
		fputs(".PP\n", out);
		paragraphs(out, c->opts->footer);
	}
	options(out, c->opts);
	examples(out, c->name);
	see_also(out, name);
	free(name);
}

static const char *opt_kind(const struct opt *o)
{
	switch (o->type) {
	case OPT_BOOL:
		return "yes|no";
	case OPT_INT:
		return "N";
	case OPT_SIZE:
		return "SIZE";
	case OPT_STRING:
		return "STRING";
	case OPT_ENUM:
		return NULL;
	case OPT_DOUBLE:
		return "NUM";
	case OPT_SEED:
		return "N|run";
	}
	return "VALUE";
}

static void workload_opt(FILE *out, const struct opt *o)
{
	const char *kind = opt_kind(o);

	fputs(".TP\n\\fB", out);
	esc(out, o->name, strlen(o->name), true);
	fputs("\\fR=\\fI", out);
	if (kind) {
		fputs(kind, out);
	} else {
		for (const struct opt_enum *v = o->values; v && v->name; v++) {
			if (v != o->values)
				fputc('|', out);
			esc(out, v->name, strlen(v->name), false);
		}
	}
	fputs("\\fR\n", out);
	line(out, o->help, strlen(o->help));
	if (o->def && *o->def) {
		const char *def = opt_default_text(o);

		fputs("Default: ", out);
		esc(out, def, strlen(def), false);
		fputs(".\n", out);
	}
	if ((o->type == OPT_INT || o->type == OPT_DOUBLE) &&
	    (o->min || o->max))
		fprintf(out, "Range: %lld to %lld.\n", o->min, o->max);
	if (kind || !o->values)
		return;
	fputs(".RS\n", out);
	for (const struct opt_enum *v = o->values; v->name; v++) {
		fputs(".TP\n.B ", out);
		esc(out, v->name, strlen(v->name), false);
		fputc('\n', out);
		line(out, v->help ? v->help : "", v->help ? strlen(v->help) : 0);
	}
	fputs(".RE\n", out);
}

static void page_workloads(FILE *out)
{
	title(out, "fslab-workloads", 7);
	fputs("the workloads of fslab run and their options\n", out);
	fputs(".SH DESCRIPTION\n"
	      "\\fBfslab run \\-\\-workload\\fR "
	      "\\fINAME\\fR[\\fB:\\fIkey\\fB=\\fIval\\fR,...] runs workload "
	      "NAME with its options; an option not given has the default "
	      "below, and an unknown key is an error with a suggestion.  "
	      "Sizes take k/m/g/t suffixes; booleans are yes or no (1/0, "
	      "true/false and on/off are read too); a seed is a number or "
	      "\\fBrun\\fR, the run's \\fB\\-\\-seed\\fR, every seed's "
	      "default.  \\fBfslab list \\-v\\fR prints the same tables.\n",
	      out);
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];

		fputs(".SH ", out);
		esc(out, wl->name, strlen(wl->name), true);
		fputc('\n', out);
		line(out, wl->summary, strlen(wl->summary));
		{
			struct strbuf ph = STRBUF_INIT;

			strbuf_addstr(&ph, "Phases:");
			for (const char *const *p = wl->phases; p && *p; p++)
				strbuf_addf(&ph, " %s%s", *p, p[1] ? "," : ".");
			fputs(".PP\n", out);
			line(out, ph.buf, ph.len);
			strbuf_release(&ph);
		}
		for (const struct opt *o = wl->opts; o && o->name; o++)
			workload_opt(out, o);
	}
	examples(out, "run");
	see_also(out, "fslab-workloads");
}

static void page_targets(FILE *out)
{
	title(out, "fslab-targets", 7);
	fputs("the target SPEC grammar of fslab run and fslab age\n", out);
	fputs(".SH SYNOPSIS\n"
	      "\\fBfslab run \\-\\-target\\fR \\fISPEC\\fR ...\n"
	      ".SH DESCRIPTION\n"
	      "A target is the filesystem under test.\n"
	      "fslab formats only loop images it created, or a \\fBdev:\\fR "
	      "device named\non the command line that is not mounted, used "
	      "as swap, held by\nLVM/md/dm and carries no signature (unless "
	      "\\fB\\-\\-destroy\\-data\\fR=\\fI/dev/X\\fR\nnames it).\n"
	      "Every image, loop device and mount point is journaled before "
	      "it is\ncreated, so \\fBfslab cleanup\\fR can remove what a "
	      "killed fslab left.\n"
	      ".SH GRAMMAR\n", out);
	verbatim(out, cmd_targets_help, strlen(cmd_targets_help));
	see_also(out, "fslab-targets");
}

static void list_pages(FILE *out)
{
	fprintf(out, "fslab 1\n");
	for (const struct cmd_struct *c = cmd_table; c->name; c++)
		fprintf(out, "fslab-%s 1\n", c->name);
	fprintf(out, "fslab-workloads 7\nfslab-targets 7\n");
}

int doc_man(FILE *out, const char *page)
{
	if (!strcmp(page, "list")) {
		list_pages(out);
		return 0;
	}
	if (!strcmp(page, "fslab")) {
		page_fslab(out);
		return 0;
	}
	if (!strcmp(page, "fslab-workloads")) {
		page_workloads(out);
		return 0;
	}
	if (!strcmp(page, "fslab-targets")) {
		page_targets(out);
		return 0;
	}
	if (!strncmp(page, "fslab-", 6)) {
		const struct cmd_struct *c = cmd_find(page + 6);

		if (c) {
			page_cmd(out, c);
			return 0;
		}
	}
	return error("no man page '%s'; see 'fslab --dump-man list'", page);
}
