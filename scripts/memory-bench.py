#!/usr/bin/env python3
"""Where a kiosk's resident memory goes while a finger turns the ring (prints figures; fails on
nothing but a kiosk that does not start).

`run --display virtual:SIZE@60 --items N` with a touch script of circular drags around the hub
(a finger turning the ring, lifted and put down again, for --seconds). /proc/PID/status is read
every 20 ms: the resident peak (VmHWM) and, at the largest resident reading, its anonymous, file
and shared parts; at that moment /proc/PID/smaps is read and its Rss summed by mapping (the heap
and anonymous mappings together, each library and the binary by name, the display's buffers).
Scanout buffers mapped from /dev/dri are counted at their mapped size: vkms's shmem helper maps
them as raw page frames, which the kernel counts as 0 kB resident however much is written.

`--attach PID` reads a kiosk started elsewhere instead (the VM bed's `run` on vkms, turned by a
uinput finger) until it exits or the file `--until` exists.

Usage: scripts/memory-bench.py [--binary .build/release/dialkiosk] [--size 1920x1080]
       [--items 24] [--seconds 8]
       scripts/memory-bench.py --attach PID [--until FILE]
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
    """Rss in kB per mapping name ("[anonymous and heap]" for nameless and heap mappings), and the
    mapped size and Rss of the scanout buffers mapped from /dev/dri."""
    totals, name, scanout, size = {}, None, {"size": 0, "rss": 0}, 0
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if "-" in fields[0] and len(fields) >= 5 and not fields[0].endswith(":"):
                path = fields[5] if len(fields) > 5 else ""
                if path in ("", "[heap]"):
                    name = "[anonymous and heap]"
                elif path.startswith("/dev/dri/"):
                    name = "scanout (" + path + ")"
                elif path.startswith("/"):
                    name = os.path.basename(path)
                else:
                    name = " ".join(fields[5:])
            elif fields[0] == "Size:":
                size = int(fields[1])
                if name and name.startswith("scanout"):
                    scanout["size"] += size
            elif fields[0] == "Rss:":
                totals[name] = totals.get(name, 0) + int(fields[1])
                if name and name.startswith("scanout"):
                    scanout["rss"] += int(fields[1])
    return totals, scanout


def rollup(pid):
    """/proc/PID/smaps_rollup's totals in kB (Rss, Pss, Anonymous, ...)."""
    figures = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 2 and fields[0].endswith(":") and fields[1].isdigit():
                    figures[fields[0][:-1]] = int(fields[1])
    except OSError:
        pass
    return figures


def watch(pid, running, until=None):
    """Reads `pid`'s figures every 20 ms while `running()` and `until` does not exist: the
    resident peak, the figures at the largest reading and the mappings then."""
    peak, hwm, at_peak, mappings, scanout, roll = 0, 0, {}, {}, {"size": 0, "rss": 0}, {}
    while running() and not (until and os.path.exists(until)):
        try:
            figures = status(pid)
            if figures.get("VmRSS", 0) > peak:
                peak, at_peak = figures["VmRSS"], figures
                mappings, scanout = smaps_by_mapping(pid)
                roll = rollup(pid)
            hwm = max(hwm, figures.get("VmHWM", 0))
        except (FileNotFoundError, ProcessLookupError):
            break
        time.sleep(0.02)
    return {"hwm": hwm, "at_peak": at_peak, "mappings": mappings, "scanout": scanout, "rollup": roll}


def report(title, r):
    mib = lambda kb: kb / 1024
    at_peak, scanout = r["at_peak"], r["scanout"]
    print(title)
    print(f"  resident peak (VmHWM)      {mib(r['hwm']):7.1f} MiB")
    # Scanout pages the kernel does not count as resident (vkms: page frames), added at their size.
    uncounted = max(0, scanout["size"] - scanout["rss"])
    if scanout["size"]:
        print(f"  scanout buffers mapped     {mib(scanout['size']):7.1f} MiB ({mib(scanout['rss']):.1f} MiB of it counted resident)")
        print(f"  resident peak with them    {mib(r['hwm'] + uncounted):7.1f} MiB")
    print(f"  at the largest reading     {mib(at_peak.get('VmRSS', 0)):7.1f} MiB: anonymous {mib(at_peak.get('RssAnon', 0)):.1f}, "
          f"file {mib(at_peak.get('RssFile', 0)):.1f}, shared {mib(at_peak.get('RssShmem', 0)):.1f}")
    if r["rollup"]:
        print(f"  smaps_rollup then          Rss {mib(r['rollup'].get('Rss', 0)):.1f}, Pss {mib(r['rollup'].get('Pss', 0)):.1f} MiB")
    print("  by mapping at that reading (Rss, MiB):")
    ranked = sorted(r["mappings"].items(), key=lambda kv: -kv[1])
    for name, kb in ranked[:16]:
        print(f"    {mib(kb):7.2f}  {name}")
    rest = sum(kb for _, kb in ranked[16:])
    print(f"    {mib(rest):7.2f}  (the other {max(0, len(ranked) - 16)} mappings)")


def main():
    parser = dkbench.arguments(__doc__.splitlines()[0], size="1920x1080")
    parser.add_argument("--items", type=int, default=24, help="numbered items on the ring")
    parser.add_argument("--seconds", type=float, default=8, help="how long the finger turns")
    parser.add_argument("--attach", type=int, help="read this running kiosk instead of starting one")
    parser.add_argument("--until", help="with --attach: stop reading once this file exists")
    args = parser.parse_args()
    if args.attach:
        alive = lambda: os.path.exists(f"/proc/{args.attach}/status")
        r = watch(args.attach, alive, args.until)
        report(f"memory-bench: pid {args.attach}", r)
        return
    width, height = (int(v) for v in args.size.split("x"))
    work = tempfile.mkdtemp(prefix="dialkiosk-memory-")
    script = os.path.join(work, "turn.jsonl")
    turning_script(script, width, height, args.seconds)
    command = [os.path.abspath(args.binary), "run", "--display", f"virtual:{args.size}@60", "--items", str(args.items),
               "--input-script", script, "--exit-after", str(args.seconds + 1.5)]
    kiosk = dkbench.Kiosk(command, ready=None, name="memory-bench", wait=5)
    r = watch(kiosk.pid, lambda: kiosk.process.poll() is None)
    kiosk.process.wait(timeout=20)
    report(f"memory-bench: {os.path.basename(args.binary)} run --display virtual:{args.size}@60 --items {args.items}, "
           f"a finger turning for {args.seconds:.0f} s", r)


if __name__ == "__main__":
    main()
