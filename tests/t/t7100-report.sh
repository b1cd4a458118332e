#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fslab report writes one self-contained HTML file (no network, inline
# SVG charts drawn by cairo) that headless Chromium loads without
# console errors and renders to a non-blank page.  The screenshot's path
# is printed for CI to keep as an artifact.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cbdata.sh"
need_loop
need_cmd python3 chromium mkfs.ext4
scratch_dir
need_small_cbdata

check "report --help" "$FSLAB" report --help
check_exit "report without -o exits 2" 2 "$FSLAB" report --db "$DB"

cb_two_target_run rep "two-target run"

html=$SCRATCH/report.html
check "report rep -o FILE" "$FSLAB" report rep --db "$DB" -o "$html"
[ -s "$html" ] && ok "report file written" || not_ok "report file written"
nsvg=$(grep -c '<svg' "$html")
[ "$nsvg" -ge 4 ] && ok "inline SVG charts ($nsvg)" || not_ok "inline SVG charts" "got $nsvg"
missing=
for want in '<!DOCTYPE html>' '<style>' 'Average ext4 results' 'roll-up' \
	'95% CI of change' '<h3>summary initial-create.avg_MiB/s [MiB/s]' \
	'<h3>read wall_s [s]'; do
	grep -qF -- "$want" "$html" || missing="$missing|$want"
done
[ -z "$missing" ] && ok "report has the classic layout, tables and roll-up" ||
	not_ok "report has the classic layout, tables and roll-up" "missing: $missing"
# Self-contained: nothing to fetch (SVG namespace URIs are not fetches,
# nor are the PNG data URIs of traced figures).
if sed -E 's/<img [^>]*src="data:image\/png;base64,[^"]*"[^>]*>//g' "$html" |
	grep -qiE '<(link|img|iframe|object|embed|script)[ >]|src=|@import|url\((http|//)'; then
	not_ok "report is self-contained" "$(grep -oiE '<(link|img|script)[^>]*|src=[^ ]*|url\([^)]*' "$html" | head -3)"
else
	ok "report is self-contained"
fi
if python3 - "$html" <<'PY'
import re, sys
from collections import Counter
s = open(sys.argv[1]).read()
ids = Counter(re.findall(r'\bid="([^"]+)"', s))
dup = [k for k, v in ids.items() if v > 1]
assert not dup, dup[:5]
for ref in re.findall(r'href="#([^"]+)"', s):
    assert ref in ids, ref
PY
then ok "chart ids unique across the page"; else not_ok "chart ids unique across the page"; fi

# Load it with a probe script: it must run, and the console stay quiet.
probe=$SCRATCH/probe.html
sed 's|</body>|<script>document.title = "ok";</script></body>|' "$html" >"$probe"
prof=$(mktemp -d)
cleanup_add "rm -rf '$prof'"
timeout 120 chromium --headless --no-sandbox --disable-gpu \
	--user-data-dir="$prof" --enable-logging=stderr --v=0 \
	--dump-dom "file://$probe" >"$SCRATCH/dom.html" 2>"$SCRATCH/chromium.log"
grep -q '<title>ok</title>' "$SCRATCH/dom.html" &&
	ok "chromium loads the report and runs the probe" ||
	not_ok "chromium loads the report and runs the probe" "$(tail -5 "$SCRATCH/chromium.log")"
if grep -qE 'CONSOLE|Uncaught|net::ERR' "$SCRATCH/chromium.log"; then
	not_ok "no console errors" "$(grep -E 'CONSOLE|Uncaught|net::ERR' "$SCRATCH/chromium.log" | head -5)"
else
	ok "no console errors"
fi

# The answer first (issue 34): in the page the browser built, the first
# table is the summary, listing every key metric of every configuration
# with the verdict compare gives it; the command line wraps instead of
# needing horizontal scrolling (a narrow window).
probe2=$SCRATCH/probe2.html
sed 's|</body>|<script>var w = true; document.querySelectorAll("section.provenance pre").forEach(function (p) { if (p.scrollWidth > p.clientWidth + 1) w = false; }); document.title = "first=" + document.querySelector("table").id + " wrap=" + w;</script></body>|' "$html" >"$probe2"
timeout 120 chromium --headless --no-sandbox --disable-gpu \
	--user-data-dir="$prof" --window-size=640,800 \
	--dump-dom "file://$probe2" >"$SCRATCH/dom2.html" 2>/dev/null
