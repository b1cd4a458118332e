#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t8100-diskmodel.sh - modelled rotating-disk time of traced phases: the
# tree workload on loop ext4, cold traversal in readdir and in inode
# order, traced; the model (desktop-7200 by default) must find inode
# order cheaper, and `fslab show --disk-model=` re-applies another
# profile to the stored run.  The model is deterministic, so these are
# checks of the layout, not of this machine's speed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd sqlite3 mkfs.ext4 python3
scratch_dir
traced_tree_run

# The cold traversal of one order: phase cold-read labelled with the
# order, or a phase named after it.
modelled() {
	sqlite3 "$DB" "select value from $METRICS where (phase = 'cold-read' and label = '$1' or phase = 'cold-read-$1') and name = '${2:-disk.time_s}'"
}
r=$(modelled readdir)
i=$(modelled inode)
if [ -n "$r" ] && [ -n "$i" ]; then
	ok "modelled disk time stored per order (readdir $r s, inode $i s)"
else
	not_ok "modelled disk time stored per order" "readdir '$r' inode '$i'"
fi
if [ -n "$r" ] && [ -n "$i" ] && awk -v r="$r" -v i="$i" 'BEGIN { exit !(i < r) }'; then
	ok "inode order's modelled time is lower than readdir order's"
	echo "# modelled inode/readdir cold traversal: $(awk -v r="$r" -v i="$i" 'BEGIN { printf "%.3f", i / r }') ($i s / $r s on desktop-7200)"
else
	not_ok "inode order's modelled time is lower than readdir order's" "readdir $r, inode $i"
fi
n=$(sqlite3 "$DB" "select count(distinct name) from $METRICS where phase like 'cold-read%' and name in ('disk.MiB/s', 'disk.files/s', 'disk.seek_share', 'disk.transfer_share', 'disk.seek_s', 'disk.transfer_s')")
[ "$n" = 6 ] && ok "cold reads carry modelled MiB/s, files/s and seek/transfer shares" ||
	not_ok "cold reads carry modelled MiB/s, files/s and seek/transfer shares" "$n of 6"

"$FSLAB" show --db "$DB" >"$SCRATCH/show" 2>&1
if grep -q '^modelled disk (the profile the run was traced with)' "$SCRATCH/show" &&
	grep -Eq '^cold-read(-inode| .*inode)' "$SCRATCH/show"; then
	ok "show prints the modelled disk table next to wall time"
else
	not_ok "show prints the modelled disk table next to wall time" "$(cat "$SCRATCH/show")"
fi

"$FSLAB" compare --db "$DB" --format json >"$SCRATCH/cmp.json" 2>"$SCRATCH/cmp.err"
if python3 - "$SCRATCH/cmp.json" <<'PY'
import json, sys
rows = [r for w in json.load(open(sys.argv[1]))["workloads"] for r in w["rows"]
        if r["metric"] == "disk.time_s" and r["phase"].startswith("cold-read")]
assert rows and all(r["key"] for r in rows), rows
PY
then ok "compare treats the modelled disk time as a key metric"
else not_ok "compare treats the modelled disk time as a key metric" "$(cat "$SCRATCH/cmp.err")"; fi

if "$FSLAB" report --db "$DB" -o "$SCRATCH/r.html" >/dev/null 2>&1 &&
	python3 - "$SCRATCH/r.html" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
i = s.find("<h3>modelled disk time</h3>")
assert i >= 0, "no modelled disk time table"
table = s[i:s.find("</table>", i)]
assert "measured s</th><th>modelled s" in table, table
assert re.search(r"<td class=l>cold-read</td><td class=l>inode</td>", table) or "cold-read-inode" in table, table
PY
then ok "report shows modelled next to measured time per phase and configuration"
else not_ok "report shows modelled next to measured time per phase and configuration"; fi

# Re-applying the default profile reproduces the stored figures exactly;
# a 15k disk models the same stream faster.
show_model() {
	"$FSLAB" show --db "$DB" --format json --disk-model="$1" | python3 -c '
import json, sys
order = sys.argv[1]
for w in json.load(sys.stdin)["run"]["workloads"]:
    for p in w["phases"]:
        if (p["name"] == "cold-read" and p["label"] == order) or p["name"] == "cold-read-" + order:
            print(repr([m["value"] for m in p["metrics"] if m["name"] == "disk.time_s"][0]))
' "$2"
}
d=$(show_model desktop-7200 readdir)
s=$(modelled readdir)
if [ -n "$d" ] && awk -v a="$d" -v b="$s" 'BEGIN { exit !(a == b || (a - b) / b < 1e-9 && (b - a) / b < 1e-9) }'; then
	ok "show --disk-model=desktop-7200 reproduces the stored time ($d s)"
else
	not_ok "show --disk-model=desktop-7200 reproduces the stored time" "shown '$d', stored '$s'"
fi
e=$(show_model enterprise-15k readdir)
if [ -n "$e" ] && awk -v e="$e" -v d="$d" 'BEGIN { exit !(e < d) }'; then
	ok "show --disk-model=enterprise-15k re-applies a faster disk ($e s)"
else
	not_ok "show --disk-model=enterprise-15k re-applies a faster disk" "'$e' vs '$d'"
fi
cp "$TOP/examples/disks/laptop-5400.disk" "$SCRATCH/my.disk"
if "$FSLAB" show --db "$DB" --disk-model="$SCRATCH/my.disk:queue_depth=8,scheduler=elevator" >"$SCRATCH/show2" 2>&1 &&
	grep -q "^modelled disk ($SCRATCH/my.disk:queue_depth=8" "$SCRATCH/show2"; then
	ok "show --disk-model=FILE:overrides"
