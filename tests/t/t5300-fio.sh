#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab run -w fio:job=FILE on loop ext4 and xfs: each job section is a
# phase with fio's figures, the stored bandwidth is the one in fio's own
# JSON kept with the run, compare and the report give the key metrics
# verdicts, --trace works on an fio phase; a job file fio rejects and one
# that writes outside the workload directory are refused (exit 2) before
# anything is built; nothing stays mounted.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3 fio python3 mkfs.xfs
scratch_dir

q() {
	sqlite3 "$DB" "$1"
}

JOB=$SCRATCH/two.fio
cat >"$JOB" <<'EOF'
[global]
ioengine=psync
bs=4k
size=2m
[seqwrite]
rw=write
end_fsync=1
[randread]
rw=randread
filename=seqwrite.0.0
EOF

# 1. rejected by fio: exit 2, fio's message, nothing made or stored
printf '[x]\nrw=sideways\nsize=1m\n' >"$SCRATCH/bad.fio"
out=$("$FSLAB" run -t ext4:size=512M -w "fio:job=$SCRATCH/bad.fio" \
	--db "$DB" --scratch "$SCRATCH" 2>&1)
rc=$?
if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "fio rejects the job file" &&
	printf '%s' "$out" | grep -q "sideways"; then
	ok "job file fio rejects: exit 2 with fio's message"
else not_ok "job file fio rejects: exit 2 with fio's message" "exit $rc" "$out"; fi
imgs=$(find "$SCRATCH" -maxdepth 2 -name '*.img' | wc -l)
runs=$( [ -f "$DB" ] && q "select count(*) from runs" || echo 0)
[ "$imgs" -eq 0 ] && [ "$runs" -eq 0 ] && ok "rejected job: nothing created or stored" ||
	not_ok "rejected job: nothing created or stored" "images $imgs runs $runs"

# 2. a job that would write outside the workload directory
for bad in 'filename=/dev/loop0' 'directory=/var/tmp' 'filename=../../x' 'exec_prerun=touch /tmp/pwned'; do
	printf '[x]\nrw=write\nsize=1m\n%s\n' "$bad" >"$SCRATCH/out.fio"
	out=$("$FSLAB" run -t ext4:size=512M -w "fio:job=$SCRATCH/out.fio" \
		--db "$DB" --scratch "$SCRATCH" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "line 4"; then
		ok "refused: $bad (exit 2, line named)"
	else not_ok "refused: $bad (exit 2, line named)" "exit $rc" "$out"; fi
done
out=$("$FSLAB" run -t ext4:size=512M -w "fio:job=$JOB,section=nosuch" \
	--db "$DB" --scratch "$SCRATCH" 2>&1)
[ $? -eq 2 ] && printf '%s' "$out" | grep -q "'nosuch' is not a job section" &&
	ok "unknown section= refused" || not_ok "unknown section= refused" "$out"

# 3. two sections, ext4 and xfs, three repetitions
"$FSLAB" run -t ext4:size=512M -t xfs:size=512M -w "fio:job=$JOB" -n 3 \
	--db "$DB" --scratch "$SCRATCH" --tag fio3 >"$SCRATCH/run.out" 2>"$SCRATCH/run.err"
rc=$?
[ $rc -eq 0 ] && ok "fio run on ext4 and xfs, 3 reps: exit 0" ||
	not_ok "fio run on ext4 and xfs, 3 reps: exit 0" "exit $rc" "$(tail -20 "$SCRATCH/run.err")"
names=$(q "select group_concat(name, ' ') from (select distinct p.name from phases p join wlruns w on p.wlrun_id = w.id join runs r on r.id = w.run_id where r.tag = 'fio3' order by p.seq)")
[ "$names" = "seqwrite randread" ] && ok "one phase per job section, in file order" ||
	not_ok "one phase per job section, in file order" "got '$names'"
n=$(q "select count(*) from $METRICS where tag = 'fio3' and phase = 'seqwrite' and name = 'write.MiB/s' and unit = 'MiB/s' and better = 1")
[ "$n" -eq 6 ] && ok "write.MiB/s stored per target and repetition, higher is better" ||
	not_ok "write.MiB/s stored per target and repetition" "got $n"
n=$(q "select count(*) from $METRICS where tag = 'fio3' and phase = 'randread' and name = 'read.lat_p99_ms' and better = -1")
[ "$n" -eq 6 ] && ok "read.lat_p99_ms stored, lower is better" || not_ok "read.lat_p99_ms stored" "got $n"

# The stored figure is fio's, repetition by repetition.
bad=0
while IFS='|' read -r wl stored; do
	json=$SCRATCH/fio-$wl.json
	q "select content from wlrun_texts where wlrun_id = $wl and name = 'fio.json:seqwrite'" >"$json"
	want=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["jobs"][0]["write"]["bw_bytes"] / 1048576)' "$json")
	python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-9 * max(1, b))' "$stored" "$want" || bad=$((bad + 1))
