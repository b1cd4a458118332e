#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab site: two stores of two hosts (crafted from one real fsck run by
# craft_runs.py and imported: 16 runs of host alpha on targets x and y
# with a planted +10 % step in x's wall_s where the kernel changes, 8
# older runs of host beta on x).  The index names the step first, as a
# regression, with the kernel; a page per series with per-host rows;
# building again writes nothing and a second tree is byte-identical; one
# more run rewrites only the pages it touches; a site of the exported and
# imported stores equals the original's; a foreign directory and
# symlinks are refused or replaced, never followed; and headless
# Chromium opens every page offline with no request outside the
# directory and no console error.
. "$(dirname "$0")/lib.sh"
need_loop
need_cmd python3 mkfs.ext4 e2fsck
scratch_dir

T=$(dirname "$0")
A=$SCRATCH/a.db
B=$SCRATCH/b.db
if ! "$FSLAB" run -t ext4:name=x,size=64M -w fsck --db "$SCRATCH/t.db" \
	--scratch "$SCRATCH/s" --quiet >"$SCRATCH/run.out" 2>&1 ||
	! "$FSLAB" export --db "$SCRATCH/t.db" -o "$SCRATCH/t.json" >/dev/null 2>&1; then
	not_ok "one real fsck run as the template" "$(tail -20 "$SCRATCH/run.out")"
	finish
	exit 1
fi
ok "one real fsck run as the template"
python3 "$T/craft_runs.py" "$SCRATCH/t.json" "$SCRATCH/a.json" alpha 6.1.0 9 16 17 1.0 x,y &&
	python3 "$T/craft_runs.py" "$SCRATCH/t.json" "$SCRATCH/b.json" beta 6.0.0 1 8 0 1.0 &&
	"$FSLAB" import --db "$A" "$SCRATCH/a.json" >/dev/null 2>&1 &&
	"$FSLAB" import --db "$B" "$SCRATCH/b.json" >/dev/null 2>&1 &&
	ok "two stores crafted and imported (24 runs, hosts alpha and beta)" ||
	not_ok "two stores crafted and imported"

check_exit "site without -o exits 2" 2 "$FSLAB" site --db "$A"
W=$SCRATCH/www
out=$("$FSLAB" site -o "$W" --db "$A" --db "$B" 2>&1)
rc=$?
echo "# $out"
[ $rc -eq 0 ] && printf '%s' "$out" | grep -q '^3 pages written, 0 unchanged' &&
	[ -f "$W/index.html" ] && [ -f "$W/.fslab-site" ] &&
	ok "site: 3 pages written (index and two series)" || not_ok "site: 3 pages written" "exit $rc" "$out"
python3 - "$W" <<'PY' && ok "index: the planted step first, a regression of ~10 % with the kernel that changed" || not_ok "index: the planted step as a regression"
import re, sys
s = open(sys.argv[1] + "/index.html").read()
cps = s.split("<h2>Newest change points</h2>")[1].split("</table>")[0]
rows = re.findall(r"<tr><td>(.*?)</td></tr>", cps)
assert rows, cps
first = rows[0]
assert "target x: fsck wall_s" in first, first
assert "all hosts" in first, first
m = re.search(r'class="n worse">\+([0-9.]+)%', first)
assert m and 9 <= float(m.group(1)) <= 11, first
assert "kernel: 6.1.0 -&gt; 6.1.0-new" in first, first
# Only the planted step: x for all hosts and for alpha, nothing on y.
assert len(rows) == 2 and "alpha" in rows[1], rows
assert not any("target y" in r for r in rows), rows
PY
px=$(grep -o 'href="fsck-x-[^"]*"' "$W/index.html" | head -1 | sed 's/href="//;s/"//')
python3 - "$W/$px" <<'PY' && ok "series page: all hosts, alpha and beta rows; 24 points with intervals; the change marked" || not_ok "series page rows" "$px"
import re, sys
s = open(sys.argv[1]).read()
hosts = s.split("</table>")[0]
assert re.search(r"<tr><td>all hosts</td><td class=\"n\">24</td>", hosts), hosts
assert re.search(r"<tr><td>alpha</td><td class=\"n\">16</td>", hosts), hosts
assert re.search(r"<tr><td>beta</td><td class=\"n\">8</td><td class=\"n\">[0-9.]+</td><td class=\"n\">0</td>", hosts), hosts
pts = re.findall(r"<tr(?: class=\"cp\")?><td class=\"n\">\d+</td><td>\d+@\d</td>", s)
assert len(pts) == 24, len(pts)
assert s.count('<tr class="cp">') == 1
assert s.count("<svg") == 3, s.count("<svg")
assert "<h2>Host alpha</h2>" in s and "<h2>Host beta</h2>" in s
PY

out=$("$FSLAB" site -o "$W" --db "$A" --db "$B" 2>&1)
printf '%s' "$out" | grep -q '^0 pages written, 3 unchanged' &&
	ok "building again writes nothing" || not_ok "building again writes nothing" "$out"
"$FSLAB" site -o "$SCRATCH/www2" --db "$A" --db "$B" >/dev/null 2>&1
diff -r "$W" "$SCRATCH/www2" >"$SCRATCH/d.txt" 2>&1 &&
	ok "a second tree is byte-identical (diff -r)" || not_ok "a second tree is byte-identical" "$(head "$SCRATCH/d.txt")"

