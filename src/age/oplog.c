/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oplog.c - the aging op log: format, parse, apply one op to a
 * directory, and reduce a whole log to its final file set.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "age/oplog.h"
#include "util/util.h"

static const char *const kind_names[AOP_NR_KINDS] = {
	"mkdir", "create", "append", "truncate", "overwrite", "rename",
	"delete", "rmdir",
};

const char *oplog_kind_name(enum age_op_kind k)
{
	return k < AOP_NR_KINDS ? kind_names[k] : "?";
}

int oplog_kind_parse(const char *s)
{
	for (int i = 0; i < AOP_NR_KINDS; i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	return -1;
}

/* How many numbers follow the path(s) of each kind. */
static int kind_nums(enum age_op_kind k)
{
	switch (k) {
	case AOP_CREATE:
	case AOP_APPEND:
	case AOP_TRUNCATE:
		return 1;
	case AOP_OVERWRITE:
		return 2;
	default:
		return 0;
	}
}

void oplog_format(const struct age_op *op, char *buf, size_t len)
{
	const char *k = oplog_kind_name(op->kind);

	switch (kind_nums(op->kind)) {
	case 1:
		snprintf(buf, len, "%s %s %llu\n", k, op->path,
			 (unsigned long long)op->a);
		break;
	case 2:
		snprintf(buf, len, "%s %s %llu %llu\n", k, op->path,
			 (unsigned long long)op->a,
			 (unsigned long long)op->b);
		break;
	default:
		if (op->kind == AOP_RENAME)
			snprintf(buf, len, "%s %s %s\n", k, op->path,
				 op->path2);
		else
			snprintf(buf, len, "%s %s\n", k, op->path);
	}
}

int oplog_write(FILE *f, const struct age_op *op)
{
	char buf[600];

	oplog_format(op, buf, sizeof(buf));
	return fputs(buf, f) < 0 ? -1 : 0;
}

static bool path_ok(const char *p)
{
	const char *c = p;

	if (!*p || *p == '/')
		return false;
	while (*c) {
		size_t n = strcspn(c, "/");

		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
		if (*c)
			c++;
		if (!*c && c[-1] == '/')
			return false;
	}
	return true;
}

int oplog_parse_line(const char *line, struct age_op *op, char *err,
		     size_t errlen)
{
	char *copy = xstrdup(line), *tok[5], *save = NULL, *end;
	int nt = 0, kind, rc = -1, want;

	for (char *t = strtok_r(copy, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (nt == 5) {
			snprintf(err, errlen, "too many fields");
			goto out;
		}
		tok[nt++] = t;
	}
	if (!nt || tok[0][0] == '#') {
		rc = 0;
		goto out;
	}
	memset(op, 0, sizeof(*op));
	kind = oplog_kind_parse(tok[0]);
	if (kind < 0) {
		snprintf(err, errlen, "unknown operation '%s'", tok[0]);
		goto out;
	}
	op->kind = kind;
	want = 2 + kind_nums(kind) + (kind == AOP_RENAME);
	if (nt != want) {
		snprintf(err, errlen, "'%s' takes %d field%s, not %d",
			 tok[0], want - 1, want == 2 ? "" : "s", nt - 1);
		goto out;
	}
	for (int i = 1; i < 2 + (kind == AOP_RENAME); i++) {
		if (!path_ok(tok[i]) || strlen(tok[i]) >= sizeof(op->path)) {
			snprintf(err, errlen, "bad path '%s'", tok[i]);
			goto out;
		}
	}
	/* lengths checked above: the copies are whole */
	snprintf(op->path, sizeof(op->path), "%s", tok[1]);
	if (kind == AOP_RENAME)
		snprintf(op->path2, sizeof(op->path2), "%s", tok[2]);
	for (int i = 0; i < kind_nums(kind); i++) {
		const char *s = tok[2 + i];
		unsigned long long v;

		errno = 0;
		v = strtoull(s, &end, 10);
		if (*s < '0' || *s > '9' || *end || errno) {
			snprintf(err, errlen, "bad number '%s'", s);
			goto out;
		}
		if (i)
			op->b = v;
		else
			op->a = v;
	}
	rc = 1;
out:
	free(copy);
	return rc;
}

#define DATA_BUF (1u << 20)

/* Non-zero filler, so written blocks are real data everywhere. */
static const char *data_buf(void)
{
	static char *buf;

	if (!buf) {
		uint32_t x = 0x9e3779b9;

		buf = xmalloc(DATA_BUF);
		for (size_t i = 0; i < DATA_BUF; i++) {
			x = x * 1103515245 + 12345;
			buf[i] = (char)(x >> 24 | 1);
		}
	}
	return buf;
}

static int write_range(int fd, const char *path, uint64_t off, uint64_t len,
		       bool data)
{
	const char *buf = data_buf();

	if (!len)
		return 0;
	if (!data) {
		if (fallocate(fd, 0, (off_t)off, (off_t)len) == 0)
			return 0;
		if (errno != EOPNOTSUPP)
			return error_errno("cannot fallocate '%s'", path);
	}
	while (len) {
		size_t n = len < DATA_BUF ? len : DATA_BUF;
		ssize_t w = pwrite(fd, buf, n, (off_t)off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return error_errno("cannot write '%s'", path);
		}
		off += (uint64_t)w;
		len -= (uint64_t)w;
	}
	return 0;
}

static int file_op(int base, const struct age_op *op, int flags, bool data)
{
	struct stat st;
	int fd, rc = 0;

	fd = openat(base, op->path, flags | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_errno("cannot open '%s'", op->path);
	switch (op->kind) {
	case AOP_CREATE:
		rc = write_range(fd, op->path, 0, op->a, data);
		break;
	case AOP_APPEND:
		if (fstat(fd, &st) < 0)
			rc = error_errno("cannot stat '%s'", op->path);
		else
			rc = write_range(fd, op->path, (uint64_t)st.st_size,
					 op->a, data);
		break;
	case AOP_OVERWRITE:
		/* Overwrites write data even with --data fallocate: there
		 * is nothing to reserve in place. */
		rc = write_range(fd, op->path, op->a, op->b, true);
		break;
	default:
		if (ftruncate(fd, (off_t)op->a) < 0)
			rc = error_errno("cannot truncate '%s'", op->path);
	}
	if (close(fd) < 0 && !rc)
		rc = error_errno("cannot close '%s'", op->path);
	return rc;
}

int oplog_apply(int base, const struct age_op *op, bool data)
{
	switch (op->kind) {
	case AOP_MKDIR:
		if (mkdirat(base, op->path, 0755) < 0)
			return error_errno("cannot create directory '%s'",
					   op->path);
		return 0;
	case AOP_RMDIR:
		if (unlinkat(base, op->path, AT_REMOVEDIR) < 0)
			return error_errno("cannot remove directory '%s'",
					   op->path);
		return 0;
	case AOP_DELETE:
		if (unlinkat(base, op->path, 0) < 0)
			return error_errno("cannot delete '%s'", op->path);
		return 0;
	case AOP_RENAME:
		if (renameat(base, op->path, base, op->path2) < 0)
			return error_errno("cannot rename '%s' to '%s'",
					   op->path, op->path2);
		return 0;
	case AOP_CREATE:
		return file_op(base, op, O_CREAT | O_EXCL, data);
	case AOP_APPEND:
	case AOP_OVERWRITE:
	case AOP_TRUNCATE:
		return file_op(base, op, 0, data);
	default:
		BUG("bad op kind %d", op->kind);
	}
}

/* ---- string map ---- */

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static void strmap_rehash(struct age_strmap *m)
{
	size_t n = m->nr_head ? m->nr_head * 2 : 1024;

	free(m->head);
	m->head = xmalloc(n * sizeof(*m->head));
	m->nr_head = n;
	for (size_t i = 0; i < n; i++)
		m->head[i] = -1;
	for (size_t i = 0; i < m->nr; i++) {
		size_t h;

		if (!m->ent[i].key)
			continue;
		h = str_hash(m->ent[i].key) % n;
		m->ent[i].next = m->head[h];
		m->head[h] = (long)i;
	}
}

long strmap_find(const struct age_strmap *m, const char *key)
{
	long i;

	if (!m->nr_head)
		return -1;
	for (i = m->head[str_hash(key) % m->nr_head]; i >= 0;
	     i = m->ent[i].next)
		if (!strcmp(m->ent[i].key, key))
			return i;
	return -1;
}

long strmap_add(struct age_strmap *m, const char *key, uint64_t val)
{
	size_t h;

	ALLOC_GROW(m->ent, m->nr + 1, m->alloc);
	m->ent[m->nr].key = xstrdup(key);
	m->ent[m->nr].val = val;
	m->nr++;
	m->live++;
	if (m->nr > m->nr_head * 2) {
		strmap_rehash(m);
		return (long)m->nr - 1;
	}
	h = str_hash(key) % m->nr_head;
	m->ent[m->nr - 1].next = m->head[h];
	m->head[h] = (long)m->nr - 1;
	return (long)m->nr - 1;
}

/* Unlink key from the map (the entry stays, key freed).  0 or -1. */
static int strmap_del(struct age_strmap *m, const char *key)
{
	long *pp;

	if (!m->nr_head)
		return -1;
	for (pp = &m->head[str_hash(key) % m->nr_head]; *pp >= 0;
	     pp = &m->ent[*pp].next) {
		struct age_strmap_ent *e = &m->ent[*pp];

		if (!strcmp(e->key, key)) {
			*pp = e->next;
			free(e->key);
			e->key = NULL;
			m->live--;
			return 0;
		}
	}
	return -1;
}

/* Rename key to nkey (absent), keeping the entry's index.  0 or -1. */
static int strmap_rekey(struct age_strmap *m, const char *key, const char *nkey)
{
	long *pp;

	if (!m->nr_head)
		return -1;
	for (pp = &m->head[str_hash(key) % m->nr_head]; *pp >= 0;
	     pp = &m->ent[*pp].next) {
		long i = *pp;
		struct age_strmap_ent *e = &m->ent[i];
		size_t h;

		if (strcmp(e->key, key))
			continue;
		*pp = e->next;
		free(e->key);
		e->key = xstrdup(nkey);
		h = str_hash(nkey) % m->nr_head;
		e->next = m->head[h];
		m->head[h] = i;
		return 0;
	}
	return -1;
}

void strmap_release(struct age_strmap *m)
{
	for (size_t i = 0; i < m->nr; i++)
		free(m->ent[i].key);
	free(m->ent);
	free(m->head);
	memset(m, 0, sizeof(*m));
}

/* ---- final set ---- */

int oplog_final_set(FILE *log, const char *origin, FILE *out)
{
	struct age_strmap files = { 0 }, dirs = { 0 };
	char *line = NULL, err[256];
	size_t cap = 0;
	long lineno = 0;
	int rc = -1;

	while (getline(&line, &cap, log) >= 0) {
		struct age_op op;
		long i;
		int r;

		lineno++;
		r = oplog_parse_line(line, &op, err, sizeof(err));
		if (r < 0) {
			error("%s:%ld: %s", origin, lineno, err);
			goto out;
		}
		if (!r)
			continue;
		i = strmap_find(op.kind == AOP_MKDIR || op.kind == AOP_RMDIR ?
				&dirs : &files, op.path);
		switch (op.kind) {
		case AOP_MKDIR:
			if (i < 0)
				strmap_add(&dirs, op.path, 0);
			continue;
		case AOP_RMDIR:
			strmap_del(&dirs, op.path);
			continue;
		case AOP_CREATE:
			if (i >= 0)
				break;
			strmap_add(&files, op.path, op.a);
			continue;
		case AOP_DELETE:
			if (i < 0)
				break;
			strmap_del(&files, op.path);
			continue;
		default:
			break;
		}
		if (i < 0) {
			error("%s:%ld: '%s' does not exist at this point",
			      origin, lineno, op.path);
			goto out;
		}
		switch (op.kind) {
		case AOP_CREATE:
			error("%s:%ld: '%s' exists already", origin, lineno,
			      op.path);
			goto out;
		case AOP_APPEND:
			files.ent[i].val += op.a;
			break;
		case AOP_TRUNCATE:
			files.ent[i].val = op.a;
			break;
		case AOP_OVERWRITE:
			if (op.a + op.b > files.ent[i].val)
				files.ent[i].val = op.a + op.b;
			break;
		case AOP_RENAME:
			/* Keep the file's place in creation order. */
			if (strmap_find(&files, op.path2) >= 0)
				strmap_del(&files, op.path2);
			strmap_rekey(&files, op.path, op.path2);
			break;
		default:
			break;
		}
	}
	fprintf(out, "%s\n", OPLOG_HEADER);
	for (size_t k = 0; k < dirs.nr; k++)
		if (dirs.ent[k].key)
			fprintf(out, "mkdir %s\n", dirs.ent[k].key);
	for (size_t k = 0; k < files.nr; k++)
		if (files.ent[k].key)
			fprintf(out, "create %s %llu\n", files.ent[k].key,
				(unsigned long long)files.ent[k].val);
	rc = ferror(out) ? error("cannot write the final set") : 0;
out:
	free(line);
	strmap_release(&files);
	strmap_release(&dirs);
	return rc;
}
