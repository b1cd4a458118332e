// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * setup.c - the checks of the machine and the targets a run used (see
 * check.h, doc/validity.md): memory-backed targets and loop images,
 * virtualization, the device's caches, a debug kernel, mitigations, the
 * CPU governor, and what must be declared (cache modes, fresh or aged,
 * versions).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/internal.h"
#include "util/strbuf.h"

static bool memfs_type(const char *t, bool *invalid)
{
	static const char *const mem[] = { "tmpfs", "ramfs" };
	static const char *const other[] = { "overlay", "fuse", "nfs",
					     "cifs", "aufs" };

	for (size_t i = 0; i < ARRAY_SIZE(mem); i++)
		if (!strcmp(t, mem[i])) {
			*invalid = true;
			return true;
		}
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		if (!strncmp(t, other[i], strlen(other[i]))) {
			*invalid = false;
			return true;
		}
	return false;
}

bool check_memfs(struct ctx *c)
{
	EACH_TARGET(c, t) {
		const char *ft = check_target_fact(c, t->idx, "fs.type");
		bool invalid = false;

		if (!ft)
			ft = t->fstype;
		if (!ft || !memfs_type(ft, &invalid))
			continue;
		check_add(c, "memfs", invalid ? CHECK_INVALID : CHECK_WARNING,
		    t->name,
		    "the target's working directory is on %s: %s; use a loop "
		    "or dev: target on a real filesystem", ft,
		    invalid ? "it measures memory, not a filesystem on a "
			      "device" : "the figures include that layer "
			      "(and its caching) on top of the filesystem");
	}
	return true;
}

bool check_loop_cache(struct ctx *c)
{
	bool ok = true;

	EACH_TARGET(c, t) {
		const char *dio, *bfs;
		bool invalid = false;

		if (!t->kind || (strcmp(t->kind, "loop") &&
				 strcmp(t->kind, "aged")))
			continue;
		dio = check_target_fact(c, t->idx, "loop.dio");
		bfs = check_target_fact(c, t->idx, "loop.backing_fs");
		if (!dio) {
			ok = false;
			continue;
		}
		if (bfs && memfs_type(bfs, &invalid) && invalid)
			check_add(c, "loop-cache", CHECK_INVALID, t->name,
			    "the loop image lives on %s: every device I/O is "
			    "a memory copy; put --scratch on a disk", bfs);
		else if (!strcmp(dio, "0"))
			check_add(c, "loop-cache", CHECK_WARNING, t->name,
			    "loop device without direct I/O (loop.dio 0) over "
			    "a file on %s: its reads can come from the backing "
			    "file's page cache; put --scratch on a filesystem "
			    "that supports O_DIRECT (ext4, xfs, btrfs)",
			    bfs ? bfs : "an unknown filesystem");
	}
	if (!ok)
		check_unchecked(c, "loop-cache", "loop state not recorded");
	return ok;
}

bool check_vm(struct ctx *c)
{
	const char *vm = check_machine_fact(c, "virt.vm");

	if (!vm) {
		check_unchecked(c, "virtual-machine", "not recorded");
		return false;
	}
	if (!strncmp(vm, "yes", 3))
		check_add(c, "virtual-machine", CHECK_NOTE, "machine",
		    "virtual machine (virt.vm %s): the host's caches and load "
		    "shape the virtual disk's figures; compare only runs on "
		    "the same VM and host", vm);
	return true;
}

bool check_device_cache(struct ctx *c)
{
	bool any = false;

	EACH_TARGET(c, t) {
		const char *wc = check_target_fact(c, t->idx, "dev.write_cache");
		const char *model = check_target_fact(c, t->idx, "dev.model");
		const char *mo = t->eff_mount_opts;

		if (mo && (strstr(mo, ",discard") == mo ||
			   strstr(mo, ",discard") || !strncmp(mo, "discard", 7)))
			check_add(c, "device-cache", CHECK_NOTE, t->name,
			    "mounted with online discard: deletes issue TRIMs "
			    "whose cost depends on the device");
		if (!wc)
			continue;
		any = true;
		if (model && !strcmp(model, "loop"))
			continue;
		if (!strcmp(wc, "write back"))
			check_add(c, "device-cache", CHECK_NOTE, t->name,
			    "volatile write cache on (dev.write_cache 'write "
			    "back'): fsync costs depend on the drive's cache "
			    "flushes; state it with the results");
	}
	if (!any)
		check_unchecked(c, "device-cache", "no block device recorded");
	return any;
}

