#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t9500-fuzz-corpus.sh - replay every fuzz seed corpus (tests/fuzz/corpus/
# NAME, good inputs, bad ones and every past crash) through its target,
# built with the ordinary compiler against tests/fuzz/replay.c, so parser
# regressions show up without clang.  Uses the build fslab under test
# comes from: build/asan (with its sanitizers) under `make check`.
# Needs no root.
. "$(dirname "$0")/lib.sh"

bdir=$(cd "$(dirname "$FSLAB")" && pwd -P)
case $bdir in
"$TOP"/build/asan) mk=(BUILD=build/asan SANITIZE=address,undefined) ;;
"$TOP"/build/*) mk=(BUILD="${bdir#"$TOP"/}") ;;
*) mk=(BUILD=build) ;;
esac
build=${mk[0]#BUILD=}

if out=$(make -s -C "$TOP" "${mk[@]}" fuzz-replay 2>&1); then
	ok "build the replay binaries (${mk[*]})"
else
	not_ok "build the replay binaries (${mk[*]})" "$out"
	finish
	exit 1
fi

for src in "$TOP"/tests/fuzz/fuzz_*.c; do
	n=${src##*/fuzz_}
	n=${n%.c}
	corpus=$TOP/tests/fuzz/corpus/$n
	bin=$TOP/$build/fuzz-replay/fuzz_$n
	if [ ! -d "$corpus" ]; then
		not_ok "corpus of $n" "no directory $corpus"
		continue
	fi
	if out=$("$bin" "$corpus" 2>&1); then
		ok "replay $n: $(printf '%s\n' "$out" | tail -1 | sed 's/^replay: //')"
	else
		not_ok "replay $n" "$(printf '%s\n' "$out" | tail -30)"
	fi
done
finish
