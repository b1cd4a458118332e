#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab compare on a real two-target, three-repetition compilebench run:
# every section printed (the compact 80-column table by default, every
# statistic with --long), JSON and CSV parse back with the right shape,
# n counts repetitions, A/A never says "same", and
# --fail-on-regression exits 3 on a regression planted in copies of the
# run (SQLite), 0 otherwise.
# Nothing here asserts timings: verdicts are only checked on data the
# test wrote itself.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd sqlite3 python3 mkfs.ext4
scratch_dir
need_small_cbdata

check "compare --help" "$FSLAB" compare --help
check_exit "compare: unknown format exits 2" 2 "$FSLAB" compare --format xml
check_exit "compare: bad --min-change exits 2" 2 "$FSLAB" compare --min-change x
check_exit "compare: missing database exits 1" 1 "$FSLAB" compare --db "$SCRATCH/none.db"

cb_two_target_run cmp "two targets x three repetitions run"
run=$(sqlite3 "$DB" "select id from runs where tag = 'cmp'")

out=$SCRATCH/cmp.txt
"$FSLAB" compare cmp --db "$DB" >"$out" 2>"$SCRATCH/cmp.err"
rc=$?
[ $rc -eq 0 ] && ok "compare cmp exits 0" || not_ok "compare cmp exits 0" "exit $rc" "$(cat "$SCRATCH/cmp.err")"
missing=
for want in "== compilebench: 2 configurations, baseline 'ext4'" \
	"ext4         3 repetitions" "noatime      3 repetitions" \
	"differs: mount options" \
	"target order: balanced; rep 1:" \
	"metric       config                mean, 95% CI  change  verdict" \
	"initial-create.avg_MiB/s" "delete.avg_s" \
	"roll-up (geometric mean" "noatime vs ext4: " \
	"method: n = repetitions" "result: "; do
	grep -qF -- "$want" "$out" || missing="$missing|$want"
done
[ -z "$missing" ] && ok "compare prints the compact table" ||
	not_ok "compare prints the compact table" "missing: $missing" "$(head -60 "$out")"
long=$(awk 'length($0) > 80' "$out")
[ -z "$long" ] && ok "the compact table fits 80 columns" ||
	not_ok "the compact table fits 80 columns" "$long"
grep -qE '[0-9]e[+-][0-9]' "$out" && not_ok "no scientific notation" "$(grep -E '[0-9]e[+-][0-9]' "$out")" ||
	ok "no scientific notation"
"$FSLAB" compare cmp --db "$DB" --long >"$out" 2>"$SCRATCH/cmp.err"
missing=
for want in "== compilebench: 2 configurations, baseline 'ext4'" \
	"compilebench averages (mean over repetitions" \
	"Average ext4 results" "Average noatime results" \
	"intial create" "stat compiled tree" \
	"summary  initial-create.avg_MiB/s [MiB/s]  (higher is better; harmonic mean)  key" \
	"summary  delete.avg_s [s]  (lower is better; arithmetic mean)  key" \
	"initial-create  MiB/s [MiB/s]" "initial-create  files/s" \
	"initial-create  wall_s [s]" \
	"95% CI of mean" "95% CI of change" "p adj" "mdc" "verdict" "baseline" \
	"roll-up (geometric mean" "noatime vs ext4: " "result: "; do
	grep -qF -- "$want" "$out" || missing="$missing|$want"
done
[ -z "$missing" ] && ok "compare --long prints every section" ||
	not_ok "compare --long prints every section" "missing: $missing" "$(head -60 "$out")"
n=$(grep -c '^  noatime *3 ' "$out")
[ "$n" -ge 10 ] && ok "statistics per phase and metric, n = 3 reps" ||
	not_ok "statistics per phase and metric, n = 3 reps" "got $n rows"
grep -q 'sys_s' "$out" && not_ok "non-key metrics hidden by default" ||
	ok "non-key metrics hidden by default"
"$FSLAB" compare cmp --db "$DB" --all --long | grep -q '^summary  patch.runs ' &&
	ok "--all shows every metric" || not_ok "--all shows every metric"
lines=$("$FSLAB" compare cmp --db "$DB" --long --metric wall_s --phase 'read*' |
	grep -c '^[a-z-]*  [^ ]* \[')
