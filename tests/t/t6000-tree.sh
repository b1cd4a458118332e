#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tree workload on loop ext4 and xfs with a few thousand files from
# the compilebench data: every phase runs, the unpacked tree matches its
# model (verify phase), the reads read exactly the model's bytes, delete
# leaves nothing; a tarball made with tar czf works; model capture of a
# tree gives back its model.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd sqlite3
need_cmd tar
scratch_dir
have_cbdata || _need "compilebench data sets at $CBDATA"
MODEL=$SCRATCH/model
awk '$1 ~ /^(kernel|mm|lib|fs|net)\//' "$CBDATA/dataset-unpatched" >"$MODEL"
nfiles=$(wc -l <"$MODEL")
nbytes=$(awk '{ s += $2 } END { print s }' "$MODEL")

q() { sqlite3 "$DB" "$1"; }
# phase_q TAG SQL-WHERE COLUMN: values of a phases column for a run
phase_q() {
	q "select $3 from phases p join wlruns w on p.wlrun_id = w.id
	   join runs r on w.run_id = r.id where r.tag = '$1' and $2
	   order by p.seq"
}

for fs in ext4 xfs; do
	need_cmd mkfs.$fs
	tag=t6000-$fs
	"$FSLAB" run --target "$fs:size=1G" \
		--workload "tree:model=$MODEL,order=readdir+inode+disk,threads=2" \
		--db "$DB" --scratch "$SCRATCH" --tag "$tag" \
		>"$SCRATCH/$fs.out" 2>"$SCRATCH/$fs.err"
	rc=$?
	[ $rc -eq 0 ] && ok "$fs: run exits 0" ||
		not_ok "$fs: run exits 0" "exit $rc" "$(tail -20 "$SCRATCH/$fs.err")"
	names=$(phase_q "$tag" "p.status = 'ok'" "p.name || ':' || coalesce(p.label, '')" | tr '\n' ' ')
	want="unpack:model sync: verify: cold-read-readdir:readdir hot-read-readdir:readdir stat-readdir:readdir cold-read-inode:inode hot-read-inode:inode stat-inode:inode cold-read-disk:disk hot-read-disk:disk stat-disk:disk delete:readdir "
	[ "$names" = "$want" ] && ok "$fs: every phase ran, one phase name per order, sync its own step" ||
		not_ok "$fs: every phase ran, one phase name per order, sync its own step" "got  $names" "want $want"
	[ "$(metric "$tag" verify mismatches)" = 0.0 ] &&
		ok "$fs: unpacked tree matches the model" ||
		not_ok "$fs: unpacked tree matches the model" "$(grep warning "$SCRATCH/$fs.err" | head)"
	up=$(phase_q "$tag" "p.name = 'unpack'" "p.files || ' ' || p.bytes")
	[ "$up" = "$nfiles $nbytes" ] && ok "$fs: unpack wrote the model" ||
		not_ok "$fs: unpack wrote the model" "got $up, want $nfiles $nbytes"
	reads=$(phase_q "$tag" "p.name like '%-read-%'" "p.files || ' ' || p.bytes" | sort -u)
	[ "$reads" = "$nfiles $nbytes" ] && ok "$fs: every read phase read the model's bytes" ||
		not_ok "$fs: every read phase read the model's bytes" "got $reads, want $nfiles $nbytes"
	[ "$(metric "$tag" delete left_entries)" = 0.0 ] &&
		ok "$fs: delete leaves an empty directory" ||
		not_ok "$fs: delete leaves an empty directory"
	n=$( (metric "$tag" cold-read-readdir rd_ios_per_file
	      metric "$tag" cold-read-inode rd_ios_per_file
	      metric "$tag" cold-read-disk rd_ios_per_file) | wc -l)
	[ "$n" -eq 3 ] && ok "$fs: cold reads report device reads per file" ||
		not_ok "$fs: cold reads report device reads per file" "got $n"
	grep -q '^    cold traversal (inode): .* megabytes/second over [0-9]* files, [0-9]* files/second' "$SCRATCH/$fs.out" &&
	grep -Eq '^    unpacking tree: +real +([0-9]+:[0-9]{2}\.[0-9]|<0:00\.1)$' "$SCRATCH/$fs.out" &&
	grep -q 'MiB written' "$SCRATCH/$fs.out" && grep -q 'atime relatime' "$SCRATCH/$fs.out" &&
		ok "$fs: classic table in the report" ||
		not_ok "$fs: classic table in the report" "$(cat "$SCRATCH/$fs.out")"
	# real, user and sys per step, as time(1) printed them in the mail
	t='([0-9]+:[0-9]{2}\.[0-9]|<0:00\.1)'
	steps=0
	for step in 'unpacking tree' 'sync after unpack' 'cold traversal \(readdir\)' \
		'hot traversal \(inode\)' 'stat \(disk\)' 'delete \(readdir\)'; do
		awk -v s="^    $step: +real +" 'f == 1 { print; f = 2; next }
			f == 2 { print; exit } $0 ~ s { print; f = 1 }' "$SCRATCH/$fs.out" |
			tr '\n' '|' | grep -Eq "^    $step: +real +$t\|    +user +$t\|    +sys +$t\|$" &&
			steps=$((steps + 1))
	done
	[ "$steps" = 6 ] && ok "$fs: real/user/sys per step in the classic table" ||
		not_ok "$fs: real/user/sys per step in the classic table" "$steps of 6" "$(cat "$SCRATCH/$fs.out")"
	nothing_left_under "$SCRATCH" && ok "$fs: no mount or loop device left" ||
		not_ok "$fs: no mount or loop device left"
