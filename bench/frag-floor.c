// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frag-floor.c - the kernel-side floor of a FIEMAP survey, for
 * bench/frag-vs-filefrag.sh: a depth-first walk with openat/getdents64
 * relative to directory fds doing only what any per-file survey must
 * (open, one FS_IOC_FIEMAP, close; with -s also fstat for the size),
 * with no aggregation at all.  It prints the files seen, the total
 * extents and its own user and system CPU time, so the bench can show
 * how close fslab frag gets to what the kernel alone costs.
 *
 *   frag-floor [-s] [-y] DIR      (-s: also fstat, -y: FIEMAP_FLAG_SYNC)
 *
 * Single-threaded on purpose: the floor on N cores is its CPU time / N.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static bool do_stat, do_sync;
static uint64_t files, extents;
static union {
	struct fiemap fm;
	char raw[sizeof(struct fiemap) + 64 * sizeof(struct fiemap_extent)];
} buf;

static void file(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NOATIME |
					   O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return;
	if (do_stat)
		fstat(fd, &st);
	memset(&buf.fm, 0, sizeof(buf.fm));
	buf.fm.fm_length = ~0ULL;
	buf.fm.fm_flags = do_sync ? FIEMAP_FLAG_SYNC : 0;
	buf.fm.fm_extent_count = 64;
	if (ioctl(fd, FS_IOC_FIEMAP, &buf.fm) == 0)
		extents += buf.fm.fm_mapped_extents;
	files++;
	close(fd);
}

static void dir(int fd)
{
	char dbuf[32768];
	long n;

	while ((n = syscall(SYS_getdents64, fd, dbuf, sizeof(dbuf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *d = (void *)(dbuf + off);

			off += d->d_reclen;
			if (d->d_type == DT_REG) {
				file(fd, d->d_name);
			} else if (d->d_type == DT_DIR &&
				   strcmp(d->d_name, ".") &&
				   strcmp(d->d_name, "..")) {
				int sub = openat(fd, d->d_name, O_RDONLY |
						 O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);

				if (sub >= 0)
					dir(sub);
			}
		}
	}
	close(fd);
}

int main(int argc, char **argv)
{
	struct rusage ru;
	int c, fd;

	while ((c = getopt(argc, argv, "sy")) != -1) {
		if (c == 's')
			do_stat = true;
		else if (c == 'y')
			do_sync = true;
		else
			return 2;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: frag-floor [-s] [-y] DIR\n");
		return 2;
	}
	fd = open(argv[optind], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[optind]);
		return 2;
	}
	dir(fd);
	getrusage(RUSAGE_SELF, &ru);
	printf("files %llu extents %llu user %.3f sys %.3f\n",
	       (unsigned long long)files, (unsigned long long)extents,
	       (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
