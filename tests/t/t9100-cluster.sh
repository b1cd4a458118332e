#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab under mpirun across three "hosts" (network + mount + UTS
# namespaces on one bridge) on a GlusterFS volume that every host mounts
# through FUSE (tests/cluster/cluster.sh): per-host rows and cache drops,
# shared=1 and reorder=1 across hosts, bonnie reading another host's file
# with --verify, stonewall across hosts, frag without FIEMAP, a host
# whose ranks die, and a teardown that leaves nothing behind.  The hosts
# reach fslab and the helper scripts through the cluster's own directory
# only: cluster.sh runs here from a copy under /tmp, which they do not
# see, as they would not see a checkout there.
. "$(dirname "$0")/lib.sh"
need_loop
for c in mpirun sqlite3 unshare nsenter ip glusterd gluster mount.glusterfs mkfs.xfs; do
	need_cmd "$c"
done
[ -e /dev/fuse ] || _need "needs /dev/fuse"
"$FSLAB" --version | grep -q 'mpi: yes' || _need "an fslab built with MPI (libopenmpi-dev)"
scratch_dir
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
T=$(mktemp -d /tmp/fslab-t9100.XXXXXX)
cleanup_add "rm -rf '$T'"
cp "$TOP"/tests/cluster/*.sh "$T/"
CL=$T/cluster.sh
C=$SCRATCH/cluster
M=$C/mnt
mkdir "$C"
gl_before=$(pgrep -r R,S,D,T,t,I '^gluster' | sort)
# A cluster directory under /tmp would be hidden from its own hosts.
mkdir "$T/c"
out=$("$CL" up "$T/c" 2>&1)
rc=$?
[ $rc -eq 1 ] && [[ $out == *"a host would not see it"* ]] && [ -z "$(ls -A "$T/c")" ] &&
	ok "a cluster directory under /tmp is refused before anything is made" ||
	not_ok "a cluster directory under /tmp is refused" "exit $rc: $out" "$(ls -A "$T/c")"
# Registered before it exists: a half-built cluster goes too.
cleanup_add "'$CL' down '$C'"
if ! timeout 240 "$CL" up "$C" >"$SCRATCH/up.out" 2>&1; then
	not_ok "cluster up" "$(tail -5 "$SCRATCH/up.out")"
	finish
	exit 1
fi
ok "cluster up: $(tail -1 "$SCRATCH/up.out")"
if ! FSLAB=$("$CL" put "$C" "$FSLAB" 2>&1); then
	not_ok "fslab copied to the cluster's bin" "$FSLAB"
	finish
	exit 1
fi
ok "fslab copied to the cluster's bin"
"$CL" exec "$C" c1 test -e "$CL"
rc=$?
[ $rc -eq 1 ] && ok "the hosts do not see cluster.sh's own directory (like a checkout under /tmp)" ||
	not_ok "the hosts do not see cluster.sh's own directory" "test -e $CL on c1: exit $rc"
bad=
for h in c1 c2 c3; do
	"$CL" exec "$C" "$h" test -x "$C/bin/rsh-agent.sh" &&
		"$CL" exec "$C" "$h" "$FSLAB" --version >/dev/null 2>&1 || bad="$bad $h"
done
[ -z "$bad" ] && ok "every host reaches rsh-agent.sh and fslab through $C/bin" ||
	not_ok "every host reaches rsh-agent.sh and fslab through $C/bin" "not on:$bad"
hn=$(for h in c1 c2 c3; do "$CL" exec "$C" "$h" hostname; done | tr '\n' ' ')
[ "$hn" = "c1 c2 c3 " ] && ok "three hosts with their own hostnames" || not_ok "three hosts with their own hostnames" "$hn"
n=$(awk -v m="$M" '$2 == m' /proc/mounts | wc -l)
[ "$n" -eq 0 ] && "$CL" exec "$C" c3 awk -v m="$M" '$2 == m && $3 == "fuse.glusterfs" { f = 1 } END { exit !f }' /proc/mounts &&
	ok "the volume is mounted in each host's namespace only" || not_ok "the volume is mounted in each host's namespace only" "$n mounts here"
ip -o addr | grep -q '10\.77\.21\.' && not_ok "test subnet only inside the namespaces" || ok "test subnet only inside the namespaces"

# mpirun across the hosts: -np N, ranks round-robin over the hosts.
crun() {
	local tag=$1 np=$2
	shift 2
	timeout 240 "$CL" mpirun "$C" -np "$np" --map-by node "$FSLAB" run --target "dir:$M" \
		--db "$DB" --tag "$tag" "$@" >"$SCRATCH/$tag.out" 2>&1
}
rank_files() {
	sqlite3 "$DB" "select group_concat(files, ' ') from (select k.files from workers k join phases p on k.phase_id = p.id join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id where r.tag = '$1' and p.name = '$2' order by k.worker)"
}

# 3 hosts x 2 ranks: per-rank and per-host rows, one cache drop per host.
crun md6 6 --workload metadata:files=100,threads=1,dirs=2,size=1k
rc=$?
[ $rc -eq 0 ] && ok "metadata on 3 hosts x 2 ranks exits 0" || not_ok "metadata on 3 hosts x 2 ranks exits 0" "exit $rc" "$(tail -15 "$SCRATCH/md6.out")"
out=$SCRATCH/md6.out
grep -Eq '^ +ranks 6: min [0-9]+ max [0-9]+ mean [0-9]+ σ [0-9]+ files/s, slowest rank [0-5]$' "$out" &&
	grep -Eq '^ +hosts 3: min [0-9]+ max [0-9]+ mean [0-9]+ files/s, slowest host c[123]$' "$out" &&
	[ "$(grep -Ec '^ +host c[123]: [0-9]+ files/s$' "$out")" -eq 18 ] &&
	ok "summary: per-rank line, per-host spread and a row per host for each phase" ||
	not_ok "summary: per-rank line, per-host spread and a row per host" "$(grep -E 'ranks|host' "$out" | head)"
grep -q "caches dropped once per host, each through its own mount of $M.*, on 3 of 3 hosts: c1 (rank 0) c2 (rank 1) c3 (rank 2)$" "$out" &&
	ok "caches dropped once per host, by its lowest rank" || not_ok "caches dropped once per host" "$(grep -i cache "$out")"
got=$(sqlite3 "$DB" "select group_concat(name, ' ') from $METRICS where tag = 'md6' and phase = 'create' and (name like 'host%' or name = 'slowest_host')")
[ "$got" = "hosts host_min_files/s host_max_files/s host_mean_files/s slowest_host host:c1_files/s host:c2_files/s host:c3_files/s" ] &&
	[ "$(metric md6 create hosts)" = 3.0 ] && ok "store: per-host metric rows" || not_ok "store: per-host metric rows" "$got"
lo=$(metric md6 create host_min_files/s) hi=$(metric md6 create host_max_files/s) c2=$(metric md6 create host:c2_files/s)
awk -v l="$lo" -v h="$hi" -v c="$c2" 'BEGIN { exit !(l > 0 && l <= c && c <= h) }' &&
	ok "host_min <= host:c2 <= host_max" || not_ok "host_min <= host:c2 <= host_max" "$lo $c2 $hi"
[ "$(rank_files md6 create)" = "100 100 100 100 100 100" ] && ok "six worker rows of 100 files" || not_ok "six worker rows" "$(rank_files md6 create)"

# reorder=1 with ranks round-robin: every peer is on another host.
crun reorder 6 --workload metadata:files=100,threads=1,dirs=2,size=1k,reorder=1
rc=$?
[ $rc -eq 0 ] && ok "reorder=1 across hosts exits 0" || not_ok "reorder=1 across hosts exits 0" "exit $rc" "$(tail -15 "$SCRATCH/reorder.out")"
grep -q "^metadata: reorder=1: every rank reads another host's files (rank 0 on c1 reads rank 1's on c2)$" "$SCRATCH/reorder.out" &&
	[ "$(metric reorder stat peers_same_host)" = 0.0 ] && [ "$(metric reorder read peer_of_rank0)" = 1.0 ] &&
	ok "reorder=1: every rank reads another host's files (stored: 0 same-host peers)" ||
	not_ok "reorder=1: every rank reads another host's files" "$(grep reorder "$SCRATCH/reorder.out")"
# Placed by slot (c1 gets 4), no shift can do it: fslab says so.
timeout 240 "$CL" mpirun "$C" -np 6 "$FSLAB" run --target "dir:$M" --no-store \
	--workload metadata:files=20,threads=1,dirs=1,reorder=1 >"$SCRATCH/slot.out" 2>&1
grep -q "^metadata: note: reorder=1: 4 of 6 ranks read files made on their own host" "$SCRATCH/slot.out" &&
	ok "reorder with same-host peers is called out" || not_ok "reorder with same-host peers is called out" "$(grep reorder "$SCRATCH/slot.out")"

# shared=1: one tree on the volume for all six ranks on three hosts.
crun shared 6 --workload metadata:files=50,threads=1,dirs=3,shared=1,size=1k,names=random
rc=$?
got=$(sqlite3 "$DB" "select group_concat(p.name || '=' || p.files, ' ') from phases p join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id where r.tag = 'shared' order by p.seq")
[ $rc -eq 0 ] && [ "$got" = "mkdir=3 create=300 stat=300 read=300 unlink=300 rmdir=3" ] &&
	ok "shared=1 across hosts: one tree of 3 directories, 300 files" || not_ok "shared=1 across hosts" "exit $rc: $got" "$(tail -5 "$SCRATCH/shared.out")"

# bonnie reorder=1 --verify: rank 0 (c1) reads rank 1's file, made on c2.
crun bonnie 3 --verify --workload bonnie:size=4M,ram=0,files=0,seeks=50,perchar=none,reorder=1
rc=$?
out=$SCRATCH/bonnie.out
[ $rc -eq 0 ] && ok "bonnie reorder=1 --verify across hosts exits 0" || not_ok "bonnie reorder=1 --verify across hosts exits 0" "exit $rc" "$(tail -15 "$out")"
grep -q "^bonnie: reorder=1: getc and block read read $M/.*rank-00001/Bonnie\.[0-9]* (rank 1)$" "$out" &&
	grep -q "^bonnie: reorder=1: every rank reads another host's files (rank 0 on c1 reads rank 1's on c2)$" "$out" &&
	ok "bonnie: rank 0 on c1 reads rank 1's Bonnie file, written on c2" || not_ok "bonnie: rank 0 reads another host's file" "$(grep '^bonnie: ' "$out")"
st=$(sqlite3 "$DB" "select p.status from phases p join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id where r.tag = 'bonnie' and p.name = 'block-read'")
[ "$st" = ok ] && [ "$(metric bonnie block-read peers_same_host)" = 0.0 ] &&
	ok "bonnie: block read verified against the other host's file" || not_ok "bonnie: block read verified" "status '$st'"

# Stonewall across hosts: no machine makes 10^7 files in 0.5 s, so the
# deadline always cuts the create; wear-out brings all ranks to one count.
crun wall 3 --workload metadata:files=10000000,threads=1,stonewall=0.5,cold=no
rc=$?
c=$(rank_files wall create)
# shellcheck disable=SC2206
w=($c)
[ $rc -eq 0 ] && [ ${#w[@]} -eq 3 ] && [ "${w[0]}" = "${w[1]}" ] && [ "${w[1]}" = "${w[2]}" ] &&
	[ "${w[0]}" -gt 0 ] && [ "${w[0]}" -lt 10000000 ] &&
	ok "stonewall across hosts: every rank stopped at the same count ($c)" ||
	not_ok "stonewall across hosts: every rank stopped at the same count" "exit $rc: $c" "$(tail -5 "$SCRATCH/wall.out")"
[ ${#w[@]} -gt 0 ] && [ "$(metric wall create stonewall_max)" = "${w[0]}.0" ] &&
	ok "stonewall_max is the agreed count" || not_ok "stonewall_max is the agreed count" "$(metric wall create stonewall_max)"

# frag on the FUSE mount: no FIEMAP, said once, files still counted.
"$CL" exec "$C" c2 sh -c 'mkdir "$1/frag" && for i in 1 2 3; do head -c 20000 /dev/zero >"$1/frag/f$i"; done' sh "$M"
"$CL" exec "$C" c3 "$FSLAB" frag "$M/frag" >"$SCRATCH/frag.out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "does not support FIEMAP; its files are counted without extents" "$SCRATCH/frag.out" &&
	grep -q "^All files scanned: 3$" "$SCRATCH/frag.out" &&
	ok "frag without FIEMAP says so and counts the files (made on another host)" ||
	not_ok "frag without FIEMAP says so and counts the files" "exit $rc" "$(head -3 "$SCRATCH/frag.out")" "$(grep scanned "$SCRATCH/frag.out")"

# A failing host: every rank paused before create, then c3's ranks are
# killed; mpirun ends the job, naming the host, and nothing stays.
timeout 120 "$CL" mpirun "$C" -np 6 --map-by node "$FSLAB" run --target "dir:$M" --no-store \
	--workload metadata:files=100,threads=1,dirs=2 --pause-before create >"$SCRATCH/kill.out" 2>&1 &
job=$!
for ((i = 0; i < 600; i++)); do
	[ "$("$CL" ranks "$C" | awk '$3 == "T"' | wc -l)" -eq 6 ] && break
	sleep 0.2
done
if [ $i -lt 600 ]; then
	ok "all six ranks paused before create"
	"$CL" kill-ranks "$C" c3 KILL >/dev/null
	for p in $("$CL" ranks "$C" | awk '$3 == "T" { print $2 }'); do
		kill -CONT "$p"
	done
else
	not_ok "all six ranks paused before create" "$("$CL" ranks "$C")" "$(tail -5 "$SCRATCH/kill.out")"
fi
wait $job
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "the job fails (exit $rc), no hang" || not_ok "the job fails, no hang" "exit $rc"
grep -q "process rank [25] with PID [0-9]* on node c3 exited on signal 9" "$SCRATCH/kill.out" &&
	ok "the failing host is named" || not_ok "the failing host is named" "$(tail -8 "$SCRATCH/kill.out")"
left=$("$CL" ranks "$C")
[ -z "$left" ] && ok "no rank left on any host" || not_ok "no rank left on any host" "$left"

# A rank that cannot use its target names its host.
timeout 120 "$CL" mpirun "$C" -np 2 --map-by node "$FSLAB" run --target "dir:$M" --no-store \
	--workload metadata:files=10 : -np 1 "$FSLAB" run --target "dir:$M/no-such-dir" --no-store \
	--workload metadata:files=10 >"$SCRATCH/bad.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -Eq "rank 2 failed (to set up its target|pre-flight): .*no-such-dir.* \(on host c[123]\)$" "$SCRATCH/bad.out" &&
	ok "a failing rank is named with its host" || not_ok "a failing rank is named with its host" "exit $rc" "$(grep -i fail "$SCRATCH/bad.out")"

# Teardown: no namespace, mount, loop device or gluster process left.
"$CL" down "$C" >"$SCRATCH/down.out" 2>&1
left=$("$CL" leftovers "$C")
[ -z "$left" ] && ok "teardown: no process in the hosts' namespaces, no mount, no loop device" || not_ok "teardown leaves nothing" "$left"
gl_after=$(pgrep -r R,S,D,T,t,I '^gluster' | sort)
[ "$gl_after" = "$gl_before" ] && ok "teardown: no gluster process left" || not_ok "teardown: no gluster process left" "$(pgrep -a '^gluster')"
ns=0
# (the switch has a network namespace only: its mntns is the machine's)
for f in "$C"/*/netns "$C"/c*/mntns; do
	[ -e "$f" ] || continue
	id=$(cat "$f")
	find /proc/[0-9]*/ns -maxdepth 1 -printf '%l\n' 2>/dev/null | grep -qxF "$id" && ns=$((ns + 1))
	grep -q "nsfs.*${id#*:}" /proc/self/mountinfo && ns=$((ns + 1))
done
[ $ns -eq 0 ] && ok "teardown: none of the namespaces exists" || not_ok "teardown: none of the namespaces exists" "$ns left"
check "teardown again is a no-op" "$CL" down "$C"
check_metric_names
finish
