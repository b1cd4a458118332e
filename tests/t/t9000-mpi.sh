#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab under mpirun on a loop-mounted shared directory: every rank
# works in its own rank-NNNNN directory, rank 0 alone stores the IOR-style
# aggregate (work summed over ranks, global time = latest end - earliest
# start) with one worker row per rank, and a rank that fails ends the
# job quickly with its rank and reason.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd mpirun
need_cmd sqlite3
need_cmd mkfs.ext4
"$FSLAB" --version | grep -q 'mpi: yes' || _need "an fslab built with MPI (libopenmpi-dev)"
scratch_dir
have_cbdata || _need "compilebench data sets at $CBDATA"
make_small_cbdata "$SCRATCH/cbdata"
# Open MPI's own allocations at exit are not ours to fix.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
MPIRUN="mpirun --oversubscribe --allow-run-as-root"

truncate -s 2G "$SCRATCH/shared.img"
loop=$(losetup -f --show "$SCRATCH/shared.img") || { not_ok "losetup"; finish; exit 1; }
cleanup_add "losetup -d $loop"
mkfs.ext4 -q -F "$loop"
mkdir "$SCRATCH/shared"
mount "$loop" "$SCRATCH/shared"
cleanup_add "umount '$SCRATCH/shared'"

wl="compilebench:initial-dirs=1,runs=4,sources=$SCRATCH/cbdata"
out=$SCRATCH/mpi.out
timeout 300 $MPIRUN -np 4 "$FSLAB" run --target "dir:$SCRATCH/shared" \
	--workload "$wl" --db "$DB" --tag mpi4 >"$out" 2>"$SCRATCH/mpi.err"
rc=$?
[ $rc -eq 0 ] && ok "4 ranks: run exits 0" || not_ok "4 ranks: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/mpi.err")"
grep -Eq '^ +ranks 4: min [0-9]+ max [0-9]+ mean [0-9]+ σ [0-9]+ (files/s|MiB/s), slowest rank [0-3]$' "$out" &&
	ok "per-rank summary line" || not_ok "per-rank summary line" "$(tail -8 "$out")"
n=$(grep -c '^run complete:$' "$out")
[ "$n" -eq 1 ] && ok "only rank 0 prints the report" || not_ok "only rank 0 prints the report" "$n reports"
run=$(sqlite3 "$DB" "select id from runs where tag = 'mpi4'")
[ -n "$run" ] && [ "$(sqlite3 "$DB" 'select count(*) from runs')" -eq 1 ] &&
	ok "one run stored (rank 0 alone writes)" || not_ok "one run stored (rank 0 alone writes)"
q="from phases p join wlruns w on p.wlrun_id = w.id where w.run_id = $run"
nph=$(sqlite3 "$DB" "select count(*) $q")
bad=$(sqlite3 "$DB" "select count(*) $q and (select count(*) from workers k where k.phase_id = p.id) != 4")
[ "$nph" -gt 0 ] && [ "$bad" -eq 0 ] && ok "every phase has one worker row per rank" ||
	not_ok "every phase has one worker row per rank" "$bad of $nph phases"
bad=$(sqlite3 "$DB" "select count(*) $q and (p.files != (select sum(files) from workers k where k.phase_id = p.id) or p.bytes != (select sum(bytes) from workers k where k.phase_id = p.id))")
[ "$bad" -eq 0 ] && ok "aggregates equal the sum of per-rank work" || not_ok "aggregates equal the sum of per-rank work" "$bad phases differ"
bad=$(sqlite3 "$DB" "select count(*) $q and p.wall_ns < (select max(end_ns - start_ns) from workers k where k.phase_id = p.id)")
[ "$bad" -eq 0 ] && ok "global time >= every rank's time" || not_ok "global time >= every rank's time" "$bad phases"
bad=$(sqlite3 "$DB" "select count(*) $q and p.wall_ns != (select max(end_ns) - min(start_ns) from workers k where k.phase_id = p.id)")
[ "$bad" -eq 0 ] && ok "global time = latest end - earliest start" || not_ok "global time = latest end - earliest start" "$bad phases"
nr=$(sqlite3 "$DB" "select count(*) from metrics m join phases p on m.phase_id = p.id join wlruns w on p.wlrun_id = w.id where w.run_id = $run and m.name = 'ranks' and m.value = 4")
[ "$nr" -eq "$nph" ] && ok "per-rank spread stored (ranks, rank_min/max/mean)" || not_ok "per-rank spread stored" "$nr of $nph"
left=$(find "$SCRATCH/shared" -mindepth 1 -maxdepth 1 ! -name lost+found | head -3)
[ -z "$left" ] && ok "rank directories removed afterwards" || not_ok "rank directories removed afterwards" "$left"

