#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run --until decided: a huge regression (ext4 against ext4 mounted
# sync, on small metadata storms) stops at the first look; an A/A with a
# wide margin stops "equivalent"; an A/A with a margin no noise can meet
# runs to the cap and says "undecided"; Ctrl-C keeps the repetitions
# and the decision of the last complete look.  Effects are chosen huge
# and caps generous, so no assertion depends on the machine's speed.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd mkfs.ext4
need_cmd sqlite3
scratch_dir

q() { sqlite3 "$DB" "$1"; }
run_of() { q "select id from runs where tag = '$1' order by id desc limit 1"; }

# 1. A regression of ~100x: a synchronous mount turns every create and
# unlink into a disk write.  Cached stats stay far below --min-wall
# (too short to judge), so create and unlink form the family.
plain="ext4:size=128M,name=plain"
sync="ext4:size=128M,mount=sync,name=sync"
wl="metadata:files=100,cold=no"
out=$("$FSLAB" run -t "$plain" -t "$sync" -w "$wl" --until decided \
	--max-repeat 8 --db "$DB" --scratch "$SCRATCH" --tag reg -q 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "--until decided on a regression: exit 0" || not_ok "--until decided on a regression: exit 0" "exit $rc" "$(tail -20 <<<"$out")"
r=$(run_of reg)
[ "$(q "select decision || ' ' || decision_reps from runs where id = $r")" = "decided 3" ] &&
	ok "stops at the first look (3 repetitions), decided" ||
	not_ok "stops at the first look (3 repetitions), decided" "$(q "select decision, decision_reps from runs where id = $r")" "$(grep -A5 '^until decided' <<<"$out")"
[ "$(q "select count(*) from wlruns where run_id = $r")" -eq 6 ] &&
	ok "three repetitions of each target ran" || not_ok "three repetitions of each target ran" "$(q "select count(*) from wlruns where run_id = $r")"
# Which of create and unlink the family holds depends on the disk: a
# phase whose mean wall time is under the 50 ms of --min-wall in both
# configurations is too short to judge (a fast disk can sync 100 files
# in less).  The expectation is read from the stored wall times, so the
# test holds on any machine; at least one of the two must be judged.
family=$(q "select p.name from phases p join wlruns w on w.id = p.wlrun_id
	join targets t on t.id = w.target_id where w.run_id = $r
	and p.name in ('create', 'unlink') group by p.name, t.name
	having avg(p.wall_ns) >= 50e6" | sort -u)
want=$(for p in $family; do echo "$p=REGRESSION@3"; done)
got=$(q "select phase || '=' || verdict || '@' || reps from decisions where run_id = $r and label = 'sync' order by phase")
[ -n "$family" ] && [ "$got" = "$want" ] &&
	ok "create and unlink: REGRESSION, decided at 3 (family: $(echo $family))" ||
	not_ok "create and unlink: REGRESSION, decided at 3" "got '$got', want '$want'"
first=$(echo $family | cut -d' ' -f1)
grep -q '^until decided: decided (3 repetitions)' <<<"$out" &&
	grep -qE "${first:-create} files/s, sync vs baseline: REGRESSION -[0-9.]+%.* at 3" <<<"$out" &&
	ok "the run's summary says so" || not_ok "the run's summary says so" "$(grep -A4 '^until decided' <<<"$out")"
out=$("$FSLAB" show reg --db "$DB" 2>&1)
grep -q '^until decided: decided (3 repetitions)' <<<"$out" && ok "show: the decision" ||
	not_ok "show: the decision" "$(tail -8 <<<"$out")"
if "$FSLAB" show reg --db "$DB" --format json | python3 -c '
import json, sys
u = json.load(sys.stdin)["run"]["until"]
assert u["rule"] == "decided" and u["decision"] == "decided", u
assert u["repetitions"] == 3, u
v = {c["phase"]: (c["verdict"], c["decided_at"]) for c in u["comparisons"]}
want = sys.argv[1].split()
assert want and sorted(v) == sorted(want), (v, want)
assert all(v[p] == ("REGRESSION", 3) for p in want), v
' "$family"; then ok "JSON: until.decision, repetitions and each verdict"
else not_ok "JSON: until.decision, repetitions and each verdict"; fi

# 2. A/A with a 20 % margin: "equivalent" once every interval fits.
# On a machine too noisy for 20 % in 8 repetitions (other jobs sharing
# it) the test checks instead that "undecided" was honest: no interval
# that fits was left undecided.
a="ext4:size=128M,name=a"
b="ext4:size=128M,name=b"
aa="metadata:files=5000,cold=no"
out=$("$FSLAB" run -t "$a" -t "$b" -w "$aa" --until decided --min-change 20 \
	--max-repeat 8 --db "$DB" --scratch "$SCRATCH" --tag eq -q 2>&1)
rc=$?
r=$(run_of eq)
dec=$(q "select decision from runs where id = $r")
diff=$(q "select count(*) from decisions where run_id = $r and verdict in ('REGRESSION', 'improvement')")
if [ $rc -eq 0 ] && [ "$dec" = decided ] && [ "$diff" -eq 0 ] &&
	[ "$(q "select count(*) from decisions where run_id = $r and verdict = 'equivalent'")" -ge 1 ]; then
	ok "A/A --min-change 20: stops equivalent after $(q "select decision_reps from runs where id = $r") repetitions"
elif [ $rc -eq 0 ] && [ "${dec#undecided at 8}" != "$dec" ] && [ "$diff" -eq 0 ] &&
	[ "$(q "select count(*) from decisions where run_id = $r and verdict = 'undecided' and lo_pct > -20 and hi_pct < 20")" -eq 0 ]; then
	ok "A/A --min-change 20: equivalent # SKIP too noisy here for 20 % in 8 repetitions ($dec)"
else
	not_ok "A/A --min-change 20: stops equivalent" "exit $rc, '$dec', $diff different" "$(grep -A6 '^until decided' <<<"$out")"
fi

# 3. A/A with a 0.5 % margin: no sample of 4 fits +-0.5 %: the cap.
out=$("$FSLAB" run -t "$a" -t "$b" -w "$aa" --until decided --min-change 0.5 \
	--alpha 0.01 --max-repeat 4 --db "$DB" --scratch "$SCRATCH" --tag cap -q 2>&1)
rc=$?
r=$(run_of cap)
dec=$(q "select decision from runs where id = $r")
[ $rc -eq 0 ] && [[ $dec == "undecided at 4: mdc "*" %" ]] &&
	[ "$(q "select decision_reps from runs where id = $r")" -eq 4 ] &&
	[ "$(q "select count(*) from wlruns where run_id = $r")" -eq 8 ] &&
	ok "A/A --min-change 0.5: hits the cap, undecided ($dec)" ||
	not_ok "A/A --min-change 0.5: hits the cap, undecided" "exit $rc, '$dec'" "$(grep -A6 '^until decided' <<<"$out")"
grep -qE '^until decided: undecided at 4: mdc [0-9.]+ % \(4 repetitions\)' <<<"$out" &&
	ok "the summary says undecided at 4 with the mdc" || not_ok "the summary says undecided at 4 with the mdc" "$(grep -A3 '^until decided' <<<"$out")"

# 4. Ctrl-C in the fourth repetition: three complete repetitions and
# the look after them stay.  Held before its 7th unlink (the 4th
# repetition's first), so the signal lands at a known point.
"$FSLAB" run -t "$a" -t "$b" -w "$aa" --until decided --min-change 0.5 \
	--max-repeat 6 --db "$DB" --scratch "$SCRATCH" --tag int \
	--pause-before unlink -q >"$SCRATCH/int.out" 2>"$SCRATCH/int.err" &
pid=$!
cleanup_add "kill -9 $pid"
sent=1
for i in 1 2 3 4 5 6; do
	pause_wait "$SCRATCH/int.err" $pid unlink $i && kill -CONT $pid || { sent=0; break; }
done
if [ $sent -eq 1 ] && pause_wait "$SCRATCH/int.err" $pid unlink 7 &&
	kill -INT $pid && kill -CONT $pid; then
	ok "SIGINT sent in the 4th repetition"
else
	not_ok "SIGINT sent in the 4th repetition" "$(tail -5 "$SCRATCH/int.err")"
	kill -9 $pid 2>/dev/null
fi
wait $pid
rc=$?
[ $rc -eq 130 ] && ok "interrupted: exit 130" || not_ok "interrupted: exit 130" "exit $rc"
r=$(run_of int)
[ "$(q "select status from runs where id = $r")" = incomplete ] &&
	ok "the run is stored incomplete" || not_ok "the run is stored incomplete" "$(q "select status from runs where id = $r")"
[ "$(q "select count(*) from wlruns where run_id = $r and status = 'complete'")" -eq 6 ] &&
	ok "the 3 complete repetitions are kept" || not_ok "the 3 complete repetitions are kept" "$(q "select status, count(*) from wlruns where run_id = $r group by status")"
dec=$(q "select decision || '|' || decision_reps from runs where id = $r")
[[ $dec == "undecided at 3"*"|3" ]] && [ "$(q "select count(*) from decisions where run_id = $r")" -ge 1 ] &&
	ok "the decision state after the 3rd repetition is kept ($dec)" ||
	not_ok "the decision state after the 3rd repetition is kept" "'$dec'"
out=$("$FSLAB" show int --db "$DB" 2>&1)
grep -q '^until decided: undecided at 3' <<<"$out" && ok "show: the last complete look" ||
	not_ok "show: the last complete look" "$(tail -8 <<<"$out")"

# plan from a stored pilot: the reg run's spread.
out=$("$FSLAB" plan reg --change 50 --sims 200 --db "$DB" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -qE '^metadata +create +files/s +sync +3 ' <<<"$out" &&
	grep -q '^fixed design: ' <<<"$out" &&
	grep -qE '^--until decided \(simulated: 200 sequences, seed 555, .*mean [0-9.]+ repetitions' <<<"$out" &&
	ok "plan: fixed and sequential repetitions from a pilot" || not_ok "plan: fixed and sequential repetitions from a pilot" "exit $rc" "$out"
# a 2x sigma: 25 a side in the unit test's independent simulation
grep -qE "^a change of spread \(compare's Brown-Forsythe, simulated\): a 2x sigma is seen at 80 % with 2[2-8] repetitions a side" <<<"$out" &&
	ok "plan: the power of the variance test is stated" || not_ok "plan: the power of the variance test is stated" "$out"
check_exit "plan without --change: usage error" 2 "$FSLAB" plan reg --db "$DB"

# Usage: what --until decided refuses.
check_exit "--until decided with one target: usage error" 2 \
	"$FSLAB" run -t "$a" -w "$aa" --until decided --no-store --scratch "$SCRATCH"
check_exit "--until decided with --repeat: usage error" 2 \
	"$FSLAB" run -t "$a" -t "$b" -w "$aa" --until decided --repeat 3 --no-store --scratch "$SCRATCH"
check_exit "--until decided with --order blocked: usage error" 2 \
	"$FSLAB" run -t "$a" -t "$b" -w "$aa" --until decided --order blocked --no-store --scratch "$SCRATCH"
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
