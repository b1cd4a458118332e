#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-sizes.sh - no source file under src/ over 900 lines and no C
# function over 150 lines, except the functions named below, each with
# its reason.  A function is counted from its opening brace at column 0
# to its closing brace at column 0 (the kernel style fslab is written
# in), so no parser is needed.  Exit 0, or 1 naming each.
set -u
cd "$(dirname "$0")/.."
max_file=900
max_func=150

# FILE:FUNCTION   reason (keep this short: split long control flow)
exceptions=(
)

bad=0
nfiles=0
while read -r n f; do
	nfiles=$((nfiles + 1))
	if [ "$n" -gt $max_file ]; then
		echo "check-sizes: $f has $n lines (limit $max_file): split it by concern" >&2
		bad=1
	fi
done < <(find src -name '*.[ch]' -print0 | sort -z | xargs -0 wc -l | grep -v ' total$')

allowed=$(printf '%s\n' "${exceptions[@]}" | awk '{ print $1 }')
long=$(find src -name '*.c' -print0 | sort -z | xargs -0 awk -v max=$max_func '
	FNR == 1 { head = ""; inbody = 0 }
	/^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ && !inbody { head = $0 }
	/^\{/ && head != "" && !inbody { start = FNR; inbody = 1; next }
	/^\}/ && inbody {
		if (FNR - start + 1 > max) {
			name = head
			sub(/\(.*/, "", name)
			sub(/.*[ *]/, "", name)
			print FILENAME ":" name " " FNR - start + 1
		}
		inbody = 0; head = ""
	}')
nfunc_long=0
while read -r where len; do
	[ -n "$where" ] || continue
	if grep -qxF "$where" <<<"$allowed"; then
		nfunc_long=$((nfunc_long + 1))
		continue
	fi
	echo "check-sizes: $where is $len lines (limit $max_func): split it, or list it in ${0##*/} with the reason" >&2
	bad=1
done <<<"$long"
# An exception that no longer applies is a stale line.
for e in $allowed; do
	grep -q "^$e " <<<"$long" ||
		{ echo "check-sizes: exception '$e' is not over $max_func lines any more: remove it" >&2; bad=1; }
done
[ $bad -eq 0 ] && echo "check-sizes: $nfiles files within $max_file lines, every function within $max_func but $nfunc_long listed"
exit $bad
