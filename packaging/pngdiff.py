#!/usr/bin/env python3
"""pngdiff.py A.png B.png: prints the largest per-channel difference of two PNGs of the same
size (8-bit RGB or RGBA, not interlaced: what `dialkiosk render` writes). Exit 2 when they
cannot be compared. Standard library only (the CI machine has no imaging packages)."""
import os
import sys
import zlib

sys.dont_write_bytecode = True  # no __pycache__ in the clone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import dkimage  # noqa: E402  (the one PNG reader of the Python tools)


def decode(path):
    return dkimage.read_png(path)


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
