#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-includes.sh - the module include graph of src/ must be acyclic.
#
# A module is a folder under src/ (src/fs, src/age, ...) or, at the top
# of src/, one file stem (runner.c + runner.h; a private X_internal.h
# belongs to X).  Every #include "..." of a project header is an arrow
# from the including module to the included one; tsort finds any cycle.
# Prints the graph with -v.  Exit 0 when acyclic, 1 (with the loop) when
# not.
set -u
cd "$(dirname "$0")/.."
verbose=
[ "${1:-}" = -v ] && verbose=1

module() { # path relative to src/ -> module name
	case $1 in
	*/*) echo "${1%%/*}" ;;
	*) local s=${1%.*}; echo "${s%_internal}" ;;
	esac
}

edges=$(
	find src -name '*.[ch]' | sort | while read -r f; do
		from=$(module "${f#src/}")
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while read -r inc; do
			# relative to src/ (-Isrc) or to the including file
			if [ -e "src/$inc" ]; then
				to=$(module "$inc")
			elif [ -e "$(dirname "$f")/$inc" ]; then
				to=$(module "$(dirname "${f#src/}")/$inc")
			else
				continue
			fi
			[ "$from" = "$to" ] || echo "$from $to"
		done
	done | sort -u
)
[ -n "$verbose" ] && printf '%s\n' "$edges"
if ! out=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null) || [ -n "$out" ]; then
	echo "check-includes: the module include graph has a cycle:" >&2
	printf '%s\n' "$out" | sed 's/^tsort: /  /' >&2
	# name the arrows of the loop tsort reports
	loop=$(printf '%s\n' "$out" | sed -n 's/^tsort: \([^:]*\)$/\1/p' | grep -v 'input contains a loop')
	for m in $loop; do
		printf '%s\n' "$edges" | awk -v m="$m" '$1 == m' | while read -r a b; do
			grep -qx "$b" <<<"$loop" && echo "  $a -> $b" >&2
		done
	done
	exit 1
fi
echo "check-includes: $(printf '%s\n' "$edges" | wc -l) arrows between $(printf '%s\n' "$edges" | tr ' ' '\n' | sort -u | wc -l) modules, no cycle"
