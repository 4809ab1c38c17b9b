#!/usr/bin/env python3
"""Screenshots, the viewer count and the on-glass mark, against real clients: `dialkiosk run
--display virtual:800x480@60` with a `remote:` section, its control socket, Debian's mosquitto
(mosquitto_pub/mosquitto_sub) and vncdotool (run by tests/remote/venv.sh's python).
Checks:
- screenshots: false: `screenshot` on the control socket gets an error line saying they are off;
- screenshots: true: one `screenshot` line (path in $RUNTIME_DIRECTORY, width, height, sha256 of
  the file), the PNG equals `render` (also with `--rotate 90`: equals `render --rotate 90`);
- `<base>/set/screenshot` PRESS: the PNG's bytes on `<base>/screenshot` (not retained) equal the
  file, `<base>/state` gains screenshot_at; discovery has the image, button, timestamp sensor
  and the "viewed" binary_sensor;
- a viewer connected: `viewers` 1 in the state and the mark on the glass (a screenshot differs
  from render only inside a top-right square of at most 2% of the frame; the viewer's own
  framebuffer equals the screenshot); after it left: 0 and no mark;
- `screen dim`: the viewer and the screenshot get the dim frame (render with channels halved);
  `screen off`: black.
Usage: tests/remote/screenshot.py [--binary .build/debug/dialkiosk]. Exit 0 when every check holds.
"""
import argparse, hashlib, io, json, os, socket, subprocess, sys, tempfile, time
from PIL import Image, ImageChops
from vncdotool import api, client as vclient
sys.dont_write_bytecode = True  # no __pycache__ in the clone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dkcheck import check, failures, free_port  # noqa: E402
import dkbench  # noqa: E402

ap = argparse.ArgumentParser(description="Screenshots, the viewer count and the on-glass mark against real clients (exit 0 when every check holds).")
ap.add_argument("--binary", default=".build/debug/dialkiosk", help="the dialkiosk under test")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dialkiosk-shot-")


class Kiosk(dkbench.Kiosk):
    """`run` on the virtual display with its control socket and its own runtime directory."""
    def __init__(self, config, name, extra=()):
        control = f"{work}/{name}.sock"
        self.runtime = f"{work}/{name}-run"
        os.makedirs(self.runtime)
        env = dict(os.environ, RUNTIME_DIRECTORY=self.runtime)
        super().__init__([binary, "run", "--display", "virtual:800x480@60", "--config", config,
                          "--control", control, *extra], control=control, ready="remote view: listening",
                         env=env, name="screenshot.py", wait=30)
        time.sleep(0.5)  # the first frame

    def ask(self, line, want, timeout=20):
        """Sends `line` on the control socket; the first reply line whose event is in `want`."""
        s = socket.socket(socket.AF_UNIX)
        s.connect(self.control)
        s.settimeout(timeout)
        s.sendall((line + "\n").encode())
        buf, deadline = b"", time.time() + timeout
        try:
            while time.time() < deadline:
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    one, buf = buf.split(b"\n", 1)
                    event = json.loads(one)
                    if event.get("event") in want:
                        return event
        finally:
            s.close()
        return None

    def stop(self):
        super().stop(timeout=10)

def write_config(name, text):
    path = f"{work}/{name}.yaml"
    with open(path, "w") as f:
        f.write(text)
    return path

def render(cfg, rotate=None):
    out = f"{work}/render-{time.time_ns()}.png"
    cmd = [binary, "render", "--config", cfg, "--size", "800x480", "--out", out]
    if rotate:
        cmd += ["--rotate", str(rotate)]
    subprocess.run(cmd, check=True, capture_output=True)
    return Image.open(out).convert("RGB")

def differing_box(a, b):
    if a.size != b.size:
        return "size"
    return ImageChops.difference(a, b).getbbox()

def halved(img):
    return img.point(lambda v: v >> 1)

def shot(kiosk):
    line = kiosk.ask("screenshot", ("screenshot", "error"))
    if not line or line["event"] != "screenshot":
        return line, None
    return line, Image.open(line["path"]).convert("RGB")

