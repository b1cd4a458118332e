#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Repetitions: interleaved in a counterbalanced order by default (each
# target leads equally often: A B, B A), fixed (A B A B) or blocked on
# request, a
# fresh filesystem per repetition unless --reuse, and --until-cov adding
# repetitions until the key figure settles, up to --max-repeat.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_root
need_cmd sqlite3
scratch_dir
have_cbdata || _need "compilebench data sets at $CBDATA"
make_small_cbdata "$SCRATCH/cbdata"
mkdir -p "$SCRATCH/a" "$SCRATCH/b"
wl="compilebench:initial-dirs=1,runs=3,sources=$SCRATCH/cbdata"
A="dir:$SCRATCH/a:name=A"
B="dir:$SCRATCH/b:name=B"

order() { # the sequence of target names as they were built
	sqlite3 "$DB" "select group_concat(name, ' ') from (select t.name from targets t join runs r on t.run_id = r.id where r.tag = '$1' order by t.id)"
}
reps() { # workload runs stored for a tag
	sqlite3 "$DB" "select count(*) from wlruns w join runs r on w.run_id = r.id where r.tag = '$1'"
}

out=$("$FSLAB" run -t "$A" -t "$B" -w "$wl" --repeat 2 --db "$DB" --tag il 2>&1) &&
	ok "interleaved run" || not_ok "interleaved run" "$out"
# initial-dirs + runs create several trees a repetition: the summary's
# n counts repetitions (2), not phase instances
grep -qE '^A +compilebench +create +2 ' <<<"$out" &&
	ok "summary: n = repetitions" || not_ok "summary: n = repetitions" "$(grep -E '^A +compilebench' <<<"$out")"
o=$(order il)
[ "$o" = "A B B A" ] || [ "$o" = "B A A B" ] && ok "default order interleaves targets, each leading once" ||
	not_ok "default order interleaves targets, each leading once" "got '$o'"
check "fixed-order run" "$FSLAB" run -t "$A" -t "$B" -w "$wl" --repeat 2 --order fixed --db "$DB" --tag fx
o=$(order fx)
[ "$o" = "A B A B" ] && ok "--order fixed: A B A B" || not_ok "--order fixed: A B A B" "got '$o'"

check "blocked run" "$FSLAB" run -t "$A" -t "$B" -w "$wl" --repeat 2 --order blocked --db "$DB" --tag bl
o=$(order bl)
[ "$o" = "A A B B" ] && ok "--order blocked runs each target's reps together" || not_ok "--order blocked" "got '$o'"

check "reuse run" "$FSLAB" run -t "$A" -t "$B" -w "$wl" --repeat 3 --reuse --db "$DB" --tag ru
o=$(order ru)
n=$(reps ru)
[ "$o" = "A B" ] && [ "$n" -eq 6 ] && ok "--reuse builds each target once for all reps" ||
	not_ok "--reuse builds each target once for all reps" "targets '$o', wlruns $n"
d=$(sqlite3 "$DB" "select count(distinct w.target_id) from wlruns w join runs r on w.run_id = r.id where r.tag = 'ru'")
[ "$d" -eq 2 ] && ok "--reuse: reps share their target row" || not_ok "--reuse: reps share their target row" "$d"

out=$("$FSLAB" run -t "$A" -w "$wl" --repeat 2 --until-cov 1000 --db "$DB" --tag uc1 2>&1)
n=$(reps uc1)
[ "$n" -eq 2 ] && [[ $out == *"A settled at CoV"* ]] && ok "--until-cov stops as soon as it settles" ||
	not_ok "--until-cov stops as soon as it settles" "wlruns $n" "$out"
out=$("$FSLAB" run -t "$A" -w "$wl" --until-cov 0.000001 --max-repeat 3 --db "$DB" --tag uc2 2>&1)
n=$(reps uc2)
[ "$n" -eq 3 ] && [[ $out == *"A did NOT settle"* ]] && ok "--until-cov stops at --max-repeat and says so" ||
	not_ok "--until-cov stops at --max-repeat and says so" "wlruns $n" "$out"
check_exit "--order bad value exits 2" 2 "$FSLAB" run --order sideways
check_exit "--until-cov bad value exits 2" 2 "$FSLAB" run --until-cov x
check_exit "--max-repeat below --repeat exits 2" 2 "$FSLAB" run --until-cov 5 --repeat 4 --max-repeat 3
left=$(find "$SCRATCH/a" "$SCRATCH/b" -mindepth 1 | head -3)
[ -z "$left" ] && ok "dir: targets are left as found" || not_ok "dir: targets are left as found" "$left"
finish
