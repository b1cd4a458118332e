#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Safety, item 6: the smaller holes.  An FFSB profile cannot ask for more
# threads than the cap; its parse errors do not echo lines of the file; a
# bad fsck:extra= is reported as the checker refusing its arguments, not
# as "fsck found errors"; an aged: target whose golden image does not
# match its .meta (size, checksum) is refused; CSV cells that a
# spreadsheet would run as formulas stay text.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd mkfs.ext4
need_cmd e2fsck
scratch_dir

install -d "$SCRATCH/d"
cat >"$SCRATCH/big.ffsb" <<'P'
time = 1
[filesystem0]
	location = /x
	num_files = 10
	min_filesize = 4096
	max_filesize = 4096
[end0]
[threadgroup0]
	num_threads = 100000
	create_weight = 1
	write_size = 4096
	write_blocksize = 4096
[end0]
P
out=$("$FSLAB" run --target "dir:$SCRATCH/d" --db "$DB" --workload "ffsb:profile=$SCRATCH/big.ffsb" 2>&1)
rc=$?
[ $rc -ne 0 ] && [[ $out == *"more than 1024 threads"* ]] &&
	ok "ffsb num_threads = 100000 is refused" || not_ok "ffsb num_threads = 100000 is refused" "exit $rc" "$out"

printf 'root:SECRET-TOKEN-4711:19000:0:99999:7:::\n' >"$SCRATCH/shadow"
out=$("$FSLAB" run --target "dir:$SCRATCH/d" --db "$DB" --workload "ffsb:profile=$SCRATCH/shadow" 2>&1)
rc=$?
[ $rc -ne 0 ] && [[ $out != *SECRET-TOKEN* ]] && [[ $out == *"shadow:1:"* ]] &&
	ok "ffsb parse errors do not echo the file" || not_ok "ffsb parse errors do not echo the file" "exit $rc" "$out"

out=$("$FSLAB" run --target ext4:size=256M --scratch "$SCRATCH/s" --db "$DB" \
	--workload "fsck:extra=--no-such-option" 2>&1)
rc=$?
[ $rc -ne 0 ] && [[ $out == *"e2fsck refused its arguments (fsck:extra='--no-such-option')"* ]] &&
	[[ $out != *"fsck found errors"* ]] &&
	ok "a bad fsck:extra= is a usage error, not a finding" ||
	not_ok "a bad fsck:extra= is a usage error, not a finding" "exit $rc" "$out"

"$FSLAB" run --target "dir:$SCRATCH/d" --db "$DB" --tag "=HYPERLINK(1)" \
	--workload metadata:files=10 >/dev/null 2>&1
csv=$("$FSLAB" results --db "$DB" --format csv 2>&1)
[[ $csv == *"\"'=HYPERLINK(1)\""* ]] && [[ $csv != *",=HYPERLINK"* ]] &&
	ok "a tag starting with = stays text in CSV" || not_ok "a tag starting with = stays text in CSV" "$csv"

# Output files named by the user, in a directory everyone can write: a
# symlink another user planted there is refused, a hard link to some
# other file is replaced, never written through; a refused write leaves
# no file behind.
install -d -m 1777 "$SCRATCH/pub"
printf 'precious\n' >"$SCRATCH/pub/victim"
ln -s victim "$SCRATCH/pub/link"
chown -h nobody "$SCRATCH/pub/link"
for c in "report -o" "export -o" "run --no-store --target dir:$SCRATCH/d --workload metadata:files=10 --json"; do
	case $c in
	run*) args=($c "$SCRATCH/pub/link") ;;
	*) args=($c "$SCRATCH/pub/link" "=HYPERLINK(1)" --db "$DB") ;;
	esac
	out=$("$FSLAB" "${args[@]}" 2>&1)
	rc=$?
	[ $rc -ne 0 ] && [[ $out == *"symbolic link owned by uid"* ]] &&
		[ "$(cat "$SCRATCH/pub/victim")" = precious ] &&
		[ "$(find "$SCRATCH/pub" | wc -l)" = 3 ] &&
		ok "${c%% *}: another user's symlink at the output name is refused" ||
		not_ok "${c%% *}: another user's symlink at the output name is refused" "exit $rc" "$out" "$(ls -la "$SCRATCH/pub")"
done
ln "$SCRATCH/pub/victim" "$SCRATCH/pub/hard"
out=$("$FSLAB" export "=HYPERLINK(1)" --db "$DB" -o "$SCRATCH/pub/hard" 2>&1)
rc=$?
[ $rc -eq 0 ] && [ "$(cat "$SCRATCH/pub/victim")" = precious ] &&
	grep -q fslab-export "$SCRATCH/pub/hard" &&
	ok "an output name hard-linked to another file is replaced, not written through" ||
	not_ok "an output name hard-linked to another file is replaced, not written through" "exit $rc" "$out"

if out=$("$FSLAB" age --target ext4:size=256M --scratch "$SCRATCH/s" \
	--fullness 0.2 --data fallocate --save g1 -q 2>&1); then
	g=$SCRATCH/s/golden
	cp "$g/g1.meta" "$g/g1.meta.orig"
	sed -i 's/^size=.*/size=1234/' "$g/g1.meta"
	out=$("$FSLAB" run --target aged:g1 --workload metadata:files=10 --scratch "$SCRATCH/s" --db "$DB" 2>&1)
	rc=$?
	[ $rc -eq 2 ] && [[ $out == *"its .meta says 1234"* ]] &&
		ok "aged: with a wrong size in .meta is refused" ||
		not_ok "aged: with a wrong size in .meta is refused" "exit $rc" "$out"
	sed 's/^checksum=.*/checksum=fnv1a64w:0000000000000000/' "$g/g1.meta.orig" >"$g/g1.meta"
	out=$("$FSLAB" run --target aged:g1 --workload metadata:files=10 --scratch "$SCRATCH/s" --db "$DB" 2>&1)
	rc=$?
	[ $rc -eq 2 ] && [[ $out == *"does not match the checksum in its .meta"* ]] &&
		ok "aged: with a wrong checksum is refused" ||
		not_ok "aged: with a wrong checksum is refused" "exit $rc" "$out"
	cp "$g/g1.meta.orig" "$g/g1.meta"
	out=$("$FSLAB" run --target aged:g1 --workload metadata:files=10 --scratch "$SCRATCH/s" --db "$DB" 2>&1)
	rc=$?
	[ $rc -eq 0 ] && ok "aged: with its own .meta runs" || not_ok "aged: with its own .meta runs" "exit $rc" "$out"
else
	not_ok "age and save a golden image" "$out"
fi
nothing_left_under "$SCRATCH" && ok "nothing left mounted or attached" ||
	not_ok "nothing left mounted or attached" "$(grep "$SCRATCH" /proc/mounts)"
finish
