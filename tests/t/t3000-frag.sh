#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab frag on real loop-mounted ext4, xfs and btrfs with a tree of known
# fragmentation: every file's run count equals filefrag's, the table's
# totals equal a recount from stat, a file with more extents than one
# FIEMAP call returns maps the same at any batch size, batched opens through
# io_uring and plain openat give the same map, mounts are not
# crossed, and the survey lands in the store.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd filefrag
need_cmd python3
need_cmd sqlite3
scratch_dir

# Files a, b, c written interleaved in 4 KiB chunks with fsync after each,
# so the allocator hands them alternating blocks; "many" gets 150 one-block
# extents separated by holes (more than one FIEMAP batch of 32 returns).
make_tree() {
	local d=$1
	mkdir -p "$d/inter" "$d/sparse" "$d/small/x/y" "$d/empty"
	python3 - "$d" <<'PY' || return 1
import os, sys
d = sys.argv[1]
fds = [os.open(f"{d}/inter/{n}", os.O_WRONLY | os.O_CREAT, 0o644)
       for n in "abc"]
chunk = os.urandom(4096)
for i in range(60):
    for fd in fds:
        os.pwrite(fd, chunk, i * 4096)
        os.fsync(fd)
for fd in fds:
    os.close(fd)
fd = os.open(f"{d}/sparse/many", os.O_WRONLY | os.O_CREAT, 0o644)
for i in range(150):
    os.pwrite(fd, chunk, i * 8192)
    os.fsync(fd)
os.close(fd)
for i in range(40):
    with open(f"{d}/small/{'x/y/' if i % 3 else ''}s{i}", "wb") as f:
        f.write(os.urandom(i * 97))
# More files in one directory than one batch of opens (64).
os.mkdir(f"{d}/wide")
for i in range(150):
    with open(f"{d}/wide/w{i}", "wb") as f:
        f.write(os.urandom(i * 61))
PY
	truncate -s 10M "$d/sparse/holes" &&
	dd if=/dev/urandom of="$d/sparse/holes" bs=4k count=2 seek=100 conv=notrunc status=none &&
	dd if=/dev/urandom of="$d/sparse/holes" bs=4k count=3 seek=1000 conv=notrunc status=none &&
	dd if=/dev/urandom of="$d/sparse/holes" bs=4k count=1 seek=2000 conv=notrunc status=none &&
	truncate -s 1G "$d/sparse/allhole" &&
	: >"$d/empty/e1" && : >"$d/empty/e2" &&
	ln -s ../inter/a "$d/empty/link" &&
	sync
}

# "path runs" per file, sorted, from filefrag and from fslab --list.
filefrag_runs() {
	find "$1" -type f -exec filefrag {} + |
		sed -n 's/^\(.*\): \([0-9]*\) extents\{0,1\} found$/\1 \2/p' | sort
}
fslab_runs() {
	local d=$1
	shift
	"$FSLAB" frag --list "$@" "$d" | awk '{ print $1, $2 }' | sort
}

