#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages fslab needs, if missing: to build and run
# it by default, and with --test also what the test suite drives (peers,
# a browser for the HTML report, the sqlite3 CLI).  Idempotent and quiet
# when everything is there, so `make run` and `make check` call it every
# time on a fresh Debian 12 machine.
set -e
# Build and run.
PKGS="build-essential pkg-config libsqlite3-dev libblkid-dev libmount-dev
libjansson-dev libcmocka-dev e2fsprogs xfsprogs btrfs-progs util-linux
libgsl-dev libcairo2-dev libfontconfig-dev libarchive-dev libtracefs-dev libtraceevent-dev liburing-dev nettle-dev"
# Only for `make check`.
TEST_PKGS="perl python3 sqlite3 mandoc clang libclang-rt-14-dev blktrace libopenmpi-dev openmpi-bin chromium xz-utils zstd bzip2 bonnie++ fio fsmark dbench glusterfs-server glusterfs-client iproute2"
[ "${1:-}" = --test ] && PKGS="$PKGS $TEST_PKGS"
missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "fslab: missing Debian packages:$missing" >&2
	echo "fslab: run 'sudo make deps' (or apt-get install them)" >&2
	exit 1
fi
echo "fslab: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
