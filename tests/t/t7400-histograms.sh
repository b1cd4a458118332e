#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Latency histograms stored whole (schema 9, table hists): a small
# metadata run and a short ffsb run on loop-mounted ext4 store one
# histogram per phase and op class whose count is the number of timed
# operations (metadata: the phase's ops; ffsb: the op's calls);
# `show --format json` gives buckets that add up to the count and the
# stored p99 falls inside the bucket the histogram gives for p99 (the
# nearest-rank sample, ceil(0.99 n)); CSV has one lat_hist row per
# bucket; and an export imported into a second store gives identical
# hists rows; under mpirun, 2 ranks' histograms merge exactly into the
# job's record and its latency figures come from the merge.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3 python3 mkfs.ext4
scratch_dir
PROFILE=$TOP/examples/ffsb/small-mix.ffsb

q() { sqlite3 "$DB" "$@"; }
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else
		not_ok "$1" "got '$2', wanted '$3'"; fi
}

"$FSLAB" run --target ext4:size=512M \
	--workload metadata:files=200,threads=2,dirs=2,size=1k \
	--db "$DB" --scratch "$SCRATCH" --tag t7400-md \
	>"$SCRATCH/md.out" 2>"$SCRATCH/md.err" &&
	ok "metadata: run exits 0" ||
	not_ok "metadata: run exits 0" "$(tail -20 "$SCRATCH/md.err")"
"$FSLAB" run --target ext4:size=512M \
	--workload "ffsb:profile=$PROFILE,time=2,seed=7" \
	--db "$DB" --scratch "$SCRATCH" --tag t7400-ffsb \
	>"$SCRATCH/ffsb.out" 2>"$SCRATCH/ffsb.err" &&
	ok "ffsb: run exits 0" ||
	not_ok "ffsb: run exits 0" "$(tail -20 "$SCRATCH/ffsb.err")"

is "schema version 10" "$(q 'PRAGMA user_version')" 10

