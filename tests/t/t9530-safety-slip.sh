#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Safety, item 4: tar-slip.  A tree model or a tarball with a symlink
# "esc -> /outside" and then "esc/pwned" is refused, naming the model's
# file:line or the tarball's entry, and nothing is written outside.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd python3
scratch_dir

# tree_run OPTIONS: tree:OPTIONS on the dir: target; sets out and rc.
tree_run() {
	out=$("$FSLAB" run --target "dir:$SCRATCH/target" --db "$DB" \
		--workload "tree:$1" 2>&1)
	rc=$?
}

# slip_refused OPTIONS WHAT DESC MSG: tree:OPTIONS fails saying MSG (test
# DESC) and WHAT wrote nothing outside.
slip_refused() {
	tree_run "$1"
	[ $rc -ne 0 ] && [[ $out == *"$4"* ]] && ok "$3" || not_ok "$3" "exit $rc" "$out"
	[ -z "$(ls -A "$SCRATCH/outside")" ] && ok "$2 wrote nothing outside" ||
		not_ok "$2 wrote nothing outside" "$(ls -la "$SCRATCH/outside")"
}

install -d "$SCRATCH/outside" "$SCRATCH/target"
printf 'esc -> %s\nesc/pwned 4096\n' "$SCRATCH/outside" >"$SCRATCH/slip.model"
slip_refused "model=$SCRATCH/slip.model" "slip model" "slip model refused with file:line" \
	"$SCRATCH/slip.model:2: 'esc/pwned' lies beneath the symlink 'esc'"

# The link declared after the entry it would stand above: refused too.
printf 'esc/pwned 4096\nesc -> %s\n' "$SCRATCH/outside" >"$SCRATCH/slip2.model"
tree_run "model=$SCRATCH/slip2.model"
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
slip_refused "tarball=$SCRATCH/slip.tar" "slip tarball" "slip tarball refused, naming the entry" \
	"$SCRATCH/slip.tar: entry 2: 'esc/pwned' lies beneath the symlink 'esc'"

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
tree_run "tarball=$SCRATCH/over.tar"
[[ $out == *"entry 2: 'f' would be written through the symlink"* ]] &&
	[ "$(cat "$SCRATCH/victim")" = precious ] &&
	ok "a file entry over an earlier symlink is refused" ||
	not_ok "a file entry over an earlier symlink is refused" "$out"
[ -z "$(ls -A "$SCRATCH/target")" ] && ok "the target directory is left empty" ||
	not_ok "the target directory is left empty" "$(ls -laR "$SCRATCH/target")"
finish
