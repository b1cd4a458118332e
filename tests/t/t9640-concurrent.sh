#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two runs at once, same --scratch, same state directory, same --db:
# they never share a loop device, mount point or journal, and
# `fslab cleanup` in the middle leaves both alone (their owners are
# alive) and says so; both then finish and are stored.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd mkfs.ext4
need_cmd mkfs.ext2
need_cmd sqlite3
have_cbdata || _need "needs the compilebench data sets ($CBDATA)"
scratch_dir
make_small_cbdata "$SCRATCH/cbdata"

# Both runs are held before their first phase, targets mounted, while
# cleanup looks at them: no race with runs that must stay busy.
wl="compilebench:initial-dirs=1,runs=2,sources=$SCRATCH/cbdata"
"$FSLAB" run --target ext4:size=1G --db "$DB" --scratch "$SCRATCH" \
	--workload "$wl" --tag a --pause-before initial-create \
	>"$SCRATCH/a.out" 2>"$SCRATCH/a.err" &
a=$!
cleanup_add "kill -9 $a"
"$FSLAB" run --target ext2:size=1G --db "$DB" --scratch "$SCRATCH" \
	--workload "$wl" --tag b --pause-before initial-create \
	>"$SCRATCH/b.out" 2>"$SCRATCH/b.err" &
b=$!
cleanup_add "kill -9 $b"

pause_wait "$SCRATCH/a.err" $a initial-create || not_ok "run a paused" "$(tail -5 "$SCRATCH/a.err")"
pause_wait "$SCRATCH/b.err" $b initial-create || not_ok "run b paused" "$(tail -5 "$SCRATCH/b.err")"
mounts=$(awk -v d="$SCRATCH/" 'index($2, d) == 1 { print $1, $2 }' /proc/mounts)
n=$(grep -c . <<<"$mounts")
[ "$n" -eq 2 ] && ok "both runs mounted at once" ||
	not_ok "both runs mounted at once" "$mounts"
devs=$(awk '{ print $1 }' <<<"$mounts" | sort -u | wc -l)
mnts=$(awk '{ print $2 }' <<<"$mounts" | sort -u | wc -l)
[ "$devs" -eq 2 ] && [ "$mnts" -eq 2 ] && ok "distinct loop devices and mount points" ||
	not_ok "distinct loop devices and mount points" "$mounts"
journals=$(ls "$FSLAB_STATE_DIR" 2>/dev/null)
[ "$(grep -c '\.state$' <<<"$journals")" -eq 2 ] &&
	grep -qx "$a.state" <<<"$journals" && grep -qx "$b.state" <<<"$journals" &&
	ok "one journal per run" || not_ok "one journal per run" "$journals"
shared=$(cat "$FSLAB_STATE_DIR"/*.state 2>/dev/null | grep -v -e '^pid ' -e '^scratch ' | sort | uniq -d)
[ -z "$shared" ] && ok "no resource in both journals" || not_ok "no resource in both journals" "$shared"

out=$("$FSLAB" cleanup 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "cleanup while both run: exit 0" || not_ok "cleanup while both run: exit 0" "exit $rc" "$out"
[[ $out == *"skipping resources of running fslab (pid $a)"* &&
   $out == *"skipping resources of running fslab (pid $b)"* ]] &&
	ok "cleanup says it skipped both" || not_ok "cleanup says it skipped both" "$out"
kept=$(grep -c '^  kept mount on ' <<<"$out")
[ "$kept" -eq 2 ] && grep -q '^  kept loop device for .*(/dev/loop[0-9]*)$' <<<"$out" &&
	ok "cleanup lists the mounts and loop devices it left alone" ||
	not_ok "cleanup lists the mounts and loop devices it left alone" "$out"
[[ $out != *unmounted* && $out != *detached* && $out != *removed* ]] &&
	ok "cleanup touched nothing" || not_ok "cleanup touched nothing" "$out"
after=$(awk -v d="$SCRATCH/" 'index($2, d) == 1 { print $1, $2 }' /proc/mounts)
[ "$after" = "$mounts" ] && ok "both still mounted after cleanup" ||
	not_ok "both still mounted after cleanup" "before: $mounts" "after: $after"

kill -CONT $a $b
wait $a
rca=$?
wait $b
rcb=$?
[ $rca -eq 0 ] && ok "run a finished: exit 0" || not_ok "run a finished: exit 0" "exit $rca" "$(tail -5 "$SCRATCH/a.err")"
[ $rcb -eq 0 ] && ok "run b finished: exit 0" || not_ok "run b finished: exit 0" "exit $rcb" "$(tail -5 "$SCRATCH/b.err")"
st=$(sqlite3 "$DB" "select tag || ':' || status from runs order by tag" | tr '\n' ' ')
[ "$st" = "a:complete b:complete " ] && ok "both stored complete in the same db" ||
	not_ok "both stored complete in the same db" "got '$st'"
tdevs=$(sqlite3 "$DB" "select count(distinct device) from targets")
[ "$tdevs" -eq 2 ] && ok "stored targets have distinct devices" ||
	not_ok "stored targets have distinct devices" "$(sqlite3 "$DB" "select device from targets")"
nothing_left_under "$SCRATCH" && ok "nothing mounted or attached after" ||
	not_ok "nothing mounted or attached after" "$(grep "$SCRATCH" /proc/mounts)"
left=$(find "$FSLAB_STATE_DIR" -type f 2>/dev/null | head -3)
[ -z "$left" ] && ok "no journal left" || not_ok "no journal left" "$left"
finish
