#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/progress-overhead.sh - what the progress display costs.
#
# fslab metadata (FILES files of 4 KiB, one thread: create, stat, read,
# unlink; every file a phase_progress() call) on a fresh ext4 loop
# target, REPEAT times in each of three modes, interleaved:
#
#   tty    stderr is a pty (script(1)): the status line is redrawn four
#          times a second by the timer thread
#   lines  stderr is a file: one plain line per finished phase
#   quiet  --quiet: no timer thread, nothing printed
#
# It prints per phase the median files/s and the median own CPU (user +
# system, all of fslab's threads: the timer thread's included) of each
# mode, and the ratio tty / quiet.  Needs root and script(1).  Timings
# are printed, never asserted.
#
#   bench/progress-overhead.sh [FILES [REPEAT]]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
files=${1:-50000}
repeat=${2:-5}
bench_work
bench_build
db=$work/results.db
wl="metadata:files=$files,size=4k"
args="-t ext4:size=2G -w $wl --db $db --scratch $work"
for ((i = 0; i < repeat; i++)); do
	for mode in tty lines quiet; do
		case $mode in
		tty)
			script -qec "'$fslab' run $args --tag tty >/dev/null" \
				"$work/tty.log" >/dev/null ;;
		lines)
			# shellcheck disable=SC2086
			"$fslab" run $args --tag lines >/dev/null 2>"$work/lines.err" ;;
		quiet)
			# shellcheck disable=SC2086
			"$fslab" run $args --tag quiet --quiet >/dev/null 2>&1 ;;
		esac
	done
done
grep -aq $'\r\e\\[K\\[1/1' "$work/tty.log" ||
	{ echo "the tty runs drew no status line" >&2; exit 1; }

# median of an SQL expression over the phases of one name and tag
med() {
	sqlite3 "$db" "select $3 from phases p join wlruns w on p.wlrun_id = w.id
		join runs r on w.run_id = r.id where r.tag = '$1' and p.name = '$2'
		and p.status = 'ok' order by 1" |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
rate="1e9 * p.files / p.wall_ns"
cpu="(p.user_ns + p.sys_ns) / 1e6"
echo "== metadata $files files, ext4 loop, $repeat interleaved runs per mode, medians"
printf '%-8s %11s %11s %11s %7s   %9s %9s %9s %7s\n' phase tty_files/s \
	lines quiet tty/q tty_cpu_ms lines quiet tty/q
for ph in create stat read unlink; do
	t=$(med tty $ph "$rate"); l=$(med lines $ph "$rate"); q=$(med quiet $ph "$rate")
	tc=$(med tty $ph "$cpu"); lc=$(med lines $ph "$cpu"); qc=$(med quiet $ph "$cpu")
	printf '%-8s %11.0f %11.0f %11.0f %7.3f   %9.1f %9.1f %9.1f %7.3f\n' "$ph" \
		"$t" "$l" "$q" "$(echo "$t / $q" | bc -l)" "$tc" "$lc" "$qc" \
		"$(echo "$tc / $qc" | bc -l)"
done
echo "== own CPU of the whole run (all phases, ms), medians"
for mode in tty lines quiet; do
	sqlite3 "$db" "select sum(p.user_ns + p.sys_ns) / 1e6 from phases p
		join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id
		where r.tag = '$mode' group by r.id order by 1" |
		awk -v m="$mode" '{ v[NR] = $1 } END { printf "%-6s %9.1f\n", m, (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
done
