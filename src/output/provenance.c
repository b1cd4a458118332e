/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * provenance.c - the provenance block (see provenance.h).  Everything
 * comes from the stored run, so `show` months later prints what `run`
 * printed.  A target built once per repetition is listed once (its
 * first build): the loop device differs, the recipe does not.
 */
#include "output/provenance.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

char *provenance_date(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm))
		snprintf(buf, len, "-");
	else
		strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
	return buf;
}

char *provenance_mkfs_command(const struct target_rec *t)
{
	/* As stored by the run that ran it: today's fslab may pass other
	 * flags; an older run that did not record it shows none. */
	return t->mkfs_cmd ? xstrdup(t->mkfs_cmd) : NULL;
}

bool provenance_first_target(const struct run_rec *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (r->targets[j].idx == r->targets[i].idx)
			return false;
	return true;
}

bool provenance_first_workload(const struct run_rec *r, size_t i)
{
	const struct wlrun_rec *w = &r->wlruns[i];

	for (size_t j = 0; j < i; j++)
		if (!strcmp(str_or(r->wlruns[j].workload, ""),
			    str_or(w->workload, "")) &&
		    !strcmp(str_or(r->wlruns[j].options, ""),
			    str_or(w->options, "")))
			return false;
	return true;
}

static void print_target(FILE *out, const struct target_rec *t)
{
	char size[32];
	char *mkfs = provenance_mkfs_command(t);

	fprintf(out, "target %s: %s %s", str_or(t->name, "?"),
		str_or(t->kind, "?"), str_or(t->device, str_or(t->path, "?")));
	if (t->size)
		fprintf(out, ", %s", fmt_size(size, sizeof(size), t->size));
	fprintf(out, ", %s\n", str_or(t->fstype, "?"));
	if (mkfs)
		fprintf(out, "  mkfs: %s  (%s)\n", mkfs,
			str_or(t->mkfs_version, "version unknown"));
	fprintf(out, "  mount: %s\n", str_or(t->eff_mount_opts,
					     str_or(t->mount_opts, "-")));
	free(mkfs);
}

void provenance_text(FILE *out, const struct run_rec *r)
{
	char when[40];

	fprintf(out, "run %lld  %s  status %s  tag %s\n", (long long)r->id,
		provenance_date(when, sizeof(when), r->started),
		str_or(r->status, "?"), str_or(r->tag, "-"));
	fprintf(out, "fslab %s  host %s  seed %llu\n", str_or(r->version, "?"),
		str_or(r->host, "?"), (unsigned long long)r->seed);
	fprintf(out, "kernel %s\n", str_or(r->kernel, "?"));
	if (r->uuid)
		fprintf(out, "id %s%s%s\n", r->uuid,
			r->source_host ? "  imported from " : "",
			r->source_host ? r->source_host : "");
	fprintf(out, "command: %s\n", str_or(r->cmdline, "?"));
	for (size_t i = 0; i < r->nr_targets; i++)
		if (provenance_first_target(r, i))
			print_target(out, &r->targets[i]);
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];

		if (provenance_first_workload(r, i))
			fprintf(out, "workload %s: %s\n",
				str_or(w->workload, "?"),
				str_or(w->options, "(defaults)"));
	}
}
