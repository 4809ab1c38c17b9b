#!/usr/bin/env python3
"""Signed fleet configuration on a real mosquitto (docs/fleet.md).

Starts Debian's mosquitto on a free loopback port and N kiosks (`dialkiosk run --display
virtual:...`) whose local files carry a `fleet:` section trusting one minisign key made by
`dialkiosk config keygen`, each with its own state folder. Then:
  1. one retained bundle on the fleet topic, signed by the real `minisign -S` (and cat), with an icon that travels as a blob named by its
     SHA-256 (`<topic>/blob/<sha256>`, retained), reaches every kiosk; publish -> each kiosk's
     first frame of the new menu (its `pending` config line's time, the flip's) p50/p95/max, both
     on CLOCK_MONOTONIC;
  2. a confirmation to every kiosk (`<base>/set/config_confirm`): all confirmed;
  3. a second push left unconfirmed: every kiosk reverts after confirm_seconds;
  4. bundles signed by another key (its key id named), with text changed or the trusted
     comment's serial edited after signing, an ALSA pipe escaped in the audio device, an old serial, a wrong target, an invalid configuration, a
     local-only section, a missing icon, a missing blob, a blob whose bytes do not match its
     hash: refused by every kiosk with the reason in `config/state`, the running serial and
     menu untouched;
  5. bad input to one kiosk (0 bytes, 10 MB, random bytes, a valid signature over other text,
     a signature of the wrong length, a blob whose bytes do not match its hash, a 10 MB blob):
     refused with the reason, resident memory flat, and a good bundle after it still shown;
  6. crash safety: one kiosk SIGKILLed at random points of receiving, storing (the bundle and
     its icon blob), building, applying and confirming (and at fixed points inside the state
     folder's writes), restarted each time: it always comes up on a confirmed configuration or
     the local file.
Usage: tests/mqtt/fleet-config.py [--binary .build/debug/dialkiosk] [--kiosks 50] [--crashes 12]
Exit 0 when every check holds, 1 otherwise.
"""
import argparse, hashlib, json, os, random, signal, socket, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.dont_write_bytecode = True
import dkimage
from dkcheck import check, failures, free_port  # noqa: E402

ap = argparse.ArgumentParser(description="Signed fleet configuration on a real mosquitto (exit 0 when every check holds).")
ap.add_argument("--binary", default=".build/debug/dialkiosk", help="the dialkiosk under test")
ap.add_argument("--kiosks", type=int, default=50, help="kiosks on the broker")
ap.add_argument("--crashes", type=int, default=12, help="SIGKILLs at random points while bundles are stored")
ap.add_argument("--confirm-seconds", type=int, default=6, help="fleet.confirm_seconds: how long an unconfirmed push stays")
ap.add_argument("--blob-wait-seconds", type=int, default=2, help="fleet.blob_wait_seconds: how long a bundle waits for its blobs")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
work = tempfile.mkdtemp(prefix="dialkiosk-fleetcfg-")
random.seed(32)


port = free_port()
with open(f"{work}/m.conf", "w") as f:
    f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\nmax_connections -1\n")
broker = subprocess.Popen(["mosquitto", "-c", f"{work}/m.conf"], stdout=open(f"{work}/broker.log", "w"), stderr=subprocess.STDOUT)
for _ in range(500):
    try:
        socket.create_connection(("127.0.0.1", port), 0.1).close(); break
    except OSError:
        time.sleep(0.01)
auth = ["-h", "127.0.0.1", "-p", str(port)]

# minisign keys without a password (minisign -W): scrypt at minisign's cost is a few seconds
# per signature, and this run signs dozens (tests/fleet/minisign.py covers encrypted keys).
subprocess.run([binary, "config", "keygen", "--without-password", "--out", f"{work}/keys"], check=True, stdout=subprocess.DEVNULL)
subprocess.run([binary, "config", "keygen", "--without-password", "--out", f"{work}/other"], check=True, stdout=subprocess.DEVNULL)

# Everything the kiosks say, stamped on arrival: config/state (retained) and event lines.
state = {}      # kiosk -> latest config/state dict
events = []     # (monotonic, kiosk, dict)
lock = threading.Lock()
discovery = {}  # (component, kiosk) -> config
sub = subprocess.Popen(["stdbuf", "-oL", "mosquitto_sub", *auth, "-q", "1", "-v", "-t", "fc/+/config/state", "-t", "fc/+/event",
                        "-t", "ha/update/+/config/config", "-t", "ha/button/+/config_confirm/config"],
                       stdout=subprocess.PIPE, text=True, bufsize=1)
