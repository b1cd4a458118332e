/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text.c - the text report of `fslab frag`.  The first part copies
 * the layout of the histogram in the getdents mail line for line; the
 * rest (layout score, runs per file, locality, worst files, what could
 * not be scanned) follows in the same '|' table style.
 */
#include <inttypes.h>
#include <string.h>

#include "frag/text.h"

#include "util/util.h"

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "7GB": the largest unit that keeps the figure at least 1, rounded. */
static void frag_fmt_bytes(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB",
					     "PB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024.0 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024.0;
		u++;
	}
	snprintf(buf, len, "%.0f%s", v, units[u]);
}

/* "0" for nothing, as in the mail; two decimals otherwise. */
static void fmt_pct(char *buf, size_t len, uint64_t part, uint64_t whole)
{
	if (!part)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.2f", pct(part, whole));
}

static void print_bins(FILE *out, const struct frag_result *r)
{
	const char *group = NULL;
	bool header = false;

	for (size_t i = 0; i < r->bins.nr; i++) {
		const char *g = frag_bin_group(&r->bins, i);
		char lab[48], p[16];

		if (!group || strcmp(g, group)) {
			uint64_t n = 0;

			for (size_t j = i; j < r->bins.nr &&
			     !strcmp(frag_bin_group(&r->bins, j), g); j++)
				n += r->bin_files[j];
			fprintf(out, "* %s size files - total: %" PRIu64
				" (%.2f%%)\n", g, n, pct(n, r->files));
			group = g;
			if (!header) {
				fprintf(out, "| Size range | File cnt | "
					"Fragmented | Fragmented %% |\n");
				header = true;
			}
		}
		frag_bin_label(&r->bins, i, lab, sizeof(lab));
		fmt_pct(p, sizeof(p), r->bin_frag[i], r->bin_files[i]);
		fprintf(out, "| %s | %" PRIu64 " | %" PRIu64 " | %s |\n", lab,
			r->bin_files[i], r->bin_frag[i], p);
	}
}

static void print_extra(FILE *out, const struct frag_result *r)
{
	char a[32], b[32];

	fprintf(out, "\nLayout score: %.4f over %" PRIu64 " files of 2+ "
		"blocks\n", frag_layout_score(r), r->layout_files);
	fprintf(out, "Extents: %" PRIu64 " as mapped, %" PRIu64
		" physically separate runs (%.2f per file)\n", r->extents,
		r->runs, r->files ? (double)r->runs / (double)r->files : 0.0);
	fprintf(out, "| Runs | File cnt | %% |\n");
	for (size_t i = 0; i < FRAG_RUN_BUCKETS; i++) {
		if (!r->run_hist[i])
			continue;
		frag_run_bucket_label(i, a, sizeof(a));
		fprintf(out, "| %s | %" PRIu64 " | %.2f |\n", a,
			r->run_hist[i], pct(r->run_hist[i], r->files));
	}
	frag_fmt_bytes(a, sizeof(a), r->loc_pairs ? (uint64_t)(
			       r->loc_gap_sum / (double)r->loc_pairs) : 0);
	frag_fmt_bytes(b, sizeof(b), r->loc_dirs ? (uint64_t)(
			       r->loc_dir_mean_sum / (double)r->loc_dirs) : 0);
	fprintf(out, "Inter-file locality: %" PRIu64 " neighbour pairs in %"
		PRIu64 " dirs, mean gap %s (per-dir mean %s), %.2f%% "
		"adjacent\n", r->loc_pairs, r->loc_dirs, a, b,
		pct(r->loc_adjacent, r->loc_pairs));
	if (r->nr_worst) {
		fprintf(out, "Worst %zu files:\n| Runs | Extents | Size | "
			"Path |\n", r->nr_worst);
		for (size_t i = 0; i < r->nr_worst; i++) {
			frag_fmt_bytes(a, sizeof(a), r->worst[i].size);
			fprintf(out, "| %" PRIu64 " | %" PRIu64
				" | %s | %s |\n", r->worst[i].runs,
				r->worst[i].extents, a, r->worst[i].path);
		}
	}
	if (r->f_inline || r->f_delalloc || r->f_unknown || r->f_encoded ||
	    r->f_unwritten || r->f_shared)
		fprintf(out, "Files with flagged extents: %" PRIu64
			" inline, %" PRIu64 " delalloc, %" PRIu64
			" unknown, %" PRIu64 " encoded, %" PRIu64
			" unwritten, %" PRIu64 " shared\n", r->f_inline,
			r->f_delalloc, r->f_unknown, r->f_encoded,
			r->f_unwritten, r->f_shared);
	fprintf(out, "Not scanned: %" PRIu64 " unreadable, %" PRIu64
		" vanished, %" PRIu64 " errors; %" PRIu64 " without FIEMAP, %"
		PRIu64 " mount points skipped, %" PRIu64 " not regular files\n",
		r->unreadable, r->vanished, r->errors, r->nomap,
		r->mounts_skipped, r->special);
	fprintf(out, "Scanned %" PRIu64 " dirs in %.2f s (%.0f files/s)\n",
		r->dirs, r->elapsed_s, r->elapsed_s > 0 ?
		(double)r->files / r->elapsed_s : 0.0);
}