else
	not_ok "show --disk-model=FILE:overrides" "$(head -5 "$SCRATCH/show2")"
fi

# Refusals: an unknown profile, a broken file (FILE:LINE), no --trace.
"$FSLAB" show --db "$DB" --disk-model=nosuch >/dev/null 2>"$SCRATCH/e1"
rc=$?
[ $rc -eq 2 ] && grep -q "unknown disk profile 'nosuch'" "$SCRATCH/e1" &&
	ok "show refuses an unknown profile (exit 2)" || not_ok "show refuses an unknown profile" "exit $rc: $(cat "$SCRATCH/e1")"
printf 'rpm 7200\nheads ten\n' >"$SCRATCH/bad.disk"
"$FSLAB" run --target ext4:size=1G --scratch "$SCRATCH" --db "$DB" --trace \
	--disk-model="$SCRATCH/bad.disk" --workload tree >/dev/null 2>"$SCRATCH/e2"
rc=$?
[ $rc -eq 2 ] && grep -q "bad.disk:2: bad heads 'ten'" "$SCRATCH/e2" &&
	ok "run refuses a broken profile with FILE:LINE (exit 2)" || not_ok "run refuses a broken profile" "exit $rc: $(cat "$SCRATCH/e2")"
"$FSLAB" run --target ext4:size=1G --scratch "$SCRATCH" --db "$DB" \
	--disk-model=desktop-7200 --workload tree >/dev/null 2>"$SCRATCH/e3"
rc=$?
[ $rc -eq 2 ] && grep -q -- "--disk-model needs --trace" "$SCRATCH/e3" &&
	ok "run refuses --disk-model without --trace (exit 2)" || not_ok "run refuses --disk-model without --trace" "exit $rc: $(cat "$SCRATCH/e3")"
# A loop device of a file: `fslab trace` models what it traced, and
# `fslab disk calibrate` measures it into a profile that parses (no
# figure is checked: a loop device does not seek).
img=$SCRATCH/t8100.img
truncate -s 256M "$img"
dev=$(losetup -f --show --direct-io=on "$img") || _need "cannot attach a loop device"
# Detached below; the cleanup only if it is still ours.
cleanup_add "[ \"\$(cat /sys/block/${dev#/dev/}/loop/backing_file)\" = '$img' ] && losetup -d $dev"
"$FSLAB" trace --dev "$dev" --json "$SCRATCH/seq.json" \
	-- dd if="$dev" of=/dev/null bs=1M count=32 iflag=direct status=none >"$SCRATCH/seq.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^modelled disk (desktop-7200): ' "$SCRATCH/seq.out" &&
	python3 - "$SCRATCH/seq.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["disk_model"]
# 32 MiB from the outer zone (64.8 MB/s) plus one positioning: the
# transfer dominates; a sequential stream needs a single positioning.
assert d["profile"] == "desktop-7200", d
assert 0.5 < d["time_s"] < 0.6, d
assert d["positionings"] <= 1, d
PY
then
	ok "trace models a sequential read as its transfer time"
else
	not_ok "trace models a sequential read as its transfer time" "exit $rc" "$(cat "$SCRATCH/seq.out")"
fi
"$FSLAB" trace --dev "$dev" --disk-model=nosuch -- true >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] && ok "trace refuses an unknown profile (exit 2)" || not_ok "trace refuses an unknown profile" "exit $rc"

"$FSLAB" disk calibrate "$dev" --samples 20 -o "$SCRATCH/cal.disk" 2>"$SCRATCH/cal.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^name calibrated-' "$SCRATCH/cal.disk" &&
	"$FSLAB" disk show "$SCRATCH/cal.disk" >"$SCRATCH/cal.show" 2>&1 &&
	"$FSLAB" show --db "$DB" --disk-model="$SCRATCH/cal.disk" >/dev/null 2>&1; then
	ok "disk calibrate writes a profile that parses and models"
else
	not_ok "disk calibrate writes a profile that parses and models" "exit $rc" "$(cat "$SCRATCH/cal.err" "$SCRATCH/cal.disk" "$SCRATCH/cal.show" 2>/dev/null)"
fi
check_exit "disk calibrate without a device: exit 2" 2 "$FSLAB" disk calibrate
check_exit "disk calibrate of a regular file: exit 2" 2 "$FSLAB" disk calibrate "$img"
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1
mkdir -p "$SCRATCH/mnt"
if mount "$dev" "$SCRATCH/mnt"; then
	cleanup_add "umount $SCRATCH/mnt"
	"$FSLAB" disk calibrate "$dev" -o "$SCRATCH/no.disk" >/dev/null 2>"$SCRATCH/mounted.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "refusing to calibrate '$dev': it is mounted" "$SCRATCH/mounted.err" &&
		[ ! -e "$SCRATCH/no.disk" ] &&
		ok "disk calibrate refuses a mounted device (exit 2)" ||
		not_ok "disk calibrate refuses a mounted device" "exit $rc: $(cat "$SCRATCH/mounted.err")"
	umount "$SCRATCH/mnt"
else
	not_ok "mount $dev"
fi
losetup -d "$dev"
nothing_left_under "$SCRATCH" && ok "nothing left mounted" || not_ok "nothing left mounted"
check_metric_names
finish
