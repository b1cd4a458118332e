#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-externs.sh [BUILD] - every extern symbol of fslab's objects is
# used outside the object that defines it; one used only inside belongs
# `static` (and out of its header).  Read from the objects with nm, so a
# macro or a comment cannot fool it.  Allowed without another object's
# use:
#   - a symbol that a unit test or fuzz target names (tests/unit,
#     tests/fuzz): pure functions exported so they are tested alone;
#   - the names in scripts/externs-allow.txt, each with its reason (the
#     workload API, families of one API).
# Run after the build (make check does).  Exit 0, or 1 naming each.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
allow=scripts/externs-allow.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Only objects of sources that still exist (a moved file's old .o stays).
find src -name '*.c' | sort | sed "s|^|$build/|; s|\.c$|.o|" >"$tmp/objs"
missing=$(while read -r o; do [ -e "$o" ] || echo "$o"; done <"$tmp/objs")
if [ -n "$missing" ]; then
	echo "check-externs: not built: $missing (run make first)" >&2
	exit 1
fi
while read -r o; do
	nm --defined-only -g "$o" | awk -v o="$o" '$2 ~ /^[TDBRVG]$/ { print $3, o }'
done <"$tmp/objs" | sort >"$tmp/defs"
while read -r o; do
	nm -u "$o" | awk '{ print $2 }'
done <"$tmp/objs" | sort -u >"$tmp/used"
grep -ohw '[A-Za-z_][A-Za-z0-9_]*' tests/unit/*.c tests/fuzz/*.c 2>/dev/null |
	sort -u >"$tmp/tested"
sed 's/#.*//' "$allow" | awk 'NF { print $1 }' | sort -u >"$tmp/allowed"

bad=0
while read -r sym obj; do
	grep -qxF "$sym" "$tmp/used" && continue
	grep -qxF "$sym" "$tmp/tested" && continue
	grep -qxF "$sym" "$tmp/allowed" && continue
	echo "check-externs: '$sym' (${obj#"$build"/}) is used only inside its object: make it static, or allow it in $allow with the reason" >&2
	bad=1
done <"$tmp/defs"
# An allowed name that is gone is a stale line.
while read -r sym; do
	awk '{ print $1 }' "$tmp/defs" | grep -qxF "$sym" ||
		{ echo "check-externs: $allow names '$sym', which no object defines" >&2; bad=1; }
done <"$tmp/allowed"
[ $bad -eq 0 ] && echo "check-externs: $(wc -l <"$tmp/defs") extern symbols, each used outside its object, tested or allowed"
exit $bad
