# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for tests that need compilebench data sets.
#
# make_small_cbdata DIR: write a consistent ~4 MB subset of compilebench's
# four data sets (kernel/ mm/ lib/ ipc/ init/ block/ only) into DIR, so a
# test exercises every op quickly.  The shared sets live beside the repo.
CBDATA=${FSLAB_CB_DATA:-$TOP/../shared/compilebench-data}

have_cbdata() {
	[ -r "$CBDATA/dataset-unpatched" ]
}

# need_small_cbdata: skip the file without the data sets, else make the
# small subset in $SCRATCH/cbdata (after scratch_dir).
need_small_cbdata() {
	have_cbdata || _need "compilebench data sets at $CBDATA"
	make_small_cbdata "$SCRATCH/cbdata"
}

# cb_two_target_run TAG DESC: the run that compare and report are tested
# on: small compilebench on two 1G ext4 targets (the second mounted
# noatime), three repetitions each, tagged TAG, output in
# $SCRATCH/run.out and run.err; one test named DESC that it exits 0.
cb_two_target_run() {
	local rc
	"$FSLAB" run -t ext4:size=1G -t 'ext4:size=1G,mount=noatime,name=noatime' \
		-w "compilebench:initial-dirs=2,runs=6,sources=$SCRATCH/cbdata" \
		--repeat 3 --tag "$1" --db "$DB" --scratch "$SCRATCH" \
		>"$SCRATCH/run.out" 2>"$SCRATCH/run.err"
	rc=$?
	if [ $rc -eq 0 ]; then ok "$2"; else
		not_ok "$2" "exit $rc" "$(tail -20 "$SCRATCH/run.err")"; fi
}

# traced_tree_run: skip the file without the data sets, else unpack the
# kernel/ mm/ lib/ fs/ net/ part of the unpatched set with tree on a 2G
# ext4 under --trace, read cold in readdir and then in inode order
# (model in $SCRATCH/tree.model, output in $SCRATCH/out and err); one
# test that it exits 0.
traced_tree_run() {
	local rc
	have_cbdata || _need "compilebench data sets at $CBDATA"
	awk '$1 ~ /^(kernel|mm|lib|fs|net)\//' "$CBDATA/dataset-unpatched" >"$SCRATCH/tree.model"
	"$FSLAB" run --target ext4:size=2G --scratch "$SCRATCH" --db "$DB" --trace \
		--workload "tree:model=$SCRATCH/tree.model,order=readdir+inode" \
		>"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	[ $rc -eq 0 ] && ok "traced tree run exits 0" || not_ok "traced tree run exits 0" "exit $rc" "$(tail -10 "$SCRATCH/err")"
}

make_small_cbdata() {
	local out=$1 f
	mkdir -p "$out"
	for f in dataset-unpatched dataset-patched dataset-unpatched-compiled \
		dataset-patched-compiled; do
		awk '$1 ~ /^(kernel|mm|lib|ipc|init|block)\//' "$CBDATA/$f" >"$out/$f"
	done
}

# check_cb_summary FILE: the eleven compilebench summary lines, in order,
# in compilebench's exact format.  Prints the first mismatch.
check_cb_summary() {
	check_cb_block "$1" 'run complete:'
}

# check_cb_block FILE HEADING: the same after the line HEADING ("Average
# ext4 results" as printed by show and compare).
check_cb_block() {
	local file=$1 head=$2 tags i line num='[0-9]+\.[0-9]{2}'
	tags=("intial create" create patch compile clean "read tree" \
		"read compiled tree" "delete tree" "delete compiled tree" \
		"stat tree" "stat compiled tree")
	local units=(MB/s MB/s MB/s MB/s MB/s MB/s MB/s seconds seconds \
		seconds seconds)
	mapfile -t lines < <(awk -v h="$head" '$0 == h { p = 1 } p' "$file")
	# compilebench's own report has a rule under its heading
	local first=1
	[ "$head" = 'run complete:' ] && first=2
	if [ "${#lines[@]}" -lt $((first + 11)) ]; then
		echo "summary too short: ${#lines[@]} lines"
		return 1
	fi
	[ "${lines[0]}" = "$head" ] || { echo "line 1: ${lines[0]}"; return 1; }
	if [ $first = 2 ]; then
		[ "${lines[1]}" = "$(printf '=%.0s' $(seq 74))" ] || { echo "line 2: ${lines[1]}"; return 1; }
		first=2
	fi
	for i in "${!tags[@]}"; do
		line=${lines[$((i + first))]}
		if [[ $line == "no runs for ${tags[$i]}" ]]; then
			continue
		fi
		if ! [[ $line =~ ^"${tags[$i]}"\ total\ runs\ [0-9]+\ avg\ $num\ ${units[$i]}\ \(user\ ${num}s\ sys\ ${num}s\)$ ]]; then
			echo "line $((i + first + 1)): '$line'"
			return 1
		fi
	done
	return 0
}

# Sum of "total runs N" over the ten random-op lines (not intial create).
cb_total_runs() {
	sed -n '/^run complete:$/,+12p' "$1" | grep -v '^intial create' |
		sed -n 's/.* total runs \([0-9]*\) .*/\1/p' | awk '{s += $1} END {print s + 0}'
}
