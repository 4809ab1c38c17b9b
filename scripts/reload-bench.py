#!/usr/bin/env python3
"""Reload benchmark for `run` (prints figures; fails on nothing but a kiosk that does not start).

Starts `dialkiosk run` on a virtual display with a control socket and a ten-item menu, then
reloads it N times through the socket, each time with new labels (so a new painter is built).
For each reload it prints how long the loop stood still: the longest answer to a cheap command
sent every 2 ms for 1.5 s after the reload. At checkpoints it prints the process's anonymous
memory (RssAnon) and resident peak (VmHWM) from /proc.

Usage: scripts/reload-bench.py [--binary .build/release/dialkiosk] [--size 1920x1080] [--reloads 20]
"""
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import dkbench  # noqa: E402
from dkbench import Control, Kiosk, status_kb  # noqa: E402

LABELS = ["Espresso", "Cappuccino", "Flat white", "Latte", "Mocha",
          "Americano", "Tea", "Chocolate", "Water", "Juice"]


def write_menu(path, generation):
    with open(path, "w") as f:
        f.write("items:\n" + "".join(f"  - id: i{j}\n    label: {label} {generation}\n"
                                     for j, label in enumerate(LABELS)))


def main():
    parser = dkbench.arguments("Figures for `run`'s reloads: the loop's stand-still per reload and the memory.", size="1920x1080")
    parser.add_argument("--reloads", type=int, default=20, help="reloads to make, each with new labels")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="dialkiosk-reload-")
    config, control = os.path.join(work, "menu.yaml"), os.path.join(work, "control.sock")
    write_menu(config, 0)
    kiosk = Kiosk([args.binary, "run", "--display", f"virtual:{args.size}@60", "--control", control, "--config", config],
                  control=control, name="reload-bench")
    time.sleep(1.5)
    client = Control(control)
    for _ in range(20):
        client.round_trip()
    print(f"reload-bench: {args.size}, start: anon {status_kb(kiosk.pid, 'RssAnon')} kB")
    stalls = []
    checkpoints = {1, 2, 5, 10, 20, 40, 60, 80, 100, args.reloads}
    for n in range(1, args.reloads + 1):
        write_menu(config, n)
        client.send("reload")
        start, longest = time.monotonic(), 0.0
        while time.monotonic() - start < 1.5:
            longest = max(longest, client.round_trip() or 10.0)
            time.sleep(0.002)
        stalls.append(longest * 1000)
        if n in checkpoints:
            print(f"reload-bench: after {n} reloads: anon {status_kb(kiosk.pid, 'RssAnon')} kB, "
                  f"resident peak {status_kb(kiosk.pid, 'VmHWM')} kB")
    kiosk.stop()
    applied = "".join(kiosk.log).count("reload: ")
    stalls.sort()
    print(f"reload-bench: {applied} reloads applied; loop stood still per reload (ms): "
          f"median {stalls[len(stalls) // 2]:.1f}, max {stalls[-1]:.1f}")


if __name__ == "__main__":
    main()
