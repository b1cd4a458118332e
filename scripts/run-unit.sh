#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every cmocka unit test binary; print one closing line the CI can read.
pass=0 fail=0
for t in "$@"; do
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
