#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# CI (README "Testing"): the suite must pass wherever the repository is
# cloned and on one CPU.  Clones this checkout's HEAD (what is committed)
# into a new directory under /tmp whose name holds a space - /tmp is
# where CI systems clone, and every host of the cluster test has a /tmp
# of its own - builds there, runs the cluster test and a short
# integration subset there, then the unit tests pinned to CPU 0
# (taskset -c 0).  Removes the clone.  Needs what `make check` needs
# (root, loop devices, network namespaces, FUSE; scripts/install-deps.sh
# --test).  About 3 minutes of CPU: 10.5 min on 2 cores at load 12.
#
#   scripts/ci-anywhere.sh [TEST...]   TESTs: tests/t files (default: the subset)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
t0=$SECONDS
# The tests that see the checkout's path: the binary's, make install
# and make no-mpi run there, the cluster's hosts cannot see /tmp.
subset=(t0001-help t0002-install t1400-preflight t2100-cleanup
	t9010-mpi-missing t9100-cluster)
[ $# -eq 0 ] || subset=("$@")

# The compilebench data sets live beside the checkout (tests/t/cbdata.sh),
# which a clone elsewhere is not.
if [ -z "${FSLAB_CB_DATA:-}" ] && [ -d "$src/../shared/compilebench-data" ]; then
	FSLAB_CB_DATA=$(cd "$src/../shared/compilebench-data" && pwd)
	export FSLAB_CB_DATA
fi

work=$(mktemp -d "/tmp/fslab ci anywhere.XXXXXX")
# A test cleans up after itself; what it could not unmount stays, and
# rm must not walk into it.
trap 'rm -rf --one-file-system "$work"' EXIT
dir="$work/fslab"
git clone -q --no-checkout "$src" "$dir"
git -C "$dir" fetch -q "$src" HEAD
git -C "$dir" checkout -q --detach FETCH_HEAD
echo "ci-anywhere: $(git -C "$dir" log -1 --format='%h %s') in '$dir'"
cd "$dir"

jobs=$(nproc)
make -s -j"$jobs" WERROR=1 all
echo "ci-anywhere: built in $((SECONDS - t0)) s"

rc=0
files=()
for t in "${subset[@]}"; do
	files+=("tests/t/${t%.sh}.sh")
done
prove -v --timer -e bash "${files[@]}" || rc=1
echo "ci-anywhere: integration subset done at $((SECONDS - t0)) s"

# The unit tests on one CPU: built on all of them, run on CPU 0.
bins=()
for f in tests/unit/test_*.c; do
	f=${f#tests/unit/}
	bins+=("build/tests/${f%.c}")
done
make -s -j"$jobs" WERROR=1 "${bins[@]}"
taskset -c 0 make -s WERROR=1 unit || rc=1
echo "ci-anywhere: unit tests on CPU 0 done at $((SECONDS - t0)) s"

# Nothing of the clone may stay mounted or attached.
left=$(awk -v d="$work" 'index($2, d) == 1 { print "mount " $2 }' /proc/mounts)
for l in /sys/block/loop*/loop/backing_file; do
	[ -e "$l" ] || continue
	case "$(cat "$l" 2>/dev/null)" in
	"$work"/*) left="$left loop $(cat "$l")" ;;
	esac
done
if [ -n "$left" ]; then
	echo "ci-anywhere: left behind: $left" >&2
	rc=1
fi
echo "ci-anywhere: $([ $rc -eq 0 ] && echo ok || echo FAILED) in $((SECONDS - t0)) s"
exit $rc