def reader():
    for line in sub.stdout:
        topic, _, payload = line.rstrip("\n").partition(" ")
        parts = topic.split("/")
        try:
            value = json.loads(payload)
        except ValueError:
            continue
        with lock:
            if parts[0] == "ha":
                discovery[(parts[1], parts[2])] = value
            elif parts[2] == "config":
                state[parts[1]] = value
            else:
                events.append((time.monotonic(), parts[1], value))
threading.Thread(target=reader, daemon=True).start()
time.sleep(0.3)

LOCAL_MENU = "items:\n  - {id: coffee, label: Coffee}\n  - {id: tea, label: Tea}\n  - {id: water, label: Water}\n"

def local_config(name, confirm):
    text = LOCAL_MENU + (f"mqtt:\n  host: 127.0.0.1\n  port: {port}\n  client_id: {name}\n  base_topic: fc/{name}\n"
                         "  keepalive_seconds: 10\n  discovery_prefix: ha\n"
                         f"fleet:\n  trusted_keys: [{work}/keys/fleet.pub]\n  topic: fc/all/config\n  confirm_seconds: {confirm}\n"
                         f"  blob_wait_seconds: {args.blob_wait_seconds}\n")
    path = f"{work}/{name}.yaml"
    with open(path, "w") as f: f.write(text)
    return path

def start(name, confirm=args.confirm_seconds, env=None):
    os.makedirs(f"{work}/state-{name}", exist_ok=True)
    return subprocess.Popen([binary, "run", "--display", "virtual:96x64@30", "--config", local_config(name, confirm),
                             "--state-dir", f"{work}/state-{name}"],
                            stdout=open(f"{work}/{name}.out", "a"), stderr=open(f"{work}/{name}.err", "a"),
                            env=dict(os.environ, **(env or {})))

def menu(ids, icon=None):
    """A menu of `ids`; `icon`: the SHA-256 (hex) of the first item's icon blob."""
    return "items:\n" + "".join(f"  - {{id: {i}, label: {i.title()}" + (f", icon: 'sha256:{icon}'" if icon and n == 0 else "")
                                 + "}\n" for n, i in enumerate(ids))

def sign(text, serial, targets=(), key=None, check=True):
    path = f"{work}/menu-{serial}-{random.random()}.yaml"
    with open(path, "w") as f: f.write(text)
    cmd = [binary, "config", "sign", "--key", key or f"{work}/keys/fleet.key", "--serial", str(serial)]
    for t in targets: cmd += ["--target", t]
    if not check: cmd += ["--no-check"]
    return subprocess.run(cmd + [path], check=True, capture_output=True).stdout

def publish(topic, payload, retain=False):
    path = f"{work}/payload"
    with open(path, "wb") as f: f.write(payload)
    subprocess.run(["mosquitto_pub", *auth, "-q", "1", "-t", topic, "-f", path] + (["-r"] if retain else []), check=True)

