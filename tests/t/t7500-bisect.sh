#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab bisect --axis targets:FILE: eight ext4 steps, the last four
# mounted sync, a small create storm whose files/s sync cuts by orders
# of magnitude.  The bisection must name step 5 with P >= 0.95, every
# run it used must be in the store tagged TAG:step=K, bad input must be
# refused before any run, and a bisection cut short (by its budget, by
# SIGINT) must go on with --resume keeping every completed run.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3 mkfs.ext4
scratch_dir

q() { sqlite3 "$DB" "$@"; }
# runs TAG [STATUS]: stored runs of bisection TAG (with that status)
runs() {
	q "select count(*) from runs where tag like '$1:step=%'${2:+ and status = '$2'}"
}
WL="metadata:files=300,size=1k,threads=1,dirs=1"
AXIS=$SCRATCH/axis
{
	echo "# ext4 as it was, then the change"
	for i in 1 2 3 4; do echo ext4; done
	echo
	for i in 5 6 7 8; do echo "ext4:mount=sync"; done
} >"$AXIS"
bisect() { "$FSLAB" bisect --db "$DB" --scratch "$SCRATCH" "$@"; }

# ---- refused input: exit 2, a clear reason, no run ----
echo ext4 >"$SCRATCH/one"
refuse() {
	local desc=$1 want=$2 out rc
	shift 2
	out=$(bisect "$@" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$want" <<<"$out"; then ok "$desc"
	else not_ok "$desc" "exit $rc, wanted 2 and '$want'" "$out"; fi
}
refuse "missing axis file refused" "cannot read" \
	--axis "targets:$SCRATCH/nosuch" -w "$WL" --metric create/files/s
refuse "one-line axis file refused" "needs two or more" \
	--axis "targets:$SCRATCH/one" -w "$WL" --metric create/files/s
refuse "axis of another kind refused" "targets:FILE" \
	--axis "kernels:$AXIS" -w "$WL" --metric create/files/s
printf 'ext4\next4:sze=1G\n' >"$SCRATCH/badspec"
refuse "bad target line refused with its line" "badspec:2: bad target" \
	--axis "targets:$SCRATCH/badspec" -w "$WL" --metric create/files/s
refuse "unknown phase of --metric refused" "no phase 'nosuch'" \
	--axis "targets:$AXIS" -w "$WL" --metric nosuch/files/s
refuse "--metric without a phase refused" "PHASE/METRIC" \
	--axis "targets:$AXIS" -w "$WL" --metric files
refuse "--good after --bad refused" "must come before" \
	--axis "targets:$AXIS" -w "$WL" --metric create/files/s --good 5 --bad 3
refuse "--good equal to --bad refused" "must come before" \
	--axis "targets:$AXIS" -w "$WL" --metric create/files/s --good 4 --bad 4
refuse "--bad past the file refused" "has 8 steps" \
	--axis "targets:$AXIS" -w "$WL" --metric create/files/s --bad 9
refuse "--resume of an unknown bisection refused" "no bisection 'nosuch'" \
	--resume nosuch
[ "$(q "select count(*) from runs" 2>/dev/null || echo 0)" = 0 ] &&
	ok "no run made by refused input" ||
	not_ok "no run made by refused input" "$(q "select id, tag from runs")"
# a metric the phase does not have is known only once a run has it
refuse "unknown metric of a known phase refused after one run" \
	"has no metric 'bogus/s'" \
	--axis "targets:$AXIS" -w "$WL" --metric create/bogus/s --tag t7500-bogus

# ---- the same target at both ends: nothing to bisect ----
# Alternating runs of one target differ only by noise; the ends' test
# (level 0.01) must not call them different, so after 20 runs each the
# bisection refuses (or earlier, should their spread be under 2 %).
printf 'ext4\next4\next4\n' >"$SCRATCH/axis-same"
out=$SCRATCH/same.out
bisect --axis "targets:$SCRATCH/axis-same" -w "$WL" --metric create/files/s \
	--tag t7500e >"$out" 2>&1
rc=$?
n=$(runs t7500e)
[ $rc -eq 4 ] && grep -Eq '^good and bad are (equivalent within .* %|not shown to differ after 20 runs each .*): nothing to bisect' "$out" &&
	[ "$n" -le 40 ] && [ "$(q "select count(*) from runs where tag = 't7500e:step=2'")" = 0 ] &&
	ok "identical ends: nothing to bisect after $n runs (exit 4)" ||
	not_ok "identical ends: nothing to bisect (exit 4)" "exit $rc, $n runs" "$(cat "$out")"

# ---- the bisection ----
# culprit_ok DESC OUT RC TAG: exit 0, step 5, P >= 0.95, and the runs it
# says it used are the tag's stored runs, all complete
culprit_ok() {
	local desc=$1 out=$2 rc=$3 tag=$4 line p used
	line=$(grep '^culprit: ' "$out")
	p=$(sed -n 's/.*: P = \([0-9.]*\) after.*/\1/p' <<<"$line")
	used=$(sed -n 's/.* after \([0-9]*\) runs$/\1/p' <<<"$line")
	if [ "$rc" -eq 0 ] && grep -q '^culprit: step 5 (ext4:mount=sync)' <<<"$line" &&
		num_ge "${p:-0}" 0.95; then
		ok "$desc: step 5 found, P = $p after $used runs"
	else not_ok "$desc: step 5 found with P >= 0.95" "exit $rc" "$(cat "$out")"; fi
	[ -n "$used" ] && [ "$(runs "$tag")" = "$used" ] &&
		[ "$(runs "$tag" complete)" = "$used" ] &&
		ok "$desc: its $used runs are stored, complete, tagged $tag:step=K" ||
		not_ok "$desc: its runs are stored" "stored $(runs "$tag"), said $used"
}
out=$SCRATCH/main.out
bisect --axis "targets:$AXIS" -w "$WL" --metric create/files/s --tag t7500 \
	--budget 40 >"$out" 2>"$SCRATCH/main.err"
culprit_ok "bisection" "$out" $? t7500
grep -q '^good (step 1) and bad (step 8) differ' "$out" &&
	ok "the ends were tested first" || not_ok "the ends were tested first" "$(cat "$out")"
ends=$(q "select count(*) from runs r join run_facts f on f.run_id = r.id
	where r.tag in ('t7500:step=1', 't7500:step=8')
	and f.scope = 'bisect' and f.key = 'bisect.metric' and f.value = 'create/files/s'")
[ "${ends:-0}" -ge 6 ] && ok "at least 3 runs of each end, with the bisection's facts" ||
	not_ok "at least 3 runs of each end, with the bisection's facts" "got $ends"
lines=$(grep -c '^step [0-9]* (.*): create/files/s = [0-9.e+]*' "$out")
[ "$lines" = "$(runs t7500)" ] && ok "one line per measurement" ||
	not_ok "one line per measurement" "$lines lines, $(runs t7500) runs" "$(cat "$out")"
"$FSLAB" compare --db "$DB" t7500:step=4 t7500:step=5 >"$SCRATCH/cmp.out" 2>&1 &&
	grep -q 't7500:step=5' "$SCRATCH/cmp.out" &&
	ok "compare reads the steps' runs by tag" ||
	not_ok "compare reads the steps' runs by tag" "$(cat "$SCRATCH/cmp.out")"
refuse "a used tag refused" "exists in" \
	--axis "targets:$AXIS" -w "$WL" --metric create/files/s --tag t7500

# ---- cut short by the budget, then resumed ----
out=$SCRATCH/budget.out
bisect --axis "targets:$AXIS" -w "$WL" --metric create/files/s --tag t7500b \
	--budget 4 >"$out" 2>&1
rc=$?
[ $rc -eq 4 ] && grep -q 'fslab bisect --resume t7500b' "$out" &&
	[ "$(runs t7500b complete)" = 4 ] &&
	ok "budget 4: exit 4, 4 runs stored, resume told" ||
	not_ok "budget 4: exit 4, 4 runs stored, resume told" "exit $rc, $(runs t7500b) runs" "$(cat "$out")"
first=$(q "select group_concat(id) from runs where tag like 't7500b:step=%' order by id")
out=$SCRATCH/resume.out
bisect --resume t7500b --budget 40 >"$out" 2>&1
culprit_ok "resumed after the budget" "$out" $? t7500b
grep -q '^resuming bisection t7500b: .* 4 stored runs' "$out" &&
	[ "$(grep -c '\[run [0-9]*, stored\]' "$out")" = 4 ] &&
	ok "resume reloaded the 4 stored runs" || not_ok "resume reloaded the 4 stored runs" "$(cat "$out")"
kept=$(q "select count(*) from runs where id in ($first)")
[ "$kept" = 4 ] && ok "the first session's runs are kept" ||
	not_ok "the first session's runs are kept" "$kept of 4"

# ---- interrupted by SIGINT, then resumed ----
out=$SCRATCH/int.out
# fslab itself, not a subshell running the function, gets the signal
"$FSLAB" bisect --db "$DB" --scratch "$SCRATCH" --axis "targets:$AXIS" \
	-w "$WL" --metric create/files/s --tag t7500i --budget 40 \
	>"$out" 2>"$SCRATCH/int.err" &
pid=$!
deadline=$((SECONDS + 300))
while [ "$(runs t7500i complete 2>/dev/null || echo 0)" -lt 3 ] &&
	kill -0 $pid 2>/dev/null && [ $SECONDS -lt $deadline ]; do
	sleep 0.05
done
kill -INT $pid
wait $pid
rc=$?
done_runs=$(runs t7500i complete)
[ $rc -eq 130 ] && grep -q 'fslab bisect --resume t7500i' "$out" &&
	[ "$done_runs" -ge 3 ] &&
	ok "SIGINT: exit 130, $done_runs completed runs kept, resume told" ||
	not_ok "SIGINT: exit 130, completed runs kept, resume told" "exit $rc, $done_runs runs" \
		"$(cat "$out" "$SCRATCH/int.err")"
nothing_left_under "$SCRATCH" && ok "SIGINT: nothing left mounted" ||
	not_ok "SIGINT: nothing left mounted" "$(grep "$SCRATCH" /proc/mounts)"
out=$SCRATCH/int-resume.out
bisect --resume t7500i >"$out" 2>&1
rc=$?
grep -q "^resuming bisection t7500i: .* $done_runs stored runs" "$out" &&
	ok "resume after SIGINT reloaded the completed runs" ||
	not_ok "resume after SIGINT reloaded the completed runs" "$(cat "$out")"
# an interrupted run is stored "incomplete" and is no measurement
line=$(grep '^culprit: ' "$out")
used=$(sed -n 's/.* after \([0-9]*\) runs$/\1/p' <<<"$line")
if [ $rc -eq 0 ] && grep -q '^culprit: step 5 ' <<<"$line" &&
	[ "$used" = "$(runs t7500i complete)" ] && [ "$used" -gt "$done_runs" ]; then
	ok "resumed after SIGINT: step 5 after $used runs, $done_runs of them from before"
else not_ok "resumed after SIGINT: step 5" "exit $rc, used '$used', stored $(runs t7500i complete)" "$(cat "$out")"; fi

# ---- a step that cannot be measured is skipped ----
# The mount refuses the option: the run fails after pre-flight.  Step 3
# of the eight fails; whether the bisection needs it depends on the
# draws, but once tried it must be skipped, never tried again.
sed '4s/.*/ext4:mount=nosuchopt/' "$AXIS" >"$SCRATCH/axis-skip"
out=$SCRATCH/skip.out
bisect --axis "targets:$SCRATCH/axis-skip" -w "$WL" --metric create/files/s \
	--tag t7500s --budget 40 >"$out" 2>"$SCRATCH/skip.err"
rc=$?
tried=$(grep -c '^step 3 (ext4:mount=nosuchopt)' "$out")
skipped=$(grep -c '^step 3 (ext4:mount=nosuchopt): run [0-9]* failed: skipped' "$out")
[ $rc -eq 0 ] && grep -q '^culprit: step 5 (ext4:mount=sync)' "$out" &&
	[ "$tried" -le 1 ] && [ "$skipped" = "$tried" ] &&
	[ "$(runs t7500s failed)" = "$tried" ] &&
	ok "step 5 found past a failing step 3 (tried $tried time(s), skipped)" ||
	not_ok "step 5 found past a failing step 3" "exit $rc, tried $tried, skipped $skipped" "$(cat "$out")"
# With one step between the ends, and that one failing, the bisection
# can only skip it and go on measuring until the budget is spent.
printf 'ext4\next4:mount=nosuchopt\next4:mount=sync\n' >"$SCRATCH/axis-3"
out=$SCRATCH/skip3.out
bisect --axis "targets:$SCRATCH/axis-3" -w "$WL" --metric create/files/s \
	--tag t7500t --budget 9 >"$out" 2>"$SCRATCH/skip3.err"
rc=$?
if [ $rc -eq 4 ] &&
	grep -q '^step 2 (ext4:mount=nosuchopt): run [0-9]* failed: skipped' "$out" &&
	[ "$(grep -c '^step 2 ' "$out")" = 1 ] &&
	grep -q '^no culprit with P >= 0.950 within the budget' "$out" &&
	[ "$(runs t7500t)" = 9 ] && [ "$(runs t7500t failed)" = 1 ]; then
	ok "the only middle step failing: skipped once, said so, budget spent (exit 4)"
else not_ok "the only middle step failing: skipped, budget spent" "exit $rc" "$(cat "$out")"; fi

nothing_left_under "$SCRATCH" && ok "nothing left mounted at the end" ||
	not_ok "nothing left mounted at the end" "$(grep "$SCRATCH" /proc/mounts)"
check_metric_names
finish
