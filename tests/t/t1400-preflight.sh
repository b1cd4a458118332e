#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Pre-flight: `fslab run` checks every target and workload before it
# builds anything, and refuses with one message listing every problem
# (exit 2): a bonnie file larger than its target, a bad mkfs= on the
# second target (with mkfs's own first error line), a filesystem without
# mkfs, two targets of one name, output paths in missing directories.
# Nothing is created: no image, no database, no run row.  A missing path
# is exit 2 in every command.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
need_cmd mkfs.ext4
scratch_dir

nothing_created() {
	local what=$1 left
	left=$(find "$SCRATCH" -mindepth 1 -maxdepth 1 ! -name state | head -3)
	[ -z "$left" ] && ok "$what: nothing created" || not_ok "$what: nothing created" "$left"
}

# One problem: bonnie's scratch file does not fit.
out=$("$FSLAB" run -t ext4:size=1G -w bonnie:size=2G,ram=0 --db "$DB" \
	--scratch "$SCRATCH/s" 2>&1)
rc=$?
[ $rc -eq 2 ] && ok "bonnie file > target: exit 2" || not_ok "bonnie file > target: exit 2" "exit $rc" "$out"
[[ $out == *"refusing to start: 1 problem"* && $out == *"target 1 'ext4:size=1G': bonnie's 2.0G scratch file needs 2.0G, the target holds about"* ]] &&
	ok "bonnie file > target: says which target and what" || not_ok "bonnie file > target: says which target and what" "$out"
nothing_created "bonnie file > target"

# Too many files for the image's inodes: the file tests are named.
out=$("$FSLAB" run -t ext4:size=64M -w bonnie:size=16M,ram=0,files=1000 \
	--db "$DB" --scratch "$SCRATCH/s" 2>&1)
rc=$?
[ $rc -eq 2 ] && [[ $out == *"bonnie's file tests (1024000 files) needs 1024001 inodes, the target has about"* ]] &&
	ok "bonnie files > inodes: names the file tests" ||
	not_ok "bonnie files > inodes: names the file tests" "exit $rc" "$out"
nothing_created "bonnie files > inodes"

# A good first target, a bad second one: refused before the first runs.
out=$("$FSLAB" run -t ext4:size=1G -t 'ext4:size=1G,mkfs=-m bogus=1,name=bad' \
	-w metadata:files=100 --db "$DB" --scratch "$SCRATCH/s" 2>&1)
rc=$?
[ $rc -eq 2 ] && ok "bad second target: exit 2" || not_ok "bad second target: exit 2" "exit $rc" "$out"
[[ $out == *"target 2 "*"mkfs.ext4 rejects mkfs='-m bogus=1'"*"bogus"* ]] &&
	ok "bad second target: mkfs's first error line" || not_ok "bad second target: mkfs's first error line" "$out"
[[ $out != *"metadata on ext4"* ]] && ok "bad second target: the first did not run" ||
	not_ok "bad second target: the first did not run" "$out"
nothing_created "bad second target"

# Every problem at once, in one message.
out=$("$FSLAB" run -t ext4:size=1G -t tmpfs -t ext4:size=1G -w bonnie:size=2G,ram=0 \
	--db "$SCRATCH/nodir/x.db" --json "$SCRATCH/nodir/x.json" --scratch "$SCRATCH/s" 2>&1)
rc=$?
[ $rc -eq 2 ] && ok "many problems: exit 2" || not_ok "many problems: exit 2" "exit $rc" "$out"
n=$(grep -c '^  - ' <<<"$out")
missing=
for want in "both named 'ext4'" "target 2 'tmpfs': cannot make a tmpfs filesystem" \
	"target 3 'ext4:size=1G': bonnie's" "--db '$SCRATCH/nodir/x.db': directory" \
	"--json '$SCRATCH/nodir/x.json': directory"; do
	[[ $out == *"$want"* ]] || missing="$missing|$want"
done
[ -z "$missing" ] && [ "$n" -eq 6 ] && ok "many problems: all six listed together" ||
	not_ok "many problems: all six listed together" "missing: $missing; $n listed" "$out"
[ "$(grep -c 'refusing to start' <<<"$out")" -eq 1 ] && ok "many problems: one message" ||
	not_ok "many problems: one message" "$out"
[ ! -e "$SCRATCH/nodir" ] && ok "missing --db/--json directories are not made" ||
	not_ok "missing --db/--json directories are not made"
nothing_created "many problems"

# A store that exists gets no row for a refused run.
"$FSLAB" run -t dir:"$SCRATCH" -w metadata:files=10 --db "$DB" --scratch "$SCRATCH/s" >/dev/null 2>&1
before=$(sqlite3 "$DB" "select count(*) from runs")
"$FSLAB" run -t ext4:size=1G -w bonnie:size=2G,ram=0 --db "$DB" --scratch "$SCRATCH/s" >/dev/null 2>&1
after=$(sqlite3 "$DB" "select count(*) from runs")
[ "$before" -eq 1 ] && [ "$after" -eq 1 ] && ok "a refused run is not stored" ||
	not_ok "a refused run is not stored" "runs before $before, after $after"

# A refusal only the target's own setup can make (a dev: holding a
# filesystem) leaves no row either.
if command -v losetup >/dev/null; then
	truncate -s 64M "$SCRATCH/dev.img"
	mkfs.ext4 -q -F "$SCRATCH/dev.img"
	if LOOPDEV=$(losetup -f --show "$SCRATCH/dev.img"); then
		cleanup_add "losetup -d '$LOOPDEV'"
		out=$("$FSLAB" run -t "dev:$LOOPDEV" -w metadata:files=10 --db "$DB" \
			--scratch "$SCRATCH/s" 2>&1)
		rc=$?
		after=$(sqlite3 "$DB" "select count(*) from runs")
		[ $rc -eq 2 ] && [[ $out == *"refusing to format"* ]] && [ "$after" -eq 1 ] &&
			ok "a dev: target refused at setup: exit 2, not stored" ||
			not_ok "a dev: target refused at setup: exit 2, not stored" "exit $rc, runs $after" "$out"
		losetup -d "$LOOPDEV"
	else
		not_ok "losetup attaches the test image"
	fi
fi

# A missing path: exit 2 in every command.
check_exit "frag: missing path exits 2" 2 "$FSLAB" frag "$SCRATCH/nonexistent"
check_exit "model capture: missing path exits 2" 2 "$FSLAB" model capture "$SCRATCH/nonexistent"
check_exit "trace --dev: missing device exits 2" 2 "$FSLAB" trace --dev "$SCRATCH/nonexistent" -- true
check_exit "report -o in a missing directory exits 2" 2 "$FSLAB" report --db "$DB" -o "$SCRATCH/nodir/r.html"
[ ! -e "$SCRATCH/nodir" ] && ok "report -o: no directory made" || not_ok "report -o: no directory made"

nothing_left_under "$SCRATCH" && ok "nothing mounted or attached" ||
	not_ok "nothing mounted or attached" "$(grep "$SCRATCH" /proc/mounts)"
finish