def viewer_frame(port):
    vclient.VNCDoToolClient.encoding = vclient.rfb.RAW_ENCODING if hasattr(vclient, "rfb") else 0
    c = api.connect(f"127.0.0.1::{port}", timeout=20)
    try:
        c.refreshScreen()
        return c.screen.convert("RGB").copy()
    finally:
        c.disconnect()

# 1. Off by default.
port = free_port()
off_cfg = write_config("off", f"remote:\n  listen: 127.0.0.1:{port}\n  mark: false\n")
k = Kiosk(off_cfg, "off")
try:
    line = k.ask("screenshot", ("screenshot", "error"))
    check(line is not None and line["event"] == "error" and "off" in line.get("message", ""),
          f"screenshots: false: `screenshot` answers an error saying they are off ({line})")
    check(not os.listdir(k.runtime), "screenshots: false: nothing written into the runtime directory")
finally:
    k.stop()

# 2. On, rotated 0 and 90.
for rotation in (0, 90):
    port = free_port()
    cfg = write_config(f"on{rotation}", f"remote:\n  listen: 127.0.0.1:{port}\n  mark: false\n  screenshots: true\n")
    k = Kiosk(cfg, f"on{rotation}", ["--rotate", str(rotation)])
    try:
        line, img = shot(k)
        # The panel is 800x480 either way; at 90 degrees the dial is painted on a 480x800 frame
        # and turned onto it, as `render --rotate 90` does.
        want = (800, 480)
        check(line is not None and line.get("event") == "screenshot", f"rotation {rotation}: `screenshot` answers one screenshot line ({line})")
        if img is not None:
            data = open(line["path"], "rb").read()
            check(os.path.dirname(line["path"]) == k.runtime, f"rotation {rotation}: the PNG is in $RUNTIME_DIRECTORY ({line['path']})")
            check((line["width"], line["height"]) == want and img.size == want, f"rotation {rotation}: {line['width']}x{line['height']}, PNG {img.size}")
            check(hashlib.sha256(data).hexdigest() == line["sha256"], f"rotation {rotation}: sha256 is the file's")
            box = differing_box(img, render(cfg, rotate=rotation or None))
            check(box is None, f"rotation {rotation}: the screenshot equals `render` (differing box {box})")
    finally:
        k.stop()

# 3. MQTT, the viewer count, the mark, dim and dark.
mport, vport = free_port(), free_port()
with open(f"{work}/m.conf", "w") as f:
    f.write(f"listener {mport} 127.0.0.1\nallow_anonymous true\n")
