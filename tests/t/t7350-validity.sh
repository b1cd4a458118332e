#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Honest setups (doc/validity.md): a bonnie working set far below RAM is
# flagged cache-fit, its per-char putc CPU-bound; a dir: target on a
# tmpfs we mount is an invalid setup (and compare gives it no verdict);
# two runs that differ only in vm.dirty_ratio (restored afterwards,
# whatever happens) are compared with that sysctl listed as an
# undeclared difference, and --strict exits 2.  The machine's facts and
# --accept are stored with the run.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
need_cmd mkfs.ext4
scratch_dir

# 64M of block I/O stays in a page cache of gigabytes.  perchar=none:
# without the seconds of per-char tests, block-read follows the writes
# at once.  Another process dropping every cache (other tests do) can
# still empty ours mid-run; the check is about this run's figures, so up
# to three tries.
bonnie=bonnie:size=64M,ram=0,files=0,perchar=none,seeks=200
flagged=
for try in 1 2 3; do
	"$FSLAB" run -q -t ext4:size=512M -w "$bonnie" --db "$DB" \
		--scratch "$SCRATCH" --tag fit$try --accept warm-up \
		>"$SCRATCH/fit.out" 2>"$SCRATCH/fit.err" ||
		{ not_ok "bonnie run" "$(tail "$SCRATCH/fit.err")"; break; }
	"$FSLAB" check fit$try --db "$DB" --format json >"$SCRATCH/fit.json"
	if grep -q '"id": "cache-fit"' "$SCRATCH/fit.json"; then
		flagged=fit$try
		break
	fi
done
[ -n "$flagged" ] && ok "bonnie with 64M on $(( $(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1048576 )) GiB RAM is flagged cache-fit" ||
	not_ok "bonnie working set below RAM flagged cache-fit" "$(cat "$SCRATCH/fit.json")"
# Per-char putc is one write(2) per byte (bonnie++ 1.9x): CPU all along.
"$FSLAB" run -q -t ext4:size=256M -w bonnie:size=8M,ram=0,files=0,byte_io=512k,seeks=100 \
	--db "$DB" --scratch "$SCRATCH" --tag putc >/dev/null 2>"$SCRATCH/putc.err" ||
	not_ok "putc run" "$(tail "$SCRATCH/putc.err")"
"$FSLAB" check putc --db "$DB" >"$SCRATCH/check.txt"
grep -q '^  warning cpu-bound: ext4 bonnie/putc: own CPU' "$SCRATCH/check.txt" &&
	ok "putc is flagged CPU-bound" ||
	not_ok "putc is flagged CPU-bound" "$(cat "$SCRATCH/check.txt")"
grep -q '^  checked [0-9]* of [0-9]* recommendations' "$SCRATCH/check.txt" &&
	ok "coverage line" || not_ok "coverage line" "$(cat "$SCRATCH/check.txt")"
grep -q '^setup check: ' "$SCRATCH/fit.out" &&
	ok "run's summary has the setup check" ||
	not_ok "run's summary has the setup check" "$(tail "$SCRATCH/fit.out")"
"$FSLAB" show "${flagged:-fit1}" --db "$DB" >"$SCRATCH/show.txt"
grep -q '^machine: kernel' "$SCRATCH/show.txt" &&
	grep -q ' mem.total_B=[0-9]' "$SCRATCH/show.txt" &&
	grep -q '^target:0: ' "$SCRATCH/show.txt" &&
	grep -q ' loop.dio=1;' "$SCRATCH/show.txt" &&
	grep -q '^setup check: ' "$SCRATCH/show.txt" &&
	ok "show lists the recorded setup and the check" ||
	not_ok "show lists the recorded setup and the check" "$(tail -30 "$SCRATCH/show.txt")"
acc=$(sqlite3 "$DB" "select key from run_facts f join runs r on r.id = f.run_id where r.tag = 'fit1' and scope = 'accept'")
[ "$acc" = warm-up ] && ok "--accept is recorded with the run" ||
	not_ok "--accept is recorded with the run" "got '$acc'"
"$FSLAB" show fit1 --db "$DB" --format json >"$SCRATCH/show.json"
grep -q '"kernel.config"' "$SCRATCH/show.json" &&
	grep -q '"checks": {' "$SCRATCH/show.json" &&
	ok "JSON has the facts and the checks" ||
	not_ok "JSON has the facts and the checks" "$(head -c 2000 "$SCRATCH/show.json")"
"$FSLAB" show putc --db "$DB" --format csv | grep -q ",check:cpu-bound," &&
	ok "CSV has the checks" || not_ok "CSV has the checks"
check_exit "--accept refuses an unknown id" 2 \
	"$FSLAB" check fit1 --db "$DB" --accept no-such-check

# A dir: target on a tmpfs of our own.
mkdir "$SCRATCH/tmpfs"
mount -t tmpfs -o size=96M fslab-t7300 "$SCRATCH/tmpfs" ||
	{ not_ok "mount a tmpfs"; finish; exit 1; }
