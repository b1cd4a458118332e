// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file.c - export files: the envelope (format name, version, source
 * host, checksum) around the runs, compression through libarchive's
 * filters, and the import into a store in one transaction.
 *
 * The checksum is SHA-256 over the canonical form (compact, keys
 * sorted) of the "runs" array, so a reader recomputes it from what it
 * parsed: a truncated file fails to parse or to decompress, an edited
 * one fails the checksum, and either is refused before anything is
 * written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "store/store.h"
#include "store/writer.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/jsonout.h"
#include "util/outfile.h"
#include "util/util.h"
#include "util/version.h"
#include "xfer/internal.h"

#define XFER_FORMAT_NAME "fslab-export"

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static int add_filter(struct archive *a, const char *path)
{
	if (ends_with(path, ".gz"))
		return archive_write_add_filter_gzip(a);
	if (ends_with(path, ".xz"))
		return archive_write_add_filter_xz(a);
	if (ends_with(path, ".zst"))
		return archive_write_add_filter_zstd(a);
	return archive_write_add_filter_none(a);
}

/* Write buf to path (see util/outfile.h), through the compression its
 * name asks for. */
static int write_file(const char *path, const char *buf, size_t len)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	struct outfile of;
	int fd, rc = -1;

	if (!outfile_open(&of, path))
		goto out;
	fflush(of.f);
	fd = fileno(of.f);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_pathname(e, "runs.json");
	archive_entry_set_size(e, (la_int64_t)len);
	if (add_filter(a, path) != ARCHIVE_OK ||
	    archive_write_set_format_raw(a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
	    archive_write_open_fd(a, fd) != ARCHIVE_OK ||
	    archive_write_header(a, e) != ARCHIVE_OK ||
	    archive_write_data(a, buf, len) != (la_ssize_t)len ||
	    archive_write_close(a) != ARCHIVE_OK) {
		error("cannot write '%s': %s", path, archive_error_string(a) ?
		      archive_error_string(a) : "unknown error");
		goto out;
	}
	rc = 0;
out:
	archive_entry_free(e);
	archive_write_free(a);
	if (of.f && outfile_finish(&of, !rc) < 0)
		rc = -1;
	return rc;
}

int xfer_export(const char *path, struct run_rec *const *runs, size_t n)
{
	json_t *root = json_object(), *arr = json_array();
	char *canon, *text, sum[65];
	struct utsname u;
	int rc;

	for (size_t i = 0; i < n; i++) {
		if (!runs[i]->uuid) {
			json_decref(root);
			json_decref(arr);
			return error("run %lld has no global id (a read-only "
				     "store older than this fslab)",
				     (long long)runs[i]->id);
		}
		if (runs[i]->status && !strcmp(runs[i]->status, "running")) {
			json_decref(root);
			json_decref(arr);
			return error("run %lld is still running: export it when "
				     "it has finished", (long long)runs[i]->id);
		}
		jout_push(arr, xfer_run_json(runs[i], true));
	}
	canon = json_dumps(arr, XFER_CANONICAL);
	if (!canon)
		die("out of memory writing JSON");
	sha256_hex(canon, strlen(canon), sum);
	free(canon);
	jout_set(root, "format", jout_str(XFER_FORMAT_NAME));
	jout_set(root, "format_version",
			    json_integer(XFER_FORMAT_VERSION));
	jout_set(root, "about", jout_str(
		"fslab results: whole runs with their provenance, targets, "
		"workload runs and phases; import with 'fslab import FILE'. "
		"sha256 is over runs in compact JSON with sorted keys."));
	jout_set(root, "fslab_version", jout_str(FSLAB_VERSION));
	jout_set(root, "exported", json_integer(time(NULL)));
	jout_set(root, "source_host",
			    jout_str(uname(&u) ? "unknown" : u.nodename));
	jout_set(root, "nr_runs", json_integer((json_int_t)n));
	jout_set(root, "sha256", jout_str(sum));
	jout_set(root, "runs", arr);
	text = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(root);
	if (!text)
		die("out of memory writing JSON");
	rc = write_file(path, text, strlen(text));
	free(text);
	return rc;
}

/* ---- reading ---- */

/* The whole (decompressed) content of path; NULL after a message. */
static char *read_export(const char *path, size_t *len)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	struct strbuf b = STRBUF_INIT;
	char chunk[65536];
	la_ssize_t got;
	int fd, rc;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot open '%s'", path);
		archive_read_free(a);
		return NULL;
	}
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	archive_read_support_format_empty(a);
	rc = archive_read_open_fd(a, fd, 65536);
	if (rc == ARCHIVE_OK)
		rc = archive_read_next_header(a, &e);
	if (rc == ARCHIVE_EOF) {
		error("'%s' is empty: not an fslab export", path);
		goto fail;
	}
	if (rc != ARCHIVE_OK)
		goto fail_ar;
	while ((got = archive_read_data(a, chunk, sizeof(chunk))) > 0)
		strbuf_add(&b, chunk, (size_t)got);
	if (got < 0)
		goto fail_ar;
	archive_read_free(a);
	close(fd);
	*len = b.len;
	return strbuf_detach(&b, NULL);
fail_ar:
	error("cannot read '%s' (truncated or corrupt?): %s", path,
	      archive_error_string(a) ? archive_error_string(a) : "error");
