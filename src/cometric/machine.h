/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * machine.h - the static facts of the machine and of each target's
 * device, recorded with every run (struct fact, result.h) so that a
 * result can be judged (src/check/) and two runs told apart (compare):
 * kernel config and its debug options, CPU, governor and frequency
 * range, RAM, virtualization, writeback sysctls, THP, mitigations; per
 * target the device's model, rotational flag, scheduler, queue depth,
 * write cache and discard, the loop's direct-I/O state and the backing
 * filesystem.  What the machine does not have (cpufreq in a VM) is
 * recorded as "absent", not left out, so its absence shows.
 *
 * Keys are "GROUP.NAME"; GROUP is what `compare --factor` names.
 */
#ifndef FSLAB_MACHINE_H
#define FSLAB_MACHINE_H

#include <stddef.h>
#include <stdint.h>

struct run_rec;
struct strbuf;

/*
 * The debug options of machine_debug_options set (=y or =m) in a kernel
 * config's text, comma-separated without the CONFIG_ prefix, appended to
 * out; "none" when there are none.  Pure (tested).
 */
void machine_config_debug(const char *config, size_t len,
			  struct strbuf *out);

/* The bracketed choice of a sysfs list ("none [mq-deadline] kyber"),
 * newly allocated; the whole trimmed text when nothing is bracketed. */
char *machine_bracketed(const char *s);

/* Record the machine's facts in r (scope "machine"), once per run. */
void machine_record(struct run_rec *r);

/*
 * Record the facts of command-line target idx (scope "target:IDX"):
 * its block device (sysfs name devname, NULL for a dir: target without
 * one), the filesystem type under workdir, and state ("fresh",
 * "aged:PROFILE", "existing").
 */
void machine_record_target(struct run_rec *r, int idx, const char *devname,
			   const char *workdir, const char *state);

/*
 * Nanoseconds this process's threads have spent runnable but waiting for
 * a CPU (the run-queue delay of /proc/self/task/N/schedstat, summed),
 * or -1 when the kernel does not keep it (no CONFIG_SCHED_INFO).
 */
int64_t machine_runq_wait_ns(void);

#endif
