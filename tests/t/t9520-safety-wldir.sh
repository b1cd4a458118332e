#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Safety, items 2 and 3: workload directories on a dir: target in a
# directory others may write to.  nobody's pre-created bonnie-0-r0 full of
# symlinks to a root file and a user's directory named compilebench-0-r0
# are neither used nor removed: fslab works in a directory of its own,
# created exclusively under a unique name, and removes only that.  Two
# runs on one dir: target keep to their own directories; compilebench -D
# refuses an existing kernel-N tree.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd setpriv
scratch_dir
chmod 711 "$SCRATCH"

as_nobody() { setpriv --reuid nobody --regid nogroup --clear-groups "$@"; }
shared=$SCRATCH/shared
install -d -m 1777 "$shared"
printf 'precious\n' >"$SCRATCH/victim"
chmod 600 "$SCRATCH/victim"

as_nobody mkdir "$shared/bonnie-0-r0" "$shared/compilebench-0-r0"
for i in $(seq 1 64) $(seq $$ $(($$ + 64))); do
	as_nobody ln -s "$SCRATCH/victim" "$shared/bonnie-0-r0/Bonnie.$i"
done
as_nobody sh -c "echo mine >'$shared/compilebench-0-r0/work'"

out=$("$FSLAB" run --target "dir:$shared" --db "$DB" \
	--workload bonnie:size=8M,ram=0,files=1 \
	--workload compilebench:initial-dirs=1,runs=2 2>&1)
rc=$?
[ $rc -eq 0 ] && ok "bonnie and compilebench run on the shared directory" ||
	not_ok "bonnie and compilebench run on the shared directory" "exit $rc" "$out"
[ "$(cat "$SCRATCH/victim")" = precious ] &&
	ok "nobody's Bonnie.N symlinks did not redirect a write" ||
	not_ok "nobody's Bonnie.N symlinks did not redirect a write" "$(head -c 100 "$SCRATCH/victim")"
n=$(find "$shared/bonnie-0-r0" -type l | wc -l)
[ "$n" -eq 129 ] && ok "nobody's bonnie-0-r0 left as it was" ||
	not_ok "nobody's bonnie-0-r0 left as it was" "$n links"
[ "$(cat "$shared/compilebench-0-r0/work" 2>/dev/null)" = mine ] &&
	ok "a user's compilebench-0-r0 is neither used nor deleted" ||
	not_ok "a user's compilebench-0-r0 is neither used nor deleted" "$(ls -la "$shared/compilebench-0-r0")"
left=$(ls -A "$shared" | grep -v -x -e bonnie-0-r0 -e compilebench-0-r0)
[ -z "$left" ] && ok "fslab removed only what it created" ||
	not_ok "fslab removed only what it created" "$left"
[ -z "$(ls -A "$FSLAB_STATE_DIR" 2>/dev/null)" ] && ok "no journal left" ||
	not_ok "no journal left" "$(cat "$FSLAB_STATE_DIR"/* 2>&1)"

# Two runs on one dir: target: A paused between phases, B runs through;
# A's files survive B's removal of its own directory.
. "$(dirname "$0")/verifylib.sh"
"$FSLAB" run --pause-before stat --target "dir:$shared" --db "$DB" \
	--workload metadata:files=300 >"$SCRATCH/a.out" 2>"$SCRATCH/a.err" &
apid=$!
cleanup_add "kill -9 $apid"
if pause_wait "$SCRATCH/a.err" $apid stat; then
	out=$("$FSLAB" run --target "dir:$shared" --db "$DB" --workload metadata:files=300 2>&1)
	rc=$?
	[ $rc -eq 0 ] && ok "second run on the same directory completes" ||
		not_ok "second run on the same directory completes" "exit $rc" "$out"
	kill -CONT $apid
	wait $apid
	rc=$?
	files=$(sqlite3 "$DB" "select files from $PHASES where pid = $apid and phase = 'stat'")
	[ $rc -eq 0 ] && [ "$files" = 300 ] && ok "the first run still finds all its files" ||
		not_ok "the first run still finds all its files" "exit $rc, stat files '$files'" "$(tail -5 "$SCRATCH/a.err")"
else
	not_ok "first run paused before stat" "$(tail -5 "$SCRATCH/a.err")"
fi

# compilebench -D: an existing kernel-N tree is refused, not reused.
install -d "$SCRATCH/cb/kernel-0"
echo mine >"$SCRATCH/cb/kernel-0/userfile"
out=$("$FSLAB" compilebench -D "$SCRATCH/cb" -i 1 -r 0 -n 2>&1)
rc=$?
[ $rc -ne 0 ] && [[ $out == *"cannot create '$SCRATCH/cb/kernel-0/"* ]] &&
	ok "compilebench -D refuses an existing kernel-0" ||
	not_ok "compilebench -D refuses an existing kernel-0" "exit $rc" "$out"
[ "$(cat "$SCRATCH/cb/kernel-0/userfile")" = mine ] && [ "$(ls -A "$SCRATCH/cb/kernel-0")" = userfile ] &&
	ok "the user's kernel-0 is untouched" ||
	not_ok "the user's kernel-0 is untouched" "$(ls -la "$SCRATCH/cb/kernel-0")"
finish
