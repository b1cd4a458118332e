#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Co-metrics and `compare --explain` on loop targets: every phase gets
# vm./dev./proc./psi. co-metrics and, on ext4, jbd2. and ext4. ones;
# --co-metrics=none records none; ext2 (no journal, no statistics file)
# runs with the generic ones only, and --co-metrics=all says when the
# machine shows no CPU clock.  ext4 against data=journal on a metadata
# storm names a journal or write co-metric among the top three leads
# of the create phase (data=journal writes every file's data through
# the journal while ext4's delayed allocation writes nothing yet); an
# A/A lists nothing.  Nothing here asserts timings.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3 python3 mkfs.ext4 mkfs.ext2
scratch_dir

q() { sqlite3 "$DB" "$@"; }
run() { # TAG ARGS...: fslab run into $DB, ok/not_ok on its exit
	local tag=$1
	shift
	"$FSLAB" run --db "$DB" --scratch "$SCRATCH" --tag "$tag" -q "$@" \
		>"$SCRATCH/$tag.out" 2>"$SCRATCH/$tag.err"
	local rc=$?
	[ $rc -eq 0 ] && ok "$tag: run exits 0" ||
		not_ok "$tag: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/$tag.err")"
}
count() { # TAG NAME-LIKE: co-metric rows of that run
	q "select count(*) from $METRICS where tag = '$1' and name like '$2'"
}

check_exit "run: bad --co-metrics exits 2" 2 "$FSLAB" run --co-metrics=most \
	--db "$DB" --scratch "$SCRATCH"
check "compare --help mentions --explain" sh -c "'$FSLAB' compare --help | grep -q -- --explain"

wl=metadata:files=2000,size=16k
run dj -t ext4:size=1G -t 'ext4:size=1G,mount=data=journal,name=dj' -w $wl -n 3
for fam in vm. dev. proc. psi. jbd2. ext4.; do
	n=$(count dj "$fam%")
	[ "${n:-0}" -gt 0 ] && ok "dj: $fam co-metrics recorded ($n)" ||
		not_ok "dj: $fam co-metrics recorded" "none"
done
got=$(q "select distinct unit || ' ' || better from $METRICS where tag = 'dj' and name = 'vm.dirtied_B'")
[ "$got" = "B 0" ] && ok "co-metrics carry a unit and no direction" ||
	not_ok "co-metrics carry a unit and no direction" "got '$got'"
bad=$(q "select distinct name from $METRICS where tag = 'dj' and name like 'dev.%' and name in
	('dev.rd_ios', 'dev.wr_ios', 'dev.io_ticks_ms', 'dev.time_in_queue_ms')")
[ -z "$bad" ] && ok "raw counters are not stored" || not_ok "raw counters are not stored" "$bad"

"$FSLAB" compare dj --db "$DB" --explain --format json >"$SCRATCH/dj.json" 2>"$SCRATCH/dj.jerr"
top=$(python3 - "$SCRATCH/dj.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for it in d["explain"]["items"]:
    if it["configuration"] == "dj" and it["phase"] == "create":
        print(" ".join(l["metric"] for l in it["leads"][:3]))
EOF
)
if echo " $top " | grep -qE ' (jbd2\.[a-z_]*|ext4\.written_B|dev_write_[a-zA-Z]*|dev\.write_[a-z_]*|dev\.flushes|vm\.written_B|vm\.pgpgout_B) '; then
	ok "data=journal: a journal or write co-metric in the top three"
else
	not_ok "data=journal: a journal or write co-metric in the top three" "top three: '$top'" "$(head -c 3000 "$SCRATCH/dj.json")"
fi
"$FSLAB" compare dj --db "$DB" --explain >"$SCRATCH/dj.txt" 2>&1
grep -qE '^explain: (co-metrics that moved|no key metric changed)' "$SCRATCH/dj.txt" &&
	ok "compare --explain prints its section" ||
	not_ok "compare --explain prints its section" "$(tail -30 "$SCRATCH/dj.txt")"
if grep -q '^explain: co-metrics that moved' "$SCRATCH/dj.txt"; then
	long=$(awk '/^explain:/ { on = 1; next } /^method:/ { on = 0 } on && /^ +[0-9]+\. / && !/q=/' "$SCRATCH/dj.txt")
	[ -z "$long" ] && ok "every lead has its change and q" || not_ok "every lead has its change and q" "$long"
fi
"$FSLAB" compare dj --db "$DB" --explain --format csv >"$SCRATCH/dj.csv" 2>&1
head -1 "$SCRATCH/dj.csv" | grep -q '^workload,name,configuration,baseline,phase,key_changed,rank,metric,unit' &&
	ok "compare --explain --format csv: one row per lead" ||
	not_ok "compare --explain --format csv: one row per lead" "$(head -3 "$SCRATCH/dj.csv")"

# A/A: nothing claimed
run aa -t ext4:size=1G -t 'ext4:size=1G,name=again' -w $wl -n 3
"$FSLAB" compare aa --db "$DB" --explain >"$SCRATCH/aa.txt" 2>&1
leads=$(awk '/^explain:/ { on = 1; next } /^method:/ { on = 0 } on && /^ +[0-9]+\. /' "$SCRATCH/aa.txt")
[ -z "$leads" ] && ok "A/A: --explain lists nothing" ||
	not_ok "A/A: --explain lists nothing" "$leads"

# --co-metrics=none records none
run none -t ext4:size=1G -w metadata:files=200,size=1k --co-metrics=none
n=$(q "select count(*) from $METRICS where tag = 'none' and (name like 'vm.%' or name like 'dev.%'
	or name like 'proc.%' or name like 'psi.%' or name like 'jbd2.%' or name like 'ext4.%' or name like 'cpu.%')")
[ "$n" = 0 ] && ok "--co-metrics=none: no co-metric stored" || not_ok "--co-metrics=none: no co-metric stored" "$n rows"
n=$(count none 'files/s')
[ "${n:-0}" -gt 0 ] && ok "--co-metrics=none: the phase's own metrics still stored" ||
	not_ok "--co-metrics=none: the phase's own metrics still stored"

# ext2: no journal, no statistics file: generic co-metrics only
run e2 -t ext2:size=1G -w metadata:files=200,size=1k --co-metrics=all
n=$(count e2 'vm.%')
[ "${n:-0}" -gt 0 ] && ok "ext2: generic co-metrics recorded" || not_ok "ext2: generic co-metrics recorded"
n=$(q "select count(*) from $METRICS where tag = 'e2' and (name like 'jbd2.%' or name like 'ext4.%'
	or name like 'xfs.%' or name like 'btrfs.%')")
[ "$n" = 0 ] && ok "ext2: no filesystem co-metric" || not_ok "ext2: no filesystem co-metric" "$n rows"
if [ -r /sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq ]; then
	n=$(count e2 'cpu.freq_MHz')
	[ "${n:-0}" -gt 0 ] && ok "--co-metrics=all: cpu.freq_MHz recorded" ||
		not_ok "--co-metrics=all: cpu.freq_MHz recorded"
else
	grep -q "shows no CPU clock" "$SCRATCH/e2.err" && [ "$(count e2 'cpu.%')" = 0 ] &&
		ok "--co-metrics=all without cpufreq: a note, no metric" ||
		not_ok "--co-metrics=all without cpufreq: a note, no metric" "$(cat "$SCRATCH/e2.err")"
fi

nothing_left_under "$SCRATCH" && ok "nothing left mounted or attached" ||
	not_ok "nothing left mounted or attached"
finish