done < <(q "select wlrun, value from $METRICS where tag = 'fio3' and phase = 'seqwrite' and name = 'write.MiB/s'")
[ $bad -eq 0 ] && ok "stored write.MiB/s = bw_bytes in fio's JSON kept with each repetition" ||
	not_ok "stored write.MiB/s = fio's JSON" "$bad mismatches"
# The stored write histogram holds every completion fio counted (json+
# bins in fio's own buckets): its count is clat_ns N of the same JSON.
bad=0 seen=0
while IFS='|' read -r wl count; do
	seen=$((seen + 1))
	json=$SCRATCH/fio-$wl.json
	want=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["jobs"][0]["write"]["clat_ns"]["N"])' "$json")
	[ "$count" = "$want" ] || bad=$((bad + 1))
done < <(q "select p.wlrun, h.count from hists h join $PHASES p on h.phase_id = p.phase_id where p.tag = 'fio3' and p.phase = 'seqwrite' and h.op = 'write'")
[ $seen -eq 6 ] && [ $bad -eq 0 ] && ok "stored write histogram count = fio's clat_ns N, each repetition" ||
	not_ok "stored write histogram count = fio's clat N" "$seen rows, $bad mismatches"
n=$(q "select count(*) from wlrun_texts t join wlruns w on w.id = t.wlrun_id join runs r on r.id = w.run_id where r.tag = 'fio3' and t.name = 'job.fio' and t.content = cast(readfile('$JOB') as text)")
[ "$n" -eq 6 ] && ok "the job file's text is kept with every workload run" || not_ok "job file kept" "got $n"
opts=$(q "select distinct options from wlruns w join runs r on r.id = w.run_id where r.tag = 'fio3'")
sha=$(sha256sum "$JOB" | cut -d' ' -f1)
case "$opts" in *"job-sha256=$sha"*) ok "options carry the job file's SHA-256" ;;
*) not_ok "options carry the job file's SHA-256" "$opts" ;; esac

out=$("$FSLAB" show fio3 --db "$DB" 2>&1)
printf '%s' "$out" | grep -q '^\[seqwrite\]' && printf '%s' "$out" | grep -q "job-sha256=$sha" &&
	ok "show prints the job file and its hash" || not_ok "show prints the job file" "$out"