bool check_kernel_debug(struct ctx *c)
{
	const char *dbg = check_machine_fact(c, "kernel.debug");

	if (!dbg) {
		check_unchecked(c, "kernel-debug", "kernel config not readable: no "
			  "/proc/config.gz or /boot/config-RELEASE");
		return false;
	}
	if (strcmp(dbg, "none"))
		check_add(c, "kernel-debug", CHECK_WARNING, "machine",
		    "the kernel was built with %s: they slow locking, "
		    "allocation or the filesystem itself by up to several "
		    "times; measure on a kernel built without them", dbg);
	return true;
}

bool check_mitigations(struct ctx *c)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, vul = 0;

	for (size_t i = 0; i < c->r->nr_facts; i++) {
		const struct fact *f = &c->r->facts[i];

		if (strcmp(f->scope, "machine") ||
		    strncmp(f->key, "mitigations.", 12))
			continue;
		n++;
		if (!strncmp(f->value, "Vulnerable", 10)) {
			if (vul++)
				strbuf_addstr(&sb, ", ");
			strbuf_addstr(&sb, f->key + 12);
		}
	}
	if (!n) {
		strbuf_release(&sb);
		check_unchecked(c, "mitigations", "not recorded");
		return false;
	}
	if (vul)
		check_add(c, "mitigations", CHECK_NOTE, "machine",
		    "%zu of %zu CPU vulnerabilities unmitigated (%s): system "
		    "call and context switch costs differ from a mitigated "
		    "machine; compare only runs with the same mitigations",
		    vul, n, sb.buf);
	strbuf_release(&sb);
	return true;
}

bool check_governor(struct ctx *c)
{
	const char *gov = check_machine_fact(c, "cpu.governor");
	const char *lo = check_machine_fact(c, "cpu.freq_min_kHz");
	const char *hi = check_machine_fact(c, "cpu.freq_max_kHz");

	if (!gov) {
		check_unchecked(c, "cpu-governor", "no cpufreq%s",
			  check_machine_fact(c, "virt.vm") &&
			  !strncmp(check_machine_fact(c, "virt.vm"), "yes", 3) ?
			  ": virtual machine" : "");
		return false;
	}
	if (strcmp(gov, "performance"))
		check_add(c, "cpu-governor", CHECK_WARNING, "machine",
		    "CPU governor '%s' (%.0f-%.0f MHz): the clock follows the "
		    "load, so CPU-heavy phases vary with it; set 'performance' "
		    "(cpupower frequency-set -g performance)", gov,
		    lo ? strtod(lo, NULL) / 1e3 : NAN,
		    hi ? strtod(hi, NULL) / 1e3 : NAN);
	return true;
}

bool check_cache_declared(struct ctx *c)
{
	for (size_t i = 0; i < c->r->nr_facts; i++)
		if (!strcmp(c->r->facts[i].scope, "cache"))
			return true;
	if (c->nr_g)
		check_add(c, "cache-declared", CHECK_NOTE, "run",
		    "the phases' cache modes (cold or warm) were not recorded "
		    "(an older fslab); state them with the results");
	return true;
}

bool check_fs_state(struct ctx *c)
{
	EACH_TARGET(c, t) {
		const char *st = check_target_fact(c, t->idx, "fs.state");

		if (!st)
			check_add(c, "fs-state", CHECK_NOTE, t->name,
			    "fresh or aged not recorded (an older fslab)");
		else if (!strcmp(st, "existing"))
			check_add(c, "fs-state", CHECK_NOTE, t->name,
			    "an existing filesystem of unrecorded age and "
			    "fullness: state them, or use a loop target "
			    "(fresh, or aged with age=)");
	}
	return true;
}

bool check_versions(struct ctx *c)
{
	if (!c->r->version || !*c->r->version)
		check_add(c, "versions", CHECK_WARNING, "run",
		    "fslab's version not recorded");
	EACH_TARGET(c, t) {
		if (!t->kind || (strcmp(t->kind, "loop") &&
				 strcmp(t->kind, "dev")))
			continue;
		if (!t->mkfs_version || !*t->mkfs_version)
			check_add(c, "versions", CHECK_WARNING, t->name,
			    "mkfs version not recorded for a filesystem fslab "
			    "made: install the filesystem's tools with their "
			    "-V output, or state the version");
	}
	return true;
}

