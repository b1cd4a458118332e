#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab bisect --axis git:REPO --build and --axis steps:FILE --step, on a
# dir: target with exec workloads that sleep, so no loop device is
# needed and every change is a factor of several (never a matter of
# machine speed).  git: a repository of ten revisions of a small C
# program, the sixth adding a ten times longer sleep: revision 6 must be
# named, each revision built by --build into its own prefix, and every
# run stored with its revision.  steps: eight lines, the step command
# writing the line where the workload reads it; a failing step command
# makes its step untestable; an A/A test catches a step command that
# does not set up the same thing twice; two steps adding half the delay
# each are refused as non-monotone evidence.
. "$(dirname "$0")/lib.sh"
need_cmd sqlite3 git cc
scratch_dir

q() { sqlite3 "$DB" "$@"; }
runs() {
	q "select count(*) from runs where tag like '$1:step=%'${2:+ and status = '$2'}"
}
WD=$SCRATCH/wd
mkdir -p "$WD"
T="dir:$WD"
M=exec/cmd.elapsed_s
bisect() { "$FSLAB" bisect --db "$DB" --scratch "$SCRATCH/s" "$@"; }

# ---- a git repository: revision 6 sleeps ten times longer ----
REPO=$SCRATCH/repo
mkdir "$REPO"
git -C "$REPO" init -q
git -C "$REPO" config user.email t@example.org
git -C "$REPO" config user.name t
for i in 1 2 3 4 5 6 7 8 9 10; do
	d=2000
	[ $i -ge 6 ] && d=20000
	cat >"$REPO/prog.c" <<-EOF2
	#include <unistd.h>
	/* revision $i */
	int main(void) { for (int i = 0; i < 10; i++) usleep($d); return 0; }
	EOF2
	git -C "$REPO" add prog.c
	git -C "$REPO" commit -qm "revision $i"
	git -C "$REPO" tag "r$i"
done
REV6=$(git -C "$REPO" rev-parse r6)
BUILD='mkdir -p {prefix}/bin && cc -o {prefix}/bin/prog prog.c'
WL='exec:cmd={prefix}/bin/prog'

