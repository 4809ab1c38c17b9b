#!/usr/bin/env python3
"""Where a kiosk's resident memory goes while a finger turns the ring (prints figures; fails on
nothing but a kiosk that does not start).

`run --display virtual:SIZE@60 --items N` with a touch script of circular drags around the hub
(a finger turning the ring, lifted and put down again, for --seconds). /proc/PID/status is read
every 20 ms: the resident peak (VmHWM) and, at the largest resident reading, its anonymous, file
and shared parts; at that moment /proc/PID/smaps is read and its Rss summed by mapping (the heap
and anonymous mappings together, each library and the binary by name, the display's buffers).

Usage: scripts/memory-bench.py [--binary .build/release/dialkiosk] [--size 1920x1080]
       [--items 24] [--seconds 8]
"""
import json
import math
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import dkbench  # noqa: E402


def turning_script(path, width, height, seconds):
    """Drags of three quarters of a turn around the centre at 120 Hz samples, 0.3 s apart."""
    cx, cy, r = width / 2, height / 2, min(width, height) * 0.38
    t, lines = 0.5, []
    while t < seconds:
        steps = 90
        for i in range(steps + 1):
            a = -math.pi / 2 + 1.5 * math.pi * i / steps
            kind = "down" if i == 0 else ("up" if i == steps else "motion")
            lines.append(json.dumps({"t": round(t, 4), "type": kind,
                                     "x": round(cx + r * math.cos(a), 2), "y": round(cy + r * math.sin(a), 2)}))
            t += 1 / 120
        t += 0.3
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def status(pid):
    figures = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "RssShmem"):
                figures[key] = int(rest.split()[0])
    return figures


def smaps_by_mapping(pid):
    """Rss in kB per mapping name ("[anonymous]" for nameless and heap mappings)."""
    totals, name = {}, None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if "-" in fields[0] and len(fields) >= 5 and not fields[0].endswith(":"):
                path = fields[5] if len(fields) > 5 else ""
                if path in ("", "[heap]"):
                    name = "[anonymous and heap]"
                elif path.startswith("/"):
                    name = os.path.basename(path)
                else:
                    name = " ".join(fields[5:])
            elif fields[0] == "Rss:":
                totals[name] = totals.get(name, 0) + int(fields[1])
    return totals


def main():
    parser = dkbench.arguments(__doc__.splitlines()[0], size="1920x1080")
    parser.add_argument("--items", type=int, default=24, help="numbered items on the ring")
    parser.add_argument("--seconds", type=float, default=8, help="how long the finger turns")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    work = tempfile.mkdtemp(prefix="dialkiosk-memory-")
    script = os.path.join(work, "turn.jsonl")
    turning_script(script, width, height, args.seconds)
    command = [os.path.abspath(args.binary), "run", "--display", f"virtual:{args.size}@60", "--items", str(args.items),
               "--input-script", script, "--exit-after", str(args.seconds + 1.5)]
    kiosk = dkbench.Kiosk(command, ready=None, name="memory-bench", wait=5)
    peak, at_peak, mappings = 0, {}, {}
    while kiosk.process.poll() is None:
        try:
            figures = status(kiosk.pid)
            if figures.get("VmRSS", 0) > peak:
                peak, at_peak = figures["VmRSS"], figures
                mappings = smaps_by_mapping(kiosk.pid)
            hwm = figures.get("VmHWM", 0)
        except (FileNotFoundError, ProcessLookupError):
            break
        time.sleep(0.02)
    kiosk.process.wait(timeout=20)
    mib = lambda kb: kb / 1024
    print(f"memory-bench: {os.path.basename(args.binary)} run --display virtual:{args.size}@60 --items {args.items}, "
          f"a finger turning for {args.seconds:.0f} s")
    print(f"  resident peak (VmHWM)      {mib(hwm):7.1f} MiB")
    print(f"  at the largest reading     {mib(at_peak.get('VmRSS', 0)):7.1f} MiB: anonymous {mib(at_peak.get('RssAnon', 0)):.1f}, "
          f"file {mib(at_peak.get('RssFile', 0)):.1f}, shared {mib(at_peak.get('RssShmem', 0)):.1f}")
    print("  by mapping at that reading (Rss, MiB):")
    for name, kb in sorted(mappings.items(), key=lambda kv: -kv[1])[:16]:
        print(f"    {mib(kb):7.2f}  {name}")
    rest = sum(kb for _, kb in sorted(mappings.items(), key=lambda kv: -kv[1])[16:])
    print(f"    {mib(rest):7.2f}  (the other {max(0, len(mappings) - 16)} mappings)")


if __name__ == "__main__":
    main()