def wait_all(names, pred, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with lock:
            if all(n in state and pred(state[n]) for n in names): return True
        time.sleep(0.1)
    return False

def summary(values):
    values = sorted(values)
    q = lambda p: values[min(len(values) - 1, int(p * len(values)))] * 1000
    return f"p50 {q(0.5):.0f} ms, p95 {q(0.95):.0f} ms, max {values[-1] * 1000:.0f} ms (n={len(values)})"

names = [f"k{i:03d}" for i in range(args.kiosks)]
kiosks = {n: start(n) for n in names}
check(wait_all(names, lambda s: s.get("source") == "local", 60), f"all {len(names)} kiosks up on their local file")

# 1. One retained bundle for the whole fleet, its icon a retained blob published first.
icon = dkimage.png_bytes(16, 16, (200, 40, 40, 255))
icon_sha = hashlib.sha256(icon).hexdigest()
publish(f"fc/all/config/blob/{icon_sha}", icon, retain=True)
# Signed by the real minisign with the key `config keygen` wrote, the bundle made with cat.
menu1 = f"{work}/menu-1.yaml"
with open(menu1, "w") as f: f.write(menu(["alpha", "beta"], icon=icon_sha))
subprocess.run(["minisign", "-S", "-s", f"{work}/keys/fleet.key", "-m", menu1, "-t", "dialkiosk-bundle serial:1"],
               check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
bundle1 = open(menu1 + ".minisig", "rb").read() + open(menu1, "rb").read()
sent = time.monotonic()
publish("fc/all/config", bundle1, retain=True)
check(wait_all(names, lambda s: s.get("serial") == 1 and s.get("status") == "pending", 60),
      "serial 1, signed by minisign -S, reached every kiosk and runs, pending")
with lock:
    swaps = {k: t for (t0, k, e) in events for t in [e.get("t")] if e.get("event") == "config" and e.get("serial") == 1
             and e.get("status") == "pending"}
check(len(swaps) == len(names), f"a config line for serial 1 from every kiosk ({len(swaps)})")
if swaps:
    print(f"fleet-config: publish -> first frame of the new menu on {len(swaps)} kiosks: {summary([t - sent for t in swaps.values()])}; "
          f"last kiosk {max(swaps.values()) - sent:.2f} s after the publish", flush=True)
with lock:
    reloaded = {k for (_, k, e) in events if e.get("event") == "reloaded" and e.get("items") == 2}
check(reloaded == set(names), f"every kiosk's event lines say reloaded with the pushed menu's 2 items ({len(reloaded)})")
check(all(open(f"{work}/state-{n}/blobs/{icon_sha}", "rb").read() == icon for n in names if os.path.exists(f"{work}/state-{n}/blobs/{icon_sha}"))
      and all(os.path.exists(f"{work}/state-{n}/blobs/{icon_sha}") for n in names), "every state folder keeps the icon blob")

# 2. Confirm everywhere: half by serial, half with Home Assistant's confirm button (it sends PRESS).
with lock:
    ha_ok = all(discovery.get(("update", n), {}).get("latest_version_topic") == f"fc/{n}/config/state"
                and discovery.get(("button", n), {}).get("command_topic") == f"fc/{n}/set/config_confirm" for n in names)
check(ha_ok, "Home Assistant discovery: an update entity and a confirm button for every kiosk")
for i, n in enumerate(names):
    publish(f"fc/{n}/set/config_confirm", b"1" if i % 2 == 0 else discovery.get(("button", n), {}).get("payload_press", "?").encode())
check(wait_all(names, lambda s: s.get("serial") == 1 and s.get("status") == "confirmed", 30), "serial 1 confirmed on every kiosk")
check(all(os.path.exists(f"{work}/state-{n}/current.bundle") for n in names), "every state folder holds current.bundle")

# 3. Serial 2 left unconfirmed: back to serial 1 after confirm_seconds.
publish("fc/all/config", sign(menu(["gamma", "delta", "eps", "zeta"]), 2), retain=True)
check(wait_all(names, lambda s: s.get("serial") == 2 and s.get("status") == "pending", 60), "serial 2 runs, pending, everywhere")
t2 = time.monotonic()
check(wait_all(names, lambda s: s.get("serial") == 1 and s.get("status") == "reverted" and s.get("offered") == 2,
               args.confirm_seconds + 30), "serial 2 unconfirmed: every kiosk reverted to serial 1")
print(f"fleet-config: revert seen on all {len(names)} kiosks {time.monotonic() - t2:.1f} s after the last was pending "
      f"(confirm_seconds {args.confirm_seconds})", flush=True)
time.sleep(0.5)

# 4. Refused by everyone, with the reason; the running serial stays 1.
def refused_everywhere(payload, offered, reason, what, retain=True):
    with lock: before = sum(1 for (_, _, e) in events if e.get("event") == "reloaded")
    publish("fc/all/config", payload, retain=retain)
    ok = wait_all(names, lambda s: s.get("status") == "refused" and s.get("offered") == offered and reason in (s.get("reason") or "")
                  and s.get("serial") == 1, 30)
    time.sleep(0.3)
    with lock: after = sum(1 for (_, _, e) in events if e.get("event") == "reloaded")
    with lock: sample = state.get(names[0], {}).get("reason")
    check(ok and before == after, f"{what}: refused by all, running serial 1 untouched, no reload ({sample!r})")

refused_everywhere(sign(menu(["evil"]), 10, key=f"{work}/other/fleet.key"), 10, "which is not a trusted key", "another key's id")
refused_everywhere(sign(menu(["old"]), 2), 2, "not above", "old serial (2, taken and reverted)")
refused_everywhere(sign(menu(["other"]), 11, targets=["nobody"]), 11, "targets other kiosks", "wrong target")
bad_color = sign(menu(["x"]) + "theme:\n  ring: \"#00ff00\"\n", 12).replace(b'"#00ff00"', b'"#00ffzz"')
refused_everywhere(bad_color, 12, "signature does not verify", "text changed after signing")
edited = sign(menu(["y"]), 13).replace(b"serial:13", b"serial:19", 1)
refused_everywhere(edited, 19, "trusted comment does not verify", "serial edited in the trusted comment after signing")
invalid_path = f"{work}/invalid.yaml"
with open(invalid_path, "w") as f: f.write("items:\n  - {id: a, label: A, color: blu}\n")
rc = subprocess.run([binary, "config", "sign", "--key", f"{work}/keys/fleet.key", "--serial", "13", invalid_path],
                    capture_output=True, text=True)
check(rc.returncode == 78 and "invalid.yaml:2" in rc.stderr, f"config sign refuses an invalid file, located: {rc.stderr.strip()!r}")
with open(f"{work}/display.yaml", "w") as f: f.write(menu(["a"]) + "display:\n  rotation: 90\n")
rc = subprocess.run([binary, "config", "sign", "--key", f"{work}/keys/fleet.key", "--serial", "14", f"{work}/display.yaml"],
                    capture_output=True, text=True)
check(rc.returncode == 78 and "display" in rc.stderr, f"config sign refuses a local-only section: {rc.stderr.strip()!r}")
refused_everywhere(sign("items:\n  - {id: a, label: A, color: blu}\n", 13, check=False), 13, "bundle-13.yaml:2", "invalid configuration")
refused_everywhere(sign(menu(["a"]) + "display:\n  rotation: 90\n", 14, check=False), 14, "section 'display", "local-only section")
# ALSA's escape for '|' in the audio device, signed without --allow-commands, on kiosks with
# allow_commands false: refused by its name, nothing opened.
piped = menu(["a"]) + "accessibility:\n  sound_cues: on\n  device: \"file:'\\\\174touch /tmp/dk-fleet-pwned'\"\n"
refused_everywhere(sign(piped, 18, check=False), 18, "accessibility.device: 'file:'\\174touch", "a pipe escaped in the audio device")
check(not os.path.exists("/tmp/dk-fleet-pwned"), "no kiosk ran the escaped command")
# A missing icon: valid to parse, fails to build on the kiosk: refused at once.
refused_everywhere(sign("items:\n  - {id: pic, label: Pic, icon: /nonexistent/icon.png}\n", 15), 15, "", "a missing icon (build fails)")

# An icon blob nobody published: refused once the wait is over.
absent = hashlib.sha256(b"never published").hexdigest()
refused_everywhere(sign(menu(["lost", "x"], icon=absent), 16), 16, f"blob sha256:{absent} did not come within", "a missing blob")
# A blob whose bytes are not the ones its name says.
wrong = dkimage.png_bytes(16, 16, (0, 0, 255, 255))
named = hashlib.sha256(dkimage.png_bytes(16, 16, (0, 255, 0, 255))).hexdigest()
publish(f"fc/all/config/blob/{named}", wrong, retain=True)
refused_everywhere(sign(menu(["fake", "x"], icon=named), 17), 17, f"blob sha256:{named} came with other bytes", "a blob whose hash does not match")
publish(f"fc/all/config/blob/{named}", b"", retain=True)

# 5. Bad input on one kiosk's own topic; memory flat.
one = names[-1]
def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1])
rss_before = rss(kiosks[one].pid)
good = sign(menu(["ok"]), 20)
bad = {
    "0 bytes": (b"", "empty"),
    "10 MB": (os.urandom(10 << 20), "larger than"),
    "random bytes": (os.urandom(4096), "not a bundle"),
    "valid signature over other text": (good.replace(b"id: ok", b"id: ko"), "signature"),
    "signature of the wrong length": (b"\n".join([good.split(b"\n")[0], b"RUQAAAA="] + good.split(b"\n")[2:]), "line 2: expected base64"),
}
for what, (payload, reason) in bad.items():
    publish(f"fc/{one}/set/config", payload)
    ok = wait_all([one], lambda s: s.get("status") == "refused" and reason in (s.get("reason") or "") and s.get("serial") == 1, 15)
    with lock: got = state.get(one, {}).get("reason")
    check(ok, f"{what}: refused ({got!r})")
