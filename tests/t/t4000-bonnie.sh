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
grep -q '^Machine Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP$' "$out" &&
grep -q -- '-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--' "$out" &&
grep -q '^Latency ' "$out" &&
	ok "ext4: bonnie++ table printed" || not_ok "ext4: bonnie++ table printed" "$(cat "$out")"
grep -q '^Per Chr: one write(2)/read(2) per byte' "$out" &&
	ok "ext4: per-char meaning stated" || not_ok "ext4: per-char meaning stated" "$(cat "$out")"

csv=$(grep '^1\.98,' "$out")
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
stored=$(sqlite3 "$DB" "select p.name from phases p join wlruns w on p.wlrun_id = w.id where w.run_id = $run order by p.seq" | tr '\n' ' ')
want=$(echo $phases)
[ "$stored" = "$want " ] && ok "ext4: every bonnie test stored as a phase" ||
	not_ok "ext4: every bonnie test stored as a phase" "got '$stored'" "want '$want '"
for m in rate too_fast lat_max_us lat_p50_us lat_p99_us wall_s user_s sys_s; do
	n=$(sqlite3 "$DB" "select count(*) from metrics m join phases p on m.phase_id = p.id join wlruns w on p.wlrun_id = w.id where w.run_id = $run and m.name = '$m'")
	[ "$n" -eq 12 ] && ok "ext4: metric $m on all 12 phases" || not_ok "ext4: metric $m on all 12 phases" "got $n"
done
n=$(sqlite3 "$DB" "select count(*) from metrics m join phases p on m.phase_id = p.id join wlruns w on p.wlrun_id = w.id where w.run_id = $run and m.name in ('dev_write_MiB', 'sys_cpu_pct')")
[ "$n" -ge 12 ] && ok "ext4: device I/O and system CPU stored" || not_ok "ext4: device I/O and system CPU stored" "got $n"
n=$(sqlite3 "$DB" "select count(*) from metrics m join phases p on m.phase_id = p.id join wlruns w on p.wlrun_id = w.id where w.run_id = $run and p.name = 'block-write' and m.name = 'rate' and m.unit = 'KiB/s' and m.better = 1")
[ "$n" -eq 1 ] && ok "ext4: block rate stored with unit and direction" || not_ok "ext4: block rate stored with unit and direction" "got $n"
n=$(sqlite3 "$DB" "select count(*) from workers k join phases p on k.phase_id = p.id join wlruns w on p.wlrun_id = w.id where w.run_id = $run and p.name = 'seeks'" 2>&1)
[ "$n" = 5 ] && ok "ext4: five seeker threads recorded" || not_ok "ext4: five seeker threads recorded" "got $n"

"$FSLAB" show --db "$DB" t4000-ext4 >"$SCRATCH/ext4.show" 2>&1
csv2=$(grep '^1\.98,' "$SCRATCH/ext4.show")
[ -n "$csv" ] && [ "$csv" = "$csv2" ] && ok "ext4: show reproduces the CSV from the store" ||
	not_ok "ext4: show reproduces the CSV from the store" "live:  $csv" "shown: $csv2"

nothing_left_under "$SCRATCH" && ok "ext4: no mount or loop device left" ||
	not_ok "ext4: no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"

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
grep '^1\.98,' "$SCRATCH/dir.out" | grep -q ',1,4096,1024,3,4096,' &&
	ok "dir: file-test parameters in the CSV" || not_ok "dir: file-test parameters in the CSV" "$(grep '^1.98' "$SCRATCH/dir.out")"

# Refusals: a file below twice the RAM, a bad chunk.
check_exit "refuses a file below twice the RAM" 2 \
	"$FSLAB" run --target "dir:$SCRATCH/dir" --workload bonnie:size=256M,ram=1G \
	--db "$DB" --scratch "$SCRATCH"
check_exit "refuses a chunk that is not a power of two" 2 \
	"$FSLAB" run --target "dir:$SCRATCH/dir" --workload bonnie:size=256M,ram=0,chunk=3000 \
	--db "$DB" --scratch "$SCRATCH"
finish
