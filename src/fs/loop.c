/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop.c - attach owned images to loop devices and find or detach them
 * again.  Devices are configured in one LOOP_CONFIGURE call with direct
 * I/O (the page cache of the image's host filesystem would otherwise
 * cache every block a second time and distort cold-cache numbers) and
 * autoclear (the kernel detaches the device once fslab's fd is gone,
 * even after SIGKILL).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "fs/loop.h"
#include "util/util.h"

#define LOOP_ATTACH_TRIES 32

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* "/dev/loop3" -> "/sys/block/loop3/loop/<attr>" */
static char *loop_sysfs(const char *dev, const char *attr)
{
	const char *base = strrchr(dev, '/');

	return xasprintf("/sys/block/%s/loop/%s", base ? base + 1 : dev, attr);
}

/* The backing file of dev, or NULL when the device is not bound. */
static char *loop_backing(const char *dev)
{
	char *path = loop_sysfs(dev, "backing_file");
	char *s = read_file(path, NULL);
	size_t len;

	free(path);
	if (!s)
		return NULL;
	len = strlen(s);
	while (len && s[len - 1] == '\n')
		s[--len] = '\0';
	if (!len) {
		free(s);
		return NULL;
	}
	return s;
}

static bool backing_matches(const char *backing, const char *image)
{
	size_t n = strlen(image);

	if (!backing || strncmp(backing, image, n))
		return false;
	return !backing[n] || !strcmp(backing + n, " (deleted)");
}

static void check_dio(const char *dev)
{
	static bool warned;
	char *path = loop_sysfs(dev, "dio");
	char *s = read_file(path, NULL);

	if (s && s[0] == '0' && !warned) {
		warned = true;
		warning("'%s' does not use direct I/O: the image's blocks are "
			"also cached by the host filesystem", dev);
	}
	free(s);
	free(path);
}

int loop_attach_fd(int ffd, const char *image, int *fdp, char **devp)
{
	static bool warned_dio;
	struct loop_config cfg;
	bool dio = true;
	int ctl, lfd = -1, tries;
	char *dev = NULL;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return error_errno("cannot open '/dev/loop-control' (is the "
				   "loop module loaded?)");
	for (tries = 0; tries < LOOP_ATTACH_TRIES; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (n < 0) {
			error_errno("cannot get a free loop device");
			goto fail;
		}
		free(dev);
		dev = xasprintf("/dev/loop%d", n);
		lfd = open(dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			/* devtmpfs may lag behind a freshly added device. */
			if (errno == ENOENT) {
				sleep_ms(10);
				continue;
			}
			error_errno("cannot open '%s'", dev);
			goto fail;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)ffd;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR |
				    (dio ? LO_FLAGS_DIRECT_IO : 0);
		strncpy((char *)cfg.info.lo_file_name, image,
			LO_NAME_SIZE - 1);
		if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0)
			break;
		if (errno == EINVAL && dio) {
			dio = false;
			if (!warned_dio) {
				warned_dio = true;
				warning("the kernel refused direct I/O for "
					"'%s'; the image's blocks are also "
					"cached by the host filesystem", image);
			}
		} else if (errno != EBUSY) {
			/* EBUSY: another process won the race for it. */
			error_errno("cannot attach '%s' to '%s'", image, dev);
			goto fail;
		}
		close(lfd);
		lfd = -1;
	}
	if (lfd < 0) {
		error("cannot attach '%s': no free loop device after %d tries",
		      image, LOOP_ATTACH_TRIES);
		goto fail;
	}
	close(ctl);
	if (dio)
		check_dio(dev);
	*fdp = lfd;
	*devp = dev;
	return 0;

fail:
	if (lfd >= 0)
		close(lfd);
	free(dev);
	close(ctl);
	return -1;
}

/* Detach dev if, and only if, it is still bound to image.  0 or -1. */
static int loop_clear(const char *dev, const char *image)
{
	char *backing = loop_backing(dev);
	int fd, ret = 0;

	if (!backing_matches(backing, image)) {
		free(backing);
		return 0;
	}
	free(backing);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open '%s'", dev);
	/* ENXIO: it went away between the check and the ioctl. */
	if (ioctl(fd, LOOP_CLR_FD, 0) < 0 && errno != ENXIO)
		ret = error_errno("cannot detach '%s'", dev);
	close(fd);
	return ret;
}

