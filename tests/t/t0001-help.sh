#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command answers --help with exit 0; misuse exits 2 with one line,
# git's "error: REASON; see 'fslab CMD --help'".
. "$(dirname "$0")/lib.sh"

cmds=$("$FSLAB" __complete commands)
[ "$(printf '%s\n' $cmds | wc -l)" -ge 12 ] && ok "the command table lists every command" ||
	not_ok "the command table lists every command" "$cmds"
for c in $cmds; do
	check "fslab $c --help" "$FSLAB" "$c" --help
	out=$("$FSLAB" help "$c" 2>&1)
	case "$out" in
	*usage:*) ok "fslab help $c prints usage" ;;
	*) not_ok "fslab help $c prints usage" "$out" ;;
	esac
done
# Every command's --help lists every row of its option table (both come
# from the table: this catches a row hidden by mistake or a help printer
# that drops one), and a misspelt long option gets a suggestion.
for c in $cmds; do
	help=$("$FSLAB" "$c" --help)
	missing=
	while read -r opts; do
		for o in $opts; do
			grep -qe "\(^\|[ ,]\)$o\([ =[,]\|$\)" <<<"$help" || missing="$missing $o"
		done
	done < <("$FSLAB" __complete options "$c")
	[ -z "$missing" ] && ok "$c --help lists every option of its table" ||
		not_ok "$c --help lists every option of its table" "missing:$missing"
	long=$("$FSLAB" __complete options "$c" | grep -o -- '--[a-z-]*' | head -1)
	[ -n "$long" ] || continue
	out=$("$FSLAB" "$c" "${long}x" 2>&1); rc=$?
	[ $rc -eq 2 ] && [[ $out == "error: unknown option '${long}x' (did you mean '--"* ]] &&
		[[ $out == *"see 'fslab $c --help'" ]] && [ "$(wc -l <<<"$out")" -eq 1 ] &&
		ok "$c ${long}x: one usage line with a suggestion" ||
		not_ok "$c ${long}x: one usage line with a suggestion" "exit $rc" "$out"
done
out=$("$FSLAB" --verison 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"did you mean '--version'"* ]] &&
	ok "a misspelt global option gets a suggestion" ||
	not_ok "a misspelt global option gets a suggestion" "exit $rc" "$out"
out=$("$FSLAB" compare --format xml 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"text,json,csv"* ]] &&
	ok "a bad choice names the choices" || not_ok "a bad choice names the choices" "exit $rc" "$out"
out=$("$FSLAB" compare --min-change 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"'--min-change' needs a value"* ]] &&
	ok "a missing value is a usage error" || not_ok "a missing value is a usage error" "exit $rc" "$out"
# compilebench 0.6's short options, bundled and attached
out=$("$FSLAB" compilebench --dry-run -mn -i2 -r 3 2>&1); rc=$?
[ $rc -eq 0 ] && [[ $out == *kernel-0* ]] && ok "compilebench -mn -i2 -r 3 parses" ||
	not_ok "compilebench -mn -i2 -r 3 parses" "exit $rc" "$out"
check "fslab help" "$FSLAB" help
check "fslab help targets" "$FSLAB" help targets
out=$("$FSLAB" help targts 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"did you mean 'targets'"* ]] &&
	ok "a mistyped help topic: did you mean" || not_ok "a mistyped help topic: did you mean" "exit $rc" "$out"
check "fslab --version" "$FSLAB" --version

check_exit "no command exits 2" 2 "$FSLAB"
out=$("$FSLAB" rnu 2>&1); rc=$?
[ $rc -eq 2 ] && [[ $out == *"did you mean 'run'"* ]] &&
	ok "typo suggests the command" || not_ok "typo suggests the command" "$out"
check_exit "run: unknown option exits 2" 2 "$FSLAB" run --bogus
check_exit "run: bad target exits 2" 2 "$FSLAB" run --target 'ext4:sze=1G'
out=$("$FSLAB" run --target 'ext4:sze=1G' 2>&1)
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && [[ $out == *"did you mean 'size'"* ]] &&
	ok "bad target: one line with a suggestion" ||
	not_ok "bad target: one line with a suggestion" "$out"
out=$("$FSLAB" run --target 'ext4:mount=data=writeback,noatime' 2>&1)
[[ $out == *'\,'* ]] && ok "stray comma item explains escaping" ||
	not_ok "stray comma item explains escaping" "$out"
check_exit "run: unknown workload exits 2" 2 "$FSLAB" run --workload nosuch
check_exit "run: bad workload option exits 2" 2 "$FSLAB" run --workload compilebench:runs=x
check_exit "run: unreadable compilebench sources exit 2 before any mkfs" 2 "$FSLAB" run --workload compilebench:sources=/nonexistent
check_exit "run: bad --repeat exits 2" 2 "$FSLAB" run --repeat 0
check_exit "list: unknown workload exits 2" 2 "$FSLAB" list nosuch
nodb=$(mktemp -u /tmp/fslab-nodb.XXXXXX.db)
for c in show results compare; do
	out=$("$FSLAB" $c --db "$nodb" 2>&1); rc=$?
	[ $rc -eq 1 ] && [[ $out == *"no results database at '$nodb'"* ]] && [ ! -e "$nodb" ] &&
		ok "$c: a missing database is reported, not created" ||
		not_ok "$c: a missing database is reported, not created" "exit $rc" "$out"
done
out=$("$FSLAB" list -v)
[[ $out == *compilebench* && $out == *initial-dirs* && $out == *patch* ]] &&
	ok "list -v shows workloads, phases, options" ||
	not_ok "list -v shows workloads, phases, options" "$out"
finish
