/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * calibrate.h - measure a real disk into a disk profile.
 */
#ifndef FSLAB_DISK_CALIBRATE_H
#define FSLAB_DISK_CALIBRATE_H

#include <stdbool.h>

/*
 * Measure dev (a whole, unused block device; read only) with samples
 * reads per seek figure; rpm 0 means as the drive reports (else 7200,
 * said to be assumed).  On success 0 and *text the profile (free it).
 * On failure -1 with a message, *refused telling a refusal before any
 * read (in use, not a block device, too small) from a failed read.
 */
int disk_calibrate(const char *dev, unsigned samples, unsigned rpm,
		   char **text, bool *refused);

#endif
