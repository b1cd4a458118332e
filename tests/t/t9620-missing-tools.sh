#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Missing tools: a filesystem whose mkfs is not installed names the
# Debian package to install; a type neither a mkfs nor the kernel knows
# says so.  All refusals (exit 2) come before anything is created.
. "$(dirname "$0")/lib.sh"
need_loop
scratch_dir

# A PATH of symlinks to everything in /usr/sbin and /usr/bin but mkfs.xfs.
bin=$SCRATCH/bin
mkdir -p "$bin" "$SCRATCH/sc"
for f in /usr/sbin/* /usr/bin/*; do
	b=${f##*/}
	[ "$b" = mkfs.xfs ] || [ -e "$bin/$b" ] || ln -s "$f" "$bin/$b"
done
run() {
	"$FSLAB" run --no-store --scratch "$SCRATCH/sc" --workload metadata:files=10 "$@"
}
refused() {
	local desc=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && [[ $out == *"$want"* ]] &&
		[ -z "$(ls -A "$SCRATCH/sc")" ]; then
		ok "$desc"
	else
		not_ok "$desc" "exit $rc, wanted 2 and '$want'" "$out" \
			"$(ls -A "$SCRATCH/sc")"
	fi
}

refused "hidden mkfs.xfs: names xfsprogs" "apt-get install xfsprogs" \
	env PATH="$bin" "$FSLAB" run --no-store --scratch "$SCRATCH/sc" \
	--workload metadata:files=10 --target xfs:size=300M
refused "hidden mkfs.xfs: names the tool" "'mkfs.xfs'" \
	env PATH="$bin" "$FSLAB" run --no-store --scratch "$SCRATCH/sc" \
	--workload metadata:files=10 --target xfs:size=300M
if command -v mkfs.f2fs >/dev/null || [ -x /usr/sbin/mkfs.f2fs ]; then
	ok "# SKIP mkfs.f2fs is installed"
else
	refused "no mkfs.f2fs: names f2fs-tools" "apt-get install f2fs-tools" \
		run --target f2fs:size=300M
fi
refused "made-up fstype: the kernel does not know it" \
	"the kernel does not know it" run --target nosuchfs:size=300M
refused "made-up fstype: and there is no mkfs" "no 'mkfs.nosuchfs'" \
	run --target nosuchfs:size=300M
nothing_left_under "$SCRATCH" && ok "nothing mounted or attached" ||
	not_ok "nothing mounted or attached" "$(grep "$SCRATCH" /proc/mounts)"
finish
