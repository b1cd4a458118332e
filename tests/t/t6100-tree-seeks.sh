#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tree + --trace on loop ext4: reading a freshly unpacked tree in inode
# order (spd_readdir) issues fewer backward seeks than in readdir order.
# A count from the block tracepoints, not a timing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd sqlite3 mkfs.ext4
scratch_dir
traced_tree_run
bwd() {
	sqlite3 "$DB" "select value from $METRICS where phase = 'cold-read-$1' and label = '$1' and name = 'trace.seeks_bwd'"
}
r=$(bwd readdir)
i=$(bwd inode)
[ -n "$r" ] && [ -n "$i" ] && ok "backward seeks stored per order (readdir $r, inode $i)" ||
	not_ok "backward seeks stored per order" "readdir '$r' inode '$i'"
if [ -n "$r" ] && [ -n "$i" ] && awk -v r="$r" -v i="$i" 'BEGIN { exit !(i < r) }'; then
	ok "inode order issues fewer backward seeks than readdir order"
else
	not_ok "inode order issues fewer backward seeks than readdir order" "readdir $r, inode $i"
fi
d=$(sqlite3 "$DB" "select count(*) from $METRICS where phase like 'cold-read-%' and name = 'trace.seekdist_mean'")
[ "$d" -eq 2 ] && ok "cold reads carry the mean seek distance" || not_ok "cold reads carry the mean seek distance" "$d"
# The report charts the traced phases' throughput/IOPS/seeks/queue depth.
if "$FSLAB" report --db "$DB" -o "$SCRATCH/r.html" >/dev/null 2>&1 &&
	python3 - "$SCRATCH/r.html" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.find("time series")
assert i >= 0 and s.count("<svg", i) >= 4, "no trace time series"
PY
then ok "report charts the trace time series"; else not_ok "report charts the trace time series"; fi
# one phase name per order: each order gets its own panels in the report
grep -q 'cold-read-readdir' "$SCRATCH/r.html" && grep -q 'cold-read-inode' "$SCRATCH/r.html" &&
	ok "report shows the traced phases of both orders" ||
	not_ok "report shows the traced phases of both orders" "$(grep -o 'cold-read[a-z-]*' "$SCRATCH/r.html" | sort | uniq -c)"
nothing_left_under "$SCRATCH" && ok "nothing left mounted" || not_ok "nothing left mounted"
finish
