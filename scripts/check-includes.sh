#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-includes.sh - includes of src/ go down the layers of
# scripts/layers.txt, and no files include each other in a circle.
#
# A module is a folder under src/ (src/fs, src/age, ...); src/main.c is
# the module "main".  Every #include "..." of a project header is an
# arrow from the including module to the included one.  Three rules:
#   - an arrow to a module of a higher layer is an error, unless the
#     include line carries /* layer-ok: reason */;
#   - the module graph has no cycle (folders of one layer may include
#     each other, but not both ways);
#   - inside one module, the files (a.c and a.h are one unit "a") do
#     not include each other in a circle, directly or transitively;
#     an include line with /* layer-ok: reason */ is left out of both
#     circle searches (a known circle, waiting to be untangled).
# Every module must be named in layers.txt exactly once.
#   -v          print the module arrows ("from to") too
#   --self-test plant an upward include and a circle in a temporary copy
#               and prove that each one fails
set -u
cd "$(dirname "$0")/.."
verbose=
case ${1:-} in
-v) verbose=1 ;;
--self-test)
	# a copy of src/ and scripts/ with one bad include planted at a time
	t=$(mktemp -d) || exit 2
	u=util
	trap 'rm -rf "$t"' EXIT
	cp -r src scripts "$t" && printf '/* clean */\n' >"$t/src/$u/zzz_plant.c" || exit 2
	"$t/scripts/check-includes.sh" >/dev/null || { echo "self-test: the clean copy fails" >&2; exit 1; }
	printf '#include "cmd/cmd.h"\n' >"$t/src/$u/zzz_plant.c"
	out=$("$t/scripts/check-includes.sh" 2>&1) &&
		{ echo "self-test: an upward include passed" >&2; exit 1; }
	grep -q "^src/$u/zzz_plant.c:1: util (layer 1) includes cmd" <<<"$out" ||
		{ echo "self-test: upward include not named: $out" >&2; exit 1; }
	printf '#include "cmd/cmd.h" /* layer-ok: self-test */\n' >"$t/src/$u/zzz_plant.c"
	"$t/scripts/check-includes.sh" >/dev/null || { echo "self-test: layer-ok not honoured" >&2; exit 1; }
	# a.c -> b.h, b.c -> c.h, c.c -> a.h: a circle of three
	printf '#include "%s/zzb.h"\n' "$u" >"$t/src/$u/zzz_plant.c"
	printf '#include "%s/zzc.h"\n' "$u" >"$t/src/$u/zzb.c"
	printf '#include "%s/zzz_plant.h"\n' "$u" >"$t/src/$u/zzc.c"
	touch "$t/src/$u/zzz_plant.h" "$t/src/$u/zzb.h" "$t/src/$u/zzc.h"
	out=$("$t/scripts/check-includes.sh" 2>&1) &&
		{ echo "self-test: a circle passed" >&2; exit 1; }
	grep -q 'include circle: .*util/zzb -> util/zzc -> ' <<<"$out" ||
		{ echo "self-test: circle not named: $out" >&2; exit 1; }
	echo "check-includes: self-test ok (upward include and circle caught)"
	exit 0 ;;
esac

find src -name '*.[ch]' | sort >/tmp/check-includes.$$ || exit 2
trap 'rm -f /tmp/check-includes.$$' EXIT

