# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - a tiny TAP harness for fslab's integration tests.
#
# Each tests/t/tNNNN-*.sh sources this file, then calls ok/not_ok/check
# and finally `finish`.  Resources a test creates are registered with
# cleanup_add right after creation; they are released at exit, LIFO, also
# when the test fails or is interrupted.
#
#   need_root / need_loop   skip the whole file when unavailable, except
#                           under CI=true where that is a failure
#   scratch_dir             private dir under /var/tmp ($SCRATCH), with
#                           FSLAB_STATE_DIR=$SCRATCH/state and a private
#                           results db ($DB)
#   pause_wait ERR PID PHASE [N]
#                           wait until a run started with --pause-before
#                           PHASE has stopped there (the Nth time)
#   metric RUN PHASE NAME   one stored metric's value; RUN is a run id or
#                           tag, PHASE a phase name or NAME@LABEL
#   metric_int ...          the same rounded toward zero, for counts
#   metric_full ...         the same as "value unit better"
#   check_metric_names [DB] ok/not_ok: every metric stored in DB ($DB)
#                           is named by the rule (README "Metric names")
#   $METRICS                every stored metric with its run, workload
#                           and phase as one SQL table, for queries the
#                           helpers do not cover:
#                           select count(*) from $METRICS where run = 3

set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
# Without FSLAB the tests use the tree's own build, made here when it is
# missing or older than a source (a fresh clone runs a test by itself);
# the lock keeps tests started in parallel from building twice.
_build_if_stale() {
	local bin=$TOP/build/fslab
	[ -x "$bin" ] && [ -e "$TOP/fslab" ] &&
		[ -z "$(find "$TOP/src" "$TOP/Makefile" -newer "$bin" -print -quit)" ] &&
		return 0
	mkdir -p "$TOP/build" &&
		flock "$TOP/build/.test-build.lock" \
			make -C "$TOP" -j2 all >"$TOP/build/test-build.log" 2>&1 && return 0
	echo "Bail out! make -C $TOP all failed, see $TOP/build/test-build.log"
	tail -n 20 "$TOP/build/test-build.log" | sed 's/^/# /'
	exit 1
}
if [ -z "${FSLAB:-}" ]; then
	_build_if_stale
	FSLAB=$TOP/fslab
fi
export FSLAB
export XDG_DATA_HOME=${XDG_DATA_HOME:-/nonexistent-fslab-test-home}
_ntest=0
_nfail=0
_cleanups=()

