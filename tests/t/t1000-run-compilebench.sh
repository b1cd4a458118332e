#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab run + compilebench on real loop-mounted ext4, xfs and btrfs:
# the summary is compilebench's, the store and JSON hold the run, and
# nothing stays mounted or attached afterwards.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd sqlite3
need_cmd python3
scratch_dir
have_cbdata || _need "compilebench data sets at $CBDATA"
make_small_cbdata "$SCRATCH/cbdata"

for fs in ext4 xfs btrfs; do
	need_cmd mkfs.$fs
	out=$SCRATCH/$fs.out
	"$FSLAB" run --target "$fs:size=1G" \
		--workload "compilebench:initial-dirs=2,runs=6,sources=$SCRATCH/cbdata" \
		--db "$DB" --scratch "$SCRATCH" --tag "t1000-$fs" \
		--json "$SCRATCH/$fs.json" >"$out" 2>"$SCRATCH/$fs.err"
	rc=$?
	if [ $rc -eq 0 ]; then ok "$fs: run exits 0"; else
		not_ok "$fs: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/$fs.err")"; fi
	if msg=$(check_cb_summary "$out"); then ok "$fs: summary in compilebench's format"
	else not_ok "$fs: summary in compilebench's format" "$msg" "$(cat "$out")"; fi
	n=$(cb_total_runs "$out")
	[ "$n" -eq 6 ] && ok "$fs: six random ops counted" || not_ok "$fs: six random ops counted" "got $n"
	grep -q '^intial create total runs 2 ' "$out" && ok "$fs: two initial creates" ||
		not_ok "$fs: two initial creates" "$(cat "$out")"
	grep -q '^create dir kernel-0 [0-9]*MB in [0-9.]* seconds ([0-9.]* MB/s)$' "$SCRATCH/$fs.err" &&
		ok "$fs: compilebench progress lines on stderr" ||
		not_ok "$fs: compilebench progress lines on stderr" "$(head -5 "$SCRATCH/$fs.err")"
	run=$(sqlite3 "$DB" "select id from runs where tag = 't1000-$fs'")
	st=$(sqlite3 "$DB" "select status from runs where id = $run")
	[ "$st" = complete ] && ok "$fs: run stored as complete" || not_ok "$fs: run stored as complete" "status '$st'"
	nph=$(sqlite3 "$DB" "select count(*) from $PHASES where run = $run and phase not like 'native-%' and phase != 'summary'")
	[ "$nph" -eq 8 ] && ok "$fs: 8 op phases stored" || not_ok "$fs: 8 op phases stored" "got $nph"
	tfs=$(sqlite3 "$DB" "select fstype || ' ' || (uuid is not null) || ' ' || (mkfs_version is not null) from targets where run_id = $run")
	[ "$tfs" = "$fs 1 1" ] && ok "$fs: target row has fs, uuid, mkfs version" ||
		not_ok "$fs: target row has fs, uuid, mkfs version" "$tfs"
	nm=$(sqlite3 "$DB" "select count(*) from $METRICS where run = $run and name = 'MiB/s' and unit = 'MiB/s' and better = 1")
	[ "$nm" -ge 1 ] && ok "$fs: rates stored with unit and direction" || not_ok "$fs: rates stored with unit and direction" "got $nm"
	if python3 - "$SCRATCH/$fs.json" "$fs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format_version"] == 1
r = d["run"]
assert r["status"] == "complete", r["status"]
assert r["targets"][0]["fstype"] == sys.argv[2]
ph = r["workloads"][0]["phases"]
assert any(p["name"] == "initial-create" for p in ph)
for p in ph:
    assert p["wall_ns"] >= 0
