#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rsh-agent.sh HOST CMD... - Open MPI's plm_rsh_agent for the cluster that
# tests/cluster/cluster.sh builds: instead of ssh, enter HOST's network,
# mount and UTS namespaces (through its holder process, recorded in
# $FSLAB_CLUSTER/HOST/pid) and run the command line there with a shell,
# as sshd would.  stdin/stdout/stderr stay connected, so orted's output
# and its death reach mpirun like over ssh.
[ $# -ge 2 ] || { echo "usage: rsh-agent.sh HOST CMD..." >&2; exit 255; }
host=$1
shift
pid=$(cat "${FSLAB_CLUSTER:?not set}/$host/pid" 2>/dev/null) ||
	{ echo "rsh-agent: no host $host in $FSLAB_CLUSTER" >&2; exit 255; }
exec nsenter -t "$pid" -n -m -u -- /bin/sh -c "$*"
