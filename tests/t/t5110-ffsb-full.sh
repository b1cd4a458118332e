#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# FFSB's timed run is bounded by the target's free space (issue 34): the
# built-in profile (small creates with fsync) on a deliberately small
# target warns at pre-flight, before the timed run, that it can fill it,
# then stops cleanly at 90 % full, exits 0, and says how long it ran and
# why it stopped, live, in the store and in show.  Not a timing test: a
# run time of 100000 s fills 128 MiB on any machine, so the warning and
# the bound, never ENOSPC or the clock, are what the run must meet.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3 mkfs.ext4
scratch_dir

T=100000
timeout 900 "$FSLAB" run --db "$DB" --scratch "$SCRATCH" -t ext4:size=128M -w ffsb:time=$T \
	>"$SCRATCH/run.out" 2>"$SCRATCH/run.err"
rc=$?
[ $rc -eq 0 ] && ok "the built-in profile on 128M exits 0" ||
	not_ok "the built-in profile on 128M exits 0" "exit $rc" "$(tail -5 "$SCRATCH/run.err")"
grep -qE "^ffsb: stopped the timed run cleanly at (9[0-9]|100)\.[0-9] % full after [0-9.]+ s of $T s" "$SCRATCH/run.err" &&
	ok "it says it stopped at the fullness bound, and when" ||
	not_ok "it says it stopped at the fullness bound, and when" "$(tail -5 "$SCRATCH/run.err")"
q() { sqlite3 "$DB" "select m.value from metrics m join phases p on m.phase_id = p.id where p.name = 'run' and m.name = '$1'"; }
full=$(q stopped_full) pct=$(q fullness_pct) el=$(q elapsed_s)
[ "$full" = 1.0 ] || [ "$full" = 1 ]
a=$?
python3 -c "import sys; p, e = float('$pct'), float('$el'); sys.exit(not (90 <= p <= 100 and 0 < e < $T))" 2>/dev/null
b=$?
[ $a -eq 0 ] && [ $b -eq 0 ] && ok "stored: stopped_full 1, fullness_pct >= 90, elapsed_s < $T" ||
	not_ok "stored: stopped_full 1, fullness_pct >= 90, elapsed_s < $T" "stopped_full=$full fullness_pct=$pct elapsed_s=$el"
# The pre-flight warning: after setup, before the timed run (whose first
# word is the stop line or its progress line), with the figures and what
# to do.
warn=$(grep -n 'warning: ffsb: pre-flight: this profile can grow its files by up to [0-9.]* MiB/s here' "$SCRATCH/run.err" | cut -d: -f1)
setup=$(grep -n 'ffsb setup built-in: ok' "$SCRATCH/run.err" | cut -d: -f1)
timed=$(grep -nE '^ffsb: stopped the timed run|ffsb run built-in: ' "$SCRATCH/run.err" | head -1 | cut -d: -f1)
[ -n "$warn" ] && [ -n "$setup" ] && [ -n "$timed" ] && [ "$setup" -lt "$warn" ] && [ "$warn" -lt "$timed" ] &&
	ok "pre-flight warns before the timed run starts" ||
	not_ok "pre-flight warns before the timed run starts" "warning line '$warn', setup '$setup', timed run '$timed'" "$(head -8 "$SCRATCH/run.err")"
grep -qE "remain below the 90 % fullness bound, so the run may stop there after about [0-9]+ s\.  For the whole time give time=[0-9]+ or less, or a target about [0-9.]+ (MiB|GiB) larger" "$SCRATCH/run.err" &&
	ok "the warning gives the room, when, and what to do" ||
	not_ok "the warning gives the room, when, and what to do" "$(grep 'pre-flight' "$SCRATCH/run.err")"
status=$(sqlite3 "$DB" "select p.status from phases p where p.name = 'run'")
grep -q "No space left" "$SCRATCH/run.err" && not_ok "no ENOSPC" "$(grep -m3 'No space' "$SCRATCH/run.err")" ||
	ok "no ENOSPC (phase status $status)"
"$FSLAB" show --db "$DB" 2>&1 | grep -q "(fslab: stopped cleanly at 9[0-9.]* % full, before the $T s were up" &&
	ok "show repeats why it stopped" || not_ok "show repeats why it stopped" "$("$FSLAB" show --db "$DB" 2>&1 | head -20)"
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
