#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Stalls: an ffsb timed run on loop ext4 whose filesystem the test holds
# frozen (fsfreeze -f ... -u) three times for 400 ms must store exactly
# 3 stalls, each as long as the hold the test measured around its
# freeze and thaw (within 50 ms); the same run unfrozen stores 0.  The
# threshold is 300 ms so the 400 ms holds are stalls and a slow fsync
# on a busy machine is not.  The stall list is stored (3 rows, each
# within 50 ms of its hold, in order) and `fslab show` prints it, text
# and JSON; the completion series adds up to the phase's calls exactly.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
need_cmd fsfreeze
need_cmd jq
need_cmd mkfs.ext4
scratch_dir

q() { sqlite3 "$DB" "$@"; }
run_ffsb() { # TAG [freeze]
	local tag=$1 err=$SCRATCH/$1.err pid mnt t0 t1 i
	"$FSLAB" run --target ext4:size=512M --workload ffsb:time=5 \
		--repeat 1 --stall-ms 300 --db "$DB" --scratch "$SCRATCH" \
		--tag "$tag" --pause-before run >"$SCRATCH/$tag.out" 2>"$err" &
	pid=$!
	cleanup_add "kill -CONT $pid; kill $pid"
	if ! pause_wait "$err" $pid run; then
		not_ok "$tag: paused before the run phase" "$(tail -5 "$err")"
		return
	fi
	mnt=$(findmnt -rn -o TARGET | grep -F "$SCRATCH" | head -1)
	cleanup_add "fsfreeze -u '$mnt'"
	kill -CONT $pid
	: >"$SCRATCH/$tag.holds"
	if [ "${2:-}" = freeze ]; then
		sleep 0.8
		for i in 1 2 3; do
			t0=$(date +%s%N)
			fsfreeze -f "$mnt"
			sleep 0.4
			fsfreeze -u "$mnt"
			t1=$(date +%s%N)
			echo $(((t1 - t0) / 1000000)) >>"$SCRATCH/$tag.holds"
			sleep 0.6
		done
	fi
	wait $pid
	check "$tag: run exits 0" test $? -eq 0
}

run_ffsb t5120-frozen freeze
n=$(metric_int t5120-frozen run stalls)
[ "$n" = 3 ] && ok "3 holds of 400 ms: 3 stalls stored" ||
	not_ok "3 holds of 400 ms: 3 stalls stored" "got '$n'" \
		"$(grep stall "$SCRATCH/t5120-frozen.err")"
# Each stall printed with its length; each within 50 ms of its hold.
mapfile -t holds <"$SCRATCH/t5120-frozen.holds"
mapfile -t lens < <(sed -n 's/.*run: stall of \([0-9]*\) ms at.*/\1/p' \
	"$SCRATCH/t5120-frozen.err")