PY
	then ok "$fs: --json holds the run"; else not_ok "$fs: --json holds the run"; fi
	"$FSLAB" show --db "$DB" "t1000-$fs" >"$SCRATCH/$fs.show" 2>&1
	if msg=$(check_cb_summary "$SCRATCH/$fs.show"); then
		# The stored run renders to the same summary as the live one.
		if diff <(sed -n '/^run complete:$/,+12p' "$out") \
			<(sed -n '/^run complete:$/,+12p' "$SCRATCH/$fs.show") >/dev/null; then
			ok "$fs: show reproduces the live summary"
		else not_ok "$fs: show reproduces the live summary" "$(cat "$SCRATCH/$fs.show")"; fi
	else not_ok "$fs: show reproduces the live summary" "$msg"; fi
	nothing_left_under "$SCRATCH" && ok "$fs: no mount or loop device left" ||
		not_ok "$fs: no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
	left=$(find "$SCRATCH" -maxdepth 1 \( -name '*.img' -o -name '*.mnt' \) | head -3)
	[ -z "$left" ] && ok "$fs: no image or mount point left" || not_ok "$fs: no image or mount point left" "$left"
done
# The mail's "Average NAME results": one block per configuration in show
# and compare, every line in compilebench's summary format, and the JSON
# of compare carrying the same averages (the same mean over repetitions).
if msg=$(check_cb_block "$SCRATCH/ext4.show" "Average ext4 results"); then
	ok "show: Average ext4 results in compilebench's format"
else not_ok "show: Average ext4 results in compilebench's format" "$msg"; fi
"$FSLAB" compare --db "$DB" t1000-ext4 t1000-xfs t1000-btrfs >"$SCRATCH/cmp.out" 2>&1
heads=$(grep -c '^Average .* results$' "$SCRATCH/cmp.out")
bad=
while read -r h; do
	msg=$(check_cb_block "$SCRATCH/cmp.out" "$h") || bad="$bad|$h: $msg"
done < <(grep '^Average .* results$' "$SCRATCH/cmp.out")
[ "$heads" = 3 ] && [ -z "$bad" ] &&
	ok "compare: an Average NAME results block per configuration, compilebench's format" ||
	not_ok "compare: an Average NAME results block per configuration" "$heads blocks $bad" "$(cat "$SCRATCH/cmp.out")"
"$FSLAB" compare --db "$DB" t1000-ext4 t1000-xfs --all --format json >"$SCRATCH/cmp.json" 2>&1
if python3 - "$SCRATCH/cmp.json" "$SCRATCH/cmp.out" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
w = d["workloads"][0]
rows = {(r["phase"], r["metric"]): r for r in w["rows"]}
blocks = re.split(r"^Average (.*) results$", text, flags=re.M)
for gi, label in enumerate(w["groups"]):
    block = blocks[blocks.index(label) + 1]
    m = re.search(r"^intial create total runs (\d+) avg ([0-9.]+) MB/s "
                  r"\(user ([0-9.]+)s sys ([0-9.]+)s\)$", block, re.M)
    assert m, block
    for metric, val in (("initial-create.avg_MiB/s", m.group(2)),
                        ("initial-create.user_s", m.group(3)),
                        ("initial-create.sys_s", m.group(4)),
                        ("initial-create.runs", m.group(1))):
        g = rows[("summary", metric)]["groups"][gi]
        fmt = "%.0f" if metric.endswith("runs") else "%.2f"
        assert fmt % g["mean"] == val, (label, metric, g["mean"], val)
PY
then ok "compare JSON carries the Average blocks' figures"
else not_ok "compare JSON carries the Average blocks' figures" "$(head -c 600 "$SCRATCH/cmp.json")"; fi

# A repetition that did not complete is named, never averaged in.
sqlite3 "$DB" "update wlruns set status = 'failed' where run_id = (select id from runs where tag = 't1000-xfs')"
"$FSLAB" show --db "$DB" t1000-xfs >"$SCRATCH/failed.show" 2>&1
grep -qx 'Average xfs results (0 of 1 repetitions; not counted: rep 1 failed)' "$SCRATCH/failed.show" &&
	grep -qx 'no runs for intial create' "$SCRATCH/failed.show" &&
	ok "a failed repetition is marked and left out of the averages" ||
	not_ok "a failed repetition is marked and left out of the averages" "$(cat "$SCRATCH/failed.show")"

journals=$(find "$FSLAB_STATE_DIR" -type f 2>/dev/null | head -3)
[ -z "$journals" ] && ok "state journals removed after clean runs" || not_ok "state journals removed after clean runs" "$journals"
check_metric_names
finish
