#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/cluster-metadata.sh - metadata and bonnie scale-out on the 3-host
# GlusterFS cluster of tests/cluster/cluster.sh: 1, 2, 4 and 6 ranks,
# round-robin over the hosts (mpirun --map-by node: 1 rank on c1, 2 on
# c1+c2, 4 on c1 c2 c3 c1, 6 = 2 per host), each a FUSE client of the
# distributed volume.  Prints the aggregate rates as fslab stores them
# (total work over latest end - earliest start, the IOR/mdtest way), the
# slowest host's rate, and the scaling against one rank.  All "hosts"
# share this machine's cores, and the servers are on it too, so this
# measures fslab and the client/server stack under load, not a network;
# the script prints what it measured, never asserts.
#
#   bench/cluster-metadata.sh [FILES] [BONNIE-SIZE]     (default 1000 16M)
#
# Needs root and what tests/t/t9100-cluster.sh needs (glusterfs-server,
# glusterfs-client, openmpi-bin, an fslab built with MPI, sqlite3).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
fslab=${FSLAB:-$top/fslab}
cl=$top/tests/cluster/cluster.sh
n=${1:-1000}
bsize=${2:-16M}
"$fslab" --version | grep -q 'mpi: yes' || { echo "needs an fslab built with MPI" >&2; exit 1; }
work=$(mktemp -d /var/tmp/fslab-bench.XXXXXX)
mkdir "$work/cluster"
trap '"$cl" down "$work/cluster" >/dev/null 2>&1; rm -rf "$work"' EXIT
export FSLAB_STATE_DIR=$work/state
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
"$cl" up "$work/cluster"
# The hosts see fslab through the cluster's directory: a checkout under
# /tmp is hidden from them.
fslab=$("$cl" put "$work/cluster" "$fslab")
mnt=$work/cluster/mnt
db=$work/r.db

# m TAG PHASE METRIC: that metric of that phase
m() {
	sqlite3 "$db" "select printf('%.0f', m.value) from metrics m
		join phases p on m.phase_id = p.id join wlruns w on p.wlrun_id = w.id
		join runs r on w.run_id = r.id where r.tag = '$1'
		and p.name = '$2' and m.name = '$3'"
}
for np in 1 2 4 6; do
	for wl in "metadata:files=$n,threads=1,dirs=4,size=1k" \
		"bonnie:size=$bsize,ram=0,files=0,seeks=200,perchar=none"; do
		tag=${wl%%:*}-$np
		"$cl" mpirun "$work/cluster" -np $np --map-by node "$fslab" run \
			--target "dir:$mnt" --db "$db" --tag "$tag" \
			--workload "$wl" >"$work/$tag.out" 2>&1 ||
			{ tail -20 "$work/$tag.out" >&2; exit 1; }
	done
done

# x VALUE BASE: VALUE / BASE to two places
x() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "") printf "%.2f", a / b; else printf "-" }'
}
echo "metadata: files=$n (1 KiB) per rank; bonnie: $bsize per rank; 3 hosts, volume distributed over 2 bricks, $(nproc) cores"
printf '%-5s %-5s %9s %9s %9s %9s %9s %9s | %9s %9s %7s %7s\n' ranks hosts \
	create/s stat/s read/s unlink/s xcreate xstat "write/MiB" "read/MiB" xwrite xread
for np in 1 2 4 6; do
	c=$(m metadata-$np create files/s) s=$(m metadata-$np stat files/s)
	r=$(m metadata-$np read files/s) u=$(m metadata-$np unlink files/s)
	w=$(m bonnie-$np block-write MiB/s) br=$(m bonnie-$np block-read MiB/s)
	h=$(m metadata-$np create hosts)
	[ $np = 1 ] && c1=$c s1=$s w1=$w r1=$br
	printf '%-5s %-5s %9s %9s %9s %9s %9s %9s | %9s %9s %7s %7s\n' $np "${h:-1}" \
		"$c" "$s" "$r" "$u" "$(x "$c" "$c1")" "$(x "$s" "$s1")" \
		"$w" "$br" "$(x "$w" "$w1")" "$(x "$br" "$r1")"
done
echo
echo "create files/s per host (the host:NAME_files/s rows) and the slowest host:"
for np in 2 4 6; do
	rows=$(sqlite3 "$db" "select group_concat(replace(substr(m.name, 6), '_files/s', '') || ' ' || printf('%.0f', m.value), ', ')
		from metrics m join phases p on m.phase_id = p.id join wlruns w on p.wlrun_id = w.id
		join runs r on w.run_id = r.id where r.tag = 'metadata-$np' and p.name = 'create'
		and m.name like 'host:%'")
	echo "  $np ranks: $rows; host_min $(m metadata-$np create host_min_files/s), host_mean $(m metadata-$np create host_mean_files/s)"
done