# Blobs on the kiosk's own topic: bytes that are not the ones named, and 10 MB (never copied).
blob_cases = {
    "a blob whose hash does not match": (21, dkimage.png_bytes(8, 8, (1, 2, 3, 255)), dkimage.png_bytes(8, 8, (3, 2, 1, 255)),
                                         "came with other bytes"),
    "a 10 MB blob": (22, dkimage.png_bytes(8, 8, (9, 9, 9, 255)), os.urandom(10 << 20), "is larger than"),
}
for what, (serial, named_bytes, sent_bytes, reason) in blob_cases.items():
    sha = hashlib.sha256(named_bytes).hexdigest()
    publish(f"fc/{one}/set/config/blob/{sha}", sent_bytes, retain=True)
    publish(f"fc/{one}/set/config", sign(menu(["pic", "x"], icon=sha), serial))
    ok = wait_all([one], lambda s: s.get("status") == "refused" and s.get("offered") == serial and reason in (s.get("reason") or "")
                  and s.get("serial") == 1, 15)
    with lock: got = state.get(one, {}).get("reason")
    check(ok, f"{what}: refused ({got!r})")
    publish(f"fc/{one}/set/config/blob/{sha}", b"", retain=True)
time.sleep(1)
rss_after = rss(kiosks[one].pid)
check(kiosks[one].poll() is None, "the kiosk kept running through the bad input")
print(f"fleet-config: resident memory of the kiosk fed bad input: {rss_before} kB before, {rss_after} kB after", flush=True)
check(rss_after - rss_before < 16 << 10, f"memory flat after a 10 MB bundle and blob (+{rss_after - rss_before} kB, < 16 MB)")
# Frames go on: a good bundle after all that is taken, and `pending` comes with its first frame.
publish(f"fc/{one}/set/config", sign(menu(["after", "bad"]), 23))
check(wait_all([one], lambda s: s.get("serial") == 23 and s.get("status") == "pending", 15),
      "after the bad input, a good bundle is shown (its first frame reported) on that kiosk")