# metadata: one unprefixed histogram per timed phase, count = ops
got=$(q "select group_concat(p.phase || '=' || (h.count = p.ops), ' ')
	from hists h join $PHASES p on h.phase_id = p.phase_id
	where p.tag = 't7400-md' and h.op = ''
	and p.phase in ('create', 'stat', 'read', 'unlink') order by p.seq")
is "metadata: a histogram per phase with count = its ops" "$got" \
	"create=1 stat=1 read=1 unlink=1"
is "metadata: unit ns" "$(q "select group_concat(distinct h.unit)
	from hists h join $PHASES p on h.phase_id = p.phase_id
	where p.tag = 't7400-md'")" ns

# ffsb: one histogram per op that ran, count = the op's calls
bad=$(q "select count(*) from hists h join $PHASES p on h.phase_id = p.phase_id
	where p.tag = 't7400-ffsb' and p.phase = 'run' and h.count !=
	(select cast(value as integer) from metrics m
	 where m.phase_id = h.phase_id and m.name = h.op || '.calls')")
nh=$(q "select count(*) from hists h join $PHASES p on h.phase_id = p.phase_id
	where p.tag = 't7400-ffsb' and p.phase = 'run'")
nops=$(q "select count(*) from $METRICS where tag = 't7400-ffsb' and
	phase = 'run' and name like '%.calls' and value > 0")
if [ "$bad" = 0 ] && [ "$nh" -ge 1 ] && [ "$nh" = "$nops" ]; then
	ok "ffsb: a histogram per op that ran, count = its calls ($nh ops)"
else not_ok "ffsb: a histogram per op that ran, count = its calls" \
	"$bad wrong, $nh histograms, $nops ops"; fi

# show json: buckets add up; the stored p99 lies in the p99 bucket
for tag in t7400-md t7400-ffsb; do
	"$FSLAB" show --db "$DB" --format json "$tag" >"$SCRATCH/$tag.json"
	if python3 - "$SCRATCH/$tag.json" <<'PY'
import json, math, sys
run = json.load(open(sys.argv[1]))["run"]
n = 0
for w in run["workloads"]:
    for p in w["phases"]:
        metrics = {m["name"]: m["value"] for m in p["metrics"]}
        for h in p["histograms"]:
            b = h["buckets"]
            total = sum(x["count"] for x in b)
            assert total == h["count"], (p["name"], h["op"], total)
            assert all(x["lo"] <= x["hi"] for x in b)
            assert all(b[i]["hi"] < b[i + 1]["lo"] for i in range(len(b) - 1))
            assert b[0]["lo"] <= h["min"] and h["max"] <= b[-1]["hi"]
            rank, seen = math.ceil(0.99 * h["count"]), 0
            for x in b:
                seen += x["count"]
                if seen >= rank:
                    break
            name = (h["op"] + "." if h["op"] else "") + "lat_p99_ms"
            p99 = metrics[name] * 1e6
            lo, hi = max(x["lo"], h["min"]), min(x["hi"], h["max"])
            assert lo - 0.5 <= p99 <= hi + 0.5, (p["name"], name, p99, lo, hi)
            n += 1
assert n > 0
PY
	then ok "$tag: show json buckets add up, p99 inside its bucket"
	else not_ok "$tag: show json buckets add up, p99 inside its bucket"; fi
done

# CSV: one lat_hist row per non-empty bucket, counts add up
"$FSLAB" show --db "$DB" --format csv t7400-md >"$SCRATCH/md.csv"
got=$(awk -F, '$7 == "create" && $11 ~ /^lat_hist:[0-9]+-[0-9]+$/ { s += $12 }
	END { print s + 0 }' "$SCRATCH/md.csv")
is "csv: create's lat_hist rows add up to its ops" "$got" \
	"$(q "select ops from $PHASES where tag = 't7400-md' and phase = 'create'")"

# export + import into a second store: identical hists rows
rows() {
	sqlite3 "$1" "select r.uuid, p.seq, h.op, h.unit, h.nr_buckets, h.count,
		h.sum, h.min, h.max, hex(h.buckets) from hists h
		join phases p on h.phase_id = p.id join wlruns w on p.wlrun_id = w.id
		join runs r on w.run_id = r.id order by r.uuid, w.rep, p.seq, h.op"
}
"$FSLAB" export --db "$DB" -o "$SCRATCH/e.json.gz" t7400-md t7400-ffsb \
	>/dev/null 2>"$SCRATCH/x.err" &&
	"$FSLAB" import --db "$SCRATCH/b.db" "$SCRATCH/e.json.gz" \
	>/dev/null 2>>"$SCRATCH/x.err" ||
	not_ok "export and import" "$(cat "$SCRATCH/x.err")"
rows "$DB" >"$SCRATCH/a.rows"
rows "$SCRATCH/b.db" >"$SCRATCH/b.rows"
if [ -s "$SCRATCH/a.rows" ] && cmp -s "$SCRATCH/a.rows" "$SCRATCH/b.rows"; then
	ok "import: identical hists rows ($(wc -l <"$SCRATCH/a.rows") of them)"
else not_ok "import: identical hists rows" \
	"$(diff "$SCRATCH/a.rows" "$SCRATCH/b.rows" | head -5)"; fi

# a store written with another bucket scheme (the old 2^5 one: 1920
# buckets) is refused, never misread
cp "$DB" "$SCRATCH/other.db"
sqlite3 "$SCRATCH/other.db" "update hists set nr_buckets = 1920"  # the 2^5 scheme of schema 9
out=$("$FSLAB" show --db "$SCRATCH/other.db" t7400-md 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q "different bucket scheme"; then
	ok "another bucket scheme: refused with a reason"
else not_ok "another bucket scheme: refused with a reason" "exit $rc" "$out"; fi

# store size per phase: the bucket blob of a 200-file create
sz=$(q "select length(h.buckets) from hists h join $PHASES p on
	h.phase_id = p.phase_id where p.tag = 't7400-md' and p.phase = 'create'")
[ -n "$sz" ] && [ "$sz" -lt 2000 ] &&
	ok "create's histogram blob is compact ($sz bytes)" ||
	not_ok "create's histogram blob is compact" "'$sz' bytes"

# MPI: 2 ranks' histograms merged exactly into the job's record, and
# its latency figures recomputed from the merge (not rank 0's own)
if command -v mpirun >/dev/null && "$FSLAB" --version | grep -q 'mpi: yes'; then
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	truncate -s 512M "$SCRATCH/shared.img"
	loop=$(losetup -f --show "$SCRATCH/shared.img")
	cleanup_add "losetup -d $loop"
	mkfs.ext4 -q -F "$loop"
	mkdir "$SCRATCH/shared"
	mount "$loop" "$SCRATCH/shared"
	cleanup_add "umount '$SCRATCH/shared'"
	timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 \
		"$FSLAB" run --target "dir:$SCRATCH/shared" \
		--workload metadata:files=300 --db "$DB" --tag t7400-mpi \
		>"$SCRATCH/mpi.out" 2>"$SCRATCH/mpi.err" ||
		not_ok "mpi: run" "$(tail -5 "$SCRATCH/mpi.err")"
	got=$(q "select group_concat(p.phase || '=' || (h.count = p.ops and
		h.count = (select sum(ops) from workers k
			   where k.phase_id = p.phase_id) and
		(select count(*) from workers k where k.phase_id = p.phase_id) = 2 and
		abs((select value from metrics m where m.phase_id = p.phase_id
		     and m.name = 'lat_max_ms') * 1e6 - h.max) < 0.5), ' ')
		from hists h join $PHASES p on h.phase_id = p.phase_id
		where p.tag = 't7400-mpi' and p.phase in ('create', 'stat', 'unlink')
		order by p.seq")
	is "mpi: 2 ranks' histograms merged (count = both ranks' ops, max = the job's)" \
		"$got" "create=1 stat=1 unlink=1"
	umount "$SCRATCH/shared" && losetup -d "$loop"
else
	ok "mpi: merged histograms # skip no mpirun or no MPI build"
fi

nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left"
check_metric_names
finish
