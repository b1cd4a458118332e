#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Provenance: the run summary, `show`, JSON, CSV and the HTML report say
# what was measured (kernel, host, date, fslab version, device, image
# size, mkfs command and version, mount options, workload options, seed,
# the command line); the stored command line pastes back into a shell
# and runs again; `--json -` writes nothing but JSON to stdout; a traced
# run shows seeks and the layout score in its summary and in `show`;
# a traced two-configuration report with over 16,000 sampled requests
# (2.7 MB as one SVG element each) stays under 2 MB.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
need_cmd python3
need_cmd mkfs.ext4
scratch_dir

wl=metadata:files=400,size=8k
"$FSLAB" run -t 'ext4:size=1G,mkfs=-O ^flex_bg -m 1,name=noflex' -w "$wl" \
	--seed 7 --tag prov --db "$DB" --scratch "$SCRATCH" \
	--json "$SCRATCH/prov.json" >"$SCRATCH/prov.out" 2>"$SCRATCH/prov.err"
rc=$?
[ $rc -eq 0 ] && ok "run exits 0" || not_ok "run exits 0" "exit $rc" "$(tail -5 "$SCRATCH/prov.err")"

want_text() {
	local what=$1 file=$2 missing= w
	shift 2
	for w in "$@"; do
		grep -qF -- "$w" "$file" || missing="$missing|$w"
	done
	[ -z "$missing" ] && ok "$what: provenance fields" ||
		not_ok "$what: provenance fields" "missing: $missing" "$(head -20 "$file")"
}
fields=("kernel $(uname -r)" "host $(uname -n)" "seed 7" "fslab " " UTC " \
	"command: fslab run -t 'ext4:size=1G,mkfs=-O ^flex_bg -m 1,name=noflex'" \
	"target noflex: loop /dev/loop" "1.0G, ext4" \
	"mkfs: mkfs.ext4 -F -q -O ^flex_bg -m 1 /dev/loop" "(mke2fs " \
	"mount: rw," "workload metadata: files=400,size=8192")
want_text "run summary" "$SCRATCH/prov.out" "${fields[@]}"
"$FSLAB" show prov --db "$DB" >"$SCRATCH/show.out" 2>&1
want_text "show" "$SCRATCH/show.out" "${fields[@]}"
"$FSLAB" report prov --db "$DB" -o "$SCRATCH/prov.html" 2>"$SCRATCH/report.err"
want_text "report" "$SCRATCH/prov.html" "<h2>provenance</h2>" "${fields[@]}"

if python3 - "$SCRATCH/prov.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["provenance"]
for k in ("date", "host", "kernel", "fslab_version", "command", "seed"):
    assert p.get(k) not in (None, ""), k
assert p["seed"] == 7
assert p["command"].startswith("fslab run -t 'ext4:"), p["command"]
t = p["targets"][0]
assert t["mkfs_command"].startswith("mkfs.ext4 -F -q -O ^flex_bg -m 1 /dev/loop"), t
assert t["mkfs_version"].startswith("mke2fs"), t
assert t["size"] == 1 << 30 and t["device"].startswith("/dev/loop") and t["mount_options"]
assert p["workloads"][0]["options"].startswith("files=400,size=8192")
assert d["run"]["targets"][0]["mkfs_command"] == t["mkfs_command"]
PY
then ok "JSON: provenance object"; else not_ok "JSON: provenance object"; fi
"$FSLAB" show prov --db "$DB" --format csv >"$SCRATCH/prov.csv"
n=$(grep -cE ',provenance:(kernel|host|date|fslab_version|command|seed|device|size|mkfs_command|mkfs_version|mount_options|options),' "$SCRATCH/prov.csv")
[ "$n" -eq 12 ] && ok "CSV: provenance rows" || not_ok "CSV: provenance rows" "got $n" "$(head -15 "$SCRATCH/prov.csv")"

# The stored command line pastes back.
cmd=$(sqlite3 "$DB" "select cmdline from runs where tag = 'prov'")
[[ $cmd == "fslab run "* ]] && ok "stored command starts with 'fslab run'" || not_ok "stored command starts with 'fslab run'" "$cmd"
(eval "\"\$FSLAB\" ${cmd#fslab }") >"$SCRATCH/again.out" 2>&1
rc=$?
n=$(sqlite3 "$DB" "select count(*) from runs where tag = 'prov' and status = 'complete' and cmdline = '${cmd//\'/\'\'}'")
[ $rc -eq 0 ] && [ "$n" -eq 2 ] && ok "the stored command runs again when pasted" ||
	not_ok "the stored command runs again when pasted" "exit $rc, $n runs" "$cmd" "$(tail -5 "$SCRATCH/again.out")"
mk=$(sqlite3 "$DB" "select distinct mkfs_opts from targets t join runs r on t.run_id = r.id where r.tag = 'prov'")
[ "$mk" = "-O ^flex_bg -m 1" ] && ok "the pasted run made the same filesystem" || not_ok "the pasted run made the same filesystem" "$mk"

# --json -: stdout is one JSON document; the text goes to stderr.
"$FSLAB" run -t ext4:size=1G -w "$wl" --db "$DB" --scratch "$SCRATCH" --json - \
	>"$SCRATCH/j.out" 2>"$SCRATCH/j.err"