awk '$1 ~ /^(kernel|mm)\//' "$CBDATA/dataset-unpatched" >"$SCRATCH/tree.model"
# The other rank-aware workloads: each run completes and its aggregates
# are the sum over the four ranks.
for w in "metadata:files=500,threads=1,dirs=2,size=1k" \
	"bonnie:size=16M,ram=0,files=1,seeks=400" \
	"ffsb:time=2" "tree:model=$SCRATCH/tree.model,order=readdir+inode"; do
	name=${w%%:*}
	timeout 300 $MPIRUN -np 4 "$FSLAB" run --target "dir:$SCRATCH/shared" \
		--workload "$w" --db "$DB" --tag "mpi-$name" >"$SCRATCH/$name.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && ok "$name on 4 ranks exits 0" || not_ok "$name on 4 ranks exits 0" "exit $rc" "$(tail -15 "$SCRATCH/$name.out")"
	r=$(sqlite3 "$DB" "select id from runs where tag = 'mpi-$name'")
	bad=$(sqlite3 "$DB" "select count(*) from phases p join wlruns w on p.wlrun_id = w.id where w.run_id = ${r:-0} and ((select count(*) from workers k where k.phase_id = p.id) != 4 or p.files != (select sum(files) from workers k where k.phase_id = p.id))")
	n=$(sqlite3 "$DB" "select count(*) from phases p join wlruns w on p.wlrun_id = w.id where w.run_id = ${r:-0}")
	[ "$n" -gt 0 ] && [ "$bad" -eq 0 ] && ok "$name: $n phases, 4 rank rows each, files summed" ||
		not_ok "$name: 4 rank rows per phase, files summed" "$bad of $n phases"
done
check_exit "metadata shared=1 across ranks is refused, not wrong" 1 \
	$MPIRUN -np 2 "$FSLAB" run --target "dir:$SCRATCH/shared" --workload metadata:files=10,shared=1 --no-store

# A rank that cannot use its path ends the job, fast, with its reason.
start=$SECONDS
timeout 120 $MPIRUN -np 3 "$FSLAB" run --target "dir:$SCRATCH/shared" --workload "$wl" --no-store : \
	-np 1 "$FSLAB" run --target "dir:$SCRATCH/no-such-dir" --workload "$wl" --no-store \
	>"$SCRATCH/fail.out" 2>&1
rc=$?
took=$((SECONDS - start))
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "a failing rank makes the job fail" || not_ok "a failing rank makes the job fail" "exit $rc"
grep -q "rank 3 failed to set up its target: .*no-such-dir" "$SCRATCH/fail.out" &&
	ok "rank 0 names the failing rank and the reason" ||
	not_ok "rank 0 names the failing rank and the reason" "$(head -5 "$SCRATCH/fail.out")"
[ $took -lt 60 ] && ok "no hang (${took}s)" || not_ok "no hang" "${took}s"
check_exit "loop targets are refused under MPI" 2 env ASAN_OPTIONS=detect_leaks=0 \
	$MPIRUN -np 2 "$FSLAB" run --target ext4:size=1G --workload "$wl" --no-store
finish