# ---- refused input: exit 2, a clear reason, no run ----
refuse() {
	local desc=$1 want=$2 out rc
	shift 2
	out=$(bisect "$@" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$want" <<<"$out"; then ok "$desc"
	else not_ok "$desc" "exit $rc, wanted 2 and '$want'" "$out"; fi
}
printf 'v1\nv2\n' >"$SCRATCH/two"
refuse "git: without --build refused" "git:REPO needs --build CMD" \
	--axis "git:$REPO" -t "$T" -w "$WL" --metric $M
refuse "steps: without --step refused" "steps:FILE needs --step CMD" \
	--axis "steps:$SCRATCH/two" -t "$T" -w "$WL" --metric $M
refuse "--step on a git: axis refused" "is for the steps: axis" \
	--axis "git:$REPO" --build true --step true -t "$T" -w "$WL" --metric $M
refuse "-t with a targets: axis refused" "no -t, --build" \
	--axis "targets:$SCRATCH/two" -t "$T" -w "$WL" --metric $M
mkdir "$SCRATCH/notgit"
refuse "a folder that is not git refused" "not a git repository" \
	--axis "git:$SCRATCH/notgit" --build true -t "$T" -w "$WL" --metric $M
refuse "a --good ref that does not resolve refused" "--good 'nosuch': no such commit" \
	--axis "git:$REPO" --build true --good nosuch --bad r10 -t "$T" -w "$WL" --metric $M
refuse "a --bad ref that does not resolve refused" "--bad 'r99': no such commit" \
	--axis "git:$REPO" --build true --good r1 --bad r99 -t "$T" -w "$WL" --metric $M
refuse "--good after --bad refused" "not a first-parent ancestor" \
	--axis "git:$REPO" --build true --good r8 --bad r2 -t "$T" -w "$WL" --metric $M
refuse "a bad -t refused" "-t 'nosuchfs" \
	--axis "git:$REPO" --build true -t nosuchfs:x=1 -w "$WL" --metric $M
refuse "a missing steps file refused" "cannot read" \
	--axis "steps:$SCRATCH/nosuch" --step true -t "$T" -w "$WL" --metric $M
[ "$(q "select count(*) from runs" 2>/dev/null || echo 0)" = 0 ] &&
	ok "no run made by refused input" ||
	not_ok "no run made by refused input" "$(q "select id, tag from runs")"

# ---- git: the bisection names revision 6 ----
out=$SCRATCH/git.out
bisect --axis "git:$REPO" --good r1 --bad r10 --build "$BUILD" -t "$T" \
	-w "$WL" --metric $M --tag t7510g --budget 30 >"$out" 2>"$SCRATCH/git.err"
rc=$?
line=$(grep '^culprit: ' "$out")
used=$(sed -n 's/.* after \([0-9]*\) runs$/\1/p' <<<"$line")
if [ $rc -eq 0 ] && grep -q "^culprit: step 6 ($REV6), revision 6 of git:" <<<"$line"; then
	ok "git: revision 6 named ($line)"
else not_ok "git: revision 6 named" "exit $rc" "$(cat "$out" "$SCRATCH/git.err")"; fi
grep -q '^  it explains .* of the change between good and bad' "$out" &&
	ok "git: the culprit explains the change" ||
	not_ok "git: the culprit explains the change" "$(cat "$out")"
[ -n "$used" ] && [ "$(runs t7510g complete)" = "$used" ] &&
	ok "git: its $used runs are stored, complete, tagged t7510g:step=K" ||
	not_ok "git: its runs are stored" "stored $(runs t7510g), said '$used'"
bad_rev=$(q "select count(*) from runs r join run_facts f on f.run_id = r.id
	where r.tag like 't7510g:step=%' and f.key = 'bisect.rev'
	and f.value != (select value from run_facts g where g.run_id = r.id
		and g.key = 'bisect.spec')")
rev6=$(q "select count(*) from runs r join run_facts f on f.run_id = r.id
	where r.tag = 't7510g:step=6' and f.key = 'bisect.rev' and f.value = '$REV6'")
[ "$bad_rev" = 0 ] && [ "${rev6:-0}" -ge 1 ] &&
	ok "git: every run stores its revision (step 6: $REV6)" ||
	not_ok "git: every run stores its revision" "mismatched $bad_rev, step 6 $rev6"
built=$(grep -c '^step [0-9]*: building ' "$out")
distinct=$(grep '^step [0-9]* (' "$out" | sed 's/ (.*//' | sort -u | wc -l)
[ "$built" = "$distinct" ] && ok "git: each revision built once ($built)" ||
	not_ok "git: each revision built once" "$built builds, $distinct steps"
[ -z "$(ls -A "$SCRATCH/s" 2>/dev/null | grep '^bisect-')" ] &&
	ok "git: the work trees and prefixes are removed" ||
	not_ok "git: the work trees and prefixes are removed" "$(ls "$SCRATCH/s")"
"$FSLAB" compare --db "$DB" t7510g:step=5 t7510g:step=6 >"$SCRATCH/cmp.out" 2>&1 &&
	ok "git: compare takes two revisions' runs as comparable" ||
	not_ok "git: compare takes two revisions' runs" "$(cat "$SCRATCH/cmp.out")"

# cut short, the tags moved on, resumed: the stored ids are the ends
bisect --axis "git:$REPO" --good r1 --bad r10 --build "$BUILD" -t "$T" \
	-w "$WL" --metric $M --tag t7510r --budget 4 >"$SCRATCH/r1.out" 2>&1
rc1=$?
git -C "$REPO" tag -f r10 r2 >/dev/null
git -C "$REPO" tag -f r1 r9 >/dev/null
out=$SCRATCH/r2.out
bisect --resume t7510r --budget 30 >"$out" 2>&1
rc=$?
if [ $rc1 -eq 4 ] && [ $rc -eq 0 ] && grep -q '^resuming bisection t7510r: .* 4 stored runs' "$out" &&
	grep -q "^culprit: step 6 ($REV6)" "$out"; then
	ok "git: resumed after the refs moved, revision 6 named"
else not_ok "git: resumed after the refs moved" "exit $rc1, $rc" "$(cat "$SCRATCH/r1.out" "$out")"; fi

# a revision that does not build is untestable, skipped
B3=$SCRATCH/b3
mkdir "$B3"
git -C "$B3" init -q
git -C "$B3" config user.email t@example.org
git -C "$B3" config user.name t
for d in 2000 broken 20000; do
	if [ $d = broken ]; then echo 'int main(void) { syntax error' >"$B3/prog.c"
	else echo "#include <unistd.h>
int main(void) { for (int i = 0; i < 10; i++) usleep($d); return 0; }" >"$B3/prog.c"; fi
	git -C "$B3" add prog.c
	git -C "$B3" commit -qm "$d"
done
out=$SCRATCH/b3.out
bisect --axis "git:$B3" --good HEAD~2 --build "$BUILD" -t "$T" -w "$WL" \
	--metric $M --tag t7510b --budget 9 >"$out" 2>&1
rc=$?
if [ $rc -eq 4 ] && grep -q '^step 2 ([0-9a-f]*): the build exited [0-9]*.*: skipped' "$out" &&
	[ "$(grep -c '^step 2: building' "$out")" = 1 ] &&
	grep -q '^  culprit: step 2 ([0-9a-f]*): untestable (the build exited' "$out"; then
	ok "git: a revision whose build fails is untestable, skipped once, said so"
else not_ok "git: a failing build is untestable" "exit $rc" "$(cat "$out")"; fi

# ---- a scratch folder another user owns: no build folder made in it ----
EVIL=$SCRATCH/evil
mkdir "$EVIL" && chown nobody "$EVIL" && chmod 0755 "$EVIL"
out=$("$FSLAB" bisect --db "$DB" --scratch "$EVIL" --axis "git:$B3" \
	--good HEAD~2 --build "$BUILD" -t "$T" -w "$WL" --metric $M \
	--tag t7510e 2>&1)
rc=$?
if [ $rc -ne 0 ] && grep -q "owned by uid $(id -u nobody)" <<<"$out" &&
	[ -z "$(ls -A "$EVIL")" ]; then
	ok "git: a scratch folder owned by nobody is refused, nothing built in it"
else not_ok "git: a scratch folder owned by nobody is refused" "exit $rc" \
	"$out" "$(ls -lA "$EVIL")"; fi

# ---- steps: a step command that sets up what the workload reads ----
CUR=$SCRATCH/current
# v1..v8: from v5 on ten times the sleep; "slow-aa" counts its own
# setups and is slow from the fourth on
cat >"$SCRATCH/work.sh" <<EOF
#!/bin/sh
v=\$(cat "$CUR")
case \$v in
v[1-4]) t=0.02 ;;
v[5-8]) t=0.2 ;;
h[1-2]) t=0.02 ;;
h[3-6]) t=0.12 ;;
h*) t=0.22 ;;
esac
sleep \$t
EOF
chmod +x "$SCRATCH/work.sh"
SWL="exec:cmd=$SCRATCH/work.sh"
printf 'v%s\n' 1 2 3 4 5 6 7 8 >"$SCRATCH/steps"
out=$SCRATCH/steps.out
bisect --axis "steps:$SCRATCH/steps" --step "echo {} >$CUR" -t "$T" -w "$SWL" \
	--metric $M --tag t7510s --budget 40 >"$out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^culprit: step 5 (v5), line 5 of steps:' "$out"; then
	ok "steps: step 5 named"
