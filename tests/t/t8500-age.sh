#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab age on real loop-mounted ext4 (real data) and xfs (fallocate):
# the aged filesystem reaches the target fullness within 3 points, its
# size histogram passes the convergence test against the profile, its
# layout score is below that of the same final file set written once
# into a fresh filesystem, replaying the recorded log on a second
# filesystem gives the same file set, the same seed gives the same log,
# and a saved golden image restores to its checksum.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd python3
need_cmd sqlite3
need_cmd mkfs.xfs
scratch_dir
SRC=$(cd "$(dirname "$0")/../.." && pwd)

# mkloop NAME FSTYPE: a 1 GiB sparse image, formatted and mounted on
# $SCRATCH/NAME; prints the mount point.
mkloop() {
	local img=$SCRATCH/$1.img mnt=$SCRATCH/$1 dev
	truncate -s 1G "$img" && mkdir -p "$mnt" || return 1
	dev=$(losetup -f --show "$img") || return 1
	echo "$dev" >> "$SCRATCH/devs"
	cleanup_add "losetup -d $dev 2>/dev/null"
	case $2 in
	ext4) mkfs.ext4 -q -F "$dev" ;;
	xfs) mkfs.xfs -q -f "$dev" ;;
	esac >/dev/null 2>&1 || return 1
	mount "$dev" "$mnt" || return 1
	cleanup_add "umount '$mnt' 2>/dev/null"
	echo "$mnt"
}

survey() { # TAG LABEL METRIC: a metric of the survey phase labelled LABEL
	metric "$1" "survey@$2" "$3"
}

for fs in ext4 xfs; do
	if [ $fs = ext4 ]; then data=write; else data=fallocate; fi
	a=$(mkloop $fs-a $fs) && b=$(mkloop $fs-b $fs) && c=$(mkloop $fs-c $fs) ||
		{ not_ok "$fs: three loop filesystems"; continue; }
	ok "$fs: three loop filesystems"

	check "$fs: age to 0.7 ($data), recording the log" \
		"$FSLAB" age "$a" --fullness 0.7 --data $data --seed 5 \
		--record "$SCRATCH/$fs.log" --db "$DB" --tag age-$fs -q
	full=$(python3 -c 'import os,sys; s=os.statvfs(sys.argv[1]); print((s.f_blocks-s.f_bfree)/s.f_blocks)' "$a")
	python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - 0.7) > 0.03)' "$full" &&
		ok "$fs: fullness $full within 0.03 of 0.7" ||
		not_ok "$fs: fullness $full within 0.03 of 0.7"

	# The size histogram from the tree itself, against the profile
	# file, with the ager's distance and its default tolerance.
	(cd "$a" && find . -type f -printf '%s\n') > "$SCRATCH/$fs.sizes"
	d=$(python3 - "$SRC/examples/age/desktop.profile" "$SCRATCH/$fs.sizes" <<'PY'
import sys
mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
edges, w, sec = [], [], None
for line in open(sys.argv[1]):
    line = line.split("#")[0].split()
    if not line:
        continue
    if line[0].startswith("["):
        sec = line[0]
        continue
    if sec == "[size]":
        v = line[0].lower()
        edges.append(int(v[:-1]) * mult[v[-1]] if v[-1] in mult else int(v))
        w.append(float(line[1]))
p = [x / sum(w) for x in w]
cnt = [0] * len(edges)
for s in open(sys.argv[2]):
    s = int(s)
    i = next((i for i, e in enumerate(edges) if s < e or (s == 0 and e == 0)),
             len(edges) - 1)
    cnt[i] += 1
n = sum(cnt)
print(sum((c / n - q) ** 2 / (c / n + q) for c, q in zip(cnt, p) if c / n + q) / 2)
PY
)
	python3 -c 'import sys; sys.exit(not float(sys.argv[1]) <= 0.01)' "$d" &&
		ok "$fs: size distribution converged (distance $d)" ||
		not_ok "$fs: size distribution converged (distance $d)"
	st=$(sqlite3 "$DB" "select run_status || ' ' || group_concat(phase, ',') from $PHASES where tag = 'age-$fs' and workload = 'age' group by run")
	[[ $st == "complete fill,age"*",survey" ]] &&
		ok "$fs: stored as wlrun age: fill, age, survey" ||
		not_ok "$fs: stored as wlrun age: fill, age, survey" "got '$st'"

	check "$fs: replay the log on a second filesystem" \
		"$FSLAB" age "$b" --replay "$SCRATCH/$fs.log" --data fallocate -q
	(cd "$a" && find . -type f -printf '%P %s\n' | sort) > "$SCRATCH/$fs.a"
	(cd "$b" && find . -type f -printf '%P %s\n' | sort) > "$SCRATCH/$fs.b"
	(cd "$a" && find . -type d -printf '%P\n' | sort) > "$SCRATCH/$fs.da"
	(cd "$b" && find . -type d -printf '%P\n' | sort) > "$SCRATCH/$fs.db"
	cmp -s "$SCRATCH/$fs.a" "$SCRATCH/$fs.b" && cmp -s "$SCRATCH/$fs.da" "$SCRATCH/$fs.db" &&
		[ -s "$SCRATCH/$fs.a" ] &&
		ok "$fs: replay gives the same files and sizes ($(wc -l < "$SCRATCH/$fs.a"))" ||
		not_ok "$fs: replay gives the same files and sizes"

	check "$fs: the final set written once into a fresh filesystem" \
		"$FSLAB" age "$c" --replay "$SCRATCH/$fs.log" --final-set \
		--data $data --db "$DB" --tag fresh-$fs -q
	(cd "$c" && find . -type f -printf '%P %s\n' | sort) > "$SCRATCH/$fs.c"
	cmp -s "$SCRATCH/$fs.a" "$SCRATCH/$fs.c" &&
		ok "$fs: fresh copy has the same file set" ||
		not_ok "$fs: fresh copy has the same file set"
	aged=$(survey age-$fs final layout_score)
	fresh=$(survey fresh-$fs final layout_score)
	python3 -c 'import sys; sys.exit(not float(sys.argv[1]) < float(sys.argv[2]))' "$aged" "$fresh" &&
		ok "$fs: aged layout score $aged < fresh $fresh" ||
		not_ok "$fs: aged layout score $aged < fresh $fresh"
	for m in "$c" "$b" "$a"; do umount "$m"; done
	for dev in $(cat "$SCRATCH/devs"); do losetup -d "$dev"; done
	rm -f "$SCRATCH/devs"
