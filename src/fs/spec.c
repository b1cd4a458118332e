/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spec.c - parse a target SPEC ("ext4:mount=noatime", "dev:/dev/sdb",
 * "dir:/mnt/x") into a struct target_spec.  Pure string work, no system
 * calls, so every rule of the grammar in target.h is unit-tested.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fs/golden.h"
#include "fs/target.h"
#include "util/opt.h"
#include "util/suggest.h"
#include "util/util.h"

#define SPEC_MIN_SIZE (64ULL << 20)
/* mkfs.btrfs refuses anything smaller than this. */
#define SPEC_MIN_SIZE_BTRFS (114ULL << 20)

enum spec_key {
	KEY_MKFS = 1 << 0,
	KEY_MOUNT = 1 << 1,
	KEY_SIZE = 1 << 2,
	KEY_NAME = 1 << 3,
	KEY_FS = 1 << 4,
	KEY_AGE = 1 << 5,
};

static const struct {
	const char *name;
	enum spec_key key;
} spec_keys[] = {
	{ "mkfs", KEY_MKFS },
	{ "mount", KEY_MOUNT },
	{ "size", KEY_SIZE },
	{ "name", KEY_NAME },
	{ "fs", KEY_FS },
	{ "age", KEY_AGE },
};

static const char *kind_prefix(enum target_kind kind)
{
	switch (kind) {
	case TARGET_DEV:
		return "dev:";
	case TARGET_DIR:
		return "dir:";
	case TARGET_AGED:
		return "aged:";
	default:
		return "FSTYPE:";
	}
}

static const char *key_suggest(const char *key, unsigned allowed)
{
	struct suggest s;

	suggest_init(&s, key);
	for (size_t i = 0; i < ARRAY_SIZE(spec_keys); i++)
		if (spec_keys[i].key & allowed)
			suggest_add(&s, spec_keys[i].name);
	return suggest_result(&s);
}

