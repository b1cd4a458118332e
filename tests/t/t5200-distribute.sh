#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab run + distribute (the afdbench-like pipeline) on loop-mounted ext4
# and btrfs: a short burst run drains with delivered = produced x fanout,
# the workload's own verification passes (no file lost, none left in a
# pool or outgoing directory), the store holds the figures and a complete
# run, deliver=copy and deliver=move work, and nothing stays mounted.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
scratch_dir

# run_one FS OPTIONS TAG: run, then check the run and its accounting
run_one() {
	local fs=$1 opts=$2 tag=$3 out err rc run st
	out=$SCRATCH/$tag.out
	err=$SCRATCH/$tag.err
	"$FSLAB" run --target "$fs:size=1G" --workload "distribute:$opts" \
		--db "$DB" --scratch "$SCRATCH" --tag "$tag" >"$out" 2>"$err"
	rc=$?
	if [ $rc -eq 0 ]; then ok "$tag: run exits 0"; else
		not_ok "$tag: run exits 0" "exit $rc" "$(tail -20 "$err")"; fi
	run=$(sqlite3 "$DB" "select id from runs where tag = '$tag'")
	st=$(sqlite3 "$DB" "select status from runs where id = $run")
	[ "$st" = complete ] && ok "$tag: run stored as complete" ||
		not_ok "$tag: run stored as complete" "status '$st'"
	local prod del exp fan ver ok_ lost left
	prod=$(metric_int "$run" distribute produced)
	fan=$(metric_int "$run" distribute fanout)
	del=$(metric_int "$run" distribute delivered)
	exp=$(metric_int "$run" verify expected)
	ver=$(metric_int "$run" verify verified)
	ok_=$(metric_int "$run" verify ok)
	lost=$(metric_int "$run" verify lost)
	left=$(metric_int "$run" verify backlog)
	[ "$prod" = 2000 ] && [ "$fan" = 3 ] && [ "$del" = 6000 ] &&
		[ "$exp" = 6000 ] && [ "$ver" = 6000 ] &&
		ok "$tag: delivered = produced x fanout (2000 x 3)" ||
		not_ok "$tag: delivered = produced x fanout (2000 x 3)" \
			"produced $prod fanout $fan delivered $del expected $exp verified $ver"
	[ "$ok_" = 1 ] && [ "$lost" = 0 ] && [ "$left" = 0 ] &&
		ok "$tag: verified: nothing lost, nothing left in a pool" ||
		not_ok "$tag: verified: nothing lost, nothing left in a pool" \
			"ok $ok_ lost $lost left $left" "$(grep -i accounting "$out")"
	local nfs nw ni
	nfs=$(sqlite3 "$DB" "select count(*) from $METRICS where run = $run and phase = 'distribute' and name = 'files/s' and unit = 'files/s' and better = 1 and value > 0")
	[ "$nfs" = 1 ] && ok "$tag: files/s stored with unit and direction" ||
		not_ok "$tag: files/s stored with unit and direction" "got $nfs"
	# the headline is deliveries over the distribute phase's own span,
	# first delivery to last (afdbench), never over the fill before it
	local fsr span dwall fwall
	fsr=$(metric "$run" distribute files/s)
	span=$(metric "$run" distribute span_s)
	dwall=$(sqlite3 "$DB" "select wall_ns / 1e9 from $PHASES where run = $run and phase = 'distribute'")
	awk -v f="$fsr" -v d="$del" -v s="$span" -v w="$dwall" 'BEGIN {
		r = d / s; exit !(s > 0 && s <= w && f > 0 &&
				  (f - r) / r < 0.01 && (r - f) / r < 0.01) }' &&
		ok "$tag: files/s = delivered / span of the deliveries (within 1 %)" ||
		not_ok "$tag: files/s = delivered / span of the deliveries (within 1 %)" \
			"files/s $fsr delivered $del span $span phase wall $dwall"
	grep -Eq "^delivered $del of $del .* in [0-9.]+ s from the first delivery to the last \(phase [0-9.]+ s\)" "$out" &&
		ok "$tag: the delivered line gives the headline's span" ||
		not_ok "$tag: the delivered line gives the headline's span" "$(grep ^delivered "$out")"
	if [ "$(metric_int "$run" fill produced)" = 2000 ]; then
		grep -Eq '^fill: 2000 files, .* \([0-9.]+ files/s, scanners paused; not part of the rates below\)' "$out" &&
			ok "$tag: fill reported as its own phase" ||
			not_ok "$tag: fill reported as its own phase" "$(grep ^fill "$out")"
	fi
	ni=$(metric_int "$run" distribute intervals)
	[ -n "$ni" ] && [ "$ni" -ge 1 ] && [ "$ni" -le 600 ] &&
		[ -n "$(metric_int "$run" distribute interval.0.files/s)" ] &&
		ok "$tag: interval series stored ($ni)" ||
		not_ok "$tag: interval series stored" "intervals '$ni'"
	[ -n "$(metric_int "$run" distribute lat_p99_ms)" ] &&
		ok "$tag: latency percentiles stored" ||
		not_ok "$tag: latency percentiles stored"
	nw=$(sqlite3 "$DB" "select count(*) from workers k join phases p on k.phase_id = p.id join wlruns w on p.wlrun_id = w.id where w.run_id = $run and p.name = 'distribute'" 2>/dev/null)
	[ "${nw:-0}" -ge 3 ] && ok "$tag: a worker row per deliverer stored ($nw)" ||
		not_ok "$tag: per-worker rows stored" "got '$nw'"
	grep -q '^[0-9.]* files/s  [0-9.]* MiB/s$' "$out" &&
		grep -q '^accounting: ok, 6000 of 6000 deliveries verified' "$out" &&
		grep -q '^latency publish->delivery: p50 ' "$out" &&
		ok "$tag: afdbench-like report printed" ||
		not_ok "$tag: afdbench-like report printed" "$(cat "$out")"
	"$FSLAB" show --db "$DB" "$tag" >"$SCRATCH/$tag.show" 2>&1
	if diff <(grep -E '^[0-9.]+ files/s|^accounting|^latency' "$out") \
		<(grep -E '^[0-9.]+ files/s|^accounting|^latency' "$SCRATCH/$tag.show") >/dev/null; then
		ok "$tag: show renders the same report from the store"
	else not_ok "$tag: show renders the same report from the store" "$(cat "$SCRATCH/$tag.show")"; fi
	nothing_left_under "$SCRATCH" && ok "$tag: no mount or loop device left" ||
		not_ok "$tag: no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
}

for fs in ext4 btrfs; do
	need_cmd mkfs.$fs
	run_one "$fs" "files=2000,fanout=3,until=drained" "t5200-$fs"
done
run_one ext4 "files=2000,fanout=3,deliver=copy,workers=2" t5200-copy
run_one btrfs "files=2000,fanout=3,deliver=move,batch=64,sources=2" t5200-move

check_exit "files and rate together are a usage error" 2 \
	"$FSLAB" run --target "dir:$SCRATCH" --workload distribute:files=10,rate=10 \
	--db "$DB" --scratch "$SCRATCH"
left=$(find "$SCRATCH" -maxdepth 1 \( -name '*.img' -o -name '*.mnt' \) | head -3)
[ -z "$left" ] && ok "no image or mount point left" || not_ok "no image or mount point left" "$left"
check_metric_names
finish
