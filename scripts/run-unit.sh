#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every cmocka unit test binary and print one closing line the CI can
# read, counting test cases (not binaries): "N passed, N skipped, N
# failed", followed by the skipped tests by name, so a skip (a missing
# libarchive filter, say) is seen and never passes for a pass.
pass=0 fail=0 broken=0 skipped=0
skips=()
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	s=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | tail -1)
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0}))
	skipped=$((skipped + ${s:-0}))
	while read -r name; do
		[ -n "$name" ] && skips+=("$(basename "$t"): $name")
	done < <(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([A-Za-z_][A-Za-z0-9_]*\)$/\1/p' | sort -u)
	# A crash or sanitizer report exits non-zero without a FAILED count.
	if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
		echo "FAILED: $t exited $rc"
		broken=$((broken + 1))
	fi
done
fail=$((fail + broken))
echo "unit: $pass passed, $skipped skipped, $fail failed"
for s in "${skips[@]}"; do
	echo "  skipped: $s"
done
[ "$fail" -eq 0 ]
