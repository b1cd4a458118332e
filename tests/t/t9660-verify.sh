#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab run --verify: a clean run passes on ext4 and xfs and adds the
# final verify-data phase; a block corrupted behind fslab's back (through
# the loop image, while the run waits in --pause-before) is caught by the
# next read phase, named with file and offset and what the block holds,
# and fails the run, also in the store.  Workloads that cannot verify
# refuse --verify with a usage error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/verifylib.sh"
verify_setup

# 16 MiB file, 2 MiB per-char, a few seeks: seconds per run.
bon=bonnie:size=16M,ram=0,byte_io=2M,seeks=200,files=1:8192:100
# The block we corrupt: block 261 of the scratch file, inside the
# per-char range too.
blk=261
off=$((blk * 4096))

for fs in ext4 xfs; do
	clean_run $fs 512M "$bon"
	st=$(vq "p.name || ':' || p.status" "clean-$fs" "and p.name in ('verify-data', 'rewrite', 'block-read', 'getc', 'seq-stat')" | sort | tr '\n' ' ')
	[ "$st" = "block-read:ok getc:ok rewrite:ok seq-stat:ok verify-data:ok " ] &&
		ok "$fs: read phases and the final verify-data phase pass" ||
		not_ok "$fs: read phases and the final verify-data phase pass" "got '$st'"
	n=$(vq p.bytes "clean-$fs" "and p.name = 'verify-data'")
	[ "$n" = $((16 * 1048576)) ] && ok "$fs: verify-data read the whole file" ||
		not_ok "$fs: verify-data read the whole file" "bytes '$n'"
done

# Without --verify there is no verify-data phase (nothing changes).
"$FSLAB" run --target ext4:size=512M --workload "$bon" --db "$DB" \
	--scratch "$SCRATCH" --tag plain >/dev/null 2>"$SCRATCH/plain.err"
n=$(vq "count(*)" plain "and p.name = 'verify-data'")
[ "$n" = 0 ] && ok "without --verify: no verify-data phase" ||
	not_ok "without --verify: no verify-data phase" "got $n" "$(tail -3 "$SCRATCH/plain.err")"

# Corrupt block $blk of the scratch file while fslab is paused before
# PHASE: the copy of block 0 there is a misdirected write.
corrupt_run() {
	local phase=$1 fs=$2 tag=$3 file img
	paused_start "$tag" "$phase" "$bon" "$fs:size=512M" || return 1
	ok "$tag: paused before $phase"
	file=$(sed -n 's/^bonnie: file \(.*\), 16M, .*/\1/p' "$ERR")
	if img=$(image_copy_block "$file" 0 $blk) && [[ $img == "$SCRATCH"/* ]]; then
		ok "$tag: block $blk overwritten in the image"
	else
		not_ok "$tag: block $blk overwritten in the image" "file '$file' img '$img'"
	fi
	paused_resume
}

for phase in rewrite getc block-read verify-data; do
	tag=corrupt-$phase
	corrupt_run $phase ext4 $tag || continue
	[ $RC -eq 1 ] && ok "$tag: run exits 1" || not_ok "$tag: run exits 1" "exit $RC" "$(tail -5 "$ERR")"
	msg="verify: file Bonnie\.[0-9]* offset $off: block holds file [0-9a-f]\{16\} offset 0 (misdirected write within the file)"
	grep -q "$msg" "$ERR" && ok "$tag: mismatch names file, offset and what the block holds" ||
		not_ok "$tag: mismatch names file, offset and what the block holds" "$(grep -i verify "$ERR")"
	st=$(vq "p.status || ' ' || p.error" "$tag" "and p.name = '$phase'")
	case "$st" in
	"failed verify: file Bonnie."*" offset $off: block holds file "*) ok "$tag: phase $phase stored as failed with the mismatch" ;;
	*) not_ok "$tag: phase $phase stored as failed with the mismatch" "got '$st'" ;;
	esac
	st=$(sqlite3 "$DB" "select w.status from wlruns w join runs r on w.run_id = r.id where r.tag = '$tag'")
	[ "$st" = failed ] && ok "$tag: workload run stored as failed" || not_ok "$tag: workload run stored as failed" "got '$st'"
	st=$(sqlite3 "$DB" "select status from runs where tag = '$tag'")
	[ "$st" = failed ] && ok "$tag: run stored as failed" || not_ok "$tag: run stored as failed" "got '$st'"
done

# The other direction: an xfs run, corruption before block-read.
if corrupt_run block-read xfs corrupt-xfs; then
	[ $RC -eq 1 ] && grep -q "verify: file Bonnie\.[0-9]* offset $off: block holds file" "$ERR" &&
		ok "xfs: block-read catches the corrupted block" ||
		not_ok "xfs: block-read catches the corrupted block" "exit $RC" "$(tail -5 "$ERR")"
fi

check_exit "--verify with tree is refused" 2 "$FSLAB" run --verify --no-store \
	--scratch "$SCRATCH" --workload tree
out=$("$FSLAB" run --verify --no-store --scratch "$SCRATCH" --workload tree 2>&1)
[[ $out == *"--verify is not supported by workload 'tree' (it writes the archive's own contents)"* ]] &&
	ok "tree refusal says why" || not_ok "tree refusal says why" "$out"
check_exit "--pause-before needs a phase" 2 "$FSLAB" run --pause-before= --no-store
"$FSLAB" run --help | grep -q -- '--verify' && "$FSLAB" run --help | grep -q 'fsck writes no' &&
	ok "--help describes --verify" || not_ok "--help describes --verify"

nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
