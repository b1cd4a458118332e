#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Stalls: an ffsb timed run on loop ext4 whose filesystem the test holds
# frozen (fsfreeze -f ... -u) three times for 400 ms must store exactly
# 3 stalls, each as long as the hold the test measured around its
# freeze and thaw (within 50 ms); the same run unfrozen stores 0.  The
# threshold is 300 ms so the 400 ms holds are stalls and a slow fsync
# on a busy machine is not.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
need_cmd fsfreeze
need_cmd mkfs.ext4
scratch_dir

q() { sqlite3 "$DB" "$@"; }
run_ffsb() { # TAG [freeze]
	local tag=$1 err=$SCRATCH/$1.err pid mnt t0 t1 i
	"$FSLAB" run --target ext4:size=512M --workload ffsb:time=5 \
		--repeat 1 --stall-ms 300 --db "$DB" --scratch "$SCRATCH" \
		--tag "$tag" --pause-before run >"$SCRATCH/$tag.out" 2>"$err" &
	pid=$!
	cleanup_add "kill -CONT $pid; kill $pid"
	if ! pause_wait "$err" $pid run; then
		not_ok "$tag: paused before the run phase" "$(tail -5 "$err")"
		return
	fi
	mnt=$(findmnt -rn -o TARGET | grep -F "$SCRATCH" | head -1)
	cleanup_add "fsfreeze -u '$mnt'"
	kill -CONT $pid
	: >"$SCRATCH/$tag.holds"
	if [ "${2:-}" = freeze ]; then
		sleep 0.8
		for i in 1 2 3; do
			t0=$(date +%s%N)
			fsfreeze -f "$mnt"
			sleep 0.4
			fsfreeze -u "$mnt"
			t1=$(date +%s%N)
			echo $(((t1 - t0) / 1000000)) >>"$SCRATCH/$tag.holds"
			sleep 0.6
		done
	fi
	wait $pid
	check "$tag: run exits 0" test $? -eq 0
}

run_ffsb t5120-frozen freeze
n=$(metric_int t5120-frozen run stalls)
[ "$n" = 3 ] && ok "3 holds of 400 ms: 3 stalls stored" ||
	not_ok "3 holds of 400 ms: 3 stalls stored" "got '$n'" \
		"$(grep stall "$SCRATCH/t5120-frozen.err")"
# Each stall printed with its length; each within 50 ms of its hold.
mapfile -t holds <"$SCRATCH/t5120-frozen.holds"
mapfile -t lens < <(sed -n 's/.*run: stall of \([0-9]*\) ms at.*/\1/p' \
	"$SCRATCH/t5120-frozen.err")
bad=""
for i in 0 1 2; do
	d=$(( ${lens[$i]:-0} - ${holds[$i]:-0} ))
	[ ${d#-} -le 50 ] || bad="$bad stall $i: ${lens[$i]:-none} ms vs hold ${holds[$i]:-?} ms;"
done
[ -z "$bad" ] && ok "each stall's length within 50 ms of its hold" ||
	not_ok "each stall's length within 50 ms of its hold" "$bad"
mx=$(metric t5120-frozen run stall_max_ms)
tot=$(metric t5120-frozen run stall_total_ms)
awk -v m="$mx" -v t="$tot" 'BEGIN { exit !(m >= 400 && t >= 1200 && t >= m) }' &&
	ok "stall_max_ms $mx and stall_total_ms $tot hold the holds" ||
	not_ok "stall_max_ms and stall_total_ms hold the holds" "max '$mx' total '$tot'"

run_ffsb t5120-thawed
n=$(metric_int t5120-thawed run stalls)
[ "$n" = 0 ] && ok "unfrozen: 0 stalls stored" ||
	not_ok "unfrozen: 0 stalls stored" "got '$n'" \
		"$(grep stall "$SCRATCH/t5120-thawed.err")"
check "--stall-ms 0 is refused" bash -c \
	"! '$FSLAB' run --stall-ms 0 --target ext4 -w ffsb --no-store 2>/dev/null"
finish
