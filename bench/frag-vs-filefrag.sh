#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/frag-vs-filefrag.sh - `fslab frag` against the classic
# `find -type f | xargs filefrag` on the same tree, warm and cold cache,
# with the kernel-only floor (bench/frag-floor.c: open+FIEMAP+close and
# nothing else, one thread) and the peak RSS of fslab.  The issue's
# target: at least 2.5x faster on 100k files, <= 64 MiB RSS on any tree.
#
#   bench/frag-vs-filefrag.sh [DIR] [NFILES]
#
# Without DIR (needs root) it builds NFILES (100000) small files, some
# of them fragmented on purpose, on a fresh ext4 loop image and removes
# everything afterwards.  Every configuration runs REPS times (5; cold
# COLD_REPS, 3) and the median wall and user+sys CPU time is printed:
# the machine may be shared, so compare CPU times when walls are noisy.
# Timings are printed, never asserted; counts are checked (exit 1 when
# fslab and filefrag disagree on files, fragmented files or extents).
#
# Flags: filefrag asks FIEMAP without FIEMAP_FLAG_SYNC (it sets it only
# with -s); fslab frag sets it by default, --no-sync does not.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
dir=${1:-}
nfiles=${2:-100000}
reps=${REPS:-5}
cold_reps=${COLD_REPS:-3}
bench_work

if [ -z "$dir" ]; then
	bench_fs 8G -- mkfs.ext4 -q -F
	dir=$mnt/tree
	echo "building $nfiles files in $dir ..."
	python3 - "$dir" "$nfiles" <<'PY'
import os, random, sys
d, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(1)
blob = os.urandom(1 << 20)
for i in range(n):
    sub = f"{d}/{i // 10000}/{(i // 100) % 100}"
    if i % 100 == 0:
        os.makedirs(sub, exist_ok=True)
    size = int(rnd.lognormvariate(8, 2)) % (1 << 20)
    with open(f"{sub}/f{i}", "wb") as f:
        f.write(blob[:size])
# A few hundred fragmented files: written interleaved, 4 KiB at a time
# with fsync, so the allocator hands them alternating blocks.
os.makedirs(f"{d}/frag", exist_ok=True)
for g in range(50):
    fds = [os.open(f"{d}/frag/g{g}_{k}", os.O_WRONLY | os.O_CREAT, 0o644)
           for k in range(4)]
    for i in range(8):
        for fd in fds:
            os.pwrite(fd, blob[:4096], i * 4096)
            os.fsync(fd)
    for fd in fds:
        os.close(fd)
PY
	sync
fi

floor=$work/frag-floor
cc -O2 -o "$floor" "$top/bench/frag-floor.c"

drop() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# run NAME COLD CMD...: REPS runs, "wall user+sys rss" per run, then the
# medians into the table.
declare -A W C R
run() {
	local name=$1 cold=$2 n i
	shift 2
	n=$reps
	[ "$cold" = 0 ] || n=$cold_reps
	: >"$work/t"
	for ((i = 0; i < n; i++)); do
		[ "$cold" = 0 ] || drop
		/usr/bin/time -f '%e %U %S %M' -a -o "$work/t" "$@" >/dev/null 2>&1
	done
	W[$name]=$(awk '{ print $1 }' "$work/t" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	C[$name]=$(awk '{ print $2 + $3 }' "$work/t" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	R[$name]=$(awk '{ print $4 }' "$work/t" | sort -g | tail -1)
}

# Counts first: filefrag's "N extents found" against fslab's JSON.
find "$dir" -type f -print0 | xargs -0 filefrag |
	sed -n 's/^.*: \([0-9]*\) extents\{0,1\} found$/\1/p' >"$work/ff"
ff_files=$(wc -l <"$work/ff")
ff_frag=$(awk '$1 > 1' "$work/ff" | wc -l)
ff_ext=$(awk '{ s += $1 } END { print s + 0 }' "$work/ff")
"$fslab" frag --json --no-freesp "$dir" >"$work/json"
read -r fs_files fs_frag fs_ext ring < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["files"], d["fragmented_files"], d["runs"], d["walk"]["io_uring"])' "$work/json")
printf '%-34s %10s %10s\n' "counts" "filefrag" "fslab"
printf '%-34s %10d %10d\n' "files" "$ff_files" "$fs_files"
printf '%-34s %10d %10d\n' "fragmented files" "$ff_frag" "$fs_frag"
printf '%-34s %10d %10d\n' "extents (filefrag's count)" "$ff_ext" "$fs_ext"
same=yes
[ "$ff_files" = "$fs_files" ] && [ "$ff_frag" = "$fs_frag" ] &&
	[ "$ff_ext" = "$fs_ext" ] || same=NO
echo "identical counts: $same"
echo

ff="find '$dir' -type f -print0 | xargs -0 filefrag"
for cold in 0 1; do
	run "ff$cold" $cold sh -c "$ff"
	run "fs$cold" $cold "$fslab" frag --no-freesp "$dir"
	run "ns$cold" $cold "$fslab" frag --no-freesp --no-sync "$dir"
	run "nu$cold" $cold "$fslab" frag --no-freesp --no-io-uring "$dir"
	run "fl$cold" $cold "$floor" "$dir"
done

echo "$ff_files files, $(nproc) CPUs, fslab $(nproc) jobs (io_uring: $ring);" \
	"median of $reps warm / $cold_reps cold runs"
printf '%-44s %8s %8s %8s %8s %7s\n' "" "warm s" "CPU s" "cold s" "CPU s" "x warm"
# ratio A B: A / B to one decimal, "-" when B rounds to 0 s (time(1)
# counts hundredths: small trees take no measurable time).
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "-" }'
}
row() {
	local label=$1 k=$2
	printf '%-44s %8.2f %8.2f %8.2f %8.2f %6sx\n' "$label" \
		"${W[${k}0]}" "${C[${k}0]}" "${W[${k}1]}" "${C[${k}1]}" \
		"$(ratio "${W[ff0]}" "${W[${k}0]}")"
}
row "find | xargs filefrag (no FIEMAP_FLAG_SYNC)" ff
row "fslab frag (FIEMAP_FLAG_SYNC, default)" fs
row "fslab frag --no-sync (no FLAG_SYNC)" ns
row "fslab frag --no-io-uring (FLAG_SYNC)" nu
row "floor: open+FIEMAP+close, 1 thread" fl
printf '%-44s %8.2f %8s %8.2f\n' "floor spread over $(nproc) CPUs (CPU / CPUs)" \
	"$(echo "${C[fl0]} / $(nproc)" | bc -l)" "" "$(echo "${C[fl1]} / $(nproc)" | bc -l)"
printf 'speed-up cold, fslab default vs filefrag: %sx (--no-sync %sx)\n' \
	"$(ratio "${W[ff1]}" "${W[fs1]}")" "$(ratio "${W[ff1]}" "${W[ns1]}")"
printf 'fslab frag peak RSS: %d KiB\n' "${R[fs1]}"
[ "$same" = yes ]
