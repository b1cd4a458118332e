/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preflight.c - refuse a run that cannot succeed before it starts (see
 * preflight.h).  Problems are collected as lines and printed as one
 * error; the checks themselves never print.
 */
#include "run/preflight.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fs/golden.h"
#include "fs/mkfs.h"
#include "phase/par.h"
#include "run/runner.h"
#include "util/outfile.h"
#include "util/util.h"

struct problems {
	char **v;
	size_t nr, alloc;
};

static void add(struct problems *p, const char *fmt, ...) PRINTF(2, 3);
static void add(struct problems *p, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = s;
}

void preflight_fs_capacity(const char *fstype, const char *mkfs_args,
			   uint64_t size, uint64_t *bytes, uint64_t *inodes)
{
	bool ext = fstype && !strncmp(fstype, "ext", 3);

	/* Journal, inode tables, allocation groups, btrfs' DUP metadata:
	 * a few percent; 10 % keeps a marginal fit from being refused. */
	*bytes = size / 10 * 9;
	*inodes = 0;
	/* ext*: one inode per 16 KiB (mke2fs.conf's default inode_ratio;
	 * 4 KiB below 512 MiB, "small"), unless mkfs= says otherwise. */
	if (ext && !(mkfs_args && (strstr(mkfs_args, "-i") ||
				   strstr(mkfs_args, "-N") ||
				   strstr(mkfs_args, "-T"))))
		*inodes = size / (size < (512ULL << 20) ? 4096 : 16384);
}

int preflight_output_path(const char *path, const char *what, char *why,
			  size_t len)
{
	const char *slash;
	char *dir;
	struct stat st;
	int rc = 0;

	if (!path || !strcmp(path, "-"))
		return 0;
	if (!*path) {
		snprintf(why, len, "%s: an empty path", what);
		return -1;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s '%s' is a directory", what, path);
		return -1;
	}
	if (outfile_link_refused(path, why, len) < 0)
		return -1;
	slash = strrchr(path, '/');
	dir = !slash ? xstrdup(".") : slash == path ? xstrdup("/")
			: xstrndup(path, (size_t)(slash - path));
	if (stat(dir, &st) < 0) {
		snprintf(why, len, "%s '%s': directory '%s' does not exist "
			 "(fslab creates no directories for it)", what, path,
			 dir);
		rc = -1;
	} else if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s '%s': '%s' is not a directory", what,
			 path, dir);
		rc = -1;
	} else if (access(path, F_OK) == 0 ? access(path, W_OK) < 0
					   : access(dir, W_OK | X_OK) < 0) {
		snprintf(why, len, "%s '%s': not writable: %s", what, path,
			 strerror(errno));
		rc = -1;
	}
	free(dir);
	return rc;
}

/*
 * Format an unnamed sparse file in dir as the target would be, so a bad
 * mkfs= argument is found now: an O_TMPFILE has no name, so nothing is
 * left behind, even after a crash.  0, or -1 with mkfs's first lines in
 * why.  A directory without O_TMPFILE support skips the trial (0).
 */
static int trial_mkfs(const char *dir, const struct target_spec *ts,
		      char *why, size_t len)
{
	char path[64], err[256];
	char **user, **argv;
	char *out = NULL, *cmd;
	size_t n = 0, nu;
	int fd, rc;

	user = argv_split(ts->mkfs_args, err, sizeof(err));
	if (!user) {
		snprintf(why, len, "bad mkfs= arguments '%s': %s",
			 ts->mkfs_args, err);
		return -1;
	}
	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)ts->size) < 0) {
		if (fd >= 0)
			close(fd);
		argv_free(user);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* The same words mkfs_run() uses: the tool's force/quiet flags. */
	cmd = mkfs_command(ts->fstype, NULL, path);
	argv = argv_split(cmd, err, sizeof(err));
	free(cmd);
	nu = argv_len(user);
	n = argv_len(argv);
	argv = xrealloc(argv, (n + nu + 1) * sizeof(*argv));
	/* mkfs's options go before the device. */
	memmove(argv + n - 1 + nu, argv + n - 1, 2 * sizeof(*argv));
	memcpy(argv + n - 1, user, nu * sizeof(*argv));
	free(user);
	rc = run_cmd(argv, &out, true);
	close(fd);
	if (rc != 0 && rc != 127) {
		const char *msg = out ? out : "";
		size_t l = strcspn(msg, "\n");

		while (*msg == '\n')
			msg++;
		l = strcspn(msg, "\n");
		snprintf(why, len, "mkfs.%s rejects mkfs='%s' (exit %d): %.*s",
			 ts->fstype, ts->mkfs_args, rc, (int)l, msg);
	}
	free(out);
	argv_free(argv);
	return rc != 0 && rc != 127 ? -1 : 0;
}

