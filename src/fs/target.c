/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target.c - build, cool down and tear down the filesystems under test.
 *
 * Every resource is journaled (state.h) before it is created and marked
 * done after it is removed, and the struct target records only what
 * exists, so teardown can run after a setup that failed half-way, twice,
 * or after a failed remount, and still remove exactly what was made.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "fs/golden.h"
#include "fs/blkdev.h"
#include "fs/loop.h"
#include "fs/mkfs.h"
#include "fs/mount.h"
#include "fs/state.h"
#include "fs/target.h"
#include "util/util.h"

#define UMOUNT_TRIES 10
#define UMOUNT_WAIT_MS 200

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void spec_copy(struct target_spec *dst, const struct target_spec *src)
{
	dst->kind = src->kind;
	dst->spec = xstrdup_or_null(src->spec);
	dst->fstype = xstrdup_or_null(src->fstype);
	dst->mkfs_args = xstrdup_or_null(src->mkfs_args);
	dst->mount_opts = xstrdup_or_null(src->mount_opts);
	dst->size = src->size;
	dst->name = xstrdup_or_null(src->name);
	dst->path = xstrdup_or_null(src->path);
	dst->age = xstrdup_or_null(src->age);
}

static int need_root(const struct target_spec *spec)
{
	if (is_root())
		return 0;
	if (spec->kind == TARGET_DEV)
		error("formatting '%s' needs root", spec->path);
	else
		error("creating a loop target needs root; use dir:PATH to run "
		      "on an existing directory");
	return -2;
}

/* Create the scratch directory and return its canonical path. */
static char *scratch_prepare(const char *scratch)
{
	char *real;

	if (mkdir_p(scratch, 0700) < 0) {
		error_errno("cannot create scratch directory '%s'", scratch);
		return NULL;
	}
	/* The loop driver reports canonical backing paths; match them. */
	real = realpath(scratch, NULL);
	if (!real)
		error_errno("cannot resolve '%s'", scratch);
	return real;
}

static int check_space(const char *dir, uint64_t size)
{
	struct statvfs sv;
	uint64_t avail;
	char need[32], have[32];

	if (statvfs(dir, &sv) < 0)
		return error_errno("cannot stat filesystem of '%s'", dir);
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail >= size)
		return 0;
	error("not enough space in '%s' for a %s image: %s free; use a "
	      "smaller size= or another --scratch", dir,
	      fmt_size(need, sizeof(need), size),
	      fmt_size(have, sizeof(have), avail));
	return -2;
}

static bool path_exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0 || errno != ENOENT;
}

/* <scratch>/<tag>-<n>.img and .mnt, with n the first unused number. */
static void pick_names(const char *scratch, const char *tag, char **img,
		       char **mnt)
{
	static unsigned next;
	char *deftag = NULL;

	if (!tag || !*tag)
		tag = deftag = xasprintf("fslab-%ld", (long)getpid());
	for (;; next++) {
		*img = xasprintf("%s/%s-%u.img", scratch, tag, next);
		*mnt = xasprintf("%s/%s-%u.mnt", scratch, tag, next);
		if (!path_exists(*img) && !path_exists(*mnt))
			break;
		free(*img);
		free(*mnt);
	}
	next++;
	free(deftag);
}

