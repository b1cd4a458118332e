#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# distribute --verify: files keep their pattern through renames, links
# and copies; a clean run (link and copy delivery) passes on ext4 and
# xfs; a block corrupted through the loop image is caught while copying
# (distribute phase) and by distribute's own verify phase at the end,
# with file and offset, and the run fails.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/verifylib.sh"
verify_setup

for cfg in ext4:link xfs:copy; do
	fs=${cfg%:*} how=${cfg#*:}
	clean_run $fs 1G "distribute:files=500,fanout=2,size=8k-24k,deliver=$how" "$fs ($how)"
	b=$(vq p.bytes "clean-$fs" "and p.name = 'verify' and p.status = 'ok'")
	[ "${b:-0}" -ge $((1000 * 8192)) ] && ok "$fs ($how): verify phase read every delivered file ($b bytes)" ||
		not_ok "$fs ($how): verify phase read every delivered file" "bytes '$b'"
done

# corrupt TAG PHASE WHERE: pause before PHASE, overwrite block 1 of the
# first file under i0/WHERE with its block 0, go on.
corrupt() {
	local tag=$1 phase=$2 where=$3 mnt top
	paused_start "$tag" "$phase" "distribute:files=300,fanout=2,size=8k-24k,deliver=copy" || return 1
	mnt=$(awk -v d="$SCRATCH" 'index($2, d) == 1 { print $2 }' /proc/mounts | head -1)
	top=$(find "$mnt" -type d -name distribute | head -1)
	FILE=$(cd "$top" && find i0/$where -type f -name 's*' | sort | head -1)
	if [ -n "$FILE" ] && image_copy_block "$top/$FILE" 0 1 >/dev/null; then
		ok "$tag: block 1 of $FILE overwritten in the image"
	else
		not_ok "$tag: block 1 of $FILE overwritten in the image" "top '$top'"
	fi
	paused_resume
}

check_caught() {
	local tag=$1 phase=$2 pat=$3 st
	[ $RC -eq 1 ] && ok "$tag: run exits 1" || not_ok "$tag: run exits 1" "exit $RC" "$(tail -5 "$ERR")"
	grep -q "$pat" "$ERR" && ok "$tag: mismatch names the file, offset 4096 and what it holds" ||
		not_ok "$tag: mismatch names the file, offset 4096 and what it holds" "want: $pat" "$(grep -i verify "$ERR")"
	st=$(vq "p.status || ' ' || p.error" "$tag" "and p.name = '$phase'")
	[[ $st == "failed verify: file "*" offset 4096: block holds file "* ]] &&
		ok "$tag: $phase stored as failed with the mismatch" ||
		not_ok "$tag: $phase stored as failed with the mismatch" "got '$st'"
	st=$(sqlite3 "$DB" "select status from runs where tag = '$tag'")
	[ "$st" = failed ] && ok "$tag: run stored as failed" || not_ok "$tag: run stored as failed" "got '$st'"
}

# the fill phase wrote every file into i0/s0 before distribute starts
if corrupt in-copy distribute s0; then
	name=${FILE##*/}
	check_caught in-copy distribute "verify: file i0/$name offset 4096: block holds file [0-9a-f]* offset 0 (misdirected write within the file) (copying it to i0/d[01])"
fi
if corrupt at-end verify d1; then
	check_caught at-end verify "verify: file $FILE offset 4096: block holds file [0-9a-f]* offset 0 (misdirected write within the file)"
fi

nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
