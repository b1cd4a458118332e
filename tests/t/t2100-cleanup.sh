#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab cleanup after a SIGKILL'd run: the mount, loop device, image and
# mount point the run journaled are removed and its journal with them;
# with nothing to do it says so; a running owner's journal is skipped and
# what it recorded survives.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd mkfs.ext4
scratch_dir

mounted_under() {
	awk -v d="$1" 'index($2, d) == 1 { f = 1 } END { exit !f }' /proc/mounts
}

# Held before its first phase, the run has its target mounted; it is
# killed there, never raced.
"$FSLAB" run --target ext4:size=1G --workload compilebench:initial-dirs=1,runs=1 \
	--pause-before initial-create --db "$SCRATCH/r.db" \
	--scratch "$SCRATCH" >"$SCRATCH/run.out" 2>"$SCRATCH/run.err" &
pid=$!
cleanup_add "kill -9 $pid"

if pause_wait "$SCRATCH/run.err" $pid initial-create && mounted_under "$SCRATCH" &&
	kill -9 $pid 2>/dev/null; then
	wait $pid 2>/dev/null
	ok "run killed with its target mounted"
	killed=1
else
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	not_ok "run killed with its target mounted" \
		"the run ended or never mounted" "$(tail -20 "$SCRATCH/run.err")"
	killed=
fi

if [ -n "$killed" ]; then
	journals=$(ls "$FSLAB_STATE_DIR"/*.state 2>/dev/null | wc -l)
	[ "$journals" -eq 1 ] && ok "the killed run left its journal" ||
		not_ok "the killed run left its journal" "$journals journals"
	grep -q "^mount $SCRATCH/" "$FSLAB_STATE_DIR"/*.state &&
		ok "journal records the mount" ||
		not_ok "journal records the mount" "$(cat "$FSLAB_STATE_DIR"/*.state)"
	mounted_under "$SCRATCH" && ok "mount still there before cleanup" ||
		not_ok "mount still there before cleanup"
	ls "$SCRATCH"/*.img >/dev/null 2>&1 && ok "image still there before cleanup" ||
		not_ok "image still there before cleanup"

	out=$("$FSLAB" cleanup --dry-run 2>&1)
	rc=$?
	case $out in
	*"would unmount $SCRATCH/"*) ok "dry run says what it would do" ;;
	*) not_ok "dry run says what it would do" "exit $rc" "$out" ;;
	esac
	mounted_under "$SCRATCH" && ok "dry run leaves the mount" ||
		not_ok "dry run leaves the mount"

	out=$("$FSLAB" cleanup 2>&1)
	rc=$?
	[ $rc -eq 0 ] && ok "cleanup exits 0" || not_ok "cleanup exits 0" "exit $rc" "$out"
	case $out in
	*"unmounted $SCRATCH/"*"removed $SCRATCH/"*.img*)
		ok "cleanup reports what it removed" ;;
	*) not_ok "cleanup reports what it removed" "$out" ;;
	esac
	mounted_under "$SCRATCH" && not_ok "no mount left under scratch" \
		"$(grep "$SCRATCH" /proc/mounts)" || ok "no mount left under scratch"
	nothing_left_under "$SCRATCH" && ok "no loop device backed by scratch" ||
		not_ok "no loop device backed by scratch" "$(losetup -a)"
	ls "$SCRATCH"/*.img >/dev/null 2>&1 &&
		not_ok "no image left" "$(ls -l "$SCRATCH")" || ok "no image left"
	ls -d "$SCRATCH"/*.mnt >/dev/null 2>&1 &&
		not_ok "no mount point left" "$(ls -l "$SCRATCH")" || ok "no mount point left"
	[ -z "$(ls -A "$FSLAB_STATE_DIR")" ] && ok "journal directory empty" ||
		not_ok "journal directory empty" "$(ls -l "$FSLAB_STATE_DIR")"
fi

out=$("$FSLAB" cleanup 2>&1)
rc=$?
[ $rc -eq 0 ] && [ "$out" = "nothing to clean up" ] &&
	ok "nothing to do: says so, exits 0" ||
	not_ok "nothing to do: says so, exits 0" "exit $rc" "$out"

# A journal whose owner is alive: hand-written for a sleeping process.
sleep 30 &
live=$!
cleanup_add "kill $live"
stat=$(cat /proc/$live/stat)
set -- ${stat##*) }
start=${20:-}   # field 22 of /proc/pid/stat; fields restart at 3 after ')'
mkdir -p "$FSLAB_STATE_DIR"
touch "$SCRATCH/dummy.img"
# fslab trusts only journals as it writes them: 0600, in a marked scratch.
touch "$SCRATCH/.fslab-scratch"
(umask 077; printf 'pid %s %s\nscratch %s\nimage %s\n' $live "$start" \
	"$SCRATCH" "$SCRATCH/dummy.img" >"$FSLAB_STATE_DIR/$live.state")
out=$("$FSLAB" cleanup 2>&1)
rc=$?
case $out in
*"skipping resources of running fslab (pid $live)"*)
	ok "live owner's journal skipped with a message" ;;
*) not_ok "live owner's journal skipped with a message" "exit $rc" "$out" ;;
esac
[[ $out == *"  kept image $SCRATCH/dummy.img"* ]] &&
	ok "the skip message lists what it kept" ||
	not_ok "the skip message lists what it kept" "$out"
[ -e "$SCRATCH/dummy.img" ] && ok "live owner's image survives" ||
	not_ok "live owner's image survives"
[ -e "$FSLAB_STATE_DIR/$live.state" ] && ok "live owner's journal survives" ||
	not_ok "live owner's journal survives"

# Once the owner is gone the same journal is replayed.
kill $live
wait $live 2>/dev/null
out=$("$FSLAB" cleanup 2>&1)
rc=$?
[ $rc -eq 0 ] && [ ! -e "$SCRATCH/dummy.img" ] &&
	[ ! -e "$FSLAB_STATE_DIR/$live.state" ] &&
	ok "dead owner's journal replayed" ||
	not_ok "dead owner's journal replayed" "exit $rc" "$out"
finish
