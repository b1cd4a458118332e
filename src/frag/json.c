/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.c - a survey's figures out: phase metrics and JSON, free-space JSON.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frag/frag.h"
#include "frag/openq.h"
#include "util/util.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)

/* ---- figures out ---- */

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void frag_freesp_to_phase_metrics(const struct frag_freesp *fs,
				  struct phase_rec *p)
{
	if (!fs->available)
		return;
	phase_rec_add_metric(p, "free_B", (double)fs->free_bytes, "B",
			     BETTER_NONE);
	phase_rec_add_metric(p, "free_extents", (double)fs->free_extents,
			     "extents", BETTER_LOWER);
	phase_rec_add_metric(p, "free_max_extent_B", (double)fs->max_extent,
			     "B", BETTER_HIGHER);
	if (!fs->groups)
		return;
	phase_rec_add_metric(p, "free_group_frag_mean_pct", fs->grp_mean, "%",
			     BETTER_LOWER);
	phase_rec_add_metric(p, "free_group_frag_p95_pct", fs->grp_p95, "%",
			     BETTER_LOWER);
	phase_rec_add_metric(p, "free_group_frag_max_pct", fs->grp_max, "%",
			     BETTER_LOWER);
}

void frag_to_phase_metrics(const struct frag_result *r, struct phase_rec *p)
{
	char lab[48], name[80];

	p->files = r->files;
	p->bytes = r->bytes;
	phase_rec_add_metric(p, "files_scanned", (double)r->files, "files",
			     BETTER_NONE);
	phase_rec_add_metric(p, "scanned_B", (double)r->bytes, "B",
			     BETTER_NONE);
	phase_rec_add_metric(p, "files_fragmented", (double)r->frag_files,
			     "files", BETTER_LOWER);
	phase_rec_add_metric(p, "fragmented_pct",
			     pct(r->frag_files, r->files), "%", BETTER_LOWER);
	phase_rec_add_metric(p, "files_3plus_runs", (double)r->files_3plus,
			     "files", BETTER_LOWER);
	phase_rec_add_metric(p, "fragmented_B", (double)r->frag_bytes,
			     "B", BETTER_LOWER);
	phase_rec_add_metric(p, "fragmented_bytes_pct",
			     pct(r->frag_bytes, r->bytes), "%", BETTER_LOWER);
	phase_rec_add_metric(p, "extents", (double)r->extents, "extents",
			     BETTER_NONE);
	phase_rec_add_metric(p, "runs", (double)r->runs, "extents",
			     BETTER_NONE);
	phase_rec_add_metric(p, "runs_per_file",
			     r->files ? (double)r->runs / (double)r->files
				      : 0.0, "extents", BETTER_LOWER);
	phase_rec_add_metric(p, "layout_score", frag_layout_score(r), "ratio",
			     BETTER_HIGHER);
	phase_rec_add_metric(p, "locality_mean_gap_B",
			     r->loc_pairs ? r->loc_gap_sum /
						    (double)r->loc_pairs
					  : 0.0, "B", BETTER_LOWER);
	phase_rec_add_metric(p, "locality_adjacent_pct",
			     pct(r->loc_adjacent, r->loc_pairs), "%",
			     BETTER_HIGHER);
	phase_rec_add_metric(p, "unreadable", (double)r->unreadable, "files",
			     BETTER_NONE);
	phase_rec_add_metric(p, "vanished", (double)r->vanished, "files",
			     BETTER_NONE);
	phase_rec_add_metric(p, "errors", (double)r->errors, "files",
			     BETTER_NONE);
	phase_rec_add_metric(p, "no_fiemap", (double)r->nomap, "files",
			     BETTER_NONE);
	for (size_t i = 0; i < r->bins.nr; i++) {
		frag_bin_label(&r->bins, i, lab, sizeof(lab));
		snprintf(name, sizeof(name), "bin %s%s files",
			 frag_bin_group(&r->bins, i), lab);
		phase_rec_add_metric(p, name, (double)r->bin_files[i],
				     "files", BETTER_NONE);
		snprintf(name, sizeof(name), "bin %s%s fragmented",
			 frag_bin_group(&r->bins, i), lab);
		phase_rec_add_metric(p, name, (double)r->bin_frag[i],
				     "files", BETTER_LOWER);
	}
	for (size_t i = 0; i < FRAG_RUN_BUCKETS; i++) {
		frag_run_bucket_label(i, lab, sizeof(lab));
		snprintf(name, sizeof(name), "runs %s files", lab);
		phase_rec_add_metric(p, name, (double)r->run_hist[i], "files",
				     BETTER_NONE);
	}
}