bad=""
for i in 0 1 2; do
	d=$(( ${lens[$i]:-0} - ${holds[$i]:-0} ))
	[ ${d#-} -le 50 ] || bad="$bad stall $i: ${lens[$i]:-none} ms vs hold ${holds[$i]:-?} ms;"
done
[ -z "$bad" ] && ok "each stall's length within 50 ms of its hold" ||
	not_ok "each stall's length within 50 ms of its hold" "$bad"
mx=$(metric t5120-frozen run stall_max_ms)
tot=$(metric t5120-frozen run stall_total_ms)
awk -v m="$mx" -v t="$tot" 'BEGIN { exit !(m >= 400 && t >= 1200 && t >= m) }' &&
	ok "stall_max_ms $mx and stall_total_ms $tot hold the holds" ||
	not_ok "stall_max_ms and stall_total_ms hold the holds" "max '$mx' total '$tot'"

# The stored list: 3 rows in order, each within 50 ms of its hold.
ph=$(q "select phase_id from $PHASES where tag = 't5120-frozen'
	and phase = 'run'")
mapfile -t rows < <(q "select start_ns, len_ns from stalls
	where phase_id = '$ph' order by seq" | tr '|' ' ')
bad="" prev_end=0
[ ${#rows[@]} = 3 ] || bad="${#rows[@]} rows;"
for i in 0 1 2; do
	read -r st ln <<<"${rows[$i]:-0 0}"
	d=$(( ln / 1000000 - ${holds[$i]:-0} ))
	[ ${d#-} -le 50 ] || bad="$bad row $i: $((ln / 1000000)) ms vs hold ${holds[$i]:-?} ms;"
	[ "$st" -ge "$prev_end" ] || bad="$bad row $i starts at $st ns, before $prev_end;"
	prev_end=$((st + ln))
done
[ -z "$bad" ] && ok "3 stall rows stored, each within 50 ms of its hold" ||
	not_ok "3 stall rows stored, each within 50 ms of its hold" "$bad"

# show prints them: "stalls: 3 (longest N ms): at S s N ms, ..."
"$FSLAB" show t5120-frozen --db "$DB" >"$SCRATCH/show.txt" 2>&1
line=$(grep '^phase run.* stalls:' "$SCRATCH/show.txt")
want="^phase run.* stalls: 3 \(longest [0-9]+ ms\): at [0-9.]+ s [0-9]+ ms, at [0-9.]+ s [0-9]+ ms, at [0-9.]+ s [0-9]+ ms$"
[[ $line =~ $want ]] && ok "show prints the 3 stalls" ||
	not_ok "show prints the 3 stalls" "got '$line'" \
		"$(grep -i stall "$SCRATCH/show.txt")"
grep -A1 '^phase run.* stalls:' "$SCRATCH/show.txt" | sed 's/^/# /'

# JSON: the same 3 lengths, and the series adds up to the completions
# exactly: ffsb's calls (its ops count transactions, several a call).
"$FSLAB" show t5120-frozen --db "$DB" --format json >"$SCRATCH/show.json"
run_json() { jq -r "[.. | objects | select(.name? == \"run\" and
	has(\"series\"))][0] | $1" "$SCRATCH/show.json"; }
mapfile -t jl < <(run_json '.stalls[].len_ms | floor')
bad=""
[ ${#jl[@]} = 3 ] || bad="${#jl[@]} stalls in the JSON;"
for i in 0 1 2; do
	d=$(( ${jl[$i]:-0} - ${holds[$i]:-0} ))
	[ ${d#-} -le 50 ] || bad="$bad stall $i: ${jl[$i]:-none} ms vs hold ${holds[$i]:-?} ms;"
done
[ -z "$bad" ] && ok "show --format json: 3 stalls, each within 50 ms of its hold" ||
	not_ok "show --format json: 3 stalls, each within 50 ms of its hold" "$bad"
ops=$(q "select cast(sum(value) as integer) from $METRICS
	where phase_id = '$ph' and name like '%.calls'")
sum=$(run_json '.series.counts | add')
tot=$(run_json '.series.total')
ivl=$(run_json '.series.interval_ms')
[ "$sum" = "$ops" ] && [ "$tot" = "$ops" ] && [ "$ivl" = 100 ] &&
	ok "series of 100 ms intervals adds up to the phase's $ops calls" ||
	not_ok "series of 100 ms intervals adds up to the phase's calls" \
		"sum '$sum' total '$tot' interval '$ivl' ops '$ops'"
# A hold of 400 ms empties 3 whole intervals at least, and 3 empty
# ones mean a gap over 300 ms, a stall: 3 such runs of zeros after the
# first completion (the series ends at the last one).
holes=$(run_json '.series.counts[]' | awk '$1 > 0 { if (z >= 3) n++;
	seen = 1; z = 0; next } seen { z++ } END { print n + 0 }')
[ "$holes" = 3 ] && ok "the series shows 3 runs of empty intervals" ||
	not_ok "the series shows 3 runs of empty intervals" "got '$holes'"

# Export and import carry the list and the series whole.
"$FSLAB" export t5120-frozen -o "$SCRATCH/x.json" --db "$DB" 2>"$SCRATCH/x.err" &&
	"$FSLAB" import "$SCRATCH/x.json" --db "$SCRATCH/y.db" 2>>"$SCRATCH/x.err"
sel="select group_concat(s.start_ns || ':' || s.len_ns, ' ') || '/' ||
	(select interval_ns || ':' || total || ':' || hex(counts) from series
	where phase_id = p.id) from phases p join stalls s on s.phase_id = p.id
	where p.name = 'run' group by p.id"
a=$(q "$sel") b=$(sqlite3 "$SCRATCH/y.db" "$sel")
[ -n "$a" ] && [ "$a" = "$b" ] && ok "export and import keep the stalls and the series" ||
	not_ok "export and import keep the stalls and the series" \
		"'${a:0:80}' vs '${b:0:80}'" "$(cat "$SCRATCH/x.err")"

run_ffsb t5120-thawed
n=$(metric_int t5120-thawed run stalls)
[ "$n" = 0 ] && ok "unfrozen: 0 stalls stored" ||
	not_ok "unfrozen: 0 stalls stored" "got '$n'" \
		"$(grep stall "$SCRATCH/t5120-thawed.err")"
# the report: each configuration's completion series and its stalls
"$FSLAB" report t5120-thawed t5120-frozen --db "$DB" -o "$SCRATCH/r.html" \
	>/dev/null 2>"$SCRATCH/r.err"
if python3 - "$SCRATCH/r.html" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
i = s.index("<h3>completions and stalls</h3>")
j = s.index("</ul>", i)
sec = s[i:j]
assert len(re.findall(r"<figure>\s*<svg", sec)) == 1, "one figure (run)"
items = re.findall(r"<li>([^<]*)</li>", sec)
assert len(items) == 2, items
assert ": 0 stalls over 1 repetition" in items[0], items
m = re.match(r".*: 3 stalls over 1 repetition: rep 1 at [0-9.]+ s (\d+) ms, "
             r"rep 1 at [0-9.]+ s (\d+) ms, rep 1 at [0-9.]+ s (\d+) ms$", items[1])
assert m and all(int(x) >= 300 for x in m.groups()), items[1]
PY
then ok "report: the run phase's series per configuration, 0 and 3 stalls listed"
else not_ok "report: the run phase's series per configuration, 0 and 3 stalls listed" "$(cat "$SCRATCH/r.err")"; fi

check "--stall-ms 0 is refused" bash -c \
	"! '$FSLAB' run --stall-ms 0 --target ext4 -w ffsb --no-store 2>/dev/null"
finish