rc=$?
[ $rc -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$SCRATCH/j.out" &&
	ok "--json -: stdout parses as JSON" || not_ok "--json -: stdout parses as JSON" "exit $rc" "$(head -5 "$SCRATCH/j.out")"
grep -q '^ext4 *metadata *create ' "$SCRATCH/j.err" && ok "--json -: the text report is on stderr" ||
	not_ok "--json -: the text report is on stderr" "$(tail -5 "$SCRATCH/j.err")"

# show prints a failed phase's stored reason: files removed behind
# fslab's back while it is paused before read.
"$FSLAB" run -t ext4:size=1G -w metadata:files=50,size=4k --pause-before read \
	--db "$DB" --scratch "$SCRATCH" --tag failed >"$SCRATCH/f.out" 2>"$SCRATCH/f.err" &
pid=$!
cleanup_add "kill -9 $pid"
deadline=$((SECONDS + 120))
while ! grep -q "paused before phase read (pid $pid)" "$SCRATCH/f.err" &&
	kill -0 $pid 2>/dev/null && [ $SECONDS -lt $deadline ]; do
	sleep 0.2
done
find "$SCRATCH" -path '*metadata*' -type f -delete
kill -CONT $pid
wait $pid
rc=$?
why=$(sqlite3 "$DB" "select error from $PHASES where tag = 'failed' and status = 'failed'")
"$FSLAB" show failed --db "$DB" >"$SCRATCH/f.show" 2>&1
[ $rc -eq 1 ] && [ -n "$why" ] && grep -qF "phase read FAILED: $why" "$SCRATCH/f.show" &&
	ok "show prints the failed phase's stored reason" ||
	not_ok "show prints the failed phase's stored reason" "exit $rc, stored '$why'" "$(tail -5 "$SCRATCH/f.show")"

# Traced: seeks and layout score in the summary and in show.
if [ "$(id -u)" -eq 0 ] && grep -q tracefs /proc/filesystems; then
	"$FSLAB" run -t ext4:size=1G -t 'xfs:size=1G' -w bonnie:size=256M,ram=0,cold=1,files=0,seeks=16000,perchar=none \
		--trace --tag traced --db "$DB" --scratch "$SCRATCH" >"$SCRATCH/tr.out" 2>"$SCRATCH/tr.err"
	rc=$?
	[ $rc -eq 0 ] && ok "traced run exits 0" || not_ok "traced run exits 0" "exit $rc" "$(tail -5 "$SCRATCH/tr.err")"
	grep -qE '^ +traced: [0-9]+ seeks, [0-9.]+ seeks/s, median seek [0-9]+ sectors, layout score [0-9.]+, latency p50 [0-9.]+ ms p99 [0-9.]+ ms$' "$SCRATCH/tr.out" &&
		ok "traced: the summary shows seeks and layout score" ||
		not_ok "traced: the summary shows seeks and layout score" "$(tail -20 "$SCRATCH/tr.out")"
	"$FSLAB" show traced --db "$DB" >"$SCRATCH/tr.show"
	grep -qE '^    traced: [0-9]+ seeks, .*layout score' "$SCRATCH/tr.show" &&
		ok "traced: show prints the traced figures" ||
		not_ok "traced: show prints the traced figures" "$(tail -20 "$SCRATCH/tr.show")"
	"$FSLAB" report traced --db "$DB" -o "$SCRATCH/tr.html"
	nrq=$(sqlite3 "$DB" "select count(*) from trace_request q join trace_sample s on q.sample_id = s.id" 2>/dev/null ||
		sqlite3 "$DB" "select count(*) from trace_request")
	size=$(stat -c %s "$SCRATCH/tr.html")
	[ "$nrq" -ge 16000 ] && [ "$size" -lt 2000000 ] &&
		ok "traced report of $nrq sampled requests: $size bytes < 2 MB" ||
		not_ok "traced report < 2 MB with >= 16000 sampled requests" "$size bytes, $nrq requests"
	grep -q '<img width=[0-9]* height=[0-9]* alt="seeks on ext4' "$SCRATCH/tr.html" &&
		ok "traced report: the scatter is an embedded raster" ||
		not_ok "traced report: the scatter is an embedded raster"
fi

# Two option sets of one workload and two repetitions: every format names
# each option set once and each target once.
"$FSLAB" run -t ext4:size=1G -w metadata:files=40 -w metadata:files=50 \
	--repeat 2 --tag two --db "$DB" --scratch "$SCRATCH" --json "$SCRATCH/two.json" \
	>"$SCRATCH/two.out" 2>&1
rc=$?
"$FSLAB" show two --db "$DB" --format csv >"$SCRATCH/two.csv"
t=$(grep -c '^workload metadata: files=' "$SCRATCH/two.out")
c=$(grep -c ',provenance:options,' "$SCRATCH/two.csv")
d=$(grep -c ',provenance:device,' "$SCRATCH/two.csv")
j=$(python3 -c 'import json,sys; p = json.load(open(sys.argv[1]))["provenance"]
print(len(p["workloads"]), len(p["targets"]), " ".join(w["options"].split(",")[0] for w in p["workloads"]))' "$SCRATCH/two.json")
[ $rc -eq 0 ] && [ "$t" = 2 ] && [ "$c" = 2 ] && [ "$d" = 1 ] && [ "$j" = "2 1 files=40 files=50" ] &&
	ok "two option sets: text, CSV and JSON each name both, and the target once" ||
	not_ok "two option sets named once each in every format" "exit $rc; text $t, csv $c options $d devices, json '$j'"

nothing_left_under "$SCRATCH" && ok "nothing mounted or attached" ||
	not_ok "nothing mounted or attached" "$(grep "$SCRATCH" /proc/mounts)"
finish
