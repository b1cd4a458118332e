#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab under mpirun on a loop-mounted shared directory: every rank
# works in its own rank-NNNNN directory, rank 0 alone stores the IOR-style
# aggregate (work summed over ranks, global time = latest end - earliest
# start) with one worker row per rank, and a rank that fails ends the
# job quickly with its rank and reason.  metadata's stonewall + wear-out,
# reorder=K and shared=1 across ranks.
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
mkfs.ext4 -q -F -N 400000 "$loop"
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
nr=$(sqlite3 "$DB" "select count(*) from $METRICS where run = $run and name = 'ranks' and value = 4")
[ "$nr" -eq "$nph" ] && ok "per-rank spread stored (ranks, rank_min/max/mean)" || not_ok "per-rank spread stored" "$nr of $nph"
left=$(find "$SCRATCH/shared" -mindepth 1 -maxdepth 1 ! -name lost+found | head -3)
[ -z "$left" ] && ok "rank directories removed afterwards" || not_ok "rank directories removed afterwards" "$left"

awk '$1 ~ /^(kernel|mm)\//' "$CBDATA/dataset-unpatched" >"$SCRATCH/tree.model"
printf '[global]\nsize=1m\nbs=4k\n[w]\nrw=write\n[r]\nrw=read\nfilename=w.0.0\n' >"$SCRATCH/mpi.fio"
# The other rank-aware workloads: each run completes and its aggregates
# are the sum over the four ranks.
for w in "metadata:files=500,threads=1,dirs=2,size=1k" \
	"bonnie:size=16M,ram=0,files=1,seeks=400" \
	"ffsb:time=2" "tree:model=$SCRATCH/tree.model,order=readdir+inode" \
	"fio:job=$SCRATCH/mpi.fio" "exec:cmd=echo n 1,metrics=lines"; do
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

# mpirun -np 4 fslab run ... --workload metadata:OPTS --tag TAG; sets $r
md4() {
	local tag=$1 opts=$2
	timeout 300 $MPIRUN -np 4 "$FSLAB" run --target "dir:$SCRATCH/shared" \
		--workload "metadata:$opts" --db "$DB" --tag "$tag" \
		>"$SCRATCH/$tag.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && ok "$tag: exits 0" || not_ok "$tag: exits 0" "exit $rc" "$(tail -15 "$SCRATCH/$tag.out")"
	r=$(sqlite3 "$DB" "select id from runs where tag = '$tag'")
}
# per-rank files of phase $2 in run $1, "n0 n1 n2 n3"
rank_files() {
	sqlite3 "$DB" "select group_concat(files, ' ') from (select k.files from workers k join phases p on k.phase_id = p.id join wlruns w on p.wlrun_id = w.id where w.run_id = ${1:-0} and p.name = '$2' order by k.worker)"
}

# Stonewall + wear-out: at the deadline the ranks agree on the largest
# count and every rank finishes up to it, so every rank has the same
# number of files: in the stored per-rank rows and on disk (each rank
# counts its files with readdir after the create).  files= is far more
# than any machine creates in 0.5 s, so the deadline always cuts.
files=1000000
md4 mpi-stonewall "files=$files,stonewall=0.5,cold=no"
c=$(rank_files "$r" create)
set -- $c
[ $# -eq 4 ] && [ "$1" = "$2" ] && [ "$2" = "$3" ] && [ "$3" = "$4" ] && [ "$1" -gt 0 ] &&
	ok "stonewall+wear-out: every rank created the same count ($c)" ||
	not_ok "stonewall+wear-out: every rank created the same count" "per rank: $c"
per=${1:-0}
swmax=$(metric_full "$r" create stonewall_max)
[ "${swmax%% *}" = "$per.0" ] && ok "wear-out went up to the agreed largest count ($swmax)" ||
	not_ok "wear-out went up to the agreed largest count" "stonewall_max '$swmax', per rank $per"
lo=$(metric_full "$r" stat disk_files_min) hi=$(metric_full "$r" stat disk_files_max)
[ "$lo" = "$per.0 files 0" ] && [ "$hi" = "$per.0 files 0" ] &&
	ok "on disk every rank has $per files" || not_ok "on disk every rank has $per files" "min '$lo' max '$hi'"
[ "$(rank_files "$r" stat)" = "$c" ] && [ "$(rank_files "$r" unlink)" = "$c" ] &&
	ok "stat and unlink visit the same files on every rank" ||
	not_ok "stat and unlink visit the same files on every rank" "stat $(rank_files "$r" stat) unlink $(rank_files "$r" unlink)"
sws=$(metric_full "$r" create stonewall_s) swf=$(metric_full "$r" create stonewall_files) swr=$(metric_full "$r" create stonewall_files/s)
case "$sws|$swf|$swr" in
*" s 0|"*" files 1|"*" files/s 1") ok "stonewall metrics stored with units and direction" ;;
*) not_ok "stonewall metrics stored with units and direction" "'$sws' '$swf' '$swr'" ;;
esac
num_ge "${sws%% *}" 0.5 && ok "the stonewall fired at the deadline (${sws%% *} s >= 0.5 s)" ||
	not_ok "the stonewall fired at the deadline" "stonewall_s '$sws'"
