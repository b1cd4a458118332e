#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C (SIGINT) and SIGTERM during a run: fslab finishes the current
# operation, tears the target down, keeps the phases it measured and
# marks the run incomplete.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd mkfs.ext4
need_cmd sqlite3
scratch_dir

# The built-in model (233 MB trees) keeps the run busy for seconds.
for sig in INT TERM; do
	db=$SCRATCH/$sig.db
	"$FSLAB" run --target ext4:size=4G --db "$db" --scratch "$SCRATCH" \
		--workload compilebench:initial-dirs=6,runs=20 --tag "sig$sig" \
		>"$SCRATCH/$sig.out" 2>"$SCRATCH/$sig.err" &
	pid=$!
	cleanup_add "kill -9 $pid"
	# Wait until at least one op phase is committed (WAL: readers are fine).
	deadline=$((SECONDS + 180))
	n=0
	while kill -0 $pid 2>/dev/null && [ $SECONDS -lt $deadline ]; do
		n=$(sqlite3 "$db" "select count(*) from phases where name = 'initial-create'" 2>/dev/null || echo 0)
		[ "${n:-0}" -ge 1 ] && break
		sleep 0.1
	done
	if [ "${n:-0}" -ge 1 ] && kill -$sig $pid 2>/dev/null; then
		ok "SIG$sig sent mid-run"
	else
		not_ok "SIG$sig sent mid-run" "$(tail -5 "$SCRATCH/$sig.err")"
	fi
	wait $pid
	rc=$?
	# The shell's convention: 128 + the signal's number.
	want=$((128 + $(kill -l "$sig")))
	[ $rc -eq $want ] && ok "SIG$sig: exit code $want" || not_ok "SIG$sig: exit code $want" "exit $rc" "$(tail -5 "$SCRATCH/$sig.err")"
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
