#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The workloads' capability flags are enforced by the runner before any
# target is built: --verify only with workloads that check it (or write
# no data), WL_NEEDS_ROOT only as root, and `run --help` lists the
# --verify support from the same flags.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd setpriv
scratch_dir
chmod 755 "$SCRATCH"

out=$("$FSLAB" run --help)
grep -q '^  checked: bonnie, compilebench, distribute, ffsb, metadata$' <<<"$out" &&
	grep -q '^  fsck writes no file data and ignores it$' <<<"$out" &&
	grep -q "^  tree refuses it: it writes the archive's own contents$" <<<"$out" &&
	ok "run --help lists --verify support from the flags" ||
	not_ok "run --help lists --verify support from the flags" "$out"

out=$("$FSLAB" run --verify --no-store --scratch "$SCRATCH" --workload tree 2>&1)
rc=$?
[ $rc -eq 2 ] && [[ $out == *"--verify is not supported by workload 'tree' (it writes the archive's own contents)"* ]] &&
	ok "--verify with tree: refused with the reason, exit 2" ||
	not_ok "--verify with tree: refused with the reason, exit 2" "exit $rc" "$out"
[ -z "$(ls -A "$SCRATCH" | grep -v '^state$\|^results.db$')" ] &&
	ok "refused before any target was built" || not_ok "refused before any target was built" "$(ls -l "$SCRATCH")"

mkdir "$SCRATCH/d" && chmod 777 "$SCRATCH/d"
asnobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
if ! asnobody test -x "$FSLAB"; then
	# a clone under /root: nobody cannot reach the binary
	ok "fsck without root: refused, exit 2 # SKIP nobody cannot run $FSLAB"
else
	out=$(asnobody env FSLAB_STATE_DIR="$SCRATCH/d/state" "$FSLAB" run \
		--no-store --target "dir:$SCRATCH/d" --workload fsck 2>&1)
	rc=$?
	[ $rc -eq 2 ] && [[ $out == *"workload 'fsck' needs root"* ]] &&
		ok "fsck without root: refused, exit 2" ||
		not_ok "fsck without root: refused, exit 2" "exit $rc" "$out"
fi
finish
