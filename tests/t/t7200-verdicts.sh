#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Verdicts a maintainer can trust, on real loop targets:
# - A/A (two identical ext4 targets, two workloads, 4 repetitions): no
#   key metric significant, --fail-on-regression exits 0;
# - the counterbalanced order is stored and shown, every target in every
#   position equally often; --order fixed keeps the command-line order;
# - A/B with an order-of-magnitude real difference (ext4 against
#   ext4:mount=sync on small creates and unlinks): a regression, exit 3;
# - compare TAG1 TAG2 with two filesystems per run: ext4 with ext4, xfs
#   with xfs, a tag's runs pooled as repetitions;
# - different workload options refused (exit 2, the option named);
# - "too short to judge" and "too few repetitions" say what to do.
# Speed-independent: the A/A uses --alpha 0.001 and --min-change 10, so
# a false alarm needs a > 10 % difference at p < 0.001 after Holm, and
# the A/B difference is about 30x (sync mount), far beyond any noise; no
# assertion depends on how fast the machine is.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
need_cmd python3
need_cmd mkfs.ext4
need_cmd mkfs.xfs
scratch_dir

"$FSLAB" list metadata | grep -q '^  key metrics: create/files/s stat/files/s unlink/files/s$' &&
	ok "list names the key metrics" || not_ok "list names the key metrics" "$("$FSLAB" list metadata | head -4)"

run() { "$FSLAB" run --db "$DB" --scratch "$SCRATCH" "$@" >"$SCRATCH/run.out" 2>"$SCRATCH/run.err"; }

# ---- A/A, and the order ----
run -t ext4:size=256M,name=A -t ext4:size=256M,name=B \
	-w metadata:files=300 -w fsck --repeat 4 --tag aa
rc=$?
[ $rc -eq 0 ] && ok "A/A run: 2 targets x 2 workloads x 4 repetitions" ||
	not_ok "A/A run: 2 targets x 2 workloads x 4 repetitions" "exit $rc" "$(tail "$SCRATCH/run.err")"
grep -q "== metadata on A rep 1 (position [12] of 2, balanced order)" "$SCRATCH/run.out" &&
	ok "run shows each target's position" || not_ok "run shows each target's position" "$(grep '^==' "$SCRATCH/run.out")"
bad=$(sqlite3 "$DB" "select t.name, w.pos, count(*) from wlruns w join targets t on w.target_id = t.id join runs r on w.run_id = r.id where r.tag = 'aa' and w.workload = 'metadata' group by t.name, w.pos having count(*) != 2")
n=$(sqlite3 "$DB" "select count(*) from wlruns w join runs r on w.run_id = r.id where r.tag = 'aa' and w.pos is not null")
[ -z "$bad" ] && [ "$n" -eq 16 ] && ok "balanced: every target in every position twice in 4 repetitions" ||
	not_ok "balanced: every target in every position twice in 4 repetitions" "$bad" "stored positions: $n"
[ "$(sqlite3 "$DB" "select target_order from runs where tag = 'aa'")" = balanced ] &&
	ok "the order mode is stored" || not_ok "the order mode is stored"
"$FSLAB" show aa --db "$DB" | grep -qE '^target order: balanced; rep 1: [AB] [AB]; rep 2: ' &&
	ok "show prints the order" || not_ok "show prints the order" "$("$FSLAB" show aa --db "$DB" | head -5)"

