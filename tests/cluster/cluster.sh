#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cluster.sh - a small cluster on one machine, for fslab under mpirun on
# a real distributed filesystem.
#
#   cluster.sh up DIR [HOSTS]     build it (3 hosts unless told), state in DIR
#   cluster.sh down DIR           tear down everything DIR records (idempotent)
#   cluster.sh exec DIR HOST CMD  run CMD on HOST (its net, mount, UTS namespaces)
#   cluster.sh put DIR FILE       copy a program to DIR/bin, print its path there
#   cluster.sh mpirun DIR ARGS    mpirun on the first host, ranks over all hosts
#   cluster.sh ranks DIR          "HOST PID STATE" of the fslab ranks on the hosts
#   cluster.sh kill-ranks DIR HOST [SIG]   signal the fslab ranks on HOST (KILL)
#   cluster.sh leftovers DIR      print what of DIR's cluster still exists
#
# Every host is a holder process (`sleep infinity`) in its own network,
# mount and UTS namespace, with its own hostname (c1, c2, ...), a private
# /etc/hosts, /tmp, /run and gluster state directories bind-mounted in its
# mount namespace, and a veth whose other end is on one bridge.  The
# bridge lives in a namespace of its own ("switch"), so the test subnet
# (10.77.21.0/24) exists only inside namespaces made here and nothing is
# added to the machine's own network namespace.
#
# GlusterFS: hosts c1 and c2 run glusterd (started directly, no systemd)
# with one brick each, on an XFS loop filesystem mounted only in that
# host's mount namespace.  The volume is *distributed* (no replica): each
# file lives on one brick, chosen by the hash of its name, so every rank's
# files are spread over both servers and a file one host made is read
# from whichever server holds it.  Replication would double every write
# and add a self-heal daemon without changing what a client sees, which
# is what fslab is tested for here (close-to-open consistency through
# FUSE, no FIEMAP, other clients' files).  Every host mounts the volume
# with the FUSE client at the same path, $DIR/mnt, in its own mount
# namespace: the machine's namespace sees an empty directory.
#
# Open MPI starts ranks from DIR/hostfile through rsh-agent.sh
# (plm_rsh_agent), which enters a host's namespaces in place of ssh;
# ranks talk TCP over the veths (btl tcp,self; oob and btl on eth0).
#
# The hosts see the machine's files except /tmp and /run, which are
# their own: a checkout under /tmp (where CI systems clone) is not there.
# So everything a host runs from the checkout is copied to DIR/bin, which
# every host sees at the same path: up puts rsh-agent.sh there, and
# `cluster.sh put` the program under test (the ranks, frag on a host).
# A copy also keeps a checkout path with a space out of mpirun's
# plm_rsh_agent, which splits at spaces.
#
# Teardown kills every process found in a host's namespaces (the gluster
# daemons, FUSE clients, orteds and ranks: by pid, found through
# /proc/PID/ns), then the holders, which frees the namespaces and every
# mount in them, then detaches the loop devices; it is driven by what DIR
# records, written before each thing is made, so it is safe to repeat and
# to run after a failure half-way.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NET=10.77.21
VOL=fslab
# Servers are the first two hosts.
NSERVERS=2

die() {
	echo "cluster: $*" >&2
	exit 1
}