done

# Same seed, same log; another seed, another log (on a throwaway target).
check "record twice with one seed" \
	"$FSLAB" age --target xfs:size=1G --scratch "$SCRATCH" --fullness 0.5 \
	--data fallocate --seed 9 --max-ops 20000 --record "$SCRATCH/s1.log" -q
"$FSLAB" age --target xfs:size=1G --scratch "$SCRATCH" --fullness 0.5 \
	--data fallocate --seed 9 --max-ops 20000 --record "$SCRATCH/s2.log" -q >/dev/null 2>&1
"$FSLAB" age --target xfs:size=1G --scratch "$SCRATCH" --fullness 0.5 \
	--data fallocate --seed 10 --max-ops 20000 --record "$SCRATCH/s3.log" -q >/dev/null 2>&1
cmp -s "$SCRATCH/s1.log" "$SCRATCH/s2.log" && ok "same seed, identical log" ||
	not_ok "same seed, identical log"
! cmp -s "$SCRATCH/s1.log" "$SCRATCH/s3.log" && ok "another seed, another log" ||
	not_ok "another seed, another log"

# An op mix with --survey-every; the golden copy and its checksum.
check "op mix with surveys, saved as golden" \
	"$FSLAB" age --target ext4:size=1G --scratch "$SCRATCH" --fullness 0.6 \
	--data fallocate --ops create=4,delete=3,append=2,truncate=1,overwrite=1,rename=1 \
	--survey-every 10000 --save g1 --db "$DB" --tag mix -q
n=$(sqlite3 "$DB" "select count(*) from $PHASES where tag = 'mix' and phase = 'survey'")
[ "${n:-0}" -ge 2 ] && ok "surveys stored as phases ($n)" || not_ok "surveys stored as phases" "got '$n'"
[ -f "$SCRATCH/golden/g1.img" ] && grep -q '^fstype=ext4$' "$SCRATCH/golden/g1.meta" &&
	grep -q '^checksum=fnv1a64w:' "$SCRATCH/golden/g1.meta" &&
	ok "golden image and meta" || not_ok "golden image and meta"
check "golden restores to its checksum" "$FSLAB" age --check-golden g1 --scratch "$SCRATCH"
out=$("$FSLAB" age --check-golden nosuch --scratch "$SCRATCH" 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"no aged image 'nosuch'"* ]] &&
	ok "unknown golden refused" || not_ok "unknown golden refused" "$out"
# A hand-edited .meta with a stray key is refused with its file and line,
# before any image is copied.
{ cat "$SCRATCH/golden/g1.meta"; echo "colour=blue"; } >"$SCRATCH/golden/junk.meta"
cp --sparse=always "$SCRATCH/golden/g1.img" "$SCRATCH/golden/junk.img"
n=$(wc -l <"$SCRATCH/golden/junk.meta")
out=$("$FSLAB" age --check-golden junk --scratch "$SCRATCH" 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"junk.meta:$n: unknown key 'colour'"* ]] &&
	ok "junk in .meta refused with file:line" ||
	not_ok "junk in .meta refused with file:line" "exit $rc" "$out"
out=$("$FSLAB" run --target aged:junk --workload metadata:files=10 \
	--scratch "$SCRATCH" --db "$SCRATCH/junk.db" 2>&1); rc=$?
[ $rc -ne 0 ] && [[ $out == *"junk.meta:$n: unknown key"* ]] &&
	ok "run on an aged target with a bad .meta fails plainly" ||
	not_ok "run on an aged target with a bad .meta fails plainly" "exit $rc" "$out"
rm -f "$SCRATCH/golden/junk.meta" "$SCRATCH/golden/junk.img"

# --with runs a workload on the aged filesystem as part of the age run:
# metadata's default cold stat unmounts the target, which the aging must
# not hold busy.
out=$("$FSLAB" age --target ext4:size=256M --scratch "$SCRATCH" --fullness 0.1 \
	--with metadata:files=50 --db "$DB" --tag age-with -q 2>&1); rc=$?
n=$(sqlite3 "$DB" "select count(*) from $PHASES where tag = 'age-with' and
	status = 'ok' and phase in ('metadata/create', 'metadata/stat', 'fill')")
[ $rc -eq 0 ] && [ "$n" = 3 ] &&
	ok "age --with metadata (cold stat) runs and stores its phases" ||
	not_ok "age --with metadata (cold stat) runs and stores its phases" "exit $rc, $n phases" "$out"
check_exit "PATH and --target together exit 2" 2 "$FSLAB" age "$SCRATCH" --target ext4
check_exit "bad --fullness exits 2" 2 "$FSLAB" age "$SCRATCH" --fullness 1.5
check_exit "bad profile exits 2" 2 "$FSLAB" age "$SCRATCH" --profile "$SCRATCH/nosuch"
check "age --help" "$FSLAB" age --help
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
check_metric_names
finish
