#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/bonnie-vs-fio.sh - fslab bonnie's block write and block read
# against fio doing the same thing on the same filesystem: rw=write and
# rw=read, bs=8k, one job, ioengine=sync, end_fsync=1, a fresh file
# (fallocate=none, as bonnie extends its file by writing) and
# fadvise_hint=0 (bonnie gives no hint; fio's default
# POSIX_FADV_SEQUENTIAL halved its cold read here).  Runs are
# interleaved; medians and the ratio fslab / fio are printed.
#
#   bench/bonnie-vs-fio.sh [SIZE_MiB [REPEAT [DIR]]]
#
# The cache state is aligned in two rounds, because fio drops the file's
# pages before a job by default (invalidate=1) and bonnie never does:
#   warm: fio invalidate=0, fslab cold=0 (bonnie++'s own semantics)
#   cold: fio invalidate=1 after sync + drop_caches, fslab cold=1 (which
#         on a dir: target as root is sync + drop_caches between tests)
# Without DIR a 4 GiB ext4 image is made, attached (direct I/O loop),
# mounted and removed.
# Needs root.  Timings are printed, never asserted.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
size=${1:-1024}
repeat=${2:-3}
dir=${3:-}
bench_need fio
bench_work
if [ -z "$dir" ]; then
	# direct I/O, like fslab's own loop targets: the image is not
	# cached a second time in the host's page cache
	bench_fs 4G --direct-io=on -- mkfs.ext4 -q -F
	dir=$mnt
fi

fio_job() { # rw invalidate -> KiB/s
	fio --name=b --filename="$dir/fio.dat" --rw="$1" --bs=8k \
		--size="${size}M" --ioengine=sync --end_fsync=1 \
		--fallocate=none --fadvise_hint=0 --invalidate="$2" --output-format=json |
		python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]
k = "write" if j["write"]["io_bytes"] else "read"
print(j[k]["io_bytes"] / 1024.0 / (j["job_runtime"] / 1000.0))'
}

for mode in warm cold; do
	cold=0 inv=0
	[ $mode = cold ] && cold=1 inv=1
	for i in $(seq "$repeat"); do
		"$fslab" run --target "dir:$dir" --db "$work/r.db" \
			--scratch "$work" --json "$work/f.json" --workload \
			"bonnie:size=${size}M,ram=0,files=0,perchar=none,seeks=100,cold=$cold" \
			>/dev/null 2>"$work/fslab.err"
		python3 - "$work/f.json" >>"$work/fslab.$mode" <<'PY'
import json, sys
for w in json.load(open(sys.argv[1]))["run"]["workloads"]:
    for p in w["phases"]:
        if p["name"] in ("block-write", "block-read"):
            m = {x["name"]: x["value"] for x in p["metrics"]}
            print(p["name"], m["rate_KiB/s"])
PY
		rm -f "$dir/fio.dat"
		echo "block-write $(fio_job write "$inv")" >>"$work/fio.$mode"
		[ $mode = cold ] && sync && echo 3 >/proc/sys/vm/drop_caches
		echo "block-read $(fio_job read "$inv")" >>"$work/fio.$mode"
		rm -f "$dir/fio.dat"
	done
done
python3 - "$work" <<'PY'
import statistics, sys
def load(p):
    d = {}
    for l in open(p):
        k, v = l.split()
        d.setdefault(k, []).append(float(v))
    return d
print("%-5s %-12s %12s %12s %7s" % ("cache", "test", "fslab KiB/s",
      "fio KiB/s", "ratio"))
for mode in ("warm", "cold"):
    a = load("%s/fslab.%s" % (sys.argv[1], mode))
    b = load("%s/fio.%s" % (sys.argv[1], mode))
    for t in ("block-write", "block-read"):
        ma, mb = statistics.median(a[t]), statistics.median(b[t])
        print("%-5s %-12s %12.0f %12.0f %7.3f" % (mode, t, ma, mb, ma / mb))
PY
