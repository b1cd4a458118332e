# SPDX-License-Identifier: GPL-2.0-or-later
# verifylib.sh - helpers for the --verify tests (t966x): wait until a
# run stops in --pause-before, and corrupt a file's block behind fslab's
# back by writing to the loop image under it.

# pause_wait ERRFILE PID PHASE: true once fslab said it paused before
# PHASE (within 120 s), false when it exited or took too long.
pause_wait() {
	local err=$1 pid=$2 phase=$3 deadline=$((SECONDS + 120))
	while ! grep -q "paused before phase $phase (pid $pid)" "$err"; do
		kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ] || return 1
		sleep 0.2
	done
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
