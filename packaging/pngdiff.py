#!/usr/bin/env python3
"""pngdiff.py A.png B.png: prints the largest per-channel difference of two PNGs of the same
size (8-bit RGB or RGBA, not interlaced: what `dialkiosk render` writes). Exit 2 when they
cannot be compared. Standard library only (the CI machine has no imaging packages)."""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA without interlace")
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(line)
        previous = line
    return width, height, channels, b"".join(rows)


def main():
    try:
        a, b = decode(sys.argv[1]), decode(sys.argv[2])
    except (OSError, ValueError, IndexError, TypeError, zlib.error) as error:
        print(f"pngdiff: {error}", file=sys.stderr)
        return 2
    if a[:3] != b[:3]:
        print(f"pngdiff: sizes differ: {a[:3]} and {b[:3]}", file=sys.stderr)
        return 2
    print(max((abs(x - y) for x, y in zip(a[3], b[3])), default=0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