out=$("$FSLAB" compare fio3 --db "$DB" 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s' "$out" | grep -q 'write.MiB/s' &&
	printf '%s' "$out" | grep -q 'read.MiB/s' && printf '%s' "$out" | grep -q 'seqwrite'; then
	ok "compare shows the sections' key metrics"
else not_ok "compare shows the sections' key metrics" "exit $rc" "$out"; fi
out=$("$FSLAB" compare fio3 --db "$DB" --format json 2>&1)
python3 - "$out" <<'EOF' && ok "compare JSON: key rows with verdicts for both sections" || not_ok "compare JSON key rows" "$out"
import json, sys
d = json.loads(sys.argv[1])
rows = []
def walk(o):
    if isinstance(o, dict):
        if o.get("key") is True and "phase" in o:
            rows.append(o)
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(d)
phases = {r["phase"] for r in rows}
assert {"seqwrite", "randread"} <= phases, phases
EOF
"$FSLAB" report fio3 --db "$DB" -o "$SCRATCH/r.html" >/dev/null 2>&1 &&
	grep -q 'write.MiB/s' "$SCRATCH/r.html" && ok "report has the fio key metrics" ||
	not_ok "report has the fio key metrics"

# A different job file (same path, new text) is a different configuration.
cp "$JOB" "$SCRATCH/two.orig"
sed -i 's/size=2m/size=1m/' "$JOB"
"$FSLAB" run -t ext4:size=512M -w "fio:job=$JOB" \
	--db "$DB" --scratch "$SCRATCH" --tag fiob >/dev/null 2>&1
cp "$SCRATCH/two.orig" "$JOB"
out=$("$FSLAB" compare fio3 fiob --db "$DB" 2>&1)
[ $? -eq 2 ] && printf '%s' "$out" | grep -q 'job-sha256' &&
	ok "compare refuses runs of different job files, naming the hash" ||
	not_ok "compare refuses runs of different job files" "$out"

# 4. --trace on an fio phase, with section= and size= overrides
"$FSLAB" run -t ext4:size=512M -w "fio:job=$JOB,section=seqwrite,size=1m" \
	--trace=seqwrite --db "$DB" --scratch "$SCRATCH" --tag fiot \
	>"$SCRATCH/t.out" 2>"$SCRATCH/t.err"
rc=$?
n=$(q "select count(*) from $METRICS where tag = 'fiot' and phase = 'seqwrite' and name = 'trace.requests' and value > 0")
b=$(q "select cast(value as integer) from $METRICS where tag = 'fiot' and phase = 'seqwrite' and name = 'write.io_B'")
[ $rc -eq 0 ] && [ "$n" -eq 1 ] && ok "--trace=seqwrite traces the fio phase" ||
	not_ok "--trace traces the fio phase" "exit $rc, $n" "$(tail -5 "$SCRATCH/t.err")"
[ "$b" = 1048576 ] && ok "size=1m override reaches fio" || not_ok "size=1m override reaches fio" "wrote '$b'"
n=$(q "select count(distinct p.name) from phases p join wlruns w on p.wlrun_id = w.id join runs r on r.id = w.run_id where r.tag = 'fiot'")
[ "$n" -eq 1 ] && ok "section= runs only that section" || not_ok "section= runs only that section" "$n phases"
out=$("$FSLAB" run -t ext4:size=512M -w "fio:job=$JOB" --trace=nosuch \
	--db "$DB" --scratch "$SCRATCH" 2>&1)
[ $? -eq 2 ] && printf '%s' "$out" | grep -q 'valid: seqwrite, randread' &&
	ok "--trace names are checked against the job's sections" ||
	not_ok "--trace names are checked against the job's sections" "$out"

# 5. a job that fails at run time fails its phase with fio's words
printf '[ro]\nrw=read\nsize=1m\nallow_file_create=0\nfilename=absent\n' >"$SCRATCH/fail.fio"
out=$("$FSLAB" run -t ext4:size=512M -w "fio:job=$SCRATCH/fail.fio" \
	--db "$DB" --scratch "$SCRATCH" --tag fiof 2>&1)
rc=$?
err=$(q "select error from phases p join wlruns w on p.wlrun_id = w.id join runs r on r.id = w.run_id where r.tag = 'fiof'")
[ $rc -eq 1 ] && printf '%s' "$err" | grep -q 'file creation disallowed' &&
	ok "a failing job fails its phase with fio's message (exit 1)" ||
	not_ok "a failing job fails its phase" "exit $rc" "$err" "$out"

# fio's own verify= is the phase's verification
printf '[v]\nrw=write\nsize=1m\nbs=4k\nverify=crc32c\ndo_verify=1\n' >"$SCRATCH/v.fio"
"$FSLAB" run -t ext4:size=512M -w "fio:job=$SCRATCH/v.fio" \
	--db "$DB" --scratch "$SCRATCH" --tag fiov >/dev/null 2>&1
n=$(q "select count(*) from $METRICS where tag = 'fiov' and name = 'fio.verified' and value = 1")
[ "$n" -eq 1 ] && ok "a verify= job that passes records fio.verified" || not_ok "fio.verified" "got $n"
out=$("$FSLAB" run -t ext4:size=512M -w "fio:job=$SCRATCH/v.fio" --verify \
	--db "$DB" --scratch "$SCRATCH" 2>&1)
[ $? -eq 2 ] && printf '%s' "$out" | grep -q 'verify=' &&
	ok "--verify is refused, pointing at fio's verify=" || not_ok "--verify refused" "$out"

nothing_left_under "$SCRATCH" && ok "nothing left mounted or attached" ||
	not_ok "nothing left mounted or attached"
finish
