#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Results across machines and over time: eight small runs of one target
# name, the last four mounted with sync; `history` finds one change
# point between run 4 and run 5 and names the mount options; export from
# one store and import into another (twice: no duplicates; back: nothing
# new), `show` identical after the round trip, compare across two --db,
# selectors, history across two --db, and a truncated, tampered, newer,
# never-written older or conflicting export refused with nothing
# imported.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3 python3 mkfs.ext4 gzip
scratch_dir

A=$SCRATCH/a.db
B=$SCRATCH/b.db
WL=metadata:files=300,sync=fsync
for i in 1 2 3 4 5 6 7 8; do
	spec=ext4:name=x,size=300M
	[ "$i" -gt 4 ] && spec=$spec,mount=sync
	if ! "$FSLAB" run -t "$spec" -w "$WL" --db "$A" --scratch "$SCRATCH/s" \
		--tag night$i --quiet >"$SCRATCH/run$i.out" 2>&1; then
		not_ok "run $i" "$(tail -20 "$SCRATCH/run$i.out")"
		finish
		exit 1
	fi
done
ok "eight runs"

# ---- history ----
h=$SCRATCH/h.txt
"$FSLAB" history --db "$A" >"$h" 2>"$SCRATCH/h.err"
rc=$?
[ $rc -eq 0 ] && ok "history exits 0" || not_ok "history exits 0" "exit $rc" "$(cat "$SCRATCH/h.err")"
cps=$(grep -c '^  change point between' "$h")
grep -q '^  change point between run 4 and run 5' "$h" &&
	! grep '^  change point between' "$h" | grep -qv 'run 4 and run 5' &&
	ok "history: change points only between run 4 and run 5 ($cps series)" ||
	not_ok "history: change points only between run 4 and run 5" "$(cat "$h")"
grep -A3 '^  change point between run 4 and run 5' "$h" |
	grep -q '^    mount options: .* -> .*sync' &&
	ok "history names the mount options as what changed" ||
	not_ok "history names the mount options as what changed" "$(cat "$h")"
"$FSLAB" history --db "$A" >"$SCRATCH/h2.txt" 2>&1
cmp -s "$h" "$SCRATCH/h2.txt" && ok "history prints the same twice" ||
	not_ok "history prints the same twice" "$(diff "$h" "$SCRATCH/h2.txt")"
"$FSLAB" history --db "$A" --format json >"$SCRATCH/h.json" 2>&1 &&
python3 - "$SCRATCH/h.json" <<'PY' && ok "history JSON: the change point and its cause" || not_ok "history JSON" "$(head -c 2000 "$SCRATCH/h.json")"
import json, sys
d = json.load(open(sys.argv[1]))
cps = [c for s in d["series"] for c in s["change_points"]]
assert cps, "no change point"
for c in cps:
    assert (c["before_point"], c["after_point"]) == ("4", "5"), c
    assert any(x.startswith("mount options:") for x in c["changed"]), c
assert all(len(s["points"]) == 8 for s in d["series"])
PY
"$FSLAB" history --db "$A" --format csv >"$SCRATCH/h.csv" 2>&1 &&
	[ "$(head -1 "$SCRATCH/h.csv" | cut -d, -f1-3)" = "workload,target,phase" ] &&
	ok "history CSV has its header" || not_ok "history CSV" "$(head -3 "$SCRATCH/h.csv")"
"$FSLAB" history --db "$A" --fail-on-change >/dev/null 2>&1
rc=$?
# sync made at least one key metric worse: the newest segment is worse.
[ $rc -eq 3 ] && ok "history --fail-on-change exits 3" || not_ok "history --fail-on-change exits 3" "exit $rc"
"$FSLAB" history --db "$A" night1 night2 night3 night4 --fail-on-change >"$SCRATCH/h4.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && ! grep -q 'change point between' "$SCRATCH/h4.txt" &&
	ok "history of the first four runs: no change point, exit 0" ||
	not_ok "history of the first four runs" "exit $rc" "$(cat "$SCRATCH/h4.txt")"
