#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Scratch space: an image the scratch filesystem cannot hold at its full
# size (the workload may fill it) is refused up front, with the numbers,
# and nothing is created.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd mkfs.ext4
scratch_dir

small=$SCRATCH/small
mkdir -p "$small"
# mode=0700: fslab refuses a scratch others may write to
if ! mount -t tmpfs -o size=100M,mode=0700 fslab-test "$small"; then
	not_ok "mount a 100M tmpfs"
	finish
	exit
fi
cleanup_add "umount '$small'"
out=$("$FSLAB" run --target ext4:size=1G --db "$SCRATCH/r.db" \
	--scratch "$small" --workload metadata:files=10 2>&1)
rc=$?
[ $rc -eq 2 ] && ok "1G image on a 100M scratch: exit 2" ||
	not_ok "1G image on a 100M scratch: exit 2" "exit $rc" "$out"
[[ $out == *"not enough space in '$small'"* ]] && ok "message names the scratch dir" ||
	not_ok "message names the scratch dir" "$out"
[[ $out == *"1.0G image"* && $out == *"100.0M free"* ]] && ok "message has the numbers" ||
	not_ok "message has the numbers" "$out"
left=$(ls -A "$small")
[ -z "$left" ] && ok "nothing created on the scratch filesystem" ||
	not_ok "nothing created on the scratch filesystem" "$left"
st=$(sqlite3 "$SCRATCH/r.db" "select status from runs" 2>/dev/null)
[ "$st" = failed ] && ok "run stored as failed" || not_ok "run stored as failed" "status '$st'"
journals=$(find "$FSLAB_STATE_DIR" -type f 2>/dev/null | head -3)
[ -z "$journals" ] && ok "no journal left" || not_ok "no journal left" "$journals"
check "a 64M image fits" "$FSLAB" run --target ext4:size=64M --no-store \
	--scratch "$small" --workload metadata:files=10
finish
