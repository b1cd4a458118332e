/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobfile.c - fio job files as fslab runs them: sections, the root-safety
 * scan, overrides (internal.h).
 *
 * fslab runs fio as root in a workload directory it created; a job file
 * is the user's, but it may be someone else's suite.  What it names must
 * stay beneath that directory, so every option that names a path is read
 * here before fio ever sees the file, and anything that would run other
 * code (exec_prerun, external engines) or change the machine (the I/O
 * scheduler, cgroups) is refused with its line number.
 */
#include "workloads/fio/internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/util.h"

/* Options whose value names a file or directory (':'-separated). */
static const char *const path_keys[] = {
	"filename", "directory", "opendir", "filename_format",
	"read_iolog", "write_iolog", "write_bw_log", "write_lat_log",
	"write_iops_log", "write_hist_log", "replay_redirect",
	"ioengine_lib", "verify_state_save_dir", "trigger_file",
	"exitall_on_error_file", NULL,
};

/* Options refused outright, with why. */
static const struct {
	const char *key, *why;
} refused_keys[] = {
	{ "exec_prerun", "runs a shell command as root" },
	{ "exec_postrun", "runs a shell command as root" },
	{ "trigger_cmd", "runs a shell command as root" },
	{ "trigger", "runs a shell command as root" },
	{ "ioscheduler", "changes the device's I/O scheduler" },
	{ "cgroup", "creates cgroups on the machine" },
	{ "cgroup_weight", "creates cgroups on the machine" },
	{ "cgroup_nodelete", "creates cgroups on the machine" },
	{ "program", "runs a program (the exec engine) as root" },
};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* One ':'-separated path (fio's "\:" is a literal colon) is relative and
 * never climbs out: no leading '/', no ".." component, no expansion. */
static const char *bad_path(const char *p, size_t n)
{
	if (!n)
		return NULL;
	if (p[0] == '/' || p[0] == '~')
		return "an absolute path";
	if (memchr(p, '$', n)) {
		/* fio's own per-job keywords stay inside; the environment
		 * can name anything. */
		static const char *const ok[] = { "$jobname", "$jobnum",
						  "$filenum", "$clientuid",
						  NULL };
		for (const char *d = memchr(p, '$', n); d;
		     d = memchr(d + 1, '$', n - (size_t)(d + 1 - p))) {
			bool fine = false;

			for (const char *const *k = ok; *k && !fine; k++)
				fine = (size_t)(p + n - d) >= strlen(*k) &&
				       !strncmp(d, *k, strlen(*k));
			if (!fine)
				return "an environment variable";
			if (d + 1 >= p + n)
				break;
		}
	}
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && p[j] != '/')
			j++;
		if (j - i == 2 && p[i] == '.' && p[i + 1] == '.')
			return "a '..' component";
		i = j + 1;
	}
	return NULL;
}

static const char *bad_paths(const char *v)
{
	size_t i = 0, start = 0, len = strlen(v);
	const char *why;

	for (; i <= len; i++) {
		if (i < len && !(v[i] == ':' && (i == 0 || v[i - 1] != '\\')))
			continue;
		why = bad_path(v + start, i - start);
		if (why)
			return why;
		start = i + 1;
	}
	return NULL;
}

static int scan_option(const char *key, const char *val, size_t line,
		       char *err, size_t errlen)
{
	const char *why;

	for (size_t i = 0; i < ARRAY_SIZE(refused_keys); i++)
		if (!strcmp(key, refused_keys[i].key)) {
			snprintf(err, errlen, "job file line %zu: '%s' %s; "
				 "fslab refuses it", line, key,
				 refused_keys[i].why);
			return -1;
		}
	if (!strcmp(key, "ioengine") && val &&
	    (!strncmp(val, "external", 8) || !strcmp(val, "exec"))) {
		snprintf(err, errlen, "job file line %zu: ioengine=%s loads "
			 "or runs other code as root; fslab refuses it", line,
			 val);
		return -1;
	}
	if (in_list(path_keys, key) && val && (why = bad_paths(val))) {
		snprintf(err, errlen, "job file line %zu: %s=%s is %s: a job "
			 "must stay in the workload directory fslab made "
			 "(use a relative name)", line, key, val, why);
		return -1;
	}
	return 0;
}

