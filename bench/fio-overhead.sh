#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fio-overhead.sh - does running a job file under fslab change what
# fio measures?  The same job (examples/fio/seq-buffered.fio, sized down)
# runs under `fslab run -w fio:job=...` and under plain fio, each on a
# fresh ext4 of its own kind (fslab: its own direct-I/O loop image;
# plain: the same size of image, attached with direct I/O, mounted),
# interleaved for ROUNDS rounds.  Prints fio's own write and read
# bandwidth per round and the medians' ratio fslab / plain.
#
#   bench/fio-overhead.sh [ROUNDS [SIZE]]      (default 5 rounds, 128m)
#
# Needs root.  Timings are printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=${1:-5}
size=${2:-128m}
bench_need fio
bench_need python3
bench_build
bench_work
job=$top/examples/fio/seq-buffered.fio

median() {
	python3 -c 'import statistics,sys; print("%.1f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"
}

fs_w=() fs_r=() pl_w=() pl_r=()
for i in $(seq 1 "$rounds"); do
	"$fslab" run -t ext4:size=2G -w "fio:job=$job,size=$size" --quiet \
		--db "$work/r.db" --scratch "$work/s" --tag "r$i" >/dev/null
	w=$(sqlite3 "$work/r.db" "select m.value from metrics m join phases p on p.id = m.phase_id join wlruns w on w.id = p.wlrun_id join runs r on r.id = w.run_id where r.tag = 'r$i' and m.name = 'write.MiB/s'")
	r=$(sqlite3 "$work/r.db" "select m.value from metrics m join phases p on p.id = m.phase_id join wlruns w on w.id = p.wlrun_id join runs r on r.id = w.run_id where r.tag = 'r$i' and m.name = 'read.MiB/s'")
	fs_w+=("$w") fs_r+=("$r")

	bench_fs 2G --direct-io=on -- mkfs.ext4 -q -F
	sed "s/^size=.*/size=$size/" "$job" >"$work/job.fio"
	pw= pr=
	for s in seq-write seq-read; do
		v=$(cd "$mnt" && fio --output-format=json --section=$s "$work/job.fio" |
			python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]
k = "write" if j["write"]["io_bytes"] else "read"
print(j[k]["bw_bytes"] / 1048576)')
		[ $s = seq-write ] && pw=$v || pr=$v
	done
	umount "$mnt"; losetup -d "$dev"; rm -f "$work/img"; mnt= dev=
	pl_w+=("$pw") pl_r+=("$pr")
	printf 'round %d: write MiB/s fslab %.1f plain %.1f   read MiB/s fslab %.1f plain %.1f\n' \
		"$i" "$w" "$pw" "$r" "$pr"
done
mw=$(median "${fs_w[@]}") mpw=$(median "${pl_w[@]}")
mr=$(median "${fs_r[@]}") mpr=$(median "${pl_r[@]}")
printf 'median write MiB/s: fslab %s, plain fio %s, ratio %.3f\n' "$mw" "$mpw" \
	"$(python3 -c "print($mw / $mpw)")"
printf 'median read MiB/s:  fslab %s, plain fio %s, ratio %.3f\n' "$mr" "$mpr" \
	"$(python3 -c "print($mr / $mpr)")"
