#!/usr/bin/env python3
"""TigerVNC's own viewer (Debian's tigervnc-viewer) against the kiosk's RFB listener, under
Xvfb: `run --display virtual:800x480@60` with `remote.listen` on loopback; the viewer picks its
encodings and pixel format itself (AutoSelect, as it does on a real link: it switches them
while updates flow). Its window, grabbed with xwd and cut by ImageMagick's convert, must equal
`dialkiosk render` of the same configuration; then a turn of the dial through the control
socket must reach the window too (`render --angle` of the rest). Stdlib only (tests/lib/dkimage).
Usage: tests/remote/tigervnc.py [--binary .build/debug/dialkiosk]. Exit 0 when every check holds.
"""
import argparse, json, os, re, signal, socket, subprocess, sys, tempfile, threading, time
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dkcheck import check, failures, free_port  # noqa: E402
import dkimage  # noqa: E402

ap = argparse.ArgumentParser(description="TigerVNC's viewer against the kiosk (exit 0 when every check holds)")
ap.add_argument("--binary", default=".build/debug/dialkiosk")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dialkiosk-tigervnc-")
W, H = 800, 480


def differing(a, b):
    if len(a) != len(b):
        return -1
    return sum(1 for i in range(0, len(a), 3) if a[i:i + 3] != b[i:i + 3])


def grab(display):
    xwd = subprocess.run(["xwd", "-root", "-silent", "-display", display], capture_output=True, check=True).stdout
    # Without a window manager the window sits where X put it: the framebuffer's window is the
    # one of its size in the tree, at its absolute position.
    tree = subprocess.run(["xwininfo", "-root", "-tree", "-display", display], capture_output=True, text=True).stdout
    at = next((m.group(1, 2) for m in re.finditer(rf"{W}x{H}\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)", tree)), ("0", "0"))
    ppm = subprocess.run(["convert", "xwd:-", "-crop", f"{W}x{H}+{at[0]}+{at[1]}", "+repage", "ppm:-"], input=xwd,
                         capture_output=True, check=True).stdout
    with open(f"{work}/grab.ppm", "wb") as f:
        f.write(ppm)
    return dkimage.rgb(dkimage.read_ppm(f"{work}/grab.ppm"))


def expected(extra):
    subprocess.run([binary, "render", "--size", f"{W}x{H}", "--config", f"{work}/kiosk.yaml", "--out", f"{work}/render.png"] + extra, check=True, capture_output=True)
    return dkimage.rgb(dkimage.read_png(f"{work}/render.png"))


# Xvfb on the first free display number it finds, told back through -displayfd.
r, w = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                        pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(w)
number = b""
while not number.endswith(b"\n"):
    chunk = os.read(r, 16)
    if not chunk:
        sys.exit("Xvfb did not start")
    number += chunk
display = ":" + number.decode().strip()

port = free_port()
control = f"{work}/control.sock"
with open(f"{work}/kiosk.yaml", "w") as f:
    f.write("items:\n" + "".join(f"  - {{id: i{n}, label: Item {n}}}\n" for n in range(6))
            + f"remote:\n  listen: 127.0.0.1:{port}\n  mark: false\n")
kiosk = subprocess.Popen([binary, "run", "--display", f"virtual:{W}x{H}@60", "--config", f"{work}/kiosk.yaml",
                          "--control", control], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
log, events = [], []
threading.Thread(target=lambda: [log.append(l) for l in kiosk.stderr], daemon=True).start()
threading.Thread(target=lambda: [events.append(l) for l in kiosk.stdout], daemon=True).start()
viewer = None
try:
    deadline = time.time() + 30
    while not any("remote view: listening" in l for l in log):
        if time.time() > deadline or kiosk.poll() is not None:
            sys.exit("the kiosk did not start: " + "".join(log)[-2000:])
        time.sleep(0.05)
    env = dict(os.environ, DISPLAY=display)
    viewer = subprocess.Popen(["xtigervncviewer", "-SecurityTypes", "None", "-geometry", f"{W}x{H}+0+0",
                               "-AutoSelect=1", "-Shared=1", "-RemoteResize=0", "-MenuKey=", "-AcceptClipboard=0",
                               "-SendClipboard=0", f"127.0.0.1::{port}"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    want = expected([])
    seen, diff = None, -1
    deadline = time.time() + 12
    while time.time() < deadline:
        seen = grab(display)
        diff = differing(seen[2], want[2])
        if diff == 0:
            break
        time.sleep(0.5)
    subprocess.run(["convert", f"{work}/grab.ppm", f"{work}/grab.png"])
    check(diff == 0, f"TigerVNC's window equals `render` ({diff} pixels differ; {work}/grab.png)")
    check(any('"viewer"' in l and '"connected"' in l for l in events), "a viewer line for TigerVNC")

    # A turn of the dial reaches the window: the control socket turns it, `render --angle` is the rest.
    s = socket.socket(socket.AF_UNIX)
    s.connect(control)
    s.sendall(b"select i3\n")
    time.sleep(2)
    rests = [json.loads(l) for l in events if '"rest"' in l]
    angle = next((e.get("rotation") for e in reversed(rests) if "rotation" in e), None)
    s.close()
    if angle is not None:
        want = expected([f"--angle={angle}"])
        deadline = time.time() + 20
        while time.time() < deadline:
            diff = differing(grab(display)[2], want[2])
            if diff == 0:
                break
            time.sleep(0.5)
        check(diff == 0, f"after the turn the window equals `render --angle {angle:.4f}` ({diff} pixels differ)")
    else:
        check(False, "the control socket's select gave a rest with its rotation: " + "".join(events)[-500:])
    check(viewer.poll() is None, "the viewer is still connected (no protocol error): " + (viewer.stderr.read()[-500:] if viewer.poll() is not None else ""))
finally:
    if viewer:
        viewer.terminate(); viewer.wait(10)
    kiosk.send_signal(signal.SIGTERM); kiosk.wait(20)
    xvfb.terminate(); xvfb.wait(10)

print("FAILED: " + "; ".join(failures) if failures else "TigerVNC: all checks hold")
sys.exit(1 if failures else 0)
