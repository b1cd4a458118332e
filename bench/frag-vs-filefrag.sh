#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/frag-vs-filefrag.sh - `fslab frag` against the classic
# `find -type f | xargs filefrag` on the same tree, cold cache each time,
# with the peak RSS of fslab.  The issue's target: at least 2.5x faster
# on 100k files and at most 64 MiB RSS on any tree.
#
#   bench/frag-vs-filefrag.sh [DIR] [NFILES]
#
# Without DIR (needs root) it builds NFILES (100000) small files on a
# fresh ext4 loop image and removes everything afterwards.  Timings are
# printed, never asserted.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
fslab=${FSLAB:-$top/fslab}
dir=${1:-}
nfiles=${2:-100000}
work=$(mktemp -d /var/tmp/fslab-bench.XXXXXX)
mnt= dev=
cleanup() {
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || true
	[ -z "$dev" ] || losetup -d "$dev" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

if [ -z "$dir" ]; then
	truncate -s 8G "$work/img"
	dev=$(losetup -f --show "$work/img")
	mkfs.ext4 -q -F "$dev"
	mkdir "$work/mnt"
	mount "$dev" "$work/mnt"
	mnt=$work/mnt
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
PY
	sync
fi

drop() {
	sync
	[ "$(id -u)" -ne 0 ] || echo 3 >/proc/sys/vm/drop_caches
}

secs() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

drop
t_ff=$(secs sh -c "find '$dir' -type f -print0 | xargs -0 filefrag")
drop
if command -v /usr/bin/time >/dev/null 2>&1; then
	t0=$(date +%s.%N)
	/usr/bin/time -f %M -o "$work/rss" "$fslab" frag "$dir" >/dev/null 2>&1
	t1=$(date +%s.%N)
	t_fs=$(echo "$t1 - $t0" | bc -l)
	rss="$(cat "$work/rss") KiB"
else
	t_fs=$(secs "$fslab" frag "$dir")
	rss="unknown (no /usr/bin/time)"
fi
n=$(find "$dir" -type f | wc -l)
printf 'files:                        %d\n' "$n"
printf 'find | xargs filefrag:        %.2f s\n' "$t_ff"
printf 'fslab frag (%d jobs):          %.2f s\n' "$(nproc)" "$t_fs"
printf 'speed-up:                     %.1fx\n' "$(echo "$t_ff / $t_fs" | bc -l)"
printf 'fslab frag peak RSS:          %s\n' "$rss"
