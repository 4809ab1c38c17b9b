#!/usr/bin/env python3
"""A fleet of DialKiosk processes on one real mosquitto.

Starts Debian's mosquitto on a free loopback port with a password file, N kiosks
(`dialkiosk run --display virtual:...`, no GPU or touchscreen) each with its own client id and
base topic, and one subscriber (mosquitto_sub) stamping every message with CLOCK_MONOTONIC, the
clock the kiosks' event lines carry. Then: every kiosk online; a round of `set/select` commands;
every event line each kiosk wrote on stdout arrives exactly once at the subscriber; K kiosks
killed with SIGKILL and the broker's retained availability says exactly those are offline.
Prints selection-to-subscriber latency p50/p95 and the resident memory MQTT adds per kiosk.
Usage: tests/mqtt/fleet.py [--binary .build/debug/dialkiosk] [--kiosks 50] [--kill 10]
Exit 0 when every check holds, 1 otherwise.
"""
import argparse, os, signal, socket, subprocess, sys, tempfile, threading, time
sys.dont_write_bytecode = True  # no __pycache__ in the clone
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from dkcheck import check, failures, free_port  # noqa: E402

ap = argparse.ArgumentParser(description="A fleet of kiosks on one real mosquitto (exit 0 when every check holds).")
ap.add_argument("--binary", default=".build/debug/dialkiosk", help="the dialkiosk under test")
ap.add_argument("--kiosks", type=int, default=50, help="kiosks on the broker")
ap.add_argument("--kill", type=int, default=10, help="kiosks killed with SIGKILL at the end")
ap.add_argument("--rounds", type=int, default=4, help="rounds of set/select commands to every kiosk")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dialkiosk-fleet-")
os.chmod(work, 0o755)


port = free_port()
subprocess.run(["mosquitto_passwd", "-b", "-c", f"{work}/passwd", "fleet", "f1eet"], check=True)
os.chmod(f"{work}/passwd", 0o644)
with open(f"{work}/pw", "w") as f: f.write("f1eet\n")
with open(f"{work}/m.conf", "w") as f:
    f.write(f"listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {work}/passwd\npersistence false\n"
            "max_queued_messages 100000\nmax_connections -1\n")
broker = subprocess.Popen(["mosquitto", "-c", f"{work}/m.conf"], stdout=open(f"{work}/broker.log", "w"), stderr=subprocess.STDOUT)
for _ in range(500):
    try:
        socket.create_connection(("127.0.0.1", port), 0.1).close(); break
    except OSError:
        time.sleep(0.01)

auth = ["-h", "127.0.0.1", "-p", str(port), "-u", "fleet", "-P", "f1eet"]
received = []  # (monotonic, topic, payload)
sub = subprocess.Popen(["stdbuf", "-oL", "mosquitto_sub", *auth, "-q", "1", "-v", "-t", "fleet/+/event"],
                       stdout=subprocess.PIPE, text=True, bufsize=1)
def reader():
    for line in sub.stdout:
        topic, _, payload = line.rstrip("\n").partition(" ")
        received.append((time.monotonic(), topic, payload))
threading.Thread(target=reader, daemon=True).start()
time.sleep(0.5)

def config(name, mqtt=True):
    text = "items:\n  - {id: coffee, label: Coffee}\n  - {id: tea, label: Tea}\n  - {id: water, label: Water}\n"
    if mqtt:
        text += (f"mqtt:\n  host: 127.0.0.1\n  port: {port}\n  username: fleet\n  password_file: {work}/pw\n"
                 f"  client_id: {name}\n  base_topic: fleet/{name}\n  keepalive_seconds: 10\n  discovery_prefix: none\n")
    path = f"{work}/{name}.yaml"
    with open(path, "w") as f: f.write(text)
    return path

def start(name, mqtt=True):
    return subprocess.Popen([binary, "run", "--display", "virtual:96x64@30", "--config", config(name, mqtt)],
                            stdout=open(f"{work}/{name}.out", "w"), stderr=open(f"{work}/{name}.err", "w"))

