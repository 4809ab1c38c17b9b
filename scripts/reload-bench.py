#!/usr/bin/env python3
"""Reload benchmark for `run` (prints figures; fails on nothing but a kiosk that does not start).

Starts `dialkiosk run` on a virtual display with a control socket and a ten-item menu, then
reloads it N times through the socket, each time with new labels (so a new painter is built).
For each reload it prints how long the loop stood still: the longest answer to a cheap command
sent every 2 ms for 1.5 s after the reload. At checkpoints it prints the process's anonymous
memory (RssAnon) and resident peak (VmHWM) from /proc.

Usage: scripts/reload-bench.py [--binary .build/release/dialkiosk] [--size 1920x1080] [--reloads 20]
"""
import argparse
import os
import select
import socket
import subprocess
import sys
import tempfile
import time

LABELS = ["Espresso", "Cappuccino", "Flat white", "Latte", "Mocha",
          "Americano", "Tea", "Chocolate", "Water", "Juice"]


def write_menu(path, generation):
    with open(path, "w") as f:
        f.write("items:\n" + "".join(f"  - id: i{j}\n    label: {label} {generation}\n"
                                     for j, label in enumerate(LABELS)))


def status(pid):
    figures = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("RssAnon", "VmHWM"):
                figures[key] = int(line.split()[1])
    return figures


class Control:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.setblocking(False)
        self.pending = b""

    def send(self, line):
        self.sock.sendall(line.encode() + b"\n")

    def round_trip(self):
        """Seconds until the kiosk answers an unknown command (its `error` line)."""
        start = time.monotonic()
        self.send("nop")
        while True:
            ready, _, _ = select.select([self.sock], [], [], 10)
            if not ready:
                return None
            self.pending += self.sock.recv(65536)
            if b"unknown command" in self.pending:
                self.pending = b""
                return time.monotonic() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/dialkiosk")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--reloads", type=int, default=20)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="dialkiosk-reload-")
    config, control = os.path.join(work, "menu.yaml"), os.path.join(work, "control.sock")
    write_menu(config, 0)
    kiosk = subprocess.Popen([args.binary, "run", "--display", f"virtual:{args.size}@60",
                              "--control", control, "--config", config],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for _ in range(400):
        if os.path.exists(control) or kiosk.poll() is not None:
            break
        time.sleep(0.05)
    if not os.path.exists(control):
        kiosk.kill()
        sys.exit(f"reload-bench: the kiosk did not start: {kiosk.communicate()[1][-2000:]}")
    time.sleep(1.5)
    client = Control(control)
    for _ in range(20):
        client.round_trip()
    print(f"reload-bench: {args.size}, start: anon {status(kiosk.pid)['RssAnon']} kB")
    stalls = []
    checkpoints = {1, 2, 5, 10, 20, 40, 60, 80, 100, args.reloads}
    for n in range(1, args.reloads + 1):
        write_menu(config, n)
        client.send("reload")
        start, longest = time.monotonic(), 0.0
        while time.monotonic() - start < 1.5:
            longest = max(longest, client.round_trip() or 10.0)
            time.sleep(0.002)
        stalls.append(longest * 1000)
        if n in checkpoints:
            figures = status(kiosk.pid)
            print(f"reload-bench: after {n} reloads: anon {figures['RssAnon']} kB, resident peak {figures['VmHWM']} kB")
    kiosk.terminate()
    log = kiosk.communicate(timeout=10)[1]
    applied = log.count("reload: ")
    stalls.sort()
    print(f"reload-bench: {applied} reloads applied; loop stood still per reload (ms): "
          f"median {stalls[len(stalls) // 2]:.1f}, max {stalls[-1]:.1f}")


if __name__ == "__main__":
    main()