for p in kiosks.values(): p.send_signal(signal.SIGTERM)
for p in kiosks.values(): p.wait()

# 6. Crash safety: one kiosk, killed at random points, restarted.
crash = "crash"
publish("fc/all/config", b"", retain=True)  # clear the fleet topic: only this kiosk's own topic now
serial = 100
confirmed = set()      # serials a confirm was sent for (the kiosk may have died before storing it)
bad_starts = []
died_at_point = 0
for i in range(args.crashes):
    # Half the starts die at a fixed point of the state folder's Nth write or rename (1: the
    # highest serial, 2: incoming, 3: its rename to pending, 4-5: the confirmation's last-good
    # and rename), half only by the SIGKILL below at a random moment.
    point = random.choice(["", "", "", f"torn@{random.randint(1, 3)}", f"before-rename@{random.randint(1, 5)}",
                           f"after-rename@{random.randint(1, 5)}"])
    env = {"DIALKIOSK_FLEET_CRASH_AT": point} if point else {}
    with lock: state.pop(crash, None)
    p = start(crash, confirm=3, env=env)
    if not wait_all([crash], lambda s: True, 20):
        p.kill(); p.wait(); continue
    with lock: s = state[crash]
    if s.get("source") == "fleet" and s.get("serial") not in confirmed:
        bad_starts.append((i, s))
    if s.get("status") == "pending":
        bad_starts.append((i, s))
    serial += 1
    # Every other bundle with an icon blob of its own, published just before it.
    icon = None
    if serial % 2:
        blob = dkimage.png_bytes(8, 8, (serial % 256, 7, 7, 255))
        icon = hashlib.sha256(blob).hexdigest()
        publish(f"fc/{crash}/set/config/blob/{icon}", blob, retain=True)
    publish(f"fc/{crash}/set/config", sign(menu([f"m{serial}", "x"], icon=icon), serial))
    time.sleep(random.uniform(0, 0.6))
    if random.random() < 0.6:
        confirmed.add(serial)
        publish(f"fc/{crash}/set/config_confirm", str(serial).encode())
        time.sleep(random.uniform(0, 0.4))
    if p.poll() is not None and point: died_at_point += 1
    p.send_signal(signal.SIGKILL); p.wait()
    status = json.loads(subprocess.run([binary, "config", "status", "--state-dir", f"{work}/state-{crash}"],
                                       capture_output=True, text=True).stdout)
    if status["serial"] is not None and status["serial"] not in confirmed:
        bad_starts.append((i, status))
# The last start after the last kill.
with lock: state.pop(crash, None)
p = start(crash, confirm=3)
wait_all([crash], lambda s: True, 20)
with lock: s = state.get(crash, {})
if (s.get("source") == "fleet" and s.get("serial") not in confirmed) or s.get("status") == "pending":
    bad_starts.append(("last", s))
p.send_signal(signal.SIGTERM); p.wait()
print(f"fleet-config: {died_at_point} of {args.crashes} runs died at a fixed point of a state write before the random SIGKILL", flush=True)
check(not bad_starts, f"{args.crashes} SIGKILLs at random points: every start on a confirmed configuration or the local file "
      f"(last start: source {s.get('source')}, serial {s.get('serial')}; bad: {bad_starts})")

sub.terminate()
broker.terminate(); broker.wait()
print("fleet-config: " + ("PASS" if not failures else "FAIL: " + "; ".join(failures)) + f" (work dir {work})")
sys.exit(1 if failures else 0)
