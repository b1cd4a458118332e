// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checks.c - the validity checks and the recorded setup as text, JSON
 * and CSV (see checks.h).
 */
#include "output/checks.h"

#include <string.h>

#include "output/csv.h" /* layer-ok: known circle with csv.c (issue 38), to untangle */
#include "util/jsonout.h"
#include "util/strbuf.h"
#include "util/util.h"

static char *checks_coverage(const struct check_report *rep)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "checked %zu of %zu recommendations",
		    rep->nr_checked, rep->nr_checks);
	for (size_t i = 0; i < rep->nr_unchecked; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "; not checked: ",
			    rep->unchecked[i]);
	return strbuf_detach(&sb, NULL);
}

static void count(const struct check_report *rep, size_t n[4], size_t *acc)
{
	memset(n, 0, 4 * sizeof(*n));
	*acc = 0;
	for (size_t i = 0; i < rep->nr; i++) {
		if (rep->f[i].accepted)
			(*acc)++;
		else
			n[rep->f[i].level]++;
	}
}

/* The brief view: what is wrong, and a single-configuration run's
 * resolution (the repetitions note), which the next comparison needs. */
static bool shown_brief(const struct check_finding *f)
{
	return !f->accepted && (f->level >= CHECK_WARNING ||
				!strcmp(f->id, "repetitions"));
}

static bool same_kind(const struct check_finding *a,
		      const struct check_finding *b)
{
	return a->level == b->level && !strcmp(a->id, b->id) &&
	       shown_brief(a) && shown_brief(b);
}

static bool first_of_kind(const struct check_report *rep, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (same_kind(&rep->f[j], &rep->f[i]))
			return false;
	return true;
}

/* Length of "TARGET WORKLOAD/" when subject s starts with it, else 0. */
static size_t dir_prefix(const char *s)
{
	const char *slash = strchr(s, '/');

	return slash ? (size_t)(slash - s) + 1 : 0;
}

/*
 * One line per check id and level: a check that fires on several phases
 * names them all once ("ext4 compilebench/native-unpatched,
 * native-patched: ...") with what it looks for and the first finding's
 * figures; 'fslab check RUN' lists each.
 */
static void print_brief(FILE *out, const struct check_report *rep, size_t i)
{
	const struct check_finding *f = &rep->f[i];
	const struct check_def *d = check_def_find(f->id);
	struct strbuf subj = STRBUF_INIT;
	size_t nr = 0, pre = dir_prefix(f->subject);

	for (size_t j = i; j < rep->nr; j++) {
		const char *s = rep->f[j].subject;

		if (!same_kind(&rep->f[j], f))
			continue;
		if (!nr++)
			strbuf_addstr(&subj, s);
		else if (pre && dir_prefix(s) == pre &&
			 !strncmp(s, f->subject, pre))
			strbuf_addf(&subj, ", %s", s + pre);
		else
			strbuf_addf(&subj, ", %s", s);
	}
	if (nr == 1)
		fprintf(out, "  %-7s %s: %s: %s\n", check_level_name(f->level),
			f->id, subj.buf, f->reason);
	else
		fprintf(out, "  %-7s %s (%zu): %s: %s; the first: %s\n",
			check_level_name(f->level), f->id, nr, subj.buf,
			d ? d->what : f->id, f->reason);
	strbuf_release(&subj);
}

void checks_print_text(FILE *out, const struct check_report *rep, bool brief)
{
	size_t n[4], acc;
	char *cov = checks_coverage(rep);

	count(rep, n, &acc);
	if (brief) {
		fprintf(out, "setup check: ");
		if (!n[CHECK_INVALID] && !n[CHECK_WARNING])
			fprintf(out, "no warning");
		else
			fprintf(out, "%zu invalid, %zu warning%s",
				n[CHECK_INVALID], n[CHECK_WARNING],
				n[CHECK_WARNING] == 1 ? "" : "s");
		fprintf(out, ", %zu note%s", n[CHECK_NOTE],
			n[CHECK_NOTE] == 1 ? "" : "s");
		if (acc)
			fprintf(out, ", %zu accepted", acc);
		fprintf(out, " ('fslab check %lld' for all)\n",
			(long long)rep->run_id);
	}
	for (size_t i = 0; i < rep->nr; i++) {
		const struct check_finding *f = &rep->f[i];

		if (brief) {
			if (shown_brief(f) && first_of_kind(rep, i))
				print_brief(out, rep, i);
			continue;
		}
		fprintf(out, "  %-7s %s: %s: %s%s\n",
			check_level_name(f->level), f->id, f->subject,
			f->reason, f->accepted ? " (accepted)" : "");
	}
	fprintf(out, "  %s\n", cov);
	free(cov);
}

void checks_print_run_brief(FILE *out, const struct run_rec *r)
{
	struct check_opts o;
	struct check_report rep;

	check_opts_init(&o);
	check_run(r, &o, &rep);
	checks_print_text(out, &rep, true);
	check_report_release(&rep);
}

