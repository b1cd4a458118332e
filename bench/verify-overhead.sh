#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/verify-overhead.sh - what --verify costs.
#
#  1. the pattern itself: bench/verify-speed.c, built against fslab's
#     objects, fills and checks SIZE_MiB... of pattern on one core and
#     prints GB/s of CPU time (not wall time: the machine may be busy);
#  2. fslab bonnie block write / rewrite / block read (perchar=none,
#     files=0) with and without --verify on a fresh ext4 loop target,
#     interleaved, REPEAT times each: the median rates (KiB/s) and user
#     CPU seconds of each phase and the ratio verify / plain.
#
#   bench/verify-overhead.sh [FILE_MiB [REPEAT]]
#
# The default file is smaller than RAM, so block-read mostly hits the page
# cache: the worst case for --verify, where checking competes with a
# memory copy instead of a disk.  Needs root.  Timings are printed, never
# asserted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
size=${1:-512}
repeat=${2:-3}
bench_work
bench_build
# the Makefile's PKGS, and every object but main's, however deep
pkgs="sqlite3 blkid mount jansson gsl cairo fontconfig libarchive libtracefs libtraceevent liburing"
pkg-config --exists ompi-c && pkgs="$pkgs ompi-c"
objs=$(find "$top/build/src" -name '*.o' ! -path "$top/build/src/main.o" | sort)
# shellcheck disable=SC2086
cc -O2 -std=c17 -D_GNU_SOURCE -I"$top/src" -o "$work/verify-speed" \
	"$top/bench/verify-speed.c" $objs $(pkg-config --libs $pkgs) -lm -pthread
echo "== pattern, one core (CPU time)"
"$work/verify-speed" 4096

db=$work/results.db
wl="bonnie:size=${size}M,ram=0,perchar=none,files=0"
for ((i = 0; i < repeat; i++)); do
	for mode in plain verify; do
		flag=
		[ $mode = plain ] || flag=--verify
		# shellcheck disable=SC2086
		"$fslab" run $flag --target ext4:size=$((size * 2 + 256))M \
			--workload "$wl" --db "$db" --scratch "$work" \
			--tag "$mode" >/dev/null 2>"$work/$mode.err" ||
			{ tail -5 "$work/$mode.err" >&2; exit 1; }
	done
done

# median of the stored values of one metric over the runs of one tag
med() {
	sqlite3 "$db" "select m.value from metrics m join phases p on m.phase_id = p.id
		join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id
		where r.tag = '$1' and p.name = '$2' and m.name = '$3' order by m.value" |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "== bonnie ${size} MiB, ext4 loop, $repeat interleaved runs each, medians"
printf '%-12s %14s %14s %7s %10s %10s %7s\n' phase plain_KiB/s verify_KiB/s ratio \
	plain_usr verify_usr ratio
for ph in block-write rewrite block-read; do
	pr=$(med plain $ph rate) vr=$(med verify $ph rate)
	pu=$(med plain $ph user_s) vu=$(med verify $ph user_s)
	awk -v ph=$ph -v pr="$pr" -v vr="$vr" -v pu="$pu" -v vu="$vu" 'BEGIN {
		printf "%-12s %14.0f %14.0f %7.3f %10.3f %10.3f %7.2f\n", ph, pr, vr,
			(pr > 0 ? vr / pr : 0), pu, vu, (pu > 0 ? vu / pu : 0) }'
done
vs=$(med verify verify-data wall_s)
echo "final verify-data pass (not a benchmark figure): median ${vs} s"
