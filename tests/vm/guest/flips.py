#!/usr/bin/python3
"""Counts page flips from outside the program under test, through the kernel's DRM tracepoints.

Every page flip requested with DRM_MODE_PAGE_FLIP_EVENT ends in a vblank event delivered to the
client, which fires the tracepoint drm:drm_vblank_event_delivered. With the trace clock set to
"mono", the trace timestamps are CLOCK_MONOTONIC seconds, the clock of the flip events themselves.
(drmWaitVBlank events also fire it; the programs under test do not request them.) Commits that
ask for no event get a kernel-internal one (drm_atomic_helper_setup_commit) with no file: those
(modesets, the console's updates) are not flips a client asked for and are not counted.

  flips.py start             mount tracefs if needed, clear the buffer, enable the tracepoint
  flips.py stop              disable it (the buffer is kept for report)
  flips.py report [--from T] [--to T] [--crtc N]
                             print JSON: {"total": n, "first": t, "last": t, "per_second":
                             [counts of each whole second from --from (default: the first
                             event)]}; T in CLOCK_MONOTONIC seconds
  flips.py now               print CLOCK_MONOTONIC seconds (to mark windows from a shell)
  flips.py raw               print the tracepoint's lines as recorded (for debugging)
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

TRACING = "/sys/kernel/tracing"
EVENT = "events/drm/drm_vblank_event_delivered/enable"
# e.g. "  <idle>-0  [001] d.h2.  123.456789: drm_vblank_event_delivered: file=..., crtc=0, seq=42"
LINE = re.compile(r"\s(\d+\.\d+): drm_vblank_event_delivered: file=([^,]*), crtc=(\d+)")
NO_FILE = re.compile(r"^(\(null\)|0+)$")


def write(name, value):
    with open(os.path.join(TRACING, name), "w") as f:
        f.write(value)


def ensure_tracefs():
    if not os.path.exists(os.path.join(TRACING, "trace")):
        subprocess.run(["mount", "-t", "tracefs", "tracefs", TRACING], check=True)


def start():
    ensure_tracefs()
    write(EVENT, "0")
    write("trace_clock", "mono")
    write("buffer_size_kb", "4096")  # per CPU; ~30 k events, minutes of 60 Hz flips
    write("trace", "")  # truncating clears the buffer
    write(EVENT, "1")
    write("tracing_on", "1")


def stop():
    write(EVENT, "0")


def events(crtc=None):
    with open(os.path.join(TRACING, "trace")) as f:
        for line in f:
            m = LINE.search(line)
            if m and not NO_FILE.match(m.group(2)) and (crtc is None or int(m.group(3)) == crtc):
                yield float(m.group(1))


def report(t_from, t_to, crtc):
    times = sorted(t for t in events(crtc)
                   if (t_from is None or t >= t_from) and (t_to is None or t <= t_to))
    base = t_from if t_from is not None else (times[0] if times else 0.0)
    end = t_to if t_to is not None else (times[-1] if times else base)
    per_second = [0] * max(1, int(end - base) + (0 if t_to is not None else 1))
    for t in times:
        i = int(t - base)
        if i < len(per_second):
            per_second[i] += 1
    return {"total": len(times), "first": times[0] if times else None,
            "last": times[-1] if times else None, "per_second": per_second}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["start", "stop", "report", "now", "raw"])
    ap.add_argument("--from", dest="t_from", type=float)
    ap.add_argument("--to", dest="t_to", type=float)
    ap.add_argument("--crtc", type=int, help="CRTC index (pipe) to count, default all")
    args = ap.parse_args()
    try:
        if args.command == "start":
            start()
        elif args.command == "stop":
            stop()
        elif args.command == "raw":
            with open(os.path.join(TRACING, "trace")) as f:
                sys.stdout.write(f.read())
        elif args.command == "now":
            print(f"{time.clock_gettime(time.CLOCK_MONOTONIC):.6f}")
        else:
            print(json.dumps(report(args.t_from, args.t_to, args.crtc)))
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"flips: {args.command}: {err}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
