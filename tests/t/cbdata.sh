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
