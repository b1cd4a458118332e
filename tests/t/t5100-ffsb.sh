#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab run + ffsb on loop-mounted ext4 and btrfs: a short run of a small
# example profile completes, the store holds its figures, FFSB's
# accounting adds up (total transactions = the sum over the ops), a bad
# profile is refused with file:line before anything is built, and nothing
# stays mounted or attached afterwards.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
scratch_dir
PROFILE=$TOP/examples/ffsb/small-mix.ffsb

q() {
	sqlite3 "$DB" "$1"
}

printf 'time = 3\n[filesystem]\nmax_filesize = 4x\n[end]\n' >"$SCRATCH/bad.ffsb"
out=$("$FSLAB" run --target ext4:size=1G --workload "ffsb:profile=$SCRATCH/bad.ffsb" \
	--db "$DB" --scratch "$SCRATCH" 2>&1)
rc=$?
if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "bad.ffsb:3: bad size suffix in '4x'"; then
	ok "bad profile: exit 2 with file:line"
else not_ok "bad profile: exit 2 with file:line" "exit $rc" "$out"; fi
left=$(find "$SCRATCH" -maxdepth 1 -name '*.img' | head -1)
[ -z "$left" ] && ok "bad profile: no image was made" || not_ok "bad profile: no image was made" "$left"

for fs in ext4 btrfs; do
	need_cmd mkfs.$fs
	"$FSLAB" run --target "$fs:size=1G" \
		--workload "ffsb:profile=$PROFILE,time=3,seed=7" \
		--db "$DB" --scratch "$SCRATCH" --tag "t5100-$fs" \
		>"$SCRATCH/$fs.out" 2>"$SCRATCH/$fs.err"
	rc=$?
	if [ $rc -eq 0 ]; then ok "$fs: run exits 0"; else
		not_ok "$fs: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/$fs.err")"; fi
	grep -q '^[0-9.]* Transactions per Second$' "$SCRATCH/$fs.out" &&
		grep -q '% CPU Utilization$' "$SCRATCH/$fs.out" &&
		ok "$fs: report in FFSB's format" ||
		not_ok "$fs: report in FFSB's format" "$(cat "$SCRATCH/$fs.out")"
	run=$(q "select id from runs where tag = 't5100-$fs'")
	st=$(q "select status from runs where id = $run")
	[ "$st" = complete ] && ok "$fs: run stored as complete" || not_ok "$fs: run stored as complete" "status '$st'"
	ph=$(q "select phase_id from $PHASES where run = $run and phase = 'run'")
	names=$(q "select group_concat(phase, ' ') from (select phase from $PHASES where run = $run order by seq)")
	[ "$names" = "setup run" ] && ok "$fs: phases setup and run" || not_ok "$fs: phases setup and run" "$names"
	total=$(q "select cast(value as integer) from metrics where phase_id = $ph and name = 'transactions'")
	sum=$(q "select cast(sum(value) as integer) from metrics where phase_id = $ph and name like '%.transactions'")
	wsum=$(q "select sum(ops) from workers where phase_id = $ph")
	if [ -n "$total" ] && [ "$total" -gt 0 ] && [ "$total" = "$sum" ] && [ "$total" = "$wsum" ]; then
		ok "$fs: total transactions = sum over ops = sum over threads"
	else not_ok "$fs: total transactions = sum over ops = sum over threads" "total '$total' ops '$sum' threads '$wsum'"; fi
	nw=$(q "select count(*) from workers where phase_id = $ph")
	[ "$nw" -eq 3 ] && ok "$fs: one worker row per thread" || not_ok "$fs: one worker row per thread" "got $nw"
	tps=$(q "select count(*) from metrics where phase_id = $ph and name = 'transactions/s' and unit = 'transactions/s' and better = 1 and value > 0")
	[ "$tps" -eq 1 ] && ok "$fs: transactions/s stored with unit and direction" || not_ok "$fs: transactions/s stored with unit and direction"
	nops=$(q "select count(*) from metrics where phase_id = $ph and name like '%.transactions/s'")
	[ "$nops" -eq 15 ] && ok "$fs: every op of the profile has its transactions/s" || not_ok "$fs: every op of the profile has its transactions/s" "got $nops"
	lat=$(q "select count(*) from metrics where phase_id = $ph and name like '%.lat_p99_ms' and unit = 'ms'")
	[ "$lat" -ge 1 ] && ok "$fs: latency percentiles stored" || not_ok "$fs: latency percentiles stored"
	seed=$(q "select cast(value as integer) from metrics where phase_id = $ph and name = 'seed'")
	[ "$seed" = 7 ] && ok "$fs: seed stored" || not_ok "$fs: seed stored" "'$seed'"
	files=$(q "select files from $PHASES where run = $run and phase = 'setup'")
	[ "$files" = 300 ] && ok "$fs: setup created num_files files" || not_ok "$fs: setup created num_files files" "got '$files'"
	"$FSLAB" show --db "$DB" "t5100-$fs" >"$SCRATCH/$fs.show" 2>&1
	if diff <(sed -n '/^Total Results$/,/CPU Utilization$/p' "$SCRATCH/$fs.out") \
		<(sed -n '/^Total Results$/,/CPU Utilization$/p' "$SCRATCH/$fs.show") >/dev/null &&
		grep -q 'Total Results' "$SCRATCH/$fs.show"; then
		ok "$fs: show reproduces the live report"
	else not_ok "$fs: show reproduces the live report" "$(cat "$SCRATCH/$fs.show")"; fi
	nothing_left_under "$SCRATCH" && ok "$fs: no mount or loop device left" ||
		not_ok "$fs: no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
done
check_metric_names
finish