/* Nearest existing ancestor of path: the scratch dir may not exist yet. */
static char *existing_dir(const char *path)
{
	char *d = xstrdup(path);
	struct stat st;

	while (stat(d, &st) < 0) {
		char *slash = strrchr(d, '/');

		if (!slash || slash == d) {
			free(d);
			return xstrdup("/");
		}
		*slash = '\0';
	}
	return d;
}

static uint64_t dev_size(const char *path)
{
	uint64_t size = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		size = 0;
	close(fd);
	return size;
}

/*
 * One target: its own checks, then what it can hold.  *bytes and
 * *inodes receive the rough capacity (0: unknown).
 */
static void check_target(struct problems *p, const struct run_config *cfg,
			 size_t i, uint64_t *bytes, uint64_t *inodes)
{
	const struct target_spec *ts = &cfg->targets[i];
	const char *scratch = cfg->scratch ? cfg->scratch
					   : TARGET_DEFAULT_SCRATCH;
	char why[1024], sz[32], fr[32];
	struct statvfs sv;
	struct stat st;

	*bytes = *inodes = 0;
	if (ts->kind != TARGET_DIR && !is_root())
		add(p, "target %zu '%s': %s needs root", i + 1, ts->spec,
		    ts->kind == TARGET_DEV ? "formatting a device"
					   : "a loop target");
	if (ts->kind == TARGET_DIR) {
		if (stat(ts->path, &st) < 0)
			add(p, "target %zu '%s': '%s': %s", i + 1, ts->spec,
			    ts->path, strerror(errno));
		else if (!S_ISDIR(st.st_mode))
			add(p, "target %zu '%s': '%s' is not a directory",
			    i + 1, ts->spec, ts->path);
		else if (access(ts->path, W_OK | X_OK) < 0)
			add(p, "target %zu '%s': '%s' is not writable: %s",
			    i + 1, ts->spec, ts->path, strerror(errno));
		else if (statvfs(ts->path, &sv) == 0) {
			*bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
			*inodes = sv.f_files ? (uint64_t)sv.f_favail : 0;
		}
		return;
	}
	if (ts->kind == TARGET_AGED) {
		char *img = golden_image_path(scratch, ts->path);

		if (access(img, R_OK) < 0)
			add(p, "target %zu '%s': no golden image '%s' (make "
			    "it with 'fslab age --save %s')", i + 1, ts->spec,
			    img, ts->path);
		free(img);
		return;
	}
	if (ts->fstype && mkfs_check_why(ts->fstype, why, sizeof(why)) < 0) {
		add(p, "target %zu '%s': %s", i + 1, ts->spec, why);
		return;
	}
	if (ts->kind == TARGET_DEV) {
		uint64_t size;

		if (stat(ts->path, &st) < 0) {
			add(p, "target %zu '%s': '%s': %s", i + 1, ts->spec,
			    ts->path, strerror(errno));
			return;
		}
		if (!S_ISBLK(st.st_mode)) {
			add(p, "target %zu '%s': '%s' is not a block device",
			    i + 1, ts->spec, ts->path);
			return;
		}
		size = dev_size(ts->path);
		if (size)
			preflight_fs_capacity(ts->fstype, ts->mkfs_args, size,
					      bytes, inodes);
		return;
	}
	/* A loop image: room for it in the scratch directory. */
	{
		char *dir = existing_dir(scratch);

		if (statvfs(dir, &sv) == 0 &&
		    (uint64_t)sv.f_bavail * sv.f_frsize < ts->size)
			add(p, "target %zu '%s': not enough space in '%s' for "
			    "a %s image: %s free; use a smaller size= or "
			    "another --scratch", i + 1, ts->spec, dir,
			    fmt_size(sz, sizeof(sz), ts->size),
			    fmt_size(fr, sizeof(fr), (uint64_t)sv.f_bavail *
						     sv.f_frsize));
		else if (ts->mkfs_args && is_root() &&
			 trial_mkfs(dir, ts, why, sizeof(why)) < 0)
			add(p, "target %zu '%s': %s", i + 1, ts->spec, why);
		free(dir);
	}
	preflight_fs_capacity(ts->fstype, ts->mkfs_args, ts->size, bytes,
			      inodes);
	/* age= fills it to 80 % during setup: the workloads get the rest. */
	if (ts->age) {
		*bytes = *bytes > ts->size / 10 * 8 ? *bytes - ts->size / 10 * 8
						    : 0;
		*inodes = 0;
	}
}

