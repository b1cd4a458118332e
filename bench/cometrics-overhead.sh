#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/cometrics-overhead.sh - what the co-metrics cost.
#
#  1. bench/cometric-cost.c, built against fslab's objects: the CPU time
#     of one phase's co-metrics (two snapshots, the difference, the
#     metric rows) at --co-metrics=basic and all, on a fresh ext4, xfs
#     and btrfs loop filesystem (whichever mkfs is installed): through
#     one reader as in a run, and (basic) with the files opened afresh
#     for every snapshot, as outside a run; then what storing the
#     co-metric rows adds to storing a phase (SQLite, a store in $work).
#  2. fslab run of the default workloads on each filesystem with the
#     default co-metrics (basic): every phase's own CPU (user + system,
#     the phases table) against step 1's basic cost on that filesystem,
#     reading alone and reading + storing.  Per workload: the phases,
#     how many the cost stays within 1 % of (the issue's goal for the
#     default), the own CPU from which it does (cost / 1 %), and the
#     smallest own CPU among the phases within and the largest among
#     those beyond.
#
#   bench/cometrics-overhead.sh [N]         (default 2000 phases in step 1)
#
# Environment: FS (default "ext4 xfs btrfs"), WORKLOADS (the -w options;
# default the default suite, compilebench:initial-dirs=10,runs=30 with
# FSLAB_CB_DATA's data sets if set, then metadata and a bonnie of 512M),
# BENCH_TMPDIR (where the work directory goes).
#
# The snapshots are taken outside the measured window (phase.c), so a
# phase's own figures never hold them; the share says what they cost
# beside it.  Needs root.  Timings are printed, never asserted; say the
# load (uptime, printed) with any figure you quote.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
n=${1:-2000}
fslist=${FS:-ext4 xfs btrfs}
workloads=${WORKLOADS:-compilebench:initial-dirs=10,runs=30 metadata bonnie:size=512M,ram=0}
bench_need sqlite3
bench_work
bench_build
make -C "$top" -s -j2 build/bench/cometric-cost >/dev/null
cost=$top/build/bench/cometric-cost

declare -A read_us store_us
echo "== one phase's co-metrics (CPU time, $n phases; $(uptime))"
for fs in $fslist; do
	command -v "mkfs.$fs" >/dev/null || { echo "$fs: no mkfs.$fs, skipped"; continue; }
	case $fs in
	ext4) bench_fs 512M -- mkfs.ext4 -q -F ;;
	xfs) bench_fs 512M -- mkfs.xfs -q -f ;;
	btrfs) bench_fs 512M -- mkfs.btrfs -q -f ;;
	*) bench_fs 512M -- "mkfs.$fs" ;;
	esac
	echo x >"$mnt/f" && sync
	uuid=$(blkid -s UUID -o value "$dev")
	name=${dev#/dev/}
	for level in basic all; do
		line=$("$cost" "$name" "$fs" "$uuid" $level "$n")
		echo "  $line"
		[ $level != basic ] || read_us[$fs]=$(echo "$line" | awk '{ print $5 }')
	done
	echo "  $("$cost" --fresh "$name" "$fs" "$uuid" basic "$n")"
	"$cost" --store "$work/cost-$fs.db" "$name" "$fs" "$uuid" basic "$n" |
		tee "$work/store.out" | sed 1d
	store_us[$fs]=$(sed -n 's/.*: \([0-9.]*\) us for the co-metrics/\1/p' "$work/store.out")
	umount "$mnt"
	losetup -d "$dev"
	mnt= dev=
	rm -f "$work/img" "$work/cost-$fs.db"*
done

wargs=()
for w in $workloads; do
	wargs+=(-w "$w")
done
for fs in $fslist; do
	[ -n "${read_us[$fs]:-}" ] || continue
	db=$work/run-$fs.db
	echo "== fslab run -t $fs ${wargs[*]} (co-metrics basic; $(uptime))"
	"$fslab" run --db "$db" --scratch "$work" -q -t "$fs:size=8G" \
		"${wargs[@]}" >/dev/null
	echo "   at $(uptime)"
	sqlite3 -separator ' ' "$db" "select w.workload, p.name,
		(p.user_ns + p.sys_ns) / 1e6 from phases p
		join wlruns w on w.id = p.wlrun_id order by p.id" |
	awk -v r="${read_us[$fs]}" -v s="${store_us[$fs]}" '
	function row(w, tag, cost,   lim) {
		lim = cost / 1e3 / 0.01 # ms of own CPU for 1 %
		printf "  %-13s %-14s %4d phases, %4d (%5.1f %%) within 1 %% (from %.1f ms of own CPU); smallest within %s, largest beyond %s\n",
		       w, tag, nr[w], within[w, tag], 100 * within[w, tag] / nr[w], lim,
		       minin[w, tag] == "" ? "-" : sprintf("%.1f ms", minin[w, tag]),
		       maxout[w, tag] == "" ? "-" : sprintf("%.2f ms", maxout[w, tag])
	}
	function count(w, tag, cost, own) {
		if (own * 1e3 * 0.01 >= cost) {
			within[w, tag]++
			if (minin[w, tag] == "" || own < minin[w, tag]) minin[w, tag] = own
		} else if (maxout[w, tag] == "" || own > maxout[w, tag])
			maxout[w, tag] = own
	}
	{
		w = $1; own = $3
		if (!(w in nr)) order[++nw] = w
		nr[w]++; nr["all"]++
		count(w, "read", r, own); count("all", "read", r, own)
		count(w, "read+store", r + s, own); count("all", "read+store", r + s, own)
		if (own * 1e3 * 0.01 < r + s)
			beyond = beyond sprintf(" %s/%s (%.2f ms)", w, $2, own)
	}
	END {
		printf "  basic costs %.0f us per phase to read, %.0f us more to store\n", r, s
		order[++nw] = "all"
		for (i = 1; i <= nw; i++) {
			row(order[i], "read", r)
			row(order[i], "read+store", r + s)
		}
		if (beyond != "")
			print "  beyond 1 % (read+store):" beyond
	}'
	rm -f "$db"*
done
