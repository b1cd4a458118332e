#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare on latency distributions (issue 39): per phase and op class
# p50/p90/p99/p99.9 with order-statistic intervals from the pooled
# histograms, a p99 tail verdict that also needs the repetitions to agree
# (Welch on each repetition's log p99, Holm-adjusted), Brown-Forsythe on
# the repetitions' key metric.  An A/A of ext4 lists no tail change; a
# sync mount makes small creates and unlinks' p99 many times slower and
# compare says "slower tail"; quantiles the sample cannot support are
# refused with the count they need, never given a number; the text keeps
# to 80 columns; the HTML report draws each phase's CDF (log x) and
# the same quantile table; `show --plot` draws a run's CDFs to a PNG or
# SVG file.  Small: 400 files x 4 repetitions a side (1600 ops, so
# p99 is supported and p99.9 is not).
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd python3 mkfs.ext4
scratch_dir

run() { "$FSLAB" run --db "$DB" --scratch "$SCRATCH" "$@" >"$SCRATCH/run.out" 2>"$SCRATCH/run.err"; }

run -t ext4:size=256M,name=A -t ext4:size=256M,name=B \
	-w metadata:files=400 --repeat 4 --tag aa &&
	ok "A/A: run exits 0" || not_ok "A/A: run exits 0" "$(tail -5 "$SCRATCH/run.err")"
out=$("$FSLAB" compare aa --db "$DB" 2>&1)
sec=$(sed -n '/^latency distribution, A (A) vs B (B)$/,/^$/p' <<<"$out")
grep -q '^  create (1600 vs 1600 ops): ' <<<"$sec" &&
	grep -q '^  unlink (1600 vs 1600 ops): ' <<<"$sec" &&
	ok "A/A: a latency distribution section with create and unlink, 1600 ops a side" ||
	not_ok "A/A: a latency distribution section with create and unlink, 1600 ops a side" "$out"
! grep -Eq 'slower tail|faster tail' <<<"$sec" &&
	[ "$(grep -c ': no tail change$' <<<"$sec")" -ge 3 ] &&
	ok "A/A: no tail change anywhere" || not_ok "A/A: no tail change anywhere" "$sec"
grep -Eq '^    repetitions \(4 vs 4\): Welch on log p99, p [0-9.e-]+ \(adj [0-9.e-]+\)' <<<"$sec" &&
	ok "A/A: the repetitions are tested (4 vs 4)" || not_ok "A/A: the repetitions are tested (4 vs 4)" "$sec"
grep -q '^    p99.9  too few samples for p99.9 (1600, needs 3688)$' <<<"$sec" &&
	ok "p99.9 of 1600 ops is refused with the 3688 it needs" ||
	not_ok "p99.9 of 1600 ops is refused with the 3688 it needs" "$sec"
grep -q '^  mkdir (4 vs 4 ops): too few samples for p99$' <<<"$sec" &&
	grep -A1 '^  mkdir ' <<<"$sec" | grep -q 'too few samples for p50 (4, needs 6)' &&
	ok "4 mkdirs: refused from p50 on" || not_ok "4 mkdirs: refused from p50 on" "$sec"
grep -q '^    Brown-Forsythe F [0-9.e+-]* (1, 6 df), p ' <<<"$sec" &&
	ok "A/A: Brown-Forsythe on 4 vs 4 repetitions (1, 6 df)" ||
	not_ok "A/A: Brown-Forsythe on 4 vs 4 repetitions (1, 6 df)" "$sec"

run -t ext4:size=256M,name=async -t ext4:size=256M,mount=sync,name=sync \
	-w metadata:files=400 --repeat 4 --tag ab &&
	ok "A/B: run exits 0" || not_ok "A/B: run exits 0" "$(tail -5 "$SCRATCH/run.err")"
out=$("$FSLAB" compare ab --db "$DB" 2>&1)
sec=$(sed -n '/^latency distribution, async (A) vs sync (B)$/,/^$/p' <<<"$out")
grep -q '^  create (1600 vs 1600 ops): slower tail$' <<<"$sec" &&
	grep -q '^  unlink (1600 vs 1600 ops): slower tail$' <<<"$sec" &&
	ok "A/B: sync gives create and unlink a slower tail" ||
	not_ok "A/B: sync gives create and unlink a slower tail" "$sec"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' <<<"$out" &&
	ok "compare text within 80 columns" || not_ok "compare text within 80 columns" "$(awk 'length($0) > 80' <<<"$out")"