json_t *checks_json(const struct check_report *rep)
{
	json_t *o = json_object(), *arr = json_array(), *un = json_array();
	char *cov = checks_coverage(rep);

	for (size_t i = 0; i < rep->nr; i++) {
		const struct check_finding *f = &rep->f[i];

		jout_push(arr, json_pack(
			"{s:s, s:s, s:s, s:s, s:b}", "id", f->id, "level",
			check_level_name(f->level), "subject", f->subject,
			"reason", f->reason, "accepted", f->accepted));
	}
	for (size_t i = 0; i < rep->nr_unchecked; i++)
		jout_push(un, jout_str(rep->unchecked[i]));
	jout_set(o, "worst",
			    jout_str(check_level_name(check_worst(rep))));
	jout_set(o, "findings", arr);
	jout_set(o, "checked", json_integer((json_int_t)
						       rep->nr_checked));
	jout_set(o, "recommendations",
			    json_integer((json_int_t)rep->nr_checks));
	jout_set(o, "not_checked", un);
	jout_set(o, "coverage", jout_str(cov));
	free(cov);
	return o;
}

json_t *facts_json(const struct run_rec *r)
{
	json_t *o = json_object();

	for (size_t i = 0; i < r->nr_facts; i++) {
		const struct fact *f = &r->facts[i];
		json_t *s = json_object_get(o, f->scope);

		if (!s) {
			s = json_object();
			jout_set(o, f->scope, s);
		}
		jout_set(s, f->key, jout_str(f->value));
	}
	return o;
}

void checks_json_add_run(json_t *run_obj, const struct run_rec *r)
{
	struct check_opts o;
	struct check_report rep;

	check_opts_init(&o);
	check_run(r, &o, &rep);
	jout_set(run_obj, "facts", facts_json(r));
	jout_set(run_obj, "checks", checks_json(&rep));
	check_report_release(&rep);
}

void checks_write_csv(FILE *out, const struct check_report *rep, bool header)
{
	if (header)
		fprintf(out, "run,id,level,subject,reason,accepted\n");
	for (size_t i = 0; i < rep->nr; i++) {
		const struct check_finding *f = &rep->f[i];

		csv_int(out, rep->run_id, true);
		csv_field(out, f->id, false);
		csv_field(out, check_level_name(f->level), false);
		csv_field(out, f->subject, false);
		csv_field(out, f->reason, false);
		csv_int(out, f->accepted, false);
		csv_end(out);
	}
	for (size_t i = 0; i < rep->nr_unchecked; i++) {
		csv_int(out, rep->run_id, true);
		csv_field(out, rep->unchecked[i], false);
		csv_field(out, "not-checked", false);
		csv_field(out, NULL, false);
		csv_field(out, NULL, false);
		csv_int(out, 0, false);
		csv_end(out);
	}
}

void checks_print_oneline(FILE *out, const struct check_report *rep)
{
	size_t n[4], acc;
	const struct check_finding *f = check_first(rep, CHECK_INVALID);

	if (!f)
		f = check_first(rep, CHECK_WARNING);
	count(rep, n, &acc);
	fprintf(out, "setup check run %lld: %zu invalid, %zu warning%s, %zu "
		"note%s%s%s%s\n", (long long)rep->run_id, n[CHECK_INVALID],
		n[CHECK_WARNING], n[CHECK_WARNING] == 1 ? "" : "s",
		n[CHECK_NOTE], n[CHECK_NOTE] == 1 ? "" : "s",
		f ? " (first: " : "", f ? f->id : "", f ? ")" : "");
}

void checks_print_compare_guard(FILE *out, const struct cmp_table *t)
{
	for (size_t i = 0; i < t->nr_diffs; i++) {
		const struct cmp_diff *d = &t->diffs[i];

		if (d->declared)
			continue;
		fprintf(out, "  warning: undeclared difference: %s (", d->field);
		for (size_t g = 0; g < t->nr_groups; g++)
			fprintf(out, "%s%s", g ? " vs " : "", d->values[g]);
		fprintf(out, "); if intended, say so with --factor %s\n",
			d->factor);
	}
	for (size_t g = 0; t->invalid && g < t->nr_groups; g++)
		if (t->invalid[g])
			fprintf(out, "  %s: invalid setup: %s; no verdict%s "
				"(--allow-invalid to judge anyway)\n",
				t->labels[g], t->invalid[g],
				g ? "" : " for any configuration");
}

void facts_print_text(FILE *out, const struct run_rec *r)
{
	const char *scope = NULL;
	size_t col = 0;

	for (size_t i = 0; i < r->nr_facts; i++) {
		const struct fact *f = &r->facts[i];
		size_t w = strlen(f->key) + strlen(f->value) + 3;

		/* Cache modes and accepted ids are shown where they count;
		 * an unaffected CPU is no news (JSON has every fact). */
		if (!strcmp(f->scope, "cache") ||
		    (!strncmp(f->key, "mitigations.", 12) &&
		     !strcmp(f->value, "Not affected")))
			continue;
		if (!scope || strcmp(scope, f->scope)) {
			fprintf(out, "%s%s:", scope ? "\n" : "", f->scope);
			scope = f->scope;
			col = strlen(f->scope) + 1;
		}
		if (col + w > 79 && col > 20) {
			fprintf(out, "\n   ");
			col = 3;
		}
		fprintf(out, " %s=%s;", f->key, f->value);
		col += w;
	}
	if (scope)
		fputc('\n', out);
}
