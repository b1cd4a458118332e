#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Tab completion only reads the store: `fslab __complete runs` (what the
# bash completion runs on TAB) leaves an existing database byte-identical
# (no WAL switch, no migration of an older schema, nothing created
# beside it) and an empty file empty; `results --rm`, the one writing
# use of an existing store, still deletes.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd sqlite3
scratch_dir

install -d "$SCRATCH/d"
"$FSLAB" run --target "dir:$SCRATCH/d" --db "$DB" --tag done \
	--workload metadata:files=20 >/dev/null 2>&1 || not_ok "setup run"
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
install -d "$SCRATCH/s"
cp "$DB" "$SCRATCH/s/wal.db"
# A journal-mode-delete, version-3 copy: what completion must not touch,
# not even with SQLite's -shm/-wal files of a WAL reader.
cp "$DB" "$SCRATCH/s/old.db"
sqlite3 "$SCRATCH/s/old.db" 'PRAGMA journal_mode = DELETE;
	ALTER TABLE targets DROP COLUMN mkfs_cmd; PRAGMA user_version = 3' >/dev/null

for f in "$SCRATCH/s/wal.db" "$SCRATCH/s/old.db"; do
	cp "$f" "$SCRATCH/before"
	# A WAL file's readers share its -shm (and -wal): SQLite's own.
	ls -A "$SCRATCH/s" | grep -v -e '-shm$' -e '-wal$' >"$SCRATCH/ls.before"
	out=$("$FSLAB" __complete runs --db "$f" 2>/dev/null)
	rc=$?
	ls -A "$SCRATCH/s" | grep -v -e '-shm$' -e '-wal$' >"$SCRATCH/ls.after"
	[ $rc -eq 0 ] && grep -qx done <<<"$out" && grep -qx 1 <<<"$out" &&
		ok "completion lists the runs of ${f##*/}" ||
		not_ok "completion lists the runs of ${f##*/}" "exit $rc" "$out"
	cmp -s "$f" "$SCRATCH/before" &&
		ok "completion leaves ${f##*/} byte-identical" ||
		not_ok "completion leaves ${f##*/} byte-identical" \
			"$(cmp "$f" "$SCRATCH/before" 2>&1)"
	cmp -s "$SCRATCH/ls.before" "$SCRATCH/ls.after" &&
		ok "completion creates nothing beside ${f##*/}" ||
		not_ok "completion creates nothing beside ${f##*/}" \
			"$(diff "$SCRATCH/ls.before" "$SCRATCH/ls.after")"
done
[ ! -e "$SCRATCH/s/old.db-wal" ] && [ ! -e "$SCRATCH/s/old.db-shm" ] &&
	[ "$(sqlite3 "$SCRATCH/s/old.db" 'PRAGMA user_version')" = 3 ] &&
	[ "$(sqlite3 "$SCRATCH/s/old.db" 'PRAGMA journal_mode')" = delete ] &&
	ok "an older store stays unmigrated, in journal mode delete" ||
	not_ok "an older store stays unmigrated, in journal mode delete"

: >"$SCRATCH/empty.db"
out=$("$FSLAB" __complete runs --db "$SCRATCH/empty.db" 2>/dev/null)
rc=$?
[ $rc -eq 0 ] && [ -z "$out" ] && [ ! -s "$SCRATCH/empty.db" ] &&
	[ ! -e "$SCRATCH/empty.db-wal" ] && [ ! -e "$SCRATCH/empty.db-journal" ] &&
	ok "an empty file stays empty" ||
	not_ok "an empty file stays empty" "exit $rc, $(stat -c %s "$SCRATCH/empty.db") bytes" "$out"
out=$("$FSLAB" __complete runs --db "$SCRATCH/none.db" 2>/dev/null)
[ -z "$out" ] && [ ! -e "$SCRATCH/none.db" ] &&
	ok "a missing store offers nothing and is not created" ||
	not_ok "a missing store offers nothing and is not created" "$out"

check "results --rm deletes from an existing store" \
	"$FSLAB" results --db "$DB" --rm 1
[ "$(sqlite3 "$DB" 'select count(*) from runs')" = 0 ] &&
	ok "the run is gone" || not_ok "the run is gone"
check_exit "results --rm on a missing store creates none" 1 \
	"$FSLAB" results --db "$SCRATCH/none.db" --rm 1
[ ! -e "$SCRATCH/none.db" ] && ok "no database made by --rm" ||
	not_ok "no database made by --rm"
finish
