#!/usr/bin/env python3
"""`dialkiosk preview` in a real browser: Debian's chromium, headless, driven by Debian's
chromedriver over the W3C WebDriver protocol (plain HTTP, urllib), opens the URL preview
prints. Checks: noVNC connects over the program's own WebSocket and its canvas equals `render`
of the same configuration; a mouse drag in the page turns the dial (event lines on stdout);
SIGTERM leaves nothing listening. Needs PIL (run it with tests/remote/venv.sh's python).
Usage: tests/remote/browser.py [--binary .build/debug/dialkiosk]. Exit 0 when every check holds.
"""
import argparse, base64, io, json, os, signal, socket, subprocess, sys, tempfile, threading, time, urllib.request
from PIL import Image, ImageChops
sys.dont_write_bytecode = True  # no __pycache__ in the clone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dkcheck import check, failures, free_port  # noqa: E402
from dkweb import Driver  # noqa: E402

ap = argparse.ArgumentParser(description="`dialkiosk preview` in headless chromium (exit 0 when every check holds).")
ap.add_argument("--binary", default=".build/debug/dialkiosk", help="the dialkiosk under test")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dialkiosk-browser-")


def differing(a, b):
    if a.size != b.size:
        return -1
    return sum(ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v else 0).histogram()[255:])

port = free_port()
preview = subprocess.Popen([binary, "preview", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
events, log = [], []
threading.Thread(target=lambda: [events.append(json.loads(l)) for l in preview.stdout], daemon=True).start()
threading.Thread(target=lambda: [log.append(l) for l in preview.stderr], daemon=True).start()
url = None
deadline = time.time() + 20
while url is None and time.time() < deadline:
    url = next((l.split("open ", 1)[1].strip() for l in log if "preview: open " in l), None)
    time.sleep(0.05)
check(url is not None and url.startswith(f"http://127.0.0.1:{port}/"), f"preview prints one URL ({url})")

driver = None
try:
    subprocess.run([binary, "render", "--size", "800x480", "--out", f"{work}/render.png"], check=True, capture_output=True)
    expected = Image.open(f"{work}/render.png").convert("RGB")
    driver = Driver(f"{work}/profile")
    driver.s("POST", "/url", {"url": url})
    # noVNC is connected when its canvas has the framebuffer's size and a first update drew.
    shot = None
    deadline = time.time() + 30
    while time.time() < deadline:
        data = driver.js("""const c = document.querySelector('#noVNC_container canvas') || document.querySelector('canvas');
                            return c && c.width > 10 ? c.toDataURL('image/png') : null;""")
        if data:
            shot = Image.open(io.BytesIO(base64.b64decode(data.split(",", 1)[1]))).convert("RGB")
            if differing(shot, expected) == 0:
                break
        time.sleep(0.3)
    n = differing(shot, expected) if shot else -1
    check(n == 0, f"noVNC's canvas equals `render` ({n} pixels differ)")
    viewers = [e for e in events if e.get("event") == "viewer"]
    check(any(e.get("state") == "connected" and e.get("input") is True for e in viewers), f"a viewer line for the browser ({viewers[:1]})")

    rect = driver.js("""const c = document.querySelector('#noVNC_container canvas') || document.querySelector('canvas');
                        const r = c.getBoundingClientRect(); return [r.left, r.top, r.width / c.width];""")
    def at(x, y):
        return {"type": "pointerMove", "duration": 40, "origin": "viewport",
                "x": int(rect[0] + x * rect[2]), "y": int(rect[1] + y * rect[2])}
    steps = [at(230, 200), {"type": "pointerDown", "button": 0}]
    steps += [at(230 + 20 * i, 200 - 8 * i if i < 6 else 152 + 8 * (i - 6)) for i in range(1, 13)]
    steps += [{"type": "pause", "duration": 400}, {"type": "pointerUp", "button": 0}]
    before = len(events)
    driver.s("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": steps}]})
    deadline = time.time() + 10
    while not any(e.get("event") == "rest" for e in events[before:]) and time.time() < deadline:
        time.sleep(0.05)
    moved = [e for e in events[before:] if e.get("event") in ("selected", "rest")]
    check(any(e.get("event") == "selected" for e in moved), f"a drag in the page turns the dial ({moved[-1:]})")
finally:
    if driver:
        driver.quit()
    preview.send_signal(signal.SIGTERM)
    rc = preview.wait(10)
check(rc == 0, f"preview leaves on SIGTERM with status 0 ({rc})")
s = socket.socket()
refused = s.connect_ex(("127.0.0.1", port)) != 0
s.close()
check(refused, "nothing listens on the port afterwards")
print("preview in chromium: " + ("all checks hold" if not failures else f"{len(failures)} failed"))
sys.exit(1 if failures else 0)
