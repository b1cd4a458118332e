#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Man pages and bash completion come from the option tables: every option
# of every command, and every key of every workload, is in them; the
# pages lint clean; the completion completes; `make install DESTDIR=`
# writes nothing outside DESTDIR and `make uninstall` takes it all back.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd unshare
scratch_dir

man=$SCRATCH/man
mkdir -p "$man"
pages=$("$FSLAB" --dump-man list)
[ "$(wc -l <<<"$pages")" -ge 15 ] && ok "man page list: fslab, a page per command, workloads, targets" ||
	not_ok "man page list" "$pages"
bad=
while read -r page sec; do
	FSLAB_README=$TOP/README.md "$FSLAB" --dump-man "$page" >"$man/$page.$sec" || bad="$bad $page"
done <<<"$pages"
[ -z "$bad" ] && ok "every man page generates" || not_ok "every man page generates" "$bad"
check_exit "an unknown man page is a usage error" 2 "$FSLAB" --dump-man fslab-nosuch

if command -v mandoc >/dev/null; then
	out=$(mandoc -T lint "$man"/* 2>&1)
	lint="mandoc -T lint"
else
	out=$(for f in "$man"/*; do groff -ww -z -man "$f" 2>&1; done)
	lint="groff -ww -z"
fi
[ -z "$out" ] && ok "man pages pass $lint" || not_ok "man pages pass $lint" "$out"

"$FSLAB" --dump-completion >"$SCRATCH/fslab.bash"
bash -n "$SCRATCH/fslab.bash" && ok "the completion script is valid bash" ||
	not_ok "the completion script is valid bash"

# Every option of every command: in its man page (roff writes '-' as
# '\-') and in the option words of its completion case.
for c in $("$FSLAB" __complete commands); do
	miss_man= miss_comp=
	words=$(sed -n "/^\t$c)\$/,/^\t\t;;\$/p" "$SCRATCH/fslab.bash" | grep 'opts="')
	for o in $("$FSLAB" __complete options "$c"); do
		grep -qF -- "${o//-/\\-}" "$man/fslab-$c.1" || miss_man="$miss_man $o"
		[[ " ${words%\"} " == *" $o "* || " ${words%\"} " == *" $o= "* ]] ||
			miss_comp="$miss_comp $o"
	done
	[ -z "$miss_man" ] && ok "fslab-$c(1) has every option" ||
		not_ok "fslab-$c(1) has every option" "missing:$miss_man"
	[ -z "$miss_comp" ] && ok "completion of $c has every option" ||
		not_ok "completion of $c has every option" "missing:$miss_comp"
done

# Every workload and its keys: in fslab-workloads(7) and the completion.
miss=
while read -r wl; do
	grep -q "^\.SH $wl\$" "$man/fslab-workloads.7" || miss="$miss $wl"
	keys=$(grep "^	$wl) echo" "$SCRATCH/fslab.bash")
	for k in $("$FSLAB" list "$wl" | awk '/options \(--workload/ { on = 1; next } on && /^    [^ ]/ { print $1 }'); do
		grep -qF -- "\\fB${k//-/\\-}\\fR=" "$man/fslab-workloads.7" || miss="$miss $wl:$k(man)"
		[[ $keys == *" $k="* || $keys == *"\"$k="* ]] || miss="$miss $wl:$k(completion)"
	done
done < <("$FSLAB" list | awk '{ print $1 }')
[ -z "$miss" ] && ok "every workload option is in fslab-workloads(7) and the completion" ||
	not_ok "every workload option is in fslab-workloads(7) and the completion" "missing:$miss"

# The completion itself, against a store with one tagged run.
mkdir -p "$SCRATCH/dir"
"$FSLAB" run -t "dir:$SCRATCH/dir" -w metadata:files=10 --db "$DB" --tag t0002tag \
	--scratch "$SCRATCH/scratch" >/dev/null 2>&1 ||
	not_ok "a tagged run for the completion to find"
complete_line() {
	bash -c '. "$1"; fslab() { "$FSLAB" "$@"; }
		COMP_LINE=$2; COMP_POINT=${#2}; _fslab; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$SCRATCH/fslab.bash" "$1"
}
expect_completion() {
	local got
	got=$(complete_line "$1" | tr '\n' ' ')
	[[ " $got" == *" $2 "* ]] && ok "completing '$1' offers '$2'" ||
		not_ok "completing '$1' offers '$2'" "got: $got"
}
expect_completion "fslab r" run
expect_completion "fslab run --wor" --workload
expect_completion "fslab run -t x" xfs
expect_completion "fslab run -w metad" metadata
expect_completion "fslab run -w metadata:fi" files=
expect_completion "fslab run -w metadata:files=10,thr" "10,threads="
expect_completion "fslab compare --format " csv
expect_completion "fslab compare --format=j" json
expect_completion "fslab show --db $DB t00" t0002tag
expect_completion "fslab compare --db=$DB " 1
expect_completion "fslab help " targets

# make install into DESTDIR, with /usr, /etc, /opt and /var/lib read-only
# in a private mount namespace: a write outside DESTDIR fails the build.
dest=$SCRATCH/dest
prefix=/opt/fslab-t0002-$$
out=$(unshare -m bash -c '
	set -e
	mount --make-rprivate /
	for d in /usr /etc /opt /var/lib; do
		[ -d "$d" ] || continue
		mount --bind "$d" "$d"
		mount -o remount,bind,ro "$d"
	done
	make -s -C "$1" install DESTDIR="$2" PREFIX="$3"
' _ "$TOP" "$dest" "$prefix" 2>&1); rc=$?
[ $rc -eq 0 ] && ok "make install DESTDIR= with the system read-only" ||
	not_ok "make install DESTDIR= with the system read-only" "exit $rc" "$out"
outside=$(cd "$dest" && find . -type f | grep -v "^\./${prefix#/}/")
[ -z "$outside" ] && [ ! -e "$prefix" ] && ok "make install wrote only under DESTDIR\$PREFIX" ||
	not_ok "make install wrote only under DESTDIR\$PREFIX" "$outside"
miss=
for f in bin/fslab share/man/man1/fslab.1 share/man/man1/fslab-run.1 \
	 share/man/man7/fslab-workloads.7 share/man/man7/fslab-targets.7 \
	 share/bash-completion/completions/fslab share/doc/fslab/README.md \
	 share/doc/fslab/examples/ffsb/small-mix.ffsb \
	 share/doc/fslab/examples/age/desktop.profile; do
	[ -f "$dest$prefix/$f" ] || miss="$miss $f"
done
[ -z "$miss" ] && ok "installed: binary, man pages, completion, docs, examples" ||
	not_ok "installed: binary, man pages, completion, docs, examples" "missing:$miss"
"$dest$prefix/bin/fslab" --version >/dev/null && ok "the installed binary runs" ||
	not_ok "the installed binary runs"
make -s -C "$TOP" uninstall DESTDIR="$dest" PREFIX="$prefix" >/dev/null 2>&1
left=$(find "$dest" -type f)
[ -z "$left" ] && ok "make uninstall removes every installed file" ||
	not_ok "make uninstall removes every installed file" "$left"
finish