# One more run of alpha, on y only: y's page and the index change.
cp -a "$W" "$SCRATCH/before"
python3 "$T/craft_runs.py" "$SCRATCH/t.json" "$SCRATCH/c.json" alpha 6.1.0 25 1 17 1.0 y &&
	"$FSLAB" import --db "$A" "$SCRATCH/c.json" >/dev/null 2>&1
out=$("$FSLAB" site -o "$W" --db "$A" --db "$B" 2>&1)
changed=$(diff -rq "$SCRATCH/before" "$W" | grep -c differ)
printf '%s' "$out" | grep -q '^2 pages written, 1 unchanged' && [ "$changed" = 2 ] &&
	cmp -s "$SCRATCH/before/$px" "$W/$px" &&
	ok "one more run rewrites only the touched pages (2 written, 1 unchanged)" ||
	not_ok "one more run rewrites only the touched pages" "$out" "$(diff -rq "$SCRATCH/before" "$W")"

# Export and import round trip: the same site.
"$FSLAB" export --db "$A" -o "$SCRATCH/ea.json.gz" >/dev/null 2>&1 &&
	"$FSLAB" export --db "$B" -o "$SCRATCH/eb.json" >/dev/null 2>&1 &&
	"$FSLAB" import --db "$SCRATCH/a2.db" "$SCRATCH/ea.json.gz" >/dev/null 2>&1 &&
	"$FSLAB" import --db "$SCRATCH/b2.db" "$SCRATCH/eb.json" >/dev/null 2>&1 &&
	"$FSLAB" site -o "$SCRATCH/www3" --db "$SCRATCH/a2.db" --db "$SCRATCH/b2.db" >/dev/null 2>&1 &&
	diff -r "$W" "$SCRATCH/www3" >"$SCRATCH/d3.txt" 2>&1 &&
	ok "the site of exported and imported stores equals the original's" ||
	not_ok "the site of exported and imported stores" "$(head "$SCRATCH/d3.txt")"

# The directory is fslab site's, and nothing in it is followed.
mkdir "$SCRATCH/foreign" && echo keep >"$SCRATCH/foreign/notes.txt"
check_exit "a non-empty directory it did not make is refused (exit 1)" 1 \
	"$FSLAB" site -o "$SCRATCH/foreign" --db "$A"
[ "$(ls -A "$SCRATCH/foreign")" = notes.txt ] && ok "nothing written into it" ||
	not_ok "nothing written into it" "$(ls -A "$SCRATCH/foreign")"
ln -s "$W" "$SCRATCH/link"
check_exit "a symlink as DIR is refused (exit 1)" 1 "$FSLAB" site -o "$SCRATCH/link" --db "$A" --db "$B"
echo victim >"$SCRATCH/victim"
rm "$W/index.html" && ln -s "$SCRATCH/victim" "$W/index.html"
"$FSLAB" site -o "$W" --db "$A" --db "$B" >/dev/null 2>&1 &&
	[ "$(cat "$SCRATCH/victim")" = victim ] && [ -f "$W/index.html" ] && [ ! -L "$W/index.html" ] &&
	ok "a symlink planted at a page is replaced, its target untouched" ||
	not_ok "a symlink planted at a page is replaced" "$(ls -l "$W/index.html")" "$(cat "$SCRATCH/victim")"
touch "$W/stale-00000000.html"
out=$("$FSLAB" site -o "$W" --db "$A" --db "$B" 2>&1)
[ ! -e "$W/stale-00000000.html" ] && printf '%s' "$out" | grep -q ', 1 removed' &&
	ok "a page of no series is removed" || not_ok "a page of no series is removed" "$out"

# Self-contained: every link and source is a page of the directory.
bad=
for f in "$W"/*.html; do
	for ref in $(grep -oE '(href|src)="[^"#][^"]*"' "$f" | sed -E 's/^[a-z]+="//;s/"$//'); do
		[ -f "$W/$ref" ] && [ "${ref#*/}" = "$ref" ] || bad="$bad $(basename "$f"):$ref"
	done
	grep -oE '(https?:)?//[^"<> ]+' "$f" | grep -vqE '^http://www\.w3\.org/(2000/svg|1999/xlink)$' &&
		bad="$bad $(basename "$f"):$(grep -oE '(https?:)?//[^"<> ]+' "$f" | grep -vE 'www\.w3\.org' | head -1)"
	grep -qiE '<(script|link|img|iframe|object|embed)[ >]|@import|url\(' "$f" && bad="$bad $(basename "$f"):tag"
done
[ -z "$bad" ] && ok "every href/src is a page of the directory; no URL but the SVG namespaces" ||
	not_ok "links stay inside the directory" "$bad"

if command -v chromium >/dev/null 2>&1; then
	prof=$(mktemp -d)
	cleanup_add "rm -rf '$prof'"
	pages=$(cd "$W" && ls *.html)
	if timeout 180 python3 "$T/cdp_pages.py" "$(command -v chromium)" "$prof" "$W" $pages >"$SCRATCH/cdp.txt" 2>&1; then
		ok "chromium opens all $(echo $pages | wc -w) pages offline: 0 requests outside DIR, 0 console errors"
	else
		not_ok "chromium opens every page offline" "$(cat "$SCRATCH/cdp.txt")" "$(tail -5 "$prof/chromium.log")"
	fi
	sed 's/^/# /' "$SCRATCH/cdp.txt"
else
	ok "# skip chromium not installed: the links were checked above only"
fi
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
