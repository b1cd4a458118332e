#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dir: targets fslab cannot write to - a read-only bind mount, a root
# directory for a non-root user - are refused before any work (exit 2),
# naming the directory, and nothing is created in them.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd setpriv
scratch_dir

# refused RC WHAT DIR WHY EMPTY: the run that exited RC, its output in
# $out, refused the target DIR: exit 2, naming DIR and WHY, nothing
# created in EMPTY (the directory behind DIR).
refused() {
	local rc=$1 what=$2 dir=$3 why=$4 empty=$5
	[ $rc -eq 2 ] && ok "$what: exit 2" ||
		not_ok "$what: exit 2" "exit $rc" "$out"
	[[ $out == *"'$dir'"*"$why"* ]] &&
		ok "$what: names the directory and why" ||
		not_ok "$what: names the directory and why" "$out"
	[ -z "$(ls -A "$empty")" ] && ok "$what: nothing created" ||
		not_ok "$what: nothing created" "$(ls -A "$empty")"
}

dir=$SCRATCH/rw
ro=$SCRATCH/ro
mkdir -p "$dir" "$ro"
if mount --bind "$dir" "$ro" && cleanup_add "umount '$ro'" &&
	mount -o remount,ro,bind "$ro"; then
	out=$("$FSLAB" run --target "dir:$ro" --no-store \
		--workload metadata:files=10 2>&1)
	refused $? "read-only bind mount" "$ro" "Read-only file system" "$dir"
else
	not_ok "make a read-only bind mount"
fi

# A root-owned 0755 directory, and fslab running as nobody.
rootdir=$SCRATCH/rootdir
mkdir -p "$rootdir"
chmod 0755 "$SCRATCH" "$rootdir"
asnobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
out=$(asnobody "$FSLAB" run --target "dir:$rootdir" --no-store \
	--workload metadata:files=10 2>&1)
refused $? "unwritable for nobody" "$rootdir" "Permission denied" "$rootdir"
# With a database nobody cannot write either, the db is refused first.
out=$(asnobody "$FSLAB" run --target "dir:$rootdir" \
	--db "$rootdir/r.db" --workload metadata:files=10 2>&1)
rc=$?
[ $rc -ne 0 ] && [[ $out == *"'$rootdir/r.db'"* ]] &&
	ok "unwritable db: refused, naming it" ||
	not_ok "unwritable db: refused, naming it" "exit $rc" "$out"
[ -z "$(ls -A "$rootdir")" ] && ok "unwritable db: nothing created" ||
	not_ok "unwritable db: nothing created" "$(ls -A "$rootdir")"
finish