int loop_detach(int fd, const char *dev, const char *image)
{
	int i;

	if (fd >= 0)
		close(fd);
	/*
	 * Autoclear runs when the last opener goes, which may be udev's
	 * probe rather than us: give it a moment before forcing it.
	 */
	for (i = 0; i < 20; i++) {
		char *backing = loop_backing(dev);
		bool bound = backing_matches(backing, image);

		free(backing);
		if (!bound)
			return 0;
		sleep_ms(50);
	}
	return loop_clear(dev, image);
}

/* The kernel's huge_encode_dev() of lo_device, back to a dev_t. */
static dev_t decode_dev(uint64_t d)
{
	return makedev((unsigned)((d & 0xfff00) >> 8),
		       (unsigned)((d & 0xff) | ((d >> 12) & 0xfff00)));
}

/* The backing file's device and inode of the loop device open on fd. */
static int fd_backing_ident(int fd, unsigned long long *bdev,
			    unsigned long long *ino)
{
	struct loop_info64 info;

	if (ioctl(fd, LOOP_GET_STATUS64, &info) < 0)
		return -1;
	*bdev = (unsigned long long)decode_dev(info.lo_device);
	*ino = (unsigned long long)info.lo_inode;
	return 0;
}

int loop_backing_ident(const char *dev, unsigned long long *bdev,
		       unsigned long long *ino)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = fd_backing_ident(fd, bdev, ino);
	close(fd);
	return rc;
}

/*
 * The loop devices whose backing file (as loop_backing() reads it)
 * matches, as a NULL-terminated list the caller frees.
 */
static char **loop_find(bool (*match)(const char *dev, const char *backing,
				      const void *arg),
			const void *arg)
{
	char **list = xcalloc(1, sizeof(*list));
	size_t nr = 0, alloc = 1;
	struct dirent *de;
	DIR *d = opendir("/sys/block");

	if (!d)
		return list;
	while ((de = readdir(d))) {
		char *dev, *backing;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		dev = xasprintf("/dev/%s", de->d_name);
		backing = loop_backing(dev);
		if (backing && match(dev, backing, arg)) {
			ALLOC_GROW(list, nr + 2, alloc);
			list[nr++] = dev;
			list[nr] = NULL;
		} else {
			free(dev);
		}
		free(backing);
	}
	closedir(d);
	return list;
}

struct ident {
	unsigned long long bdev, ino;
};

static bool ident_matches(const char *dev, const char *backing,
			  const void *arg)
{
	const struct ident *id = arg;
	unsigned long long bd, in;

	(void)backing;
	return !loop_backing_ident(dev, &bd, &in) && bd == id->bdev &&
	       in == id->ino;
}

char **loop_find_by_ident(unsigned long long bdev, unsigned long long ino)
{
	struct ident id = { bdev, ino };

	return loop_find(ident_matches, &id);
}

int loop_clear_ident(const char *dev, unsigned long long bdev,
		     unsigned long long ino)
{
	unsigned long long bd, in;
	int fd, ret = 0;

	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open '%s'", dev);
	/*
	 * Checked on the fd we detach through: no other device slips in.
	 * Unbound by now, or bound to another file: nothing of ours.
	 */
	if (fd_backing_ident(fd, &bd, &in) < 0 || bd != bdev || in != ino) {
		close(fd);
		return 0;
	}
	if (ioctl(fd, LOOP_CLR_FD, 0) < 0 && errno != ENXIO)
		ret = error_errno("cannot detach '%s'", dev);
	close(fd);
	return ret;
}

static bool path_matches(const char *dev, const char *backing,
			 const void *arg)
{
	(void)dev;
	return backing_matches(backing, arg);
}

char **loop_find_by_backing(const char *path)
{
	return loop_find(path_matches, path);
}