# Bounded wait: wait_for SECONDS CMD...
wait_for() {
	local t=$1 i
	shift
	for ((i = 0; i < t * 10; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

# True when none of the PIDs is a live process (a zombie is not).
gone() {
	local p st
	for p; do
		st=$(ps -o stat= -p "$p" 2>/dev/null) || continue
		case "$st" in Z*) ;; *) return 1 ;; esac
	done
	return 0
}

hosts() {
	cat "$C/hosts" 2>/dev/null
}

holder() {
	cat "$C/$1/pid" 2>/dev/null
}

# The holder is alive and in its own namespaces (not ours).
holder_ok() {
	local pid
	pid=$(holder "$1") || return 1
	[ -n "$pid" ] && [ -e "/proc/$pid/ns/net" ] &&
		[ "$(readlink "/proc/$pid/ns/net")" = "$(cat "$C/$1/netns" 2>/dev/null)" ]
}

on() {
	local h=$1 pid
	shift
	holder_ok "$h" || die "host $h is not up"
	pid=$(holder "$h")
	nsenter -t "$pid" -n -m -u -- "$@"
}

# on, in place of this shell: a timeout's signal reaches the command.
exec_on() {
	holder_ok "$1" || die "host $1 is not up"
	local pid
	pid=$(holder "$1")
	shift
	exec nsenter -t "$pid" -n -m -u -- "$@"
}

# A holder: setsid'd sleep in new namespaces; its pid and namespace ids
# are recorded so teardown finds it and everything that joined it.
new_holder() {
	local name=$1 flags=$2 pid
	mkdir -p "$C/$name"
	# shellcheck disable=SC2086
	setsid unshare $flags -- sleep infinity \
		</dev/null >/dev/null 2>&1 &
	pid=$!
	echo "$pid" >"$C/$name/pid"
	wait_for 5 sh -c "test \"\$(readlink /proc/$pid/ns/net)\" != '$(readlink /proc/self/ns/net)'" ||
		die "$name: namespaces not made"
	readlink "/proc/$pid/ns/net" >"$C/$name/netns"
	readlink "/proc/$pid/ns/mnt" >"$C/$name/mntns"
	echo "$name" >>"$C/holders"
}

# Pids of every process in $1's network namespace, holder last.  Every
# holder has a network namespace of its own (the switch has nothing
# else), so that is what identifies its processes; a recorded namespace
# that is ours (a record gone wrong) matches nothing, never the machine.
ns_pids() {
	local name=$1 net pid p
	net=$(cat "$C/$name/netns" 2>/dev/null) || return 0
	case "$net" in
	net:\[*\]) ;;
	*) return 0 ;;
	esac
	[ "$net" = "$(readlink /proc/self/ns/net)" ] && return 0
	[ "$net" = "$(readlink /proc/1/ns/net)" ] && return 0
	pid=$(holder "$name")
	find /proc/[0-9]*/ns/net -maxdepth 0 -printf '%p %l\n' 2>/dev/null |
		awk -v net="$net" -v skip=" $pid 1 $$ $BASHPID " '
		$2 == net { split($1, a, "/"); if (index(skip, " " a[3] " ") == 0) print a[3] }'
	[ -n "$pid" ] && [ -e "/proc/$pid" ] &&
		[ "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" = "$net" ] && echo "$pid"
}