names = [f"k{i:03d}" for i in range(args.kiosks)]
kiosks = {n: start(n) for n in names}

def availability():
    out = subprocess.run(["timeout", "3", "mosquitto_sub", *auth, "-v", "-t", "fleet/+/availability", "-W", "2"],
                         capture_output=True, text=True).stdout
    view = {}
    for line in out.splitlines():
        topic, _, payload = line.partition(" ")
        view[topic.split("/")[1]] = payload
    return view

deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    view = availability()
    if sum(1 for n in names if view.get(n) == "online") == len(names): break
check(sum(1 for n in names if view.get(n) == "online") == len(names),
      f"all {len(names)} kiosks online ({sum(1 for n in names if view.get(n) == 'online')} say online)")

# Rounds of selections through MQTT: every kiosk turns to tea, water, coffee, ...
items = ["tea", "water", "coffee"]
for r in range(args.rounds):
    for n in names:
        subprocess.run(["mosquitto_pub", *auth, "-q", "1", "-t", f"fleet/{n}/set/select", "-m", items[r % 3]], check=True)
    time.sleep(1.5)
time.sleep(2)

# Memory: one more kiosk without MQTT beside one of the fleet, resident set after it settled.
plain = start("plain", mqtt=False)
time.sleep(3)
def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1])
with_mqtt = sorted(rss(p.pid) for p in kiosks.values())
without = rss(plain.pid)
plain.send_signal(signal.SIGTERM); plain.wait()

# Kill some without goodbye; the broker's view must name exactly them offline.
killed = names[:args.kill]
for n in killed:
    kiosks[n].send_signal(signal.SIGKILL); kiosks[n].wait()
time.sleep(2)
view = availability()
offline = sorted(n for n in names if view.get(n) == "offline")
check(offline == killed, f"broker's view after killing {len(killed)}: offline {len(offline)} (exactly the killed: {offline == killed})")
for n in names[args.kill:]:
    kiosks[n].send_signal(signal.SIGTERM)
for n in names[args.kill:]:
    kiosks[n].wait()
time.sleep(1.5)
sub.terminate()

# Exactly once: each kiosk's stdout lines equal what the subscriber got on its topic, in order.
by_topic = {}
for t, topic, payload in received:
    by_topic.setdefault(topic, []).append((t, payload))
mismatched = []
latencies = []
for n in names:
    stdout = [l for l in open(f"{work}/{n}.out").read().splitlines() if l]
    got = [p for _, p in by_topic.get(f"fleet/{n}/event", [])]
    if n in killed:
        ok = got == stdout[:len(got)] and len(got) >= len(stdout) - 20  # the last lines may die in flight
    else:
        ok = got == stdout
    if not ok: mismatched.append(n)
    for t, payload in by_topic.get(f"fleet/{n}/event", []):
        if '"event": "selected"' in payload:
            sent = float(payload.split('"t": ')[1].split(",")[0])
            latencies.append(t - sent)
total = sum(len(v) for v in by_topic.values())
check(not mismatched, f"every event exactly once and in order for every kiosk ({total} lines; mismatched: {mismatched})")
check(len(latencies) >= len(names) * args.rounds, f"{len(latencies)} selections received")
latencies.sort()
if latencies:
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(f"fleet: {len(names)} kiosks, selection-to-subscriber latency p50 {p(0.5):.1f} ms, p95 {p(0.95):.1f} ms "
          f"(n={len(latencies)}; the kiosk's selection time to mosquitto_sub's line, CLOCK_MONOTONIC)")
med = with_mqtt[len(with_mqtt) // 2]
print(f"fleet: resident memory median {med} kB with MQTT vs {without} kB for a kiosk without it: +{med - without} kB")
broker.terminate(); broker.wait()
print("fleet: " + ("PASS" if not failures else "FAIL: " + "; ".join(failures)) + f" (work dir {work})")
sys.exit(1 if failures else 0)
