#!/usr/bin/python3
"""A minimal RFB (VNC) client that asks qemu to resize its display: the way the kms-hotplug-mode
case changes the mode a virtio-gpu connector offers while the guest runs.

qemu answers a client's SetDesktopSize (RFB message 251, after SetEncodings with the
ExtendedDesktopSize pseudo-encoding -308) by passing the size to the display device as UI info;
virtio-gpu then raises a display config event, the guest driver re-reads the display info and
the EDID (whose preferred mode is now that size) and sends a hotplug uevent.

  vnc-resize.py SOCKET --step FILE:WxH [--step FILE:WxH ...] [--timeout SECONDS]

Connects to qemu's `-vnc unix:SOCKET` once it exists, completes the handshake (security None),
then for each step in order waits until FILE exists (the guest writes it into the shared /out),
sends SetDesktopSize WxH and prints "vnc-resize: sent WxH". Keeps the connection a moment after
the last so qemu handles the message.
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
    ap.add_argument("--step", action="append", required=True, help="FILE:WxH")
    ap.add_argument("--timeout", type=float, default=900)
    args = ap.parse_args()
    steps = []
    for step in args.step:
        path, size = step.rsplit(":", 1)
        steps.append((path, *(int(v) for v in size.lower().split("x"))))
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
    sock.settimeout(0.5)
    for path, width, height in steps:
        # Drain what qemu sends meanwhile (nothing was asked for, but never let it block).
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                sys.exit(f"vnc-resize: timed out waiting for the guest's request ({path})")
            drain(sock)
        # SetDesktopSize: width, height, one screen (id 0 at 0,0 of that size, flags 0).
        sock.sendall(struct.pack(">BxHHBx", 251, width, height, 1) + struct.pack(">IHHHHI", 0, 0, 0, width, height, 0))
        print(f"vnc-resize: sent {width}x{height}", flush=True)
    # A moment more, so the last message is handled before the socket closes.
    end = time.monotonic() + 5
    while time.monotonic() < end and drain(sock):
        pass
    sock.close()


def drain(sock):
    """Reads what qemu sent within the socket's timeout; False once it closed."""
    try:
        return bool(sock.recv(65536))
    except socket.timeout:
        return True


if __name__ == "__main__":
    main()