_run_cleanups() {
	local i
	for ((i = ${#_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${_cleanups[$i]}" >/dev/null 2>&1 || true
	done
	_cleanups=()
}
trap '_run_cleanups' EXIT
trap '_run_cleanups; exit 130' INT TERM

cleanup_add() {
	_cleanups+=("$1")
}

ok() {
	_ntest=$((_ntest + 1))
	echo "ok $_ntest - $1"
}

not_ok() {
	_ntest=$((_ntest + 1))
	_nfail=$((_nfail + 1))
	echo "not ok $_ntest - $1"
	shift
	local l
	for l in "$@"; do
		printf '%s\n' "$l" | sed 's/^/# /'
	done
}

# check "description" cmd args...  (ok when the command exits 0)
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc" "command: $*" "$out"
	fi
}

# check_fail "description" expected-exit-code cmd args...
check_exit() {
	local desc=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc" "command: $*" "exit $rc, wanted $want" "$out"
	fi
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

_need() {
	if [ "${CI:-}" = true ]; then
		echo "1..1"
		echo "not ok 1 - $1 (required under CI)"
		exit 1
	fi
	skip_all "$1"
}

need_root() {
	[ "$(id -u)" -eq 0 ] || _need "needs root"
}

need_loop() {
	need_root
	[ -e /dev/loop-control ] || _need "needs loop devices (/dev/loop-control)"
}

# need_cmd CMD...: skip the file unless every CMD is on the PATH.
need_cmd() {
	local c
	for c; do
		command -v "$c" >/dev/null 2>&1 || _need "needs $c"
	done
}

scratch_dir() {
	SCRATCH=$(mktemp -d /var/tmp/fslab-test.XXXXXX)
	export SCRATCH
	export FSLAB_STATE_DIR=$SCRATCH/state
	DB=$SCRATCH/results.db
	export DB
	cleanup_add "rm -rf '$SCRATCH'"
	# Registered after rm -rf so it runs first: nothing of ours may stay
	# mounted or attached when the directory goes.
	cleanup_add "_release_scratch '$SCRATCH'"
}

# Unmount and detach whatever still lives under a scratch dir.
_release_scratch() {
	local dir=$1 m l
	for m in $(awk -v d="$dir" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for l in /sys/block/loop*/loop/backing_file; do
		[ -e "$l" ] || continue
		case "$(cat "$l" 2>/dev/null)" in
		"$dir"/*) losetup -d "/dev/$(basename "$(dirname "$(dirname "$l")")")" 2>/dev/null ;;
		esac
	done
}

# True when nothing is mounted or loop-attached under $1.
nothing_left_under() {
	local dir=$1 l
	if awk -v d="$dir" 'index($2, d) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
		return 1
	fi
	for l in /sys/block/loop*/loop/backing_file; do
		[ -e "$l" ] || continue
		case "$(cat "$l" 2>/dev/null)" in
		"$dir"/*) return 1 ;;
		esac
	done
	return 0
}

# pause_wait ERRFILE PID PHASE [N]: true once the fslab PID (started
# with --pause-before PHASE, stderr to ERRFILE) has said N times (default
# 1) that it stops before PHASE and is stopped; false when it exited
# first.  The 300 s only bound a broken run: a held run races nothing.
pause_wait() {
	local err=$1 pid=$2 phase=$3 n=${4:-1} deadline=$((SECONDS + 300)) c
	while :; do
		c=$(grep -c "paused before phase $phase (pid $pid)" "$err" 2>/dev/null)
		if [ "${c:-0}" -ge "$n" ] &&
			[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = T ]; then
			return 0
		fi
		kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ] || return 1
		sleep 0.05
	done
}

# Every metric with where it belongs, as one table (columns run, tag,
# workload, wlrun, phase_id, phase, label, status, name, value, unit,
# better), so no test repeats the join.
METRICS="(select r.id as run, r.tag as tag, w.workload as workload,
	w.id as wlrun, p.id as phase_id, p.name as phase, p.label as label,
	p.status as status, m.name as name, m.value as value, m.unit as unit,
	m.better as better from metrics m join phases p on m.phase_id = p.id
	join wlruns w on p.wlrun_id = w.id join runs r on w.run_id = r.id)"

# Every phase with its workload run and run, as one table (columns run,
# tag, pid, run_status, wlrun, workload, rep, phase_id, seq, phase, label,
# status, error, bytes, files, ops, wall_ns), the phases join of $METRICS:
#   sqlite3 "$DB" "select files from $PHASES where run = 3 and phase = 'create'"
PHASES="(select r.id as run, r.tag as tag, r.pid as pid,
	r.status as run_status, w.id as wlrun,
	w.workload as workload, w.rep as rep, p.id as phase_id, p.seq as seq,
	p.name as phase, p.label as label, p.status as status,
	p.error as error, p.bytes as bytes, p.files as files, p.ops as ops,
	p.wall_ns as wall_ns from phases p join wlruns w on p.wlrun_id = w.id
	join runs r on w.run_id = r.id)"

# _metric_where RUN PHASE NAME: the WHERE clause of the metric helpers.
_metric_where() {
	local run=$1 phase=$2 name=$3 label=
	case "$phase" in
	*@*) label=${phase#*@} phase=${phase%%@*} ;;
	esac
	case "$run" in
	''|*[!0-9]*) printf "tag = '%s'" "$run" ;;
	*) printf "run = %s" "$run" ;;
	esac
	printf " and phase = '%s' and name = '%s'" "$phase" "$name"
	[ -z "$label" ] || printf " and label = '%s'" "$label"
}

# _metric_select EXPR RUN PHASE NAME: EXPR of the metrics matched.
_metric_select() {
	local expr=$1
	shift
	sqlite3 "$DB" "select $expr from $METRICS where $(_metric_where "$@") order by phase_id"
}

# metric RUN PHASE NAME: the value (several lines if several phases
# match, e.g. repetitions); needs $DB.
metric() {
	_metric_select value "$@"
}

# metric_int RUN PHASE NAME: the value rounded toward zero, for counts.
metric_int() {
	_metric_select "cast(value as integer)" "$@"
}

# metric_full RUN PHASE NAME: "value unit better".
metric_full() {
	_metric_select "value || ' ' || unit || ' ' || better" "$@"
}

# check_metric_names [DB]: one ok/not_ok, every metric name stored in DB
# (default $DB) follows the naming rule for its unit (README "Metric
# names", src/measure/result.h), restated here so the test does not trust the
# code it checks: rates end in /s, durations _s, latency _ms, sizes _B
# or _MiB, percentages _pct; counts and ratios end in none of them.
check_metric_names() {
	local db=${1:-$DB} bad n
	if [ ! -s "$db" ]; then
		# sqlite3 would create it; a test that skipped its runs has none
		ok "metric names # skip no results database"
		return 0
	fi
	n=$(sqlite3 "$db" "select count(*) from metrics")
	bad=$(sqlite3 -separator "$(printf '\t')" "$db" \
		"select distinct name, unit from metrics" | awk -F '\t' '
	function ends(s, x) {
		return length(s) >= length(x) &&
			substr(s, length(s) - length(x) + 1) == x
	}
	{
		n = $1; u = $2; why = ""
		if (ends(n, "_bytes") || ends(n, "mib_s") || n ~ /(^|[.])(tps|iops)$/)
			why = "a retired spelling"
		else if (ends(u, "/s")) { if (!ends(n, "/s")) why = "a rate ends in /s" }
		else if (u == "%") { if (!ends(n, "_pct")) why = "a percentage ends in _pct" }
		else if (u ~ /^(s|ms|B|KiB|MiB|GiB|MHz)$/) {
			if (!ends(n, "_" u)) why = "ends in _" u
		} else if (n ~ /(\/s|_s|_ms|_B|_KiB|_MiB|_GiB|_pct|_MHz)$/)
			why = "a count ends in no unit suffix"
		if (why != "")
			print n " [" u "]: " why
	}')
	[ "${n:-0}" -gt 0 ] && [ -z "$bad" ] &&
		ok "the $n stored metrics follow the naming rule" ||
		not_ok "the stored metrics follow the naming rule" "$n metrics" "$bad"
	# Each workload's key metrics ("phase/name", fslab list -v) name
	# stored figures: where a phase with key metrics ran ok, one of
	# them is stored (some are absent on their own: compilebench stores
	# no patch.avg_MiB/s when no patch ran).
	local wl k ph names miss=
	for wl in $(sqlite3 "$db" "select distinct workload from wlruns"); do
		while IFS= read -r ph; do
			# key metrics may be globs (fio's "*/write.MiB/s",
			# exec's "exec/cmd.*"): matched as SQLite GLOBs
			names=$("$FSLAB" list -v "$wl" | sed -n 's/^  key metrics: //p' |
				tr ' ' '\n' | sed -n "s,^$(printf '%s' "$ph" | sed 's/[*.[]/\\&/g')/\(.*\),m.name glob '\1',p" |
				paste -sd'|' | sed 's/|/ or /g')
			n=$(sqlite3 "$db" "select count(*) from phases p join wlruns w on p.wlrun_id = w.id where w.workload = '$wl' and p.name glob '$ph' and p.status = 'ok'")
			[ "$n" -gt 0 ] || continue
			n=$(sqlite3 "$db" "select count(*) from metrics m join phases p on m.phase_id = p.id join wlruns w on p.wlrun_id = w.id where w.workload = '$wl' and p.name glob '$ph' and p.status = 'ok' and ($names)")
			[ "$n" -gt 0 ] || miss="$miss $wl:$ph/{$names}"
		done < <("$FSLAB" list -v "$wl" | sed -n 's/^  key metrics: //p' |
			tr ' ' '\n' | sed 's,/.*,,' | sort -u)
	done
	[ -z "$miss" ] && ok "every key metric is a stored name" ||
		not_ok "every key metric is a stored name" "missing:$miss"
}

# num_ge A B / num_lt A B: numeric comparisons of decimals (bash's
# test only knows integers).
num_ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
num_lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }

# trace_instances [DIR]: the tracefs instances a test may judge, one a
# line: every instance except an fslab-PID-N whose PID is alive.  The
# machine may be shared, and another fslab tracing meanwhile owns its
# instances; a test's own runs have exited by the time it looks, so what
# they left behind is still listed.
trace_instances() {
	local d=${1:-} i p
	[ -n "$d" ] || d=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	[ -d "$d/instances" ] || return 0
	for i in "$d"/instances/*; do
		[ -e "$i" ] || continue
		i=${i##*/}
		case "$i" in
		fslab-[0-9]*-*)
			p=${i#fslab-}
			[ -d "/proc/${p%%-*}" ] && continue ;;
		esac
		echo "$i"
	done
}

finish() {
	echo "1..$_ntest"
	[ "$_nfail" -eq 0 ]
}
