#!/usr/bin/env python3
"""Benchmark of hostile JSON live payloads (prints figures; fails on nothing but a kiosk that
does not start). Needs mosquitto and mosquitto_pub.

A kiosk whose live items read a key of JSON payloads (`key: attributes.temperature`) gets bursts
of adversarial payloads at the bound (1 KiB): the shapes that made the former YAML-based reader
stand still for seconds (unclosed flow nesting, aliases and tags in flow collections, a long
string of escapes), nesting to the bound, many keys. The figure is the longest loop stand-still,
measured as the longest answer to a cheap control-socket command sent every 2 ms while they
arrive, against the same kiosk quiet; and the loop's own longest turn (`run --stats` says it at
the end, by the clock and by the loop thread's CPU time: a stand-still much longer than that
turn is the scheduler's on a loaded machine, not the loop's). One kiosk per family.

Usage: scripts/json-bench.py [--binary .build/release/dialkiosk] [--size 800x480] [--seconds 3]
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

BOUND = 1024


def at_bound(text):
    return text.encode("utf-8")[:BOUND]


def payloads():
    """Each family at the payload bound, named."""
    one_deep = "[" * 15 + "1" + "]" * 15
    laughs = '{"attributes": {"temperature": 1}, "l0": &l0 ["x", "x"]' + "".join(
        ', "l%d": &l%d [*l%d, *l%d]' % (n, n, n - 1, n - 1) for n in range(1, 24)) + "}"
    keyed = '{"l0": &k0 {"x": 1}' + "".join(
        ', "l%d": &k%d {*k%d : *k%d}' % (n, n, n - 1, n - 1) for n in range(1, 18)) + ', "attributes": {"temperature": 1}}'
    return {
        "aliases doubling (billion laughs)": at_bound(laughs),
        "aliases as keys of aliases": at_bound(keyed),
        "unclosed flow nesting": at_bound("[" * BOUND),
        "unclosed objects in arrays": at_bound('{"a":[' * 200),
        "aliases in flow collections": at_bound('{"attributes": [' + "&a [*a, " * 200),
        "tags and complex keys": at_bound("{" + "? [!!str [" * 150),
        "nesting to the bound, repeated": at_bound('{"attributes": {"temperature": [' + ",".join([one_deep] * 40) + "]}}"),
        "escapes": at_bound('{"attributes": {"temperature": "' + "\\ud83d\\udd25\\n" * 70 + '"}}'),
        "many keys": at_bound("{" + ",".join('"k%03d":%d' % (n, n) for n in range(100)) + "}"),
    }


class Kiosk(dkbench.Kiosk):
    def __init__(self, args, work, port, items):
        self.config = os.path.join(work, "live.yaml")
        control = os.path.join(work, f"control-{time.monotonic_ns()}.sock")
        text = "items:\n" + "".join(
            f"  - id: t{i}\n    label: T{i}\n    live:\n      topic: bench/t{i}\n      key: attributes.temperature\n"
            for i in range(items))
        text += f"mqtt:\n  host: 127.0.0.1\n  port: {port}\n  client_id: jsonbench\n"
        with open(self.config, "w") as f:
            f.write(text)
        command = [args.binary, "run", "--display", f"virtual:{args.size}@60", "--control", control,
                   "--config", self.config, "--stats"]
        super().__init__(command, control=control, name="json-bench")
        self.client = Control(control)

    def longest_turn(self):
        """The loop's own longest turn (ms, and ms of its thread's CPU), said at the end of the run."""
        for line in self.log:
            m = re.search(r"stats: longest turn ([0-9.]+) ms, ([0-9.]+) ms of", line)
            if m:
                return float(m.group(1)), float(m.group(2))
        return None


def longest_while(kiosk, seconds, action=None):
    longest, start = 0.0, time.monotonic()
    while time.monotonic() - start < seconds:
        if action:
            action()
        longest = max(longest, kiosk.client.round_trip() or 10.0)
        time.sleep(0.002)
    return longest * 1000


def main():
    parser = dkbench.arguments("Longest loop stand-still under hostile JSON live payloads.", size="800x480")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of each family")
    parser.add_argument("--items", type=int, default=8, help="live items, each on its own topic")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="dialkiosk-json-")
    port = free_port()
    broker = dkbench.mosquitto(work, "mosquitto", port)
    def turn_text(kiosk):
        turn = kiosk.longest_turn()
        return f"; loop's longest turn {turn[0]:.1f} ms ({turn[1]:.1f} ms of CPU)" if turn else ""

    kiosk = Kiosk(args, work, port, args.items)
    time.sleep(2)
    quiet = longest_while(kiosk, args.seconds)
    kiosk.stop()
    print(f"json-bench: {args.size}, {args.items} live items: quiet: longest loop stand-still {quiet:.1f} ms" + turn_text(kiosk))
    for name, payload in payloads().items():
        path = os.path.join(work, "payload")
        with open(path, "wb") as f:
            f.write(payload)
        kiosk = Kiosk(args, work, port, args.items)
        time.sleep(2)

        def burst():
            # One payload per item's topic each round: every topic has a message waiting each turn.
            for i in range(args.items):
                subprocess.Popen(["mosquitto_pub", "-p", str(port), "-t", f"bench/t{i}", "-f", path],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        rounds = []

        def action():
            if len(rounds) < 20:
                rounds.append(1)
                burst()

        figure = longest_while(kiosk, args.seconds, action)
        kiosk.stop()
        print(f"json-bench: {name} ({len(payload)} bytes, {len(rounds) * args.items} payloads): "
              f"longest loop stand-still {figure:.1f} ms" + turn_text(kiosk))
    broker.terminate()


if __name__ == "__main__":
    main()
