#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab run + the metadata workload on loop-mounted ext4 and btrfs: a
# short create/stat/read/unlink storm with two threads over four
# directories each, then the same in one shared directory.  The store
# must hold every phase with files = files x threads and one worker row
# per thread, the fs_mark-like report must be printed, and nothing may
# stay mounted or attached.  Then a stonewalled create, with and without
# wear-out.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
scratch_dir

files=2000 threads=2 total=4000
q() { sqlite3 "$DB" "$@"; }
# is "description" got want
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		not_ok "$1" "got '$2', wanted '$3'"; fi
}
for fs in ext4 btrfs; do
	need_cmd mkfs.$fs
	for mode in own shared; do
		opts="files=$files,threads=$threads,dirs=4,size=1k,names=random"
		[ $mode = shared ] && opts="$opts,shared=1,sync=batch"
		tag="t5000-$fs-$mode"
		out=$SCRATCH/$tag.out
		"$FSLAB" run --target "$fs:size=1G" --workload "metadata:$opts" \
			--db "$DB" --scratch "$SCRATCH" --tag "$tag" \
			>"$out" 2>"$SCRATCH/$tag.err"
		rc=$?
		if [ $rc -eq 0 ]; then ok "$tag: run exits 0"; else
			not_ok "$tag: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/$tag.err")"; fi
		run=$(q "select id from runs where tag = '$tag'")
		st=$(q "select status from runs where id = $run")
		[ "$st" = complete ] && ok "$tag: run stored as complete" ||
			not_ok "$tag: run stored as complete" "status '$st'"
		got=$(q "select group_concat(phase || '=' || files, ' ') from $PHASES
			where run = $run
			and phase in ('create', 'stat', 'read', 'unlink') order by seq")
		want="create=$total stat=$total read=$total unlink=$total"
		is "$tag: create/stat/read/unlink with $total files each" \
			"$got" "$want"
		dirs=$(q "select group_concat(phase || '=' || files, ' ') from $PHASES
			where run = $run
			and phase in ('mkdir', 'rmdir') order by seq")
		[ $mode = shared ] && nd=4 || nd=8
		is "$tag: mkdir/rmdir of $nd directories" "$dirs" \
			"mkdir=$nd rmdir=$nd"
		# one row per thread per phase, and their files add up
		wk=$(q "select count(distinct p.phase_id) || ' ' || count(*) || ' ' ||
			count(distinct k.worker) || ' ' || sum(k.files) ||
			' ' || sum(k.end_ns >= k.start_ns and k.start_ns > 0)
			from workers k join $PHASES p on k.phase_id = p.phase_id
			where p.run = $run
			and p.phase in ('create', 'stat', 'read', 'unlink')")
		is "$tag: a worker row per thread and phase" "$wk" \
			"4 8 2 $((4 * total)) 8"
		lat=$(q "select count(*) from $METRICS where run = $run
			and name in ('lat_p50_ms', 'lat_p95_ms', 'lat_p99_ms', 'lat_max_ms')
			and unit = 'ms' and better = -1")
		[ "$lat" -eq 24 ] && ok "$tag: latency percentiles for every phase" ||
			not_ok "$tag: latency percentiles for every phase" "got $lat"
		if grep -q '^phase  *count  *size  *files/sec  *p50 us  *p99 us' "$out" &&
			grep -q "^create  *$total  *1024 " "$out" &&
			grep -q "^unlink  *$total " "$out" &&
			grep -q "^metadata: $threads threads, $files files per thread" "$out"; then
			ok "$tag: fs_mark-like report printed"
		else not_ok "$tag: fs_mark-like report printed" "$(cat "$out")"; fi
		"$FSLAB" show --db "$DB" "$tag" >"$SCRATCH/$tag.show" 2>&1
		if diff <(sed -n '/^metadata: /,/^rmdir /p' "$out") \
			<(sed -n '/^metadata: /,/^rmdir /p' "$SCRATCH/$tag.show") >/dev/null; then
			ok "$tag: show reproduces the report from the store"
		else not_ok "$tag: show reproduces the report from the store" \
			"$(cat "$SCRATCH/$tag.show")"; fi
		nothing_left_under "$SCRATCH" && ok "$tag: no mount or loop device left" ||
			not_ok "$tag: no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
	done
done
# Alone (no MPI) a stonewall stops create at the deadline; without
# wear-out what each thread made is what stat and unlink visit, with it
# both threads go on to the larger count.  files= is far more than any
# machine creates in 0.3 s (and the image has the inodes for a fast
# one), so the deadline always cuts.
files=1000000
for wo in no yes; do
	tag="t5000-stonewall-wearout-$wo"
	"$FSLAB" run --target "ext4:size=1G,mkfs=-i 2048" --db "$DB" --scratch "$SCRATCH" --tag "$tag" \
		--workload "metadata:files=$files,threads=2,stonewall=0.3,wearout=$wo,cold=no" \
		>"$SCRATCH/$tag.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && ok "$tag: run exits 0" || not_ok "$tag: run exits 0" "exit $rc" "$(tail -5 "$SCRATCH/$tag.out")"
	run=$(q "select id from runs where tag = '$tag'")
	ph() { q "select files from $PHASES where run = ${run:-0} and phase = '$1'"; }
	c=$(ph create) sw=$(metric "${run:-0}" create stonewall_files) mx=$(metric "${run:-0}" create stonewall_max)
	sws=$(metric "${run:-0}" create stonewall_s)
	sw=${sw%.*} mx=${mx%.*}
	if [ $wo = no ]; then want=$sw; else want=$((2 * ${mx:-0})); fi
	[ -n "$c" ] && [ "$c" -gt 0 ] && [ "$c" -lt "$files" ] && [ "$c" = "$want" ] &&
		ok "$tag: create stopped at the deadline with $c of $files files" ||
		not_ok "$tag: create stopped at the deadline" "create $c, stonewall_files $sw, max $mx"
	num_ge "${sws:-0}" 0.3 && ok "$tag: stonewall_s $sws >= 0.3" ||
		not_ok "$tag: stonewall_s >= 0.3" "stonewall_s '$sws'"
	[ "$(ph stat)" = "$c" ] && [ "$(ph unlink)" = "$c" ] &&
		ok "$tag: stat and unlink visit the $c files made" ||
		not_ok "$tag: stat and unlink visit the files made" "stat $(ph stat) unlink $(ph unlink)"
	nothing_left_under "$SCRATCH" && ok "$tag: no mount or loop device left" ||
		not_ok "$tag: no mount or loop device left"
done
check_exit "bad option refused with usage exit" 2 \
	"$FSLAB" run --target "ext4:size=1G" --workload "metadata:dirs=5,files=4" \
	--db "$DB" --scratch "$SCRATCH"
nothing_left_under "$SCRATCH" && ok "nothing left mounted at the end" ||
	not_ok "nothing left mounted at the end" "$(grep "$SCRATCH" /proc/mounts)"
check_metric_names
finish
