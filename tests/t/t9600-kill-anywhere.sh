#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Kill anywhere: SIGKILL a run at random moments across setup, phases
# and teardown.  After each, `fslab cleanup` must leave no loop device,
# mount, tracefs instance or image behind, the results database must
# pass PRAGMA integrity_check, and the run must be listed as incomplete
# with the phases it finished.  The delays are uniform over one measured
# run and drawn from a printed seed (fixed under CI=true):
# FSLAB_KILL_SEED=N reproduces them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd mkfs.ext4
need_cmd sqlite3
have_cbdata || _need "needs the compilebench data sets ($CBDATA)"
scratch_dir
make_small_cbdata "$SCRATCH/cbdata"

KILLS=${FSLAB_KILLS:-20}
# Under CI the seed is fixed, so a failure there replays the same
# delays; by hand every run explores new ones.
if [ -n "${FSLAB_KILL_SEED:-}" ]; then
	seed=$FSLAB_KILL_SEED
elif [ "${CI:-}" = true ]; then
	seed=9600
else
	seed=$(( $(date +%s) % 100000 ))
fi
echo "# seed $seed (FSLAB_KILL_SEED=$seed reproduces the delays)"
# An array, not a function: $! must be fslab itself, not a subshell.
run=("$FSLAB" run --target ext4:size=1G --db "$DB" --scratch "$SCRATCH"
	--workload "compilebench:initial-dirs=2,runs=6,sources=$SCRATCH/cbdata")
instances() {
	trace_instances | grep '^fslab-'
}
before_instances=$(instances)

# One undisturbed run gives the window to kill in.
t0=$(date +%s%N)
check "an undisturbed run" "${run[@]}" --tag measure
dur_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "# one run takes $dur_ms ms"
mapfile -t delays < <(awk -v s="$seed" -v n="$KILLS" -v d="$dur_ms" \
	'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.3f\n", rand() * d / 1000 }')

bad_cleanup=() bad_left=() bad_db=() bad_listed=() bad_show=()
declare -A stages
for ((i = 0; i < KILLS; i++)); do
	tag=kill$i
	"${run[@]}" --tag $tag >"$SCRATCH/$tag.out" 2>"$SCRATCH/$tag.err" &
	pid=$!
	sleep "${delays[$i]}"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	# Where did it die?  Judged from what it had stored.
	id=$(sqlite3 "$DB" "select id from runs where tag = '$tag'" 2>/dev/null)
	if [ $rc -ne 137 ]; then
		stage=after-exit
	elif [ -z "$id" ]; then
		stage=startup
	elif [ "$(sqlite3 "$DB" "select count(*) from targets where run_id = $id")" = 0 ]; then
		stage=setup
	elif [ "$(sqlite3 "$DB" "select count(*) from wlruns where run_id = $id and status = 'running'")" != 0 ]; then
		stage=phases
	elif [ "$(sqlite3 "$DB" "select status from runs where id = $id")" = complete ]; then
		# Killed after the run was committed as complete (while printing
		# the summary or exiting): it is complete, not interrupted.
		stage=after-finish
	else
		stage=teardown
	fi
	stages[$stage]=$(( ${stages[$stage]:-0} + 1 ))
	echo "# kill $i after ${delays[$i]} s: $stage (exit $rc)"

	out=$("$FSLAB" cleanup 2>&1) || bad_cleanup+=("$i ($stage): $out")
	left=$(find "$SCRATCH" -maxdepth 1 \( -name '*.img' -o -name '*.mnt' \))
	inst=$(instances)
	if ! nothing_left_under "$SCRATCH" || [ -n "$left" ] ||
		[ "$inst" != "$before_instances" ] ||
		[ -n "$(ls -A "$FSLAB_STATE_DIR" 2>/dev/null)" ]; then
		bad_left+=("$i ($stage): $(grep "$SCRATCH" /proc/mounts) $left $inst $(ls -A "$FSLAB_STATE_DIR")")
		_release_scratch "$SCRATCH"
		rm -rf "$SCRATCH"/*.img "$SCRATCH"/*.mnt
	fi
	ic=$(sqlite3 "$DB" "PRAGMA integrity_check" 2>&1)
	[ "$ic" = ok ] || bad_db+=("$i ($stage): $ic")
	[ $rc -eq 137 ] && [ -n "$id" ] && [ "$stage" != after-finish ] || continue
	line=$("$FSLAB" results --db "$DB" 2>&1 | awk -v id="$id" '$1 == id')
	[[ $line == *incomplete* ]] || bad_listed+=("$i ($stage): '$line'")
	# show must say incomplete and list every phase stored as finished.
	shown=$("$FSLAB" show --db "$DB" "$id" 2>&1)
	[[ $shown == *"status incomplete"* ]] ||
		bad_show+=("$i ($stage): status not shown: $(head -1 <<<"$shown")")
	csv=$("$FSLAB" show --db "$DB" "$id" --format csv 2>&1)
	while read -r ph; do
		[ -n "$ph" ] || continue
		grep -q -- ",$ph," <<<"$csv" ||
			{ bad_show+=("$i ($stage): phase '$ph' missing"); break; }
	done < <(sqlite3 "$DB" "select distinct phase from $PHASES where run = $id and status = 'ok'")
done
summary=
for s in startup setup phases teardown after-finish after-exit; do
	summary+="$s ${stages[$s]:-0}, "
done
echo "# kills by stage: ${summary%, }"

[ ${#bad_cleanup[@]} -eq 0 ] && ok "cleanup exits 0 after each of $KILLS kills" ||
	not_ok "cleanup exits 0 after each of $KILLS kills" "${bad_cleanup[@]}"
[ ${#bad_left[@]} -eq 0 ] && ok "nothing left after cleanup (mounts, loops, images, tracefs, journals)" ||
	not_ok "nothing left after cleanup (mounts, loops, images, tracefs, journals)" "${bad_left[@]}"
[ ${#bad_db[@]} -eq 0 ] && ok "database passes integrity_check after each kill" ||
	not_ok "database passes integrity_check after each kill" "${bad_db[@]}"
[ ${#bad_listed[@]} -eq 0 ] && ok "killed runs listed as incomplete" ||
	not_ok "killed runs listed as incomplete" "${bad_listed[@]}"
[ ${#bad_show[@]} -eq 0 ] && ok "show names the phases each killed run finished" ||
	not_ok "show names the phases each killed run finished" "${bad_show[@]}"
[ $(( ${stages[setup]:-0} + ${stages[phases]:-0} + ${stages[teardown]:-0} )) -ge $((KILLS / 2)) ] &&
	ok "most kills landed inside the run" || not_ok "most kills landed inside the run" "$summary"
check "a run after all that" "${run[@]}" --tag after
finish
