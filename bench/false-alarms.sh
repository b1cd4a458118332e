#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/false-alarms.sh - how often does `fslab compare` cry wolf?
#
#   bench/false-alarms.sh [K [REPEAT [AB]]]     (defaults 10 4 3)
#
# K A/A runs: two identical ext4 targets (A and B, 256 MiB loop images),
# two workloads (metadata:files=3000 and fsck), REPEAT repetitions in the
# counterbalanced order.  Each run is compared with the defaults (Holm
# over the key metrics, alpha 0.05, --min-change 2, 50 ms floor) and the
# script prints the fraction of comparisons with ANY significant key
# metric (the family-wise false-alarm rate; Holm bounds it by alpha) and
# the fraction per key metric, with the per-metric raw (unadjusted)
# rate beside it for reference.  Then AB A/B runs (ext4 against
# ext4:mount=sync, metadata:files=3000: at 300 the async side is too
# short to judge, so nothing is tested) and the fraction detected as a
# regression.  Both are counted from `compare --format json`.  With
# --explain in the same JSON, the share of A/A comparisons where explain
# lists any co-metric: beside a significant key metric (what the text
# shows) and in any phase at all (strict; issue 29's goal: <= 5 %).
# Needs root and loop devices; leaves nothing behind.  Rates are printed,
# never asserted.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
fslab=${FSLAB:-$top/fslab}
k=${1:-10}
repeat=${2:-4}
ab=${3:-3}
work=$(mktemp -d /var/tmp/fslab-bench.XXXXXX)
export FSLAB_STATE_DIR=$work/state
trap '"$fslab" cleanup >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
db=$work/results.db

for i in $(seq 1 "$k"); do
	"$fslab" run --db "$db" --scratch "$work" --seed "$i" \
		-t ext4:size=256M,name=A -t ext4:size=256M,name=B \
		-w metadata:files=3000 -w fsck --repeat "$repeat" \
		--tag "aa-$i" >/dev/null 2>"$work/err" ||
		{ cat "$work/err" >&2; exit 1; }
	"$fslab" compare "aa-$i" --db "$db" --explain --format json >"$work/aa-$i.json"
	echo "A/A run $i of $k done" >&2
done
for i in $(seq 1 "$ab"); do
	"$fslab" run --db "$db" --scratch "$work" --seed "$i" \
		-t ext4:size=256M,name=async \
		-t ext4:size=256M,mount=sync,name=sync \
		-w metadata:files=3000 --repeat "$repeat" \
		--tag "ab-$i" >/dev/null 2>"$work/err" ||
		{ cat "$work/err" >&2; exit 1; }
	"$fslab" compare "ab-$i" --db "$db" --format json >"$work/ab-$i.json"
	echo "A/B run $i of $ab done" >&2
done

python3 - "$work" "$k" "$ab" "$repeat" <<'PY'
import json, sys, collections
work, k, ab, rep = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

def key_rows(path):
    d = json.load(open(path))
    for w in d["workloads"]:
        for r in w["rows"]:
            if r["key"]:
                yield w["workload"], r, r["groups"][1]["vs_baseline"]

any_sig = any_raw = 0
sig = collections.Counter(); raw = collections.Counter()
tested = collections.Counter(); seen = collections.Counter()
for i in range(1, k + 1):
    hit = hit_raw = False
    for wl, r, v in key_rows(f"{work}/aa-{i}.json"):
        name = f"{wl} {r['phase']} {r['metric']}"
        seen[name] += 1
        if v["p_adj"] is None:
            continue
        tested[name] += 1
        if v["significant"]:
            sig[name] += 1
            hit = True
        if v["p"] < 0.05 and abs(v["change_pct"]) >= 2:
            raw[name] += 1
            hit_raw = True
    any_sig += hit
    any_raw += hit_raw
print(f"A/A: {k} comparisons of two identical ext4 targets, {rep} repetitions each")
print(f"  any key metric significant (Holm): {any_sig}/{k} = {100 * any_sig / k:.0f} %  (nominal <= 5 %)")
print(f"  without the adjustment (raw p < 0.05): {any_raw}/{k} = {100 * any_raw / k:.0f} %")
print(f"  {'key metric':<36} {'tested':>6} {'Holm':>9} {'raw p':>9}")
for name in sorted(seen):
    t = tested[name]
    f = lambda c: f"{c}/{t}" if t else "-"
    print(f"  {name:<36} {t:>6} {f(sig[name]):>9} {f(raw[name]):>9}")
ex_shown = ex_strict = 0
for i in range(1, k + 1):
    items = json.load(open(f"{work}/aa-{i}.json"))["explain"]["items"]
    ex_strict += any(it["leads_total"] for it in items)
    ex_shown += any(it["leads_total"] and it["key_changed"] for it in items)
print(f"  --explain listing a co-metric: beside a significant key metric {ex_shown}/{k}, "
      f"in any phase {ex_strict}/{k} = {100 * ex_strict / k:.0f} %  (goal <= 5 %)")
det = 0
for i in range(1, ab + 1):
    hit = any(v["verdict"].lower() == "regression"
              for _, r, v in key_rows(f"{work}/ab-{i}.json"))
    det += hit
if ab:
    print(f"A/B (ext4 vs ext4:mount=sync, metadata:files=3000): regression detected in {det}/{ab}")
PY