for fs in ext4 xfs btrfs; do
	need_cmd mkfs.$fs
	img=$SCRATCH/$fs.img
	mnt=$SCRATCH/$fs.mnt
	truncate -s 1G "$img"
	dev=$(losetup -f --show "$img") || { not_ok "$fs: losetup"; continue; }
	cleanup_add "losetup -d '$dev'"
	case $fs in
	ext4) mkfs.ext4 -q -F "$dev" ;;
	xfs) mkfs.xfs -q -f "$dev" ;;
	btrfs) mkfs.btrfs -q -f "$dev" >/dev/null ;;
	esac || { not_ok "$fs: mkfs"; continue; }
	mkdir -p "$mnt"
	mount "$dev" "$mnt" || { not_ok "$fs: mount"; continue; }
	cleanup_add "umount '$mnt'"
	if make_tree "$mnt/t"; then ok "$fs: tree built"; else not_ok "$fs: tree built"; fi
	t=$mnt/t

	want=$(filefrag_runs "$t")
	got=$(fslab_runs "$t")
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "$fs: every file's run count equals filefrag's"
	else
		not_ok "$fs: every file's run count equals filefrag's" \
			"$(diff <(echo "$want") <(echo "$got") | head -20)"
	fi
	for b in 1 7 1000; do
		got_b=$(fslab_runs "$t" --batch $b)
		[ "$got_b" = "$got" ] && ok "$fs: same runs with --batch $b" ||
			not_ok "$fs: same runs with --batch $b" \
				"$(diff <(echo "$got") <(echo "$got_b") | head)"
	done
	# Plain openat/close instead of batches through io_uring: same map.
	got_n=$(fslab_runs "$t" --no-io-uring)
	[ -n "$got_n" ] && [ "$got_n" = "$got" ] &&
		ok "$fs: same runs with --no-io-uring" ||
		not_ok "$fs: same runs with --no-io-uring" \
			"$(diff <(echo "$got") <(echo "$got_n") | head)"
	# The default really goes through the ring where the kernel allows it.
	want_ring=False
	[ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" = 0 ] &&
		want_ring=True
	ring=$("$FSLAB" frag --json --no-freesp "$t" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["walk"]["io_uring"])')
	ring_n=$("$FSLAB" frag --json --no-freesp --no-io-uring "$t" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["walk"]["io_uring"])')
	[ "$ring" = "$want_ring" ] && [ "$ring_n" = False ] &&
		ok "$fs: io_uring used by default ($ring), not with --no-io-uring" ||
		not_ok "$fs: io_uring used by default, not with --no-io-uring" \
			"default $ring (want $want_ring), --no-io-uring $ring_n"
	ext=$("$FSLAB" frag --list "$t/sparse/many" | awk '{ print $3 }')
	[ "${ext:-0}" -gt 100 ] && ok "$fs: 'many' has more than 100 extents ($ext)" ||
		not_ok "$fs: 'many' has more than 100 extents" "got '$ext'"
	nfrag=$(echo "$want" | awk '$2 > 1' | wc -l)
	[ "$nfrag" -ge 1 ] && ok "$fs: the tree has fragmented files ($nfrag)" ||
		not_ok "$fs: the tree has fragmented files" "$want"

	"$FSLAB" frag --json "$t" >"$SCRATCH/$fs.json" 2>"$SCRATCH/$fs.err"
	rc=$?
	[ $rc -eq 0 ] && ok "$fs: --json exits 0" ||
		not_ok "$fs: --json exits 0" "exit $rc" "$(cat "$SCRATCH/$fs.err")"
	nfiles=$(find "$t" -type f | wc -l)
	nbytes=$(find "$t" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
	n3=$(echo "$want" | awk '$2 > 2' | wc -l)
	if msg=$(python3 - "$SCRATCH/$fs.json" "$nfiles" "$nbytes" "$nfrag" "$n3" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
files, nbytes, nfrag, n3 = map(int, sys.argv[2:])
assert d["format_version"] == 1
assert d["files"] == files, (d["files"], files)
assert d["bytes"] == nbytes, (d["bytes"], nbytes)
assert sum(b["files"] for b in d["bins"]) == files
assert sum(b["bytes"] for b in d["bins"]) == nbytes
assert d["fragmented_files"] == nfrag, (d["fragmented_files"], nfrag)
assert sum(b["fragmented"] for b in d["bins"]) == nfrag
assert d["files_3plus"] == n3, (d["files_3plus"], n3)
assert sum(h["files"] for h in d["runs_histogram"]) == files
assert 0 <= d["layout"]["score"] <= 1
assert d["walk"]["special"] == 1, d["walk"]
assert d["worst"] and d["worst"][0]["runs"] >= d["worst"][-1]["runs"]
PY
	); then ok "$fs: JSON totals equal a recount from stat"
	else not_ok "$fs: JSON totals equal a recount from stat" "$msg"; fi

	"$FSLAB" frag "$t" >"$SCRATCH/$fs.txt" 2>&1
	grep -qx "All files scanned: $nfiles" "$SCRATCH/$fs.txt" &&
		grep -q "^Files fragmented: $nfrag (.*%) where $n3 have 3+ extents$" "$SCRATCH/$fs.txt" &&
		grep -q '^\* B size files - total: [0-9]* ([0-9.]*%)$' "$SCRATCH/$fs.txt" &&
		grep -qx '| Size range | File cnt | Fragmented | Fragmented % |' "$SCRATCH/$fs.txt" &&
		grep -q '^Total size of fragmented files: [0-9]*[KMGT]\{0,1\}B (~[0-9]*% of dir size)$' "$SCRATCH/$fs.txt" &&
		ok "$fs: text table in the mail's format" ||
		not_ok "$fs: text table in the mail's format" "$(cat "$SCRATCH/$fs.txt")"
	tb=$(awk -F' [|] ' '/^[|] \[/ { s += $2 } END { print s }' "$SCRATCH/$fs.txt")
	[ "$tb" = "$nfiles" ] && ok "$fs: table bins add up to the files" ||
		not_ok "$fs: table bins add up to the files" "got $tb, want $nfiles"

	# Free space: only for the root of the mount, from the fs's own tools.
	case $fs in ext4|xfs) want_fsp=True ;; *) want_fsp=False ;; esac
	got=$("$FSLAB" frag --json "$mnt" 2>&1 | python3 -c '
import json, sys
f = json.load(sys.stdin)["free_space"]
ok = not f["available"] or (f["free_bytes"] > 0 and f["free_extents"] > 0
     and sum(b["bytes"] for b in f["histogram"]) == f["free_bytes"]
     and f["group_frag_pct"]["groups"] >= 1
     and 0 <= f["group_frag_pct"]["p50"] <= f["group_frag_pct"]["max"] <= 100)
print(f["available"], ok)' 2>&1)
	[ "$got" = "$want_fsp True" ] && ok "$fs: free-space figures ($want_fsp)" ||
		not_ok "$fs: free-space figures ($want_fsp)" "$got"
	got=$("$FSLAB" frag --json "$t" | python3 -c 'import json,sys; print(json.load(sys.stdin)["free_space"]["available"])')
	[ "$got" = False ] && ok "$fs: no free-space figures below the root" ||
		not_ok "$fs: no free-space figures below the root" "$got"

	if [ $fs = ext4 ]; then
		# Another filesystem mounted inside: not crossed by default; with
		# --no-xdev its lack of FIEMAP is said once, not per file.
		mkdir "$t/tmpfs"
		mount -t tmpfs none "$t/tmpfs" && cleanup_add "umount '$t/tmpfs'"
		for i in 1 2 3; do echo x >"$t/tmpfs/f$i"; done
		n=$("$FSLAB" frag --json "$t" | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"])')
		[ "$n" = "$nfiles" ] && ok "ext4: --xdev by default" || not_ok "ext4: --xdev by default" "got $n"
		out=$("$FSLAB" frag --no-xdev "$t" 2>&1 >/dev/null)
		nm=$(printf '%s\n' "$out" | grep -c 'does not support FIEMAP')
		[ "$nm" -eq 1 ] && ok "ext4: no FIEMAP said once per filesystem" ||
			not_ok "ext4: no FIEMAP said once per filesystem" "$out"
		n=$("$FSLAB" frag --no-xdev --json "$t" 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["files"], d["walk"]["no_fiemap"])')
		[ "$n" = "$((nfiles + 3)) 3" ] && ok "ext4: --no-xdev counts the tmpfs files" ||
			not_ok "ext4: --no-xdev counts the tmpfs files" "got $n"
		out=$("$FSLAB" frag "$t/tmpfs" 2>/dev/null)
		[[ $out == *"Files fragmented: unknown (the filesystem does not support FIEMAP)"* &&
		   $out == *"Total size of fragmented files: unknown"* ]] &&
			ok "tmpfs: fragmentation unknown, not 0" ||
			not_ok "tmpfs: fragmentation unknown, not 0" "$out"
		out=$("$FSLAB" frag --no-xdev "$t" 2>/dev/null)
		[[ $out == *"(3 files without FIEMAP are counted as unfragmented)"* ]] &&
			ok "ext4 + tmpfs: the unmapped files are said" ||
			not_ok "ext4 + tmpfs: the unmapped files are said" "$out"
		umount "$t/tmpfs"

		"$FSLAB" frag --db "$DB" --tag t3000 "$t" >/dev/null 2>&1
		got=$(sqlite3 "$DB" "select r.status, w.workload, p.name, m.value from runs r join wlruns w on w.run_id = r.id join phases p on p.wlrun_id = w.id join metrics m on m.phase_id = p.id where r.tag = 't3000' and m.name = 'files_scanned'")
		[ "$got" = "complete|frag|survey|$nfiles.0" ] || [ "$got" = "complete|frag|survey|$nfiles" ] &&
			ok "ext4: --db stores run, workload frag, phase survey" ||
			not_ok "ext4: --db stores run, workload frag, phase survey" "got '$got'"
		kind=$(sqlite3 "$DB" "select t.kind || ' ' || t.fstype from targets t join runs r on t.run_id = r.id where r.tag = 't3000'")
		[ "$kind" = "dir ext4" ] && ok "ext4: stored target is dir: ext4" ||
			not_ok "ext4: stored target is dir: ext4" "got '$kind'"
		# show reprints the stored survey in the mail's table
		mail() { sed -n '/^\* B size files/,/^Total size of fragmented files/p' "$1"; }
		"$FSLAB" show --db "$DB" t3000 >"$SCRATCH/show.txt" 2>&1
		[ -n "$(mail "$SCRATCH/$fs.txt")" ] &&
			diff <(mail "$SCRATCH/$fs.txt") <(mail "$SCRATCH/show.txt") >/dev/null &&
			ok "ext4: show reprints the stored survey's table" ||
			not_ok "ext4: show reprints the stored survey's table" \
				"$(diff <(mail "$SCRATCH/$fs.txt") <(mail "$SCRATCH/show.txt") | head -20)"
		# compare on two surveys of different trees: by fragmentation
		"$FSLAB" frag --db "$DB" --tag t3000-small "$t/small" >/dev/null 2>&1
		"$FSLAB" compare --db "$DB" t3000 t3000-small >"$SCRATCH/cmp.txt" 2>&1
		fa=$(sqlite3 "$DB" "select printf('%.2f', value) from $METRICS where tag = 't3000' and name = 'fragmented_pct'")
		fb=$(sqlite3 "$DB" "select printf('%.2f', value) from $METRICS where tag = 't3000-small' and name = 'fragmented_pct'")
		d=$(awk -v a="$fa" -v b="$fb" 'BEGIN { printf "%+.2f", b - a }')
		grep -Eq "^fragmented % +$fa +$fb \\($d\\)" "$SCRATCH/cmp.txt" &&
			grep -Eq '^extents/file +[0-9.]+ +[0-9.]+ \([-+][0-9.]+%\)' "$SCRATCH/cmp.txt" &&
			grep -Eq '^layout score +[0-9.]+ +[0-9.]+' "$SCRATCH/cmp.txt" &&
			grep -Eq '^B\[0,100\) files +[0-9]+ +[0-9]+' "$SCRATCH/cmp.txt" &&
			grep -Eq '^survey +fragmented_pct' "$SCRATCH/cmp.txt" &&
			ok "ext4: compare reports the fragmentation difference ($fa% vs $fb%)" ||
			not_ok "ext4: compare reports the fragmentation difference" "want $fa $fb $d" "$(cat "$SCRATCH/cmp.txt")"
	fi

	umount "$mnt" && losetup -d "$dev" && ok "$fs: unmounted and detached" ||
		not_ok "$fs: unmounted and detached"
done

check_exit "nonexistent path exits 2" 2 "$FSLAB" frag "$SCRATCH/nonexistent"
check_exit "bad option exits 2" 2 "$FSLAB" frag --bogus "$SCRATCH"
check_exit "bad --bins exits 2" 2 "$FSLAB" frag --bins 4k,1k "$SCRATCH"
check_exit "missing PATH exits 2" 2 "$FSLAB" frag
out=$("$FSLAB" frag --jobs 2>&1)
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && ok "missing value: one line" ||
	not_ok "missing value: one line" "$out"
check "frag --help" "$FSLAB" frag --help
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
check_metric_names
finish
