#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-paths.sh - every source file named in a comment or a doc exists:
# "src/..." anywhere in README.md, doc/, src/, tests/, scripts/, bench/
# and the Makefile, and a module-relative "dir/file.c" or ".h" (the way
# comments name files: compare/load.h, fs/target.c) in the same places,
# which resolves under src/ or from the top.  Placeholders (<name>,
# NAME, *, {a,b}, ...) are not paths.  Exit 0, or 1 naming each.
set -u
cd "$(dirname "$0")/.."
# git's list in a clone, else (a release tarball) every file there.
files=$(git ls-files README.md doc src tests scripts bench Makefile 2>/dev/null) ||
	files=$(find README.md doc src tests scripts bench Makefile -type f)
files=$(grep -v -e '^tests/fuzz/corpus/' -e '^tests/data/' <<<"$files")
bad=0
# The folders of src/: "fs/target.c" in a comment means src/fs/target.c
# (another project's "misc/filefrag.c" is not checked).
mods=$(cd src && find . -mindepth 1 -maxdepth 1 -type d -printf '%P\n' | paste -sd'|')
# FILE:LINE:PATH for every mention, #include lines, shell variables
# ($work/x.c) and string literals (a test's tree "src/util/big.c")
# aside; a path ends before punctuation.
mentions=$(grep -nE "src/|($mods)/" $files | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#[[:space:]]*include' |
	grep -oE "^[^:]*:[0-9]+:|(^|[^A-Za-z0-9_./\$}\"-])(src/[A-Za-z0-9_./-]+|($mods)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.[ch])" |
	awk '/^[^:]*:[0-9]+:$/ { where = $0; next } { sub(/^[^A-Za-z]*/, ""); sub(/[.]+$/, ""); print where $0 }')
while IFS=: read -r file line path; do
	[ -n "$path" ] || continue
	case $path in
	*'<'*|*'>'*|*'*'*|*NAME*|*'{'*|*...*) continue ;;
	esac
	path=${path%/}
	[ -e "$path" ] || [ -e "src/$path" ] || [ -e "tests/$path" ] && continue
	# an #include beside the file, a path inside a test's scratch tree
	[ -e "$(dirname "$file")/$path" ] && continue
	case $file in
	src/*) grep -qE "^[[:space:]]*#[[:space:]]*include.*\"$path\"" "$file" && continue ;;
	esac
	echo "check-paths: $file:$line names '$path', which does not exist" >&2
	bad=1
done <<<"$mentions"
[ $bad -eq 0 ] && echo "check-paths: $(wc -l <<<"$mentions") file names in comments and docs, all there"
exit $bad