[ "$lines" -eq 1 ] && ok "--metric/--phase filter" || not_ok "--metric/--phase filter" "got $lines blocks"

# JSON: versioned, parsed back.
"$FSLAB" compare cmp --db "$DB" --format json >"$SCRATCH/cmp.json"
if python3 - "$SCRATCH/cmp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format_version"] == 2
assert d["alpha"] == 0.05 and d["min_change_pct"] == 2
assert d["adjust"] == "Holm" and d["sample"] == "repetition"
assert d["min_wall_s"] == 0.05 and d["min_repetitions"] == 3
assert d["runs"][0]["target_order"] == "balanced"
assert len(d["runs"][0]["orders"]) == 3
assert sorted(d["runs"][0]["orders"][0]) == ["ext4", "noatime"]
w = d["workloads"][0]
assert w["workload"] == "compilebench", w["workload"]
assert w["groups"] == ["ext4", "noatime"], w["groups"]
rows = {(r["phase"], r["metric"]): r for r in w["rows"]}
k = rows[("summary", "initial-create.avg_MiB/s")]
assert k["key"] and k["better"] == "higher" and k["mean_kind"] == "harmonic"
assert [g["n"] for g in k["groups"]] == [3, 3]
assert len(k["groups"][0]["samples"]) == 3
assert "vs_baseline" not in k["groups"][0]
v = k["groups"][1]["vs_baseline"]
assert [g["n"] for g in rows[("create", "MiB/s")]["groups"]] == [3, 3]
assert rows[("create", "MiB/s")]["groups"][0]["instances"] > 3
assert any(x["field"] == "mount options" for x in w["differences"])
for f in ("ratio", "change_pct", "change_ci_lo_pct", "p", "p_adj", "mdc_pct", "significant", "verdict"):
    assert f in v, f
assert rows[("summary", "delete.avg_s")]["better"] == "lower"
assert w["rollup"][1]["metrics"] >= 1
assert isinstance(w["regression"], bool)
PY
then ok "compare --format json parses back with its shape"; else not_ok "compare --format json parses back with its shape"; fi

# CSV: header, RFC 4180, one row per (workload, phase, metric, group).
"$FSLAB" compare cmp --db "$DB" --format csv >"$SCRATCH/cmp.csv"
if python3 - "$SCRATCH/cmp.csv" <<'PY'
import csv, sys
raw = open(sys.argv[1], newline="").read()
assert raw.endswith("\r\n")
rows = list(csv.DictReader(raw.splitlines()))
assert rows and rows[0]["workload"] == "compilebench"
groups = {r["group"] for r in rows}
assert groups == {"ext4", "noatime"}, groups
assert all(r["baseline"] == "ext4" for r in rows)
key = [r for r in rows if r["metric"] == "initial-create.avg_MiB/s"]
assert len(key) == 2 and key[0]["verdict"] == "baseline"
PY
then ok "compare --format csv has a header and a row per group"; else not_ok "compare --format csv has a header and a row per group"; fi

# show/results --format csv.
"$FSLAB" show cmp --db "$DB" --format csv >"$SCRATCH/show.csv"
if python3 - "$SCRATCH/show.csv" "$DB" "$run" "$METRICS" <<'PY'
import csv, sqlite3, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
# The provenance rows (metric "provenance:KEY", text in label) come first.
prov = [r for r in rows if r["metric"].startswith("provenance:")]
assert {"provenance:kernel", "provenance:command"} <= {r["metric"] for r in prov}
# then the recorded setup and the validity checks (doc/validity.md)
rows = [r for r in rows if not r["metric"].startswith(("provenance:", "setup:", "check:"))]
db = sqlite3.connect(sys.argv[2])
n = db.execute(f"select count(*) from {sys.argv[4]} where run = ?",
               (int(sys.argv[3]),)).fetchone()[0]
assert len(rows) == n, (len(rows), n)
assert {r["target"] for r in rows} == {"ext4", "noatime"}
assert {r["rep"] for r in rows} == {"0", "1", "2"}
assert all(r["run"] == sys.argv[3] for r in rows)
PY
then ok "show --format csv: one row per stored metric"; else not_ok "show --format csv: one row per stored metric"; fi
"$FSLAB" results --db "$DB" --format csv >"$SCRATCH/results.csv"
if python3 - "$SCRATCH/results.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 1 and rows[0]["tag"] == "cmp"
assert rows[0]["targets"] == "ext4;noatime", rows[0]["targets"]
PY
then ok "results --format csv lists the run"; else not_ok "results --format csv lists the run"; fi

