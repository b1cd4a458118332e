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
#include "fs/safedir.h"
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

/*
 * Create the scratch directory, check that nobody but us can redirect
 * names in it (safedir.h), mark it in the journal and return its
 * canonical path; *fd is the open directory.  NULL (-2 in *rc: refused)
 * or NULL (-1: failed).
 */
static char *scratch_prepare(const char *scratch, int *fd, int *rc)
{
	char why[768], *real = NULL, *priv = NULL;
	struct stat st;

	*rc = -2;
	if (strchr(scratch, '\n') || strchr(scratch, '\r')) {
		error("cannot use scratch directory '%s': a line break in the "
		      "name; use another --scratch", scratch);
		return NULL;
	}
	/* A sticky shared directory (/tmp, a tmpfs root): a private
	 * directory of ours beneath it, checked like any scratch. */
	if (!stat(scratch, &st) && S_ISDIR(st.st_mode) &&
	    (st.st_mode & S_ISVTX) && (st.st_mode & (S_IWGRP | S_IWOTH)))
		scratch = priv = xasprintf("%s/fslab.%u", scratch,
					   (unsigned)geteuid());
	*fd = safedir_open(scratch, &real, why, sizeof(why));
	if (*fd < 0) {
		error("cannot use scratch directory '%s': %s", scratch, why);
		free(priv);
		return NULL;
	}
	free(priv);
	*rc = -1;
	return real;
}

/*
 * Mark the scratch directory of path and journal it, right before the
 * first thing fslab creates there (so a refused run creates nothing).
 */
static int journal_scratch(const char *path)
{
	char *dir = xstrndup(path, (size_t)(strrchr(path, '/') - path));
	int ret = state_scratch(dir);

	free(dir);
	return ret;
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

/*
 * <scratch>/<tag>-<n>-<nonce>.img and .mnt.  The nonce keeps a new run's
 * names apart from a dead run's journal even when the pid is reused.
 */
static void pick_names(const char *scratch, const char *tag, char **img,
		       char **mnt)
{
	static unsigned next;
	unsigned long long nonce = 0;
	char *deftag = NULL;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, &nonce, sizeof(nonce)) != (ssize_t)sizeof(nonce))
		nonce = realtime_ns();
	if (fd >= 0)
		close(fd);
	if (!tag || !*tag)
		tag = deftag = xasprintf("fslab-%ld", (long)getpid());
	*img = xasprintf("%s/%s-%u-%08llx.img", scratch, tag, next,
			 nonce & 0xffffffffULL);
	*mnt = xasprintf("%s/%s-%u-%08llx.mnt", scratch, tag, next,
			 nonce & 0xffffffffULL);
	next++;
	free(deftag);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * The image is created O_EXCL in the scratch directory we hold open and
 * stays open until the loop device is configured from that very fd.
 */
static int make_image(struct target *t, char *img, int *ifd)
{
	struct stat st;
	int fd;

	if (journal_scratch(img) < 0 || state_record("image", img) < 0)
		return -1;
	fd = openat(t->scratch_fd, base_name(img), O_RDWR | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		error_errno("cannot create image '%s'", img);
		state_done("image", img);
		return -1;
	}
	t->image = img;
	if (fstat(fd, &st) < 0 ||
	    state_ident("image", (unsigned long long)st.st_dev,
			(unsigned long long)st.st_ino, img) < 0) {
		close(fd);
		return -1;
	}
	if (ftruncate(fd, (off_t)t->size) < 0) {
		error_errno("cannot size image '%s'", img);
		close(fd);
		return -1;
	}
	*ifd = fd;
	return 0;
}

/*
 * Attach the image open on ifd (opened by name only right after its
 * O_EXCL creation; closed here) and name the device.
 */
static int attach_loop(struct target *t, int ifd)
{
	const char *slash;
	int ret;

	ret = state_record("loop", t->image);
	if (!ret) {
		ret = loop_attach_fd(ifd, t->image, &t->loop_fd, &t->device);
		if (ret < 0)
			state_done("loop", t->image);
	}
	close(ifd);
	if (ret < 0)
		return ret;
	slash = strrchr(t->device, '/');
	t->devname = xstrdup(slash ? slash + 1 : t->device);
	return 0;
}

/*
 * Test hook: FSLAB_TEST_HOOK_<POINT>=cmd runs cmd there, so the safety
 * tests can swap a file at the worst moment (t9510).  Compiled only into
 * test builds (make check: -DFSLAB_TEST_HOOKS): an installed fslab runs
 * as root and must not run a shell command named by its environment.
 */
