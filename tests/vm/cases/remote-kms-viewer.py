"""Guest side of remote-kms: a real RFB client (vncdotool, from the venv tests/remote/venv.sh
made on the host, which the guest sees through the shared root) on the kiosk's Unix socket
while `dialkiosk run` drives vkms.

  remote-kms-viewer.py SOCKET CONTROL LOG NAME

With the viewer connected: its framebuffer (NAME-a.png) next to a scanout dump (NAME-a.ppm,
`drmtool dump`) and a screenshot over the control socket (NAME-a-shot.png); then a drag made by
the viewer, and after the dial's `rest` the same three again (NAME-b.*); then the viewer leaves
and, once the mark is gone, one more dump (NAME-c.ppm). Each pair is taken when the loop has
gone quiet (the dump is retried until two dumps in a row agree). The host compares them.
"""
import json, os, socket, subprocess, sys, time

from PIL import Image
from vncdotool import api, client as vclient

sock, control, log, name = sys.argv[1:5]


def events():
    out = []
    with open(log) as f:
        for line in f:
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out


def wait(what, pred, seconds=300):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if pred():
            return
        time.sleep(0.2)
    raise SystemExit(f"viewer: timed out waiting for {what}")


def dump(path):
    """A scanout dump once two in a row agree (the loop has settled)."""
    last = None
    for _ in range(30):
        subprocess.run(["drmtool", "dump", path], check=True, stdout=open(path + ".txt", "w"))
        data = open(path, "rb").read()
        if data == last:
            return
        last = data
        time.sleep(1)


def screenshot(path):
    s = socket.socket(socket.AF_UNIX)
    s.connect(control)
    s.sendall(b"screenshot\n")
    buf = b""
    s.settimeout(300)
    while b"\n" not in buf:
        chunk = s.recv(4096)
        if not chunk:
            break
        buf += chunk
    s.close()
    line = json.loads(buf.split(b"\n")[0])
    if line.get("event") != "screenshot":
        raise SystemExit(f"viewer: screenshot answered {line}")
    Image.open(line["path"]).convert("RGB").save(path)


def take(c, stem):
    dump(f"/out/{stem}.ppm")
    c.refreshScreen()
    c.screen.convert("RGB").save(f"/out/{stem}.png")
    screenshot(f"/out/{stem}-shot.png")


vclient.VNCDoToolClient.encoding = 16  # ZRLE
c = api.connect(sock, timeout=300)
c.refreshScreen()
wait("the viewer line", lambda: any(e.get("event") == "viewer" and e.get("state") == "connected" for e in events()))
print("viewer: connected", flush=True)
take(c, f"{name}-a")
w, h = c.screen.size
# A drag along the ring's top: down on its left, right along an arc, still, up.
before = len(events())
cx, cy, r = w / 2, h / 2, min(w, h) * 0.38
points = [(cx - r * 0.9, cy - r * 0.3)] + [(cx - r * 0.9 + r * 0.15 * i, cy - r * 0.3 - r * 0.05 * min(i, 12 - i)) for i in range(1, 13)]
c.mouseMove(int(points[0][0]), int(points[0][1]))
c.mouseDown(1)
for x, y in points[1:]:
    time.sleep(0.05)
    c.mouseMove(int(x), int(y))
time.sleep(0.5)
c.mouseUp(1)
wait("a selected line after the drag", lambda: any(e.get("event") == "selected" for e in events()[before:]))
wait("a rest after the drag", lambda: any(e.get("event") == "rest" for e in events()[before:]))
turned = [e for e in events()[before:] if e.get("event") == "selected"][-1]
print(f"viewer: the drag turned the dial to {turned.get('id')}; it came to rest", flush=True)
take(c, f"{name}-b")
c.disconnect()
wait("the viewer's going", lambda: any(e.get("event") == "viewer" and e.get("state") == "disconnected" for e in events()))
dump(f"/out/{name}-c.ppm")
print("viewer: done", flush=True)
