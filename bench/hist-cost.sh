#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/hist-cost.sh - what the latency histogram costs a metadata
# create phase, as a share of that phase's own CPU (target: <= 2 %).
#
#  1. fslab metadata (FILES files of 4 KiB, one thread) on a fresh ext4
#     loop target, REPEAT times for each FILES: the create phase's own
#     CPU (user + system, all of fslab's threads) from the store, and
#     the size of its stored histogram blob (hists.buckets);
#  2. bench/hist-cost.c, built against fslab's objects: the CPU of one
#     lathist_add, of the clock_gettime a timed op takes, and per phase
#     of keeping the histogram whole (merge, compact copy, blob) and of
#     storing its hists row.
#
# The histogram's share = (FILES x add + keep + store) / phase CPU;
# "with clocks" adds the two clock reads per op a latency needs (the
# workload takes them for its rate too, so this is an upper bound).
# Needs root.  Timings are printed, never asserted.
#
#   bench/hist-cost.sh [REPEAT [FILES...]]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
repeat=${1:-5}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(200 10000)
bench_need sqlite3
bench_work
bench_build
make -C "$top" -s -j2 build/bench/hist-cost >/dev/null
cost=$top/build/bench/hist-cost
db=$work/results.db

for ((i = 0; i < repeat; i++)); do
	for n in "${sizes[@]}"; do
		"$fslab" run -t ext4:size=2G -w "metadata:files=$n,size=4k" \
			--db "$db" --scratch "$work" --tag "n$n" --quiet \
			>/dev/null 2>&1
	done
done

# median of an SQL expression over the create phases of a tag
med() {
	sqlite3 "$db" "select $2 from phases p join wlruns w on p.wlrun_id = w.id
		join runs r on w.run_id = r.id left join hists h on h.phase_id = p.id
		where r.tag = '$1' and p.name = 'create' and p.status = 'ok'
		order by 1" |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "== metadata create, one thread, 4 KiB files, ext4 loop, $repeat runs each, medians"
printf '%7s %11s %8s %8s %9s %9s %9s %8s %8s\n' files phase_cpu_ms blob_B \
	add_ns clock_ns keep_us store_us hist_pct +clocks
for n in "${sizes[@]}"; do
	cpu=$(med "n$n" "(p.user_ns + p.sys_ns) / 1e6")
	blob=$(med "n$n" "length(h.buckets)")
	rm -f "$work/cost.db"*
	read -r add clk keep store bytes < <("$cost" "$work/cost.db" "$n" 2000)
	share=$(awk -v n="$n" -v a="$add" -v k="$keep" -v s="$store" -v c="$cpu" \
		'BEGIN { print 100 * (n * a / 1e6 + (k + s) / 1e3) / c }')
	clocks=$(awk -v n="$n" -v a="$add" -v t="$clk" -v k="$keep" -v s="$store" \
		-v c="$cpu" 'BEGIN { print 100 * (n * (a + 2 * t) / 1e6 + (k + s) / 1e3) / c }')
	printf '%7d %11.1f %8d %8.2f %9.2f %9.2f %9.2f %7.3f%% %7.3f%%\n' "$n" \
		"$cpu" "$blob" "$add" "$clk" "$keep" "$store" "$share" "$clocks"
	[ "$blob" = "$bytes" ] || [ -z "$bytes" ] ||
		echo "   (hist-cost's synthetic $n-sample blob: $bytes B)"
done
