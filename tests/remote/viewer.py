#!/usr/bin/env python3
"""The remote view against a real RFB client (vncdotool from PyPI, run by tests/remote/venv.sh's
python): `dialkiosk run --display virtual:800x480@60` with a `remote:` section on loopback.
Checks: the captured framebuffer (raw and ZRLE) equals `render` of the same configuration;
a drag made by the client selects the item `simulate` predicts for the same samples, and the
frame then captured equals `render --angle` at the rotation the dial rested at; with
`input: false` the same drag changes nothing (no event line, same frame).
Usage: tests/remote/viewer.py [--binary .build/debug/dialkiosk]. Exit 0 when every check holds.
"""
import argparse, json, os, socket, subprocess, sys, tempfile, time
from PIL import Image, ImageChops
from vncdotool import api, rfb, client as vclient
sys.dont_write_bytecode = True  # no __pycache__ in the clone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dkcheck import check, failures, free_port  # noqa: E402
import dkbench  # noqa: E402

ap = argparse.ArgumentParser(description="The remote view against vncdotool (exit 0 when every check holds).")
ap.add_argument("--binary", default=".build/debug/dialkiosk", help="the dialkiosk under test")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dialkiosk-remote-")


class Kiosk(dkbench.Kiosk):
    """`run` on the virtual display; its stdout event lines collected as they come."""
    def __init__(self, config):
        super().__init__([binary, "run", "--display", "virtual:800x480@60", "--config", config],
                         ready="remote view: listening", events=True, name="viewer.py", wait=20)

    def stop(self):
        super().stop(timeout=10)

def config(port, input_on):
    path = f"{work}/kiosk-{port}.yaml"
    with open(path, "w") as f:
        f.write(f"remote:\n  listen: 127.0.0.1:{port}\n  input: {'true' if input_on else 'false'}\n  mark: false\n")
    return path

def render(cfg, out, angle=None):
    cmd = [binary, "render", "--config", cfg, "--size", "800x480", "--out", out]
    if angle is not None:
        cmd += ["--angle", repr(angle)]
    subprocess.run(cmd, check=True, capture_output=True)
    return Image.open(out).convert("RGB")

def capture(port, encoding, name):
    vclient.VNCDoToolClient.encoding = encoding
    c = api.connect(f"127.0.0.1::{port}", timeout=20)
    try:
        c.refreshScreen()
        return c.screen.convert("RGB").copy()
    finally:
        c.disconnect()

def differing(a, b):
    if a.size != b.size:
        return -1
    return sum(ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v else 0).histogram()[255:])

# The drag: down on the ring's left, along its top, still for a while (no fling), then up.
DRAG = [(0.0, "down", 230, 200)] + [(0.05 * i, "motion", 230 + 20 * i, 200 - 8 * i if i < 6 else 152 + 8 * (i - 6)) for i in range(1, 13)]
DRAG += [(0.05 * 12 + 0.5, "up", DRAG[-1][2], DRAG[-1][3])]

def drag_with(c):
    start = time.monotonic()
    for t, kind, x, y in DRAG:
        while time.monotonic() - start < t:
            time.sleep(0.005)
        if kind == "down":
            c.mouseMove(x, y); c.mouseDown(1)
        elif kind == "motion":
            c.mouseMove(x, y)
        else:
            c.mouseUp(1)

def predicted():
    script = "".join(json.dumps({"t": 1.0 + t, "type": kind, "x": x, "y": y}) + "\n" for t, kind, x, y in DRAG)
    out = subprocess.run([binary, "simulate", "--size", "800x480"], input=script, capture_output=True, text=True, check=True)
    return [json.loads(l) for l in out.stdout.splitlines()]

try:
    port = free_port()
    cfg = config(port, True)
    expected = render(cfg, f"{work}/render.png")
    k = Kiosk(cfg)
    try:
        for enc, name in [(rfb.Encoding.RAW, "raw"), (rfb.Encoding.ZRLE, "ZRLE")]:
            shot = capture(port, enc, name)
            n = differing(shot, expected)
            check(n == 0, f"vncdotool's framebuffer ({name}) equals `render` of the same configuration ({n} pixels differ)")
        # The last viewer's going is seen in the kiosk's next turn.
        deadline = time.time() + 5
        while len([e for e in k.events if e.get("event") == "viewer"]) < 4 and time.time() < deadline:
            time.sleep(0.05)
        viewers = [e for e in k.events if e.get("event") == "viewer"]
        check(len(viewers) == 4 and isinstance(viewers[0].get("t"), float)
              and {k: v for k, v in viewers[0].items() if k != "t"} == {"event": "viewer", "state": "connected", "peer": viewers[0]["peer"], "input": True}
              and viewers[0]["peer"].startswith("127.0.0.1:"), f"one connected and one disconnected line per viewer ({viewers[:2]})")

        sim = predicted()
        want = [e for e in sim if e.get("event") == "rest"][-1]
        vclient.VNCDoToolClient.encoding = rfb.Encoding.ZRLE
        c = api.connect(f"127.0.0.1::{port}", timeout=20)
        c.refreshScreen()
        before = len(k.events)
        drag_with(c)
        deadline = time.time() + 10
        while not any(e.get("event") == "rest" for e in k.events[before:]) and time.time() < deadline:
            time.sleep(0.05)
        rests = [e for e in k.events[before:] if e.get("event") == "rest"]
        got = rests[-1] if rests else None
        check(got is not None and got.get("index") == want.get("index"),
              f"the client's drag rests on the item simulate predicts (index {got and got.get('index')}, simulate {want.get('index')})")
        time.sleep(0.3)
        # Incremental: only the damage since the picture before the drag comes.
        try:
            c.refreshScreen(incremental=True)
            shot = c.screen.convert("RGB").copy()
        except Exception as e:
            shot = None
            print(f"no incremental update: {e!r}")
        c.disconnect()
        if got is not None:
            after = render(cfg, f"{work}/after.png", angle=got["rotation"])
            n = differing(shot, after) if shot else -1
            check(n == 0, f"after the drag an incremental update makes the viewer show `render --angle {got['rotation']:.4f}` ({n} pixels differ)")
    finally:
        k.stop()

    port = free_port()
    cfg = config(port, False)
    k = Kiosk(cfg)
    try:
        c = api.connect(f"127.0.0.1::{port}", timeout=20)
        c.refreshScreen()
        first = c.screen.convert("RGB").copy()
        before = len(k.events)
        drag_with(c)
        time.sleep(0.5)
        c.refreshScreen()
        second = c.screen.convert("RGB").copy()
        c.disconnect()
        moved = [e for e in k.events[before:] if e.get("event") != "viewer"]
        check(not moved and differing(first, second) == 0, f"with input: false the same drag changes nothing ({moved[:2]})")
    finally:
        k.stop()
finally:
    api.shutdown()

print("remote view against vncdotool: " + ("all checks hold" if not failures else f"{len(failures)} failed"))
sys.exit(1 if failures else 0)
