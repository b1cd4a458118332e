# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib.sh - what the bench scripts share.  Sourced right after
# `set -euo pipefail`; sets $top (the source tree) and $fslab (FSLAB, or
# the tree's fslab).
#
#   bench_need CMD [WHERE]
#                   exit 1 unless CMD is there (WHERE: how to get it)
#   bench_build     use the build tree's fslab instead, brought up to date
#   bench_work      $work: a private dir under $BENCH_TMPDIR (default
#                   /var/tmp), fslab's state dir too, removed at exit with
#                   whatever bench_fs set up
#   bench_fs SIZE [LOSETUP-OPTION...] -- MKFS...
#                   a fresh filesystem of its own for the run, mounted
#                   on $mnt
top=$(cd "$(dirname "$0")/.." && pwd)
fslab=${FSLAB:-$top/fslab}

bench_need() {
	command -v "$1" >/dev/null ||
		{ echo "needs $1${2:+ ($2)}" >&2; exit 1; }
}

# bench_build: the scripts that measure fslab's own overhead build it
# first, so a stale binary is never measured.
bench_build() {
	fslab=${FSLAB:-$top/build/fslab}
	make -C "$top" -s -j2 build/fslab >/dev/null
}

bench_work() {
	work=$(mktemp -d "${BENCH_TMPDIR:-/var/tmp}/fslab-bench.XXXXXX")
	mnt= dev=
	trap _bench_cleanup EXIT
	export FSLAB_STATE_DIR=$work/state
}

# Unmounted and detached first: nothing may stay attached to an image
# that is about to be removed.
_bench_cleanup() {
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || true
	[ -z "$dev" ] || losetup -d "$dev" 2>/dev/null || true
	rm -rf "$work"
}

# bench_fs SIZE [LOSETUP-OPTION...] -- MKFS...: a SIZE image in $work,
# attached to a loop device ($dev) with the losetup options, made a
# filesystem by the command MKFS with the device as its last argument,
# and mounted on $mnt ($work/mnt).  Both undone at exit.
bench_fs() {
	local size=$1 lo=()
	shift
	while [ "$1" != -- ]; do
		lo+=("$1")
		shift
	done
	shift
	truncate -s "$size" "$work/img"
	dev=$(losetup "${lo[@]}" -f --show "$work/img")
	"$@" "$dev"
	mkdir -p "$work/mnt"
	mount "$dev" "$work/mnt"
	mnt=$work/mnt
}
