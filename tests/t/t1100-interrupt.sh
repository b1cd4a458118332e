#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C (SIGINT) and SIGTERM during a run: fslab finishes the current
# operation, tears the target down, keeps the phases it measured and
# marks the run incomplete.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd mkfs.ext4
need_cmd sqlite3
scratch_dir

# Held before its second initial-create, one phase is committed and the
# next one starts with the signal pending: no race with a busy run.
for sig in INT TERM; do
	db=$SCRATCH/$sig.db
	"$FSLAB" run --target ext4:size=4G --db "$db" --scratch "$SCRATCH" \
		--workload compilebench:initial-dirs=2,runs=2 --tag "sig$sig" \
		--pause-before initial-create \
		>"$SCRATCH/$sig.out" 2>"$SCRATCH/$sig.err" &
	pid=$!
	cleanup_add "kill -9 $pid"
	if pause_wait "$SCRATCH/$sig.err" $pid initial-create 1 &&
		kill -CONT $pid && pause_wait "$SCRATCH/$sig.err" $pid initial-create 2 &&
		kill -$sig $pid 2>/dev/null && kill -CONT $pid; then
		ok "SIG$sig sent mid-run"
	else
		not_ok "SIG$sig sent mid-run" "$(tail -5 "$SCRATCH/$sig.err")"
		kill -9 $pid 2>/dev/null
	fi
	wait $pid
	rc=$?
	[ $rc -eq 1 ] && ok "SIG$sig: exit code 1" || not_ok "SIG$sig: exit code 1" "exit $rc" "$(tail -5 "$SCRATCH/$sig.err")"
	grep -q "interrupted" "$SCRATCH/$sig.err" && ok "SIG$sig: says it was interrupted" ||
		not_ok "SIG$sig: says it was interrupted" "$(tail -5 "$SCRATCH/$sig.err")"
	nothing_left_under "$SCRATCH" && ok "SIG$sig: nothing mounted or attached" ||
		not_ok "SIG$sig: nothing mounted or attached" "$(grep "$SCRATCH" /proc/mounts)"
	left=$(find "$SCRATCH" -maxdepth 1 \( -name '*.img' -o -name '*.mnt' \) | head -3)
	[ -z "$left" ] && ok "SIG$sig: image and mount point removed" || not_ok "SIG$sig: image and mount point removed" "$left"
	st=$(sqlite3 "$db" "select status from runs")
	[ "$st" = incomplete ] && ok "SIG$sig: run stored as incomplete" || not_ok "SIG$sig: run stored as incomplete" "status '$st'"
	kept=$(sqlite3 "$db" "select count(*) from phases where name = 'initial-create' and status = 'ok'")
	[ "$kept" -ge 1 ] && ok "SIG$sig: finished phases kept" || not_ok "SIG$sig: finished phases kept" "got $kept"
	grep -q '^run complete:$' "$SCRATCH/$sig.out" && ok "SIG$sig: summary of what ran is printed" ||
		not_ok "SIG$sig: summary of what ran is printed" "$(cat "$SCRATCH/$sig.out")"
	out=$("$FSLAB" results --db "$db")
	[[ $out == *incomplete* ]] && ok "SIG$sig: results lists it incomplete" || not_ok "SIG$sig: results lists it incomplete" "$out"
done
journals=$(find "$FSLAB_STATE_DIR" -type f 2>/dev/null | head -3)
[ -z "$journals" ] && ok "no journal left after interrupted runs" || not_ok "no journal left after interrupted runs" "$journals"
finish
