#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compilebench --verify: odd-sized files written through O_APPEND (create,
# compile, patch) carry the pattern; a clean run passes on ext4 and xfs
# with a final verify-data phase over the trees it leaves; a block
# corrupted through the loop image is caught by the next read phase and,
# before verify-data, by the final pass, with file and offset.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
. "$(dirname "$0")/verifylib.sh"
verify_setup
need_small_cbdata
# seed 1 patches (read, truncate, rewrite through O_APPEND) then reads;
# seed 4 compiles (appends to the trees)
cb="compilebench:initial-dirs=2,runs=10,seed=1,sources=$SCRATCH/cbdata"
cb4="compilebench:initial-dirs=2,runs=10,seed=4,sources=$SCRATCH/cbdata"

for fs in ext4 xfs; do
	w=$cb
	[ $fs = ext4 ] || w=$cb4
	clean_run $fs 1G "$w"
	n=$(vq "count(*)" "clean-$fs" "and p.status != 'ok'")
	v=$(vq "p.files" "clean-$fs" "and p.name = 'verify-data' and p.status = 'ok'")
	[ "$n" = 0 ] && [ "${v:-0}" -gt 100 ] && ok "$fs: every phase and verify-data ($v files) pass" ||
		not_ok "$fs: every phase and verify-data pass" "failed phases $n, verify-data files '$v'"
done
ops=$(vq "group_concat(distinct p.name)" clean-ext4 "")$(vq "group_concat(distinct p.name)" clean-xfs "")
[[ $ops == *patch* && $ops == *read* && $ops == *compile* ]] &&
	ok "the clean run read, compiled and patched" || not_ok "the clean run read, compiled and patched" "$ops"

# corrupt TAG PHASE: pause before PHASE, overwrite block 1 of the first
# file of at least 8 KiB in every tree with its block 0, go on.
corrupt() {
	local tag=$1 phase=$2 dir t f n=0
	paused_start "$tag" "$phase" "$cb" || return 1
	dir=$(sed -n 's/^using working directory \(.*\), .* intial dirs.*/\1/p' "$ERR")
	FILES=()
	for t in "$dir"/*/; do
		t=$(basename "$t")
		f=$(cd "$dir" && find "$t" -type f -size +8k | sort | head -1)
		[ -n "$f" ] || continue
		image_copy_block "$dir/$f" 0 1 >/dev/null && n=$((n + 1))
		FILES+=("$f")
	done
	[ $n -ge 1 ] && [ $n -eq ${#FILES[@]} ] && ok "$tag: one block overwritten in each of $n trees" ||
		not_ok "$tag: one block overwritten in each tree" "dir '$dir' $n of ${#FILES[@]}"
	paused_resume
}

for phase in read verify-data; do
	tag=corrupt-$phase
	corrupt $tag $phase || continue
	[ $RC -eq 1 ] && ok "$tag: run exits 1" || not_ok "$tag: run exits 1" "exit $RC" "$(tail -5 "$ERR")"
	msg=$(grep -o "verify: file [^ ]* offset 4096: block holds file [0-9a-f]* offset 0 (misdirected write within the file)" "$ERR" | head -1)
	file=${msg#verify: file }
	file=${file%% *}
	found=
	for f in "${FILES[@]}"; do [ "$f" = "$file" ] && found=1; done
	[ -n "$found" ] && ok "$tag: mismatch names a corrupted file ($file), offset and what it holds" ||
		not_ok "$tag: mismatch names a corrupted file, offset and what it holds" "$(grep -i verify "$ERR")" "corrupted: ${FILES[*]}"
	st=$(vq "p.status || ' ' || p.error" "$tag" "and p.name = '$phase' and p.status = 'failed'")
	[ "$st" = "failed $msg" ] && ok "$tag: $phase stored as failed with the mismatch" ||
		not_ok "$tag: $phase stored as failed with the mismatch" "got '$st'"
	st=$(sqlite3 "$DB" "select status from runs where tag = '$tag'")
	[ "$st" = failed ] && ok "$tag: run stored as failed" || not_ok "$tag: run stored as failed" "got '$st'"
done

nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