# A/A: the same configuration twice.
out=$("$FSLAB" compare "$run" "$run" --db "$DB" --long --min-wall 0 --fail-on-regression 2>&1)
rc=$?
if [ $rc -eq 0 ] && ! grep -qE 'REGRESSION|improvement|same' <<<"$out" &&
	grep -qE "can't tell \(mdc|no significant change|equivalent" <<<"$out" &&
	grep -q ": 1.0000 (+0.0%)" <<<"$out"; then
	ok "A/A: can't tell or no significant change (never same), roll-up 1"
else
	not_ok "A/A: can't tell or no significant change (never same), roll-up 1" "exit $rc" "$(grep -E 'REGRESS|improve|roll|vs|tell|same' <<<"$out" | head)"
fi

# Plant a regression: two copies of the run whose initial-create.avg_MiB/s the
# test sets itself (100 vs 50, the same 2 % steps); a copy is another
# run, so it gets its own global id.
copy_run() { # copy_run TAG OFFSET
	sqlite3 "$DB" <<SQL
create temp table r as select * from runs where id = $run;
update r set id = id + $2, tag = '$1', uuid = lower(hex(randomblob(16)));
insert into runs select * from r;
create temp table t as select * from targets where run_id = $run;
update t set id = id + $2, run_id = run_id + $2;
insert into targets select * from t;
create temp table w as select * from wlruns where run_id = $run;
update w set id = id + $2, run_id = run_id + $2, target_id = target_id + $2;
insert into wlruns select * from w;
create temp table p as select * from phases where wlrun_id in
	(select id from wlruns where run_id = $run);
update p set id = id + $2, wlrun_id = wlrun_id + $2;
insert into phases select * from p;
create temp table m as select * from metrics where phase_id in
	(select id from phases where wlrun_id in (select id from wlruns where run_id = $run));
update m set phase_id = phase_id + $2;
insert into metrics select * from m;
SQL
}
set_metric() { # set_metric TAG BASE
	# Spread of 2 % a sample, the same in both copies: exact ratios.
	sqlite3 "$DB" "update metrics set value = $2 * (1 + 0.02 * (select w.rep + 3 * t.idx from phases p join wlruns w on p.wlrun_id = w.id join targets t on w.target_id = t.id where p.id = metrics.phase_id)) where name = 'initial-create.avg_MiB/s' and phase_id in (select p.id from phases p join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id where r.tag = '$1')"
}
copy_run syn-a 1000000 && copy_run syn-b 2000000 && set_metric syn-a 100 && set_metric syn-b 50
n=$(sqlite3 "$DB" "select count(*) from runs where tag like 'syn-%'")
[ "$n" -eq 2 ] && ok "two synthetic copies stored" || not_ok "two synthetic copies stored" "got $n"
out=$("$FSLAB" compare syn-a syn-b --db "$DB" --long --min-wall 0 --fail-on-regression 2>&1)
rc=$?
[ $rc -eq 3 ] && ok "--fail-on-regression exits 3 on a planted regression" ||
	not_ok "--fail-on-regression exits 3 on a planted regression" "exit $rc" "$out"
grep -A4 '^summary  initial-create.avg_MiB/s' <<<"$out" | grep -q -- '-50.0%.*\* REGRESSION' &&
	ok "the regression is labelled, -50%" ||
	not_ok "the regression is labelled, -50%" "$(grep -A4 '^summary  initial-create.avg_MiB/s' <<<"$out")"
