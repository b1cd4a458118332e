/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * golden.c - save, describe, checksum and copy aged golden images.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fs/golden.h"
#include "fs/safedir.h"
#include "util/outfile.h"
#include "util/util.h"

#define COPY_CHUNK (8u << 20)
#define SUM_BLOCK 4096

bool golden_name_ok(const char *name)
{
	if (!*name || *name == '.' || strlen(name) > 100)
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' ||
		      *c == '-'))
			return false;
	return true;
}

char *golden_image_path(const char *scratch, const char *name)
{
	return xasprintf("%s/golden/%s.img", scratch, name);
}

char *golden_meta_path(const char *scratch, const char *name)
{
	return xasprintf("%s/golden/%s.meta", scratch, name);
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? xstrndup(path, (size_t)(slash - path) + (slash == path))
		     : xstrdup(".");
}

static int copy_range(int in, int out, const char *src, off_t off,
		      off_t end)
{
	static char *buf;

	while (off < end) {
		size_t n = (size_t)(end - off) < COPY_CHUNK ?
			   (size_t)(end - off) : COPY_CHUNK;
		loff_t io = off, oo = off;
		ssize_t r = copy_file_range(in, &io, out, &oo, n, 0);

		if (r > 0) {
			off += r;
			continue;
		}
		if (r == 0)
			return error("'%s' shrank while copying", src);
		if (errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
		    errno != EOPNOTSUPP)
			return error_errno("cannot copy '%s'", src);
		/* Not between these filesystems: copy by hand. */
		if (!buf)
			buf = xmalloc(COPY_CHUNK);
		r = pread(in, buf, n, off);
		if (r <= 0)
			return error_errno("cannot read '%s'", src);
		if (pwrite(out, buf, (size_t)r, off) != r)
			return error_errno("cannot write the copy of '%s'",
					   src);
		off += r;
	}
	return 0;
}

int golden_copy(const char *src, const char *dst)
{
	struct statvfs sv;
	struct stat st;
	char *dir;
	int in, out, rc = -1;
	off_t off = 0;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return error_errno("cannot open '%s'", src);
	if (fstat(in, &st) < 0) {
		close(in);
		return error_errno("cannot stat '%s'", src);
	}
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0) {
		close(in);
		return error_errno("cannot create '%s'", dst);
	}
	if (ioctl(out, FICLONE, in) == 0) {
		rc = 0;
		goto out;
	}
	dir = dir_of(dst);
	if (statvfs(dir, &sv) == 0) {
		uint64_t need = (uint64_t)st.st_blocks * 512;
		uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		/* Leave the host a little air: 64 MiB or 1 %. */
		uint64_t spare = (uint64_t)sv.f_blocks * sv.f_frsize / 100;

		if (spare < (64ULL << 20))
			spare = 64ULL << 20;
		if (avail < need + spare) {
			char a[32], b[32], c[32];

			error("not enough space in '%s' for a copy of '%s': "
			      "it needs %s (+%s spare), %s free", dir, src,
			      fmt_size(a, sizeof(a), need),
			      fmt_size(b, sizeof(b), spare),
			      fmt_size(c, sizeof(c), avail));
			free(dir);
			rc = -2;
			goto out;
		}
	}
	free(dir);
	for (;;) {
		off_t data = lseek(in, off, SEEK_DATA), hole;

		if (data < 0) {
			if (errno == ENXIO)
				break;
			error_errno("cannot seek in '%s'", src);
			goto out;
		}
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0) {
			error_errno("cannot seek in '%s'", src);
			goto out;
		}
		if (copy_range(in, out, src, data, hole) < 0)
			goto out;
		off = hole;
	}
	if (ftruncate(out, st.st_size) < 0) {
		error_errno("cannot size '%s'", dst);
		goto out;
	}
	if (fsync(out) < 0) {
		error_errno("cannot sync '%s'", dst);
		goto out;
	}
	rc = 0;
out:
	close(in);
	if (close(out) < 0 && !rc)
		rc = error_errno("cannot close '%s'", dst);
	if (rc)
		unlink(dst);
	return rc;
}

static bool all_zero(const uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (w[i])
			return false;
	return true;
}

