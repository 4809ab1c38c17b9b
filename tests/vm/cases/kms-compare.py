#!/usr/bin/python3
"""Compares a scanout dump (binary PPM from `drmtool dump`) with a PNG from `dialkiosk render`
(or with another dump, REFERENCE.ppm).

  kms-compare.py SCREEN.ppm REFERENCE.png|REFERENCE.ppm [--max-channel N] [--max-fraction F]

Prints "compare: WxH, differing pixels P (fraction), max channel difference D, mean M" and exits
1 when the sizes differ, more than F of the pixels differ by more than N in any channel, or
the mean channel difference exceeds 0.5. Standard library only (zlib), so it runs in the guest.
"""
import struct
import sys
import zlib


def read_ppm(path):
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    assert fields[0] == b"P6" and fields[3] == b"255", f"{path}: not an 8-bit P6 PPM"
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:pos + 1 + w * h * 3]


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, f"{path}: unsupported PNG"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = w * bpp
    out = bytearray(w * h * 3)
    prev = bytearray(stride)
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
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(w):
            out[(y * w + x) * 3:(y * w + x) * 3 + 3] = line[x * bpp:x * bpp + 3]
        prev = line
    return w, h, bytes(out)


def main():
    args = sys.argv[1:]
    max_channel, max_fraction = 2, 0.001
    if "--max-channel" in args:
        i = args.index("--max-channel")
        max_channel = int(args[i + 1])
        del args[i:i + 2]
    if "--max-fraction" in args:
        i = args.index("--max-fraction")
        max_fraction = float(args[i + 1])
        del args[i:i + 2]
    sw, sh, s = read_ppm(args[0])
    rw, rh, r = (read_ppm if args[1].endswith(".ppm") else read_png)(args[1])
    if (sw, sh) != (rw, rh):
        print(f"compare: size {sw}x{sh} differs from the reference's {rw}x{rh}")
        return 1
    worst, total, bad = 0, 0, 0
    for i in range(0, len(s), 3):
        d = max(abs(s[i] - r[i]), abs(s[i + 1] - r[i + 1]), abs(s[i + 2] - r[i + 2]))
        total += abs(s[i] - r[i]) + abs(s[i + 1] - r[i + 1]) + abs(s[i + 2] - r[i + 2])
        worst = max(worst, d)
        if d > max_channel:
            bad += 1
    n = sw * sh
    mean = total / (3 * n)
    print(f"compare: {sw}x{sh}, differing pixels {bad} ({bad / n:.5f}), max channel difference {worst}, mean {mean:.3f}")
    return 0 if bad / n <= max_fraction and mean <= 0.5 else 1


if __name__ == "__main__":
    sys.exit(main())
