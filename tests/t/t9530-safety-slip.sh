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

# link_then_file TAR LINK TARGET FILE: a tarball of the symlink LINK ->
# TARGET, then a file FILE holding "pwned".
link_then_file() {
	python3 - "$@" <<'PY'
import io, sys, tarfile
tar, link, target, name = sys.argv[1:]
with tarfile.open(tar, "w") as t:
    l = tarfile.TarInfo(link); l.type = tarfile.SYMTYPE; l.linkname = target
    t.addfile(l)
    data = b"pwned\n"
    f = tarfile.TarInfo(name); f.size = len(data)
    t.addfile(f, io.BytesIO(data))
PY
}

link_then_file "$SCRATCH/slip.tar" esc "$SCRATCH/outside" esc/pwned
slip_refused "tarball=$SCRATCH/slip.tar" "slip tarball" "slip tarball refused, naming the entry" \
	"$SCRATCH/slip.tar: entry 2: 'esc/pwned' lies beneath the symlink 'esc'"

link_then_file "$SCRATCH/over.tar" f "$SCRATCH/victim" f
echo precious >"$SCRATCH/victim"
tree_run "tarball=$SCRATCH/over.tar"
[[ $out == *"entry 2: 'f' would be written through the symlink"* ]] &&
	[ "$(cat "$SCRATCH/victim")" = precious ] &&
	ok "a file entry over an earlier symlink is refused" ||
	not_ok "a file entry over an earlier symlink is refused" "$out"
[ -z "$(ls -A "$SCRATCH/target")" ] && ok "the target directory is left empty" ||
	not_ok "the target directory is left empty" "$(ls -laR "$SCRATCH/target")"
finish