int golden_checksum(const char *path, char *out, size_t len)
{
	const uint64_t prime = 0x100000001b3ULL;
	uint64_t h = 0xcbf29ce484222325ULL, *buf;
	off_t off = 0;
	int fd, rc = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	buf = xmalloc(COPY_CHUNK);
	for (;;) {
		off_t data = lseek(fd, off, SEEK_DATA), hole;

		if (data < 0) {
			if (errno == ENXIO)
				break;
			error_errno("cannot seek in '%s'", path);
			goto out;
		}
		hole = lseek(fd, data, SEEK_HOLE);
		/* Blocks are checksummed at fixed 4 KiB offsets. */
		data -= data % SUM_BLOCK;
		while (data < hole) {
			size_t n = (size_t)(hole - data) < COPY_CHUNK ?
				   (size_t)(hole - data) : COPY_CHUNK;
			ssize_t r = pread(fd, buf, n, data);

			if (r <= 0) {
				error_errno("cannot read '%s'", path);
				goto out;
			}
			if (r % SUM_BLOCK)
				memset((char *)buf + r, 0,
				       SUM_BLOCK - (size_t)r % SUM_BLOCK);
			for (ssize_t b = 0; b < r; b += SUM_BLOCK) {
				const uint64_t *w = buf + b / 8;

				if (all_zero(w, SUM_BLOCK / 8))
					continue;
				h = (h ^ (uint64_t)(data + b)) * prime;
				for (size_t i = 0; i < SUM_BLOCK / 8; i++)
					h = (h ^ w[i]) * prime;
			}
			data += r;
		}
		off = hole;
	}
	snprintf(out, len, "fnv1a64w:%016llx", (unsigned long long)h);
	rc = 0;
out:
	free(buf);
	close(fd);
	return rc;
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

int golden_save(const char *scratch, const char *name, const char *image,
		struct golden_meta *m)
{
	char *dir = xasprintf("%s/golden", scratch);
	char *img = golden_image_path(scratch, name);
	char *meta = golden_meta_path(scratch, name);
	char *tmp = xasprintf("%s.tmp", img), sum[64], why[512];
	struct stat st;
	struct outfile of;
	FILE *f = NULL;
	int rc = -1;

	if (mkdir_p(dir, 0700) < 0) {
		error_errno("cannot create '%s'", dir);
		goto out;
	}
	/* aged: targets start from what is here: it must stay ours. */
	if (safedir_check(dir, why, sizeof(why)) < 0) {
		error("cannot save into '%s': %s", dir, why);
		goto out;
	}
	unlink(tmp);
	if ((rc = golden_copy(image, tmp)) < 0)
		goto out;
	rc = -1;
	if (golden_checksum(tmp, sum, sizeof(sum)) < 0 ||
	    stat(tmp, &st) < 0)
		goto out;
	free(m->checksum);
	m->checksum = xstrdup(sum);
	m->size = (uint64_t)st.st_size;
	if (rename(tmp, img) < 0) {
		error_errno("cannot rename '%s'", tmp);
		goto out;
	}
	/* Written whole beside its name and renamed, like the image. */
	f = outfile_open(&of, meta);
	if (!f)
		goto out;
	fprintf(f, "# fslab aged image\nchecksum=%s\nsize=%llu\nfstype=%s\n"
		"mkfs=%s\nmkfs_version=%s\nmount=%s\nprofile=%s\n"
		"seed=%llu\nops=%llu\nfullness=%.4f\nsource=%s\n",
		m->checksum, (unsigned long long)m->size, nz(m->fstype),
		nz(m->mkfs_args), nz(m->mkfs_version), nz(m->mount_opts),
		nz(m->profile), (unsigned long long)m->seed,
		(unsigned long long)m->ops, m->fullness, nz(m->source));
	if (outfile_commit(&of) < 0)
		goto out;
	rc = 0;
out:
	if (rc)
		unlink(tmp);
	free(dir);
	free(img);
	free(meta);
	free(tmp);
	return rc;
}

static bool checksum_ok(const char *v)
{
	static const char prefix[] = "fnv1a64w:";
	size_t n = strlen(prefix), i;

	if (strncmp(v, prefix, n) || strlen(v) != n + 16)
		return false;
	for (i = n; v[i]; i++)
		if (!isxdigit((unsigned char)v[i]))
			return false;
	return true;
}

enum meta_kind { META_STR, META_U64, META_FRACTION, META_CHECKSUM };

static const struct meta_key {
	const char *name;
	enum meta_kind kind;
	size_t off;
	bool required;
} meta_keys[] = {
#define MK(n, k, f, r) { n, k, offsetof(struct golden_meta, f), r }
	MK("checksum", META_CHECKSUM, checksum, true),
	MK("size", META_U64, size, true),
	MK("fstype", META_STR, fstype, true),
	MK("mkfs", META_STR, mkfs_args, false),
	MK("mkfs_version", META_STR, mkfs_version, false),
	MK("mount", META_STR, mount_opts, false),
	MK("profile", META_STR, profile, false),
	MK("seed", META_U64, seed, false),
	MK("ops", META_U64, ops, false),
	MK("fullness", META_FRACTION, fullness, false),
	MK("source", META_STR, source, false),
#undef MK
};
#define NR_META_KEYS (sizeof(meta_keys) / sizeof(meta_keys[0]))

/* One key=value line into m; 0, or -1 with the message printed. */
static int meta_line(const char *path, int lineno, char *line,
		     struct golden_meta *m, bool *seen)
{
	char *eq = strchr(line, '='), *v, *end;
	void *field;
	size_t i;

	if (!eq)
		return error("%s:%d: expected key=value, got '%.40s'", path,
			     lineno, line);
	*eq = '\0';
	v = eq + 1;
	for (i = 0; i < NR_META_KEYS; i++)
		if (!strcmp(line, meta_keys[i].name))
			break;
	if (i == NR_META_KEYS)
		return error("%s:%d: unknown key '%.40s' (expected checksum, "
			     "size, fstype, mkfs, mkfs_version, mount, profile, "
			     "seed, ops, fullness or source)", path, lineno,
			     line);
	if (seen[i])
		return error("%s:%d: key '%s' given twice", path, lineno, line);
	seen[i] = true;
	field = (char *)m + meta_keys[i].off;
	switch (meta_keys[i].kind) {
	case META_CHECKSUM:
		if (!checksum_ok(v))
			return error("%s:%d: checksum: expected fnv1a64w: and 16 "
				     "hex digits, got '%.40s'", path, lineno, v);
		/* fall through */
	case META_STR:
		if (meta_keys[i].required && !*v)
			return error("%s:%d: %s is empty", path, lineno, line);
		*(char **)field = *v ? xstrdup(v) : NULL;
		break;
	case META_U64:
		if (parse_u64(v, field) < 0)
			return error("%s:%d: %s: expected a non-negative integer, "
				     "got '%.40s'", path, lineno, line, v);
		break;
	case META_FRACTION:
		errno = 0;
		*(double *)field = strtod(v, &end);
		if (!*v || *end || errno || !(*(double *)field >= 0.0 &&
					      *(double *)field <= 1.0))
			return error("%s:%d: %s: expected a number from 0 to 1, "
				     "got '%.40s'", path, lineno, line, v);
		break;
	}
	return 0;
}

int golden_parse_meta(const char *path, char *text, size_t len,
		      struct golden_meta *m)
{
	bool seen[NR_META_KEYS] = { false };
	char *line, *nl;
	int lineno = 0;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (strlen(text) != len) {
		for (i = 0; i < strlen(text); i++)
			lineno += text[i] == '\n';
		return error("%s:%d: NUL byte in the file", path, lineno + 1);
	}
	for (line = text; line && *line; line = nl) {
		lineno++;
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		if (*line == '#' || !*line)
			continue;
		if (meta_line(path, lineno, line, m, seen) < 0)
			goto bad;
	}
	for (i = 0; i < NR_META_KEYS; i++)
		if (meta_keys[i].required && !seen[i]) {
			error("%s: lacks %s=", path, meta_keys[i].name);
			goto bad;
		}
	return 0;
bad:
	golden_meta_release(m);
	return -1;
}

int golden_load_meta(const char *scratch, const char *name,
		     struct golden_meta *m)
{
	char *path = golden_meta_path(scratch, name), *text;
	size_t len;
	int rc;

	memset(m, 0, sizeof(*m));
	text = read_file(path, &len);
	if (!text) {
		error_errno("no aged image '%s' (cannot read '%s'); make one "
			    "with 'fslab age --target SPEC --save %s'", name,
			    path, name);
		free(path);
		return -1;
	}
	rc = golden_parse_meta(path, text, len, m);
	free(text);
	free(path);
	return rc;
}

void golden_meta_release(struct golden_meta *m)
{
	free(m->checksum);
	free(m->fstype);
	free(m->mkfs_args);
	free(m->mount_opts);
	free(m->mkfs_version);
	free(m->profile);
	free(m->source);
	memset(m, 0, sizeof(*m));
}
