#!/usr/bin/env python3
"""Figures for the remote view (not a test): `run` on a virtual display with a `remote:` section
and one viewer (a minimal RFB client here, stdlib only, that asks for the next update as soon as
one arrives, like vncdotool and noVNC). The viewer flicks the dial (input: true) and counts, per
update of the spin, the bytes on the wire against the damaged bytes (the updated rectangles'
pixels at 4 bytes), for each encoding; then, with the dial at rest and the viewer still
connected and asking, the bytes it receives and the kiosk's wake-ups (context switches) over
--idle seconds (goal: 0 and 0); and the kiosk's CPU time per frame with and without a viewer.
Usage: scripts/remote-bench.py [--binary .build/release/dialkiosk] [--size 1920x1080] [--idle 60]
"""
import os, signal, sys, tempfile, threading, time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import dkbench  # noqa: E402
import dkrfb  # noqa: E402  (the benchmarks' minimal RFB viewer)
from dkbench import cpu_seconds as cpu, free_port  # noqa: E402

ap = dkbench.arguments("Figures for the remote view: bytes per update per encoding, idle wake-ups, CPU per frame.", size="1920x1080")
ap.add_argument("--idle", type=float, default=60, help="seconds at rest with the viewer connected")
ap.add_argument("--encodings", default="tight,zrle,raw", help="comma-separated RFB encodings to measure, in order")
args = ap.parse_args()
W, H = map(int, args.size.split("x"))
work = tempfile.mkdtemp(prefix="dialkiosk-rbench-")
ENC = dkrfb.ENCODINGS

def switches(pid):
    n = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        for line in open(f"/proc/{pid}/task/{task}/status"):
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                n += int(line.split()[1])
    return n

class Kiosk(dkbench.Kiosk):
    """`run --stats` with a `remote:` section on loopback (input: true)."""

    def __init__(self, port, viewer=True):
        cfg = f"{work}/k.yaml"
        with open(cfg, "w") as f:
            f.write(f"remote:\n  listen: 127.0.0.1:{port}\n  input: true\n  max_fps: 60\n  mark: false\n")
        super().__init__([args.binary, "run", "--display", f"virtual:{W}x{H}@60", "--config", cfg, "--stats",
                          "--control", f"{work}/c.sock"], ready="remote view: listening", events=True, name="remote-bench")

    def stop(self):
        self.process.send_signal(signal.SIGTERM); self.process.wait(10)

def Viewer(port, encoding):
    return dkrfb.Viewer("127.0.0.1", port, encoding)

def flick(v):
    # A fast flick along the ring's top, left to right: the dial spins on for seconds.
    cx, cy, r = W // 2, H // 2, int(min(W, H) * 0.36)
    v.pointer(1, cx - r // 2, cy - r)
    for i in range(1, 9):
        time.sleep(0.008); v.pointer(1, cx - r // 2 + i * r // 8, cy - r)
    v.pointer(0, cx + r // 2, cy - r)

def run(encoding):
    port = free_port(); k = Kiosk(port)
    v = Viewer(port, ENC[encoding]); stop = threading.Event()
    t = threading.Thread(target=v.pump, args=(stop,), daemon=True); t.start()
    time.sleep(1.0)
    first = len(v.updates); before_cpu = cpu(k.pid); n0 = len(k.events)
    flick(v)
    while not any(e.get("event") == "rest" for e in k.events[n0:]):
        time.sleep(0.02)
    time.sleep(0.2)
    spin = v.updates[first:]
    spin_cpu = cpu(k.pid) - before_cpu
    frames = sum(1 for l in k.log if l.startswith("stats:")) and None
    wire = sum(u[1] for u in spin); damaged = sum(u[2] for u in spin)
    rest = [e for e in k.events[n0:] if e.get("event") == "rest"][-1]
    print(f"{encoding:5s} {W}x{H} spin: {len(spin)} updates, {wire / max(1, len(spin)) / 1024:.0f} KiB on the wire per update, "
          f"{damaged / max(1, len(spin)) / 1024:.0f} KiB damaged per update ({100 * wire / max(1, damaged):.1f}%), "
          f"kiosk CPU {1000 * spin_cpu / max(1, len(spin)):.1f} ms per update, {rest.get('frames')} frames queued by the rest", flush=True)
    if encoding == args.encodings.split(",")[0]:
        got = len(v.updates); sw = switches(k.pid)
        time.sleep(args.idle)
        print(f"idle {args.idle:.0f} s with the viewer connected and asking: {len(v.updates) - got} updates, "
              f"{sum(u[1] for u in v.updates[got:])} bytes, {switches(k.pid) - sw} kiosk wake-ups (context switches)", flush=True)
    stop.set(); k.stop()

def baseline():
    """The same flick with no viewer reading frames (a control-socket-free spin: a viewer flicks and leaves)."""
    port = free_port(); k = Kiosk(port)
    v = Viewer(port, 0); v.update(); n0 = len(k.events); c0 = cpu(k.pid)
    flick(v); v.s.close()
    while not any(e.get("event") == "rest" for e in k.events[n0:]):
        time.sleep(0.02)
    c = cpu(k.pid) - c0
    rests = [e for e in k.events[n0:] if e.get("event") == "rest"]
    print(f"no viewer watching: the same flick, {rests[-1].get('frames', '?')} frames queued by the rest, kiosk CPU {1000 * c:.0f} ms for the spin", flush=True)
    k.stop()

for e in args.encodings.split(","):
    run(e)
baseline()