static int make_image(struct target *t, char *img)
{
	int fd;

	if (state_record("image", img) < 0)
		return -1;
	fd = open(img, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		error_errno("cannot create image '%s'", img);
		state_done("image", img);
		return -1;
	}
	t->image = img;
	if (ftruncate(fd, (off_t)t->size) < 0) {
		error_errno("cannot size image '%s'", img);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int attach_loop(struct target *t)
{
	if (state_record("loop", t->image) < 0)
		return -1;
	if (loop_attach(t->image, &t->loop_fd, &t->device) < 0) {
		state_done("loop", t->image);
		return -1;
	}
	return 0;
}

static int make_mountpoint(struct target *t, char *mnt)
{
	if (state_record("mountpoint", mnt) < 0)
		return -1;
	if (mkdir(mnt, 0700) < 0) {
		error_errno("cannot create mount point '%s'", mnt);
		state_done("mountpoint", mnt);
		return -1;
	}
	t->mnt = mnt;
	return 0;
}

static int mount_target(struct target *t)
{
	if (state_record("mount", t->mnt) < 0)
		return -1;
	if (mount_fs(t->device, t->mnt, t->fstype, t->spec.mount_opts) < 0) {
		state_done("mount", t->mnt);
		return -1;
	}
	t->mounted = true;
	return 0;
}

static int umount_target(struct target *t)
{
	int i;

	if (!t->mounted)
		return 0;
	for (i = 0; i < UMOUNT_TRIES; i++) {
		if (!mount_umount(t->mnt, false))
			break;
		if (errno != EBUSY)
			return error_errno("cannot unmount '%s'", t->mnt);
		sleep_ms(UMOUNT_WAIT_MS);
	}
	if (i == UMOUNT_TRIES)
		return error("cannot unmount '%s': still busy after %d s; "
			     "run 'fslab cleanup' once nothing uses it",
			     t->mnt, UMOUNT_TRIES * UMOUNT_WAIT_MS / 1000);
	t->mounted = false;
	state_done("mount", t->mnt);
	return 0;
}

/* After mkfs: UUID, mount on a private mount point, the work directory. */
static int mount_and_prepare(struct target *t, char *mnt)
{
	int ret;

	t->uuid = blkdev_uuid(t->device);
	if (make_mountpoint(t, mnt) < 0) {
		free(mnt);
		return -1;
	}
	if ((ret = mount_target(t)) < 0)
		return ret;
	/* Keep lost+found and friends out of the workloads' way. */
	t->workdir = path_join(t->mnt, "fslab");
	if (mkdir(t->workdir, 0755) < 0 && errno != EEXIST)
		return error_errno("cannot create '%s'", t->workdir);
	t->eff_mount_opts = mount_options(t->mnt);
	return 0;
}

static int setup_loop(struct target *t, const struct target_env *env)
{
	char *scratch, *img, *mnt;
	const char *slash;
	int ret;

	if ((ret = need_root(&t->spec)) || (ret = mkfs_check(t->fstype)))
		return ret;
	scratch = scratch_prepare(env->scratch ? env->scratch :
				  TARGET_DEFAULT_SCRATCH);
	if (!scratch)
		return -1;
	t->size = t->spec.size;
	if ((ret = check_space(scratch, t->size)) < 0)
		goto out;
	pick_names(scratch, env->tag, &img, &mnt);
	if ((ret = make_image(t, img)) < 0) {
		if (!t->image)
			free(img);
		free(mnt);
		goto out;
	}
	if ((ret = attach_loop(t)) < 0) {
		free(mnt);
		goto out;
	}
	slash = strrchr(t->device, '/');
	t->devname = xstrdup(slash ? slash + 1 : t->device);
	ret = mkfs_run(t->fstype, t->device, t->spec.mkfs_args,
		       &t->mkfs_version);
	if (ret < 0) {
		free(mnt);
		goto out;
	}
	ret = mount_and_prepare(t, mnt);
	/* age=PROFILE: the same aging as `fslab age`, before any workload. */
	if (!ret && t->spec.age)
		ret = env->age ? env->age(t->workdir, t->spec.age)
			       : error("target '%s': age= is not supported "
				       "here", t->spec.name);
out:
	free(scratch);
	return ret;
}

/*
 * aged:NAME - copy the golden image to a new journaled image (refused
 * when the scratch filesystem lacks room), then attach and mount it like
 * a loop image: every use starts from the same aged state.
 */
static int setup_aged(struct target *t, const struct target_env *env)
{
	struct golden_meta m;
	char *scratch, *img, *mnt, *golden = NULL;
	const char *slash;
	int ret;

	if ((ret = need_root(&t->spec)))
		return ret;
	scratch = scratch_prepare(env->scratch ? env->scratch :
				  TARGET_DEFAULT_SCRATCH);
	if (!scratch)
		return -1;
	if (golden_load_meta(scratch, t->spec.path, &m) < 0) {
		free(scratch);
		return -2;
	}
	free(t->fstype);
	t->fstype = xstrdup(m.fstype);
	free(t->spec.fstype);
	t->spec.fstype = xstrdup(m.fstype);
	if (!t->spec.mkfs_args && m.mkfs_args)
		t->spec.mkfs_args = xstrdup(m.mkfs_args);
	if (!t->spec.mount_opts && m.mount_opts)
		t->spec.mount_opts = xstrdup(m.mount_opts);
	t->mkfs_version = m.mkfs_version ? xstrdup(m.mkfs_version) : NULL;
	t->size = m.size;
	golden = golden_image_path(scratch, t->spec.path);
	pick_names(scratch, env->tag, &img, &mnt);
	if ((ret = state_record("image", img)) < 0) {
		free(img);
		free(mnt);
		goto out;
	}
	if ((ret = golden_copy(golden, img)) < 0) {
		state_done("image", img);
		free(img);
		free(mnt);
		goto out;
	}
	t->image = img;
	if ((ret = attach_loop(t)) < 0) {
		free(mnt);
		goto out;
	}
	slash = strrchr(t->device, '/');
	t->devname = xstrdup(slash ? slash + 1 : t->device);
	ret = mount_and_prepare(t, mnt);
out:
	golden_meta_release(&m);
	free(golden);
	free(scratch);
	return ret;
}

static int setup_dev(struct target *t, const struct target_env *env)
{
	char *scratch, *img, *mnt;
	struct stat st;
	int ret;

	if ((ret = need_root(&t->spec)) || (ret = mkfs_check(t->fstype)))
		return ret;
	if ((ret = blkdev_check(t->spec.path, env->destroy_data)) < 0)
		return ret;
	if (blkdev_size(t->spec.path, &t->size) < 0)
		return -1;
	if (stat(t->spec.path, &st) == 0)
		t->devname = blkdev_sysname(st.st_rdev);
	scratch = scratch_prepare(env->scratch ? env->scratch :
				  TARGET_DEFAULT_SCRATCH);
	if (!scratch)
		return -1;
	t->device = xstrdup(t->spec.path);
	ret = mkfs_run(t->fstype, t->device, t->spec.mkfs_args,
		       &t->mkfs_version);
	if (ret == 0) {
		pick_names(scratch, env->tag, &img, &mnt);
		free(img);
		ret = mount_and_prepare(t, mnt);
	}
	free(scratch);
	return ret;
}

/* statfs magic, for when mountinfo cannot tell (it nearly always can). */
static const char *fstype_from_magic(const char *path)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} magics[] = {
		{ 0xEF53, "ext4" }, { 0x58465342, "xfs" },
		{ 0x9123683E, "btrfs" }, { 0x01021994, "tmpfs" },
		{ 0x794c7630, "overlay" }, { 0x6969, "nfs" },
		{ 0xF2F52010, "f2fs" }, { 0x2FC12FC1, "zfs" },
	};
	struct statfs sf;
	size_t i;

	if (statfs(path, &sf) < 0)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(magics); i++)
		if ((unsigned long)sf.f_type == magics[i].magic)
			return magics[i].name;
	return NULL;
}

