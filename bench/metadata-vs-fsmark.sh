#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/metadata-vs-fsmark.sh - fslab's metadata create phase against
# fs_mark on the same filesystem in one go: N files of SIZE bytes per
# thread, each fsync'ed before close (fs_mark -S 1), T threads with a
# directory each.  Both print files/s; fs_mark's figure is its own
# (count / its wall time), fslab's is total files over first start to
# last end.  They should agree within the machine's noise.
#
#   bench/metadata-vs-fsmark.sh [FSTYPE] [FILES] [SIZE] [THREADS] [ROUNDS]
#   e.g. bench/metadata-vs-fsmark.sh ext4 5000 4096 2 3
#
# Needs root (loop image, mkfs), fs_mark (Debian package fsmark) and
# sqlite3.  Timings are printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
fs=${1:-ext4}
n=${2:-5000}
size=${3:-4096}
t=${4:-2}
rounds=${5:-3}
bench_need fs_mark "apt-get install fsmark"
bench_work

# One filesystem for both tools, so neither gets a fresher one, and the
# two alternate (fs_mark, fslab, fs_mark, ...): a freshly made ext4 still
# zeroes inode tables in the background, which would tax whoever runs
# first.  fslab runs on a dir: target in the same mount.
# quietly, where the mkfs knows -q
mkfs_fs() {
	mkfs."$fs" -q "$1" >/dev/null 2>&1 || mkfs."$fs" "$1" >/dev/null
}
bench_fs 4G --direct-io=on -- mkfs_fs

fm_all= fl_all= span_all=
for ((i = 1; i <= rounds; i++)); do
	# -t T: T threads in DIR, each in a subdirectory, N files each
	mkdir -p "$mnt/fsmark"
	# fs_mark writes fs_log.txt into its working directory: keep it ours.
	(cd "$work" && fs_mark -d "$mnt/fsmark" -n "$n" -s "$size" -S 1 \
		-t "$t" -L 1) >"$work/fsmark.out" 2>&1
	fm=$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 { r = $4 } END { print r }' \
		"$work/fsmark.out")
	rm -rf "$mnt/fsmark"
	sync

	"$fslab" run --target "dir:$mnt" --db "$work/r.db" \
		--scratch "$work" --tag "round$i" --workload \
		"metadata:files=$n,size=$size,threads=$t,sync=fsync,cold=0" \
		>"$work/fslab.out" 2>"$work/fslab.err" ||
		{ cat "$work/fslab.err" >&2; exit 1; }
	sync
	sel="from phases p join wlruns w on p.wlrun_id = w.id
		join runs r on w.run_id = r.id
		where r.tag = 'round$i' and p.name = 'create'"
	fl=$(sqlite3 "$work/r.db" "select printf('%.1f', m.value)
		from metrics m join phases p2 on m.phase_id = p2.id
		where m.name = 'files/s' and p2.id = (select p.id $sel)")
	span=$(sqlite3 "$work/r.db" "select printf('%.1f', sum(k.files) *
		1e9 / (max(k.end_ns) - min(k.start_ns))) from workers k
		where k.phase_id = (select p.id $sel)")
	printf 'round %d: fs_mark %s  fslab %s (worker span %s) files/s\n' \
		"$i" "$fm" "$fl" "$span"
	fm_all="$fm_all $fm" fl_all="$fl_all $fl" span_all="$span_all $span"
done

mean() { echo "$@" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i;
	printf "%.1f", s / NF }'; }
echo "$fs on a loop image, $t threads x $n files x $size bytes," \
	"fsync each; mean of $rounds rounds"
printf '%-34s %10s files/s\n' "fs_mark -S 1 -t $t" "$(mean $fm_all)" \
	"fslab metadata sync=fsync (phase)" "$(mean $fl_all)" \
	"fslab metadata (worker span)" "$(mean $span_all)"