fail:
	strbuf_release(&b);
	archive_read_free(a);
	close(fd);
	return NULL;
}

/*
 * Bring root from an older format_version up to the current one, one
 * step at a time.  Version 1 is the first, so there is no step yet; the
 * next format adds its step here (e.g. a renamed field).
 */
static int upgrade(json_t *root, json_int_t from, const char *path)
{
	(void)root;
	if (from < 1)
		return error("'%s': format version %lld is not one fslab "
			     "ever wrote", path, (long long)from);
	return 0;
}

/* Parse and check one file; its runs array (a new reference) or NULL. */
static json_t *load_checked(const char *path, const char **source)
{
	json_error_t jerr;
	json_t *root, *runs;
	const char *fmt, *sum, *src;
	json_int_t version;
	char *text, *canon, mine[65];
	size_t len;

	text = read_export(path, &len);
	if (!text)
		return NULL;
	root = json_loadb(text, len, 0, &jerr);
	free(text);
	if (!root) {
		error("'%s' is not a complete fslab export (truncated or "
		      "damaged?): %s at line %d", path, jerr.text, jerr.line);
		return NULL;
	}
	if (json_unpack(root, "{s:s, s:I}", "format", &fmt, "format_version",
			&version) || strcmp(fmt, XFER_FORMAT_NAME)) {
		error("'%s' is not an fslab export file", path);
		goto fail;
	}
	if (version > XFER_FORMAT_VERSION) {
		error("'%s' has export format version %lld; this fslab reads "
		      "up to %d: import it with a newer fslab", path,
		      (long long)version, XFER_FORMAT_VERSION);
		goto fail;
	}
	runs = json_object_get(root, "runs");
	sum = json_string_value(json_object_get(root, "sha256"));
	if (!json_is_array(runs) || !sum) {
		error("'%s' has no runs or no checksum: not a complete fslab "
		      "export", path);
		goto fail;
	}
	canon = json_dumps(runs, XFER_CANONICAL);
	if (!canon)
		die("out of memory writing JSON");
	sha256_hex(canon, strlen(canon), mine);
	free(canon);
	if (strcmp(mine, sum)) {
		error("'%s' fails its checksum: the runs were changed or "
		      "damaged after export; nothing imported", path);
		goto fail;
	}
	if (version < XFER_FORMAT_VERSION && upgrade(root, version, path))
		goto fail;
	src = json_string_value(json_object_get(root, "source_host"));
	*source = src ? xstrdup(src) : NULL;
	json_incref(runs);
	json_decref(root);
	return runs;
fail:
	json_decref(root);
	return NULL;
}

/* The same run (by id) stored in st: does it hold what r holds? */
static int check_same(struct store *st, int64_t id, const struct run_rec *r,
		      const char *path)
{
	struct run_rec *have;
	char *a, *b;
	int rc = 0;

	if (store_load_run(st, id, &have))
		return -1;
	a = xfer_run_canonical(have);
	b = xfer_run_canonical(r);
	if (strcmp(a, b))
		rc = error("run %s in '%s' conflicts with run %lld in '%s': "
			   "same global id, different content; nothing "
			   "imported", r->uuid, path, (long long)id,
			   store_path(st));
	free(a);
	free(b);
	run_rec_free(have);
	return rc;
}

static int import_runs(struct store *st, const json_t *runs,
		       const char *source, const char *path,
		       struct xfer_stats *stats)
{
	size_t i;
	const json_t *v;

	json_array_foreach(runs, i, v) {
		const char *why = NULL;
		struct run_rec *r = xfer_run_read(v, &why);
		int64_t id;

		if (!r)
			return error("'%s': run %zu is malformed (%s); "
				     "nothing imported", path, i + 1, why);
		if (store_run_by_uuid(st, r->uuid, &id)) {
			run_rec_free(r);
			return -1;
		}
		if (id) {
			int rc = check_same(st, id, r, path);

			run_rec_free(r);
			if (rc)
				return -1;
			stats->present++;
			continue;
		}
		/* The first export names where a run came from; passing it
		 * on keeps that, not the last machine it went through. */
		if (!r->source_host && source)
			r->source_host = xstrdup(source);
		if (writer_write_run(st, r)) {
			run_rec_free(r);
			return -1;
		}
		run_rec_free(r);
		stats->added++;
	}
	return 0;
}

int xfer_import(struct store *st, const char *const *paths, size_t n,
		struct xfer_stats *stats)
{
	json_t **runs = xcalloc(n + 1, sizeof(*runs));
	char **sources = xcalloc(n + 1, sizeof(*sources));
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	/* Every file checked before the first write. */
	for (size_t i = 0; i < n; i++) {
		const char *src = NULL;

		runs[i] = load_checked(paths[i], &src);
		sources[i] = (char *)src;
		if (!runs[i])
			goto out;
	}
	if (store_tx_begin(st))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (import_runs(st, runs[i], sources[i], paths[i], stats)) {
			store_tx_rollback(st);
			memset(stats, 0, sizeof(*stats));
			goto out;
		}
	if (store_tx_commit(st)) {
		memset(stats, 0, sizeof(*stats));
		goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < n; i++) {
		json_decref(runs[i]);
		free(sources[i]);
	}
	free(runs);
	free(sources);
	return rc;
}
