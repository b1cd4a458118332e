#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/mpi-metadata.sh - metadata scale-out the mdtest way: 1, 2 and 4
# MPI ranks on one loop-mounted ext4 (a dir: target), FILES empty files
# per rank, create/stat/unlink files/s as fslab stores them (total files
# over latest end - earliest start, as mdtest/IOR count), and each rate
# relative to one rank.  mdtest-like expectations on a machine of C
# cores: metadata ops on a warm cache are CPU-bound, so a few ranks scale
# up to about C (less where the filesystem serialises: one directory
# with shared=1, the journal) and more ranks than cores only add
# contention; the script prints what it measured, never asserts.
#
#   bench/mpi-metadata.sh [FILES] [ROUNDS] [EXTRA-OPTIONS]
#   e.g. bench/mpi-metadata.sh 20000 3
#        bench/mpi-metadata.sh 20000 3 shared=1     (one shared tree)
#
# Needs root (loop image, mkfs), mpirun (openmpi-bin), an fslab built
# with MPI (libopenmpi-dev) and sqlite3.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
n=${1:-20000}
rounds=${2:-3}
extra=${3:-}
bench_need mpirun "apt-get install openmpi-bin"
"$fslab" --version | grep -q 'mpi: yes' || { echo "needs an fslab built with MPI" >&2; exit 1; }
bench_work
# Open MPI's own allocations at exit are not ours (ASan builds).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

# enough inodes for 4 ranks x FILES
bench_fs 2G -- mkfs.ext4 -q -F -N $((4 * n + 10000))

opts="files=$n,cold=no${extra:+,$extra}"
db=$work/r.db
# rate TAG PHASE: files/s of that phase, averaged over the rounds
rate() {
	sqlite3 "$db" "select printf('%.0f', avg(m.value)) from metrics m
		join phases p on m.phase_id = p.id join wlruns w on p.wlrun_id = w.id
		join runs r on w.run_id = r.id where r.tag like '$1-%'
		and p.name = '$2' and m.name = 'files/s'"
}
# cpu TAG PHASE: rank 0's user+sys CPU microseconds per file it made: a
# figure a busy machine disturbs less than files/s
cpu() {
	sqlite3 "$db" "select printf('%.1f', avg((select sum(m.value) from metrics m
		where m.phase_id = p.id and m.name in ('user_s', 'sys_s')) * 1e6 /
		(select k.files from workers k where k.phase_id = p.id and k.worker = 0)))
		from phases p join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id
		where r.tag like '$1-%' and p.name = '$2'"
}
# Rounds interleave the rank counts (1 2 4 1 2 4 ...) so drift of a
# shared machine hits all alike.
for ((i = 1; i <= rounds; i++)); do
	for np in 1 2 4; do
		mpirun --oversubscribe --allow-run-as-root -np $np "$fslab" run \
			--target "dir:$mnt" --db "$db" --tag "np$np-$i" \
			--workload "metadata:$opts" >"$work/np$np.out" 2>&1 ||
			{ tail -20 "$work/np$np.out" >&2; exit 1; }
	done
done

echo "metadata: $opts per rank, $rounds rounds, ext4 on a loop image, $(nproc) cores"
printf '%-6s %10s %10s %10s %8s %8s %8s %14s\n' ranks create/s stat/s unlink/s \
	"xcreate" "xstat" "xunlink" "cpu us/create"
for np in 1 2 4; do
	c=$(rate np$np create) s=$(rate np$np stat) u=$(rate np$np unlink)
	[ $np = 1 ] && c1=$c s1=$s u1=$u
	printf '%-6s %10s %10s %10s %8s %8s %8s %14s\n' $np "$c" "$s" "$u" \
		"$(awk -v a="$c" -v b="$c1" 'BEGIN { printf "%.2f", a / b }')" \
		"$(awk -v a="$s" -v b="$s1" 'BEGIN { printf "%.2f", a / b }')" \
		"$(awk -v a="$u" -v b="$u1" 'BEGIN { printf "%.2f", a / b }')" \
		"$(cpu np$np create)"
done
