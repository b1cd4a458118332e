#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metadata --verify: files of 16 KiB written with the pattern pass clean
# on ext4 and xfs, with a verify-data phase before unlink; a block
# corrupted through the loop image is caught by the read phase and, when
# read has passed, by verify-data, with file and offset; the run fails.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/verifylib.sh"
verify_setup

wl="metadata:files=300,size=16k,dirs=2,threads=2"

for fs in ext4 xfs; do
	clean_run $fs 1G "$wl"
	st=$(vq "p.name || ':' || p.status" "clean-$fs" "order by p.seq" | tr '\n' ' ')
	[ "$st" = "mkdir:ok create:ok stat:ok read:ok verify-data:ok unlink:ok rmdir:ok " ] &&
		ok "$fs: verify-data runs before unlink and passes" ||
		not_ok "$fs: verify-data runs before unlink and passes" "got '$st'"
	n=$(vq "p.files || ' ' || p.bytes" "clean-$fs" "and p.name = 'verify-data'")
	[ "$n" = "600 9830400" ] && ok "$fs: verify-data checked every file and byte" ||
		not_ok "$fs: verify-data checked every file and byte" "got '$n'"
done

# The pattern differs from what a plain run writes (constant bytes).
"$FSLAB" run --verify --pause-before unlink --target ext4:size=1G \
	--workload "metadata:files=5,size=8k" --db "$DB" --scratch "$SCRATCH" \
	--tag look >"$SCRATCH/look.out" 2>"$SCRATCH/look.err" &
pid=$!
cleanup_add "kill -9 $pid"
if pause_wait "$SCRATCH/look.err" $pid unlink; then
	f=$(find "$SCRATCH" -path '*/t0/d0/*' -type f | sort | head -1)
	[ -n "$f" ] && [ "$(head -c 4 "$f")" = FLSV ] &&
		[ "$(od -An -tx1 -j 32 -N 64 "$f" | tr -d ' \n' | grep -c '^\(5a\)*$')" -eq 0 ] &&
		ok "files hold the pattern, not constant bytes" ||
		not_ok "files hold the pattern, not constant bytes" "$f: $(od -An -c -N 16 "$f")"
else
	not_ok "files hold the pattern, not constant bytes" "no pause: $(tail -3 "$SCRATCH/look.err")"
fi
kill -CONT $pid
wait $pid

# corrupt TAG PHASE BLOCK: pause before PHASE, copy block 0 of the first
# file of t0/d0 over BLOCK in the image, go on.
corrupt() {
	local tag=$1 phase=$2 blk=$3 path img
	paused_start "$tag" "$phase" "$wl" || return 1
	path=$(find "$SCRATCH" -path '*/t0/d0/*' -type f | sort | head -1)
	FILE=t0/d0/${path##*/}
	if [ -n "$path" ] && img=$(image_copy_block "$path" 0 "$blk") &&
		[[ $img == "$SCRATCH"/* ]]; then
		ok "$tag: block $blk of $FILE overwritten in the image"
	else
		not_ok "$tag: block $blk of $FILE overwritten in the image" "path '$path'"
	fi
	paused_resume
}

if corrupt in-read read 2; then
	check_caught in-read read 8192
fi
if corrupt at-end verify-data 3; then
	check_caught at-end verify-data 12288
fi

check_exit "--verify with tree is refused" 2 "$FSLAB" run --verify \
	--target ext4:size=1G --workload tree --db "$DB" --scratch "$SCRATCH"

nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
