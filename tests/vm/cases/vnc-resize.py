#!/usr/bin/python3
"""A minimal RFB (VNC) client that asks qemu to resize its display: the way the kms-hotplug-mode
case changes the mode a virtio-gpu connector offers while the guest runs.

qemu answers a client's SetDesktopSize (RFB message 251, after SetEncodings with the
ExtendedDesktopSize pseudo-encoding -308) by passing the size to the display device as UI info;
virtio-gpu then raises a display config event, the guest driver re-reads the display info and
the EDID (whose preferred mode is now that size) and sends a hotplug uevent.

  vnc-resize.py SOCKET --when FILE --size WxH [--timeout SECONDS]

Connects to qemu's `-vnc unix:SOCKET` once it exists, completes the handshake (security None),
waits until FILE exists (the guest writes it into the shared /out), sends SetDesktopSize, prints
"vnc-resize: sent WxH", and keeps the connection a moment so qemu handles the message.
"""
import argparse
import os
import socket
import struct
import sys
import time


def recv_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("qemu closed the VNC connection")
        data += chunk
    return data


def wait_for(path, deadline, what):
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            sys.exit(f"vnc-resize: timed out waiting for {what} ({path})")
        time.sleep(0.1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("socket")
    ap.add_argument("--when", required=True)
    ap.add_argument("--size", required=True)
    ap.add_argument("--timeout", type=float, default=900)
    args = ap.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    deadline = time.monotonic() + args.timeout
    wait_for(args.socket, deadline, "qemu's VNC socket")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(args.socket)
    version = recv_exact(sock, 12)
    if not version.startswith(b"RFB 003."):
        sys.exit(f"vnc-resize: not an RFB server: {version!r}")
    sock.sendall(b"RFB 003.008\n")
    (count,) = struct.unpack("B", recv_exact(sock, 1))
    if count == 0:
        (length,) = struct.unpack(">I", recv_exact(sock, 4))
        sys.exit(f"vnc-resize: refused: {recv_exact(sock, length)!r}")
    types = recv_exact(sock, count)
    if 1 not in types:
        sys.exit(f"vnc-resize: no security type None among {list(types)}")
    sock.sendall(b"\x01")
    (result,) = struct.unpack(">I", recv_exact(sock, 4))
    if result != 0:
        sys.exit(f"vnc-resize: security result {result}")
    sock.sendall(b"\x01")  # ClientInit: shared
    fb_w, fb_h = struct.unpack(">HH", recv_exact(sock, 4))
    recv_exact(sock, 16)  # pixel format
    (name_len,) = struct.unpack(">I", recv_exact(sock, 4))
    recv_exact(sock, name_len)
    print(f"vnc-resize: connected, display {fb_w}x{fb_h}", flush=True)
    # SetEncodings: raw and ExtendedDesktopSize (-308).
    sock.sendall(struct.pack(">BxHii", 2, 2, 0, -308))
    wait_for(args.when, deadline, "the guest's request")
    # SetDesktopSize: width, height, one screen (id 0 at 0,0 of that size, flags 0).
    sock.sendall(struct.pack(">BxHHBx", 251, width, height, 1) + struct.pack(">IHHHHI", 0, 0, 0, width, height, 0))
    print(f"vnc-resize: sent {width}x{height}", flush=True)
    # Drain what qemu sends for a moment, so the message is handled before the socket closes.
    sock.settimeout(0.5)
    end = time.monotonic() + 5
    while time.monotonic() < end:
        try:
            if not sock.recv(65536):
                break
        except socket.timeout:
            pass
    sock.close()


if __name__ == "__main__":
    main()
