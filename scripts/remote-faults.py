#!/usr/bin/env python3
"""Fault runs and figures for the remote view (not a test: it prints figures, it does not judge).

Each scenario runs `dialkiosk run --display virtual:WxH@60 --stats` with a `remote:` section on
loopback, the same touch script (`--input-script`: a fling every 2 s, so the dial spins most of
the time) and systemd's watchdog protocol (NOTIFY_SOCKET, WATCHDOG_USEC=2 s, pings received
here), with something different on the remote side:

  none        no viewer (the reference)
  one         one viewer reading every update (Tight)
  sigstop     one viewer process stopped with SIGSTOP once connected (it never reads again)
  eight       8 viewer processes reading every update
  handshake   8 connections that send their version string one byte a second and never finish
  logins      1,000 connections asking for VNC authentication (type 2), which is refused
  midupdate   50 viewers that ask for a whole frame and close after the first 100 bytes of it
  cuttext     one viewer sending a ClientCutText that announces 2 GiB and streams 64 MiB

For each: flips (`stats: since start`), input-to-flip latency p50/p95/max, the longest loop turn
and the longest gap between flips, the longest gap between watchdog pings, peak resident memory
(VmHWM), the kiosk's CPU time, and the journal's refusal lines. Then:

  - CPU time per frame spent on the view: (CPU with one viewer - CPU without) / frames;
  - flip-to-viewer delay p50/p95: 40 `select`s over the control socket at rest, each from the
    flip of the frame the dial rests on (its `rest` line's time, CLOCK_MONOTONIC) to the arrival
    of the viewer's update after it (the last update before the viewer goes quiet);
  - a screenshot's time at 1920x1080: `screenshot` on the control socket to its line, 5 times,
    and the longest loop turn meanwhile.

Usage: scripts/remote-faults.py [--binary .build/release/dialkiosk] [--size 800x480] [--seconds 12]
       [--only NAME,...]
"""
import json, os, re, signal, socket, statistics, subprocess, sys, tempfile, threading, time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import dkbench  # noqa: E402
import dkrfb  # noqa: E402
from dkbench import cpu_seconds as cpu, free_port  # noqa: E402

ap = dkbench.arguments("Fault runs and figures for the remote view (prints figures, judges nothing).", size="800x480")
ap.add_argument("--seconds", type=float, default=12, help="how long each scenario runs")
ap.add_argument("--only", default="", help="comma-separated scenarios to run (and 'delay', 'screenshot'); all when empty")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
W, H = map(int, args.size.split("x"))
work = tempfile.mkdtemp(prefix="dialkiosk-rfaults-")
here = os.path.dirname(os.path.abspath(__file__))