"$FSLAB" compare ab --db "$DB" --format json >"$SCRATCH/ab.json" 2>"$SCRATCH/cmp.err"
if python3 - "$SCRATCH/ab.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
secs = [s for w in d["workloads"] for s in w.get("latency_distribution", [])]
assert secs, "no latency_distribution"
rows = {r["phase"]: r for r in secs[0]["rows"] if r["op"] == ""}
c = rows["create"]
assert c["verdict"] == "slower tail", c["verdict"]
assert c["reps_a"] == 4 and c["reps_b"] == 4 and c["reps_tested"], c
assert c["reps_p_adj"] < 0.05 and c["reps_p_adj"] >= c["reps_p"], c
q = c["quantiles"]["p99"]
a, b = q["a"], q["b"]
assert a["samples"] == 1600 and a["needs"] == 368, a
assert a["ci_lo_ns"] <= a["ns"] <= a["ci_hi_ns"], a
assert b["ci_lo_ns"] > a["ci_hi_ns"], (a, b)
assert q["ratio"] > 2, q["ratio"]
r = c["quantiles"]["p99.9"]
assert "ns" not in r["a"] and r["ratio"] is None, r
assert r["a"]["needs"] == 3688 and "p99.9" in r["a"]["refused"], r
assert all(v["df1"] == 1 and v["df2"] == 6 for v in secs[0]["variance"] if v["tested"])
PY
then ok "JSON: verdict, repetition test, p99 interval, p99.9 refused without a number"
else not_ok "JSON: verdict, repetition test, p99 interval, p99.9 refused without a number" "$(cat "$SCRATCH/cmp.err")"; fi

"$FSLAB" report ab --db "$DB" -o "$SCRATCH/ab.html" 2>"$SCRATCH/rep.err"
if python3 - "$SCRATCH/ab.html" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
i = s.index("<h3>latency distributions</h3>")
j = s.index("<table", i)
# a CDF per phase with at least 20 ops a side: create, stat, unlink
assert len(re.findall(r"<figure>\s*<svg", s[i:j])) == 3, "figures"
rows = re.findall(r"<tr><td class=l>(\w+)</td><td>(p[0-9.]+)</td>"
                  r"<td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>", s[j:])
v = {(r[0], r[1]): r for r in rows}
assert v[("create", "p99")][4] == "slower tail", v[("create", "p99")]
assert v[("stat", "p99")][4] == "no tail change", v[("stat", "p99")]
assert "needs 3688" in v[("create", "p99.9")][2]
assert ("mkdir", "p90") not in v and "needs 6" in v[("mkdir", "p50")][2]
PY
then ok "report: a CDF per phase and the quantile table with the tail verdict"
else not_ok "report: a CDF per phase and the quantile table with the tail verdict" "$(cat "$SCRATCH/rep.err")"; fi

# show --plot: the run's CDFs as a PNG or an SVG file
"$FSLAB" show ab --db "$DB" --plot "$SCRATCH/ab.png" >/dev/null 2>"$SCRATCH/plot.err" &&
	grep -q "ab.png: 6 distributions drawn" "$SCRATCH/plot.err" &&
	python3 - "$SCRATCH/ab.png" <<'PY' &&
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR", b[:16]
assert struct.unpack(">II", b[16:24]) == (1280, 600)
PY
	ok "show --plot FILE.png: a 1280x600 PNG of the 6 phases with 20 ops or more" ||
	not_ok "show --plot FILE.png: a 1280x600 PNG of the 6 phases with 20 ops or more" "$(cat "$SCRATCH/plot.err")"
"$FSLAB" show ab --db "$DB" --plot "$SCRATCH/ab.svg" >/dev/null 2>&1 &&
	head -c 40 "$SCRATCH/ab.svg" | grep -q '^<?xml' && grep -q '<svg' "$SCRATCH/ab.svg" &&
	ok "show --plot FILE.svg: a standalone SVG" || not_ok "show --plot FILE.svg: a standalone SVG"
check_exit "show --plot FILE.txt: usage error" 2 "$FSLAB" show ab --db "$DB" --plot "$SCRATCH/ab.txt"
[ ! -e "$SCRATCH/ab.txt" ] && ok "  and nothing written" || not_ok "  and nothing written"

run -t ext4:size=256M,name=one -t ext4:size=256M,mount=sync,name=onesync \
	-w metadata:files=400 --tag single &&
	sec=$("$FSLAB" compare single --db "$DB" 2>&1 | sed -n '/^latency distribution/,/^$/p') &&
	grep -q '^    repetitions (1 vs 1): too few with 100 ops for a test; pooled only$' <<<"$sec" &&
	grep -q 'not tested (1 and 1 repetitions, needs 3 each)' <<<"$sec" &&
	ok "one repetition a side: pooled only, variance not tested, said so" ||
	not_ok "one repetition a side: pooled only, variance not tested, said so" "$sec"

run -t ext4:size=256M -w fsck --tag nohist
out=$("$FSLAB" show nohist --db "$DB" --plot "$SCRATCH/none.png" 2>&1 >/dev/null)
[ $? -eq 1 ] && grep -q "has no latency histogram of 20 operations or more to plot" <<<"$out" &&
	[ ! -e "$SCRATCH/none.png" ] &&
	ok "show --plot of a run without histograms: exit 1, said why, no file" ||
	not_ok "show --plot of a run without histograms: exit 1, said why, no file" "$out"

nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left"
finish
