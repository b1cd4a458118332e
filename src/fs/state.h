/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.h - the undo journal of everything fslab creates.
 *
 * Each fslab process that creates resources owns one journal file,
 * $FSLAB_STATE_DIR/<pid>.state (default /var/lib/fslab/state), opened
 * lazily.  A line is appended and fsync'ed *before* the resource exists:
 *
 *	pid <pid> <starttime-from-/proc/pid/stat>
 *	image <path>        a sparse image file we create
 *	loop <image>        a loop device we attach to <image>
 *	mountpoint <dir>    a directory we create to mount on
 *	mount <dir>         a mount we make on <dir>
 *	tracefs-mount <dir> tracefs, mounted by us because nobody had
 *	tracefs-instance <name>  a tracefs instance (instances/<name>)
 *	done <kind> <arg>   the resource was removed again
 *
 * `fslab cleanup` replays journals whose owner is dead, in reverse:
 * unmount, detach only loop devices whose backing file is the recorded
 * image, remove images and mount points, then the journal.  It skips (and
 * says so) journals of processes still alive.
 */
#ifndef FSLAB_STATE_H
#define FSLAB_STATE_H

#include <stdbool.h>

/* The journal directory in use (env FSLAB_STATE_DIR or the default). */
const char *state_dir(void);
/* Append "kind arg" to this process's journal, fsync'ed.  0 or -1. */
int state_record(const char *kind, const char *arg);
/* Append "done kind arg".  0 or -1. */
int state_done(const char *kind, const char *arg);
/* Remove this process's journal if everything in it is done. */
void state_finish(void);

/*
 * Replay dead journals.  dry_run only prints.  Prints one line per action
 * ("unmounted /var/tmp/fslab/mnt-...") to out.  Returns the number of
 * problems (0 = everything cleaned).
 */
int state_cleanup(bool dry_run, bool verbose);

#endif