up() {
	local n=${1:-3} i h pid ip hl
	[ "$n" -ge 3 ] || die "at least 3 hosts"
	[ "$(id -u)" -eq 0 ] || die "needs root"
	for t in unshare nsenter ip glusterd gluster mount.glusterfs mkfs.xfs losetup mpirun; do
		command -v $t >/dev/null 2>&1 || die "needs $t"
	done
	[ -e /dev/fuse ] || die "needs /dev/fuse"
	[ -e "$C/hosts" ] && die "$C already holds a cluster (cluster.sh down $C)"
	# Every host mounts its own /tmp and /run over the machine's.
	case $C/ in
	/tmp/* | /run/*) die "$C: a host would not see it (its /tmp and /run are its own); use a directory elsewhere, e.g. under /var/tmp" ;;
	esac
	# What a previous cluster left here (its logs, its gluster state)
	# must not leak into this one.
	[ -z "$(leftovers)" ] || die "$C: a previous cluster is still alive"
	rm -rf "${C:?}"/c[0-9]* "${C:?}/switch" "${C:?}/bin"
	mkdir -p "$C/mnt" "$C/bin"
	put "$HERE/rsh-agent.sh" >/dev/null || die "cannot copy rsh-agent.sh to $C/bin"
	: >"$C/hosts"
	: >"$C/hostfile"
	new_holder switch "--net"
	on_switch() { nsenter -t "$(holder switch)" -n -- "$@"; }
	on_switch ip link add br0 type bridge || die "bridge"
	on_switch ip link set br0 up
	on_switch ip link set lo up
	hl="127.0.0.1 localhost"
	for ((i = 1; i <= n; i++)); do
		hl="$hl
$NET.$((10 + i)) c$i"
	done
	for ((i = 1; i <= n; i++)); do
		h=c$i ip=$NET.$((10 + i))
		new_holder "$h" "--net --mount --uts"
		echo "$h" >>"$C/hosts"
		echo "$h slots=4" >>"$C/hostfile"
		pid=$(holder "$h")
		mkdir -p "$C/$h/tmp" "$C/$h/glusterd" "$C/$h/log" "$C/$h/run" "$C/$h/brick"
		chmod 1777 "$C/$h/tmp"
		printf '%s\n' "$hl" >"$C/$h/etc-hosts"
		echo "$h" >"$C/$h/etc-hostname"
		cp -a /var/lib/glusterd/. "$C/$h/glusterd/" 2>/dev/null
		on "$h" hostname "$h" || die "$h: hostname"
		on "$h" sh -ec "
			mount --bind '$C/$h/etc-hosts' /etc/hosts
			mount --bind '$C/$h/etc-hostname' /etc/hostname
			mount --bind '$C/$h/tmp' /tmp
			mount --bind '$C/$h/glusterd' /var/lib/glusterd
			mount --bind '$C/$h/log' /var/log/glusterfs
			mount --bind '$C/$h/run' /run
			mkdir -p /run/gluster /run/lock
			ip link set lo up" || die "$h: private mounts"
		on_switch ip link add "v$h" type veth peer name eth0 netns "$pid" || die "$h: veth"
		on_switch ip link set "v$h" master br0 up
		on "$h" ip addr add "$ip/24" dev eth0
		on "$h" ip link set eth0 up || die "$h: eth0"
	done
	for ((i = 1; i <= NSERVERS; i++)); do
		h=c$i
		# The brick: XFS on a loop device, mounted only on its server.
		truncate -s 1G "$C/$h/brick.img"
		echo "$C/$h/brick.img" >>"$C/images"
		losetup -f --show "$C/$h/brick.img" >"$C/$h/loop" || die "$h: losetup"
		mkfs.xfs -q -f -i size=512 "$(cat "$C/$h/loop")" || die "$h: mkfs.xfs"
		on "$h" mount "$(cat "$C/$h/loop")" "$C/$h/brick" || die "$h: brick mount"
		on "$h" mkdir "$C/$h/brick/b"
		on "$h" glusterd -p /run/gluster/glusterd.pid \
			-l /var/log/glusterfs/glusterd.log </dev/null >/dev/null 2>&1 ||
			die "$h: glusterd"
		wait_for 20 on "$h" gluster --mode=script pool list || die "$h: glusterd not answering"
	done
	for ((i = 2; i <= NSERVERS; i++)); do
		on c1 gluster --mode=script peer probe "c$i" >/dev/null || die "peer probe c$i"
		wait_for 30 sh -c "'$HERE/cluster.sh' exec '$C' c1 gluster --mode=script peer status | grep -q 'Peer in Cluster (Connected)'" ||
			die "c$i did not join the pool"
	done
	local bricks=
	for ((i = 1; i <= NSERVERS; i++)); do
		bricks="$bricks c$i:$C/c$i/brick/b"
	done
	# shellcheck disable=SC2086
	wait_for 30 on c1 gluster --mode=script volume create "$VOL" transport tcp $bricks ||
		die "volume create: $(on c1 gluster --mode=script volume create "$VOL" transport tcp $bricks 2>&1)"
	on c1 gluster --mode=script volume start "$VOL" >/dev/null || die "volume start"
	for h in $(hosts); do
		# Through FUSE, in the host's own mount namespace; a retry
		# covers bricks still coming up.
		wait_for 30 on "$h" mount -t glusterfs -o backup-volfile-servers=c2 \
			"c1:/$VOL" "$C/mnt" || die "$h: glusterfs mount"
		on "$h" sh -c "grep -q ' $C/mnt fuse.glusterfs ' /proc/mounts" || die "$h: not mounted"
	done
	echo "cluster: $n hosts ($(hosts | tr '\n' ' ')), volume $VOL (distributed over c1 c2) at $C/mnt"
}

# Kill every process in each namespace, TERM then KILL, holder last.
down() {
	local name p left i img l signalled=
	[ -d "$C" ] || return 0
	for name in $(tac "$C/holders" 2>/dev/null); do
		# Unmount the FUSE client and the brick first, so they go
		# cleanly rather than with the namespace.
		if holder_ok "$name"; then
			timeout 10 nsenter -t "$(holder "$name")" -m -- umount -l "$C/mnt" 2>/dev/null
		fi
		for sig in TERM KILL; do
			left=$(ns_pids "$name" | grep -vx "$(holder "$name")")
			[ -z "$left" ] && break
			signalled="$signalled $left"
			# shellcheck disable=SC2086
			kill -$sig $left 2>/dev/null
			for ((i = 0; i < 50; i++)); do
				left=$(ns_pids "$name" | grep -vx "$(holder "$name")")
				[ -z "$left" ] && break
				sleep 0.1
			done
		done
		if holder_ok "$name"; then
			timeout 10 nsenter -t "$(holder "$name")" -m -- umount -l "$C/$name/brick" 2>/dev/null
		fi
		p=$(holder "$name")
		if [ -n "$p" ] && holder_ok "$name"; then
			signalled="$signalled $p"
			kill -KILL "$p" 2>/dev/null
			wait_for 5 sh -c "! test -e /proc/$p/ns/net"
		fi
	done
	for img in $(cat "$C/images" 2>/dev/null); do
		for l in /sys/block/loop*/loop/backing_file; do
			[ -e "$l" ] || continue
			[ "$(cat "$l" 2>/dev/null)" = "$img" ] || continue
			l=/dev/$(basename "$(dirname "$(dirname "$l")")")
			# Detaches now, or when the last user lets go.
			losetup -d "$l" 2>/dev/null
		done
	done
	# A dying process leaves its namespaces before it is gone (a FUSE
	# client or a brick can take seconds on a loaded machine), so the
	# namespace scan above can come up empty too early: wait for the
	# processes themselves.
	wait_for 60 gone $signalled
	wait_for 10 sh -c "! '$HERE/cluster.sh' leftovers '$C' | grep -q ."
	rm -f "$C/hosts" "$C/holders" "$C/images"
}

