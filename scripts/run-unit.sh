#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every cmocka unit test binary and print one closing line the CI can
# read, counting test cases (not binaries): "N passed, N failed".
pass=0 fail=0 broken=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0}))
	# A crash or sanitizer report exits non-zero without a FAILED count.
	if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
		echo "FAILED: $t exited $rc"
		broken=$((broken + 1))
	fi
done
fail=$((fail + broken))
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
