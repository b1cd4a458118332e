#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# CI (README "Installing"): build the Debian package from the `make dist`
# tarball, install it with apt, use the installed fslab (version, a man
# page, one small run), purge it and check that nothing of it is left in
# /usr.  Needs root and the build dependencies (debian/control).
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
missing=
for p in debhelper dpkg-dev fakeroot lintian man-db; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

work=$(mktemp -d /var/tmp/fslab-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
make dist BUILD="$work/build"
tarball=$(ls fslab-*.tar.gz)
tar -C "$work" -xzf "$tarball"
rm -f "$tarball"
src=$(ls -d "$work"/fslab-*/)
(cd "$src" && dpkg-buildpackage -us -uc -b)
deb=$(ls "$work"/fslab_*_*.deb)
echo "ci-deb: built $deb"
lintian --fail-on error "$deb"

if dpkg-query -W fslab >/dev/null 2>&1; then
	echo "ci-deb: fslab is already installed; refusing to touch it" >&2
	exit 1
fi
apt-get install -y -qq "$deb" >/dev/null
/usr/bin/fslab --version
man -w fslab-run
run="$work/run"
mkdir -m 0700 "$run"
FSLAB_STATE_DIR="$run/state" /usr/bin/fslab run -t ext4:size=1G \
	-w metadata:files=200 --db "$run/ci.db" --scratch "$run/scratch"
FSLAB_STATE_DIR="$run/state" /usr/bin/fslab show --db "$run/ci.db" >/dev/null
owned=$(dpkg -L fslab)
apt-get purge -y -qq fslab >/dev/null
left=$(find /usr \( -name fslab -o -name 'fslab[-_.]*' \) 2>/dev/null)
for f in $owned; do
	[ -d "$f" ] || [ ! -e "$f" ] || left="$left $f"
done
if [ -n "$left" ]; then
	echo "ci-deb: left in /usr after purge:" >&2
	echo "$left" >&2
	exit 1
fi
echo "ci-deb: ok"
