#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab run + bonnie on loop-mounted ext4 and on a dir: target: the
# bonnie++ table and CSV come out, bon_csv2txt accepts the CSV line, every
# test is a stored phase with bonnie's metrics, `fslab show` renders the
# same CSV from the store, and the workload removes its scratch file.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
need_cmd mkfs.ext4
need_cmd bon_csv2txt
scratch_dir

phases="putc block-write rewrite getc block-read seeks seq-create seq-stat
seq-delete rand-create rand-stat rand-delete"

out=$SCRATCH/ext4.out
"$FSLAB" run --target ext4:size=1G \
	--workload bonnie:size=256M,ram=0,files=1 \
	--db "$DB" --scratch "$SCRATCH" --tag t4000-ext4 \
	>"$out" 2>"$SCRATCH/ext4.err"
rc=$?
if [ $rc -eq 0 ]; then ok "ext4: run exits 0"; else
	not_ok "ext4: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/ext4.err")"; fi

grep -q -- '-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--' "$out" &&
grep -q '^Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP$' "$out" &&
grep -q -- '-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--' "$out" &&
grep -q '^Latency ' "$out" &&
	ok "ext4: bonnie++ table printed" || not_ok "ext4: bonnie++ table printed" "$(cat "$out")"
grep -q '^Per Chr: one write(2)/read(2) per byte' "$out" &&
	ok "ext4: per-char meaning stated" || not_ok "ext4: per-char meaning stated" "$(cat "$out")"

csv=$(grep '^1\.98,' "$out" | head -1)
nf=$(printf '%s\n' "$csv" | awk -F, '{ print NF }')
[ -n "$csv" ] && [ "$nf" -eq 50 ] && ok "ext4: CSV line with 50 fields" ||
	not_ok "ext4: CSV line with 50 fields" "got $nf" "$csv"
case "$csv" in
1.98,*,*,1,*,256M,8192,8192,5,*) ok "ext4: CSV parameters in bonnie++'s fields" ;;
*) not_ok "ext4: CSV parameters in bonnie++'s fields" "$csv" ;;
esac
txt=$(printf '%s\n' "$csv" | bon_csv2txt 2>&1)
if [ $? -eq 0 ] && ! printf '%s' "$txt" | grep -q Expected &&
	printf '%s' "$txt" | grep -q ' 256M:8192:8192:5 ' &&
	printf '%s' "$txt" | grep -q 'files:max:min'; then
	ok "ext4: bon_csv2txt renders the CSV line"
else not_ok "ext4: bon_csv2txt renders the CSV line" "$txt"; fi
if command -v bon_csv2html >/dev/null 2>&1; then
	printf '%s\n' "$csv" | bon_csv2html >"$SCRATCH/b.html" 2>&1 &&
		grep -q '<table' "$SCRATCH/b.html" &&
		ok "ext4: bon_csv2html renders the CSV line" ||
		not_ok "ext4: bon_csv2html renders the CSV line" "$(head "$SCRATCH/b.html")"
fi

run=$(sqlite3 "$DB" "select id from runs where tag = 't4000-ext4'")
st=$(sqlite3 "$DB" "select status from runs where id = $run")
[ "$st" = complete ] && ok "ext4: run stored as complete" || not_ok "ext4: run stored as complete" "status '$st'"
stored=$(sqlite3 "$DB" "select phase from $PHASES where run = $run order by seq" | tr '\n' ' ')
want=$(echo $phases)
[ "$stored" = "$want " ] && ok "ext4: every bonnie test stored as a phase" ||
	not_ok "ext4: every bonnie test stored as a phase" "got '$stored'" "want '$want '"
for m in too_fast lat_max_ms lat_p50_ms lat_p99_ms wall_s user_s sys_s; do
	n=$(sqlite3 "$DB" "select count(*) from $METRICS where run = $run and name = '$m'")
	[ "$n" -eq 12 ] && ok "ext4: metric $m on all 12 phases" || not_ok "ext4: metric $m on all 12 phases" "got $n"
done
n=$(sqlite3 "$DB" "select count(*) from $METRICS where run = $run and name = 'rate_' || unit and unit in ('KiB/s', 'seeks/s', 'files/s')")
[ "$n" -eq 12 ] && ok "ext4: bonnie++'s rate_UNIT on all 12 phases" || not_ok "ext4: bonnie++'s rate_UNIT on all 12 phases" "got $n"
n=$(sqlite3 "$DB" "select count(*) from $METRICS where run = $run and name in ('dev_write_MiB', 'sys_cpu_pct')")
[ "$n" -ge 12 ] && ok "ext4: device I/O and system CPU stored" || not_ok "ext4: device I/O and system CPU stored" "got $n"
n=$(sqlite3 "$DB" "select count(*) from $METRICS where run = $run and phase = 'block-write' and name = 'rate_KiB/s' and unit = 'KiB/s' and better = 1")
[ "$n" -eq 1 ] && ok "ext4: block rate stored with unit and direction" || not_ok "ext4: block rate stored with unit and direction" "got $n"
n=$(sqlite3 "$DB" "select count(*) from workers k join phases p on k.phase_id = p.id join wlruns w on p.wlrun_id = w.id where w.run_id = $run and p.name = 'seeks'" 2>&1)
[ "$n" = 5 ] && ok "ext4: five seeker threads recorded" || not_ok "ext4: five seeker threads recorded" "got $n"

