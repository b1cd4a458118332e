#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/ffsb-profile.sh - the FLEX_BG mail's comparison, rerun: its FFSB
# profile (one thread of small creates, each fsynced) on ext4 as mkfs
# makes it (flex_bg on) and on ext4 made with -O ^flex_bg, in one fslab
# run, printed as the mail printed it: transactions/s @ %CPU per target,
# then fslab's own comparison block (the workload's report_compare).
#
#   bench/ffsb-profile.sh [SECONDS] [PROFILE] [REPEAT]
#   e.g. bench/ffsb-profile.sh 60 examples/ffsb/mail-create-write-fsync.ffsb 3
#
# Needs root (loop targets, 8 GiB sparse images).  Numbers are printed,
# never asserted.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
fslab=${FSLAB:-$top/fslab}
secs=${1:-30}
profile=${2:-$top/examples/ffsb/mail-create-fsync.ffsb}
repeat=${3:-1}
work=$(mktemp -d /var/tmp/fslab-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export FSLAB_STATE_DIR=$work/state

"$fslab" run --repeat "$repeat" --tag ffsb-bench \
	--target 'ext4:size=8G,name=ext4(flex_bg)' \
	--target 'ext4:size=8G,mkfs=-O ^flex_bg,name=ext4' \
	--workload "ffsb:profile=$profile,time=$secs" \
	--db "$work/r.db" --scratch "$work" >"$work/out" 2>"$work/err" || {
	tail -20 "$work/err" >&2
	exit 1
}
echo "profile $(basename "$profile"), $secs s, $repeat repetition(s)"
echo "target            tps@%CPU  (mean over repetitions)"
sqlite3 -separator ' ' "$work/r.db" "
	select t.name, printf('%.2f@%.1f%%', avg(m1.value), avg(m2.value))
	from phases p
	join wlruns w on p.wlrun_id = w.id
	join targets t on w.target_id = t.id
	join metrics m1 on m1.phase_id = p.id and m1.name = 'transactions/s'
	join metrics m2 on m2.phase_id = p.id and m2.name = 'cpu_pct'
	where p.name = 'run' and p.status = 'ok'
	group by t.idx order by t.idx" |
	while read -r name fig; do printf '%-16s  %s\n' "$name" "$fig"; done
echo
"$fslab" compare --db "$work/r.db" ffsb-bench --metric transactions/s 2>&1 || true
