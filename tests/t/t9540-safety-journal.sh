#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Safety, item 5: `fslab cleanup` proves ownership before it acts.  A
# crafted journal naming a tmpfs mount, a loop device, a file and a
# directory fslab never created acts on none of them; a state directory
# owned by nobody is not honoured at all; and a stale journal of a dead
# process whose pid a live run reuses (and that names the live run's
# resources) tears nothing of the live run down.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/verifylib.sh"
need_loop
need_cmd mkfs.ext4
need_cmd setpriv
scratch_dir
chmod 711 "$SCRATCH"

# Victims, named the way fslab names its own things.
install -d "$SCRATCH/victim.mnt" "$SCRATCH/dir.mnt"
mount -t tmpfs -o size=1m tmpfs "$SCRATCH/victim.mnt"
cleanup_add "umount '$SCRATCH/victim.mnt'"
truncate -s 16M "$SCRATCH/victim.img"
vloop=$(losetup -f --show "$SCRATCH/victim.img")
cleanup_add "losetup -d $vloop"
echo precious >"$SCRATCH/file.img"

crafted() {
	printf 'pid 2147483647 1\nscratch %s\nimage %s\nloop %s\nmountpoint %s\nmount %s\nident mount %s 0 %s\nimage %s\n' \
		"$SCRATCH" "$SCRATCH/victim.img" "$SCRATCH/victim.img" \
		"$SCRATCH/dir.mnt" "$SCRATCH/victim.mnt" \
		"$(stat -c %d "$SCRATCH/victim.mnt")" "$SCRATCH/victim.mnt" \
		"$SCRATCH/file.img"
}
intact() {
	findmnt "$SCRATCH/victim.mnt" >/dev/null && losetup "$vloop" >/dev/null 2>&1 &&
		[ -d "$SCRATCH/dir.mnt" ] && [ "$(cat "$SCRATCH/file.img")" = precious ] &&
		[ -f "$SCRATCH/victim.img" ]
}

install -d -m 0700 "$FSLAB_STATE_DIR"
(umask 077; crafted >"$FSLAB_STATE_DIR/2147483647.state")
out=$("$FSLAB" cleanup 2>&1)
rc=$?
[ $rc -eq 1 ] && [[ $out == *"carries no .fslab-scratch"* ]] &&
	ok "crafted journal: every entry refused, exit 1" ||
	not_ok "crafted journal: every entry refused, exit 1" "exit $rc" "$out"
intact && ok "crafted journal: tmpfs, loop device, file and directory intact" ||
	not_ok "crafted journal: victims intact" "$(findmnt "$SCRATCH/victim.mnt"; losetup -a; ls -la "$SCRATCH")"
rm -f "$FSLAB_STATE_DIR/2147483647.state"

# A state directory nobody owns: nobody planted the journal.
nstate=$SCRATCH/nstate
install -d -o nobody -m 0700 "$nstate"
crafted | setpriv --reuid nobody --regid nogroup --clear-groups \
	sh -c "umask 077; cat >'$nstate/2147483647.state'"
out=$(FSLAB_STATE_DIR=$nstate "$FSLAB" cleanup 2>&1)
rc=$?
[ $rc -eq 1 ] && [[ $out == *"state directory '$nstate' is not safe"* ]] &&
	ok "a state directory owned by nobody is not honoured" ||
	not_ok "a state directory owned by nobody is not honoured" "exit $rc" "$out"
intact && ok "nobody's journal: victims intact" || not_ok "nobody's journal: victims intact"
out=$(FSLAB_STATE_DIR=$nstate "$FSLAB" run --target ext4:size=256M --workload metadata:files=10 \
	--db "$DB" --scratch "$SCRATCH/s" 2>&1)
rc=$?
[ $rc -ne 0 ] && [[ $out == *"is not safe"* ]] && nothing_left_under "$SCRATCH/s" &&
	ok "a run refuses to journal there" || not_ok "a run refuses to journal there" "exit $rc" "$out"

# Stale journal, pid reused: a dead process with the live run's pid left
# a journal naming the live run's resources.
"$FSLAB" run --pause-before stat --target ext4:size=256M --db "$DB" \
	--scratch "$SCRATCH/s" --workload metadata:files=100 \
	>"$SCRATCH/a.out" 2>"$SCRATCH/a.err" &
apid=$!
cleanup_add "kill -9 $apid"
if pause_wait "$SCRATCH/a.err" $apid stat; then
	live=$FSLAB_STATE_DIR/$apid.state
	(umask 077; { echo "pid $apid 1"; grep -v '^pid ' "$live"; } \
		>"$FSLAB_STATE_DIR/$apid.1.stale.state")
	mnt=$(sed -n 's/^mount //p' "$live" | head -1)
	out=$("$FSLAB" cleanup 2>&1)
	rc=$?
	[ $rc -eq 0 ] && [[ $out == *"names what running fslab (pid $apid) holds"* ]] &&
		ok "stale journal: the live run's resources are kept" ||
		not_ok "stale journal: the live run's resources are kept" "exit $rc" "$out"
	findmnt "$mnt" >/dev/null && ok "stale journal: the live run stays mounted" ||
		not_ok "stale journal: the live run stays mounted" "$mnt" "$out"
	[ ! -e "$FSLAB_STATE_DIR/$apid.1.stale.state" ] && [ -e "$live" ] &&
		ok "stale journal replayed away, the live one kept" ||
		not_ok "stale journal replayed away, the live one kept" "$(ls -la "$FSLAB_STATE_DIR")"
	kill -CONT $apid
	wait $apid
	rc=$?
	[ $rc -eq 0 ] && ok "the live run completes" ||
		not_ok "the live run completes" "exit $rc" "$(tail -5 "$SCRATCH/a.err")"
	nothing_left_under "$SCRATCH/s" && ok "and leaves nothing behind" ||
		not_ok "and leaves nothing behind" "$(grep "$SCRATCH/s" /proc/mounts)"
else
	not_ok "live run paused before stat" "$(tail -5 "$SCRATCH/a.err")"
fi
# Inside a real (marked) scratch: a mount there that is not from a loop
# device of the journal's images is not unmounted.
install -d "$SCRATCH/s/fslab-x-0-1.mnt"
mount -t tmpfs -o size=1m tmpfs "$SCRATCH/s/fslab-x-0-1.mnt"
cleanup_add "umount '$SCRATCH/s/fslab-x-0-1.mnt'"
(umask 077; printf 'pid 2147483647 1\nscratch %s\nmount %s\nident mount %s 0 %s\n' \
	"$SCRATCH/s" "$SCRATCH/s/fslab-x-0-1.mnt" \
	"$(stat -c %d "$SCRATCH/s/fslab-x-0-1.mnt")" "$SCRATCH/s/fslab-x-0-1.mnt" \
	>"$FSLAB_STATE_DIR/2147483647.state")
out=$("$FSLAB" cleanup 2>&1)
rc=$?
[ $rc -eq 1 ] && [[ $out == *"not the one fslab mounted"* ]] &&
	findmnt "$SCRATCH/s/fslab-x-0-1.mnt" >/dev/null &&
	ok "a foreign mount inside the scratch is not unmounted" ||
	not_ok "a foreign mount inside the scratch is not unmounted" "exit $rc" "$out"
intact && ok "victims intact at the end" || not_ok "victims intact at the end"
finish
