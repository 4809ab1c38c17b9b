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
import os
import select
import socket
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import dkbench  # noqa: E402
from dkbench import Kiosk, free_port, mosquitto, status_kb  # noqa: E402

ITEMS = "items:\n" + "".join(f"  - {{id: i{i}, label: Item {i}}}\n" for i in range(8))


def kiosk(binary, work, name, port, client_id):
    """A kiosk on a virtual display with a control socket, connected to the broker on `port`."""
    config, control = os.path.join(work, f"{name}.yaml"), os.path.join(work, f"{name}.sock")
    with open(config, "w") as f:
        f.write(ITEMS + f"mqtt:\n  host: 127.0.0.1\n  port: {port}\n  client_id: {client_id}\n  keepalive_seconds: 60\n")
    return Kiosk([binary, "run", "--display", "virtual:320x240@60", "--control", control, "--config", config],
                 control=control, name="mqtt-fault-bench")


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


def main():
    parser = dkbench.arguments("Figures for the MQTT fault classes: a stalled broker, two kiosks with one client id.")
    parser.add_argument("--changes", type=int, default=20000, help="state changes made while the broker is stopped")
    parser.add_argument("--seconds", type=int, default=60, help="how long the two kiosks with one client id run")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="dialkiosk-mqtt-bench-")

    # 1. a stalled broker
    port = free_port()
    broker = mosquitto(work, "stall", port)
    stalled_kiosk = kiosk(args.binary, work, "stall", port, "stall-bench")
    time.sleep(2)
    selects(stalled_kiosk.control, 2000)  # warm up: the socket buffers and queues reach their steady size
    start = status_kb(stalled_kiosk.pid, "VmRSS")
    os.kill(broker.pid, 19)  # SIGSTOP
    selects(stalled_kiosk.control, args.changes)
    stalled = status_kb(stalled_kiosk.pid, "VmRSS")
    os.kill(broker.pid, 18)  # SIGCONT
    time.sleep(3)
    after = status_kb(stalled_kiosk.pid, "VmRSS")
    stalled_kiosk.stop()
    broker.terminate()
    broker.wait()
    print(f"mqtt-fault-bench: stalled broker: resident {start} kB before, {stalled} kB after {args.changes} state "
          f"changes ({stalled - start:+d} kB), {after} kB 3 s after the broker went on")

    # 2. two kiosks, one client id
    port = free_port()
    broker = mosquitto(work, "twins", port, output=True)
    a = kiosk(args.binary, work, "a", port, "twin")
    b = kiosk(args.binary, work, "b", port, "twin")
    time.sleep(args.seconds)
    a.stop()
    b.stop()
    broker.terminate()
    out = broker.communicate()[0]
    takeovers = out.count("already connected, closing old connection")
    named = sum("another client is probably connected" in line for line in a.log + b.log)
    lost = sum("lost the connection" in line for line in a.log + b.log)
    print(f"mqtt-fault-bench: two kiosks with one client id for {args.seconds} s: {takeovers} takeovers, "
          f"{lost} 'lost the connection' lines, {named} lines naming the cause")


if __name__ == "__main__":
    main()