broker = subprocess.Popen(["mosquitto", "-c", f"{work}/m.conf"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
base = "kiosk/shot"
cfg = write_config("mqtt", f"remote:\n  listen: 127.0.0.1:{vport}\n  screenshots: true\n"
                   f"mqtt:\n  host: 127.0.0.1\n  port: {mport}\n  base_topic: {base}\n  discovery_prefix: ha\n")
plain = write_config("plain", "remote:\n  listen: 127.0.0.1:1\n  mark: false\n")
reference = render(plain)

def sub(topic, count=1, timeout=20, raw=False):
    cmd = ["mosquitto_sub", "-p", str(mport), "-t", topic, "-C", str(count), "-W", str(timeout)]
    cmd += ["-N"] if raw else ["-v"]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE)

def retained(topic):
    out = subprocess.run(["mosquitto_sub", "-p", str(mport), "-t", topic, "-C", "1", "-W", "5"], capture_output=True).stdout
    return json.loads(out) if out.strip() else None

def state():
    return retained(f"{base}/state") or {}

def wait_state(pred, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = state()
        if pred(s):
            return s
        time.sleep(0.2)
    return state()

k = Kiosk(cfg, "mqtt")
try:
    s = wait_state(lambda s: "viewers" in s)
    check(s.get("viewers") == 0, f"state: viewers 0 before anyone watches ({s.get('viewers')})")
    for component, obj, key, value in [("image", "screenshot", "image_topic", f"{base}/screenshot"),
                                       ("button", "take_screenshot", "command_topic", f"{base}/set/screenshot"),
                                       ("sensor", "screenshot_at", "device_class", "timestamp"),
                                       ("binary_sensor", "viewed", "state_topic", f"{base}/state")]:
        d = retained(f"ha/{component}/+/{obj}/config") or {}
        check(d.get(key) == value, f"discovery: {component} {obj} has {key} {value} ({d.get(key)})")
    image = retained(f"ha/image/+/screenshot/config") or {}
    check(image.get("content_type") == "image/png", "discovery: the image's content_type is image/png")

    # A screenshot asked for over MQTT: the PNG's bytes on <base>/screenshot.
    waiting = sub(f"{base}/screenshot", raw=True)
    time.sleep(0.5)
    subprocess.run(["mosquitto_pub", "-p", str(mport), "-t", f"{base}/set/screenshot", "-m", "PRESS"], check=True)
    png = waiting.communicate(timeout=30)[0]
    path = f"{k.runtime}/screenshot.png"
    check(len(png) > 0 and os.path.exists(path) and png == open(path, "rb").read(),
          f"set/screenshot: {len(png)} PNG bytes on {base}/screenshot, the same as the file")
    if png:
        check(differing_box(Image.open(io.BytesIO(png)).convert("RGB"), reference) is None, "set/screenshot: the PNG equals `render`")
    s = wait_state(lambda s: "screenshot_at" in s)
    check(len(s.get("screenshot_at", "")) == 20 and s["screenshot_at"].endswith("Z"), f"state: screenshot_at {s.get('screenshot_at')}")
    again = subprocess.run(["mosquitto_sub", "-p", str(mport), "-t", f"{base}/screenshot", "-C", "1", "-W", "2", "-N"],
                           capture_output=True).stdout
    check(again == b"", "the screenshot topic is not retained")

    # A viewer: counted, and the mark on the glass while it watches.
    vclient.VNCDoToolClient.encoding = 0
    c = api.connect(f"127.0.0.1::{vport}", timeout=20)
    try:
        c.refreshScreen()
        s = wait_state(lambda s: s.get("viewers") == 1)
        check(s.get("viewers") == 1, f"state: viewers 1 while one watches ({s.get('viewers')})")
        time.sleep(0.5)
        line, img = shot(k)
        box = differing_box(img, reference) if img else "none"
        area = (box[2] - box[0]) * (box[3] - box[1]) if isinstance(box, tuple) else -1
        check(isinstance(box, tuple) and box[2] == 800 and box[1] == 0 and 0 < area <= 0.02 * 800 * 480,
              f"mark: only a top-right square differs while viewed ({box}, {area} px, limit {int(0.02 * 800 * 480)})")
        c.refreshScreen()
        seen = c.screen.convert("RGB")
        check(img is not None and differing_box(seen, img) is None, "mark: the viewer's framebuffer equals the screenshot (mark included)")

        # Dim and dark: the viewer gets what the glass shows.
        k.ask("screen dim", ("power",), timeout=5)
        time.sleep(0.6)
        line, img = shot(k)
        c.refreshScreen()
        seen = c.screen.convert("RGB")
        dim_ref = halved(reference)
        box = differing_box(img, dim_ref) if img else "none"
        check(isinstance(box, tuple) and box[2] == 800 and box[1] == 0 and (box[2] - box[0]) * (box[3] - box[1]) <= 0.02 * 800 * 480,
              f"screen dim: the screenshot is the dim frame (apart from the mark: {box})")
        check(img is not None and differing_box(seen, img) is None, "screen dim: the viewer's framebuffer equals it")
        k.ask("screen off", ("power",), timeout=5)
        time.sleep(0.6)
        line, img = shot(k)
        c.refreshScreen()
        seen = c.screen.convert("RGB")
        check(img is not None and img.getbbox() is None, "screen off: the screenshot is black")
        check(seen.getbbox() is None, "screen off: the viewer's framebuffer is black")
        k.ask("screen on", ("power",), timeout=5)
        time.sleep(0.6)
    finally:
        c.disconnect()
    s = wait_state(lambda s: s.get("viewers") == 0)
    check(s.get("viewers") == 0, f"state: viewers 0 after it left ({s.get('viewers')})")
    time.sleep(0.5)
    line, img = shot(k)
    check(img is not None and differing_box(img, reference) is None, "mark: gone after the viewer left (screenshot equals render)")
finally:
    k.stop()
    broker.terminate()

print("screenshot checks: " + ("all hold" if not failures else f"{len(failures)} failed"))
sys.exit(1 if failures else 0)