cleanup_add "umount '$SCRATCH/tmpfs'"
"$FSLAB" run -q -t ext4:size=256M -t "dir:$SCRATCH/tmpfs" \
	-w bonnie:size=16M,ram=0,files=0,byte_io=64k,seeks=100 \
	--db "$DB" --scratch "$SCRATCH" --tag tmpfs \
	>"$SCRATCH/tmpfs.out" 2>"$SCRATCH/tmpfs.err" ||
	not_ok "run on tmpfs" "$(tail "$SCRATCH/tmpfs.err")"
"$FSLAB" check tmpfs --db "$DB" >"$SCRATCH/tmpfs.txt"
grep -q "^  invalid memfs: dir:$SCRATCH/tmpfs: .* on tmpfs" "$SCRATCH/tmpfs.txt" ||
	grep -q "^  invalid memfs: .*on tmpfs" "$SCRATCH/tmpfs.txt" &&
	ok "a dir: target on tmpfs is an invalid setup" ||
	not_ok "a dir: target on tmpfs is an invalid setup" "$(cat "$SCRATCH/tmpfs.txt")"
"$FSLAB" compare tmpfs --db "$DB" >"$SCRATCH/tmpfs.cmp" 2>&1
grep -q 'invalid setup: run [0-9]*: memfs' "$SCRATCH/tmpfs.cmp" &&
	ok "compare gives the tmpfs configuration no verdict" ||
	not_ok "compare gives the tmpfs configuration no verdict" "$(cat "$SCRATCH/tmpfs.cmp")"
"$FSLAB" compare tmpfs --db "$DB" --allow-invalid >"$SCRATCH/tmpfs2.cmp" 2>&1
! grep -q 'invalid setup' "$SCRATCH/tmpfs2.cmp" &&
	ok "--allow-invalid judges it anyway" ||
	not_ok "--allow-invalid judges it anyway" "$(cat "$SCRATCH/tmpfs2.cmp")"
umount "$SCRATCH/tmpfs" && ok "tmpfs unmounted" || not_ok "tmpfs unmounted"

# Two runs alike but for vm.dirty_ratio; the value is restored on any exit.
orig=$(cat /proc/sys/vm/dirty_ratio)
cleanup_add "echo '$orig' >/proc/sys/vm/dirty_ratio"
other=$((orig >= 50 ? orig - 5 : orig + 5))
small=bonnie:size=8M,ram=0,files=0,byte_io=64k,seeks=100
"$FSLAB" run -q -t ext4:size=256M -w "$small" --db "$DB" \
	--scratch "$SCRATCH" --tag dr-a >/dev/null 2>"$SCRATCH/dr.err" ||
	not_ok "run with dirty_ratio $orig" "$(tail "$SCRATCH/dr.err")"
echo "$other" >/proc/sys/vm/dirty_ratio
"$FSLAB" run -q -t ext4:size=256M -w "$small" --db "$DB" \
	--scratch "$SCRATCH" --tag dr-b >/dev/null 2>"$SCRATCH/dr.err" ||
	not_ok "run with dirty_ratio $other" "$(tail "$SCRATCH/dr.err")"
echo "$orig" >/proc/sys/vm/dirty_ratio
[ "$(cat /proc/sys/vm/dirty_ratio)" = "$orig" ] && ok "vm.dirty_ratio restored" ||
	not_ok "vm.dirty_ratio restored"
"$FSLAB" compare dr-a dr-b --db "$DB" >"$SCRATCH/dr.cmp" 2>&1
grep -q "^  differs: sysctl.vm.dirty_ratio" "$SCRATCH/dr.cmp" &&
	grep -q "^  warning: undeclared difference: sysctl.vm.dirty_ratio ($orig vs $other)" "$SCRATCH/dr.cmp" &&
	ok "the sysctl is listed as an undeclared difference" ||
	not_ok "the sysctl is listed as an undeclared difference" "$(cat "$SCRATCH/dr.cmp")"
"$FSLAB" compare dr-a dr-b --db "$DB" --format json >"$SCRATCH/dr.json"
grep -A3 '"field": "sysctl.vm.dirty_ratio"' "$SCRATCH/dr.json" | grep -q '"declared": false' &&
	ok "JSON: the difference is undeclared" ||
	not_ok "JSON: the difference is undeclared" "$(grep -A5 dirty_ratio "$SCRATCH/dr.json")"
check_exit "--strict exits 2 on it" 2 "$FSLAB" compare dr-a dr-b --db "$DB" --strict
out=$("$FSLAB" compare dr-a dr-b --db "$DB" --factor sysctl 2>&1)
! printf '%s\n' "$out" | grep -q 'undeclared difference: sysctl' &&
	ok "--factor sysctl declares it" ||
	not_ok "--factor sysctl declares it" "$out"

finish
