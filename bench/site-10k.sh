#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/site-10k.sh - how long `fslab site` takes on a store of N runs
# (default 10000) and how big the pages are.  One small real run (fsck on
# a loop image) is made, exported and cut into N runs by
# tests/t/craft_runs.py (three repetitions each, one hour apart, +10 %
# and a new kernel from half way), imported; then the site is built into
# a new directory and again (nothing to write).  The index must name
# the one change point.  Prints the times and sizes.  Needs root.
#
#   bench/site-10k.sh [N]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
n=${1:-10000}
bench_need python3
bench_build
bench_work
db=$work/big.db
"$fslab" run -t ext4:name=x,size=64M -w fsck --db "$work/t.db" \
	--scratch "$work/s" --quiet >/dev/null
"$fslab" export --db "$work/t.db" -o "$work/t.json" 2>/dev/null
python3 "$top/tests/t/craft_runs.py" "$work/t.json" "$work/big.json" box \
	6.1.0 1 "$n" $((n / 2 + 1)) 1.0 x
"$fslab" import --db "$db" "$work/big.json"
/usr/bin/time -f "site, new: %e s wall, %U s user, %S s system, %M KiB max RSS" \
	"$fslab" site -o "$work/www" --db "$db"
/usr/bin/time -f "site, unchanged: %e s wall, %U s user, %S s system, %M KiB max RSS" \
	"$fslab" site -o "$work/www" --db "$db"
du -sb "$work/www"
grep -o 'class="n worse">[^<]*' "$work/www/index.html" | head -1
