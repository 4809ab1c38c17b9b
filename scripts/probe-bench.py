#!/usr/bin/env python3
"""Benchmark of the probe's fault classes (prints figures; fails on nothing but a kiosk that does
not start). Needs mosquitto and mosquitto_pub.

1. The longest loop stand-still while a broker delivers the largest payload the kiosk takes
   (4096 bytes) and payloads far past it (2 MB of combining marks), measured as the longest
   answer to a cheap control-socket command sent every 2 ms.
2. flips/s (`--stats`) during a demo fling of a 512-item menu, with and without a flood of
   `reload` lines (the file unchanged) on the control socket.
3. How long the loop stands still per applied reload of that menu (new labels each time), and
   the loop's own longest turn (`run --stats` says it at the end, by the clock and by the loop
   thread's CPU time: a stand-still longer than that turn is the scheduler's, not the loop's).

Usage: scripts/probe-bench.py [--binary .build/release/dialkiosk] [--size 1920x1080]
"""
import os
import re
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "lib"))
import dkbench  # noqa: E402
from dkbench import Control, free_port  # noqa: E402


def menu(generation):
    rings = "".join(
        f"  - id: r{r}\n    label: Ring {r} {generation}\n    items:\n"
        + "".join(f"      - {{id: i{i}, label: \"Item {r}.{i} with a long label {generation}\"}}\n" for i in range(63))
        for r in range(8))
    return "items:\n" + rings


class Kiosk(dkbench.Kiosk):
    """`run --stats` of the 512-item menu on a virtual display, with a control-socket client."""

    def __init__(self, args, work, mqtt_port=None, fling=None):
        self.config = os.path.join(work, "menu.yaml")
        control = os.path.join(work, f"control-{time.monotonic_ns()}.sock")
        text = menu(0)
        if mqtt_port:
            text += f"mqtt:\n  host: 127.0.0.1\n  port: {mqtt_port}\n  client_id: bench\n"
        with open(self.config, "w") as f:
            f.write(text)
        command = [args.binary, "run", "--display", f"virtual:{args.size}@60", "--control", control,
                   "--config", self.config, "--stats"]
        if fling:
            command += ["--demo-fling", str(fling)]
        super().__init__(command, control=control, name="probe-bench")
        self.client = Control(control)

    def flips(self):
        return [float(m.group(1)) for line in self.log for m in [re.search(r"stats: ([0-9.]+) flips/s", line)] if m]

    def loop_cpu(self):
        """CPU seconds the main thread (the loop's) has run, from /proc/PID/task/PID/schedstat."""
        pid = self.process.pid
        with open(f"/proc/{pid}/task/{pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9

    def longest_turn(self):
        """The loop's own longest turn (ms, and ms of its thread's CPU), said at the end of the run."""
        for line in self.log:
            m = re.search(r"stats: longest turn ([0-9.]+) ms, ([0-9.]+) ms of", line)
            if m:
                return float(m.group(1)), float(m.group(2))
        return None


def longest_while(kiosk, seconds, action=None, counted=None):
    longest, start = 0.0, time.monotonic()
    while time.monotonic() - start < seconds:
        if action:
            action()
        longest = max(longest, kiosk.client.round_trip() or 10.0)
        if counted is not None:
            counted.append(1)
        time.sleep(0.002)
    return longest * 1000


def main():
    parser = dkbench.arguments("Figures for the probe's fault classes: payloads, reload floods, reload stand-stills.", size="1920x1080")
    parser.add_argument("--reloads", type=int, default=5, help="applied reloads of the 512-item menu to time")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="dialkiosk-probe-")

    # 1. network payloads
    port = free_port()
    broker = dkbench.mosquitto(work, "mosquitto", port)
    kiosk = Kiosk(args, work, mqtt_port=port)
    time.sleep(2)
    quiet = longest_while(kiosk, 1.0)
    big = os.path.join(work, "big")
    with open(big, "w") as f:
        f.write("r0/i1" + "\u0301" * 1_000_000)
    # At the limit: one "word" of combining marks (4095 bytes), decoded, split and refused as no
    # such item: the most decoding work a payload the kiosk accepts can ask for.
    limit = "x" + "\u0301" * 2047
    def publish(path=None, message=None):
        command = ["mosquitto_pub", "-p", str(port), "-t", "dialkiosk/bench/set/select", "-q", "1"]
        command += ["-f", path] if path else ["-m", message]
        subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(20):
        publish(message=limit)
    at_limit = longest_while(kiosk, 2.0)
    for _ in range(5):
        publish(path=big)
    past_limit = longest_while(kiosk, 3.0)
    kiosk.stop()
    broker.terminate()
    print(f"probe-bench: {args.size}: longest loop stand-still: quiet {quiet:.1f} ms, "
          f"20 payloads of 4095 bytes (combining marks) {at_limit:.1f} ms, 5 payloads of 2 MB (refused undecoded) {past_limit:.1f} ms")

    # 2. flips/s under a reload flood (unchanged file)
    rates, turns = {}, {}
    for flood in (False, True):
        kiosk = Kiosk(args, work, fling=200)
        start = time.monotonic()
        while time.monotonic() - start < 4:
            if flood:
                kiosk.client.send("\n".join(["reload"] * 8))
            time.sleep(0.004)
        kiosk.stop()
        seen = kiosk.flips()
        rates[flood] = sum(seen) / len(seen) if seen else 0.0
        turns[flood] = kiosk.longest_turn()
    print(f"probe-bench: 512 items, demo fling: {rates[False]:.1f} flips/s without reloads, "
          f"{rates[True]:.1f} flips/s under a flood of reload lines (unchanged file)"
          + (f"; longest loop turn {turns[False][0]:.1f} / {turns[True][0]:.1f} ms" if turns[False] and turns[True] else ""))

    # 3. stand-still per applied reload
    kiosk = Kiosk(args, work)
    time.sleep(2)
    # The loop thread's CPU in the same window without a reload (the probe's own commands).
    before, trips = kiosk.loop_cpu(), []
    longest_while(kiosk, 3.0, counted=trips)
    per_trip = (kiosk.loop_cpu() - before) / max(1, len(trips))
    stalls, cpu = [], []
    for n in range(1, args.reloads + 1):
        with open(kiosk.config, "w") as f:
            f.write(menu(n))
        before, trips = kiosk.loop_cpu(), []
        kiosk.client.send("reload")
        stalls.append(longest_while(kiosk, 3.0, counted=trips))
        cpu.append((kiosk.loop_cpu() - before - per_trip * len(trips)) * 1000)
    kiosk.stop()
    cpu.sort()
    stalls.sort()
    turn = kiosk.longest_turn()
    print(f"probe-bench: 512 items at {args.size}: loop stood still per applied reload: "
          f"median {stalls[len(stalls) // 2]:.0f} ms, max {stalls[-1]:.0f} ms over {len(stalls)} reloads"
          + (f"; the loop's longest turn {turn[0]:.1f} ms, {turn[1]:.1f} ms of its thread's CPU" if turn else
             " (the binary does not say its longest turn)"))
    print(f"probe-bench: 512 items at {args.size}: the loop thread's CPU per applied reload (less the probe's commands): "
          f"median {cpu[len(cpu) // 2]:.0f} ms, max {cpu[-1]:.0f} ms")


if __name__ == "__main__":
    main()