"$FSLAB" history --db "$A" --by kernel >"$SCRATCH/hk.txt" 2>&1 &&
	grep -q '^  kernel ' "$SCRATCH/hk.txt" && ok "history --by kernel" ||
	not_ok "history --by kernel" "$(head "$SCRATCH/hk.txt")"

"$FSLAB" report --db "$A" --history -o "$SCRATCH/trend.html" >/dev/null 2>&1 &&
	[ "$(grep -c '<svg' "$SCRATCH/trend.html")" -ge 1 ] &&
	grep -q '<li>between run 4 and run 5: .*mount options: ' "$SCRATCH/trend.html" &&
	ok "report --history: trend charts, the change point and its cause" ||
	not_ok "report --history" "$(grep '<li>' "$SCRATCH/trend.html" 2>&1 | head)"

# ---- selectors ----
k=$(uname -r)
n=$("$FSLAB" history --db "$A" "kernel=${k%%.*}.*,host=$(uname -n)" --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["series"][0]["points"]))')
[ "$n" = 8 ] && ok "selector kernel=GLOB,host=NAME" || not_ok "selector kernel=GLOB,host=NAME" "points: $n"
check_exit "selector matching nothing exits 1" 1 "$FSLAB" history --db "$A" kernel=0.0.0-none
check_exit "unknown selector key exits 1" 1 "$FSLAB" history --db "$A" colour=blue
today=$(date +%Y-%m-%d)
n=$("$FSLAB" history --db "$A" "since=$today,until=$today" --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["series"][0]["points"]))')
[ "$n" = 8 ] && ok "selector since=DATE,until=DATE" || not_ok "selector since=DATE,until=DATE" "points: $n"
"$FSLAB" show --db "$A" "version=*" >"$SCRATCH/sel.txt" 2>&1 &&
	head -1 "$SCRATCH/sel.txt" | grep -q 'tag night8' && ok "show takes a selector (the newest match)" ||
	not_ok "show takes a selector" "$(head -3 "$SCRATCH/sel.txt")"

# ---- export / import ----
E=$SCRATCH/e.json.gz
check "export four runs (gzip)" "$FSLAB" export --db "$A" night1 "tag=night[234]" -o "$E"
gzip -t "$E" && ok "the export is gzip" || not_ok "the export is gzip"
check "import into a second store" "$FSLAB" import --db "$B" "$E"
check "import again" "$FSLAB" import --db "$B" "$E"
[ "$(sqlite3 "$B" 'select count(*) from runs')" = 4 ] && ok "importing twice adds nothing" ||
	not_ok "importing twice adds nothing" "$(sqlite3 "$B" 'select id, uuid from runs')"
"$FSLAB" export --db "$B" -o "$SCRATCH/back.json.xz" >/dev/null 2>&1 &&
	"$FSLAB" import --db "$A" "$SCRATCH/back.json.xz" >/dev/null 2>&1 &&
	[ "$(sqlite3 "$A" 'select count(*) from runs')" = 8 ] &&
	ok "importing back (xz) adds nothing" || not_ok "importing back (xz) adds nothing"
[ "$(sqlite3 "$B" "select count(*) from runs where source_host = '$(uname -n)'")" = 4 ] &&
	ok "the source host is recorded" || not_ok "the source host is recorded"
ida=$(sqlite3 "$A" "select id from runs where tag = 'night3'")
idb=$(sqlite3 "$B" "select id from runs where tag = 'night3'")
"$FSLAB" show --db "$A" "$ida" | sed -e '1s/^run [0-9]*//' -e 's/  imported from .*//' >"$SCRATCH/sa"
"$FSLAB" show --db "$B" "$idb" | sed -e '1s/^run [0-9]*//' -e 's/  imported from .*//' >"$SCRATCH/sb"
cmp -s "$SCRATCH/sa" "$SCRATCH/sb" && ok "show is identical after the round trip" ||
	not_ok "show is identical after the round trip" "$(diff "$SCRATCH/sa" "$SCRATCH/sb")"
