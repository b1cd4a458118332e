#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Safety, item 4: tar-slip.  A tree model or a tarball with a symlink
# "esc -> /outside" and then "esc/pwned" is refused, naming the model's
# file:line or the tarball's entry, and nothing is written outside.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd python3
scratch_dir

install -d "$SCRATCH/outside" "$SCRATCH/target"
printf 'esc -> %s\nesc/pwned 4096\n' "$SCRATCH/outside" >"$SCRATCH/slip.model"
out=$("$FSLAB" run --target "dir:$SCRATCH/target" --db "$DB" \
	--workload "tree:model=$SCRATCH/slip.model" 2>&1)
rc=$?
[ $rc -ne 0 ] && [[ $out == *"$SCRATCH/slip.model:2: 'esc/pwned' lies beneath the symlink 'esc'"* ]] &&
	ok "slip model refused with file:line" ||
	not_ok "slip model refused with file:line" "exit $rc" "$out"
[ -z "$(ls -A "$SCRATCH/outside")" ] && ok "slip model wrote nothing outside" ||
	not_ok "slip model wrote nothing outside" "$(ls -la "$SCRATCH/outside")"

# The link declared after the entry it would stand above: refused too.
printf 'esc/pwned 4096\nesc -> %s\n' "$SCRATCH/outside" >"$SCRATCH/slip2.model"
out=$("$FSLAB" run --target "dir:$SCRATCH/target" --db "$DB" \
	--workload "tree:model=$SCRATCH/slip2.model" 2>&1)
[[ $out == *"$SCRATCH/slip2.model:2: link 'esc' would stand above 'esc/pwned'"* ]] &&
	ok "a link above an earlier entry is refused" ||
	not_ok "a link above an earlier entry is refused" "$out"

python3 - "$SCRATCH/slip.tar" "$SCRATCH/outside" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as t:
    l = tarfile.TarInfo("esc"); l.type = tarfile.SYMTYPE; l.linkname = sys.argv[2]
    t.addfile(l)
    data = b"pwned\n"
    f = tarfile.TarInfo("esc/pwned"); f.size = len(data)
    t.addfile(f, io.BytesIO(data))
PY
out=$("$FSLAB" run --target "dir:$SCRATCH/target" --db "$DB" \
	--workload "tree:tarball=$SCRATCH/slip.tar" 2>&1)
rc=$?
[ $rc -ne 0 ] && [[ $out == *"$SCRATCH/slip.tar: entry 2: 'esc/pwned' lies beneath the symlink 'esc'"* ]] &&
	ok "slip tarball refused, naming the entry" ||
	not_ok "slip tarball refused, naming the entry" "exit $rc" "$out"
[ -z "$(ls -A "$SCRATCH/outside")" ] && ok "slip tarball wrote nothing outside" ||
	not_ok "slip tarball wrote nothing outside" "$(ls -la "$SCRATCH/outside")"

python3 - "$SCRATCH/over.tar" "$SCRATCH/victim" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as t:
    l = tarfile.TarInfo("f"); l.type = tarfile.SYMTYPE; l.linkname = sys.argv[2]
    t.addfile(l)
    data = b"pwned\n"
    f = tarfile.TarInfo("f"); f.size = len(data)
    t.addfile(f, io.BytesIO(data))
PY
echo precious >"$SCRATCH/victim"
out=$("$FSLAB" run --target "dir:$SCRATCH/target" --db "$DB" \
	--workload "tree:tarball=$SCRATCH/over.tar" 2>&1)
[[ $out == *"entry 2: 'f' would be written through the symlink"* ]] &&
	[ "$(cat "$SCRATCH/victim")" = precious ] &&
	ok "a file entry over an earlier symlink is refused" ||
	not_ok "a file entry over an earlier symlink is refused" "$out"
[ -z "$(ls -A "$SCRATCH/target")" ] && ok "the target directory is left empty" ||
	not_ok "the target directory is left empty" "$(ls -laR "$SCRATCH/target")"
finish
