#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Safety, item 1: the scratch directory.  A scratch dir that another user
# owns, may write to, or reaches through (an ancestor or a symlink of
# theirs) is refused with exit 2 before anything is created.  In a safe
# one the image and mount point are used through fds: a test hook swaps
# the image, then the mount point, for a symlink right after creation (the
# window a racer would aim for) and the victim stays intact.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd mkfs.ext4
need_cmd setpriv
scratch_dir
chmod 711 "$SCRATCH"	# nobody may pass through, not write

wl=metadata:files=200,dirs=2
run() {
	"$FSLAB" run --target ext4:size=256M --workload "$wl" --db "$DB" "$@"
}

refused() {	# desc scratch pattern
	local out rc
	out=$(run --scratch "$2" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && [[ $out == *"$3"* ]] &&
		[ -z "$(ls "$2" 2>/dev/null | grep -E '\.(img|mnt)$')" ]; then
		ok "$1"
	else
		not_ok "$1" "exit $rc" "$out" "$(ls -la "$2" 2>&1)"
	fi
}

install -d -o nobody -m 0755 "$SCRATCH/nob"
refused "scratch owned by nobody is refused" "$SCRATCH/nob" "owned by uid 65534"
install -d -m 0777 "$SCRATCH/open"
refused "scratch writable by others is refused" "$SCRATCH/open" "writable by group or others"
install -d -o nobody -m 0755 "$SCRATCH/up"
install -d -m 0700 "$SCRATCH/up/s"
refused "scratch beneath nobody's directory is refused" "$SCRATCH/up/s" "owned by uid 65534"
install -d -m 1777 "$SCRATCH/tmp"
install -d -m 0700 "$SCRATCH/real"
setpriv --reuid nobody --regid nogroup --clear-groups ln -s "$SCRATCH/real" "$SCRATCH/tmp/s"
refused "scratch through nobody's symlink is refused" "$SCRATCH/tmp/s" "symlink owned by uid 65534"
# A sticky shared directory as scratch: fslab works in a private fslab.0
# beneath it, and refuses one nobody made for it.
setpriv --reuid nobody --regid nogroup --clear-groups mkdir -m 0755 "$SCRATCH/tmp/fslab.0"
refused "a sticky scratch: nobody's fslab.0 beneath it is refused" "$SCRATCH/tmp" "owned by uid 65534"
rmdir "$SCRATCH/tmp/fslab.0"
out=$(run --scratch "$SCRATCH/tmp" 2>&1)
rc=$?
[ $rc -eq 0 ] && [ -f "$SCRATCH/tmp/fslab.0/.fslab-scratch" ] &&
	[ "$(stat -c %U:%a "$SCRATCH/tmp/fslab.0")" = root:700 ] &&
	ok "a sticky scratch: fslab works in a private fslab.0" ||
	not_ok "a sticky scratch: fslab works in a private fslab.0" "exit $rc" "$out"
out=$(run --scratch "$SCRATCH/bad
line" 2>&1)
rc=$?
[ $rc -eq 2 ] && [[ $out == *"line break"* ]] && ok "a newline in the scratch path is refused cleanly" ||
	not_ok "a newline in the scratch path is refused cleanly" "exit $rc" "$out"

install -d -m 0700 "$SCRATCH/s1"
# The swaps below happen through FSLAB_TEST_HOOK_* (fs/target.c), which
# only test builds compile in (make check's; -DFSLAB_TEST_HOOKS).
if grep -q FSLAB_TEST_HOOK_ "$FSLAB"; then
	# The image swapped for a symlink to a root file right after its O_EXCL
	# creation: the loop device was bound from the fd, so mkfs never sees it.
	printf 'precious\n' >"$SCRATCH/victim"
	chmod 600 "$SCRATCH/victim"
	out=$(FSLAB_TEST_HOOK_IMAGE="mv \"\$1\" \"\$1.moved\" && ln -s '$SCRATCH/victim' \"\$1\"" \
		run --scratch "$SCRATCH/s1" 2>&1)
	rc=$?
	[ $rc -eq 0 ] && ok "image swapped during setup: run still completes" ||
		not_ok "image swapped during setup: run still completes" "exit $rc" "$out"
	[ "$(cat "$SCRATCH/victim")" = precious ] && ! blkid "$SCRATCH/victim" >/dev/null 2>&1 &&
		ok "image swapped during setup: the victim file is intact" ||
		not_ok "image swapped during setup: the victim file is intact" "$(blkid "$SCRATCH/victim")"
	rm -f "$SCRATCH"/s1/*.moved
	nothing_left_under "$SCRATCH/s1" && ok "image swapped: nothing left mounted or attached" ||
		not_ok "image swapped: nothing left mounted or attached" "$(losetup -a; findmnt)"

	# The mount point swapped for a symlink to a root directory just before
	# the mount: the filesystem goes onto the directory fslab holds, and the
	# run refuses the swapped name instead of working in the victim.
	install -d -m 0700 "$SCRATCH/vdir" "$SCRATCH/s2"
	echo keep >"$SCRATCH/vdir/file"
	out=$(FSLAB_TEST_HOOK_MOUNT="mv \"\$1\" \"\$1.moved\" && ln -s '$SCRATCH/vdir' \"\$1\"" \
		run --scratch "$SCRATCH/s2" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && [[ $out == *"was replaced while fslab mounted on it"* ]] &&
		ok "mount point swapped during setup: refused" ||
		not_ok "mount point swapped during setup: refused" "exit $rc" "$out"
	[ "$(ls -A "$SCRATCH/vdir")" = file ] && ! findmnt "$SCRATCH/vdir" >/dev/null &&
		ok "mount point swapped: the victim directory is intact, not mounted over" ||
		not_ok "mount point swapped: the victim directory is intact" "$(ls -la "$SCRATCH/vdir"; findmnt "$SCRATCH/vdir")"
	nothing_left_under "$SCRATCH/s2" && ok "mount point swapped: nothing left mounted or attached" ||
		not_ok "mount point swapped: nothing left mounted or attached" "$(grep "$SCRATCH" /proc/mounts; losetup -a)"
elif [ "${CI:-}" = true ]; then
	not_ok "the swap tests need a test build (FSLAB_TEST_HOOKS)"
else
	for t in "image swapped during setup" "mount point swapped during setup"; do
		ok "$t # SKIP $FSLAB is built without test hooks (make check's build has them)"
	done
fi

# owned targets stay nosuid,nodev
out=$("$FSLAB" run --target ext4:size=256M,mount=suid --workload "$wl" --db "$DB" --scratch "$SCRATCH/s1" 2>&1)
rc=$?
[ $rc -eq 2 ] && [[ $out == *"always mounts its filesystems nosuid,nodev"* ]] &&
	ok "mount=suid is refused" || not_ok "mount=suid is refused" "exit $rc" "$out"
finish
