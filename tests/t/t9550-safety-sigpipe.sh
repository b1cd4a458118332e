#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Safety, item 6: SIGPIPE.  `fslab run ... 2>&1 | head -1` used to kill
# the run and leave its mount, loop device and image behind.  Now the
# closed pipe is a stop request: the run tears its target down, exits 1
# (not by a signal) and is stored as incomplete.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd mkfs.ext4
scratch_dir

"$FSLAB" run --target ext4:size=256M --db "$DB" --scratch "$SCRATCH" \
	--workload metadata:files=2000 --workload metadata:files=2000 2>&1 | head -1 >/dev/null
rc=${PIPESTATUS[0]}
[ "$rc" -eq 1 ] && ok "run whose reader went away exits 1, not by SIGPIPE" ||
	not_ok "run whose reader went away exits 1, not by SIGPIPE" "exit $rc"
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts; losetup -a)"
left=$(ls "$SCRATCH" | grep -E '\.(img|mnt)$')
[ -z "$left" ] && ok "no image or mount point left" || not_ok "no image or mount point left" "$left"
[ -z "$(ls -A "$FSLAB_STATE_DIR" 2>/dev/null)" ] && ok "journal closed" ||
	not_ok "journal closed" "$(cat "$FSLAB_STATE_DIR"/*)"
st=$(sqlite3 "$DB" "select status from runs order by id desc limit 1")
[ "$st" = incomplete ] && ok "the run is stored as incomplete" ||
	not_ok "the run is stored as incomplete" "status '$st'"
finish