"$FSLAB" show --db "$DB" t4000-ext4 >"$SCRATCH/ext4.show" 2>&1
csv2=$(grep '^1\.98,' "$SCRATCH/ext4.show" | head -1)
[ -n "$csv" ] && [ "$csv" = "$csv2" ] && ok "ext4: show reproduces the CSV from the store" ||
	not_ok "ext4: show reproduces the CSV from the store" "live:  $csv" "shown: $csv2"

nothing_left_under "$SCRATCH" && ok "ext4: no mount or loop device left" ||
	not_ok "ext4: no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"

# The mail's table: two targets x three repetitions give one table with
# six rows, each named after its target, exactly what bon_csv2txt prints
# for the run's six CSV rows; `show` prints the same table from the store.
out=$SCRATCH/multi.out
"$FSLAB" run --target ext4:size=256M --target ext4:size=256M,name=ext4b \
	--repeat 3 --workload bonnie:size=16M,ram=0,files=1,seeks=100 \
	--db "$DB" --scratch "$SCRATCH" --tag t4000-multi \
	>"$out" 2>"$SCRATCH/multi.err"
rc=$?
if [ $rc -eq 0 ]; then ok "2 x 3: run exits 0"; else
	not_ok "2 x 3: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/multi.err")"; fi
table() { awk '/^Version     2\.00a/ { p = 1 } /^Per Chr/ { p = 0 } p' "$1"; }
table "$out" >"$SCRATCH/multi.table"
n=$(grep -c '^1\.98,' "$out")
grep '^1\.98,' "$out" | tail -6 >"$SCRATCH/multi.csv"
nio=$(grep -cE '^ext4 +[0-9]+M:8192:100:5 |^ext4b +[0-9]+M:8192:100:5 ' "$SCRATCH/multi.table")
nfi=$(grep -cE '^ext4 +1/1 |^ext4b +1/1 ' "$SCRATCH/multi.table")
[ "$n" = 12 ] && [ "$nio" = 6 ] && [ "$nfi" = 6 ] &&
	[ "$(grep -c '^Version ' "$SCRATCH/multi.table")" = 1 ] &&
	ok "2 x 3: one table, six rows per part, labelled with the target" ||
	not_ok "2 x 3: one table, six rows per part, labelled with the target" \
		"csv $n io $nio files $nfi" "$(cat "$SCRATCH/multi.table")"
[ "$(cut -d, -f3 "$SCRATCH/multi.csv" | tr '\n' ' ')" = "ext4 ext4 ext4 ext4b ext4b ext4b " ] &&
	ok "2 x 3: CSV rows named after the targets, repetitions in order" ||
	not_ok "2 x 3: CSV rows named after the targets" "$(cat "$SCRATCH/multi.csv")"
bon_csv2txt <"$SCRATCH/multi.csv" >"$SCRATCH/multi.theirs" 2>"$SCRATCH/multi.theirs.err"
if [ ! -s "$SCRATCH/multi.theirs.err" ] &&
	diff "$SCRATCH/multi.table" "$SCRATCH/multi.theirs" >/dev/null; then
	ok "2 x 3: bon_csv2txt accepts every row and prints the same table"
else not_ok "2 x 3: bon_csv2txt accepts every row and prints the same table" \
	"$(diff "$SCRATCH/multi.table" "$SCRATCH/multi.theirs")" "$(cat "$SCRATCH/multi.theirs.err")"; fi
"$FSLAB" show --db "$DB" t4000-multi >"$SCRATCH/multi.show" 2>&1
table "$SCRATCH/multi.show" | diff - "$SCRATCH/multi.table" >/dev/null &&
	ok "2 x 3: show prints the same table from the store" ||
	not_ok "2 x 3: show prints the same table from the store" "$(cat "$SCRATCH/multi.show")"

# A repetition that did not complete is marked in the table and the CSV.
sqlite3 "$DB" "update wlruns set status = 'failed' where rep = 1 and target_id in (select t.id from targets t join runs r on t.run_id = r.id where r.tag = 't4000-multi' and t.name = 'ext4b')"
"$FSLAB" show --db "$DB" t4000-multi >"$SCRATCH/multi.failed" 2>&1
# (bon_csv2txt cuts the name to fit "16M:8192:100:5" in the I/O part)
[ "$(table "$SCRATCH/multi.failed" | grep -c '^ext4b\* ')" = 1 ] &&
	grep -qx '\* ext4b rep 2: failed; its row holds the tests that completed' "$SCRATCH/multi.failed" &&
	grep -q '^1\.98,[^,]*,ext4b\*,' "$SCRATCH/multi.failed" &&
	ok "2 x 3: a failed repetition is marked where its figures are printed" ||
	not_ok "2 x 3: a failed repetition is marked" "$(cat "$SCRATCH/multi.failed")"

