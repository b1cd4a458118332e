#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/cb-cpu.sh - how much CPU fslab itself spends per MiB it writes
# while running compilebench, against the machine's total busy CPU in
# the same phases.  fslab must measure the filesystem, not itself: its
# own share should be small next to the kernel's.
#
#   bench/cb-cpu.sh [TARGET-SPEC] [compilebench options]
#   e.g. bench/cb-cpu.sh ext4:size=8G initial-dirs=5,runs=20
#
# Needs root (loop target).  Timings are printed, never asserted.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
fslab=${FSLAB:-$top/fslab}
spec=${1:-ext4:size=8G}
opts=${2:-initial-dirs=5,runs=20}
work=$(mktemp -d /var/tmp/fslab-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export FSLAB_STATE_DIR=$work/state

"$fslab" run --target "$spec" --workload "compilebench:$opts" \
	--db "$work/r.db" --scratch "$work" --json "$work/run.json" \
	>"$work/out" 2>"$work/err"
python3 - "$work/run.json" "$(nproc)" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["run"]
ncpu = int(sys.argv[2])
rows = {}
for w in run["workloads"]:
    for p in w["phases"]:
        if p["name"] == "summary":
            continue
        r = rows.setdefault(p["name"], [0, 0.0, 0.0, 0.0, 0, 0.0])
        r[0] += p["bytes"]
        r[5] += p["user_s"]
        r[1] += p["user_s"] + p["sys_s"]
        r[2] += p["wall_s"]
        busy = p.get("sys_busy_pct")
        if busy is not None:
            r[3] += busy / 100.0 * p["wall_s"] * ncpu
        r[4] += 1
# user = fslab's own code; sys = the kernel working for fslab's syscalls
# (mostly the filesystem itself); machine = all CPUs' busy time.
print("%-16s %4s %9s %10s %12s %13s %12s" % ("phase", "n", "MiB",
      "user ms/MiB", "user+sys ms/MiB", "user/machine", "u+s/machine"))
nan = float("nan")
tot = [0.0, 0.0, 0.0, 0.0]
def line(name, n, mib, user, cpu, mach):
    print("%-16s %4s %9.1f %10.3f %12.3f %12.1f%% %11.1f%%" % (name, n, mib,
          1000 * user / mib if mib else nan, 1000 * cpu / mib if mib else nan,
          100 * user / mach if mach else nan, 100 * cpu / mach if mach else nan))
for name, (b, cpu, wall, mach, n, user) in rows.items():
    mib = b / 1048576.0
    tot[0] += mib; tot[1] += user; tot[2] += cpu; tot[3] += mach
    line(name, n, mib, user, cpu, mach)
line("all", "", tot[0], tot[1], tot[2], tot[3])
PY
