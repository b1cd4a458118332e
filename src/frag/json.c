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
#include "util/jsonout.h"
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

json_t *frag_to_json(const struct frag_result *r)
{
	json_t *root = json_object(), *bins = json_array();
	json_t *hist = json_array(), *worst = json_array();
	json_t *o;
	char lab[48];

	jout_set(root, "format_version",
			    json_integer(FRAG_JSON_FORMAT_VERSION));
	for (size_t i = 0; i < r->bins.nr; i++) {
		frag_bin_label(&r->bins, i, lab, sizeof(lab));
		o = json_object();
		jout_set(o, "group",
				    jout_str(frag_bin_group(&r->bins, i)));
		jout_set(o, "label", jout_str(lab));
		jout_set(o, "lo", jout_u64(r->bins.edge[i]));
		jout_set(o, "hi", i + 1 < r->bins.nr
					     ? jout_u64(r->bins.edge[i + 1])
					     : json_null());
		jout_set(o, "files", jout_u64(r->bin_files[i]));
		jout_set(o, "fragmented", jout_u64(r->bin_frag[i]));
		jout_set(o, "fragmented_pct",
				    jout_num(pct(r->bin_frag[i],
						  r->bin_files[i])));
		jout_set(o, "bytes", jout_u64(r->bin_bytes[i]));
		jout_push(bins, o);
	}
	jout_set(root, "bins", bins);
	jout_set(root, "files", jout_u64(r->files));
	jout_set(root, "bytes", jout_u64(r->bytes));
	jout_set(root, "fragmented_files", jout_u64(r->frag_files));
	jout_set(root, "fragmented_pct",
			    jout_num(pct(r->frag_files, r->files)));
	jout_set(root, "files_3plus", jout_u64(r->files_3plus));
	jout_set(root, "fragmented_B", jout_u64(r->frag_bytes));
	jout_set(root, "fragmented_bytes_pct",
			    jout_num(pct(r->frag_bytes, r->bytes)));
	jout_set(root, "extents", jout_u64(r->extents));
	jout_set(root, "runs", jout_u64(r->runs));
	for (size_t i = 0; i < FRAG_RUN_BUCKETS; i++) {
		frag_run_bucket_label(i, lab, sizeof(lab));
		o = json_object();
		jout_set(o, "runs", jout_str(lab));
		jout_set(o, "files", jout_u64(r->run_hist[i]));
		jout_push(hist, o);
	}
	jout_set(root, "runs_histogram", hist);
	o = json_object();
	jout_set(o, "score", jout_num(frag_layout_score(r)));
	jout_set(o, "files", jout_u64(r->layout_files));
	jout_set(o, "blocks", jout_u64(r->layout_blocks));
	jout_set(o, "following", jout_u64(r->layout_follow));
	jout_set(root, "layout", o);
	o = json_object();
	jout_set(o, "dirs", jout_u64(r->loc_dirs));
	jout_set(o, "pairs", jout_u64(r->loc_pairs));
	jout_set(o, "adjacent", jout_u64(r->loc_adjacent));
	jout_set(o, "mean_gap_bytes", jout_num(r->loc_pairs
		? r->loc_gap_sum / (double)r->loc_pairs : 0.0));
	jout_set(o, "mean_dir_gap_bytes", jout_num(r->loc_dirs
		? r->loc_dir_mean_sum / (double)r->loc_dirs : 0.0));
	jout_set(root, "locality", o);
	for (size_t i = 0; i < r->nr_worst; i++) {
		o = json_object();
		jout_set(o, "path", jout_str(r->worst[i].path));
		jout_set(o, "runs", jout_u64(r->worst[i].runs));
		jout_set(o, "extents", jout_u64(r->worst[i].extents));
		jout_set(o, "size", jout_u64(r->worst[i].size));
		jout_push(worst, o);
	}
	jout_set(root, "worst", worst);
	o = json_object();
	jout_set(o, "inline", jout_u64(r->f_inline));
	jout_set(o, "delalloc", jout_u64(r->f_delalloc));
	jout_set(o, "unknown", jout_u64(r->f_unknown));
	jout_set(o, "encoded", jout_u64(r->f_encoded));
	jout_set(o, "unwritten", jout_u64(r->f_unwritten));
	jout_set(o, "shared", jout_u64(r->f_shared));
	jout_set(root, "flagged_files", o);
	o = json_object();
	jout_set(o, "dirs", jout_u64(r->dirs));
	jout_set(o, "unreadable", jout_u64(r->unreadable));
	jout_set(o, "vanished", jout_u64(r->vanished));
	jout_set(o, "errors", jout_u64(r->errors));
	jout_set(o, "no_fiemap", jout_u64(r->nomap));
	jout_set(o, "mounts_skipped", jout_u64(r->mounts_skipped));
	jout_set(o, "special", jout_u64(r->special));
	jout_set(o, "io_uring", json_boolean(r->io_uring));
	jout_set(root, "walk", o);
	jout_set(root, "elapsed_s", jout_num(r->elapsed_s));
	return root;
}


json_t *frag_freesp_json(const struct frag_freesp *fs)
{
	json_t *o = json_object(), *bins, *g;

	jout_set(o, "available", json_boolean(fs->available));
	if (!fs->available) {
		jout_set(o, "reason", jout_str(fs->why));
		return o;
	}
	jout_set(o, "tool", jout_str(fs->tool));
	jout_set(o, "device", jout_str(fs->device));
	jout_set(o, "fstype", jout_str(fs->fstype));
	jout_set(o, "block_size", jout_u64(fs->blksize));
	jout_set(o, "free_bytes", jout_u64(fs->free_bytes));
	jout_set(o, "free_extents", jout_u64(fs->free_extents));
	jout_set(o, "max_extent_bytes", jout_u64(fs->max_extent));
	bins = json_array();
	for (size_t i = 0; i < fs->nr_bins; i++) {
		json_t *b = json_object();

		jout_set(b, "lo", jout_u64(fs->bins[i].lo));
		jout_set(b, "hi", jout_u64(fs->bins[i].hi));
		jout_set(b, "extents", jout_u64(fs->bins[i].extents));
		jout_set(b, "bytes", jout_u64(fs->bins[i].bytes));
		jout_push(bins, b);
	}
	jout_set(o, "histogram", bins);
	g = json_object();
	jout_set(g, "groups", jout_u64(fs->groups));
	jout_set(g, "mean", jout_num(fs->grp_mean));
	jout_set(g, "p50", jout_num(fs->grp_p50));
	jout_set(g, "p95", jout_num(fs->grp_p95));
	jout_set(g, "max", jout_num(fs->grp_max));
	jout_set(o, "group_frag_pct", g);
	return o;
}