# shellcheck disable=SC2046 # file names without blanks, checked below
awk -v verbose="$verbose" -v list=/tmp/check-includes.$$ '
function module(p) { return p ~ /\// ? substr(p, 1, index(p, "/") - 1) : "main" }
function unit(p) { sub(/\.[ch]$/, "", p); sub(/_internal$/, "", p); return p }
function dirof(p) { return p ~ /\// ? substr(p, 1, match(p, /\/[^\/]*$/) - 1) : "" }
# depth-first search for a cycle in graph g (g[a] = space-separated
# successors); prints the first cycle through each start node found
function dfs(g, v, pathv, depth,    n, i, w, s, k) {
	state[v] = 1; stack[depth] = v
	n = split(g[v], succ_tmp, " ")
	for (i = 1; i <= n; i++) succs[depth, i] = succ_tmp[i]
	for (i = 1; i <= n; i++) {
		w = succs[depth, i]
		if (state[w] == 1) {
			s = ""
			for (k = 0; k <= depth; k++)
				if (s != "" || stack[k] == w) s = s stack[k] " -> "
			print "check-includes: include circle: " s w > "/dev/stderr"
			bad = 1; ncycles++
		} else if (state[w] == 0) {
			dfs(g, w, pathv, depth + 1)
		}
	}
	state[v] = 2
}
function findcycles(g, nodes,    v) {
	delete state
	for (v in nodes) state[v] = 0
	for (v in nodes) if (state[v] == 0) dfs(g, v, "", 0)
}
BEGIN {
	while ((getline line < "scripts/layers.txt") > 0) {
		sub(/#.*/, "", line)
		n = split(line, w, " ")
		if (!n) continue
		nlayer++
		for (i = 1; i <= n; i++) {
			if (w[i] in layer) {
				print "check-includes: scripts/layers.txt names " w[i] " twice" > "/dev/stderr"
				bad = 1
			}
			layer[w[i]] = nlayer; lname[w[i]] = nlayer ": " line
		}
	}
	if (!nlayer) { print "check-includes: no scripts/layers.txt" > "/dev/stderr"; exit 2 }
	while ((getline f < list) > 0) {
		exists[f] = 1; files[++nf] = f
		if (f ~ /\.c$/) hasc[unit(substr(f, 5))] = 1
	}
	for (i = 1; i <= nf; i++) {
		f = files[i]; rel = substr(f, 5); from = module(rel); mods[from] = 1
		lno = 0
		while ((getline line < f) > 0) {
			lno++
			if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
			inc = line; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
			# relative to src/ (-Isrc) or to the including file
			if (("src/" inc) in exists) to = inc
			else if (("src/" dirof(rel) "/" inc) in exists) to = dirof(rel) "/" inc
			else continue
			tm = module(to); mods[tm] = 1
			ok = line ~ /\/\*[ \t]*layer-ok:[^*]*[^ \t*][^*]*\*\//
			if (from != tm) {
				if (!((from, tm) in arrow)) {
					arrow[from, tm] = 1; narrows++
					if (verbose) print from, tm
				}
				if (!ok && !((from, tm) in marrow)) {
					marrow[from, tm] = 1; mg[from] = mg[from] " " tm
				}
				if ((from in layer) && (tm in layer) && layer[tm] > layer[from] && !ok) {
					printf "%s:%d: %s (layer %d) includes %s (layer %d, higher): %s\n",
						f, lno, from, layer[from], tm, layer[tm], inc > "/dev/stderr"
					bad = 1
				}
			} else {
				a = unit(rel); b = unit(to)
				if (a != b && !ok && !((a, b) in uarrow)) {
					uarrow[a, b] = 1
					ug[a] = ug[a] " " b; unodes[a] = 1; unodes[b] = 1
				}
			}
		}
		close(f)
	}
	for (m in mods) if (!(m in layer)) {
		print "check-includes: module " m " is in no layer of scripts/layers.txt" > "/dev/stderr"
		bad = 1
	}
	findcycles(mg, mods)
	# a header without a .c (the internal.h of a folder) implements nothing:
	# a circle through it and one implementation is no circle, so the
	# units with a .c are joined across such headers before the search
	for (a in unodes) if (a in hasc) {
		delete seen; nq = 0; q[++nq] = a; seen[a] = 1
		for (qi = 1; qi <= nq; qi++) {
			k = split(ug[q[qi]], x, " ")
			for (j = 1; j <= k; j++) {
				b = x[j]
				if (b in seen) continue
				seen[b] = 1
				if (b in hasc) { if (b != a) cg[a] = cg[a] " " b; cnodes[b] = 1 }
				else q[++nq] = b
			}
		}
		cnodes[a] = 1
	}
	findcycles(cg, cnodes)
	if (bad) exit 1
	printf "check-includes: %d arrows between %d modules in %d layers, none upward, no circle\n",
		narrows, length(mods), nlayer
}'
