#!/usr/bin/env python3
"""A minimal RFB 3.8 viewer for DialKiosk's benchmarks (stdlib only): security None, 32-bit
true colour, one encoding, incremental requests, pointer events; it counts what each
FramebufferUpdate carries (wire bytes against damaged bytes) without decoding pixels. The
correctness tests use real clients (vncdotool, noVNC); this one is for figures and fault runs.

  python3 dkrfb.py HOST PORT ENCODING   # a viewer process that reads updates until killed
"""
import socket, struct, sys, time

ENCODINGS = {"raw": 0, "tight": 7, "zrle": 16}


class Viewer:
    def __init__(self, host, port, encoding, size=None):
        self.s = socket.create_connection((host, port))
        self.buf = b""
        self.read(12)
        self.s.sendall(b"RFB 003.008\n")
        n = self.read(1)[0]
        self.read(n)
        self.s.sendall(b"\x01")
        self.read(4)
        self.s.sendall(b"\x01")
        self.width, self.height = struct.unpack(">HH", self.read(4))
        self.read(16)
        self.read(struct.unpack(">I", self.read(4))[0])
        self.s.sendall(struct.pack(">BxxxBBBBHHHBBBxxx", 0, 32, 24, 0, 1, 255, 255, 255, 0, 8, 16))
        self.s.sendall(struct.pack(">BxH", 2, 1) + struct.pack(">i", encoding))
        self.updates = []  # (CLOCK_MONOTONIC time, wire bytes, damaged bytes)
        self.request(False)

    def read(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def request(self, incremental):
        self.s.sendall(struct.pack(">BBHHHH", 3, 1 if incremental else 0, 0, 0, self.width, self.height))

    def pointer(self, buttons, x, y):
        self.s.sendall(struct.pack(">BBHH", 5, buttons, x, y))

    def update(self):
        """Reads one FramebufferUpdate; returns (wire bytes, damaged bytes)."""
        count = struct.unpack(">xxH", self.read(4))[0]
        wire, damaged = 4, 0
        for _ in range(count):
            x, y, w, h, enc = struct.unpack(">HHHHi", self.read(12))
            wire += 12
            damaged += w * h * 4
            if enc == 0:
                self.read(w * h * 4)
                wire += w * h * 4
            elif enc == 16:
                n = struct.unpack(">I", self.read(4))[0]
                self.read(n)
                wire += 4 + n
            elif enc == 7:
                c = self.read(1)[0]
                wire += 1
                if c == 0x80:
                    self.read(3)
                    wire += 3
                else:
                    size = w * h * 3
                    if size < 12:
                        self.read(size)
                        wire += size
                    else:
                        n, shift, k = 0, 0, 0
                        while True:
                            b = self.read(1)[0]
                            k += 1
                            n |= (b & 0x7F) << shift
                            shift += 7
                            if b < 0x80 or k == 3:
                                break
                        self.read(n)
                        wire += k + n
        return wire, damaged

    def pump(self, stop):
        """Reads updates and asks for the next at once, until `stop` is set or the socket ends."""
        while not stop.is_set():
            try:
                wire, damaged = self.update()
            except (EOFError, OSError):
                return
            self.updates.append((time.monotonic(), wire, damaged))
            try:
                self.request(True)
            except OSError:
                return


if __name__ == "__main__":
    host, port, encoding = sys.argv[1], int(sys.argv[2]), ENCODINGS[sys.argv[3]]
    v = Viewer(host, port, encoding)
    print("ready", flush=True)
    import threading
    v.pump(threading.Event())
