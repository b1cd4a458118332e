#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Safety, item 6: read-only commands open the store read-only.  results,
# show, compare and report read a store on a read-only filesystem; none
# of them (nor a run) switches a foreign SQLite file to WAL; nothing is
# created next to /dev/null; a "running" run whose pid now belongs to a
# younger process is shown as incomplete.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd sqlite3
scratch_dir

install -d "$SCRATCH/d"
for i in 1 2; do
	"$FSLAB" run --target "dir:$SCRATCH/d" --db "$DB" --tag t$i \
		--workload metadata:files=50 >/dev/null 2>&1 ||
		not_ok "setup run $i"
done
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
install -d "$SCRATCH/ro"
mount -t tmpfs -o size=16m tmpfs "$SCRATCH/ro"
cleanup_add "umount '$SCRATCH/ro'"
cp "$DB" "$SCRATCH/ro/r.db"
# SQLite's URI syntax gives %, ? and # meanings; a path holding them
# must still name the file.
cp "$DB" "$SCRATCH/ro/a%41?b#c.db"
mount -o remount,ro "$SCRATCH/ro"
out=$("$FSLAB" results --db "$SCRATCH/ro/a%41?b#c.db" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q 't2' <<<"$out" &&
	ok "a read-only store whose path holds %, ? and # is read" ||
	not_ok "a read-only store whose path holds %, ? and # is read" "exit $rc" "$out"
for c in "results" "show 1" "compare t1 t2" "report -o $SCRATCH/r.html 1"; do
	out=$("$FSLAB" $c --db "$SCRATCH/ro/r.db" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 0 ] && ok "$c reads a store on a read-only filesystem" ||
		not_ok "$c reads a store on a read-only filesystem" "exit $rc" "$out"
done
[ "$(ls -A "$SCRATCH/ro" | sort | tr '\n' ' ')" = "a%41?b#c.db r.db " ] && ok "nothing created beside it" ||
	not_ok "nothing created beside it" "$(ls -A "$SCRATCH/ro")"

sqlite3 "$SCRATCH/foreign.db" 'create table t(x); insert into t values (1)'
for c in "results" "show 1" "compare t1 t2" "report -o $SCRATCH/r.html 1"; do
	"$FSLAB" $c --db "$SCRATCH/foreign.db" >/dev/null 2>&1
done
"$FSLAB" run --target "dir:$SCRATCH/d" --db "$SCRATCH/foreign.db" \
	--workload metadata:files=10 >/dev/null 2>&1
rc=$?
mode=$(sqlite3 "$SCRATCH/foreign.db" 'PRAGMA journal_mode')
[ $rc -ne 0 ] && [ "$mode" = delete ] && ok "a foreign SQLite file is refused and stays in journal mode delete" ||
	not_ok "a foreign SQLite file stays in journal mode delete" "exit $rc, mode $mode"
out=$("$FSLAB" results --db /dev/null 2>&1)
rc=$?
[ $rc -ne 0 ] && [ ! -e /dev/null-journal ] && [ ! -e /dev/null-wal ] &&
	ok "results --db /dev/null refuses and creates nothing" ||
	not_ok "results --db /dev/null refuses and creates nothing" "exit $rc" "$out"

# A run left "running" whose pid is now a younger process: incomplete.
sleep 60 &
young=$!
cleanup_add "kill $young"
sqlite3 "$DB" "update runs set status = 'running', pid = $young, started = started - 3600 where tag = 't1'"
st=$("$FSLAB" results --db "$DB" 2>&1 | awk '$5 == "t1" { print $4 }')
[ "$st" = incomplete ] && ok "a reused pid does not keep a dead run 'running'" ||
	not_ok "a reused pid does not keep a dead run 'running'" "$("$FSLAB" results --db "$DB" 2>&1)"
finish
