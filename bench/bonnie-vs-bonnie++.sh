#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/bonnie-vs-bonnie++.sh - fslab's bonnie against the real bonnie++
# (Debian package bonnie++) on one filesystem, same size, chunk, seeks,
# seekers and file count, runs interleaved (fslab, bonnie++, fslab, ...)
# so drift hits both.  Prints each figure's median and the ratio
# fslab / bonnie++; a faithful re-implementation stays close to 1.
#
#   bench/bonnie-vs-bonnie++.sh [SIZE_MiB [FILES [REPEAT [DIR]]]]
#   e.g. bench/bonnie-vs-bonnie++.sh 1024 4 3
#
# Without DIR a 4 GiB ext4 image is made, attached (direct I/O loop),
# mounted and removed.
# Neither tool drops caches (bonnie++ never does, fslab's cold=0), so
# the cache state is the same; with a file smaller than twice the RAM
# (ram= / -r are set to half the size) reads come from the page cache in
# both.  Needs root.  Timings are printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
size=${1:-1024}
files=${2:-4}
repeat=${3:-3}
dir=${4:-}
chunk=8192
bench_need bonnie++
bench_work
if [ -z "$dir" ]; then
	# direct I/O, like fslab's own loop targets: the image is not
	# cached a second time in the host's page cache
	bench_fs 4G --direct-io=on -- mkfs.ext4 -q -F
	dir=$mnt
fi
ram=$((size / 2))
for i in $(seq "$repeat"); do
	"$fslab" run --target "dir:$dir" --db "$work/r.db" --scratch "$work" \
		--workload "bonnie:size=${size}M,chunk=$chunk,ram=${ram}M,files=$files,machine=fslab" \
		>"$work/fslab.$i" 2>"$work/fslab.$i.err"
	grep '^1\.98,' "$work/fslab.$i" >>"$work/fslab.csv"
	bonnie++ -u root -q -d "$dir" -s "$size:$chunk" -r "$ram" \
		-n "$files" -m bonnie++ >>"$work/bonnie.csv" 2>"$work/bonnie.$i.err"
done
python3 - "$work/fslab.csv" "$work/bonnie.csv" <<'PY'
import statistics, sys
names = ["putc", "block-write", "rewrite", "getc", "block-read", "seeks",
         "seq-create", "seq-stat", "seq-delete", "rand-create",
         "rand-stat", "rand-delete"]
def load(path):
    rows = [l.strip().split(",") for l in open(path) if l.startswith("1.98,")]
    return rows
def field(r, i):
    idx = 9 + 2 * i if i < 6 else 26 + 2 * (i - 6)
    v = r[idx]
    return None if v in ("", "+++++") else float(v)
def lat(r, i):
    v = r[38 + i]
    if not v:
        return None
    for suf, mul in (("us", 1), ("ms", 1e3), ("s", 1e6)):
        if v.endswith(suf):
            return float(v[:-len(suf)]) * mul
a, b = load(sys.argv[1]), load(sys.argv[2])
print("%-12s %12s %12s %7s %11s %11s" % ("test", "fslab", "bonnie++",
      "ratio", "lat fslab", "lat bonnie"))
for i, n in enumerate(names):
    fa = [x for x in (field(r, i) for r in a) if x is not None]
    fb = [x for x in (field(r, i) for r in b) if x is not None]
    la = [x for x in (lat(r, i) for r in a) if x is not None]
    lb = [x for x in (lat(r, i) for r in b) if x is not None]
    ma = statistics.median(fa) if fa else float("nan")
    mb = statistics.median(fb) if fb else float("nan")
    r = ma / mb if fa and fb and mb else float("nan")
    print("%-12s %12.1f %12.1f %7.3f %9.0fus %9.0fus" % (n, ma, mb, r,
          statistics.median(la) if la else float("nan"),
          statistics.median(lb) if lb else float("nan")))
print("(K/sec for I/O, /sec for seeks and files; +++++ cells left out)")
PY
