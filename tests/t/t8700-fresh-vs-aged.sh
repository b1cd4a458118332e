#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run --fresh-vs-aged: every loop target is also built aged to a profile,
# the workloads run on both, and the aged/fresh ratio is reported.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
need_cmd mkfs.ext4
scratch_dir

out=$SCRATCH/fva.out
"$FSLAB" run --target ext4:size=1G --fresh-vs-aged=compile-farm \
	--workload metadata:files=500,size=4k --db "$DB" --scratch "$SCRATCH" \
	--tag fva >"$out" 2>"$SCRATCH/fva.err"
rc=$?
[ $rc -eq 0 ] && ok "fresh-vs-aged run exits 0" || not_ok "fresh-vs-aged run exits 0" "exit $rc" "$(tail -10 "$SCRATCH/fva.err")"
names=$(sqlite3 "$DB" "select group_concat(name, ',') from (select name from targets order by id)")
[ "$names" = "ext4,ext4+aged" ] && ok "fresh and aged targets stored" || not_ok "fresh and aged targets stored" "$names"
n=$(sqlite3 "$DB" "select count(*) from wlruns where status = 'complete'")
[ "$n" -eq 2 ] && ok "the workload ran on both" || not_ok "the workload ran on both" "$n complete"
grep -Eq '^fresh-vs-aged: ext4 metadata create/files/s: aged/fresh = [0-9]+\.[0-9]{3}$' "$out" &&
	ok "the aged/fresh ratio is reported" || not_ok "the aged/fresh ratio is reported" "$(tail -5 "$out")"
nothing_left_under "$SCRATCH" && ok "nothing left mounted" || not_ok "nothing left mounted"
check_exit "dir: targets cannot be aged" 2 "$FSLAB" run --fresh-vs-aged --target "dir:$SCRATCH"
finish