static int valid_fstype(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	PRINTF(3, 4);
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * Owned targets are always mounted nosuid,nodev: a filesystem image made
 * by a benchmark has no business giving anyone setuid binaries or device
 * nodes.  mount= may not turn that off; a control character could not be
 * journaled.  (dir: has no mount= key.)
 */
static bool drops_nosuid(const char *opts, char *err, size_t errlen,
			 const char *s)
{
	char *copy = xstrdup(opts), *o, *save = NULL;
	bool bad = false;

	for (const char *c = opts; *c; c++)
		if ((unsigned char)*c < 0x20) {
			set_err(err, errlen, "control character in mount "
				"options of '%s'", s);
			free(copy);
			return true;
		}
	for (o = strtok_r(copy, ",", &save); o && !bad;
	     o = strtok_r(NULL, ",", &save))
		if (!strcmp(o, "suid") || !strcmp(o, "dev")) {
			set_err(err, errlen, "mount option '%s' in '%s' is "
				"refused: fslab always mounts its filesystems "
				"nosuid,nodev", o, s);
			bad = true;
		}
	free(copy);
	return bad;
}

static int apply_kv(struct target_spec *ts, const char *s, const struct kv *kv,
		    unsigned allowed, unsigned *seen, char *err, size_t errlen)
{
	unsigned key = 0;
	size_t i;

	if (!kv->has_val) {
		set_err(err, errlen,
			"unknown item '%s' in '%s': to put a comma inside a "
			"value write '\\,' or quote the value", kv->key, s);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(spec_keys); i++)
		if (!strcmp(kv->key, spec_keys[i].name))
			key = spec_keys[i].key;
	if (!(key & allowed)) {
		const char *sugg = key_suggest(kv->key, allowed);

		if (key)
			set_err(err, errlen,
				"key '%s' is not valid for %s targets in '%s'",
				kv->key, kind_prefix(ts->kind), s);
		else if (sugg)
			set_err(err, errlen,
				"unknown key '%s' in '%s' (did you mean '%s'?)",
				kv->key, s, sugg);
		else
			set_err(err, errlen, "unknown key '%s' in '%s'",
				kv->key, s);
		return -1;
	}
	if (*seen & key) {
		set_err(err, errlen, "duplicate key '%s' in '%s'", kv->key, s);
		return -1;
	}
	*seen |= key;
	if (!*kv->val) {
		set_err(err, errlen, "empty value for '%s' in '%s'", kv->key,
			s);
		return -1;
	}
	switch (key) {
	case KEY_MKFS:
		ts->mkfs_args = xstrdup(kv->val);
		break;
	case KEY_MOUNT:
		if (drops_nosuid(kv->val, err, errlen, s))
			return -1;
		ts->mount_opts = xstrdup(kv->val);
		break;
	case KEY_NAME:
		ts->name = xstrdup(kv->val);
		break;
	case KEY_AGE:
		ts->age = xstrdup(kv->val);
		break;
	case KEY_FS:
		if (!valid_fstype(kv->val)) {
			set_err(err, errlen,
				"bad filesystem type '%s' in '%s': expected a "
				"plain name like 'ext4'", kv->val, s);
			return -1;
		}
		free(ts->fstype);
		ts->fstype = xstrdup(kv->val);
		break;
	case KEY_SIZE:
		if (parse_size(kv->val, &ts->size) < 0) {
			set_err(err, errlen,
				"bad size '%s' in '%s': expected a number with "
				"an optional k/m/g/t suffix", kv->val, s);
			return -1;
		}
		break;
	default:
		BUG("unhandled spec key %u", key);
	}
	return 0;
}

static int parse_opts(struct target_spec *ts, const char *s, const char *opts,
		      unsigned allowed, char *err, size_t errlen)
{
	struct kvlist l = { 0 };
	char kverr[256];
	unsigned seen = 0;
	size_t i;

	if (!*opts) {
		set_err(err, errlen, "empty option list after ':' in '%s'", s);
		return -1;
	}
	if (kv_parse(opts, &l, kverr, sizeof(kverr)) < 0) {
		set_err(err, errlen, "cannot parse '%s': %s", s, kverr);
		kv_release(&l);
		return -1;
	}
	for (i = 0; i < l.nr; i++) {
		if (apply_kv(ts, s, &l.v[i], allowed, &seen, err, errlen) < 0) {
			kv_release(&l);
			return -1;
		}
	}
	kv_release(&l);
	return 0;
}

/* "ext4", or "ext4(-O ^flex_bg,noatime)" when options change it. */
static char *default_name(const struct target_spec *ts)
{
	if (ts->mkfs_args && ts->mount_opts)
		return xasprintf("%s(%s,%s)", ts->fstype, ts->mkfs_args,
				 ts->mount_opts);
	if (ts->mkfs_args || ts->mount_opts)
		return xasprintf("%s(%s)", ts->fstype,
				 ts->mkfs_args ? ts->mkfs_args :
				 ts->mount_opts);
	return xstrdup(ts->fstype);
}

/*
 * dev: and dir: take a path up to the first ':'; a path containing ':'
 * cannot be named, which is the price of a grammar without quoting.
 */
static int parse_path_spec(struct target_spec *ts, const char *s,
			   const char *rest, unsigned allowed, char *err,
			   size_t errlen)
{
	const char *colon = strchr(rest, ':');
	size_t len = colon ? (size_t)(colon - rest) : strlen(rest);

	if (!len) {
		set_err(err, errlen, "missing path in '%s'", s);
		return -1;
	}
	if (rest[0] != '/') {
		set_err(err, errlen, "path in '%s' must be absolute", s);
		return -1;
	}
	ts->path = xstrndup(rest, len);
	if (colon && parse_opts(ts, s, colon + 1, allowed, err, errlen) < 0)
		return -1;
	return 0;
}

int target_spec_parse(const char *s, struct target_spec *out, char *err,
		      size_t errlen)
{
	struct target_spec ts = { 0 };
	const char *colon;

	ts.spec = xstrdup(s);
	ts.size = TARGET_DEFAULT_SIZE;
	if (!*s) {
		set_err(err, errlen, "empty target spec");
		goto fail;
	}
	if (!strncmp(s, "dir:", 4)) {
		ts.kind = TARGET_DIR;
		if (parse_path_spec(&ts, s, s + 4, KEY_NAME, err, errlen) < 0)
			goto fail;
		if (!ts.name)
			ts.name = xstrdup(ts.path);
		*out = ts;
		return 0;
	}
	if (!strncmp(s, "aged:", 5)) {
		const char *rest = s + 5, *c = strchr(rest, ':');
		size_t len = c ? (size_t)(c - rest) : strlen(rest);

		ts.kind = TARGET_AGED;
		ts.path = xstrndup(rest, len);
		if (!golden_name_ok(ts.path)) {
			set_err(err, errlen, "bad aged image name '%s' in "
				"'%s': letters, digits, '.', '_' and '-'",
				ts.path, s);
			goto fail;
		}
		if (c && parse_opts(&ts, s, c + 1, KEY_MOUNT | KEY_NAME, err,
				    errlen) < 0)
			goto fail;
		if (!ts.name)
			ts.name = xasprintf("aged:%s", ts.path);
		*out = ts;
		return 0;
	}
	if (!strncmp(s, "dev:", 4)) {
		ts.kind = TARGET_DEV;
		ts.fstype = xstrdup("ext4");
		if (parse_path_spec(&ts, s, s + 4,
				    KEY_FS | KEY_MKFS | KEY_MOUNT | KEY_NAME,
				    err, errlen) < 0)
			goto fail;
		if (!ts.name)
			ts.name = default_name(&ts);
		*out = ts;
		return 0;
	}

	ts.kind = TARGET_LOOP;
	colon = strchr(s, ':');
	ts.fstype = colon ? xstrndup(s, (size_t)(colon - s)) : xstrdup(s);
	if (!valid_fstype(ts.fstype)) {
		set_err(err, errlen,
			"bad filesystem type '%s' in '%s': expected a plain "
			"name like 'ext4', or dev:/dev/X or dir:PATH",
			ts.fstype, s);
		goto fail;
	}
	if (colon && parse_opts(&ts, s, colon + 1,
				KEY_MKFS | KEY_MOUNT | KEY_SIZE | KEY_NAME |
				KEY_AGE, err, errlen) < 0)
		goto fail;
	if (ts.size < SPEC_MIN_SIZE) {
		set_err(err, errlen, "size in '%s' is too small: the minimum "
			"is 64M", s);
		goto fail;
	}
	if (!strcmp(ts.fstype, "btrfs") && ts.size < SPEC_MIN_SIZE_BTRFS) {
		set_err(err, errlen, "size in '%s' is too small: btrfs needs "
			"at least 114M", s);
		goto fail;
	}
	if (!ts.name && ts.age) {
		char *base = default_name(&ts);

		ts.name = xasprintf("%s+age(%s)", base, ts.age);
		free(base);
	}
	if (!ts.name)
		ts.name = default_name(&ts);
	*out = ts;
	return 0;

fail:
	target_spec_release(&ts);
	return -1;
}

void target_spec_release(struct target_spec *ts)
{
	free(ts->spec);
	free(ts->fstype);
	free(ts->mkfs_args);
	free(ts->mount_opts);
	free(ts->name);
	free(ts->path);
	free(ts->age);
	memset(ts, 0, sizeof(*ts));
}