#ifdef FSLAB_TEST_HOOKS
static void test_hook(const char *point, const char *path)
{
	char *var = xasprintf("FSLAB_TEST_HOOK_%s", point);
	const char *cmd = getenv(var);

	free(var);
	if (cmd && *cmd) {
		char *argv[] = { (char *)"sh", (char *)"-c", (char *)cmd,
				 (char *)"hook", (char *)path, NULL };

		run_cmd(argv, NULL, false);
	}
}
#else
static void test_hook(const char *point, const char *path)
{
	(void)point;
	(void)path;
}
#endif

static int make_mountpoint(struct target *t, char *mnt)
{
	struct stat st;

	if (journal_scratch(mnt) < 0 || state_record("mountpoint", mnt) < 0)
		return -1;
	if (mkdirat(t->scratch_fd, base_name(mnt), 0700) < 0) {
		error_errno("cannot create mount point '%s'", mnt);
		state_done("mountpoint", mnt);
		return -1;
	}
	t->mnt = mnt;
	t->mnt_fd = openat(t->scratch_fd, base_name(mnt), O_PATH | O_DIRECTORY |
			   O_NOFOLLOW | O_CLOEXEC);
	if (t->mnt_fd < 0 || fstat(t->mnt_fd, &st) < 0)
		return error_errno("cannot open mount point '%s'", mnt);
	return state_ident("mountpoint", (unsigned long long)st.st_dev,
			   (unsigned long long)st.st_ino, mnt);
}

/* Journal the mount with the device it must come from, then mount. */
static int do_mount(struct target *t)
{
	struct stat st;

	if (stat(t->device, &st) < 0 || !S_ISBLK(st.st_mode))
		return error("'%s' is not a block device", t->device);
	if (state_record("mount", t->mnt) < 0 ||
	    state_ident("mount", (unsigned long long)st.st_rdev, 0, t->mnt) < 0)
		return -1;
	test_hook("MOUNT", t->mnt);
	if (mount_fs_at(t->device, t->mnt_fd, t->mnt, t->fstype,
			t->spec.mount_opts, &t->root_fd) < 0) {
		state_done("mount", t->mnt);
		return -1;
	}
	t->mounted = true;
	/* Workloads use the name: it must lead to what we mounted. */
	if (!mount_name_is_root(t->mnt, t->root_fd))
		return error("mount point '%s' was replaced while fslab "
			     "mounted on it; refusing to use it", t->mnt);
	return 0;
}

static int mount_target(struct target *t)
{
	return do_mount(t);
}