static void check_needs(struct problems *p, const struct run_config *cfg,
			size_t i, uint64_t bytes, uint64_t inodes)
{
	const struct target_spec *ts = &cfg->targets[i];
	char a[32], b[32];

	for (size_t k = 0; k < cfg->nr_wls; k++) {
		const struct run_workload *w = &cfg->wls[k];
		struct wl_needs n;

		if (!w->wl->needs)
			continue;
		memset(&n, 0, sizeof(n));
		w->wl->needs(w->opts, par_size(), &n);
		if (bytes && n.bytes > bytes)
			add(p, "target %zu '%s': %s needs %s, the target "
			    "holds about %s", i + 1, ts->spec,
			    *n.what ? n.what : w->wl->name,
			    fmt_size(a, sizeof(a), n.bytes),
			    fmt_size(b, sizeof(b), bytes));
		else if (inodes && n.inodes > inodes)
			add(p, "target %zu '%s': %s needs %llu inodes, the "
			    "target has about %llu", i + 1, ts->spec,
			    *n.inodes_what ? n.inodes_what :
			    *n.what ? n.what : w->wl->name,
			    (unsigned long long)n.inodes,
			    (unsigned long long)inodes);
	}
}

int preflight_run(const struct run_config *cfg, bool space)
{
	struct problems p = { 0 };
	char why[1024];

	for (size_t i = 0; i < cfg->nr_targets; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(cfg->targets[i].name,
				    cfg->targets[j].name)) {
				add(&p, "targets %zu and %zu are both named "
				    "'%s': give one a name= of its own",
				    j + 1, i + 1, cfg->targets[i].name);
				break;
			}
	for (size_t i = 0; i < cfg->nr_targets; i++) {
		uint64_t bytes, inodes;

		check_target(&p, cfg, i, &bytes, &inodes);
		if (space)
			check_needs(&p, cfg, i, bytes, inodes);
	}
	if (cfg->db && *cfg->db &&
	    preflight_output_path(cfg->db, "--db", why, sizeof(why)) < 0)
		add(&p, "%s", why);
	if (preflight_output_path(cfg->json, "--json", why, sizeof(why)) < 0)
		add(&p, "%s", why);
	/* Under MPI every rank checks its own view (its paths, its
	 * node's tools) and all refuse together, or none does. */
	if (par_active()) {
		int bad = par_agree(!p.nr, p.nr ? p.v[0] : "", why,
				    sizeof(why));

		if (bad < 0)
			return 0;
		if (!p.nr) {
			if (par_rank() == 0)
				error("rank %d failed pre-flight: %s (on host "
				      "%s)", bad, why, par_host(bad));
			return EXIT_USAGE;
		}
	}
	if (!p.nr)
		return 0;
	if (par_rank() == 0) {
		fprintf(stderr, "fslab: error: refusing to start: %zu "
			"problem%s, nothing was created or stored:\n", p.nr,
			p.nr == 1 ? "" : "s");
		for (size_t i = 0; i < p.nr; i++)
			fprintf(stderr, "  - %s\n", p.v[i]);
	}
	for (size_t i = 0; i < p.nr; i++)
		free(p.v[i]);
	free(p.v);
	return EXIT_USAGE;
}