static int setup_dir(struct target *t)
{
	const char *path = t->spec.path;
	struct statvfs sv;
	struct stat st;
	dev_t devno = 0;
	char *probe;
	int fd;

	if (stat(path, &st) < 0) {
		error_errno("cannot use '%s'", path);
		return -2;
	}
	if (!S_ISDIR(st.st_mode)) {
		error("cannot use '%s': not a directory", path);
		return -2;
	}
	if (access(path, W_OK) < 0) {
		error_errno("cannot use '%s': not writable", path);
		return -2;
	}
	/* access() ignores read-only mounts and ACL quirks; a file does not. */
	probe = xasprintf("%s/.fslab-probe-%ld", path, (long)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		error_errno("cannot use '%s': cannot create a file in it",
			    path);
		free(probe);
		return -2;
	}
	close(fd);
	unlink(probe);
	free(probe);

	t->workdir = realpath(path, NULL);
	if (!t->workdir)
		t->workdir = xstrdup(path);
	if (mount_find_containing(t->workdir, &t->fstype, &t->eff_mount_opts,
				  &devno) < 0) {
		const char *m = fstype_from_magic(path);

		t->fstype = m ? xstrdup(m) : NULL;
		devno = st.st_dev;
	}
	t->devname = blkdev_sysname(devno);
	if (statvfs(path, &sv) == 0)
		t->size = (uint64_t)sv.f_blocks * sv.f_frsize;
	return 0;
}

int target_setup(struct target *t, const struct target_spec *spec,
		 const struct target_env *env)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->loop_fd = -1;
	spec_copy(&t->spec, spec);
	t->fstype = xstrdup_or_null(spec->fstype);
	switch (spec->kind) {
	case TARGET_LOOP:
		ret = setup_loop(t, env);
		break;
	case TARGET_DEV:
		ret = setup_dev(t, env);
		break;
	case TARGET_DIR:
		ret = setup_dir(t);
		break;
	case TARGET_AGED:
		ret = setup_aged(t, env);
		break;
	default:
		BUG("bad target kind %d", spec->kind);
	}
	if (ret < 0)
		target_teardown(t);
	return ret;
}