static json_t *ju(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *frag_to_json(const struct frag_result *r)
{
	json_t *root = json_object(), *bins = json_array();
	json_t *hist = json_array(), *worst = json_array();
	json_t *o;
	char lab[48];

	json_object_set_new(root, "format_version",
			    json_integer(FRAG_JSON_FORMAT_VERSION));
	for (size_t i = 0; i < r->bins.nr; i++) {
		frag_bin_label(&r->bins, i, lab, sizeof(lab));
		o = json_object();
		json_object_set_new(o, "group",
				    json_string(frag_bin_group(&r->bins, i)));
		json_object_set_new(o, "label", json_string(lab));
		json_object_set_new(o, "lo", ju(r->bins.edge[i]));
		json_object_set_new(o, "hi", i + 1 < r->bins.nr
					     ? ju(r->bins.edge[i + 1])
					     : json_null());
		json_object_set_new(o, "files", ju(r->bin_files[i]));
		json_object_set_new(o, "fragmented", ju(r->bin_frag[i]));
		json_object_set_new(o, "fragmented_pct",
				    json_real(pct(r->bin_frag[i],
						  r->bin_files[i])));
		json_object_set_new(o, "bytes", ju(r->bin_bytes[i]));
		json_array_append_new(bins, o);
	}
	json_object_set_new(root, "bins", bins);
	json_object_set_new(root, "files", ju(r->files));
	json_object_set_new(root, "bytes", ju(r->bytes));
	json_object_set_new(root, "fragmented_files", ju(r->frag_files));
	json_object_set_new(root, "fragmented_pct",
			    json_real(pct(r->frag_files, r->files)));
	json_object_set_new(root, "files_3plus", ju(r->files_3plus));
	json_object_set_new(root, "fragmented_B", ju(r->frag_bytes));
	json_object_set_new(root, "fragmented_bytes_pct",
			    json_real(pct(r->frag_bytes, r->bytes)));
	json_object_set_new(root, "extents", ju(r->extents));
	json_object_set_new(root, "runs", ju(r->runs));
	for (size_t i = 0; i < FRAG_RUN_BUCKETS; i++) {
		frag_run_bucket_label(i, lab, sizeof(lab));
		o = json_object();
		json_object_set_new(o, "runs", json_string(lab));
		json_object_set_new(o, "files", ju(r->run_hist[i]));
		json_array_append_new(hist, o);
	}
	json_object_set_new(root, "runs_histogram", hist);
	o = json_object();
	json_object_set_new(o, "score", json_real(frag_layout_score(r)));
	json_object_set_new(o, "files", ju(r->layout_files));
	json_object_set_new(o, "blocks", ju(r->layout_blocks));
	json_object_set_new(o, "following", ju(r->layout_follow));
	json_object_set_new(root, "layout", o);
	o = json_object();
	json_object_set_new(o, "dirs", ju(r->loc_dirs));
	json_object_set_new(o, "pairs", ju(r->loc_pairs));
	json_object_set_new(o, "adjacent", ju(r->loc_adjacent));
	json_object_set_new(o, "mean_gap_bytes", json_real(r->loc_pairs
		? r->loc_gap_sum / (double)r->loc_pairs : 0.0));
	json_object_set_new(o, "mean_dir_gap_bytes", json_real(r->loc_dirs
		? r->loc_dir_mean_sum / (double)r->loc_dirs : 0.0));
	json_object_set_new(root, "locality", o);
	for (size_t i = 0; i < r->nr_worst; i++) {
		o = json_object();
		json_object_set_new(o, "path", json_string(r->worst[i].path));
		json_object_set_new(o, "runs", ju(r->worst[i].runs));
		json_object_set_new(o, "extents", ju(r->worst[i].extents));
		json_object_set_new(o, "size", ju(r->worst[i].size));
		json_array_append_new(worst, o);
	}
	json_object_set_new(root, "worst", worst);
	o = json_object();
	json_object_set_new(o, "inline", ju(r->f_inline));
	json_object_set_new(o, "delalloc", ju(r->f_delalloc));
	json_object_set_new(o, "unknown", ju(r->f_unknown));
	json_object_set_new(o, "encoded", ju(r->f_encoded));
	json_object_set_new(o, "unwritten", ju(r->f_unwritten));
	json_object_set_new(o, "shared", ju(r->f_shared));
	json_object_set_new(root, "flagged_files", o);
	o = json_object();
	json_object_set_new(o, "dirs", ju(r->dirs));
	json_object_set_new(o, "unreadable", ju(r->unreadable));
	json_object_set_new(o, "vanished", ju(r->vanished));
	json_object_set_new(o, "errors", ju(r->errors));
	json_object_set_new(o, "no_fiemap", ju(r->nomap));
	json_object_set_new(o, "mounts_skipped", ju(r->mounts_skipped));
	json_object_set_new(o, "special", ju(r->special));
	json_object_set_new(o, "io_uring", json_boolean(r->io_uring));
	json_object_set_new(root, "walk", o);
	json_object_set_new(root, "elapsed_s", json_real(r->elapsed_s));
	return root;
}


json_t *frag_freesp_json(const struct frag_freesp *fs)
{
	json_t *o = json_object(), *bins, *g;

	json_object_set_new(o, "available", json_boolean(fs->available));
	if (!fs->available) {
		json_object_set_new(o, "reason", json_string(fs->why));
		return o;
	}
	json_object_set_new(o, "tool", json_string(fs->tool));
	json_object_set_new(o, "device", json_string(fs->device));
	json_object_set_new(o, "fstype", json_string(fs->fstype));
	json_object_set_new(o, "block_size", ju(fs->blksize));
	json_object_set_new(o, "free_bytes", ju(fs->free_bytes));
	json_object_set_new(o, "free_extents", ju(fs->free_extents));
	json_object_set_new(o, "max_extent_bytes", ju(fs->max_extent));
	bins = json_array();
	for (size_t i = 0; i < fs->nr_bins; i++) {
		json_t *b = json_object();

		json_object_set_new(b, "lo", ju(fs->bins[i].lo));
		json_object_set_new(b, "hi", ju(fs->bins[i].hi));
		json_object_set_new(b, "extents", ju(fs->bins[i].extents));
		json_object_set_new(b, "bytes", ju(fs->bins[i].bytes));
		json_array_append_new(bins, b);
	}
	json_object_set_new(o, "histogram", bins);
	g = json_object();
	json_object_set_new(g, "groups", ju(fs->groups));
	json_object_set_new(g, "mean", json_real(fs->grp_mean));
	json_object_set_new(g, "p50", json_real(fs->grp_p50));
	json_object_set_new(g, "p95", json_real(fs->grp_p95));
	json_object_set_new(g, "max", json_real(fs->grp_max));
	json_object_set_new(o, "group_frag_pct", g);
	return o;
}
