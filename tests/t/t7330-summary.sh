#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The end-of-run summary shows each workload's key metrics with their
# units (issue 34): bonnie's seeks in seeks/s (never MiB/s), FFSB's
# transactions/s, bonnie's K/s rates in MiB/s; every figure names its CoV;
# phase names are never cut.  Small sizes; nothing depends on speed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd mkfs.ext4
scratch_dir

wls=(-w bonnie:size=32M,ram=0,files=1,seeks=200,perchar=none -w ffsb:time=2)
have_cbdata && make_small_cbdata "$SCRATCH/cbdata" &&
	wls+=(-w "compilebench:initial-dirs=1,runs=2,sources=$SCRATCH/cbdata")
"$FSLAB" run --db "$DB" --scratch "$SCRATCH" -t ext4:size=512M,name=a-rather-long-target-name \
	"${wls[@]}" --repeat 2 >"$SCRATCH/run.out" 2>"$SCRATCH/run.err"
rc=$?
[ $rc -eq 0 ] && ok "run exits 0" || not_ok "run exits 0" "exit $rc" "$(tail "$SCRATCH/run.err")"
sum=$(sed -n '/^target  /,$p' "$SCRATCH/run.out")
grep -q 'figures: mean over the repetitions (CoV of the repetitions)' <<<"$sum" &&
	ok "the header says what the figures and the CoV are" || not_ok "the header says what the figures and the CoV are" "$sum"
grep -E '^a-rather-long-target-name +bonnie +seeks ' <<<"$sum" | grep -qE ' [0-9.]+ seeks/s \(CoV [0-9.]+%\)' &&
	! grep -E ' bonnie +seeks ' <<<"$sum" | grep -q 'MiB/s' &&
	ok "bonnie seeks in seeks/s with their CoV" || not_ok "bonnie seeks in seeks/s with their CoV" "$sum"
grep -E ' bonnie +block-write ' <<<"$sum" | grep -qE ' [0-9.]+ MiB/s' &&
	ok "bonnie's K/s rates shown in MiB/s" || not_ok "bonnie's K/s rates shown in MiB/s" "$sum"
grep -E ' ffsb +run ' <<<"$sum" | grep -qE ' [0-9.]+ transactions/s' &&
	ok "FFSB's summary shows transactions/s" || not_ok "FFSB's summary shows transactions/s" "$sum"
if have_cbdata; then
	grep -qE ' compilebench +native-patched-compiled ' <<<"$sum" &&
		grep -E ' compilebench +summary ' <<<"$sum" | grep -q 'initial-create.avg [0-9.]* MiB/s' &&
		ok "phase names whole; compilebench's key averages shown" ||
		not_ok "phase names whole; compilebench's key averages shown" "$sum"
	grep -qE "^fslab: compilebench's avg is the mean of the per-op rates, fslab's tables total MiB over total seconds \(initial-create: [0-9.]+ vs [0-9.]+ MiB/s\); they differ by definition" "$SCRATCH/run.out" &&
		ok "compilebench: one line says avg and total rate differ by definition" ||
		not_ok "compilebench: one line says avg and total rate differ by definition" "$(grep -A14 '^run complete' "$SCRATCH/run.out")"
fi
grep -q '~' <<<"$sum" && not_ok "nothing cut" "$sum" || ok "nothing cut"
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