int target_teardown(struct target *t)
{
	int ret = 0;

	if (umount_target(t) < 0)
		return -1; /* keep everything, so a later call can retry */
	if ((t->spec.kind == TARGET_LOOP || t->spec.kind == TARGET_AGED) &&
	    t->device) {
		if (loop_detach(t->loop_fd, t->device, t->image) < 0)
			ret = -1;
		else
			state_done("loop", t->image);
		t->loop_fd = -1;
	}
	if (t->image) {
		if (unlink(t->image) < 0 && errno != ENOENT)
			ret = error_errno("cannot remove '%s'", t->image);
		else
			state_done("image", t->image);
	}
	if (t->mnt) {
		if (rmdir(t->mnt) < 0 && errno != ENOENT)
			ret = error_errno("cannot remove '%s'", t->mnt);
		else
			state_done("mountpoint", t->mnt);
	}
	target_spec_release(&t->spec);
	free(t->image);
	free(t->device);
	free(t->devname);
	free(t->mnt);
	free(t->workdir);
	free(t->fstype);
	free(t->uuid);
	free(t->mkfs_version);
	free(t->eff_mount_opts);
	memset(t, 0, sizeof(*t));
	t->loop_fd = -1;
	return ret;
}

int target_sync(struct target *t)
{
	int fd, ret = 0;

	if (!t->workdir)
		return 0;
	fd = open(t->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open '%s'", t->workdir);
	if (syncfs(fd) < 0)
		ret = error_errno("cannot sync '%s'", t->workdir);
	close(fd);
	return ret;
}

static int fadvise_one(const char *path, const struct stat *st, int flag,
		       struct FTW *ftw)
{
	int fd;

	(void)ftw;
	if (flag != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0; /* gone, or not ours to read: nothing cached by us */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return 0;
}

static int fadvise_tree(struct target *t)
{
	if (!t->warned_cold) {
		t->warned_cold = true;
		warning("without root only the page cache of '%s' is dropped; "
			"dentries and inodes stay cached", t->workdir);
	}
	if (nftw(t->workdir, fadvise_one, 16, FTW_PHYS | FTW_MOUNT) < 0)
		return error_errno("cannot walk '%s'", t->workdir);
	return 0;
}

int target_drop_caches(struct target *t)
{
	if (target_sync(t) < 0)
		return -1;
	if (!is_root())
		return fadvise_tree(t);
	if (write_file_str("/proc/sys/vm/drop_caches", "3") < 0)
		return error_errno("cannot drop caches");
	return 0;
}

int target_unmount(struct target *t)
{
	if (t->spec.kind == TARGET_DIR || !t->mnt)
		return -2;
	if (!t->mounted)
		return 0;
	if (target_sync(t) < 0)
		return -1;
	return umount_target(t);
}

int target_mount_again(struct target *t)
{
	if (t->mounted)
		return 0;
	/* Journal the remount like the first mount: it may fail half-way. */
	if (state_record("mount", t->mnt) < 0)
		return -1;
	if (mount_fs(t->device, t->mnt, t->fstype, t->spec.mount_opts) < 0) {
		state_done("mount", t->mnt);
		return -1;
	}
	t->mounted = true;
	free(t->eff_mount_opts);
	t->eff_mount_opts = mount_options(t->mnt);
	return 0;
}

int target_cold(struct target *t)
{
	if (t->spec.kind == TARGET_DIR || !t->mnt || !is_root())
		return target_drop_caches(t);
	if (target_unmount(t) < 0 || target_mount_again(t) < 0)
		return -1;
	return target_drop_caches(t);
}

static const char *kind_name(enum target_kind k)
{
	switch (k) {
	case TARGET_LOOP:
		return "loop";
	case TARGET_DEV:
		return "dev";
	case TARGET_DIR:
		return "dir";
	case TARGET_AGED:
		return "aged";
	}
	return "?";
}

void target_to_rec(const struct target *t, struct target_rec *rec)
{
	rec->spec = xstrdup_or_null(t->spec.spec);
	rec->name = xstrdup_or_null(t->spec.name);
	rec->kind = xstrdup(kind_name(t->spec.kind));
	rec->fstype = xstrdup_or_null(t->fstype);
	rec->mkfs_opts = xstrdup_or_null(t->spec.mkfs_args);
	rec->mount_opts = xstrdup_or_null(t->spec.mount_opts);
	rec->eff_mount_opts = xstrdup_or_null(t->eff_mount_opts);
	rec->device = xstrdup_or_null(t->device);
	rec->uuid = xstrdup_or_null(t->uuid);
	rec->mkfs_version = xstrdup_or_null(t->mkfs_version);
	rec->path = xstrdup_or_null(t->workdir);
	rec->size = t->size;
}
