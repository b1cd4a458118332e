#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# png_busy.py FILE [MIN]: decode an 8-bit RGB(A) PNG by hand (zlib and
# the five scanline filters; no imaging library needed) and print the
# fraction of pixels that are not near-white; exit 1 if it is not above
# MIN (default 0.01), i.e. the screenshot is blank.
# png_busy.py --hues FILE: print how many pixels are clearly red and
# clearly blue (the trace scatter's writes and reads).
import struct, sys, zlib
hues = sys.argv[1] == "--hues"
if hues:
    del sys.argv[1]
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
busy = red = blue = 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
            line[i] = (line[i] + pr) & 255
    for x in range(0, stride, bpp):
        r, g, b = line[x], line[x + 1], line[x + 2]
        if min(r, g, b) < 230:
            busy += 1
        if r > g + 80 and r > b + 80:
            red += 1
        if b > r + 60 and b > g + 40:
            blue += 1
    prev = line
if hues:
    print(red, blue)
    sys.exit(0)
frac = busy / (w * h)
print(f"{frac:.4f}")
sys.exit(0 if frac > (float(sys.argv[2]) if len(sys.argv) > 2 else 0.01) else 1)