/* The bins and the three summary lines the classic script printed. */
static void print_summary(FILE *out, const struct frag_result *r)
{
	char sz[32];

	print_bins(out, r);
	fprintf(out, "All files scanned: %" PRIu64 "\n", r->files);
	/* Without FIEMAP a file has no extents to count: 0 would be a lie. */
	if (r->files && r->nomap >= r->files) {
		fprintf(out, "Files fragmented: unknown (the filesystem does "
			"not support FIEMAP)\n");
		fprintf(out, "Total size of fragmented files: unknown\n");
		return;
	}
	if (r->nomap)
		fprintf(out, "(%" PRIu64 " files without FIEMAP are counted "
			"as unfragmented)\n", r->nomap);
	fprintf(out, "Files fragmented: %" PRIu64 " (%.3f%%) where %" PRIu64
		" have 3+ extents\n", r->frag_files,
		pct(r->frag_files, r->files), r->files_3plus);
	frag_fmt_bytes(sz, sizeof(sz), r->frag_bytes);
	fprintf(out, "Total size of fragmented files: %s (~%.0f%% of dir "
		"size)\n", sz, pct(r->frag_bytes, r->bytes));
}

void frag_print_text(FILE *out, const struct frag_result *r)
{
	print_summary(out, r);
	print_extra(out, r);
}

void frag_print_freesp(FILE *out, const char *path,
		       const struct frag_freesp *fs)
{
	char a[32], b[32], c[32];

	if (!fs->available) {
		fprintf(out, "\nFree space of '%s': unavailable (%s)\n", path,
			fs->why);
		return;
	}
	frag_fmt_bytes(a, sizeof(a), fs->free_bytes);
	frag_fmt_bytes(b, sizeof(b), fs->max_extent);
	fprintf(out, "\nFree space of %s (%s, %s): %s in %" PRIu64
		" extents, largest %s\n", fs->device, fs->fstype, fs->tool, a,
		fs->free_extents, b);
	fprintf(out, "| Free extent size | Extents | Bytes | %% |\n");
	for (size_t i = 0; i < fs->nr_bins; i++) {
		frag_fmt_bytes(a, sizeof(a), fs->bins[i].lo);
		frag_fmt_bytes(b, sizeof(b), fs->bins[i].hi);
		frag_fmt_bytes(c, sizeof(c), fs->bins[i].bytes);
		fprintf(out, "| [%s,%s) | %" PRIu64 " | %s | %.2f |\n", a, b,
			fs->bins[i].extents, c,
			pct(fs->bins[i].bytes, fs->free_bytes));
	}
	if (fs->groups)
		fprintf(out, "Per-group free-space fragmentation "
			"100*(1-largest/free) over %zu groups: mean %.1f, "
			"p50 %.1f, p95 %.1f, max %.1f\n", fs->groups,
			fs->grp_mean, fs->grp_p50, fs->grp_p95, fs->grp_max);
}

static uint64_t stored(const struct phase_rec *p, const char *name)
{
	const struct metric *m = phase_rec_metric(p, name);

	return m && m->value > 0 ? (uint64_t)(m->value + 0.5) : 0;
}

static double stored_d(const struct phase_rec *p, const char *name)
{
	const struct metric *m = phase_rec_metric(p, name);

	return m ? m->value : 0;
}

void frag_print_stored(FILE *out, const struct phase_rec *p,
		       const struct frag_bins *b)
{
	struct frag_result *r = xcalloc(1, sizeof(*r));
	char lab[48], name[96], sz[32];

	r->bins = *b;
	for (size_t i = 0; i < b->nr; i++) {
		frag_bin_label(b, i, lab, sizeof(lab));
		snprintf(name, sizeof(name), "bin %s%s files",
			 frag_bin_group(b, i), lab);
		r->bin_files[i] = stored(p, name);
		snprintf(name, sizeof(name), "bin %s%s fragmented",
			 frag_bin_group(b, i), lab);
		r->bin_frag[i] = stored(p, name);
	}
	r->files = stored(p, "files_scanned");
	r->bytes = stored(p, "scanned_B");
	r->frag_files = stored(p, "files_fragmented");
	r->files_3plus = stored(p, "files_3plus_runs");
	r->frag_bytes = stored(p, "fragmented_B");
	r->nomap = stored(p, "no_fiemap");
	print_summary(out, r);
	fprintf(out, "\nLayout score: %.4f\n", stored_d(p, "layout_score"));
	fprintf(out, "Extents: %" PRIu64 " as mapped, %" PRIu64
		" physically separate runs (%.2f per file)\n",
		stored(p, "extents"), stored(p, "runs"),
		stored_d(p, "runs_per_file"));
	fprintf(out, "| Runs | File cnt | %% |\n");
	for (size_t i = 0; i < FRAG_RUN_BUCKETS; i++) {
		uint64_t n;

		frag_run_bucket_label(i, lab, sizeof(lab));
		snprintf(name, sizeof(name), "runs %s files", lab);
		if ((n = stored(p, name)))
			fprintf(out, "| %s | %" PRIu64 " | %.2f |\n", lab, n,
				pct(n, r->files));
	}
	frag_fmt_bytes(sz, sizeof(sz), stored(p, "locality_mean_gap_B"));
	fprintf(out, "Inter-file locality: mean gap %s, %.2f%% adjacent\n",
		sz, stored_d(p, "locality_adjacent_pct"));
	fprintf(out, "Not scanned: %" PRIu64 " unreadable, %" PRIu64
		" vanished, %" PRIu64 " errors; %" PRIu64 " without FIEMAP\n",
		stored(p, "unreadable"), stored(p, "vanished"),
		stored(p, "errors"), stored(p, "no_fiemap"));
	if (phase_rec_metric(p, "free_B")) {
		char a[32], c[32];

		frag_fmt_bytes(a, sizeof(a), stored(p, "free_B"));
		frag_fmt_bytes(c, sizeof(c), stored(p, "free_max_extent_B"));
		fprintf(out, "Free space: %s in %" PRIu64 " extents, largest "
			"%s\n", a, stored(p, "free_extents"), c);
	}
	free(r);
}
