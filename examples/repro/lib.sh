# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - shared by examples/repro/*/run: options, a private store, and
# the side-by-side table built from `fslab compare --format json`.
#
#   repro_init "$@"   SMALL=1 or --small (seconds, for tests/t/t7700),
#                     --db PATH (keep the store; default a temporary one),
#                     --scratch DIR; FSLAB names the binary (default fslab)
#   fslab_run ARGS    fslab run with the store and scratch, output to a log
#   repro_table TAG EXPECT ROW...
#                     compare TAG as JSON and print the table (table.py
#                     says what EXPECT and a ROW are)
#   repro_table_pair TAG_A TAG_B EXPECT ROW...
#                     the same for two tags (B = TAG_B against TAG_A)
#                     that differ in workload options; a ROW may also be
#                     per:PHASE:METRIC:FILES (a stored metric per file,
#                     whether or not it moved)

set -u
FSLAB=${FSLAB:-fslab}
SMALL=${SMALL:-0}
REPRO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

repro_init() {
	REPRO_DB=
	REPRO_SCRATCH=
	while [ $# -gt 0 ]; do
		case $1 in
		--small) SMALL=1 ;;
		--db) REPRO_DB=$2; shift ;;
		--scratch) REPRO_SCRATCH=$2; shift ;;
		*) echo "usage: run [--small] [--db PATH] [--scratch DIR]" >&2
		   exit 2 ;;
		esac
		shift
	done
	REPRO_TMP=$(mktemp -d /var/tmp/fslab-repro.XXXXXX)
	# --one-file-system: should fslab die with an image still mounted
	# there, its contents are not ours to delete.
	trap 'rm -rf --one-file-system "$REPRO_TMP"' EXIT
	[ -n "$REPRO_DB" ] || REPRO_DB=$REPRO_TMP/results.db
	[ -n "$REPRO_SCRATCH" ] || REPRO_SCRATCH=$REPRO_TMP/scratch
	mkdir -p "$REPRO_SCRATCH"
}

# A failed run is reported with its log's tail, never hidden behind a
# table of whatever phases it finished.
fslab_run() {
	local log=$REPRO_TMP/run.log
	if ! "$FSLAB" run --db "$REPRO_DB" --scratch "$REPRO_SCRATCH" "$@" \
		>"$log" 2>&1; then
		echo "repro: fslab run failed:" >&2
		tail -n 20 "$log" >&2
		return 1
	fi
}

# repro_table TAG EXPECT ROW...: EXPECT is the verdict the publication
# predicts for the first ROW; the other rows are printed as context.
repro_table() {
	local tag=$1 expect=$2 json=$REPRO_TMP/$1.json
	shift 2
	"$FSLAB" compare "$tag" --db "$REPRO_DB" --explain --format json \
		>"$json" || return 1
	python3 "$REPRO_DIR/table.py" "$json" "$expect" "$@"
}

# repro_table_pair TAG_A TAG_B EXPECT ROW...: the configurations
# are two tags of the same target run with different workload options
# (what the reproduction varies), hence --allow-option-mismatch; the
# per: rows read every metric of the phases from a second compare.
repro_table_pair() {
	local a=$1 b=$2 expect=$3 json=$REPRO_TMP/$1-$2.json
	shift 3
	"$FSLAB" compare "$a" "$b" --db "$REPRO_DB" --allow-option-mismatch \
		--explain --format json >"$json" || return 1
	"$FSLAB" compare "$a" "$b" --db "$REPRO_DB" --allow-option-mismatch \
		--all --format json >"$json.all" || return 1
	python3 "$REPRO_DIR/table.py" "$json,$json.all" "$expect" "$@"
}
