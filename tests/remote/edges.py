#!/usr/bin/env python3
"""The WebSocket front's edges from a raw client (stdlib only). Against `dialkiosk preview`
(its token from the URL it prints): Host evil.example, Origin http://evil.example and a
missing or wrong token get 403; Sec-WebSocket-Version 8 gets 426 with the version it speaks;
POST gets 405 with Allow: GET; the right request gets 101 and RFB. Then, with --memory S,
against `run` with a `remote.websocket`: a peer that sends pings and never reads is closed, and
the kiosk's resident memory over S seconds stays within the figure measured without it plus a
margin. Usage: tests/remote/edges.py [--binary .build/debug/dialkiosk] [--memory 60].
"""
import argparse, base64, os, re, signal, socket, struct, subprocess, sys, tempfile, threading, time
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dkcheck import check, failures, free_port  # noqa: E402

ap = argparse.ArgumentParser(description="the remote view's WebSocket edges (exit 0 when every check holds)")
ap.add_argument("--binary", default=".build/debug/dialkiosk")
ap.add_argument("--memory", type=float, default=60, help="seconds of the pinging peer (0: skip)")
ap.add_argument("--skip-front", action="store_true", help="only the memory case")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dialkiosk-edges-")
KEY = "dGhlIHNhbXBsZSBub25jZQ=="


def request(port, method="GET", path="/websockify", fields=None, drop=()):
    """The status line and header of the answer to one request."""
    base = {"Host": f"127.0.0.1:{port}", "Upgrade": "websocket", "Connection": "Upgrade",
            "Sec-WebSocket-Key": KEY, "Sec-WebSocket-Version": "13"}
    base.update(fields or {})
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in base.items() if k not in drop) + "\r\n"
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(head.encode())
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = s.recv(4096)
        if not chunk:
            break
        got += chunk
    s.close()
    return got.decode(errors="replace")


def front(port, token):
    ws = f"/websockify/{token}"
    # First, so its line is the one the once-per-10-s limit lets out.
    a = request(port, path=ws, fields={"Host": "evil.example"})
    check(a.startswith("HTTP/1.1 403 "), f"Host evil.example: 403 ({a.splitlines()[0] if a else 'nothing'})")
    ok = request(port, path=ws)
    check(ok.startswith("HTTP/1.1 101 "), f"the right request is upgraded ({ok.splitlines()[0] if ok else 'nothing'})")
    a = request(port, path=ws, fields={"Host": f"evil.example:{port}"})
    check(a.startswith("HTTP/1.1 403 "), "Host evil.example on the right port: 403")
    a = request(port, path=ws, fields={"Origin": "http://evil.example"})
    check(a.startswith("HTTP/1.1 403 "), f"Origin http://evil.example: 403 ({a.splitlines()[0] if a else 'nothing'})")
    a = request(port, path="/websockify")
    check(a.startswith("HTTP/1.1 403 "), f"no token: 403 ({a.splitlines()[0] if a else 'nothing'})")
    a = request(port, path="/websockify/" + "0" * len(token))
    check(a.startswith("HTTP/1.1 403 "), "a wrong token: 403")
    a = request(port, path=ws, fields={"Sec-WebSocket-Version": "8"})
    check(a.startswith("HTTP/1.1 426 ") and "\r\nSec-WebSocket-Version: 13\r\n" in a, f"version 8: 426 with Sec-WebSocket-Version: 13 ({a.splitlines()[0] if a else 'nothing'})")
    a = request(port, method="POST", path=ws)
    check(a.startswith("HTTP/1.1 405 ") and "\r\nAllow: GET\r\n" in a, f"POST: 405 with Allow: GET ({a.splitlines()[0] if a else 'nothing'})")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def masked_ping(payload):
    mask = os.urandom(4)
    return bytes([0x89, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def memory(seconds):
    port = free_port()
    cfg = f"{work}/kiosk.yaml"
    with open(cfg, "w") as f:
        f.write(f"remote:\n  listen: 127.0.0.1:{free_port()}\n  websocket: 127.0.0.1:{port}\n")
    kiosk = subprocess.Popen([binary, "run", "--display", "virtual:800x480@60", "--config", cfg],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    log = []
    threading.Thread(target=lambda: [log.append(l) for l in kiosk.stderr], daemon=True).start()
    deadline = time.time() + 30
    while not any("remote view: listening" in l for l in log):
        if time.time() > deadline or kiosk.poll() is not None:
            sys.exit("the kiosk did not start: " + "".join(log)[-2000:])
        time.sleep(0.05)
    try:
        time.sleep(2)
        baseline = max(rss_kib(kiosk.pid) for _ in range(10) if time.sleep(0.1) is None)
        s = socket.create_connection(("127.0.0.1", port))
        # The smallest receive buffer: the kiosk's pongs fill it at once.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall((f"GET /websockify HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        s.settimeout(0.5)
        ping = masked_ping(b"p" * 125) * 64
        sent, closed, peak = 0, False, baseline
        end = time.time() + seconds
        while time.time() < end:
            try:
                sent += s.send(ping)
            except socket.timeout:
                pass
            except OSError:
                closed = True
                break
            peak = max(peak, rss_kib(kiosk.pid))
        # Whatever it did, the kiosk holds what it held before, within the margin.
        while time.time() < end:
            peak = max(peak, rss_kib(kiosk.pid))
            time.sleep(0.2)
        margin = 16 * 1024
        print(f"pinging peer: {sent // 1024} KiB of pings sent, closed by the kiosk: {closed}, "
              f"resident {baseline} KiB before, peak {peak} KiB over {seconds:.0f} s")
        check(peak <= baseline + margin, f"resident memory stays within {margin // 1024} MiB of the kiosk's without the peer "
                                         f"({baseline} -> {peak} KiB)")
        check(closed, "the peer that pings and never reads is closed")
        check(kiosk.poll() is None, "the kiosk runs on")
        check(any("pong was still owed" in l for l in log), "its refusal is logged: " +
              next((l.strip() for l in log if "pong" in l), "no line"))
    finally:
        kiosk.send_signal(signal.SIGTERM)
        kiosk.wait(20)


if not args.skip_front:
    port = free_port()
    preview = subprocess.Popen([binary, "preview", "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    log = []
    threading.Thread(target=lambda: [log.append(l) for l in preview.stderr], daemon=True).start()
    token, deadline = None, time.time() + 30
    while token is None and time.time() < deadline:
        token = next((m.group(1) for l in log for m in [re.search(r"websockify(?:%2F|/)([0-9a-f]{32})", l)] if m), None)
        time.sleep(0.05)
    check(token is not None, "preview prints a URL with a 32-digit token")
    try:
        if token:
            front(port, token)
            time.sleep(0.5)
            check(any("remote view: refused" in l and "Host" in l for l in log), "refusals are logged: " +
                  next((l.strip() for l in log if "refused" in l), "no line"))
    finally:
        preview.send_signal(signal.SIGTERM)
        preview.wait(20)

if args.memory > 0:
    memory(args.memory)

print("FAILED: " + "; ".join(failures) if failures else "all checks hold")
sys.exit(1 if failures else 0)