else not_ok "steps: step 5 named" "exit $rc" "$(cat "$out")"; fi
grep -q '^A/A: step 1 against itself, 3 runs a half: .*not shown to differ' "$out" &&
	[ "$(q "select count(*) from runs where tag = 't7510s:step=1'")" -ge 6 ] &&
	ok "steps: the A/A test ran by default, 6 runs of step 1 or more" ||
	not_ok "steps: the A/A test ran by default" "$(cat "$out")"
[ "$(runs t7510s complete)" = "$(grep -c '^step [0-9]* (v[0-9]): ' "$out")" ] &&
	ok "steps: every measurement stored" || not_ok "steps: every measurement stored" "$(runs t7510s)"

# a failing step command: step 3 untestable
out=$SCRATCH/stepfail.out
bisect --axis "steps:$SCRATCH/steps" --no-aa -t "$T" -w "$SWL" --metric $M \
	--step "case {} in v3) echo no v3 >&2; exit 3;; esac; echo {} >$CUR" \
	--good 2 --bad 5 --tag t7510f --budget 12 >"$out" 2>&1
rc=$?
if grep -q '^step 3 (v3): the step command exited 3: no v3: skipped' "$out" &&
	[ "$(grep -c '^step 3 (v3)' "$out")" = 1 ] && ! grep -q '^A/A' "$out" &&
	{ grep -q '^culprit: step 5 (v5)' "$out" || grep -q 'untestable (the step command exited 3' "$out"; }; then
	ok "steps: a failing step command makes its step untestable (exit $rc)"
