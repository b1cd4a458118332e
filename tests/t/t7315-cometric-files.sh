#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The files co-metrics read stay open for the run (cometric.h, struct
# cometric_reader): a workload's child inherits none of them, and the
# filesystem's statistics are still read after the filesystem changed
# under them: a fresh one per repetition (ext4, xfs), or the same one
# reused.  Nothing here asserts timings.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3 mkfs.ext4
scratch_dir

q() { sqlite3 "$DB" "$@"; }
run() { # TAG ARGS...: fslab run into $DB, ok/not_ok on its exit
	local tag=$1
	shift
	"$FSLAB" run --db "$DB" --scratch "$SCRATCH" --tag "$tag" -q "$@" \
		>"$SCRATCH/$tag.out" 2>"$SCRATCH/$tag.err"
	local rc=$?
	[ $rc -eq 0 ] && ok "$tag: run exits 0" ||
		not_ok "$tag: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/$tag.err")"
}
# every_phase TAG NAME: ok when every phase instance of the run has the
# co-metric NAME
every_phase() {
	local all with
	all=$(q "select count(distinct phase_id) from $METRICS where tag = '$1'")
	with=$(q "select count(distinct phase_id) from $METRICS where tag = '$1' and name = '$2'")
	[ "${all:-0}" -gt 0 ] && [ "$all" = "$with" ] &&
		ok "$1: $2 in every phase ($all)" ||
		not_ok "$1: $2 in every phase" "$with of $all phases"
}

# A child gets no /proc or /sys file of fslab's: the command counts its
# shell's descriptors that point there.
cmd='n=0; for f in /proc/self/fd/*; do case $(readlink $f) in /proc/*|/sys/*) n=$((n+1));; esac; done; echo proc_sys_fds $n'
run fds -t ext4:size=256M -w "exec:cmd=$cmd,metrics=lines"
got=$(q "select value from $METRICS where tag = 'fds' and name = 'cmd.proc_sys_fds'")
[ "$got" = 0.0 ] && ok "a workload's child inherits no co-metric file" ||
	not_ok "a workload's child inherits no co-metric file" "got '$got'" \
		"$(tail -20 "$SCRATCH/fds.err")"
every_phase fds vm.pgfault

wl=metadata:files=300,size=4k
# A fresh ext4 per repetition: the journal's info, the session's bytes
# and the device line read in every phase of both.
run fresh -t ext4:size=256M -w $wl -n 2
for name in jbd2.commits ext4.written_B dev.write_merges vm.dirtied_B psi.io_some_s; do
	every_phase fresh $name
done
# The same filesystem again and again.
run reuse -t ext4:size=256M -w $wl -n 2 --reuse
for name in jbd2.commits ext4.written_B dev.write_merges; do
	every_phase reuse $name
done
if command -v mkfs.xfs >/dev/null; then
	run xfs -t xfs:size=512M -w $wl -n 2
	for name in xfs.log_writes xfs.dir_creates dev.write_merges; do
		every_phase xfs $name
	done
else
	ok "xfs co-metrics # skip no mkfs.xfs"
fi

nothing_left_under "$SCRATCH" && ok "nothing left mounted or attached" ||
	not_ok "nothing left mounted or attached"
finish
