/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disk.c - `fslab disk`: the disk profiles of the modelled disk time.
 *
 *   fslab disk show [PROFILE]     a profile's figures and fitted seek curve
 *   fslab disk calibrate DEV      measure a real disk into a profile
 *
 * The calibration engine is disk/calibrate.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "disk/calibrate.h"
#include "disk/diskmodel.h"
#include "util/outfile.h"
#include "util/util.h"

struct disk_args {
	const char *output;
	long long samples, rpm;
};

static const struct cmdopt disk_table[] = {
	CMDOPT_HEADING("calibrate"),
	CMDOPT_STR_C('o', "output", struct disk_args, output, "FILE",
		     CMDOPT_C_FILE, "write the profile here (default stdout)"),
	CMDOPT_INTEGER(0, "samples", struct disk_args, samples, "N", 10,
		       100000, "reads per seek figure (default 200)"),
	CMDOPT_INTEGER(0, "rpm", struct disk_args, rpm, "N", 1000, 30000,
		       "spindle speed, when the drive does not report it "
		       "(ATA IDENTIFY word 217)"),
	CMDOPT_TABLE_END,
};

static const char *const disk_words[] = { "show", "calibrate", NULL };

const struct cmdopt_cmd cmd_disk_opts = {
	.name = "disk",
	.summary = "disk profiles of the modelled disk time",
	.usage = "show [PROFILE]\n"
		 "calibrate DEV [-o FILE] [--samples N] [--rpm N]",
	.desc = "Disk profiles for the modelled disk time of traced phases "
		"(--disk-model on 'run --trace', 'trace' and 'show'; README "
		"\"Modelled disk time\").\n\n"
		"show prints a profile's figures and its fitted seek curve "
		"(default: every shipped profile).\n\n"
		"calibrate measures DEV, a whole disk named explicitly, into a "
		"profile: seek times over short, random and full-stroke "
		"distances, the sustained read rate at both ends.  It only "
		"reads (O_DIRECT), and refuses a device that is mounted, swap "
		"or held, or that is not a block device.",
	.opts = disk_table,
	.footer = "Exit codes: 0 success, 1 a read failed, 2 usage error or "
		  "refusal.",
	.args = CMDOPT_C_FILE,
	.subcommands = disk_words,
};

static void show_one(const struct disk_profile *p)
{
	static const char *const sched[] = { "fifo", "sstf", "elevator" };

	printf("%s: %.0f rpm (%.3f ms a revolution), %.1f GB, %.0f heads, "
	       "%.0f cylinders\n", p->name, p->rpm, p->rev_ms,
	       p->capacity / 1e9, p->heads, p->ncyl);
	printf("  seek: track-to-track %.3f ms, average %.3f ms, full "
	       "stroke %.3f ms\n", p->t2t_ms, p->avg_ms, p->full_ms);
	printf("  curve: %.4f + %.5f sqrt(d) below %.0f cylinders, %.4f + "
	       "%.7f d above; mean %.3f ms\n", p->seek_a, p->seek_b,
	       p->seek_bound, p->seek_c, p->seek_e, disk_seek_mean_ms(p));
	printf("  rate: %.1f MB/s outer, %.1f MB/s inner; overhead %.3f ms; "
	       "read-ahead %.0f KiB in %u segments; queue %u, %s; rotation "
	       "%s\n", p->outer_mbs, p->inner_mbs, p->overhead_ms,
	       p->readahead / 1024, p->segments, p->queue_depth,
	       sched[p->sched], p->rot == DISK_ROT_HALF ? "half" :
	       "angular");
}

static int cmd_disk_show(int argc, char **argv)
{
	struct disk_profile p;

	if (argc > 2)
		return cmdopt_usage_error(&cmd_disk_opts, "show takes one "
					  "PROFILE at most");
	if (argc == 2) {
		if (disk_profile_load(argv[1], &p) < 0)
			return EXIT_USAGE;
		show_one(&p);
		disk_profile_release(&p);
		return EXIT_OK;
	}
	for (const char *const *n = disk_profile_names; *n; n++) {
		if (disk_profile_load(*n, &p) < 0)
			BUG("shipped profile %s does not parse", *n);
		show_one(&p);
		disk_profile_release(&p);
	}
	return EXIT_OK;
}

static int cmd_disk_calibrate(const struct disk_args *a, int argc,
			      char **argv)
{
	const char *out = a->output;
	bool refused;
	char *text;
	struct outfile of;
	int rc = EXIT_RUNTIME;

	if (argc < 2)
		return cmdopt_usage_error(&cmd_disk_opts, "calibrate needs "
					  "the device to measure, named "
					  "explicitly (e.g. /dev/sdb)");
	if (argc > 2)
		return cmdopt_usage_error(&cmd_disk_opts, "unexpected argument "
					  "'%s'", argv[2]);
	if (disk_calibrate(argv[1], (unsigned)a->samples, (unsigned)a->rpm,
			   &text, &refused) < 0)
		return refused ? EXIT_USAGE : EXIT_RUNTIME;
	if (outfile_open(&of, out ? out : "-")) {
		if (fputs(text, of.f) < 0) {
			error_errno("cannot write '%s'", out ? out : "stdout");
			outfile_abort(&of);
		} else if (!outfile_commit(&of)) {
			rc = EXIT_OK;
		}
	}
	free(text);
	return rc;
}

int cmd_disk(int argc, char **argv)
{
	struct disk_args a = { .samples = 200 };
	int first = cmdopt_parse(&cmd_disk_opts, argc, argv, &a);

	if (first < 0)
		return cmdopt_exit(first);
	/* argv[0] becomes the subcommand, its arguments follow. */
	argv += first;
	argc -= first;
	if (argc < 1)
		return cmdopt_usage_error(&cmd_disk_opts, "needs a subcommand: "
					  "show or calibrate");
	if (!strcmp(argv[0], "show")) {
		if (a.output || a.rpm || a.samples != 200)
			return cmdopt_usage_error(&cmd_disk_opts, "-o, "
						  "--samples and --rpm are "
						  "calibrate's");
		return cmd_disk_show(argc, argv);
	}
	if (!strcmp(argv[0], "calibrate"))
		return cmd_disk_calibrate(&a, argc, argv);
	return cmdopt_usage_error(&cmd_disk_opts, "unknown subcommand '%s' "
				  "(show or calibrate)", argv[0]);
}