else not_ok "steps: a failing step command makes its step untestable" "exit $rc" "$(cat "$out")"; fi

# the A/A test: a setup of step 1 that changes from its fourth time on
cat >"$SCRATCH/drift.sh" <<EOF
#!/bin/sh
n=\$(cat "$SCRATCH/count" 2>/dev/null || echo 0)
n=\$((n + 1)); echo \$n >"$SCRATCH/count"
if [ "\$1" = v1 ] && [ \$n -gt 6 ]; then echo v4x >"$CUR"; else echo "\$1" >"$CUR"; fi
EOF
sed -i 's/^v\[1-4\]) t=0.02 ;;/v[1-4]) t=0.02 ;;\nv4x) t=0.06 ;;/' "$SCRATCH/work.sh"
out=$SCRATCH/aa.out
bisect --axis "steps:$SCRATCH/steps" --step "sh $SCRATCH/drift.sh {}" -t "$T" \
	-w "$SWL" --metric $M --tag t7510a --budget 40 >"$out" 2>&1
rc=$?
if [ $rc -eq 4 ] && grep -q '^step 1 differs from itself: .*: the step command does not give a reproducible setup' "$out" &&
	! grep -q '^culprit' "$out"; then
	ok "steps: the A/A test refuses a setup that is not reproducible"
else not_ok "steps: the A/A test refuses" "exit $rc" "$(cat "$out")"; fi

# ---- two culprits: steps 3 and 7 each add half the delay ----
printf 'h%s\n' 1 2 3 4 5 6 7 8 9 >"$SCRATCH/half"
out=$SCRATCH/half.out
bisect --axis "steps:$SCRATCH/half" --step "echo {} >$CUR" -t "$T" -w "$SWL" \
	--metric $M --tag t7510h --budget 40 >"$out" 2>&1
rc=$?
if [ $rc -eq 4 ] && grep -Eq '^non-monotone evidence: step (3|7) explains [0-9]+ % \(.*\) of the change between good and bad; another step changes it too' "$out"; then
	ok "two culprits: refused as non-monotone evidence ($(grep -o 'step [37] explains [0-9]* %' "$out"))"
else not_ok "two culprits: refused as non-monotone evidence" "exit $rc" "$(cat "$out")"; fi

nothing_left_under "$SCRATCH" && ok "nothing left mounted at the end" ||
	not_ok "nothing left mounted at the end" "$(grep "$SCRATCH" /proc/mounts)"
finish
