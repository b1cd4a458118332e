#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# examples/repro/*/run (issue 41): each reproduction of a published
# result runs with SMALL=1, exits 0 and prints its side-by-side table
# with a published and a measured column and a result line.  The effect
# itself is never asserted: with SMALL=1 there is one repetition and no
# verdict, and timings belong in benchmarks, not tests.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd python3 mkfs.ext4 mkfs.xfs
scratch_dir

for run in "$TOP"/examples/repro/*/run; do
	name=$(basename "$(dirname "$run")")
	out=$SCRATCH/$name.out
	if SMALL=1 "$run" --db "$DB" --scratch "$SCRATCH/$name" \
		>"$out" 2>"$SCRATCH/$name.err"; then
		ok "$name: SMALL=1 run exits 0"
	else
		not_ok "$name: SMALL=1 run exits 0" "$(tail -20 "$SCRATCH/$name.err")"
	fi
	head='figure | published effect | measured B/A [95% CI] | fslab'"'"'s verdict | reproduced'
	grep -qxF "$head" "$out" &&
		[ "$(grep -c ' | .* | .* | .* | ' "$out")" -ge 3 ] &&
		ok "$name: a table with published and measured columns" ||
		not_ok "$name: a table with published and measured columns" "$(cat "$out")"
	grep -Eq '^result: (reproduced|not reproduced)$' "$out" &&
		ok "$name: a result line" || not_ok "$name: a result line" "$(cat "$out")"
	[ -f "$(dirname "$run")/README.md" ] &&
		ok "$name: README.md beside run" || not_ok "$name: README.md beside run"
done

nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left"
finish