def loop_cpu(pid):
    """The main thread's CPU time: the frame loop's (the view's worker is a thread of its own)."""
    f = open(f"/proc/{pid}/task/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def hwm(pid):
    return dkbench.status_kb(pid, "VmHWM")


def script(seconds):
    """A fling along the ring's top every 2 s (logical pixels of the dial's frame)."""
    cx, cy, r = W / 2, H / 2, min(W, H) * 0.36
    lines, t = [], 0.5
    while t < seconds - 1:
        x0, y = cx - r * 0.5, cy - r
        lines.append({"t": t, "type": "down", "x": x0, "y": y})
        for i in range(1, 9):
            lines.append({"t": t + 0.008 * i, "type": "motion", "x": x0 + i * r / 8, "y": y})
        lines.append({"t": t + 0.072, "type": "up", "x": x0 + r, "y": y})
        t += 2
    path = f"{work}/flings.jsonl"
    with open(path, "w") as f:
        f.write("".join(json.dumps(l) + "\n" for l in lines))
    return path


class Watchdog:
    """systemd's side of sd_notify: a datagram socket; the gaps between WATCHDOG=1 messages."""
    def __init__(self):
        self.path = f"{work}/notify-{time.time_ns()}.sock"
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.s.bind(self.path)
        self.pings = []
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        while True:
            try:
                data = self.s.recv(4096)
            except OSError:
                return
            if b"WATCHDOG=1" in data:
                self.pings.append(time.monotonic())

    def longest_gap(self):
        return max((b - a for a, b in zip(self.pings, self.pings[1:])), default=float("nan"))


class Kiosk(dkbench.Kiosk):
    """`run --stats` with a `remote:` section on loopback and systemd's watchdog protocol."""

    def __init__(self, size, extra_yaml="", input_script=None, seconds=None):
        self.port = free_port()
        control = f"{work}/c-{self.port}.sock"
        cfg = f"{work}/k-{self.port}.yaml"
        with open(cfg, "w") as f:
            f.write(f"remote:\n  listen: 127.0.0.1:{self.port}\n  input: true\n  max_fps: 60\n  mark: false\n{extra_yaml}")
        self.watchdog = Watchdog()
        env = dict(os.environ, NOTIFY_SOCKET=self.watchdog.path, WATCHDOG_USEC="2000000", RUNTIME_DIRECTORY=work)
        cmd = [binary, "run", "--display", f"virtual:{size}@60", "--config", cfg, "--stats", "--control", control]
        if input_script:
            cmd += ["--input-script", input_script]
        if seconds:
            cmd += ["--exit-after", str(seconds)]
        super().__init__(cmd, ready="remote view: listening", env=env, events=True, name="remote-faults")
        self.control = control

    def ask(self, line, want):
        s = socket.socket(socket.AF_UNIX)
        s.connect(self.control)
        s.sendall((line + "\n").encode())
        buf = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return None
            buf += chunk
            while b"\n" in buf:
                one, buf = buf.split(b"\n", 1)
                e = json.loads(one)
                if e.get("event") in want:
                    s.close()
                    return e

    def since_start(self):
        for l in reversed(self.log):
            if l.startswith("stats: since start"):
                return l.strip()
        return ""


def viewer_process(port, encoding="tight"):
    p = subprocess.Popen([sys.executable, os.path.join(here, "..", "tests", "lib", "dkrfb.py"), "127.0.0.1", str(port), encoding],
                         stdout=subprocess.PIPE, text=True)
    p.stdout.readline()  # "ready": the handshake is done
    return p


def scenario(name, seconds, flings):
    """Runs one scenario; returns its figures and the kiosk's last CPU time and peak memory."""
    k = Kiosk(args.size, input_script=flings, seconds=seconds + 1)
    helpers, stop = [], threading.Event()
    usage = {}

    def watch():
        # Read until the process has left: the last reading is its total.
        while k.process.poll() is None:
            try:
                c, r, l = cpu(k.process.pid), hwm(k.process.pid), loop_cpu(k.process.pid)
                usage["cpu"], usage["rss"] = max(c, usage.get("cpu", 0)), max(r, usage.get("rss", 0))
                usage["loop"] = max(l, usage.get("loop", 0))
            except (OSError, ValueError, IndexError):
                break
            time.sleep(0.05)
    threading.Thread(target=watch, daemon=True).start()

    def run_until_done(fn):
        t = threading.Thread(target=fn, daemon=True)
        t.start()
        return t

    if name == "one":
        helpers.append(viewer_process(k.port))
    elif name == "sigstop":
        p = viewer_process(k.port)
        p.send_signal(signal.SIGSTOP)
        helpers.append(p)
    elif name == "eight":
        helpers += [viewer_process(k.port) for _ in range(8)]
    elif name == "handshake":
        def slow():
            socks = [socket.create_connection(("127.0.0.1", k.port)) for _ in range(8)]
            for i in range(12):
                for s in socks:
                    try:
                        s.sendall(b"RFB 003.008\n"[i:i + 1])
                    except OSError:
                        pass
                if stop.wait(1):
                    break
        run_until_done(slow)
    elif name == "logins":
        def logins():
            usage["logins"] = 0
            for _ in range(1000):
                try:
                    s = socket.create_connection(("127.0.0.1", k.port))
                    s.recv(12)
                    s.sendall(b"RFB 003.008\n")
                    s.recv(8)
                    s.sendall(b"\x02")
                    s.recv(64)
                    s.close()
                    usage["logins"] += 1
                except OSError:
                    pass
        run_until_done(logins)
    elif name == "midupdate":
        def mid():
            for _ in range(50):
                try:
                    v = dkrfb.Viewer("127.0.0.1", k.port, 0)
                    v.read(100)
                    v.s.close()
                except (OSError, EOFError):
                    pass
                if stop.wait(0.1):
                    break
        run_until_done(mid)
    elif name == "cuttext":
        def cut():
            v = dkrfb.Viewer("127.0.0.1", k.port, 7)
            v.s.sendall(bytes([6, 0, 0, 0]) + (0x7FFFFFFF).to_bytes(4, "big"))
            chunk = b"x" * (1 << 20)
            for _ in range(64):
                v.s.sendall(chunk)
        run_until_done(cut)
    k.process.wait(seconds + 30)
    time.sleep(0.2)  # the stderr reader's last lines
    stop.set()
    for p in helpers:
        if name == "sigstop":
            p.send_signal(signal.SIGCONT)
        p.kill()
    line = k.since_start()
    m = re.search(r"since start (\d+) flips, longest turn ([0-9.]+) ms, longest flip gap ([0-9.]+) ms, latency p50=([0-9.]+) p95=([0-9.]+) max=([0-9.]+)", line)
    refusals = [l.strip() for l in k.log if "refused" in l]
    figures = {
        "flips": int(m.group(1)) if m else None, "turn": float(m.group(2)) if m else None, "gap": float(m.group(3)) if m else None,
        "p50": float(m.group(4)) if m else None, "p95": float(m.group(5)) if m else None, "max": float(m.group(6)) if m else None,
        "watchdog": k.watchdog.longest_gap(), "refusals": refusals, "line": line,
    }
    return figures, usage


def report(name, f, rss, cpu_s, usage):
    if f["flips"] is None:
        print(f"{name:10s} no stats line: {f['line']!r}")
        return
    print(f"{name:10s} {f['flips']:5d} flips, latency p50 {f['p50']:6.2f} p95 {f['p95']:6.2f} max {f['max']:6.2f} ms, "
          f"longest turn {f['turn']:6.2f} ms, longest flip gap {f['gap']:6.2f} ms, watchdog gap {f['watchdog']:.2f} s, "
          f"peak RSS {rss / 1024:.1f} MiB, CPU {cpu_s:.2f} s (loop thread {usage.get('loop', 0):.2f} s)", flush=True)
    if "logins" in usage:
        print(f"{'':10s} {usage['logins']} refused logins made during the run")
    for r in f["refusals"][:3]:
        print(f"{'':10s} journal: {r}")
    if len(f["refusals"]) > 3:
        print(f"{'':10s} journal: ... {len(f['refusals'])} refusal lines in all")


def measure(name, seconds, flings):
    f, usage = scenario(name, seconds, flings)
    report(name, f, usage.get("rss", 0), usage.get("cpu", 0), usage)
    return f, usage


def flip_to_viewer():
    k = Kiosk(args.size)
    v = dkrfb.Viewer("127.0.0.1", k.port, 7)
    stop = threading.Event()
    threading.Thread(target=v.pump, args=(stop,), daemon=True).start()
    time.sleep(1)
    delays = []
    ids = None
    for i in range(40):
        n0, u0 = len(k.events), len(v.updates)
        k.ask(f"turn {1 if i % 2 == 0 else -1}", ("rest", "selected", "error"))
        deadline = time.time() + 10
        while not any(e.get("event") == "rest" for e in k.events[n0:]) and time.time() < deadline:
            time.sleep(0.01)
        rests = [e for e in k.events[n0:] if e.get("event") == "rest"]
        # The viewer's last update comes after the rest's frame; wait until it is quiet.
        while True:
            n = len(v.updates)
            time.sleep(0.3)
            if len(v.updates) == n:
                break
        if rests and len(v.updates) > u0:
            delays.append(v.updates[-1][0] - rests[-1]["t"])
    stop.set()
    k.process.send_signal(signal.SIGTERM)
    k.process.wait(10)
    delays.sort()
    if delays:
        q = statistics.quantiles(delays, n=20)
        print(f"flip-to-viewer delay on loopback ({W}x{H}, Tight, {len(delays)} rests): p50 {1000 * statistics.median(delays):.1f} ms, "
              f"p95 {1000 * q[18]:.1f} ms, max {1000 * delays[-1]:.1f} ms", flush=True)


def screenshot_time():
    k = Kiosk("1920x1080", extra_yaml="  screenshots: true\n")
    time.sleep(1)
    times = []
    for _ in range(5):
        t = time.monotonic()
        e = k.ask("screenshot", ("screenshot", "error"))
        times.append(time.monotonic() - t)
        if e.get("event") != "screenshot":
            print(f"screenshot: {e}")
            break
    k.process.send_signal(signal.SIGTERM)
    k.process.wait(10)
    turn = re.search(r"longest turn ([0-9.]+) ms", k.since_start())
    size = os.path.getsize(f"{work}/screenshot.png")
    print(f"screenshot at 1920x1080: median {1000 * statistics.median(times):.0f} ms, max {1000 * max(times):.0f} ms from the line "
          f"to its answer (5 in a row, PNG {size // 1024} KiB); the longest loop turn meanwhile {turn.group(1) if turn else '?'} ms", flush=True)


names = ["none", "one", "sigstop", "eight", "handshake", "logins", "midupdate", "cuttext"]
if args.only:
    names = [n for n in names if n in args.only.split(",")]
flings = script(args.seconds)
print(f"remote view fault runs: {W}x{H}@60 virtual display, {args.seconds:.0f} s each, a fling every 2 s, --stats, watchdog 2 s", flush=True)
results = {}
for name in names:
    results[name] = measure(name, args.seconds, flings)
if "none" in results and "one" in results:
    (f0, r0), (f1, r1) = results["none"], results["one"]
    if f1["flips"]:
        print(f"CPU per frame spent on the view (one Tight viewer): {1000 * (r1['cpu'] - r0['cpu']) / f1['flips']:.2f} ms "
              f"({r1['cpu']:.2f} s with, {r0['cpu']:.2f} s without, {f1['flips']} frames)", flush=True)
if not args.only or "delay" in args.only:
    flip_to_viewer()
if not args.only or "screenshot" in args.only:
    screenshot_time()