total=$(sqlite3 "$DB" "select files from phases p join wlruns w on p.wlrun_id = w.id where w.run_id = ${r:-0} and p.name = 'create'")
[ "$per" -lt "$files" ] && num_lt "${swf%% *}" $((4 * files)) &&
	ok "the deadline cut create short ($per of $files files per rank)" ||
	not_ok "the deadline cut create short" "per rank $per, stonewall_files '$swf', files=$files"
[ -n "$total" ] && num_ge "$total" "${swf%% *}" && [ "$total" -eq $((4 * per)) ] &&
	ok "full count $total >= count at the stonewall ${swf%%.*}" || not_ok "full count >= count at the stonewall" "$swf vs $total"
grep -Eq '^ +stonewall [0-9.]+ s: [0-9]+ files, [0-9]+ files/s; full [0-9.]+ s: '"$total"' files' "$SCRATCH/mpi-stonewall.out" &&
	grep -q '^create stonewall: ' "$SCRATCH/mpi-stonewall.out" &&
	ok "report and summary show stonewall and full time" ||
	not_ok "report and summary show stonewall and full time" "$(grep -i stonewall "$SCRATCH/mpi-stonewall.out")"

# reorder=1 without wear-out: the ranks stop with different counts, and
# rank r's stat phase visits what rank r+1 made, so its stored row has
# rank r+1's count (and the books would fail on any other directory).
md4 mpi-reorder "files=1000000,stonewall=0.5,wearout=no,reorder=1"
c=$(rank_files "$r" create) s=$(rank_files "$r" stat) u=$(rank_files "$r" unlink)
set -- $c
[ -n "$s" ] && [ $# -eq 4 ] && [ "$s" = "$2 $3 $4 $1" ] && ok "reorder=1: rank r stats rank r+1's files ($c -> $s)" ||
	not_ok "reorder=1: rank r stats rank r+1's files" "create $c, stat $s"
[ "$u" = "$c" ] && ok "reorder=1: each rank unlinks its own files" || not_ok "reorder=1: each rank unlinks its own files" "create $c unlink $u"
[ "$(printf '%s\n' $c | sort -u | wc -l)" -gt 1 ] && ok "the ranks' counts differ, so the shift is visible" ||
	not_ok "the ranks' counts differ, so the shift is visible" "$c"
[ "$(metric_full "$r" stat reorder)" = "1.0 ranks 0" ] && [ "$(metric_full "$r" stat peer_of_rank0)" = "1.0 rank 0" ] &&
	ok "reorder and rank 0's peer stored" || not_ok "reorder and rank 0's peer stored" "$(metric_full "$r" stat reorder)"
grep -q "all 4 ranks run on one node.*cold-cache step" "$SCRATCH/mpi-reorder.out" &&
	ok "one-node note printed" || not_ok "one-node note printed" "$(grep reorder "$SCRATCH/mpi-reorder.out")"

# bonnie reorder=1 with --verify: rank r's block read reads rank r+1's
# Bonnie.PID (that rank's pid, learnt from the others), and its data
# checks against that file's id, which only rank r+1's file holds.
# Progress comes from rank 0 alone.
tag=mpi-bonnie-reorder
timeout 300 $MPIRUN -np 4 "$FSLAB" run --verify --target "dir:$SCRATCH/shared" \
	--workload "bonnie:size=16M,ram=0,files=0,seeks=100,perchar=none,reorder=1" \
	--db "$DB" --tag $tag >"$SCRATCH/$tag.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "bonnie reorder=1 --verify on 4 ranks exits 0" ||
	not_ok "bonnie reorder=1 --verify on 4 ranks exits 0" "exit $rc" "$(tail -15 "$SCRATCH/$tag.out")"
own=$(sed -n 's|^bonnie: file .*/rank-00000/Bonnie\.\([0-9]*\),.*|\1|p' "$SCRATCH/$tag.out")
peer=$(sed -n 's|^bonnie: reorder=1: getc and block read read .*/rank-00001/Bonnie\.\([0-9]*\) (rank 1)$|\1|p' "$SCRATCH/$tag.out")
[ -n "$own" ] && [ -n "$peer" ] && [ "$own" != "$peer" ] &&
	ok "bonnie reorder=1: rank 0 reads rank 1's file (Bonnie.$peer, its own is Bonnie.$own)" ||
	not_ok "bonnie reorder=1: rank 0 reads rank 1's file" "$(grep '^bonnie: ' "$SCRATCH/$tag.out")"
r=$(sqlite3 "$DB" "select id from runs where tag = '$tag'")
[ "$(metric_full "$r" block-read peer_of_rank0)" = "1.0 rank 0" ] &&
	[ "$(sqlite3 "$DB" "select p.status from phases p join wlruns w on p.wlrun_id = w.id where w.run_id = ${r:-0} and p.name = 'block-read'")" = ok ] &&
	ok "bonnie reorder: block read verified, rank 0's peer stored" ||
	not_ok "bonnie reorder: block read verified, rank 0's peer stored" "$(metric_full "$r" block-read peer_of_rank0)"

# shared=1: one tree for all ranks (mkdir makes dirs=4 directories in
# all, not per rank), 4 x 2 x 500 files, aggregates the sum of the ranks.
md4 mpi-shared "files=500,threads=2,dirs=4,shared=1,size=1k,names=random"
got=$(sqlite3 "$DB" "select group_concat(p.name || '=' || p.files, ' ') from phases p join wlruns w on p.wlrun_id = w.id where w.run_id = ${r:-0} order by p.seq")
[ "$got" = "mkdir=4 create=4000 stat=4000 read=4000 unlink=4000 rmdir=4" ] &&
	ok "shared=1: one tree of 4 directories, 4000 files" || not_ok "shared=1: one tree of 4 directories, 4000 files" "$got"
bad=$(sqlite3 "$DB" "select count(*) from phases p join wlruns w on p.wlrun_id = w.id where w.run_id = ${r:-0} and ((select count(*) from workers k where k.phase_id = p.id) != 4 or p.files != (select sum(files) from workers k where k.phase_id = p.id))")
[ "$bad" = 0 ] && [ "$(rank_files "$r" create)" = "1000 1000 1000 1000" ] &&
	ok "shared=1: aggregates are the sum of 4 ranks of 1000" || not_ok "shared=1: aggregates are the sum of the ranks" "$bad phases; $(rank_files "$r" create)"
grep -q "shared=1: all 4 ranks in one tree, $SCRATCH/shared/metadata-0-r0\.fslab-[0-9]*-[0-9a-f]*/shared" "$SCRATCH/mpi-shared.out" &&
	ok "shared=1: says where the one tree is" || not_ok "shared=1: says where the one tree is" "$(head -5 "$SCRATCH/mpi-shared.out")"
left=$(find "$SCRATCH/shared" -mindepth 1 -maxdepth 1 ! -name lost+found | head -3)
[ -z "$left" ] && ok "shared=1: nothing left in the shared directory" || not_ok "shared=1: nothing left in the shared directory" "$left"
check_exit "ranks given different options are refused" 1 \
	$MPIRUN -np 1 "$FSLAB" run --target "dir:$SCRATCH/shared" --workload metadata:files=10 --no-store : \
	-np 1 "$FSLAB" run --target "dir:$SCRATCH/shared" --workload metadata:files=20 --no-store

# A rank that cannot use its path ends the job, fast, with its reason.
start=$SECONDS
timeout 120 $MPIRUN -np 3 "$FSLAB" run --target "dir:$SCRATCH/shared" --workload "$wl" --no-store : \
	-np 1 "$FSLAB" run --target "dir:$SCRATCH/no-such-dir" --workload "$wl" --no-store \
	>"$SCRATCH/fail.out" 2>&1
rc=$?
took=$((SECONDS - start))
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "a failing rank makes the job fail" || not_ok "a failing rank makes the job fail" "exit $rc"
grep -qE "rank 3 failed (to set up its target|pre-flight): .*no-such-dir" "$SCRATCH/fail.out" &&
	ok "rank 0 names the failing rank and the reason" ||
	not_ok "rank 0 names the failing rank and the reason" "$(head -5 "$SCRATCH/fail.out")"
[ $took -lt 60 ] && ok "no hang (${took}s)" || not_ok "no hang" "${took}s"
check_exit "loop targets are refused under MPI" 2 env ASAN_OPTIONS=detect_leaks=0 \
	$MPIRUN -np 2 "$FSLAB" run --target ext4:size=1G --workload "$wl" --no-store
check_metric_names
finish
