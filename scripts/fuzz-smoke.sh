#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fuzz-smoke.sh - run every libFuzzer target built by `make fuzz` for a
# bounded time (FUZZ_TIME seconds each, default 20) under ASan/UBSan,
# starting from its seed corpus in tests/fuzz/corpus/NAME.  New inputs
# go to a scratch copy, never into the tree; a crash leaves its input in
# $BUILD/artifacts/ and fails the script, naming the file to add to the
# corpus after the fix.  Usage: scripts/fuzz-smoke.sh [BUILD] [NAME...]
set -u
cd "$(dirname "$0")/.."
build=${1:-build/fuzz}
shift || true
time=${FUZZ_TIME:-20}
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for b in "$build"/fuzz_*; do
		case $b in *.d) continue ;; esac
		[ -x "$b" ] && names+=("${b##*/fuzz_}")
	done
fi
[ ${#names[@]} -gt 0 ] || { echo "fuzz-smoke: no targets in $build (make fuzz)"; exit 1; }
work=$(mktemp -d /tmp/fslab-fuzz-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/artifacts"
fail=0
for n in "${names[@]}"; do
	seeds=tests/fuzz/corpus/$n
	mkdir -p "$work/$n"
	log=$work/$n.log
	"$build/fuzz_$n" -max_total_time="$time" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$build/artifacts/$n-" \
		"$work/$n" "$seeds" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	if [ $rc -eq 0 ]; then
		echo "fuzz-smoke: $n: ok, ${execs:-?} executions in ${time}s"
	else
		fail=1
		echo "fuzz-smoke: $n: FAILED (exit $rc) after ${execs:-?} executions"
		grep -E 'ERROR|SUMMARY|check failed|artifact|Test unit written' "$log" |
			head -20 | sed 's/^/    /'
	fi
done
[ $fail -eq 0 ] && echo "fuzz-smoke: all ${#names[@]} targets ok"
exit $fail
