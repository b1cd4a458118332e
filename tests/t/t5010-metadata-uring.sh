#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# metadata sync=uring (issue 41 item 2): the creates' fsyncs go through
# io_uring in batches.  On small ext4 and xfs loop targets the run must
# succeed, the stat phase must find every file with its size (the
# workload fails the run otherwise), every create must count in the
# create phase and its latency histogram, and the option must be stored
# with the run.  batch=7 does not divide the files, so a short last
# batch is flushed too.  Bad values (batch=0, batch= without
# sync=uring) are refused with a usage exit and a message naming them.
# Where the kernel refuses io_uring the run must fail saying why.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
scratch_dir

files=200 threads=2 total=400
q() { sqlite3 "$DB" "$@"; }
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		not_ok "$1" "got '$2', wanted '$3'"; fi
}
uring_off=$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)
for fs in ext4 xfs; do
	need_cmd mkfs.$fs
	tag="t5010-$fs"
	out=$SCRATCH/$tag.out
	"$FSLAB" run --target "$fs:size=512M" --db "$DB" --scratch "$SCRATCH" \
		--workload "metadata:files=$files,threads=$threads,dirs=2,size=4k,sync=uring,batch=7" \
		--tag "$tag" >"$out" 2>"$SCRATCH/$tag.err"
	rc=$?
	if [ "$uring_off" = 2 ]; then
		[ $rc -ne 0 ] && grep -q 'kernel.io_uring_disabled=2' "$SCRATCH/$tag.err" &&
			ok "$tag: io_uring disabled by sysctl: the run fails naming it" ||
			not_ok "$tag: io_uring disabled: the run fails naming it" \
				"exit $rc" "$(tail -5 "$SCRATCH/$tag.err")"
		continue
	fi
	if [ $rc -eq 0 ]; then ok "$tag: run exits 0"; else
		not_ok "$tag: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/$tag.err")"; fi
	run=$(q "select id from runs where tag = '$tag'")
	st=$(q "select status from runs where id = ${run:-0}")
	is "$tag: run stored as complete" "$st" complete
	got=$(q "select group_concat(phase || '=' || files || ':' || status, ' ')
		from $PHASES where run = ${run:-0}
		and phase in ('create', 'stat', 'read', 'unlink') order by seq")
	is "$tag: stat verified all $total files" "$got" \
		"create=$total:ok stat=$total:ok read=$total:ok unlink=$total:ok"
	bytes=$(q "select bytes from $PHASES where run = ${run:-0} and phase = 'create'")
	is "$tag: create wrote 4 KiB per file" "$bytes" $((total * 4096))
	n=$(q "select sum(h.count) from hists h join phases p on p.id = h.phase_id
		join wlruns w on w.id = p.wlrun_id
		where w.run_id = ${run:-0} and p.name = 'create'")
	is "$tag: a latency sample per created file" "$n" $total
	opts=$(q "select options from wlruns where run_id = ${run:-0}")
	case ",$opts," in
	*,sync=uring,*batch=7,*) ok "$tag: sync=uring,batch=7 stored with the run" ;;
	*) not_ok "$tag: sync=uring,batch=7 stored with the run" "options '$opts'" ;;
	esac
	grep -q 'sync=uring: fsyncs in batches of 7 through io_uring' "$SCRATCH/$tag.err" "$out" &&
		ok "$tag: the run says it batches through io_uring" ||
		not_ok "$tag: the run says it batches through io_uring" "$(head -5 "$SCRATCH/$tag.err")"
	nothing_left_under "$SCRATCH" && ok "$tag: no mount or loop device left" ||
		not_ok "$tag: no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
done

for bad in "sync=uring,batch=0|batch" "sync=uring,batch=4097|batch" \
	"sync=fsync,batch=8|batch applies only to sync=uring"; do
	opt=${bad%%|*} why=${bad#*|}
	err=$SCRATCH/bad.err
	"$FSLAB" run --target "ext4:size=512M" --workload "metadata:$opt" \
		--db "$DB" --scratch "$SCRATCH" >"$err" 2>&1
	rc=$?
	[ $rc -eq 2 ] && grep -q "$why" "$err" &&
		ok "$opt refused (usage exit), naming '$why'" ||
		not_ok "$opt refused (usage exit), naming '$why'" "exit $rc" "$(cat "$err")"
done
nothing_left_under "$SCRATCH" && ok "nothing left mounted at the end" ||
	not_ok "nothing left mounted at the end" "$(grep "$SCRATCH" /proc/mounts)"
check_metric_names
finish
