#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/history-10k.sh - how long `fslab history` takes on a store of N
# runs (default 10000).  One small real run (metadata, 2 repetitions, on
# a loop image) is made, then copied N-1 times with sqlite3, one hour
# apart, every figure given +-2.5 % noise and a 10 % drop (and a new
# kernel) from 60 % of the way; `history` must find that one change
# point in each key metric.  Prints the wall and CPU time.  Needs root.
#
#   bench/history-10k.sh [N]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
n=${1:-10000}
bench_need sqlite3
bench_build
bench_work
db=$work/big.db
"$fslab" run -t ext4:name=x,size=300M -w metadata:files=300,sync=fsync \
	-n 2 --db "$db" --scratch "$work/s" --quiet >/dev/null
step=$((n * 6 / 10))
sqlite3 "$db" <<SQL
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TEMP TABLE n(i INTEGER PRIMARY KEY);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $n - 1)
	INSERT INTO n SELECT i FROM c;
INSERT INTO runs (id, started, finished, host, kernel, version, cmdline,
	seed, tag, status, pid, target_order, uuid)
 SELECT 1 + i, started + i * 3600, finished + i * 3600, host,
	CASE WHEN i >= $step THEN '6.6.1 #1' ELSE kernel END, version, cmdline,
	seed, 'gen', 'complete', NULL, target_order, lower(hex(randomblob(16)))
 FROM runs, n WHERE runs.id = 1;
INSERT INTO targets (id, run_id, idx, rep, spec, name, kind, fstype,
	mkfs_opts, mount_opts, eff_mount_opts, device, uuid, mkfs_version,
	path, size)
 SELECT t.id + i * 100, 1 + i, idx, rep, spec, name, kind, fstype,
	mkfs_opts, mount_opts, eff_mount_opts, device, t.uuid, mkfs_version,
	path, size FROM targets t, n WHERE t.run_id = 1;
INSERT INTO wlruns (id, run_id, target_id, workload, options, rep, status,
	pos)
 SELECT w.id + i * 100, 1 + i, w.target_id + i * 100, workload, options,
	rep, status, pos FROM wlruns w, n WHERE w.run_id = 1;
INSERT INTO phases (id, wlrun_id, seq, name, label, start_ns, wall_ns,
	user_ns, sys_ns, sys_busy_pct, have_dev, rd_ios, rd_bytes, wr_ios,
	wr_bytes, bytes, files, ops, too_short, status, error)
 SELECT p.id + i * 100, p.wlrun_id + i * 100, p.seq, p.name, p.label,
	p.start_ns, p.wall_ns, p.user_ns, p.sys_ns, p.sys_busy_pct,
	p.have_dev, p.rd_ios, p.rd_bytes, p.wr_ios, p.wr_bytes, p.bytes,
	p.files, p.ops, p.too_short, p.status, p.error
 FROM phases p JOIN wlruns w ON p.wlrun_id = w.id, n WHERE w.run_id = 1;
INSERT INTO metrics (phase_id, name, value, unit, better)
 SELECT m.phase_id + i * 100, m.name,
	m.value * (1 + ((abs(random()) % 1000) - 500) / 20000.0) *
	(CASE WHEN i >= $step THEN 0.9 ELSE 1 END), m.unit, m.better
 FROM metrics m JOIN phases p ON m.phase_id = p.id
	JOIN wlruns w ON p.wlrun_id = w.id, n WHERE w.run_id = 1;
COMMIT;
SQL
echo "store: $(sqlite3 "$db" 'select count(*) from runs') runs, $(sqlite3 "$db" 'select count(*) from metrics') metrics"
# Once to warm the page cache, then timed.
"$fslab" history --db "$db" >/dev/null
/usr/bin/time -f "history: %e s wall, %U s user, %S s system, %M KiB max RSS" \
	"$fslab" history --db "$db" >"$work/history.txt"
grep -A2 '^  change point between' "$work/history.txt"
