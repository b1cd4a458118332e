#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The fsck workload (and age=PROFILE targets): e2fsck -fn, xfs_repair -n and btrfs check --readonly
# run unmounted on ext4, xfs, btrfs and an aged:NAME image, report clean
# and store wall time, checker CPU, peak memory and exit status; a
# filesystem with damage is a loud, failed finding; dir: is refused.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd sqlite3
scratch_dir

for fs in ext4 xfs btrfs; do
	command -v mkfs.$fs >/dev/null || { ok "# SKIP $fs: no mkfs.$fs"; continue; }
	out=$("$FSLAB" run --target $fs:size=1G --workload fsck --scratch "$SCRATCH" \
		--db "$DB" --tag fsck-$fs 2>&1); rc=$?
	[ $rc -eq 0 ] && ok "$fs: fsck runs and reports clean" ||
		not_ok "$fs: fsck runs and reports clean" "$out"
	got=$(sqlite3 "$DB" "select status, value from $METRICS where tag = 'fsck-$fs' and phase = 'fsck' and name = 'exit_status'")
	[ "$got" = "ok|0.0" ] || [ "$got" = "ok|0" ] && ok "$fs: stored status ok, exit 0" ||
		not_ok "$fs: stored status ok, exit 0" "got '$got'"
	n=$(sqlite3 "$DB" "select count(*) from $METRICS where tag = 'fsck-$fs' and name in ('peak_rss_B', 'checker_user_s', 'checker_sys_s', 'wall_s')")
	[ "$n" = 4 ] && ok "$fs: wall, CPU and peak memory stored" ||
		not_ok "$fs: wall, CPU and peak memory stored" "got $n"
done

# An aged image as a target: every use starts from a fresh copy.
check "age and save an ext4 image" "$FSLAB" age --target ext4:size=1G \
	--scratch "$SCRATCH" --fullness 0.5 --data fallocate --save aged1 -q
for i in 1 2; do
	out=$("$FSLAB" run --target aged:aged1 --workload fsck --scratch "$SCRATCH" \
		--db "$DB" --tag aged-$i 2>&1); rc=$?
	[ $rc -eq 0 ] && ok "aged:aged1 use $i: fsck clean" ||
		not_ok "aged:aged1 use $i: fsck clean" "$out"
done
kind=$(sqlite3 "$DB" "select t.kind || ' ' || t.fstype from targets t join runs r on t.run_id = r.id where r.tag = 'aged-1'")
[ "$kind" = "aged ext4" ] && ok "aged target stored as kind aged, ext4" ||
	not_ok "aged target stored as kind aged, ext4" "got '$kind'"
check "golden unchanged by its uses" "$FSLAB" age --check-golden aged1 --scratch "$SCRATCH"

# Damage: clear the inode of the aged directory on a copy.
if command -v debugfs >/dev/null; then
	cp --sparse=always "$SCRATCH/golden/aged1.img" "$SCRATCH/golden/broken.img"
	sed 's/^checksum=.*/checksum=fnv1a64w:0000000000000000/' "$SCRATCH/golden/aged1.meta" \
		> "$SCRATCH/golden/broken.meta"
	for d in d0 d1 d2 d3; do debugfs -w -R "clri fslab/$d" "$SCRATCH/golden/broken.img" 2>&1 | grep -q "not found" || break; done
	# aged: checks the image against its .meta: record the damaged one's
	sum=$("$FSLAB" age --check-golden broken --scratch "$SCRATCH" 2>/dev/null | awk '/: image / { print $NF }')
	sed -i "s/^checksum=.*/checksum=$sum/" "$SCRATCH/golden/broken.meta"
	out=$("$FSLAB" run --target aged:broken --workload fsck --scratch "$SCRATCH" \
		--db "$DB" --tag broken 2>&1); rc=$?
	[ $rc -ne 0 ] && [[ $out == *"*** fsck found errors ***"* ]] &&
		ok "damage is a loud finding" || not_ok "damage is a loud finding" "$out"
	st=$(sqlite3 "$DB" "select status from $PHASES where tag = 'broken' and phase = 'fsck'")
	[ "$st" = failed ] && ok "damage: phase failed" || not_ok "damage: phase failed" "got '$st'"
fi

# age=PROFILE ages the target during setup.
out=$("$FSLAB" run --target ext4:size=1G,age=compile-farm --workload fsck \
	--scratch "$SCRATCH" --db "$DB" --tag setup-age 2>&1); rc=$?
[ $rc -eq 0 ] && [[ $out == *"aged '"*"with 'compile-farm'"* ]] &&
	ok "ext4:age=compile-farm ages during setup, fsck clean" ||
	not_ok "ext4:age=compile-farm ages during setup, fsck clean" "$out"
name=$(sqlite3 "$DB" "select t.name from targets t join runs r on t.run_id = r.id where r.tag = 'setup-age'")
[ "$name" = "ext4+age(compile-farm)" ] && ok "its default name says so" ||
	not_ok "its default name says so" "got '$name'"

mkdir -p "$SCRATCH/d"
out=$("$FSLAB" run --target dir:"$SCRATCH/d" --workload fsck --db "$DB" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *"fsck needs a filesystem fslab mounted"* ]] &&
	ok "dir: target refused with a reason" || not_ok "dir: target refused with a reason" "$out"
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
check_metric_names
finish
