#!/usr/bin/env python3
"""A thermostat stand-in on a real MQTT broker, for the value dial's tests.

It holds a target (retained on --state), and answers each command on --command the way slow
devices do: first it repeats its old value once (the echo a dial must not jump back to), then
after --delay seconds it reports the new target; every --never-every'th command (and, with
--seed, a random share of them) it never answers at all. Every report it sends is also printed
on stdout as `state <value>` so a test knows what the device last said.
Uses Debian's mosquitto_sub and mosquitto_pub (no Python MQTT package).
Usage: thermostat.py --port P --user U --password-file F --command T --state T [--initial 21]
       [--delay 0.5] [--echo-delay 0.1] [--never-every 4] [--seed N]
"""
import argparse, random, subprocess, sys, threading, time

ap = argparse.ArgumentParser(description="A thermostat stand-in on a real MQTT broker, for the value dial's tests.")
ap.add_argument("--host", default="127.0.0.1", help="the broker's address")
ap.add_argument("--port", type=int, required=True, help="the broker's port")
ap.add_argument("--user", required=True, help="the broker user")
ap.add_argument("--password-file", required=True, help="a file holding that user's password")
ap.add_argument("--command", required=True, help="the topic commands arrive on")
ap.add_argument("--state", required=True, help="the topic the target is reported on (retained)")
ap.add_argument("--initial", default="21.0", help="the target before any command")
ap.add_argument("--delay", type=float, default=0.5, help="seconds before the new target is reported")
ap.add_argument("--echo-delay", type=float, default=0.1, help="seconds before the old value is echoed once")
ap.add_argument("--never-every", type=int, default=4, help="every Nth command is never answered (0: all are)")
ap.add_argument("--seed", type=int, default=None, help="with a seed, a random share of commands is not answered either")
args = ap.parse_args()
password = open(args.password_file).read().strip()
common = ["-h", args.host, "-p", str(args.port), "-u", args.user, "-P", password]
rng = random.Random(args.seed)
lock = threading.Lock()
value = args.initial

def report(v):
    with lock:
        subprocess.run(["mosquitto_pub"] + common + ["-q", "1", "-r", "-t", args.state, "-m", v], check=True)
        print(f"state {v}", flush=True)

def answer(old, new, silent):
    global value
    time.sleep(args.echo_delay)
    report(old)
    if silent:
        print(f"silent {new}", flush=True)
        return
    time.sleep(max(0, args.delay - args.echo_delay))
    value = new
    report(new)

report(value)
sub = subprocess.Popen(["mosquitto_sub"] + common + ["-q", "1", "-t", args.command], stdout=subprocess.PIPE, text=True)
print("ready", flush=True)
count = 0
for line in sub.stdout:
    new = line.strip()
    if not new:
        continue
    count += 1
    print(f"command {new}", flush=True)
    silent = (args.never_every > 0 and count % args.never_every == 0) or (args.seed is not None and rng.random() < 0.15)
    threading.Thread(target=answer, args=(value, new, silent), daemon=True).start()