static int umount_target(struct target *t)
{
	int i;

	if (!t->mounted)
		return 0;
	for (i = 0; i < UMOUNT_TRIES; i++) {
		if (!mount_umount_at(t->mnt, &t->root_fd, false))
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
	int ret, ifd = -1;

	if ((ret = need_root(&t->spec)) || (ret = mkfs_check(t->fstype)))
		return ret;
	scratch = scratch_prepare(env->scratch ? env->scratch :
				  TARGET_DEFAULT_SCRATCH, &t->scratch_fd, &ret);
	if (!scratch)
		return ret;
	t->size = t->spec.size;
	if ((ret = check_space(scratch, t->size)) < 0)
		goto out;
	pick_names(scratch, env->tag, &img, &mnt);
	if ((ret = make_image(t, img, &ifd)) < 0) {
		if (!t->image)
			free(img);
		free(mnt);
		goto out;
	}
	test_hook("IMAGE", t->image);
	ret = attach_loop(t, ifd);
	if (ret < 0) {
		free(mnt);
		goto out;
	}
	ret = mkfs_run(t->fstype, t->device, t->spec.mkfs_args,
		       &t->mkfs_version);
	if (ret < 0) {
		free(mnt);
		goto out;
	}
	t->mkfs_cmd = mkfs_command(t->fstype, t->spec.mkfs_args, t->device);
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
 * The golden image must be what its .meta says (size and checksum), in a
 * golden/ directory nobody else can write to: an aged: target starts from
 * exactly the state `fslab age --save` recorded, or not at all.  -2.
 */
static int golden_verify(const char *scratch, const char *golden,
			 const struct golden_meta *m)
{
	char why[768], sum[64], *gdir = path_join(scratch, "golden");
	struct stat st;
	int rc = safedir_check(gdir, why, sizeof(why));

	free(gdir);
	if (rc < 0) {
		error("cannot use the golden images: %s", why);
		return -2;
	}
	if (lstat(golden, &st) < 0 || !S_ISREG(st.st_mode)) {
		error("golden image '%s' is missing or not a regular file",
		      golden);
		return -2;
	}
	if ((uint64_t)st.st_size != m->size) {
		error("golden image '%s' is %llu bytes, its .meta says %llu: "
		      "save it again with 'fslab age --save'", golden,
		      (unsigned long long)st.st_size,
		      (unsigned long long)m->size);
		return -2;
	}
	if (golden_checksum(golden, sum, sizeof(sum)) < 0)
		return -1;
	if (strcmp(sum, m->checksum)) {
		error("golden image '%s' does not match the checksum in its "
		      ".meta (%s, recorded %s): save it again with 'fslab age "
		      "--save'", golden, sum, m->checksum);
		return -2;
	}
	return 0;
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
	struct stat st;
	int ret, ifd;

	if ((ret = need_root(&t->spec)))
		return ret;
	scratch = scratch_prepare(env->scratch ? env->scratch :
				  TARGET_DEFAULT_SCRATCH, &t->scratch_fd, &ret);
	if (!scratch)
		return ret;
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
	/* The golden image's mkfs, with its recorded arguments. */
	t->mkfs_cmd = mkfs_command(t->fstype, t->spec.mkfs_args, t->device);
	t->size = m.size;
	golden = golden_image_path(scratch, t->spec.path);
	if ((ret = golden_verify(scratch, golden, &m)) < 0)
		goto out;
	pick_names(scratch, env->tag, &img, &mnt);
	if ((ret = journal_scratch(img)) < 0 ||
	    (ret = state_record("image", img)) < 0) {
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
	ifd = openat(t->scratch_fd, base_name(img), O_RDWR | O_NOFOLLOW |
		     O_CLOEXEC);
	if (ifd < 0 || fstat(ifd, &st) < 0 ||
	    state_ident("image", (unsigned long long)st.st_dev,
			(unsigned long long)st.st_ino, img) < 0) {
		ret = ifd < 0 ? error_errno("cannot open '%s'", img) : -1;
		if (ifd >= 0)
			close(ifd);
		free(mnt);
		goto out;
	}
	ret = attach_loop(t, ifd);
	if (ret < 0) {
		free(mnt);
		goto out;
	}
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
				  TARGET_DEFAULT_SCRATCH, &t->scratch_fd, &ret);
	if (!scratch)
		return ret;
	t->device = xstrdup(t->spec.path);
	ret = mkfs_run(t->fstype, t->device, t->spec.mkfs_args,
		       &t->mkfs_version);
	if (ret == 0) {
		t->mkfs_cmd = mkfs_command(t->fstype, t->spec.mkfs_args,
					   t->device);
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
	t->loop_fd = t->scratch_fd = t->mnt_fd = t->root_fd = -1;
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
	/* Through the scratch fd: the names we created, where we made them. */
	if (t->image) {
		if (unlinkat(t->scratch_fd, base_name(t->image), 0) < 0 &&
		    errno != ENOENT)
			ret = error_errno("cannot remove '%s'", t->image);
		else
			state_done("image", t->image);
	}
	if (t->mnt_fd >= 0)
		close(t->mnt_fd);
	if (t->root_fd >= 0)
		close(t->root_fd);
	if (t->mnt) {
		if (unlinkat(t->scratch_fd, base_name(t->mnt),
			     AT_REMOVEDIR) < 0 && errno != ENOENT)
			ret = error_errno("cannot remove '%s'", t->mnt);
		else
			state_done("mountpoint", t->mnt);
	}
	if (t->scratch_fd >= 0)
		close(t->scratch_fd);
	target_spec_release(&t->spec);
	free(t->image);
	free(t->device);
	free(t->devname);
	free(t->mnt);
	free(t->workdir);
	free(t->fstype);
	free(t->uuid);
	free(t->mkfs_version);
	free(t->mkfs_cmd);
	free(t->eff_mount_opts);
	memset(t, 0, sizeof(*t));
	t->loop_fd = t->scratch_fd = t->mnt_fd = t->root_fd = -1;
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
	if (do_mount(t) < 0)
		return -1;
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
	rec->mkfs_cmd = xstrdup_or_null(t->mkfs_cmd);
	rec->path = xstrdup_or_null(t->workdir);
	rec->size = t->size;
}
