/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target.h - the filesystems under test.
 *
 * SPEC grammar (documented in README.md and `fslab help targets`):
 *
 *	FSTYPE[:key=val,...]   owned loop image, e.g.
 *	                       ext4:mkfs=-O ^flex_bg,mount=noatime\,nobarrier
 *	dev:/dev/X[:key=val,...]  format a real device (refused while it is
 *	                       mounted or holds data, unless --destroy-data)
 *	                       keys: fs= (default ext4), mkfs=, mount=, name=
 *	dir:PATH[:name=LABEL]  an existing directory; nothing is formatted
 *	aged:NAME[:mount=..,name=..]  a fresh copy of the golden image
 *	                       NAME that `fslab age --save NAME` kept
 *
 * keys for FSTYPE: mkfs= (extra mkfs arguments), mount= (mount options),
 * size= (image size, default 8G, sparse), name= (label in reports),
 * age= (a profile: `fslab age` it to 80 % with seed 1 during setup).
 * Commas inside a value are written `\,` or the value is quoted with
 * '...' or "...".
 *
 * Safety: every image, loop device and mount point is written to the
 * state journal (state.h) before it is created, so `fslab cleanup` can
 * remove it after a crash and touches nothing it did not record.
 */
#ifndef FSLAB_TARGET_H
#define FSLAB_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/result.h"

#define TARGET_DEFAULT_SIZE (8ULL << 30)
#define TARGET_DEFAULT_SCRATCH "/var/tmp/fslab"

enum target_kind {
	TARGET_LOOP, /* owned sparse image + loop device */
	TARGET_DEV,  /* a real device the user named */
	TARGET_DIR,  /* an existing directory */
	TARGET_AGED, /* a fresh copy of an aged golden image (golden.h),
		      * attached and mounted like TARGET_LOOP */
};

struct target_spec {
	enum target_kind kind;
	char *spec;       /* the text as given */
	char *fstype;     /* NULL for dir: */
	char *mkfs_args;  /* extra mkfs arguments, NULL if none */
	char *mount_opts; /* NULL if none */
	uint64_t size;    /* loop image size */
	char *name;       /* label; defaults to fstype[+opts] or the path */
	char *path;       /* dev: device node, dir: directory, aged: NAME */
	char *age;        /* loop: age=PROFILE, aged during setup, or NULL */
};

/*
 * Parse a SPEC.  Returns 0, or -1 with a one-line reason in err naming
 * the offending part ("unknown key 'sze' (did you mean 'size'?)").
 */
int target_spec_parse(const char *s, struct target_spec *out, char *err,
		      size_t errlen);
void target_spec_release(struct target_spec *ts);

/* Run-wide settings for building targets. */
/*
 * Ages a freshly made filesystem's working directory for age=PROFILE.
 * The caller provides it (the runner passes age/'s ager_age_default), so
 * fs/ never calls up into age/.  0 or -1 (message printed).
 */
typedef int (*target_age_fn)(const char *dir, const char *profile);

struct target_env {
	const char *scratch;      /* directory for images and mount points */
	const char *destroy_data; /* --destroy-data=/dev/X, or NULL */
	const char *tag;          /* unique per run, used in file names */
	target_age_fn age;        /* for age=PROFILE; NULL refuses it */
};

struct target {
	struct target_spec spec;  /* a deep copy */
	char *image;       /* loop: image file path */
	char *device;      /* loop: /dev/loopN; dev: the device */
	char *devname;     /* /sys/block name for I/O counters ("loop3") */
	char *mnt;         /* mount point we own (loop:, dev:) */
	char *workdir;     /* where workloads run: mnt/fslab or dir: path */
	char *fstype;      /* effective fstype */
	char *uuid;
	char *mkfs_version;
	char *mkfs_cmd;    /* the mkfs command line as run (provenance) */
	char *eff_mount_opts;
	uint64_t size;
	int loop_fd;       /* held open so LO_FLAGS_AUTOCLEAR keeps it bound */
	int scratch_fd;    /* the scratch directory, checked safe */
	int mnt_fd;        /* the mount point we created (O_PATH) */
	int root_fd;       /* the root of our mount, from fsmount (O_PATH) */
	bool mounted;
	bool warned_cold;  /* the dir: cold-cache warning was printed */
};

/*
 * Build the target: for loop, check scratch space, create the sparse image,
 * attach it with LOOP_CONFIGURE (direct I/O), mkfs, mount with libmount on
 * a private mount point; for dev:, refuse unless safe (see above) then mkfs
 * and mount; for dir:, check it is a writable directory.  Fills t.  Prints
 * the reason and returns -1 on a runtime failure (mkfs failed, no loop
 * device...), or -2 when it refuses (device mounted or holding data without
 * --destroy-data, directory not writable, mkfs not installed, not root):
 * the caller exits with EXIT_USAGE then.  Undoes what it did either way.
 */
int target_setup(struct target *t, const struct target_spec *spec,
		 const struct target_env *env);
/* Unmount, detach, remove the image and mount point.  Safe to call twice,
 * and on a target whose setup failed.  0 or -1 (message printed). */
int target_teardown(struct target *t);

/* syncfs() the working directory's filesystem.  0 or -1. */
int target_sync(struct target *t);
/* sync + echo 3 > drop_caches (root); fadvise fallback otherwise. */
int target_drop_caches(struct target *t);
/*
 * Cold cache between phases: syncfs, unmount and mount again (owned
 * targets), then drop caches.  On dir: or as non-root: fadvise(DONTNEED)
 * every file under workdir and warn once that dentries/inodes stay cached.
 */
int target_cold(struct target *t);

/*
 * Unmount an owned target (loop, aged, dev:) after syncing it, e.g. for
 * a filesystem checker, and mount it again with the same options.
 * Both journal like the first mount.  0 or -1 (message printed); -2
 * from target_unmount on a dir: target, which fslab did not mount.
 */
int target_unmount(struct target *t);
int target_mount_again(struct target *t);

/* Copy what the store keeps about t into rec (strings duplicated). */
void target_to_rec(const struct target *t, struct target_rec *rec);

#endif
