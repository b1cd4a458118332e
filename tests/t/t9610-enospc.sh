#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A full filesystem: a workload that hits ENOSPC records where it
# stopped (phase, bytes, files) in the failed phase, says so plainly,
# exits 1 and tears down; `compare` shows that run as failed, never as a
# fast one, even though its first phases finished quickly.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd mkfs.ext4
need_cmd sqlite3
scratch_dir

# 20000 files of 64 KiB (1.2 GiB) cannot fit in 64 MiB: pre-flight
# would say so before anything ran, so it is told not to look.
"$FSLAB" run --target ext4:size=64M --db "$DB" --scratch "$SCRATCH" --no-space-check \
	--workload metadata:files=20000,size=64k --tag full \
	>"$SCRATCH/full.out" 2>"$SCRATCH/full.err"
rc=$?
err=$(cat "$SCRATCH/full.err")
[ $rc -eq 1 ] && ok "full: exit code 1" || not_ok "full: exit code 1" "exit $rc" "$err"
[[ $err == *"No space left on device"* ]] && ok "full: message says ENOSPC" ||
	not_ok "full: message says ENOSPC" "$err"
[[ $err == *"failed in phase 'create' after "*" in "*" files"* ]] &&
	ok "full: message names the phase and the work done" ||
	not_ok "full: message names the phase and the work done" "$err"
row=$(sqlite3 "$DB" "select name, bytes > 0, files > 0, error like '%No space left on device%' from phases where status = 'failed'")
[ "$row" = "create|1|1|1" ] && ok "full: failed phase stored with bytes, files and reason" ||
	not_ok "full: failed phase stored with bytes, files and reason" "got '$row'"
st=$(sqlite3 "$DB" "select status from runs where tag = 'full'")
[ "$st" = failed ] && ok "full: run stored as failed" || not_ok "full: run stored as failed" "status '$st'"
nothing_left_under "$SCRATCH" && ok "full: nothing mounted or attached" ||
	not_ok "full: nothing mounted or attached" "$(grep "$SCRATCH" /proc/mounts)"
left=$(find "$SCRATCH" -maxdepth 1 \( -name '*.img' -o -name '*.mnt' \) | head -3)
[ -z "$left" ] && ok "full: image and mount point removed" || not_ok "full: image and mount point removed" "$left"
out=$("$FSLAB" show --db "$DB" full 2>&1)
[[ $out == *FAILED*"No space left on device"* ]] && ok "show: says where it failed" || not_ok "show: says where it failed" "$out"

# The same workload, small enough to fit: a good run to compare with
# (its options differ, so compare needs --allow-option-mismatch).
check "good run on a big enough target" "$FSLAB" run --target ext4:size=256M \
	--db "$DB" --scratch "$SCRATCH" --tag good \
	--workload metadata:files=200,size=64k
out=$("$FSLAB" compare --db "$DB" --allow-option-mismatch good full 2>&1)
[[ $out == *"full "*"FAILED"* && $out == *"result: FAILED"* ]] &&
	ok "compare: the full run is marked failed" ||
	not_ok "compare: the full run is marked failed" "$out"
# mkdir finished in both; the failed run must not show as faster.
if grep -q -- '^  full .*%.*\(improvement\|REGRESSION\|no significant\)' <<<"$out"; then
	not_ok "compare: no change figure for the failed run" "$out"
else
	ok "compare: no change figure for the failed run"
fi
check_exit "compare --fail-on-regression: exit 3 on a failed run" 3 \
	"$FSLAB" compare --db "$DB" --allow-option-mismatch --fail-on-regression good full
out=$("$FSLAB" compare --db "$DB" --allow-option-mismatch --format json good full 2>&1)
[[ $out == *'"failed": ['*'"full"'* ]] && ok "compare json: lists the failed configuration" ||
	not_ok "compare json: lists the failed configuration" "$out"

# compilebench with the full data set overfills 64 MiB in its first tree.
if have_cbdata; then
	"$FSLAB" run --target ext4:size=64M --db "$DB" --scratch "$SCRATCH" \
		--workload "compilebench:initial-dirs=2,runs=2,sources=$CBDATA" \
		--tag cbfull >/dev/null 2>"$SCRATCH/cb.err"
	rc=$?
	err=$(cat "$SCRATCH/cb.err")
	[ $rc -eq 1 ] && [[ $err == *"failed in phase '"*"No space left on device"* ]] &&
		ok "compilebench full: exit 1, names phase and ENOSPC" ||
		not_ok "compilebench full: exit 1, names phase and ENOSPC" "exit $rc" "$err"
	row=$(sqlite3 "$DB" "select bytes > 0 and files > 0 from $PHASES where tag = 'cbfull' and status = 'failed'")
	[ "$row" = 1 ] && ok "compilebench full: failed phase has the work done" ||
		not_ok "compilebench full: failed phase has the work done" "got '$row'"
	nothing_left_under "$SCRATCH" && ok "compilebench full: nothing left mounted" ||
		not_ok "compilebench full: nothing left mounted" "$(grep "$SCRATCH" /proc/mounts)"
else
	ok "# SKIP compilebench data set not found"
fi
finish
