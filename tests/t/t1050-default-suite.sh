#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The default suite (`fslab run` with no arguments, README "The two
# commands"): FFSB's fsync-bound mail profile, three repetitions each on
# a fresh ext4, whose phases pass the setup checks that do not depend on
# the machine's speed (the device saw the writes, every judged phase is
# long enough, enough repetitions for a verdict), a one-line-per-check
# brief, the run's resolution as a note (no change was named), and the
# next commands.  Whether the phase is CPU-bound depends on the disk's
# speed, so that check is not asserted here (the closing note of the
# change that made this suite gives the figures measured).
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd mkfs.ext4
need_cmd sqlite3
scratch_dir

q() { sqlite3 "$DB" "$1"; }
out=$("$FSLAB" run --db "$DB" --scratch "$SCRATCH" -q 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "fslab run with no arguments: exit 0" ||
	not_ok "fslab run with no arguments: exit 0" "exit $rc" "$(tail -20 <<<"$out")"
r=$(q "select max(id) from runs")
[ "$(q "select group_concat(workload || ':' || options || '@' || rep, ' ') from wlruns where run_id = $r")" = \
	"$(printf 'ffsb:profile=,time=10,seed=run@%d ' 0 1 2 | sed 's/ $//')" ] &&
	ok "three repetitions of ffsb:time=10" ||
	not_ok "three repetitions of ffsb:time=10" "$(q "select workload, options, rep from wlruns where run_id = $r")"
[ "$(q "select count(distinct id) || ' ' || count(distinct idx) || ' ' || group_concat(distinct fstype) from targets where run_id = $r")" = "3 1 ext4" ] &&
	ok "one ext4 target, made fresh for each repetition" ||
	not_ok "one ext4 target, made fresh for each repetition" "$(q "select id, idx, rep, fstype from targets where run_id = $r")"
grep -qE '^ext4 +ffsb +run +3 +1[0-9]\.[0-9]+ ' <<<"$out" &&
	ok "the table: the timed phase, n = 3, about 10 s" ||
	not_ok "the table: the timed phase, n = 3, about 10 s" "$(grep ffsb <<<"$out")"

brief=$(sed -n '/^setup check:/,/^  checked /p' <<<"$out")
[ -n "$brief" ] && ok "the run ends with the setup check" || not_ok "the run ends with the setup check" "$(tail -12 <<<"$out")"
dup=$(grep -E '^  (warning|invalid|note) ' <<<"$brief" | awk '{ print $1, $2 }' | sed 's/:$//' | sort | uniq -d)
[ -z "$dup" ] && ok "one line per check and level" || not_ok "one line per check and level" "$dup" "$brief"
bad=$(grep -E '^  (warning|invalid) +(cache-fit|cold-cache|short-phase|repetitions|warm-up|memfs|loop-cache)' <<<"$brief")
[ -z "$bad" ] && ok "no warning the suite's design could cause (cache, length, repetitions)" ||
	not_ok "no warning the suite's design could cause (cache, length, repetitions)" "$bad"
grep -qE '^  note +repetitions: ext4 ffsb: run/transactions/s varies by CoV [0-9.]+ % over 3 repetitions: comparing two such runs sees changes above [0-9.]+ % \(mdc\)' <<<"$brief" &&
	ok "the resolution is a note: no change was named" ||
	not_ok "the resolution is a note: no change was named" "$brief"
[ "$(grep -c 'cpu-governor' <<<"$out")" -le 1 ] && ok "a check the machine cannot answer is named once" ||
	not_ok "a check the machine cannot answer is named once" "$(grep cpu-governor <<<"$out")"
[ "$(q "select count(*) from run_facts where run_id = $r and scope = 'plan'")" -eq 0 ] &&
	ok "no planned change recorded" || not_ok "no planned change recorded" "$(q "select * from run_facts where run_id = $r and scope = 'plan'")"

next=$(sed -n '/^next:$/,$p' <<<"$out")
grep -q "^  fslab check $r --db $DB " <<<"$next" &&
	grep -q "^  fslab compare $r OTHER --db $DB " <<<"$next" &&
	grep -q "^  fslab report $r OTHER --db $DB -o report.html " <<<"$next" &&
	ok "next: check, compare and report, with this run's id and store" ||
	not_ok "next: check, compare and report, with this run's id and store" "$next"

# Naming a change makes the resolution a warning when it cannot be seen:
# no three repetitions on any machine resolve 0.01 %.
out=$("$FSLAB" check "$r" --db "$DB" --min-change 0.01 2>&1)
grep -qE '^  warning +repetitions: ext4 ffsb: .*not the 0\.0 % asked for' <<<"$out" &&
	ok "check --min-change 0.01: a warning" || not_ok "check --min-change 0.01: a warning" "$out"
"$FSLAB" run --help 2>&1 | tr -s ' \n' ' ' | grep -q 'default suite: ffsb:time=10' &&
	ok "run --help names the default suite" || not_ok "run --help names the default suite"
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" || not_ok "no mount or loop device left"
finish
