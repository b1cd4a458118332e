#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A workload's .phases and the core phases are the phase names:
# `run --verify --trace=verify-data` traces the core phase --verify adds
# (and only it); without --verify, verify-data is no phase of the run and
# --trace refuses it with a usage error, as any undeclared name.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3 mkfs.ext4
grep -q tracefs /proc/filesystems || _need "needs tracefs"
scratch_dir

wl=bonnie:size=8M,ram=0,byte_io=1M,seeks=100,files=0
"$FSLAB" run --verify --trace=verify-data -t ext4:size=256M -w "$wl" \
	--db "$DB" --scratch "$SCRATCH" --tag tv >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
[ $rc -eq 0 ] && ok "run --verify --trace=verify-data is accepted and exits 0" ||
	not_ok "run --verify --trace=verify-data is accepted and exits 0" "exit $rc" "$(tail -5 "$SCRATCH/err")"
traced=$(sqlite3 "$DB" "select distinct phase from $PHASES where tag = 'tv' and phase_id in
	(select phase_id from metrics where name = 'trace.requests')")
[ "$traced" = verify-data ] && ok "only the verify-data phase is traced" ||
	not_ok "only the verify-data phase is traced" "traced: '$traced'"

check_exit "--trace=verify-data without --verify is refused" 2 \
	"$FSLAB" run --trace=verify-data -t ext4:size=256M -w "$wl" \
	--db "$DB" --scratch "$SCRATCH"
grep -q "unknown phase 'verify-data' for --trace" <("$FSLAB" run --trace=verify-data \
	-t ext4:size=256M -w "$wl" --db "$DB" --scratch "$SCRATCH" 2>&1) &&
	ok "the refusal names the phase" || not_ok "the refusal names the phase"
check_exit "an undeclared phase is refused" 2 \
	"$FSLAB" run --verify --trace=no-such-phase -t ext4:size=256M -w "$wl" \
	--db "$DB" --scratch "$SCRATCH"
finish
