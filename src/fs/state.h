/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.h - the undo journal of everything fslab creates, and its replay.
 *
 * Each fslab process that creates resources owns one journal file,
 * $FSLAB_STATE_DIR/<pid>.state (default /var/lib/fslab/state), opened
 * lazily.  A line is appended and fsync'ed *before* the resource exists:
 *
 *	pid <pid> <starttime-from-/proc/pid/stat>
 *	scratch <dir>       the (canonical) scratch directory in use from
 *	                    here on; it carries fslab's mark file.  Images
 *	                    and mount points live directly in it (or in
 *	                    its golden/)
 *	<kind> <arg>        a resource about to be created, e.g.
 *	                    image <path>, loop <image>, mountpoint <dir>,
 *	                    mount <dir>, tracefs-instance <name>, wldir <dir>
 *	ident <kind> <dev> <ino> <arg>  what was created: the inode of an
 *	                    image, mount point or workload directory, the
 *	                    source device of a mount (ino 0)
 *	done <kind> <arg>   the resource was removed again
 *
 * This module is a leaf: it knows no resource.  The modules that own a
 * kind register an undo handler (state_register_undo); `fslab cleanup`
 * replays the journals of dead processes in reverse through them.  Before
 * a handler sees an entry, the replay checks that the state directory and
 * the journal belong to us (owner, mode 0700/0600), that the entry is
 * plausible (inside a marked scratch directory, fslab's naming, the inode
 * recorded at creation), and that no live journal names the same thing.
 */
#ifndef FSLAB_STATE_H
#define FSLAB_STATE_H

#include <stdbool.h>
#include <stddef.h>

/* The file that marks a directory as a scratch directory fslab made. */
#define STATE_SCRATCH_MARK ".fslab-scratch"

/* The journal directory in use (env FSLAB_STATE_DIR or the default). */
const char *state_dir(void);
/* Append "kind arg" to this process's journal, fsync'ed.  0 or -1. */
int state_record(const char *kind, const char *arg);
/* Append "ident kind dev ino arg".  0 or -1. */
int state_ident(const char *kind, unsigned long long dev,
		unsigned long long ino, const char *arg);
/*
 * Mark dir (checked safe: safedir.h) as a scratch directory and make it
 * (canonical) the one later entries belong to.  0 or -1.
 */
int state_scratch(const char *dir);
/* Append "done kind arg".  0 or -1. */
int state_done(const char *kind, const char *arg);
/* Remove this process's journal if everything in it is done. */
void state_finish(void);

/* ---- replay ---- */

struct undo_entry {
	const char *kind, *arg;
	const char *scratch;      /* scratch in effect when recorded, or NULL */
	bool have_ident;
	unsigned long long dev, ino;
};

struct undo_journal {
	const char *path;
	long pid;
	const struct undo_entry *e;
	size_t nr;
};

enum undo_flags {
	/* arg is a path directly inside the entry's scratch directory */
	UNDO_IN_SCRATCH = 1 << 0,
	/* arg is a path; if it exists, it must be the inode of the ident
	 * line (without one: act only inside a scratch directory) */
	UNDO_IDENT = 1 << 1,
	/* arg is a plain name (no '/'), not a path */
	UNDO_NAME = 1 << 2,
};

struct undo_handler {
	const char *kind;
	const char *what;        /* "mount on": "kept mount on <arg>" */
	unsigned flags;          /* enum undo_flags */
	const char *prefix;      /* the base name starts with it, or NULL */
	const char *suffix;      /* ... and ends with it, or NULL */
	/*
	 * Undo e (checked as above).  Prints what it did ("removed X").
	 * Returns 1 when it acted (or would), 0 when there was nothing to
	 * do, -1 on a problem (printed; the journal is kept).
	 */
	int (*undo)(const struct undo_journal *j, const struct undo_entry *e,
		    bool dry_run, bool verbose);
	/* Print the "kept ..." line(s) for a live run's entry; may be NULL. */
	void (*kept)(const struct undo_handler *h, const struct undo_entry *e);
};

/* Register (or replace) the handler of h->kind; h must stay valid. */
void state_register_undo(const struct undo_handler *h);

/* The ident recorded in j for an open kind entry whose ident is dev:ino. */
bool state_journal_has_ident(const struct undo_journal *j, const char *kind,
			     unsigned long long dev, unsigned long long ino);

/*
 * Replay dead journals.  dry_run only prints.  Prints one line per action
 * ("unmounted /var/tmp/fslab/mnt-...") to stdout.  Returns the number of
 * problems (0 = everything cleaned).
 */
int state_cleanup(bool dry_run, bool verbose);

#endif