"$FSLAB" show --db "$A" "$ida" --format json >"$SCRATCH/ja"
"$FSLAB" show --db "$B" "$idb" --format json >"$SCRATCH/jb"
python3 - "$SCRATCH/ja" "$SCRATCH/jb" <<'PY' && ok "show --format json identical but for local ids and the source host" || not_ok "show json after the round trip"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def strip(d):
    """Store ids are local, the source host is the import's own."""
    if isinstance(d, dict):
        return {k: strip(v) for k, v in d.items()
                if k not in ("id", "source_host")}
    if isinstance(d, list):
        return [strip(v) for v in d]
    return d
assert strip(a) == strip(b)
PY

# ---- compare across two stores ----
"$FSLAB" compare --db "$A" --db "$B" night1 night8 >"$SCRATCH/c.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "== metadata on x: 2 configurations, baseline 'night1'" "$SCRATCH/c.txt" &&
	ok "compare across two --db" || not_ok "compare across two --db" "exit $rc" "$(head -20 "$SCRATCH/c.txt")"
"$FSLAB" compare --db "$A" --db "$B" "$ida@1" "$idb@2" >"$SCRATCH/c2.txt" 2>&1 &&
	ok "compare ID@N across two --db" || not_ok "compare ID@N" "$(head "$SCRATCH/c2.txt")"
"$FSLAB" compare --db "$B" night1 night8 >/dev/null 2>&1
[ $? -eq 1 ] && ok "one --db does not see the other's runs" || not_ok "one --db does not see the other's runs"
"$FSLAB" compare --db "$A" "tag=night[1-4]" "tag=night[5-8]" >"$SCRATCH/c3.txt" 2>&1 &&
	grep -q '4 repetitions' "$SCRATCH/c3.txt" && grep -q 'differs: mount options' "$SCRATCH/c3.txt" &&
	ok "compare pools the runs of a selector" ||
	not_ok "compare pools the runs of a selector" "$(head -20 "$SCRATCH/c3.txt")"
check "report across two --db" "$FSLAB" report --db "$A" --db "$B" night2 night8 -o "$SCRATCH/r.html"

# ---- history across two stores ----
# B holds night1-4 (imported), D gets night5-8: one series spans both.
D=$SCRATCH/d.db
check "export the last four runs" "$FSLAB" export --db "$A" "tag=night[5-8]" -o "$SCRATCH/e58.json"
check "import them into a third store" "$FSLAB" import --db "$D" "$SCRATCH/e58.json"
hbd=$SCRATCH/hbd.txt
"$FSLAB" history --db "$B" --db "$D" >"$hbd" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^  change point between run 4@1 and run 1@2' "$hbd" &&
	! grep '^  change point between' "$hbd" | grep -qv 'run 4@1 and run 1@2' &&
	grep -A3 '^  change point between run 4@1 and run 1@2' "$hbd" |
	grep -q '^    mount options: .* -> .*sync' &&
	ok "history across two --db: one change point, between the stores, the mount options" ||
	not_ok "history across two --db" "exit $rc" "$(cat "$hbd")"
"$FSLAB" history --db "$B" --db "$D" --format json >"$SCRATCH/hbd.json" 2>&1 &&
python3 - "$SCRATCH/hbd.json" <<'PY' && ok "history across two --db: 8 points per series, labelled ID@N" || not_ok "history across two --db JSON" "$(head -c 2000 "$SCRATCH/hbd.json")"
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["series"]:
    assert [p["label"] for p in s["points"]] == \
        ["1@1", "2@1", "3@1", "4@1", "1@2", "2@2", "3@2", "4@2"], s["points"]
PY
# B's runs are A's too (the same global ids): each counts once.
"$FSLAB" history --db "$A" --db "$B" --format json >"$SCRATCH/hab.json" 2>&1 &&
python3 - "$SCRATCH/hab.json" <<'PY' && ok "history across two --db: a run in both counts once" || not_ok "history: a run in both stores" "$(head -c 2000 "$SCRATCH/hab.json")"
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["series"]:
    assert [p["label"] for p in s["points"]] == ["%d@1" % i for i in range(1, 9)], s["points"]