check_exit "without --fail-on-regression: exit 0" 0 "$FSLAB" compare syn-a syn-b --db "$DB" --min-wall 0
out=$("$FSLAB" compare syn-b syn-a --db "$DB" --long --min-wall 0 --fail-on-regression 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -A4 '^summary  initial-create.avg_MiB/s' <<<"$out" | grep -q -- '+100.0%.*\* improvement' &&
	ok "the other way round: an improvement, exit 0" ||
	not_ok "the other way round: an improvement, exit 0" "exit $rc" "$(grep -A4 '^summary  initial-create.avg_MiB/s' <<<"$out")"
out=$("$FSLAB" compare syn-a syn-b --db "$DB" --min-wall 0 --min-change 60 --fail-on-regression 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "--min-change above the change: not a regression" ||
	not_ok "--min-change above the change: not a regression" "exit $rc"
# A run stored before the naming rule (compilebench's summary figures
# were "KIND.avg") reads under today's names, so it compares with new runs.
copy_run syn-old 3000000 && set_metric syn-old 50 &&
	sqlite3 "$DB" "update metrics set name = replace(replace(name, '.avg_MiB/s', '.avg'), '.avg_s', '.avg') where phase_id in (select phase_id from $METRICS where tag = 'syn-old')"
n=$(sqlite3 "$DB" "select count(*) from $METRICS where tag = 'syn-old' and name = 'initial-create.avg'")
[ "$n" -eq 6 ] && ok "a copy stored under the old names" || not_ok "a copy stored under the old names" "got $n"
out=$("$FSLAB" compare syn-a syn-old --db "$DB" --long --min-wall 0 --fail-on-regression 2>&1)
rc=$?
[ $rc -eq 3 ] && grep -A4 '^summary  initial-create.avg_MiB/s' <<<"$out" | grep -q -- '-50.0%.*\* REGRESSION' &&
	grep -q '^summary  delete.avg_s' <<<"$out" && ! grep -q '\.avg ' <<<"$out" &&
	ok "old names compare with new ones under the new names" ||
	not_ok "old names compare with new ones under the new names" "exit $rc" "$(grep -A4 '^summary' <<<"$out" | head -20)"
"$FSLAB" show syn-old --db "$DB" --format csv | grep -q ',initial-create.avg_MiB/s,' &&
	ok "show lists an old run under the new names" || not_ok "show lists an old run under the new names"
check_exit "compare: unknown run exits 1" 1 "$FSLAB" compare nosuchtag --db "$DB"
out=$("$FSLAB" compare cmpp --db "$DB" 2>&1)
grep -q "no run or tag 'cmpp' in .*; did you mean 'cmp'?" <<<"$out" &&
	ok "a mistyped tag: did you mean" || not_ok "a mistyped tag: did you mean" "$out"
out=$("$FSLAB" show $((run + 1)) --db "$DB" 2>&1)
grep -q "no run '$((run + 1))' in .*; did you mean '$run'?" <<<"$out" &&
	ok "a mistyped run id: did you mean" || not_ok "a mistyped run id: did you mean" "$out"

# ---- issue 34: honest words ----
# A +100 % change at n = 3 with a spread of 100x: not significant, and
# the comparison could not have seen 2 %: "can't tell (mdc ...)".
set_spread() { # set_spread TAG FACTOR: 10, 100, 1000 times FACTOR
	sqlite3 "$DB" "update metrics set value = $2 * (select case w.rep when 0 then 10 when 1 then 100 else 1000 end from phases p join wlruns w on p.wlrun_id = w.id where p.id = metrics.phase_id) where name = 'initial-create.avg_MiB/s' and phase_id in (select p.id from phases p join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id where r.tag = '$1')"
}
copy_run spr-a 7000000 && copy_run spr-b 8000000 && set_spread spr-a 1 && set_spread spr-b 2
out=$("$FSLAB" compare spr-a spr-b --db "$DB" --min-wall 0 --metric initial-create.avg_MiB/s 2>&1)
rc=$?
row=$(grep -A3 '^initial-create.avg_MiB/s' <<<"$out" | grep -- '+100.0%')
if [ $rc -eq 0 ] && grep -qE "can't tell \(mdc (>?[0-9]+%|-)\)" <<<"$row" && ! grep -q 'same' <<<"$out"; then
	ok "+100 % at n = 3 with a huge spread: can't tell (mdc ...), never same"
else
	not_ok "+100 % at n = 3 with a huge spread: can't tell (mdc ...), never same" "exit $rc" "$out"
fi
out=$("$FSLAB" compare spr-a spr-b --db "$DB" --min-wall 0 --metric initial-create.avg_MiB/s --long 2>&1)
grep -A4 '^summary  initial-create.avg_MiB/s' <<<"$out" | grep -q "can't tell (mdc" &&
	ok "--long says can't tell too" || not_ok "--long says can't tell too" "$out"
"$FSLAB" compare spr-a spr-b --db "$DB" --min-wall 0 --format csv >"$SCRATCH/spr.csv"
"$FSLAB" compare spr-a spr-b --db "$DB" --min-wall 0 --format json >"$SCRATCH/spr.json"
if python3 - "$SCRATCH/spr.csv" "$SCRATCH/spr.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
c = [r for r in rows if r["metric"] == "initial-create.avg_MiB/s" and r["group"] == "spr-b"][0]
assert c["verdict"] == "can't tell", c["verdict"]
d = json.load(open(sys.argv[2]))
r = [r for w in d["workloads"] for r in w["rows"] if r["metric"] == "initial-create.avg_MiB/s"][0]
assert r["groups"][1]["vs_baseline"]["verdict"] == "can't tell"
for w in d["workloads"]:
    for r in w["rows"]:
        for g in r["groups"][1:]:
            assert g["vs_baseline"]["verdict"] != "same"
PY
then ok "CSV and JSON carry the same verdict word"; else not_ok "CSV and JSON carry the same verdict word"; fi

# Every compact row says its unit: each metric's name line, in the order
# of the JSON rows of the same comparison, holds that row's unit.
"$FSLAB" compare cmp --db "$DB" --all >"$SCRATCH/all.txt" 2>&1
"$FSLAB" compare cmp --db "$DB" --all --format json >"$SCRATCH/all.json"
if python3 - "$SCRATCH/all.txt" "$SCRATCH/all.json" <<'PY'
import json, re, sys
lines = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("metric "))
names = []
for l in lines[i + 1:]:
    if not l or l.startswith(("too ", "roll-up")):
        break
    if l[0] != " ":
        names.append(re.split(r"\s+(?:ext4|noatime)\s", l + " ")[0])
rows = json.load(open(sys.argv[2]))["workloads"][0]["rows"]
assert len(names) == len(rows) and len(rows) >= 10, (len(names), len(rows))
for n, r in zip(names, rows):
    assert r["unit"] and r["unit"] in n, (n, r["unit"])
PY
then ok "every compact compare row has a unit"; else not_ok "every compact compare row has a unit" "$(head -40 "$SCRATCH/all.txt")"; fi

# Nothing matched: exit 2, why, and how to pair; --pair compares.
copy_run pq 5000000
sqlite3 "$DB" "update targets set name = case name when 'ext4' then 'p' else 'q' end where run_id = $run + 5000000"
out=$("$FSLAB" compare cmp pq --db "$DB" --fail-on-regression 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -q "nothing to compare" <<<"$out" && grep -q -- "--pair NAME=NAME" <<<"$out" &&
	grep -q "pq: targets p q" <<<"$out" &&
	ok "nothing matched: exit 2, the names, and --pair" || not_ok "nothing matched: exit 2, the names, and --pair" "exit $rc" "$out"
out=$("$FSLAB" compare cmp pq --db "$DB" --pair ext4=p --pair noatime=q 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -q "== compilebench on ext4=p: 2 configurations, baseline 'cmp'" <<<"$out" &&
	grep -q "== compilebench on noatime=q: 2 configurations" <<<"$out" &&
	ok "--pair NAME=NAME pairs targets whose names differ" || not_ok "--pair NAME=NAME pairs targets whose names differ" "exit $rc" "$out"
check_exit "--pair without = exits 2" 2 "$FSLAB" compare cmp pq --db "$DB" --pair ext4

# One repetition per side: no test ran, "no verdict", exit 4.
copy_run one 6000000
sqlite3 "$DB" "delete from metrics where phase_id in (select p.id from phases p join wlruns w on p.wlrun_id = w.id where w.run_id = $run + 6000000 and w.rep > 0); delete from phases where wlrun_id in (select id from wlruns where run_id = $run + 6000000 and rep > 0); delete from wlruns where run_id = $run + 6000000 and rep > 0"
out=$("$FSLAB" compare one --db "$DB" --fail-on-regression 2>&1)
rc=$?
[ $rc -eq 4 ] && grep -q "^result: no verdict" <<<"$out" && grep -q "too few reps" <<<"$out" &&
	! grep -q "no key metric regressed" <<<"$out" &&
	ok "one repetition per side: no verdict, exit 4" || not_ok "one repetition per side: no verdict, exit 4" "exit $rc" "$out"
check_exit "no verdict without --fail-on-regression: exit 0" 0 "$FSLAB" compare one --db "$DB"


nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