# (--min-wall 0: on a fast machine every phase is under 50 ms, and then
# nothing is tested, "no verdict", exit 4 - that is t7000's case)
out=$("$FSLAB" compare aa --db "$DB" --alpha 0.001 --min-change 10 --min-wall 0 --fail-on-regression 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "A/A: --fail-on-regression exits 0" || not_ok "A/A: --fail-on-regression exits 0" "exit $rc" "$out"
grep -qE 'REGRESSION|improvement$' <<<"$out" &&
	not_ok "A/A: no key metric significant" "$out" || ok "A/A: no key metric significant"
grep -q "differs: nothing" <<<"$out" && ok "A/A: nothing differs between the configurations" ||
	not_ok "A/A: nothing differs between the configurations" "$out"
grep -q "== fsck: 2 configurations" <<<"$out" && grep -q "== metadata: 2 configurations" <<<"$out" &&
	ok "A/A: both workloads compared" || not_ok "A/A: both workloads compared" "$out"
if "$FSLAB" compare aa --db "$DB" --format json >"$SCRATCH/aa.json" && python3 - "$SCRATCH/aa.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keys = 0
for w in d["workloads"]:
    assert w["repetitions"] == [4, 4], w["repetitions"]
    for r in w["rows"]:
        for g in r["groups"]:
            assert g["n"] == 4, (r["phase"], r["metric"], g["n"])
            if g["ci_lo"] is not None:
                assert g["ci_lo"] <= g["mean"] <= g["ci_hi"]
        if r["key"]:
            keys += 1
            v = r["groups"][1]["vs_baseline"]
            if v["p_adj"] is not None:
                assert v["p_adj"] >= v["p"]
assert keys >= 4, keys
PY
then ok "A/A JSON: n = 4 repetitions everywhere, finite CIs, adjusted p >= raw p"
else not_ok "A/A JSON: n = 4 repetitions everywhere, finite CIs, adjusted p >= raw p"; fi

# Too short to judge, deterministically: a floor above every phase.
out=$("$FSLAB" compare aa --db "$DB" --min-wall 100000000 --fail-on-regression 2>&1)
rc=$?
# Nothing tested: "no verdict", exit 4 under --fail-on-regression.
[ $rc -eq 4 ] && grep -q "too short to judge (mean wall time per phase below 100000000 ms)" <<<"$out" &&
	grep -q "give the workload more work" <<<"$out" && ! grep -q "same" <<<"$out" &&
	grep -q "^result: no verdict" <<<"$out" &&
	ok "too short to judge: no verdict (exit 4), and how to lengthen it" ||
	not_ok "too short to judge: no verdict (exit 4), and how to lengthen it" "exit $rc" "$out"

run -t ext4:size=256M,name=A -t ext4:size=256M,name=B -w fsck --repeat 2 --order fixed --tag fixed
bad=$(sqlite3 "$DB" "select count(*) from wlruns w join targets t on w.target_id = t.id join runs r on w.run_id = r.id where r.tag = 'fixed' and w.pos != t.idx")
[ "$bad" = 0 ] && [ "$(sqlite3 "$DB" "select target_order from runs where tag = 'fixed'")" = fixed ] &&
	ok "--order fixed: the command-line order every repetition" || not_ok "--order fixed: the command-line order every repetition" "$bad"
check_exit "--order bogus exits 2" 2 "$FSLAB" run --db "$DB" --scratch "$SCRATCH" -t ext4:size=256M -w fsck --order bogus

# ---- A/B: a sync mount makes creates and unlinks ~30x slower ----
run -t ext4:size=256M,name=async -t ext4:size=256M,mount=sync,name=sync \
	-w metadata:files=200 --repeat 4 --tag ab
out=$("$FSLAB" compare ab --db "$DB" --fail-on-regression 2>&1)
rc=$?
[ $rc -eq 3 ] && ok "A/B: --fail-on-regression exits 3" || not_ok "A/B: --fail-on-regression exits 3" "exit $rc" "$out"
grep -A2 '^create files/s' <<<"$out" | grep -q 'sync .*REGRESSION' &&
	ok "A/B: create files/s is a regression" || not_ok "A/B: create files/s is a regression" "$out"
grep -A1 '^  differs: mount options' <<<"$out" | grep -q 'async' && grep -q '^    sync .*sync' <<<"$out" &&
	ok "A/B: the mount options are named as what differs" || not_ok "A/B: the mount options are named as what differs" "$out"
awk 'length($0) > 81 { bad = 1 } END { exit bad }' <<<"$out" &&
	ok "the default table fits 80 columns" || not_ok "the default table fits 80 columns" "$(awk 'length($0) > 81' <<<"$out")"
"$FSLAB" compare ab --db "$DB" --format csv >"$SCRATCH/ab.csv"
if python3 - "$SCRATCH/ab.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
c = [r for r in rows if r["phase"] == "create" and r["metric"] == "files/s" and r["group"] == "sync"][0]
assert c["verdict"] == "REGRESSION", c["verdict"]
assert float(c["p_adj"]) < 0.05 and float(c["p_adj"]) >= float(c["p"])
assert c["n"] == "4"
assert "mount options=" in c["differs"]
PY
then ok "A/B CSV: the regression with raw and adjusted p"; else not_ok "A/B CSV: the regression with raw and adjusted p"; fi
"$FSLAB" report ab --db "$DB" -o "$SCRATCH/ab.html" &&
	grep -q '<th class=l>differs</th>' "$SCRATCH/ab.html" && grep -q 'p adj' "$SCRATCH/ab.html" &&
	grep -q '&#9888; REGRESSION' "$SCRATCH/ab.html" && grep -q 'target order: balanced; rep 1: ' "$SCRATCH/ab.html" &&
	ok "report: what differs, the order, adjusted p, the regression" ||
	not_ok "report: what differs, the order, adjusted p, the regression"

# ---- matched comparisons across tags ----
run -t ext4:size=256M -t xfs:size=512M -w metadata:files=100 --tag t1 &&
run -t ext4:size=256M -t xfs:size=512M -w metadata:files=100 --tag t1 &&
run -t xfs:size=512M -t ext4:size=256M -w metadata:files=100 --tag t2
rc=$?
[ $rc -eq 0 ] && ok "three runs of ext4 + xfs" || not_ok "three runs of ext4 + xfs" "exit $rc" "$(tail "$SCRATCH/run.err")"
out=$("$FSLAB" compare t1 t2 --db "$DB" 2>&1)
rc=$?
if [ $rc -eq 0 ] && grep -q "== metadata on ext4: 2 configurations, baseline 't1'" <<<"$out" &&
	grep -q "== metadata on xfs: 2 configurations, baseline 't1'" <<<"$out" &&
	[ "$(grep -c '^  t1  *2 repetitions' <<<"$out")" -eq 2 ] &&
	[ "$(grep -c '^  t2  *1 repetition$' <<<"$out")" -eq 2 ]; then
	ok "compare t1 t2: ext4 with ext4, xfs with xfs; the tag's two runs pooled"
else
	not_ok "compare t1 t2: ext4 with ext4, xfs with xfs; the tag's two runs pooled" "exit $rc" "$out"
fi
"$FSLAB" compare t1 t2 --db "$DB" --format json >"$SCRATCH/t.json"
if python3 - "$SCRATCH/t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ws = {w["target"]: w for w in d["workloads"]}
assert set(ws) == {"ext4", "xfs"}, set(ws)
for name, w in ws.items():
    assert w["groups"] == ["t1", "t2"]
    fs = [x for x in w["differences"] if x["field"] == "filesystem"]
    assert not fs, fs   # never ext4 against xfs
PY
then ok "compare t1 t2 JSON: one comparison per filesystem, never across"; else not_ok "compare t1 t2 JSON: one comparison per filesystem, never across"; fi
grep -q "too few repetitions for a verdict (need 3 per configuration): --repeat 3" <<<"$out" &&
	grep -q "too few reps" <<<"$out" && ok "too few repetitions: no verdict, and the fix" ||
	not_ok "too few repetitions: no verdict, and the fix" "$out"

# A tag's failed attempt does not poison its complete runs.
first=$(sqlite3 "$DB" "select min(id) from runs where tag = 't1'")
sqlite3 "$DB" "update runs set status = 'failed' where id = $first"
out=$("$FSLAB" compare t1 t2 --db "$DB" 2>&1)
[ "$(grep -c '^  t1  *1 repetition$' <<<"$out")" -eq 2 ] && ! grep -q FAILED <<<"$out" &&
	ok "a tag pools its complete runs, not a failed one" ||
	not_ok "a tag pools its complete runs, not a failed one" "$out"
sqlite3 "$DB" "update runs set status = 'complete' where id = $first"

# ---- different workload options ----
run -t ext4:size=256M -t xfs:size=512M -w metadata:files=150 --tag t3
out=$("$FSLAB" compare t1 t3 --db "$DB" 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -q "files: 100 (t1), 150 (t3)" <<<"$out" && grep -q -- "--allow-option-mismatch" <<<"$out" &&
	ok "different workload options refused, exit 2, the option named" ||
	not_ok "different workload options refused, exit 2, the option named" "exit $rc" "$out"
out=$("$FSLAB" compare t1 t3 --db "$DB" --allow-option-mismatch 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "differs: workload options" <<<"$out" &&
	ok "--allow-option-mismatch compares and names the difference" ||
	not_ok "--allow-option-mismatch compares and names the difference" "exit $rc" "$out"
check_exit "report refuses them too" 2 "$FSLAB" report t1 t3 --db "$DB" -o "$SCRATCH/x.html"

# ---- old spellings are the same options (README "Conventions") ----
# t2's runs stored as an older fslab wrote them (cold=1, shared=0,
# wearout=true, metadata's seed=0 for the run's): they still compare
# with t1's as one configuration, and show as today's.
sqlite3 "$DB" "update wlruns set options = replace(replace(replace(replace(options, 'cold=yes', 'cold=1'), 'shared=no', 'shared=0'), 'wearout=yes', 'wearout=true'), 'seed=run', 'seed=0') where workload = 'metadata' and run_id in (select id from runs where tag = 't2')"
old=$(sqlite3 "$DB" "select count(*) from wlruns w join runs r on w.run_id = r.id where r.tag = 't2' and w.options like '%shared=0%cold=1,seed=0%wearout=true%'")
out=$("$FSLAB" compare t1 t2 --db "$DB" 2>&1)
rc=$?
[ "$old" -gt 0 ] && [ $rc -ne 2 ] && ! grep -q "differs: workload options" <<<"$out" &&
	! grep -q "allow-option-mismatch" <<<"$out" &&
	ok "runs stored as cold=1,shared=0,seed=0 compare with cold=yes,shared=no,seed=run" ||
	not_ok "runs stored as cold=1,shared=0,seed=0 compare with cold=yes,shared=no,seed=run" "$old old rows, exit $rc" "$out"
"$FSLAB" show t2 --db "$DB" 2>&1 | grep -q '^workload metadata: .*shared=no.*cold=yes,seed=run.*wearout=yes' &&
	ok "show prints old spellings as yes/no and seed=run" ||
	not_ok "show prints old spellings as yes/no and seed=run" "$("$FSLAB" show t2 --db "$DB" 2>&1 | grep '^workload')"

nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
