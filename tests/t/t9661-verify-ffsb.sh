#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ffsb --verify: the example mix (every FFSB operation, random offsets,
# appends, concurrent threads) passes clean on ext4 and xfs with a final
# verify-data phase; a block corrupted through the loop image is caught
# by the run phase's reads and, in a file no op reads, by verify-data,
# with file and offset, and the run fails.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/verifylib.sh"
verify_setup

mix=$TOP/examples/ffsb/small-mix.ffsb

for fs in ext4 xfs; do
	clean_run $fs 1G "ffsb:profile=$mix,time=2,seed=7"
	st=$(vq "p.name || ':' || p.status" "clean-$fs" "order by p.seq" | tr '\n' ' ')
	[ "$st" = "setup:ok run:ok verify-data:ok " ] && ok "$fs: setup, run and verify-data pass" ||
		not_ok "$fs: setup, run and verify-data pass" "got '$st'"
	n=$(vq p.files "clean-$fs" "and p.name = 'verify-data'")
	[ "${n:-0}" -ge 250 ] && ok "$fs: verify-data checked the files left ($n)" ||
		not_ok "$fs: verify-data checked the files left" "got '$n'"
done

# One 64 KiB file, one thread that only reads it whole: the run phase
# must read the corrupted block.
cat >"$SCRATCH/readall.ffsb" <<'EOF'
time = 1
[filesystem]
	location = /mnt/test
	num_files = 1
	min_filesize = 64k
	max_filesize = 64k
[end]
[threadgroup]
	num_threads = 1
	readall_weight = 1
	read_blocksize = 4k
[end]
EOF

# corrupt TAG PROFILE PHASE FILE-PICKER BLOCK: pause before PHASE, copy
# block 0 of the file the picker prints over BLOCK, go on.
corrupt() {
	local tag=$1 prof=$2 phase=$3 pick=$4 blk=$5 dir img
	paused_start "$tag" "$phase" "ffsb:profile=$prof,seed=7" || return 1
	dir=$(sed -n 's/^ffsb: profile .* in \(.*\)$/\1/p' "$ERR")
	FILE=$(cd "$dir" && $pick)
	if [ -n "$FILE" ] && img=$(image_copy_block "$dir/$FILE" 0 "$blk") &&
		[[ $img == "$SCRATCH"/* ]]; then
		ok "$tag: block $blk of $FILE overwritten in the image"
	else
		not_ok "$tag: block $blk of $FILE overwritten in the image" "dir '$dir'"
	fi
	paused_resume
}

if corrupt in-run "$SCRATCH/readall.ffsb" run "echo data/f0" 5; then
	check_caught in-run run 20480
fi
# The mix leaves a few hundred files; one of at least 16 KiB, block 2.
pick16k() {
	find data -type f -size +15k | sort | head -1
}
if corrupt at-end "$mix" verify-data pick16k 2; then
	check_caught at-end verify-data 8192
fi

nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
