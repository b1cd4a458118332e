/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * calibrate.c - measure a real disk into a disk profile (the engine of
 * `fslab disk calibrate`).
 *
 * It only reads (O_RDONLY | O_DIRECT, so the page cache does not
 * answer) and refuses a device that it or a partition of it is mounted,
 * swap or held, or that is not a block device.  What it cannot see from
 * the host (heads; rpm unless the drive reports it) it writes as
 * assumed, in a comment.
 */
#include "disk/calibrate.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/hdreg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "disk/diskmodel.h"
#include "fs/blkdev.h"
#include "util/util.h"

#define IO_ALIGN 4096
#define RATE_BYTES (64ULL << 20)
#define RATE_CHUNK (1 << 20)

struct cal {
	int fd;
	uint64_t size;
	char *buf;
	uint64_t rng;
};

static uint64_t cal_rand(struct cal *c)
{
	c->rng ^= c->rng << 13;
	c->rng ^= c->rng >> 7;
	c->rng ^= c->rng << 17;
	return c->rng;
}

/* Time one aligned read of len bytes at off, in ms; -1 on error. */
static double timed_read(struct cal *c, uint64_t off, size_t len)
{
	uint64_t t0 = now_ns();
	ssize_t n;

	off &= ~(uint64_t)(IO_ALIGN - 1);
	if (off + len > c->size)
		off = (c->size - len) & ~(uint64_t)(IO_ALIGN - 1);
	n = pread(c->fd, c->buf, len, (off_t)off);
	if (n != (ssize_t)len)
		return n < 0 ? error_errno("cannot read at %llu",
					   (unsigned long long)off)
			     : error("short read at %llu",
				     (unsigned long long)off);
	return (double)(now_ns() - t0) / 1e6;
}

/* Mean time of reads alternating between a and a + dist (a random),
 * each after the other, ms; -1 on error. */
static double mean_jump(struct cal *c, uint64_t dist, unsigned n)
{
	double sum = 0;
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t room = c->size > dist + IO_ALIGN ?
				c->size - dist - IO_ALIGN : 1;
		uint64_t a = cal_rand(c) % room;
		double t;

		if (timed_read(c, a, IO_ALIGN) < 0)
			return -1;
		t = timed_read(c, a + dist, IO_ALIGN);
		if (t < 0)
			return -1;
		sum += t;
		k++;
	}
	return sum / k;
}

/* Mean of n reads at uniformly random places, ms; -1 on error. */
static double mean_random(struct cal *c, unsigned n)
{
	double sum = 0;

	if (timed_read(c, cal_rand(c) % c->size, IO_ALIGN) < 0)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		double t = timed_read(c, cal_rand(c) % c->size, IO_ALIGN);

		if (t < 0)
			return -1;
		sum += t;
	}
	return sum / n;
}

/* Sustained read rate from off, MB/s; -1 on error. */
static double rate_at(struct cal *c, uint64_t off)
{
	uint64_t len = RATE_BYTES < c->size ? RATE_BYTES : c->size;
	uint64_t t0, done = 0;

	len &= ~(uint64_t)(RATE_CHUNK - 1);
	if (!len)
		len = RATE_CHUNK;
	if (off + len > c->size)
		off = c->size > len ? c->size - len : 0;
	off &= ~(uint64_t)(IO_ALIGN - 1);
	t0 = now_ns();
	while (done < len) {
		size_t l = (size_t)(len - done < RATE_CHUNK ? len - done
							    : RATE_CHUNK);

		if (l < IO_ALIGN)
			break;
		if (timed_read(c, off + done, l) < 0)
			return -1;
		done += l;
	}
	return (double)done / 1e6 / ((double)(now_ns() - t0) / 1e9);
}

/* ATA IDENTIFY word 217: nominal media rotation rate; 0 unknown. */
static unsigned reported_rpm(int fd)
{
	unsigned short id[256];

	if (ioctl(fd, HDIO_GET_IDENTITY, id) < 0)
		return 0;
	return id[217] >= 0x401 && id[217] < 0xffff ? id[217] : 0;
}

static double at_least(double v, double min)
{
	return isfinite(v) && v > min ? v : min;
}

/*
 * The measured figures as a profile.  A device that hardly seeks (a
 * loop device, an SSD) gives figures no disk has: they are pulled into
 * what the model accepts (at least 10000 cylinders, t2t < average <
 * full stroke, an average the seek curve can fit), and the file says so.
 */