static int parse_lines(struct fio_jobfile *jf, const char *text, char *err,
		       size_t errlen)
{
	const char *p = text;
	size_t alloc = 0, salloc = 0;
	bool in_global = false, in_job = false;

	while (*p) {
		size_t n = strcspn(p, "\n");

		ALLOC_GROW(jf->lines, jf->nr_lines + 1, alloc);
		jf->lines[jf->nr_lines++] = xstrndup(p, n);
		p += n + (p[n] == '\n');
	}
	for (size_t i = 0; i < jf->nr_lines; i++) {
		char *copy = xstrdup(jf->lines[i]), *s = trim(copy), *eq;
		int rc = 0;

		if (!*s || *s == ';' || *s == '#') {
			free(copy);
			continue;
		}
		if (*s == '[') {
			char *close = strchr(s, ']');

			if (!close || close == s + 1) {
				snprintf(err, errlen, "job file line %zu: a "
					 "section header needs a name in "
					 "[...]", i + 1);
				free(copy);
				return -1;
			}
			*close = '\0';
			in_global = !strcmp(s + 1, "global");
			in_job = !in_global;
			if (in_job) {
				if (fio_jobfile_find(jf, s + 1) >= 0) {
					snprintf(err, errlen, "job file line "
						 "%zu: section [%s] appears "
						 "twice", i + 1, s + 1);
					free(copy);
					return -1;
				}
				ALLOC_GROW(jf->sections, jf->nr_sections + 1,
					   salloc);
				jf->sections[jf->nr_sections].name =
					xstrdup(s + 1);
				jf->sections[jf->nr_sections].end_line = i + 1;
				jf->nr_sections++;
			}
			free(copy);
			continue;
		}
		if (!strncmp(s, "include", 7) &&
		    (!s[7] || isspace((unsigned char)s[7]))) {
			snprintf(err, errlen, "job file line %zu: include "
				 "directives are refused: fslab stores and "
				 "runs one self-contained file", i + 1);
			free(copy);
			return -1;
		}
		if (!in_global && !in_job) {
			snprintf(err, errlen, "job file line %zu: an option "
				 "before any [section]", i + 1);
			free(copy);
			return -1;
		}
		eq = strchr(s, '=');
		if (eq) {
			*eq = '\0';
			rc = scan_option(trim(s), trim(eq + 1), i + 1, err,
					 errlen);
			if (!strcmp(trim(s), "verify")) {
				const char *v = trim(eq + 1);

				if (strcmp(v, "0") && strcmp(v, "none"))
					jf->has_verify = true;
			}
		} else {
			rc = scan_option(s, NULL, i + 1, err, errlen);
		}
		free(copy);
		if (rc < 0)
			return -1;
		if (in_job)
			jf->sections[jf->nr_sections - 1].end_line = i + 1;
	}
	if (!jf->nr_sections) {
		snprintf(err, errlen, "the job file has no job section "
			 "(only [global] or nothing)");
		return -1;
	}
	return 0;
}

int fio_jobfile_parse(const char *text, struct fio_jobfile *jf, char *err,
		      size_t errlen)
{
	memset(jf, 0, sizeof(*jf));
	if (memchr(text, '\0', strlen(text) + 1) != text + strlen(text)) {
		snprintf(err, errlen, "the job file holds a NUL byte");
		return -1;
	}
	if (parse_lines(jf, text, err, errlen) < 0) {
		fio_jobfile_release(jf);
		return -1;
	}
	return 0;
}

void fio_jobfile_release(struct fio_jobfile *jf)
{
	for (size_t i = 0; i < jf->nr_lines; i++)
		free(jf->lines[i]);
	free(jf->lines);
	for (size_t i = 0; i < jf->nr_sections; i++)
		free(jf->sections[i].name);
	free(jf->sections);
	memset(jf, 0, sizeof(*jf));
}

int fio_jobfile_find(const struct fio_jobfile *jf, const char *name)
{
	for (size_t i = 0; i < jf->nr_sections; i++)
		if (!strcmp(jf->sections[i].name, name))
			return (int)i;
	return -1;
}

char *fio_jobfile_render(const struct fio_jobfile *jf,
			 const char *const *overrides)
{
	struct strbuf sb = STRBUF_INIT;
	size_t s = 0;

	for (size_t i = 0; i < jf->nr_lines; i++) {
		strbuf_addstr(&sb, jf->lines[i]);
		strbuf_addch(&sb, '\n');
		while (s < jf->nr_sections && jf->sections[s].end_line == i + 1) {
			for (const char *const *o = overrides; o && *o; o++)
				strbuf_addf(&sb, "%s\n", *o);
			s++;
		}
	}
	return strbuf_detach(&sb, NULL);
}
