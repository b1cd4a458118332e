#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tree-vs-shell.sh - the same tree through fslab's `tree` workload and
# through the shell commands of the original mail (tar x, find | xargs
# -n 500 cat cold and hot, rm -rf) on the same kind of loop target, so
# the two can be compared.  Root; needs mkfs.$FS, tar.
#
#   bench/tree-vs-shell.sh [TARBALL] [FS]
# Without TARBALL a tarball of the compilebench data subset (or of the
# built-in model, via fslab) is made first.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
FSLAB=${FSLAB:-$TOP/fslab}
FS=${2:-ext4}
W=$(mktemp -d /var/tmp/fslab-tvs.XXXXXX)
IMG=$W/img MNT=$W/mnt
trap 'umount "$MNT" 2>/dev/null; [ -n "${LOOP:-}" ] && losetup -d "$LOOP"; rm -rf "$W"' EXIT

TARBALL=${1:-}
if [ -z "$TARBALL" ]; then
	data=$TOP/../shared/compilebench-data/dataset-unpatched
	mkdir -p "$W/src"
	if [ -r "$data" ]; then
		while read -r p s; do
			mkdir -p "$W/src/$(dirname "$p")"
			head -c "$s" /dev/zero | tr '\0' a >"$W/src/$p"
		done <"$data"
	else
		echo "no compilebench data: give a TARBALL" >&2
		exit 2
	fi
	TARBALL=$W/tree.tar.gz
	tar czf "$TARBALL" -C "$W/src" .
	rm -rf "$W/src"
fi

echo "== fslab tree ($FS, $TARBALL)"
"$FSLAB" run --target "$FS:size=4G" --workload "tree:tarball=$TARBALL" \
	--db "$W/db" --scratch "$W" 2>/dev/null | sed -n '/^tree on/,/^fslab run/p'

echo "== shell: tar x, find | xargs -n 500 cat, rm -rf ($FS)"
truncate -s 4G "$IMG"
LOOP=$(losetup --find --show --direct-io=on "$IMG")
mkfs."$FS" -q "$LOOP" >/dev/null 2>&1 || mkfs."$FS" -f -q "$LOOP" >/dev/null
mkdir -p "$MNT"
mount "$LOOP" "$MNT"
cold() { sync; umount "$MNT"; mount "$LOOP" "$MNT"; echo 3 >/proc/sys/vm/drop_caches; }
t() { local s e; s=$(date +%s.%N); "$@"; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { d = e - s; printf "%d:%04.1f\n", d / 60, d - 60 * int(d / 60) }'; }
mkdir "$MNT/tree"
printf '    %-34s %s\n' "unpacking tree:" "$(t sh -c "tar xf '$TARBALL' -C '$MNT/tree' && sync -f '$MNT'")"
cold
printf '    %-34s %s\n' "cold traversal:" "$(t sh -c "cd '$MNT/tree' && find . -type f | xargs -n 500 cat >/dev/null")"
printf '    %-34s %s\n' "hot traversal:" "$(t sh -c "cd '$MNT/tree' && find . -type f | xargs -n 500 cat >/dev/null")"
printf '    %-34s %s\n' "delete:" "$(t sh -c "rm -rf '$MNT/tree' && sync -f '$MNT'")"
