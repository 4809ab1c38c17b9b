#!/usr/bin/env python3
"""Another site's page in a real browser cannot drive the dial. Debian's chromium (headless,
through chromedriver's WebDriver protocol) loads a page served by Python's http.server from
another loopback port; the page opens `dialkiosk preview`'s WebSocket (with the right token,
so only the Origin check stands in its way), speaks RFB and presses Enter. Checks: the
WebSocket is refused, nothing is selected or activated, and the selected item's command (it
creates a file) never runs. Then the same page against `run` with that page's origin in
`remote.allowed_origins` and a `remote.token_file`: the file appears, so the page would work
were it allowed. Usage: tests/remote/origin.py [--binary .build/debug/dialkiosk].
"""
import argparse, functools, http.server, json, os, re, signal, subprocess, sys, tempfile, threading, time, urllib.request
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dkcheck import check, failures, free_port  # noqa: E402
from dkweb import Driver  # noqa: E402

ap = argparse.ArgumentParser(description="a cross-origin page against the preview's WebSocket (exit 0 when every check holds)")
ap.add_argument("--binary", default=".build/debug/dialkiosk")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dialkiosk-origin-")

PAGE = """<!doctype html><title>elsewhere</title><script>
const q = new URLSearchParams(location.search);
window.result = "connecting";
const ws = new WebSocket("ws://127.0.0.1:" + q.get("port") + "/websockify/" + q.get("token"), "binary");
ws.binaryType = "arraybuffer";
let step = 0;
ws.onopen = () => { window.result = "open"; };
ws.onerror = () => { if (window.result !== "key sent") window.result = "error"; };
ws.onclose = (e) => { if (window.result !== "key sent") window.result = "closed " + e.code; };
ws.onmessage = (m) => {
  const b = new Uint8Array(m.data);
  if (step === 0) { ws.send(new TextEncoder().encode("RFB 003.008\\n")); step = 1; }
  else if (step === 1) { ws.send(new Uint8Array([1])); step = 2; }
  else if (step === 2) { ws.send(new Uint8Array([1])); step = 3; }
  else if (step === 3) {
    ws.send(new Uint8Array([4, 1, 0, 0, 0, 0, 0xff, 0x0d]));
    ws.send(new Uint8Array([4, 0, 0, 0, 0, 0, 0xff, 0x0d]));
    window.result = "key sent"; step = 4;
  }
};
</script>"""


def config(path, marker, remote=""):
    with open(path, "w") as f:
        f.write(f"items:\n  - {{id: a, label: Alpha, command: [/usr/bin/touch, {marker}]}}\n  - {{id: b, label: Beta}}\n"
                f"  - {{id: c, label: Gamma}}\n{remote}")


def started(command, pattern):
    p = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    events, log = [], []
    threading.Thread(target=lambda: [events.append(l) for l in p.stdout], daemon=True).start()
    threading.Thread(target=lambda: [log.append(l) for l in p.stderr], daemon=True).start()
    deadline = time.time() + 30
    while not any(re.search(pattern, l) for l in log):
        if time.time() > deadline or p.poll() is not None:
            p.kill()
            sys.exit("did not start: " + "".join(log)[-2000:])
        time.sleep(0.05)
    return p, events, log


def wait_for(what, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline and not what():
        time.sleep(0.1)
    return what()


os.makedirs(f"{work}/site")
with open(f"{work}/site/page.html", "w") as f:
    f.write(PAGE)
site_port = free_port()
site = http.server.ThreadingHTTPServer(("127.0.0.1", site_port), functools.partial(http.server.SimpleHTTPRequestHandler, directory=f"{work}/site"))
http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
threading.Thread(target=site.serve_forever, daemon=True).start()

driver = Driver(f"{work}/profile")
try:
    marker = f"{work}/ran-preview"
    config(f"{work}/preview.yaml", marker)
    port = free_port()
    preview, events, log = started([binary, "preview", "--port", str(port), "--config", f"{work}/preview.yaml"], r"preview: (open|noVNC)")
    token = next(m.group(1) for l in log for m in [re.search(r"websockify(?:%2F|/)([0-9a-f]{32})", l)] if m)
    try:
        time.sleep(1)
        before = len(events)  # the start's own lines
        driver.open(f"http://127.0.0.1:{site_port}/page.html?port={port}&token={token}")
        wait_for(lambda: driver.js('return window.result;') not in ("connecting", "open"), 10)
        time.sleep(2)
        result = driver.js('return window.result;')
        check(result != "key sent" and result != "open", f"the other port's page is refused ({result})")
        check(not os.path.exists(marker), "the selected item's command never ran")
        moved = [l for l in events[before:] if '"selected"' in l or '"activated"' in l or '"viewer"' in l]
        check(not moved, f"nothing selected, activated or connected ({len(moved)} event lines)")
        check(any("remote view: refused" in l and "Origin" in l for l in log),
              "the refusal is logged: " + next((l.strip() for l in log if "refused" in l), "no line"))
    finally:
        preview.send_signal(signal.SIGTERM); preview.wait(20)

    # The control: the same page, allowed.
    marker2 = f"{work}/ran-allowed"
    token2 = "allowed-page-token-0123456789"
    with open(f"{work}/token", "w") as f:
        f.write(token2 + "\n")
    port2 = free_port()
    config(f"{work}/run.yaml", marker2, f"remote:\n  listen: 127.0.0.1:{free_port()}\n  websocket: 127.0.0.1:{port2}\n  input: true\n"
                                        f"  allowed_origins: [\"http://127.0.0.1:{site_port}\"]\n  token_file: {work}/token\n")
    kiosk, events2, log2 = started([binary, "run", "--display", "virtual:800x480@60", "--config", f"{work}/run.yaml"], "remote view: listening")
    try:
        driver.open(f"http://127.0.0.1:{site_port}/page.html?port={port2}&token={token2}")
        check(wait_for(lambda: os.path.exists(marker2), 15), f"allowed, the same page runs the command ({driver.js('return window.result;')})")
    finally:
        kiosk.send_signal(signal.SIGTERM); kiosk.wait(20)
finally:
    driver.quit()
    site.shutdown()

print("FAILED: " + "; ".join(failures) if failures else "all checks hold")
sys.exit(1 if failures else 0)
