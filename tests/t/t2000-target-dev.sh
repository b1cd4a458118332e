#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dev: targets refuse to destroy data: a device holding a filesystem is
# not formatted without --destroy-data naming that very device, a mounted
# device never is, and a refused device is left byte-for-byte intact.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd mkfs.ext4
need_cmd losetup
need_cmd sha256sum
scratch_dir

wl="compilebench:initial-dirs=1,runs=1"
if have_cbdata; then
	make_small_cbdata "$SCRATCH/cbdata"
	wl="$wl,sources=$SCRATCH/cbdata"
fi

truncate -s 1G "$SCRATCH/dev.img"
LOOPDEV=$(losetup -f --show "$SCRATCH/dev.img") || {
	not_ok "losetup attaches the test image"
	finish
	exit
}
cleanup_add "losetup -d '$LOOPDEV'"
ok "losetup attaches the test image ($LOOPDEV)"
mkfs.ext4 -q -F "$LOOPDEV"
uuid=$(blkid -o value -s UUID "$LOOPDEV")

MNT=$SCRATCH/usermnt
mkdir "$MNT"
mount "$LOOPDEV" "$MNT"
cleanup_add "umount '$MNT'"
head -c 1M /dev/urandom >"$MNT/marker"
sum=$(sha256sum <"$MNT/marker")
umount "$MNT"

# run_dev EXTRA-ARGS...: run fslab on the device, output in $out, exit $rc
run_dev() {
	out=$("$FSLAB" run --target "dev:$LOOPDEV" --workload "$wl" \
		--db "$SCRATCH/r.db" --scratch "$SCRATCH" "$@" 2>&1)
	rc=$?
}

run_dev
if [ $rc -eq 2 ]; then ok "device holding ext4: exit 2"; else
	not_ok "device holding ext4: exit 2" "exit $rc" "$out"; fi
case $out in
*"refusing to format '$LOOPDEV'"*"ext4 filesystem (UUID $uuid)"*"--destroy-data=$LOOPDEV"*)
	ok "refusal names the ext4 signature and --destroy-data" ;;
*)	not_ok "refusal names the ext4 signature and --destroy-data" "$out" ;;
esac

run_dev --destroy-data=/dev/fslab-some-other
if [ $rc -eq 2 ]; then ok "--destroy-data naming another device: exit 2"; else
	not_ok "--destroy-data naming another device: exit 2" "exit $rc" "$out"; fi
case $out in
*"refusing to format '$LOOPDEV'"*"/dev/fslab-some-other"*)
	ok "refusal says --destroy-data names another device" ;;
*)	not_ok "refusal says --destroy-data names another device" "$out" ;;
esac

# Another real node of a different device does not unlock it either.
other=/dev/null
for l in /dev/loop[0-9]*; do
	[ "$l" != "$LOOPDEV" ] && [ -b "$l" ] && { other=$l; break; }
done
run_dev --destroy-data="$other"
if [ $rc -eq 2 ]; then ok "--destroy-data=$other does not unlock $LOOPDEV"; else
	not_ok "--destroy-data=$other does not unlock $LOOPDEV" "exit $rc" "$out"; fi

mount "$LOOPDEV" "$MNT"
run_dev --destroy-data="$LOOPDEV"
if [ $rc -eq 2 ]; then ok "mounted device: exit 2 even with --destroy-data"; else
	not_ok "mounted device: exit 2 even with --destroy-data" "exit $rc" "$out"; fi
case $out in
*"refusing to format '$LOOPDEV'"*"mounted on '$MNT'"*)
	ok "refusal names the mount point" ;;
*)	not_ok "refusal names the mount point" "$out" ;;
esac

if [ "$(sha256sum <"$MNT/marker")" = "$sum" ]; then
	ok "marker file intact after the refusals"
else
	not_ok "marker file intact after the refusals"
fi
umount "$MNT"
[ "$(blkid -o value -s UUID "$LOOPDEV")" = "$uuid" ] &&
	ok "filesystem UUID unchanged" || not_ok "filesystem UUID unchanged"
if awk -v d="$SCRATCH" 'index($2, d) == 1 { f = 1 } END { exit !f }' /proc/mounts; then
	not_ok "no mount left under the scratch dir" "$(grep "$SCRATCH" /proc/mounts)"
else
	ok "no mount left under the scratch dir"
fi
[ -z "$(ls "$FSLAB_STATE_DIR" 2>/dev/null)" ] && ok "no journal left behind" ||
	not_ok "no journal left behind" "$(ls -l "$FSLAB_STATE_DIR")"
finish
