#!/usr/bin/python3
"""Compares a scanout dump (binary PPM from `drmtool dump`) with a PNG from `dialkiosk render`
(or with another dump, REFERENCE.ppm).

  kms-compare.py SCREEN.ppm REFERENCE.png|REFERENCE.ppm [--max-channel N] [--max-fraction F]

Prints "compare: WxH, differing pixels P (fraction), max channel difference D, mean M" and exits
1 when the sizes differ, more than F of the pixels differ by more than N in any channel, or
the mean channel difference exceeds 0.5. Standard library only (tests/lib/dkimage.py), so it runs in the guest.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the clone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import dkimage  # noqa: E402  (the one PNG and PPM reader of the Python tools)


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
    sw, sh, s = dkimage.rgb(dkimage.read_ppm(args[0]))
    rw, rh, r = dkimage.rgb(dkimage.read_image(args[1]))
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