"$FSLAB" compare rep --db "$DB" --format json >"$SCRATCH/rep.json"
if python3 - "$SCRATCH/dom2.html" "$SCRATCH/rep.json" <<'PY'
import json, sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.cur, self.cell, self.title, self.in_title = [], None, None, "", False
    def handle_starttag(self, tag, a):
        if tag == "table":
            self.tables.append({"id": dict(a).get("id"), "rows": []})
        elif tag == "tr" and self.tables:
            self.cur = []
            self.tables[-1]["rows"].append(self.cur)
        elif tag in ("td", "th") and self.cur is not None:
            self.cell = ""
        elif tag == "title":
            self.in_title = True
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.cur.append(self.cell.strip())
            self.cell = None
        elif tag == "title":
            self.in_title = False
    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d
        if self.in_title:
            self.title += d

p = P()
p.feed(open(sys.argv[1]).read())
assert p.title.strip() == "first=summary wrap=true", p.title
first = p.tables[0]
assert first["id"] == "summary", first["id"]
head = first["rows"][0]
assert head[1].startswith("key metric") and head[-1] == "verdict", head
rows = {(r[1], r[2]): r for r in first["rows"][1:]}
d = json.load(open(sys.argv[2]))
n = 0
for w in d["workloads"]:
    for r in w["rows"]:
        if not r["key"]:
            continue
        for g in r["groups"]:
            k = ("%s %s [%s]" % (r["phase"], r["metric"], r["unit"]), g["group"])
            assert k in rows, k
            v = g.get("vs_baseline", {}).get("verdict", "baseline")
            assert v in rows[k][-1], (k, v, rows[k][-1])
            n += 1
    assert any(x[1].startswith("roll-up") for x in first["rows"]), "no roll-up"
assert n >= 10, n
PY
then ok "browser: the summary is the first table, every key metric with its verdict; lines wrap"
else not_ok "browser: the summary is the first table, every key metric with its verdict; lines wrap"; fi

png=$SCRATCH/report.png
rm -rf "$prof"/*
timeout 120 chromium --headless --no-sandbox --disable-gpu \
	--user-data-dir="$prof" --screenshot="$png" --window-size=1280,2000 \
	"file://$html" >/dev/null 2>&1
echo "# screenshot: $png"
# Decode the PNG by hand (zlib + the five scanline filters) and count
# pixels that are not near-white.
if frac=$(python3 "$(dirname "$0")/png_busy.py" "$png"); then ok "screenshot is not blank ($frac of pixels drawn)"
else not_ok "screenshot is not blank" "fraction '$frac'" "png: $png"; fi
[ -n "${FSLAB_ARTIFACTS:-}" ] && cp "$png" "$html" "$FSLAB_ARTIFACTS"/ 2>/dev/null

# Across runs, and to stdout.
# (--min-wall 0: these phases are short, and the point is the verdict)
"$FSLAB" report rep rep --db "$DB" --min-wall 0 -o - >"$SCRATCH/aa.html" 2>"$SCRATCH/aa.err"
grep -qE "no significant change|can&#39;t tell|can't tell|equivalent" "$SCRATCH/aa.html" && ! grep -q 'REGRESSION</td>' "$SCRATCH/aa.html" &&
	! grep -q '>same' "$SCRATCH/aa.html" &&
	ok "A/A report: no significant change, equivalent or can't tell, never same" ||
	not_ok "A/A report: no significant change, equivalent or can't tell, never same" "$(cat "$SCRATCH/aa.err")"
nothing_left_under "$SCRATCH" && ok "no mount or loop device left" ||
	not_ok "no mount or loop device left" "$(grep "$SCRATCH" /proc/mounts)"
finish