done

# A configuration name longer than its column is wrapped, never cut.
"$FSLAB" run --target 'ext4:size=1G,name=ext4-journal-data-ordered' \
	--workload "tree:model=$MODEL" --db "$DB" --scratch "$SCRATCH" \
	--tag t6000-long >"$SCRATCH/long.out" 2>"$SCRATCH/long.err"
heads=$(sed -n '/^tree: mean over repetitions/,/unpacking tree/p' "$SCRATCH/long.out" |
	sed -n 's/^ *\([^ ]*\)$/\1/p' | tr -d '\n')
[ "$heads" = "ext4-journal-data-ordered" ] &&
	ok "a long configuration name wraps over header lines" ||
	not_ok "a long configuration name wraps over header lines" "got '$heads'" "$(cat "$SCRATCH/long.out")"

# keep=1 skips the delete phase (the runner removes its dir: workdir)
"$FSLAB" run --target ext4:size=1G --workload "tree:model=$MODEL,keep=1" \
	--db "$DB" --scratch "$SCRATCH" --tag t6000-keep >/dev/null 2>"$SCRATCH/keep.err"
n=$(phase_q t6000-keep "p.name = 'delete'" "count(*)")
[ "$n" = 0 ] && [ -n "$(phase_q t6000-keep "p.name = 'stat-readdir'" "p.id")" ] &&
	ok "keep=1 runs everything but delete" ||
	not_ok "keep=1 runs everything but delete" "$(cat "$SCRATCH/keep.err")"

# keep=1 leaves the tree for a frag step of the same run, which surveys
# exactly the model's files
"$FSLAB" run --target ext4:size=1G --workload "tree:model=$MODEL,keep=1,order=readdir" \
	--workload frag --db "$DB" --scratch "$SCRATCH" --tag t6000-frag \
	>"$SCRATCH/frag.out" 2>"$SCRATCH/frag.err"
rc=$?
n=$(metric t6000-frag survey files_scanned)
[ $rc -eq 0 ] && [ "${n%.0}" = "$nfiles" ] &&
	grep -qx "All files scanned: $nfiles" "$SCRATCH/frag.out" &&
	grep -q '^| Size range | File cnt | Fragmented | Fragmented % |$' "$SCRATCH/frag.out" &&
	ok "tree:keep=1 then frag surveys the tree the run left ($nfiles files)" ||
	not_ok "tree:keep=1 then frag surveys the tree the run left" "exit $rc, files '$n', want $nfiles" "$(tail "$SCRATCH/frag.err")"

# a tree made by the shell from the model: capture gives the model back,
# and tar czf of it is the tarball source
tree=$SCRATCH/tree
while read -r p s; do
	mkdir -p "$tree/$(dirname "$p")"
	head -c "$s" /dev/zero >"$tree/$p"
done <"$MODEL"
if "$FSLAB" model capture "$tree" >"$SCRATCH/captured" 2>"$SCRATCH/cap.err" &&
	diff <(sort "$MODEL") <(sort "$SCRATCH/captured") >"$SCRATCH/cap.diff"; then
	ok "model capture of a tree is its model"
else
	not_ok "model capture of a tree is its model" "$(head "$SCRATCH/cap.err" "$SCRATCH/cap.diff")"
fi
ln -s kernel "$tree/link-to-kernel"
mkdir -p "$tree/empty/dir"
tar czf "$SCRATCH/tree.tar.gz" -C "$tree" .
"$FSLAB" model tarball "$SCRATCH/tree.tar.gz" >"$SCRATCH/tarmodel" 2>&1
grep -qx 'link-to-kernel -> kernel' "$SCRATCH/tarmodel" && grep -qx 'empty/dir/' "$SCRATCH/tarmodel" &&
	ok "model tarball lists links and directories" ||
	not_ok "model tarball lists links and directories" "$(head "$SCRATCH/tarmodel")"
for pre in 0 1; do
	tag=t6000-tar$pre
	"$FSLAB" run --target ext4:size=1G \
		--workload "tree:tarball=$SCRATCH/tree.tar.gz,predecompress=$pre" \
		--db "$DB" --scratch "$SCRATCH" --tag "$tag" >"$SCRATCH/$tag.out" 2>"$SCRATCH/$tag.err"
	rc=$?
	up=$(phase_q "$tag" "p.name = 'unpack'" "p.files || ' ' || p.bytes")
	[ $rc -eq 0 ] && [ "$up" = "$nfiles $nbytes" ] &&
	[ "$(metric "$tag" verify mismatches)" = 0.0 ] &&
		ok "tarball, predecompress=$pre: unpacked and verified" ||
		not_ok "tarball, predecompress=$pre: unpacked and verified" "exit $rc, unpack $up" "$(tail "$SCRATCH/$tag.err")"
	n=$(metric "$tag" unpack decompress_cpu_s | wc -l)
	[ "$n" -eq 1 ] && [ -n "$(metric "$tag" unpack fs_s)" ] &&
		ok "tarball, predecompress=$pre: decompression timed apart" ||
		not_ok "tarball, predecompress=$pre: decompression timed apart"
done
check_exit "model and tarball together is a usage error" 2 "$FSLAB" run \
	--target ext4:size=1G --workload "tree:model=$MODEL,tarball=$SCRATCH/tree.tar.gz" \
	--db "$DB" --scratch "$SCRATCH"
check_exit "bad order is a usage error" 2 "$FSLAB" run --target ext4:size=1G \
	--workload "tree:order=readdir+sideways" --db "$DB" --scratch "$SCRATCH"
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" || not_ok "no mount or loop device left"
check_metric_names
finish
