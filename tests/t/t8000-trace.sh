#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Block-I/O tracing on a loop-mounted ext4: a cold sequential read of one
# large file has a layout score near 1 and few seeks, a random-order read
# of many small files seeks far more; tracefs is left exactly as found;
# `fslab run --trace` stores trace.* metrics; `fslab cleanup` removes the
# instance of a killed `fslab trace`.  Counts are compared, never times.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd sqlite3 python3 mkfs.ext4
scratch_dir

# What fslab must leave as it found it: whether tracefs is mounted, and
# if so tracing_on, the block events' enables and the instances (but
# those of other fslabs running meanwhile).
tracefs_state() {
	local d
	d=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	if [ -z "$d" ]; then
		echo "tracefs not mounted"
		return
	fi
	echo "tracefs on $d"
	echo "tracing_on $(cat "$d/tracing_on")"
	for e in "$d"/events/block/*/enable; do
		echo "$e $(cat "$e")"
	done
	trace_instances "$d"
}

check_tracefs() {
	local now
	now=$(tracefs_state)
	if [ "$now" = "$TRACEFS_BEFORE" ]; then ok "$1: tracefs left as found"
	else not_ok "$1: tracefs left as found" "$(diff <(echo "$TRACEFS_BEFORE") <(echo "$now"))"; fi
}

json_get() {
	python3 -c 'import json, sys; v = json.load(open(sys.argv[1]))[sys.argv[2]]; print(v)' "$1" "$2"
}

TRACEFS_BEFORE=$(tracefs_state)

check_exit "trace without --dev is a usage error" 2 "$FSLAB" trace -- true
check_exit "trace without a command is a usage error" 2 "$FSLAB" trace --dev /dev/null

# An unknown --trace phase is refused before any work: one line, exit 2,
# the valid names of the run's workloads listed, no database created.
"$FSLAB" run --target ext4:size=1G --trace=create,nosuch -w metadata -w ffsb \
	--db "$DB" --scratch "$SCRATCH" >"$SCRATCH/bad.out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$SCRATCH/bad.out")" -eq 1 ] &&
	grep -q "unknown phase 'nosuch' for --trace (valid: mkdir, create, stat, read, unlink, rmdir, setup, run)" "$SCRATCH/bad.out" &&
	[ ! -e "$DB" ] && ok "--trace=nosuch: one-line usage error before any work" ||
	not_ok "--trace=nosuch: one-line usage error before any work" "exit $rc" "$(cat "$SCRATCH/bad.out")"
check_exit "--trace names a phase of another workload: exit 2" 2 \
	"$FSLAB" run --trace=patch -w metadata --db "$DB" --scratch "$SCRATCH"

img=$SCRATCH/t8000.img
mnt=$SCRATCH/mnt
truncate -s 1G "$img"
dev=$(losetup -f --show --direct-io=on "$img") || _need "cannot attach a loop device"
cleanup_add "losetup -d $dev"
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1
mkdir -p "$mnt"
mount "$dev" "$mnt" || { not_ok "mount $dev"; finish; exit; }
cleanup_add "umount $mnt"

# One large file, read cold and in order.
dd if=/dev/urandom of="$mnt/big" bs=1M count=64 conv=fsync status=none
sync
echo 3 >/proc/sys/vm/drop_caches
"$FSLAB" trace --dev "$dev" --json "$SCRATCH/big.json" --png "$SCRATCH/big.png" \
	-- sh -c "cat '$mnt/big' >/dev/null" >"$SCRATCH/big.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "sequential: trace exits 0" || not_ok "sequential: trace exits 0" "exit $rc" "$(cat "$SCRATCH/big.out")"
big_seeks=$(json_get "$SCRATCH/big.json" seeks)
big_score=$(json_get "$SCRATCH/big.json" layout_score)
big_rd=$(json_get "$SCRATCH/big.json" read_bytes)
[ "$big_rd" -ge $((60 << 20)) ] && ok "sequential: about 64 MiB read from the device" ||
	not_ok "sequential: about 64 MiB read from the device" "read_bytes $big_rd"
python3 -c "import sys; sys.exit(not float('$big_score') > 0.9)" &&
	ok "sequential: layout score $big_score > 0.9" || not_ok "sequential: layout score > 0.9" "$big_score"
[ "$big_seeks" -le 20 ] && ok "sequential: few seeks ($big_seeks)" ||
	not_ok "sequential: few seeks" "$big_seeks" "$(cat "$SCRATCH/big.out")"
grep -q '^layout score ' "$SCRATCH/big.out" && grep -q 'a loop device' "$SCRATCH/big.out" &&
	ok "sequential: report names the score and the loop device" ||
	not_ok "sequential: report names the score and the loop device" "$(cat "$SCRATCH/big.out")"
[ "$(head -c 4 "$SCRATCH/big.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] &&
	ok "sequential: --png writes a PNG" || not_ok "sequential: --png writes a PNG"
check_tracefs "sequential"

# --trace-blk: a blktrace binary stream that blkparse reads.
if command -v blkparse >/dev/null 2>&1; then
	echo 3 >/proc/sys/vm/drop_caches
	"$FSLAB" trace --dev "$dev" --json "$SCRATCH/blk.json" --trace-blk "$SCRATCH/t.blk" \
		-- sh -c "cat '$mnt/big' >/dev/null" >/dev/null 2>&1
	nreq=$(json_get "$SCRATCH/blk.json" requests)
	nd=$(blkparse -i - <"$SCRATCH/t.blk" 2>/dev/null | awk '$6 == "D"' | wc -l)
	[ "$nreq" -ge 1 ] && [ "$nd" -eq "$nreq" ] && ok "--trace-blk: blkparse reads $nd issues" ||
		not_ok "--trace-blk: blkparse reads every issue" "json $nreq, blkparse $nd"
	nq=$(blkparse -i - <"$SCRATCH/t.blk" 2>/dev/null | awk '$6 == "Q" && $7 == "R"' | wc -l)
	[ "$nq" -ge 1 ] && ok "--trace-blk: queue events too ($nq Q)" || not_ok "--trace-blk: queue events too" "no Q"
	# btt follows I/Os from Q to C: its timing table must have rows.
	if command -v btt >/dev/null 2>&1; then
		# In $SCRATCH: btt drops its *_fp.dat files into the cwd.
		(cd "$SCRATCH" && btt -i t.blk >btt.out 2>&1)
		awk '$1 == "D2C" && $NF > 0 { d = 1 } $1 == "Q2C" && $NF > 0 { q = 1 }
			END { exit !(d && q) }' "$SCRATCH/btt.out" &&
			ok "--trace-blk: btt reports D2C and Q2C" ||
			not_ok "--trace-blk: btt reports D2C and Q2C" "$(head -12 "$SCRATCH/btt.out")"
	else
		ok "# SKIP btt: not installed"
	fi
else
	ok "# SKIP --trace-blk: no blkparse"
fi

# 2000 small files created in shuffled order across 50 directories, read
# back cold in another random order.
python3 - "$mnt/small" "$SCRATCH/list" <<'PY'
import os, random, sys
root, listf = sys.argv[1], sys.argv[2]
random.seed(8000)
names = ["%s/d%d/f%d" % (root, i % 50, i) for i in range(2000)]
for d in range(50):
    os.makedirs("%s/d%d" % (root, d), exist_ok=True)
random.shuffle(names)
data = os.urandom(8192)
for n in names:
    with open(n, "wb") as f:
        f.write(data)
random.shuffle(names)
open(listf, "w").write("\n".join(names) + "\n")
PY
sync
echo 3 >/proc/sys/vm/drop_caches
"$FSLAB" trace --dev "$dev" --json "$SCRATCH/small.json" \
	-- sh -c "xargs cat <'$SCRATCH/list' >/dev/null" >"$SCRATCH/small.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "random small files: trace exits 0" || not_ok "random small files: trace exits 0" "exit $rc" "$(cat "$SCRATCH/small.out")"
small_seeks=$(json_get "$SCRATCH/small.json" seeks)
small_score=$(json_get "$SCRATCH/small.json" layout_score)
[ "$small_seeks" -ge $((big_seeks * 10 + 500)) ] &&
	ok "random small files: many more seeks ($small_seeks vs $big_seeks)" ||
	not_ok "random small files: many more seeks" "$small_seeks vs $big_seeks"
python3 -c "import sys; sys.exit(not float('$small_score') < float('$big_score') - 0.2)" &&
	ok "random small files: lower layout score ($small_score vs $big_score)" ||
	not_ok "random small files: lower layout score" "$small_score vs $big_score"
check_tracefs "random small files"

# fslab run --trace stores trace.* metrics for the phases.
if have_cbdata; then
	make_small_cbdata "$SCRATCH/cbdata"
	"$FSLAB" run --target ext4:size=1G --trace \
		--workload "compilebench:initial-dirs=2,runs=4,sources=$SCRATCH/cbdata" \
		--db "$DB" --scratch "$SCRATCH" --tag t8000 --json "$SCRATCH/run.json" \
		>"$SCRATCH/run.out" 2>"$SCRATCH/run.err"
	rc=$?
	[ $rc -eq 0 ] && ok "run --trace exits 0" || not_ok "run --trace exits 0" "exit $rc" "$(tail -20 "$SCRATCH/run.err")"
	q="from $METRICS where tag = 't8000'"
	nph=$(sqlite3 "$DB" "select count(distinct phase_id) $q and name = 'trace.requests'")
	nreq=$(sqlite3 "$DB" "select coalesce(sum(value), 0) $q and name = 'trace.requests'")
	[ "$nph" -ge 8 ] && ok "run --trace: $nph phases carry trace metrics" ||
		not_ok "run --trace: phases carry trace metrics" "got $nph"
	python3 -c "import sys; sys.exit(not float('$nreq') > 0)" &&
		ok "run --trace: requests were traced" || not_ok "run --trace: requests were traced" "$nreq"
	nseek=$(sqlite3 "$DB" "select count(*) $q and name in ('trace.seeks', 'trace.layout_score', 'trace.lat_p99_ms', 'trace.ts.0.MiB/s') ")
	[ "$nseek" -ge 8 ] && ok "run --trace: seeks, score, latency, series stored" ||
		not_ok "run --trace: seeks, score, latency, series stored" "got $nseek"
	loopm=$(sqlite3 "$DB" "select count(*) $q and name = 'trace.loop_device' and value = 1")
	[ "$loopm" -ge 1 ] && ok "run --trace: says it traced the loop device" || not_ok "run --trace: says it traced the loop device"
	check_tracefs "run --trace"

	# The request sample: a trace_sample row for every traced phase that
	# moved data, as many trace_request rows as it says it stored, all of
	# them when there were at most 20000, and its total the phase's count.
	ps="from phases p join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id where r.tag = 't8000'"
	want=$(sqlite3 "$DB" "select count(*) $ps and (select sum(value) from metrics m where m.phase_id = p.id
		and m.name in ('trace.read_requests', 'trace.write_requests')) > 0")
	nsamp=$(sqlite3 "$DB" "select count(*) $ps and p.id in (select phase_id from trace_sample)")
	nrows=$(sqlite3 "$DB" "select count(*) from trace_request where phase_id in (select p.id $ps)")
	bad=$(sqlite3 "$DB" "select count(*) from trace_sample s where s.phase_id in (select p.id $ps) and (
		s.stored != (select count(*) from trace_request q where q.phase_id = s.phase_id) or
		s.stored > 20000 or s.thinned != (s.stored < s.total) or (s.total <= 20000 and s.stored != s.total) or
		s.total != (select sum(value) from metrics m where m.phase_id = s.phase_id
			and m.name in ('trace.read_requests', 'trace.write_requests')))")
	[ "$want" -ge 2 ] && [ "$nsamp" -eq "$want" ] && [ "$bad" -eq 0 ] && [ "$nrows" -gt 0 ] &&
		ok "run --trace: request samples stored ($nsamp phases, $nrows requests)" ||
		not_ok "run --trace: request samples stored" "want $want, samples $nsamp, rows $nrows, inconsistent $bad"
	sqlite3 "$DB" "select p.name, s.total, s.stored, s.thinned from trace_sample s join phases p on p.id = s.phase_id
		where p.id in (select p.id $ps) limit 4" | sed 's/^/# sample: /'
	if python3 - "$SCRATCH/run.json" "$nrows" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
n = 0
for w in doc["run"]["workloads"]:
    for p in w["phases"]:
        s = p.get("trace_sample")
        if s is None:
            continue
        assert s["columns"] == ["t_ns", "sector", "bytes", "rw"], s["columns"]
        assert s["stored"] == len(s["requests"]) and s["stored"] <= s["total"]
        assert all(r[3] in ("R", "W") and r[2] > 0 for r in s["requests"])
        n += s["stored"]
assert n == int(sys.argv[2]), (n, sys.argv[2])
PY
	then ok "run --json carries the request samples"; else not_ok "run --json carries the request samples"; fi

	# The HTML report: a figure with seekwatcher's panels per traced
	# phase name, which headless Chromium renders (the scatter's writes
	# in red).
	"$FSLAB" report t8000 --db "$DB" -o "$SCRATCH/trace.html" 2>"$SCRATCH/report.err"
	rc=$?
	names=$(sqlite3 "$DB" "select count(distinct p.name) $ps and p.id in (select phase_id from trace_sample)")
	figs=$(grep -o '<figure class=trace data-phase="[^"]*"' "$SCRATCH/trace.html" | sort -u | wc -l)
	# Drawn as an embedded PNG: the scatter is too dense for SVG.
	svgs=$(grep -A1 '<figure class=trace' "$SCRATCH/trace.html" | grep -c '^<img ')
	[ $rc -eq 0 ] && [ "$figs" -eq "$names" ] && [ "$svgs" -eq "$figs" ] &&
		grep -q '<h3>block I/O: create</h3>' "$SCRATCH/trace.html" &&
		ok "report: a block-I/O figure per traced phase ($figs)" ||
		not_ok "report: a block-I/O figure per traced phase" "exit $rc, $figs figures, $svgs svgs, $names phases" "$(cat "$SCRATCH/report.err")"
	if command -v chromium >/dev/null 2>&1; then
		# Only the first create figure, so what is drawn is the trace.
		sed 's|</style>|h1,h2,h3,p,table,pre,.charts>svg,figure.trace:not([data-phase="create"]){display:none}</style>|' \
			"$SCRATCH/trace.html" >"$SCRATCH/fig.html"
		prof=$(mktemp -d)
		cleanup_add "rm -rf '$prof'"
		timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$prof" \
			--screenshot="$SCRATCH/fig.png" --window-size=1280,900 "file://$SCRATCH/fig.html" >/dev/null 2>&1
		frac=$(python3 "$(dirname "$0")/png_busy.py" "$SCRATCH/fig.png") &&
			ok "chromium renders the trace figure ($frac of pixels drawn)" ||
			not_ok "chromium renders the trace figure" "fraction '$frac'"
		read -r red blue < <(python3 "$(dirname "$0")/png_busy.py" --hues "$SCRATCH/fig.png")
		[ "${red:-0}" -ge 20 ] && ok "the scatter shows the create phase's writes ($red red, $blue blue pixels)" ||
			not_ok "the scatter shows the create phase's writes" "$red red, $blue blue pixels"
		[ -n "${FSLAB_ARTIFACTS:-}" ] && cp "$SCRATCH/fig.png" "$SCRATCH/trace.html" "$FSLAB_ARTIFACTS"/ 2>/dev/null
	else
		ok "# SKIP chromium: not installed"
	fi

	"$FSLAB" run --target ext4:size=1G --trace=create \
		--workload "compilebench:initial-dirs=2,runs=4,sources=$SCRATCH/cbdata" \
		--db "$DB" --scratch "$SCRATCH" --tag t8000b >/dev/null 2>"$SCRATCH/run2.err"
	q2=${q/t8000\'/t8000b\'}
	other=$(sqlite3 "$DB" "select count(*) $q2 and name = 'trace.requests' and phase != 'create'")
	mine=$(sqlite3 "$DB" "select count(*) $q2 and name = 'trace.requests' and phase = 'create'")
	[ "$other" -eq 0 ] && [ "$mine" -ge 1 ] && ok "run --trace=create traces only create phases" ||
		not_ok "run --trace=create traces only create phases" "create $mine, others $other"
	check_tracefs "run --trace=create"

	# Comparing two runs: the create figures side by side, one per run.
	"$FSLAB" report t8000 t8000b --db "$DB" -o "$SCRATCH/cmp.html" 2>"$SCRATCH/cmp.err"
	rc=$?
	ncreate=$(grep -c '<figure class=trace data-phase="create"' "$SCRATCH/cmp.html")
	nconf=$(grep -o '<figure class=trace data-phase="create" data-config="[^"]*"' "$SCRATCH/cmp.html" | sort -u | wc -l)
	# A phase only the first run traced has one figure.
	only=$(sqlite3 "$DB" "select p.name $ps and p.id in (select phase_id from trace_sample) and p.name != 'create' limit 1")
	nonly=$(grep -c "<figure class=trace data-phase=\"$only\"" "$SCRATCH/cmp.html")
	[ $rc -eq 0 ] && [ "$ncreate" -eq 2 ] && [ "$nconf" -eq 2 ] && [ -n "$only" ] && [ "$nonly" -eq 1 ] &&
		ok "report of two runs: create figures side by side, $only only where traced" ||
		not_ok "report of two runs: create figures side by side" "exit $rc, create $ncreate ($nconf configs), $only $nonly" "$(cat "$SCRATCH/cmp.err")"
else
	not_ok "run --trace: compilebench data sets at $CBDATA"
fi

# kill -9 leaves an instance; fslab cleanup removes it.  Loading the
# event formats (and kallsyms) before the instance exists takes ~15 s
# under ASan, so wait up to a minute for it.
"$FSLAB" trace --dev "$dev" -- sleep 90 >/dev/null 2>&1 &
tpid=$!
for _ in $(seq 600); do
	[ -n "$(ls -d /sys/kernel/tracing/instances/fslab-$tpid-* 2>/dev/null)" ] && break
	sleep 0.1
done
inst=$(ls -d /sys/kernel/tracing/instances/fslab-$tpid-* 2>/dev/null)
child=$(pgrep -P "$tpid" sleep)
kill -9 "$tpid"
wait "$tpid" 2>/dev/null
[ -n "$child" ] && kill "$child" 2>/dev/null
[ -n "$inst" ] && ok "killed trace left instance $(basename "$inst")" || not_ok "killed trace left an instance"
"$FSLAB" cleanup >"$SCRATCH/cleanup.out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "removed tracefs instance fslab-$tpid-" "$SCRATCH/cleanup.out" &&
	ok "cleanup removes the instance" || not_ok "cleanup removes the instance" "exit $rc" "$(cat "$SCRATCH/cleanup.out")"
[ -z "$inst" ] || [ ! -e "$inst" ] && ok "instance gone" || not_ok "instance gone" "$inst"
check_tracefs "after cleanup"
check_metric_names
finish
