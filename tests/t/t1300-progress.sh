#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Progress of `fslab run`: on a terminal (a pty from script(1)) a status
# line per phase redrawn in place on stderr, with target k of N,
# repetition, workload and phase; without a terminal one plain line per
# finished phase; --quiet neither.  stdout - the results - is the same
# in all three.  Nothing here depends on how fast the machine is: the
# status line is drawn when a phase starts, the plain line when it ends.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd script
need_cmd sqlite3
need_cmd mkfs.ext4
scratch_dir

wl=metadata:files=500,size=4k

# Figures ("-" for one too short to measure) and runs of blanks say
# nothing about the layout of the output; the tag, the command line and
# the run's global id differ on purpose, and the setup check's findings
# (a phase too short, say) follow the machine's speed, not the layout.
shape() {
	grep -v -e '^run [0-9]* ' -e '^command: ' -e '^id [0-9a-f-]*' \
		-e '^ *\(note\|warning\|invalid\) [a-z-]*\( ([0-9]*)\)\{0,1\}: ' \
		-e '^setup check' "$1" |
		sed -E -e 's/[0-9][0-9.]*/N/g' -e 's/  */ /g' \
			-e 's/ -( |$)/ N\1/g' -e 's/ -( |$)/ N\1/g'
}

run() {
	"$FSLAB" run -t ext4:size=1G -w "$wl" --db "$DB" --scratch "$SCRATCH" "$@"
}

# 1. a terminal: stderr is the pty; stdout goes to a file.
script -qec "'$FSLAB' run -t ext4:size=1G -w '$wl' --db '$DB' --scratch '$SCRATCH' --tag tty >'$SCRATCH/tty.out'" \
	"$SCRATCH/tty.log" >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && ok "run under a pty exits 0" || not_ok "run under a pty exits 0" "exit $rc" "$(tail -5 "$SCRATCH/tty.log")"
nph=$(sqlite3 "$DB" "select count(*) from $PHASES where tag = 'tty'")
for ph in create stat read unlink; do
	grep -aqF $'\r\e[K[1/1 ext4 r1/1] metadata '"$ph" "$SCRATCH/tty.log" &&
		ok "pty: status line for $ph, redrawn in place" ||
		not_ok "pty: status line for $ph, redrawn in place" "$(tr '\r' '\n' <"$SCRATCH/tty.log" | head -20)"
done
grep -aq 'building the target' "$SCRATCH/tty.log" && ok "pty: target building is shown" ||
	not_ok "pty: target building is shown" "$(tr '\r' '\n' <"$SCRATCH/tty.log" | head -5)"
! grep -aq '^fslab: \[1/1' "$SCRATCH/tty.log" && ok "pty: no plain per-phase lines" ||
	not_ok "pty: no plain per-phase lines"
! grep -q $'[\r\e]' "$SCRATCH/tty.out" && ok "pty: stdout carries no terminal codes" ||
	not_ok "pty: stdout carries no terminal codes" "$(cat -v "$SCRATCH/tty.out" | head -5)"

# 2. no terminal: one plain line per finished phase, on stderr.
run --tag pipe >"$SCRATCH/pipe.out" 2>"$SCRATCH/pipe.err"
rc=$?
[ $rc -eq 0 ] && ok "run without a terminal exits 0" || not_ok "run without a terminal exits 0" "exit $rc"
nph=$(sqlite3 "$DB" "select count(*) from $PHASES where tag = 'pipe'")
nl=$(grep -c '^fslab: \[1/1 ext4 r1/1\] metadata [a-z-]*: ok, ' "$SCRATCH/pipe.err")
[ "$nl" -eq "$nph" ] && [ "$nph" -ge 4 ] && ok "no terminal: one line per phase ($nl)" ||
	not_ok "no terminal: one line per phase" "$nl lines for $nph phases" "$(cat "$SCRATCH/pipe.err")"
grep -q '^fslab: \[1/1 ext4 r1/1\] metadata create: ok, .* files, .* files/s$' "$SCRATCH/pipe.err" &&
	ok "no terminal: the line has the phase's work and rate" ||
	not_ok "no terminal: the line has the phase's work and rate" "$(grep create "$SCRATCH/pipe.err")"
! grep -q $'[\r\e]' "$SCRATCH/pipe.err" && ok "no terminal: no terminal codes" ||
	not_ok "no terminal: no terminal codes"

# 3. --quiet: neither.
run --tag quiet --quiet >"$SCRATCH/quiet.out" 2>"$SCRATCH/quiet.err"
rc=$?
[ $rc -eq 0 ] && ok "--quiet run exits 0" || not_ok "--quiet run exits 0" "exit $rc"
! grep -q '^fslab: \[' "$SCRATCH/quiet.err" && ok "--quiet: no progress lines" ||
	not_ok "--quiet: no progress lines" "$(cat "$SCRATCH/quiet.err")"

# The results are the same whatever the progress did.
for v in tty quiet; do
	if diff <(shape "$SCRATCH/pipe.out") <(shape "$SCRATCH/$v.out") >"$SCRATCH/$v.diff"; then
		ok "stdout with $v progress is unchanged"
	else
		not_ok "stdout with $v progress is unchanged" "$(head -20 "$SCRATCH/$v.diff")"
	fi
done
grep -q '^ext4 *metadata *create ' "$SCRATCH/pipe.out" && ok "the summary table is on stdout" ||
	not_ok "the summary table is on stdout" "$(cat "$SCRATCH/pipe.out")"

nothing_left_under "$SCRATCH" && ok "nothing mounted or attached" ||
	not_ok "nothing mounted or attached" "$(grep "$SCRATCH" /proc/mounts)"
finish