# format=1.03: bonnie++ 1.03's columns and CSV, per-char by putc/getc,
# with the 1.98 rows beside them for bon_csv2txt.
out=$SCRATCH/v103.out
"$FSLAB" run --target ext4:size=256M,name=ext3 \
	--target 'ext4:size=256M,name=ext4(patchqueue)' --repeat 2 \
	--workload bonnie:size=16M,ram=0,files=1,seeks=100,format=1.03 \
	--db "$DB" --scratch "$SCRATCH" --tag t4000-103 \
	>"$out" 2>"$SCRATCH/v103.err"
rc=$?
if [ $rc -eq 0 ]; then ok "1.03: run exits 0"; else
	not_ok "1.03: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/v103.err")"; fi
grep -q '^Version  1\.03       ------Sequential Output------ --Sequential Input- --Random-$' "$out" &&
grep -q '^Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP$' "$out" &&
grep -q '^files:max:min        /sec %CP' "$out" &&
[ "$(grep -cE '^ext3 {12}16M( +[0-9.+]+){12}$' "$out")" = 2 ] &&
[ "$(grep -cE '^ext4\(patchqueue\)16M( +[0-9.+]+){12}$' "$out")" = 2 ] &&
grep -q '^Per Chr: putc/getc over the whole file' "$out" &&
	ok "1.03: bonnie++ 1.03's table, a labelled row per target and repetition" ||
	not_ok "1.03: bonnie++ 1.03's table" "$(cat "$out")"
n103=$(grep -cE '^(ext3|ext4\(patchqueue\)),16M(,[0-9.+]*){12},1(,[0-9.+]*){12}$' "$out")
[ "$n103" = 8 ] && ok "1.03: 27-field 1.03 CSV rows" || not_ok "1.03: 27-field 1.03 CSV rows" "got $n103" "$(grep ',16M,' "$out")"
grep '^1\.98,' "$out" | bon_csv2txt >"$SCRATCH/v103.txt" 2>"$SCRATCH/v103.txt.err"
[ ! -s "$SCRATCH/v103.txt.err" ] && [ "$(grep -c '^ext[34]' "$SCRATCH/v103.txt")" -ge 4 ] &&
	ok "1.03: bon_csv2txt accepts the 1.98 rows printed beside them" ||
	not_ok "1.03: bon_csv2txt accepts the 1.98 rows" "$(cat "$SCRATCH/v103.txt.err")"
stdio=$(sqlite3 "$DB" "select count(*) from $METRICS where tag = 't4000-103' and phase = 'putc' and name = 'perchar_stdio' and value = 1")
[ "$stdio" = 4 ] && ok "1.03: per-char tests ran with putc/getc" || not_ok "1.03: per-char tests ran with putc/getc" "got $stdio"

# On a dir: target nothing is torn down for us: the workload itself must
# remove its scratch file and its file-test directories.
mkdir -p "$SCRATCH/dir"
"$FSLAB" run --target "dir:$SCRATCH/dir" \
	--workload bonnie:size=64M,ram=0,files=1:4k:1k:3,seeks=200,seekers=3 \
	--db "$DB" --scratch "$SCRATCH" --tag t4000-dir \
	>"$SCRATCH/dir.out" 2>"$SCRATCH/dir.err"
rc=$?
if [ $rc -eq 0 ]; then ok "dir: run exits 0"; else
	not_ok "dir: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/dir.err")"; fi
left=$(find "$SCRATCH/dir" -name 'Bonnie.*' | head -3)
[ -z "$left" ] && ok "dir: scratch file and directories removed" || not_ok "dir: scratch file and directories removed" "$left"
grep '^1\.98,' "$SCRATCH/dir.out" | head -1 | grep -q ',1,4096,1024,3,4096,' &&
	ok "dir: file-test parameters in the CSV" || not_ok "dir: file-test parameters in the CSV" "$(grep '^1.98' "$SCRATCH/dir.out")"

# Refusals: a file below twice the RAM, a bad chunk.
check_exit "refuses a file below twice the RAM" 2 \
	"$FSLAB" run --target "dir:$SCRATCH/dir" --workload bonnie:size=256M,ram=1G \
	--db "$DB" --scratch "$SCRATCH"
check_exit "refuses a chunk that is not a power of two" 2 \
	"$FSLAB" run --target "dir:$SCRATCH/dir" --workload bonnie:size=256M,ram=0,chunk=3000 \
	--db "$DB" --scratch "$SCRATCH"
check_metric_names
finish
