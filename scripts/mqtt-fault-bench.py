#!/usr/bin/env python3
"""Benchmark of the MQTT fault classes (prints figures; fails on nothing but a kiosk that does
not start). Needs mosquitto.

1. A stalled broker (mosquitto SIGSTOPped after the kiosk connected) while the kiosk's state
   changes: the kiosk's resident memory before and after N `brightness` commands (each changes the
   retained state), and after the broker goes on.
2. Two kiosks with one client id: how many times the broker closed an old connection for a new
   one in the given seconds (a takeover), and the journal lines naming the cause.

Usage: scripts/mqtt-fault-bench.py [--binary .build/release/dialkiosk] [--changes 20000] [--seconds 60]
"""
import argparse
import os
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time

ITEMS = "items:\n" + "".join(f"  - {{id: i{i}, label: Item {i}}}\n" for i in range(8))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Kiosk:
    def __init__(self, binary, work, name, port, client_id):
        self.config = os.path.join(work, f"{name}.yaml")
        self.control = os.path.join(work, f"{name}.sock")
        with open(self.config, "w") as f:
            f.write(ITEMS + f"mqtt:\n  host: 127.0.0.1\n  port: {port}\n  client_id: {client_id}\n  keepalive_seconds: 60\n")
        self.process = subprocess.Popen([binary, "run", "--display", "virtual:320x240@60", "--control", self.control,
                                         "--config", self.config], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.log = []
        threading.Thread(target=self._read, daemon=True).start()
        for _ in range(600):
            if os.path.exists(self.control) or self.process.poll() is not None:
                break
            time.sleep(0.05)
        if not os.path.exists(self.control):
            self.process.kill()
            sys.exit("mqtt-fault-bench: the kiosk did not start: " + "".join(self.log)[-2000:])

    def _read(self):
        for line in self.process.stderr:
            self.log.append(line)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


def selects(path, count):
    """`count` select commands alternating between two items, replies read and dropped."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    stop = threading.Event()

    def drain():
        # select, not a socket timeout: a timeout makes the descriptor non-blocking for the
        # writer too.
        while not stop.is_set():
            ready, _, _ = select.select([sock], [], [], 0.2)
            if ready:
                try:
                    if not sock.recv(1 << 16):
                        return
                except OSError:
                    return
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    for n in range(count):
        sock.sendall(f"brightness {40 + n % 2 * 20}\n".encode())
        time.sleep(0.0005)
    time.sleep(1)
    stop.set()
    reader.join()
    sock.close()


def broker(work, name, port):
    conf = os.path.join(work, f"{name}.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    process = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(0.5)
    return process


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/dialkiosk")
    parser.add_argument("--changes", type=int, default=20000)
    parser.add_argument("--seconds", type=int, default=60)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="dialkiosk-mqtt-bench-")

    # 1. a stalled broker
    port = free_port()
    mosquitto = broker(work, "stall", port)
    kiosk = Kiosk(args.binary, work, "stall", port, "stall-bench")
    time.sleep(2)
    selects(kiosk.control, 2000)  # warm up: the socket buffers and queues reach their steady size
    start = rss_kb(kiosk.process.pid)
    os.kill(mosquitto.pid, 19)  # SIGSTOP
    selects(kiosk.control, args.changes)
    stalled = rss_kb(kiosk.process.pid)
    os.kill(mosquitto.pid, 18)  # SIGCONT
    time.sleep(3)
    after = rss_kb(kiosk.process.pid)
    kiosk.stop()
    mosquitto.terminate()
    mosquitto.wait()
    print(f"mqtt-fault-bench: stalled broker: resident {start} kB before, {stalled} kB after {args.changes} state "
          f"changes ({stalled - start:+d} kB), {after} kB 3 s after the broker went on")

    # 2. two kiosks, one client id
    port = free_port()
    mosquitto = broker(work, "twins", port)
    a = Kiosk(args.binary, work, "a", port, "twin")
    b = Kiosk(args.binary, work, "b", port, "twin")
    time.sleep(args.seconds)
    a.stop()
    b.stop()
    mosquitto.terminate()
    out = mosquitto.communicate()[0]
    takeovers = out.count("already connected, closing old connection")
    named = sum("another client is probably connected" in line for line in a.log + b.log)
    lost = sum("lost the connection" in line for line in a.log + b.log)
    print(f"mqtt-fault-bench: two kiosks with one client id for {args.seconds} s: {takeovers} takeovers, "
          f"{lost} 'lost the connection' lines, {named} lines naming the cause")


if __name__ == "__main__":
    main()
