#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/calibrate.sh - are compare's and --until decided's error rates
# what they claim?  The calibration of tests/unit/test_calibrate.c
# (fslab's own comparison code fed with seeded synthetic repetitions:
# log-normal noise at CoV 1-10 %, 2-5 configurations, 3-10 key metrics,
# correlated and not, harmonic and arithmetic means) at SCALE times the
# counts `make check` runs, and a table of its figures.
#
#   bench/calibrate.sh [SCALE]          (default 10: 100,000 A/A
#                                        families, 20,000 sequences)
#
# The same assertions hold at every scale; they fail the script.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
scale=${1:-10}
make -C "$top" -s -j2 build/tests/test_calibrate >/dev/null
start=$SECONDS
out=$(FSLAB_CALIBRATE=$scale FSLAB_CALIBRATE_TABLE=1 \
	"$top/build/tests/test_calibrate" 2>&1) || rc=$?
printf '%s\n' "$out" | sed -n 's/^calibrate: //p' | awk '
	BEGIN { print "figure | measured"; print "--- | ---" }
	{ i = index($0, ": "); j = 0
	  # the figure is everything up to the last ": "
	  for (k = 1; k <= length($0); k++)
		if (substr($0, k, 2) == ": ") j = k
	  print substr($0, 1, j - 1) " | " substr($0, j + 2) }'
echo
echo "scale $scale, $((SECONDS - start)) s"
printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED) ' || true
exit "${rc:-0}"