static char *profile_text(const char *dev, double rpm, bool rpm_known,
			  uint64_t size, double t2t, double avg, double full,
			  double outer, double inner)
{
	struct disk_profile p;
	const char *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	double m_t2t = t2t, m_avg = avg, m_full = full, lo, hi, rev_s;
	char *text, cyl[64] = "";
	bool adjusted = false;

	full = at_least(full, 0.1);
	t2t = at_least(t2t, full / 50);
	if (t2t > full / 3)
		t2t = full / 3;
	outer = at_least(outer, 0.01);
	inner = at_least(inner, 0.01);
	if (inner > outer)
		inner = outer;
	memset(&p, 0, sizeof(p));
	rev_s = 60.0 / rpm;
	p.ncyl = outer - inner < 1e-9 * outer ?
		 (double)size / (4 * outer * 1e6 * rev_s) :
		 (double)size * log(outer / inner) /
		 ((outer - inner) * 1e6 * 4 * rev_s);
	if (!(p.ncyl >= 10000)) {
		p.ncyl = 10000;
		snprintf(cyl, sizeof(cyl), "cylinders 10000\n");
	}
	p.t2t_ms = t2t;
	p.full_ms = full;
	p.avg_ms = avg;
	if (disk_fit_seek(&p, &lo, &hi) < 0)
		avg = !(avg >= lo) ? lo + (hi - lo) / 1000
				   : hi - (hi - lo) / 1000;
	adjusted = t2t != m_t2t || avg != m_avg || full != m_full || *cyl;
	text = xasprintf(
		"# calibrated by fslab disk calibrate %s\n"
		"# heads: not visible from the host (assumed)%s\n"
		"%s%.6g, %.6g, %.6g ms%s"
		"name calibrated-%s\nrpm %.0f\ncapacity_gb %.9g\nheads 4\n"
		"%strack_to_track_ms %.9g\naverage_seek_ms %.9g\n"
		"full_stroke_ms %.9g\nouter_mb_s %.9g\ninner_mb_s %.9g\n"
		"command_overhead_ms 0\nreadahead_kib 256\n"
		"cache_segments 16\nqueue_depth 1\nscheduler fifo\n"
		"rotation half\n",
		dev, rpm_known ? "" : "; rpm: not reported (assumed)",
		"# seek track-to-track, average, full stroke as measured: ",
		m_t2t, m_avg, m_full, adjusted ? "; adjusted below to figures "
		"the model accepts (this device hardly seeks)\n" : "\n",
		name, rpm, (double)size / 1e9, cyl, t2t, avg, full, outer,
		inner);
	if (disk_profile_parse(text, "calibrated", &p) < 0) {
		free(text);
		error("the measured figures do not make a profile");
		return NULL;
	}
	disk_profile_release(&p);
	return text;
}

int disk_calibrate(const char *dev, unsigned samples, unsigned rpm_opt,
		   char **text, bool *refused)
{
	struct cal c = { .fd = -1, .rng = 0x2545f4914f6cdd1dULL };
	double t2t, avg, full, outer, inner, ovh, rpm, half;
	bool rpm_known;
	int rc = -1;

	*text = NULL;
	*refused = false;
	if (blkdev_check_unused(dev, "calibrate") < 0) {
		*refused = true;
		return -1;
	}
	if (blkdev_size(dev, &c.size) < 0)
		return -1;
	if (c.size < 4 * RATE_CHUNK) {
		*refused = true;
		return error("'%s' is too small to calibrate (%llu bytes)",
			     dev, (unsigned long long)c.size);
	}
	c.fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (c.fd < 0)
		return error_errno("cannot open '%s'", dev);
	if (posix_memalign((void **)&c.buf, IO_ALIGN, RATE_CHUNK))
		die("out of memory");
	rpm = rpm_opt ? (double)rpm_opt : (double)reported_rpm(c.fd);
	rpm_known = rpm > 0;
	if (!rpm_known)
		rpm = 7200;
	half = 30000.0 / rpm;
	fprintf(stderr, "fslab: calibrating %s (%.1f GB, %.0f rpm%s), "
		"%u reads per figure\n", dev, (double)c.size / 1e9, rpm,
		rpm_known ? "" : " assumed", samples);
	/* Each positioned read costs seek + half a revolution on average
	 * + its transfer: what is left after those two is the seek. */
	outer = rate_at(&c, 0);
	inner = outer < 0 ? -1 : rate_at(&c, c.size);
	if (inner < 0)
		goto out;
	ovh = IO_ALIGN / (outer * 1e6) * 1e3;
	t2t = mean_jump(&c, 4 * RATE_CHUNK, samples);
	avg = t2t < 0 ? -1 : mean_random(&c, samples);
	full = avg < 0 ? -1 : mean_jump(&c, c.size - 2 * IO_ALIGN, samples);
	if (full < 0)
		goto out;
	fprintf(stderr, "fslab: near %.3f ms, random %.3f ms, full stroke "
		"%.3f ms a read; %.1f MB/s outer, %.1f MB/s inner\n", t2t, avg,
		full, outer, inner);
	*text = profile_text(dev, rpm, rpm_known, c.size, t2t - half - ovh,
			     avg - half - ovh, full - half - ovh, outer,
			     inner);
	rc = *text ? 0 : -1;
out:
	free(c.buf);
	close(c.fd);
	return rc;
}
