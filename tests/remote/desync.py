#!/usr/bin/env python3
"""An RFB client over loopback that changes its mind mid-update: after reading each update's
header (so the update has begun) it sends SetEncodings (raw, Tight, ZRLE in turn) and
SetPixelFormat (32 and 16 bits in turn), then reads the update strictly with what was in force
when it began: the rectangle count announced, each rectangle's bytes exactly (Tight's and
ZRLE's zlib data inflated and walked), nothing left over. Against `run --display
virtual:600x300@60` with `remote.listen` on loopback: an update of 600x300 spans several of
the worker's steps, so the changes land while it is encoded. Stdlib only.
Usage: tests/remote/desync.py [--binary .build/debug/dialkiosk] [--updates 10000].
"""
import argparse, os, signal, socket, struct, subprocess, sys, tempfile, threading, time, zlib
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dkcheck import check, failures, free_port  # noqa: E402

ap = argparse.ArgumentParser(description="SetEncodings/SetPixelFormat mid-update (exit 0 when every update parses)")
ap.add_argument("--binary", default=".build/debug/dialkiosk")
ap.add_argument("--updates", type=int, default=10000)
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dialkiosk-desync-")
W, H = 600, 300
FORMATS = [(32, struct.pack(">BxxxBBBBHHHBBBxxx", 0, 32, 24, 0, 1, 255, 255, 255, 16, 8, 0)),
           (16, struct.pack(">BxxxBBBBHHHBBBxxx", 0, 16, 16, 0, 1, 31, 63, 31, 11, 5, 0))]
ENCODINGS = [0, 7, 16]


class Desync(Exception):
    pass


class Client:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.buf = bytearray()
        self.zrle, self.tight = zlib.decompressobj(), zlib.decompressobj()
        self.read(12); self.s.sendall(b"RFB 003.008\n")
        n = self.read(1)[0]; self.read(n); self.s.sendall(b"\x01")
        self.read(4); self.s.sendall(b"\x01")
        self.width, self.height = struct.unpack(">HH", self.read(4))
        self.read(16); self.read(struct.unpack(">I", self.read(4))[0])

    def read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise Desync("the server closed the connection")
            self.buf += chunk
        out = bytes(self.buf[:n]); del self.buf[:n]
        return out

    def ask(self, bits, message, encoding):
        self.s.sendall(message + struct.pack(">BxHi", 2, 1, encoding))

    def request(self):
        self.s.sendall(struct.pack(">BBHHHH", 3, 0, 0, 0, self.width, self.height))

    def header(self):
        kind, count = struct.unpack(">BxH", self.read(4))
        if kind != 0:
            raise Desync(f"message type {kind} where an update was due")
        return count

    def body(self, count, bits, encoding):
        bpp = bits // 8
        packed = 3 if bits == 32 else bpp
        for r in range(count):
            x, y, w, h, enc = struct.unpack(">HHHHi", self.read(12))
            if enc != encoding or x + w > self.width or y + h > self.height or w == 0 or h == 0:
                raise Desync(f"rectangle {r} of {count}: {w}x{h}+{x}+{y} in encoding {enc}, expected {encoding} at {bits} bits")
            if enc == 0:
                self.read(w * h * bpp)
            elif enc == 16:
                plain = self.zrle.decompress(self.read(struct.unpack(">I", self.read(4))[0]))
                k = 0
                for ty in range(0, h, 64):
                    for tx in range(0, w, 64):
                        sub = plain[k]
                        if sub > 1:
                            raise Desync(f"ZRLE subencoding {sub}")
                        k += 1 + (packed if sub == 1 else min(64, w - tx) * min(64, h - ty) * packed)
                if k != len(plain):
                    raise Desync(f"ZRLE rectangle {r}: {len(plain)} bytes inflated, {k} expected at {bits} bits")
            elif enc == 7:
                control = self.read(1)[0]
                if control == 0x80:
                    self.read(packed)
                elif control == 0:
                    size = w * h * packed
                    if size < 12:
                        self.read(size)
                    else:
                        n, shift = 0, 0
                        for i in range(3):
                            b = self.read(1)[0]
                            n |= (b & (0xFF if i == 2 else 0x7F)) << shift
                            shift += 7
                            if not b & 0x80:
                                break
                        data = self.tight.decompress(self.read(n))
                        if len(data) != size:
                            raise Desync(f"Tight rectangle {r}: {len(data)} bytes inflated, {size} expected at {bits} bits")
                else:
                    raise Desync(f"Tight control {control:#x}")


cfg = f"{work}/kiosk.yaml"
port = free_port()
with open(cfg, "w") as f:
    f.write(f"remote:\n  listen: 127.0.0.1:{port}\n  max_fps: 240\n  mark: false\n")
kiosk = subprocess.Popen([binary, "run", "--display", f"virtual:{W}x{H}@60", "--config", cfg],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
log = []
threading.Thread(target=lambda: [log.append(l) for l in kiosk.stderr], daemon=True).start()
try:
    deadline = time.time() + 30
    while not any("remote view: listening" in l for l in log):
        if time.time() > deadline or kiosk.poll() is not None:
            sys.exit("the kiosk did not start: " + "".join(log)[-2000:])
        time.sleep(0.05)
    time.sleep(0.5)
    c = Client(port)
    fmt, enc = FORMATS[0], ENCODINGS[0]
    c.ask(*fmt, enc)
    c.request()
    done, started, error = 0, time.monotonic(), None
    try:
        for n in range(args.updates):
            count = c.header()
            # The update has begun: change both, for the next one.
            new_fmt, new_enc = FORMATS[(n // 3 + 1) % 2], ENCODINGS[(n + 1) % 3]
            c.ask(*new_fmt, new_enc)
            c.request()
            c.body(count, fmt[0], enc)
            fmt, enc = new_fmt, new_enc
            done += 1
    except (Desync, socket.timeout, zlib.error) as e:
        error = f"update {done}: {e}"
    seconds = time.monotonic() - started
    print(f"{done} updates in {seconds:.1f} s, switching encoding and pixel format after each header")
    check(error is None and done == args.updates, f"every update parses with what was asked before it began ({error or done})")
    check(kiosk.poll() is None, "the kiosk runs on")
    if error:
        print("kiosk's log: " + "".join(l for l in log if "remote view" in l)[-800:])
finally:
    kiosk.send_signal(signal.SIGTERM)
    kiosk.wait(20)

print("FAILED: " + "; ".join(failures) if failures else "desync: all checks hold")
sys.exit(1 if failures else 0)
