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

`--heap` runs the same kiosk under heaptrack (Debian's `heaptrack`, not installed by
install-deps.sh: no CI step uses it) and prints the heap at its peak by allocation site: each
allocation's stack is named by its innermost frame in the kiosk's own modules or in fontconfig,
FreeType or HarfBuzz (a release build carries the symbols heaptrack reads).

`--attach PID` reads a kiosk started elsewhere instead (the VM bed's `run` on vkms, turned by a
uinput finger) until it exits or the file `--until` exists.

Usage: scripts/memory-bench.py [--binary .build/release/dialkiosk] [--size 1920x1080]
       [--items 24] [--seconds 8]
       scripts/memory-bench.py --heap [--binary B] [--size S] [--items N] [--seconds T]
       scripts/memory-bench.py --attach PID [--until FILE]
"""
import json
import math
import os
import re
import subprocess
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


# Frames that name where an allocation is for: the kiosk's modules (mangled Swift names carry
# the module's name with its length) and the C libraries it draws with.
SITE = re.compile(r"(10DialRender|12DialKioskApp|10KioskLoop|13KioskFeatures|12KioskRuntime|18KioskConfiguration|8YAMLTree|"
                  r"14KioskReporting|8DialCore|10KioskSeams|^Fc|^FT_|^hb_|^png_)")


def heap_by_site(command, work, top=14):
    """Runs `command` under heaptrack and prints the heap at its peak by allocation site."""
    data = os.path.join(work, "heap")
    subprocess.run(["heaptrack", "-o", data] + command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    folded = os.path.join(work, "peak.folded")
    subprocess.run(["heaptrack_print", data + ".zst", "-F", folded, "--flamegraph-cost-type", "peak"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    sites = {}
    with open(folded) as f:
        for line in f:
            stack, _, n = line.rstrip().rpartition(" ")
            frames = stack.split(";")
            site = next((fr for fr in reversed(frames) if SITE.search(fr)), "(the Swift runtime and libraries)")
            site = re.sub(r"\s*\(.*$", "", site)
            sites[site] = sites.get(site, 0) + int(n)
    total = sum(sites.values())
    print(f"  heap at its peak (heaptrack): {total / 1048576:.2f} MiB, by allocation site:")
    for site, n in sorted(sites.items(), key=lambda kv: -kv[1])[:top]:
        print(f"    {n / 1048576:7.2f}  {demangled(site)}")


def demangled(name):
    """`swift demangle --simplified` of a Swift symbol when the toolchain is on the PATH."""
    if not name.startswith("$s"):
        return name or "(unnamed)"
    # A generic specialization's simplified name drops its types: the first of the kiosk's own
    # types the mangled name holds (module, type, nested type) says what it was for.
    of, own = "", re.search(r"(?:10DialRender|12DialKioskApp|10KioskLoop)(\d+)(\w+)", name)
    if own:
        length, rest = int(own.group(1)), own.group(2)
        of = " of " + rest[:length]
        nested = re.match(r"C(\d+)(\w+)", rest[length:])
        if nested:
            of += "." + nested.group(2)[:int(nested.group(1))]
    try:
        out = subprocess.run(["swift", "demangle", "--simplified", "--compact", name], capture_output=True, text=True, timeout=20)
        text = out.stdout.strip() or name
        return text + of if "_NativeDictionary" in text or "_ContiguousArrayBuffer" in text else text
    except (OSError, subprocess.TimeoutExpired):
        return name


def main():
    parser = dkbench.arguments(__doc__.splitlines()[0], size="1920x1080")
    parser.add_argument("--items", type=int, default=24, help="numbered items on the ring")
    parser.add_argument("--seconds", type=float, default=8, help="how long the finger turns")
    parser.add_argument("--heap", action="store_true", help="the heap at its peak by allocation site, under heaptrack")
    parser.add_argument("--attach", type=int, help="read this running kiosk instead of starting one")
    parser.add_argument("--until", help="with --attach: stop reading once this file exists")
    args = parser.parse_args()
    if args.attach:
        alive = lambda: os.path.exists(f"/proc/{args.attach}/status")
        # Said on standard error before the first reading: a caller starts the finger after it.
        print(f"memory-bench: reading pid {args.attach}", file=sys.stderr, flush=True)
        r = watch(args.attach, alive, args.until)
        report(f"memory-bench: pid {args.attach}", r)
        return
    width, height = (int(v) for v in args.size.split("x"))
    work = tempfile.mkdtemp(prefix="dialkiosk-memory-")
    script = os.path.join(work, "turn.jsonl")
    turning_script(script, width, height, args.seconds)
    command = [os.path.abspath(args.binary), "run", "--display", f"virtual:{args.size}@60", "--items", str(args.items),
               "--input-script", script, "--exit-after", str(args.seconds + 1.5)]
    if args.heap:
        print(f"memory-bench --heap: {os.path.basename(args.binary)} run --display virtual:{args.size}@60 --items {args.items}")
        heap_by_site(command, work)
        return
    kiosk = dkbench.Kiosk(command, ready=None, name="memory-bench", wait=5)
    r = watch(kiosk.pid, lambda: kiosk.process.poll() is None)
    kiosk.process.wait(timeout=20)
    report(f"memory-bench: {os.path.basename(args.binary)} run --display virtual:{args.size}@60 --items {args.items}, "
           f"a finger turning for {args.seconds:.0f} s", r)


if __name__ == "__main__":
    main()
