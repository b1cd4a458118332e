# SPDX-License-Identifier: GPL-2.0-or-later
# verifylib.sh - helpers for the --verify tests (t966x): start a run
# held in --pause-before (pause_wait is lib.sh's), and corrupt a file's
# block behind fslab's back by writing to the loop image under it.

# verify_setup: what every verify test needs (loop targets of both
# filesystems, sqlite3 for the store, filefrag to find a block in the
# image) and its scratch dir; skips the file without them.
verify_setup() {
	need_loop
	need_cmd sqlite3
	need_cmd mkfs.ext4
	need_cmd mkfs.xfs
	need_cmd filefrag
	scratch_dir
}

# clean_run FS SIZE WORKLOAD [LABEL]: `fslab run --verify` on a SIZE FS
# loop image, tagged clean-FS, its output in $SCRATCH/clean-FS.out and
# .err; one test that it exits 0, named after LABEL (default FS).
clean_run() {
	local fs=$1 size=$2 wl=$3 label=${4:-$1} rc
	"$FSLAB" run --verify --target "$fs:size=$size" --workload "$wl" \
		--db "$DB" --scratch "$SCRATCH" --tag "clean-$fs" \
		>"$SCRATCH/clean-$fs.out" 2>"$SCRATCH/clean-$fs.err"
	rc=$?
	[ $rc -eq 0 ] && ok "$label: clean --verify run exits 0" ||
		not_ok "$label: clean --verify run exits 0" "exit $rc" "$(tail -5 "$SCRATCH/clean-$fs.err")"
}

# image_copy_block FILE FROM TO: overwrite logical 4 KiB block TO of FILE
# (on a loop-mounted filesystem) with its block FROM, in the image file,
# then drop caches so the next read comes from the disk.  For the
# pattern a misdirected write.  Prints the image path; false on failure.
image_copy_block() {
	local file=$1 from=$2 to=$3 dev img ext pf pt tmp
	# dirty pages first: written back later they would undo the damage,
	# and delayed allocation has no extent to find yet
	sync
	dev=$(findmnt -n -o SOURCE --target "$file") || return 1
	img=$(cat "/sys/block/$(basename "$dev")/loop/backing_file") || return 1
	# filefrag -v -b4096: "N: lstart.. lend: pstart.. pend: len: ..."
	ext=$(filefrag -v -b4096 "$file" | awk -v f="$from" -v t="$to" '
		$1 ~ /^[0-9]+:$/ {
			gsub(/[.:]/, " "); split($0, x, " ")
			if (x[2] <= f && f <= x[3]) pf = x[4] + f - x[2]
			if (x[2] <= t && t <= x[3]) pt = x[4] + t - x[2]
		}
		END { print pf, pt }')
	read -r pf pt <<<"$ext"
	[ -n "$pf" ] && [ -n "$pt" ] || return 1
	tmp=$(mktemp)
	dd if="$img" of="$tmp" bs=4096 skip="$pf" count=1 status=none &&
		dd if="$tmp" of="$img" bs=4096 seek="$pt" count=1 \
			conv=notrunc,fsync oflag=direct status=none
	local rc=$?
	rm -f "$tmp"
	[ $rc -eq 0 ] || return 1
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo "$img"
}

# vq COLUMNS TAG [SQL]: COLUMNS of the phases of the run tagged TAG
# (p: phase, w: workload run, r: run), one row a line.
vq() {
	sqlite3 "$DB" "select $1 from phases p join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id where r.tag = '$2' $3"
}

# paused_start TAG PHASE WORKLOAD [TARGET]: start `fslab run --verify`
# on TARGET (default a 1G ext4 loop image), stopped before PHASE; sets
# PID and ERR (its stderr).  False (after a not_ok) when it never paused.
paused_start() {
	local tag=$1 phase=$2 target=${4:-ext4:size=1G}
	ERR=$SCRATCH/$tag.err
	"$FSLAB" run --verify --pause-before "$phase" --target "$target" \
		--workload "$3" --db "$DB" --scratch "$SCRATCH" --tag "$tag" \
		>"$SCRATCH/$tag.out" 2>"$ERR" &
	PID=$!
	cleanup_add "kill -9 $PID"
	pause_wait "$ERR" $PID "$phase" && return 0
	not_ok "$tag: paused before $phase" "$(tail -5 "$ERR")"
	kill -9 $PID 2>/dev/null
	wait $PID
	return 1
}

# paused_resume: let the paused run go on; sets RC to its exit code.
paused_resume() {
	kill -CONT $PID
	wait $PID
	RC=$?
}

# check_caught TAG PHASE OFFSET: after a block 0 copied over the block at
# OFFSET of $FILE, the run exited 1 naming file, offset and a misdirected
# write, and phase and run are stored as failed.
check_caught() {
	local tag=$1 phase=$2 off=$3 st
	[ $RC -eq 1 ] && ok "$tag: run exits 1" || not_ok "$tag: run exits 1" "exit $RC" "$(tail -5 "$ERR")"
	grep -q "verify: file $FILE offset $off: block holds file [0-9a-f]* offset 0 (misdirected write within the file)" "$ERR" &&
		ok "$tag: mismatch names $FILE, offset $off and what the block holds" ||
		not_ok "$tag: mismatch names $FILE, offset $off and what the block holds" "$(grep -i verify "$ERR")"
	st=$(vq "p.status || ' ' || p.error" "$tag" "and p.name = '$phase'")
	case "$st" in
	"failed verify: file $FILE offset $off: block holds file "*) ok "$tag: $phase stored as failed with the mismatch" ;;
	*) not_ok "$tag: $phase stored as failed with the mismatch" "got '$st'" ;;
	esac
	st=$(sqlite3 "$DB" "select status from runs where tag = '$tag'")
	[ "$st" = failed ] && ok "$tag: run stored as failed" || not_ok "$tag: run stored as failed" "got '$st'"
}