PY
"$FSLAB" history --db "$B" --db "$D" "tag=night[1-6]" --format json >"$SCRATCH/hsel.json" 2>&1 &&
	[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["series"][0]["points"]))' "$SCRATCH/hsel.json")" = 6 ] &&
	ok "history across two --db: a selector spans both" ||
	not_ok "history: a selector across two --db" "$(head -c 1000 "$SCRATCH/hsel.json")"
"$FSLAB" history --db "$B" --db "$D" 2@2 4@1 --format json >"$SCRATCH/hid.json" 2>&1 &&
	[ "$(python3 -c 'import json,sys; print(" ".join(p["label"] for p in json.load(open(sys.argv[1]))["series"][0]["points"]))' "$SCRATCH/hid.json")" = "4@1 2@2" ] &&
	ok "history across two --db: ID@N" || not_ok "history: ID@N" "$(head -c 1000 "$SCRATCH/hid.json")"
"$FSLAB" report --db "$B" --db "$D" --history -o "$SCRATCH/trend2.html" >/dev/null 2>&1 &&
	grep -q '<li>between run 4@1 and run 1@2: .*mount options: ' "$SCRATCH/trend2.html" &&
	ok "report --history across two --db: points ID@N, the change point and its cause" ||
	not_ok "report --history across two --db" "$(grep '<li>' "$SCRATCH/trend2.html" 2>&1 | head)"
check_exit "history across two --db: a bare run id exits 1" 1 "$FSLAB" history --db "$B" --db "$D" 3
check_exit "history across two --db: a selector matching in neither exits 1" 1 \
	"$FSLAB" history --db "$B" --db "$D" kernel=0.0.0-none

# ---- refusals: nothing imported ----
C=$SCRATCH/c.db
gzip -dc "$E" >"$SCRATCH/e.json"
head -c 4000 "$SCRATCH/e.json" >"$SCRATCH/trunc.json"
head -c 2000 "$E" >"$SCRATCH/trunc.json.gz"
# Version 1 is the first format: there is nothing older to upgrade, and
# a version below it was never written (the upgrade path refuses it).
python3 - "$SCRATCH/e.json" "$SCRATCH/tamper.json" "$SCRATCH/newer.json" "$SCRATCH/older.json" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
t = re.sub(r'"wall_ns": (\d+)', lambda m: '"wall_ns": %d' % (int(m.group(1)) + 1), s, count=1)
assert t != s
open(sys.argv[2], "w").write(t)
open(sys.argv[3], "w").write(s.replace('"format_version": 1', '"format_version": 99'))
open(sys.argv[4], "w").write(s.replace('"format_version": 1', '"format_version": 0'))
PY
for f in trunc.json trunc.json.gz tamper.json newer.json older.json; do
	out=$("$FSLAB" import --db "$C" "$SCRATCH/e.json" "$SCRATCH/$f" 2>&1)
	rc=$?
	n=$(sqlite3 "$C" 'select count(*) from runs' 2>/dev/null || echo 0)
	[ $rc -eq 1 ] && [ "$n" = 0 ] && ok "$f refused, nothing imported: ${out#fslab: error: }" ||
		not_ok "$f refused, nothing imported" "exit $rc, $n runs" "$out"
done
sqlite3 "$B" "update metrics set value = value * 2 where rowid = (select min(rowid) from metrics)"
out=$("$FSLAB" import --db "$B" "$SCRATCH/e.json" 2>&1)
rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'same global id, different content' &&
	ok "a conflicting run is refused" || not_ok "a conflicting run is refused" "exit $rc" "$out"
check_exit "import of a missing file exits 1" 1 "$FSLAB" import --db "$C" "$SCRATCH/none.json"
check_exit "export without -o exits 2" 2 "$FSLAB" export --db "$A"
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
