#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab run -w exec:cmd=... on a loop ext4: the command runs in the
# workload directory as one measured phase; metrics=lines stores what it
# printed with units and directions; the dbench and fs_mark parsers read
# the real tools' output; a failing command fails its phase with its exit
# code and stderr; bad options are refused before anything is built.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3 fs_mark dbench
scratch_dir

q() {
	sqlite3 "$DB" "$1"
}

out=$("$FSLAB" run -t ext4:size=512M -w 'exec:metrics=lines' \
	--db "$DB" --scratch "$SCRATCH" 2>&1)
[ $? -eq 2 ] && printf '%s' "$out" | grep -q 'cmd=' &&
	ok "exec without cmd= is refused (exit 2)" || not_ok "exec without cmd= refused" "$out"
out=$("$FSLAB" run -t ext4:size=512M -w 'exec:cmd=true,metrics=json,format=dbench' \
	--db "$DB" --scratch "$SCRATCH" 2>&1)
[ $? -eq 2 ] && printf '%s' "$out" | grep -q 'give one' &&
	ok "metrics= with format= is refused" || not_ok "metrics= with format= refused" "$out"

cat >"$SCRATCH/bench.sh" <<'EOF'
#!/bin/sh
dd if=/dev/zero of=data bs=1M count=4 conv=fsync status=none || exit 1
case "$PWD" in *.fslab-*) here=1 ;; *) here=0 ;; esac
echo "# what this benchmark measured"
echo "ops/s 1234.5 ops/s higher"
echo "lat_p99_ms 2.5 ms lower"
echo "in_wldir $here"
EOF
chmod +x "$SCRATCH/bench.sh"
"$FSLAB" run -t ext4:size=512M -w "exec:cmd=$SCRATCH/bench.sh,metrics=lines" -n 2 \
	--db "$DB" --scratch "$SCRATCH" --tag ex >"$SCRATCH/ex.out" 2>"$SCRATCH/ex.err"
rc=$?
[ $rc -eq 0 ] && ok "exec with metrics=lines: exit 0" ||
	not_ok "exec with metrics=lines: exit 0" "exit $rc" "$(tail "$SCRATCH/ex.err")"
n=$(q "select count(*) from $METRICS where tag = 'ex' and phase = 'exec' and name = 'cmd.ops/s' and value = 1234.5 and unit = 'ops/s' and better = 1")
[ "$n" -eq 2 ] && ok "cmd.ops/s stored per repetition, higher is better" || not_ok "cmd.ops/s stored" "got $n"
n=$(q "select count(*) from $METRICS where tag = 'ex' and name = 'cmd.lat_p99_ms' and unit = 'ms' and better = -1")
[ "$n" -eq 2 ] && ok "cmd.lat_p99_ms stored, lower is better" || not_ok "cmd.lat_p99_ms stored" "got $n"
n=$(q "select count(*) from $METRICS where tag = 'ex' and name = 'cmd.in_wldir' and value = 1 and better = 0")
[ "$n" -eq 2 ] && ok "the command runs in the workload directory" || not_ok "runs in the workload directory" "got $n"
w=$(q "select min(p.wr_bytes) from phases p join wlruns w on p.wlrun_id = w.id join runs r on r.id = w.run_id where r.tag = 'ex'")
[ "${w:-0}" -ge 4194304 ] && ok "the phase measured the command's device writes" ||
	not_ok "the phase measured the command's device writes" "wr_bytes '$w'"
opts=$(q "select distinct options from wlruns w join runs r on r.id = w.run_id where r.tag = 'ex'")
case "$opts" in *"cmd=$SCRATCH/bench.sh"*) ok "the command line is in the stored options" ;;
*) not_ok "the command line is in the stored options" "$opts" ;; esac
out=$("$FSLAB" show ex --db "$DB" 2>&1)
printf '%s' "$out" | grep -q 'cmd.ops/s 1234.5 ops/s' && ok "show prints the command's metrics" ||
	not_ok "show prints the command's metrics" "$out"

# A failing command: exit code and stderr in the failed phase.
"$FSLAB" run -t ext4:size=512M -w 'exec:cmd=echo boom-on-stderr >&2; exit 3' \
	--db "$DB" --scratch "$SCRATCH" --tag exf >/dev/null 2>"$SCRATCH/f.err"
rc=$?
err=$(q "select error from phases p join wlruns w on p.wlrun_id = w.id join runs r on r.id = w.run_id where r.tag = 'exf'")
st=$(q "select p.status from phases p join wlruns w on p.wlrun_id = w.id join runs r on r.id = w.run_id where r.tag = 'exf'")
if [ $rc -eq 1 ] && [ "$st" = failed ] && printf '%s' "$err" | grep -q 'exited 3' &&
	printf '%s' "$err" | grep -q 'boom-on-stderr'; then
	ok "a failing command fails its phase with exit code and stderr"
else not_ok "a failing command fails its phase" "exit $rc status '$st'" "$err"; fi
"$FSLAB" run -t ext4:size=512M -w 'exec:cmd=echo not metrics,metrics=lines' \
	--db "$DB" --scratch "$SCRATCH" --tag exl >/dev/null 2>&1
err=$(q "select error from phases p join wlruns w on p.wlrun_id = w.id join runs r on r.id = w.run_id where r.tag = 'exl'")
printf '%s' "$err" | grep -q 'stdout line 1' && ok "stdout that is not metrics fails the phase, naming the line" ||
	not_ok "bad metrics lines fail the phase" "$err"

# Built-in parsers against the real tools.
"$FSLAB" run -t ext4:size=512M -w 'exec:cmd=fs_mark -d . -n 100 -s 0 -L 2 -S 0,format=fs_mark' \
	--db "$DB" --scratch "$SCRATCH" --tag fsm >/dev/null 2>"$SCRATCH/fsm.err"
n=$(q "select count(*) from $METRICS where tag = 'fsm' and name = 'fs_mark.files/s' and value > 0 and better = 1")
it=$(q "select cast(value as integer) from $METRICS where tag = 'fsm' and name = 'fs_mark.iterations'")
[ "$n" -eq 1 ] && [ "$it" = 2 ] && ok "format=fs_mark: files/s over 2 iterations" ||
	not_ok "format=fs_mark" "n $n it '$it'" "$(tail -5 "$SCRATCH/fsm.err")"
"$FSLAB" run -t ext4:size=512M -w 'exec:cmd=dbench -D . -t 2 1,format=dbench' \
	--db "$DB" --scratch "$SCRATCH" --tag db >/dev/null 2>"$SCRATCH/db.err"
n=$(q "select count(*) from $METRICS where tag = 'db' and name = 'dbench.MB/s' and value > 0 and better = 1")
[ "$n" -eq 1 ] && ok "format=dbench: throughput stored" ||
	not_ok "format=dbench" "$(tail -5 "$SCRATCH/db.err")"

nothing_left_under "$SCRATCH" && ok "nothing left mounted or attached" ||
	not_ok "nothing left mounted or attached"
finish