# Anything of this cluster still alive: processes in its namespaces,
# mounts of its paths anywhere, loop devices on its images.
leftovers() {
	local name p l
	for name in $(cat "$C/holders" 2>/dev/null); do
		for p in $(ns_pids "$name"); do
			echo "process $p ($(cat /proc/$p/comm 2>/dev/null)) in $name's namespaces"
		done
	done
	for p in /proc/[0-9]*/mountinfo; do
		grep -h " $C" "$p" 2>/dev/null | awk '{ print "mount " $5 }'
	done | sort -u
	for l in /sys/block/loop*/loop/backing_file; do
		[ -e "$l" ] || continue
		case "$(cat "$l" 2>/dev/null)" in
		"$C"/*) echo "loop device $(basename "$(dirname "$(dirname "$l")")") on $(cat "$l")" ;;
		esac
	done
}

# "HOST PID STATE" of every fslab rank in the cluster's hosts (only
# there: the machine may run other fslabs).
ranks() {
	local h p
	for h in $(hosts); do
		for p in $(ns_pids "$h"); do
			[ "$(cat /proc/$p/comm 2>/dev/null)" = fslab ] || continue
			echo "$h $p $(awk '{ print $3 }' /proc/$p/stat 2>/dev/null)"
		done
	done
}

# Copy the program $1 into $C/bin (same name), print the path there.
put() {
	local f=$1 dst
	[ -f "$f" ] && [ -x "$f" ] || die "put: $f is not an executable file"
	mkdir -p "$C/bin" || die "put: cannot make $C/bin"
	dst=$C/bin/${f##*/}
	# Through a temporary name: a rank may still be running the old copy.
	cp "$f" "$dst.new.$$" && chmod 755 "$dst.new.$$" && mv -f "$dst.new.$$" "$dst" ||
		{ rm -f "$dst.new.$$"; die "put: cannot copy $f to $C/bin"; }
	echo "$dst"
}

kill_ranks() {
	local h=$1 sig=${2:-KILL} p pids=
	for p in $(ns_pids "$h"); do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = fslab ] && pids="$pids $p"
	done
	[ -n "$pids" ] || die "no fslab rank on $h"
	# shellcheck disable=SC2086
	kill -$sig $pids
	echo "$pids"
}

cmd=${1:-}
[ $# -ge 2 ] || die "usage: cluster.sh up|down|exec|put|mpirun|ranks|kill-ranks|leftovers DIR ..."
C=$(cd "$2" 2>/dev/null && pwd) || die "no directory $2"
# Brick paths, the bricks list and mpirun's options are split at blanks.
case $C in
*[[:space:]]*) die "$C: the cluster's directory must not contain blanks" ;;
esac
shift 2
case $cmd in
up)
	# A half-built cluster is torn down before reporting the failure.
	(up "$@") || { down; exit 1; }
	;;
down) down ;;
exec)
	[ $# -ge 2 ] || die "usage: cluster.sh exec DIR HOST CMD..."
	h=$1
	shift
	exec_on "$h" "$@"
	;;
mpirun)
	# mpirun runs on the first host (its orteds reach it over eth0).
	[ -x "$C/bin/rsh-agent.sh" ] || die "no $C/bin/rsh-agent.sh (cluster.sh up $C)"
	exec_on c1 env FSLAB_CLUSTER="$C" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		mpirun --hostfile "$C/hostfile" \
		--mca plm_rsh_agent "$C/bin/rsh-agent.sh" \
		--mca plm_rsh_no_tree_spawn 1 \
		--mca pml ob1 --mca btl tcp,self \
		--mca btl_tcp_if_include eth0 --mca oob_tcp_if_include eth0 \
		-x FSLAB_CLUSTER $(for v in FSLAB_STATE_DIR ASAN_OPTIONS UBSAN_OPTIONS XDG_DATA_HOME; do
			[ -n "${!v:-}" ] && echo "-x $v"; done) \
		"$@"
	;;
kill-ranks)
	[ $# -ge 1 ] || die "usage: cluster.sh kill-ranks DIR HOST [SIG]"
	kill_ranks "$@"
	;;
put)
	[ $# -eq 1 ] || die "usage: cluster.sh put DIR FILE"
	put "$1"
	;;
ranks) ranks ;;
leftovers) leftovers ;;
*) die "unknown command $cmd" ;;
esac
