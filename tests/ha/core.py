#!/usr/bin/env python3
"""The kiosk's Home Assistant discovery against a real Home Assistant Core.

Starts Debian's mosquitto on a free loopback port, a pinned Home Assistant Core (tests/ha/venv.sh:
a cached Debian 13 root with a venv) whose only integration beyond the ones it always loads is
MQTT, its config entry written into .storage/core.config_entries and pointed at that broker,
and a `dialkiosk run --display virtual:...` whose menu holds a value item the kiosk owns (a
`number` in Home Assistant). Then:
  1. every entity the kiosk announced (its retained discovery configs, read back from the
     broker) exists in Home Assistant under the `default_entity_id` it asked for;
  2. a reload (SIGHUP) with that item removed: the number's state is gone from Home Assistant
     while the other entities stay, and after Home Assistant stopped (which writes its
     registries) its entity registry holds no entry for it;
  3. Home Assistant's log has no warning or error that mentions MQTT, a deprecation, or the
     kiosk's topics and ids.
Home Assistant is read over its REST API with an access token from its onboarding API (a fresh
configuration has no user: the first one is made there, as the frontend's onboarding does).
The state is what Home Assistant holds now; its registry file is written only 10-180 s after a
change (at once when it stops), so the file is read once, after the stop.
Usage: tests/ha/core.py [--binary .build/debug/dialkiosk] [--keep]
Exit 0 when every check holds, 1 otherwise. Needs root (the Debian 13 root is entered with chroot).
"""
import argparse, json, os, re, shutil, signal, subprocess, sys, tempfile, time, urllib.error, urllib.parse, urllib.request
sys.dont_write_bytecode = True  # no __pycache__ in the clone
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "lib"))
from dkcheck import check, failures, free_port  # noqa: E402
from dkbench import mosquitto  # noqa: E402

ap = argparse.ArgumentParser(description="The kiosk's discovery against a real Home Assistant Core (exit 0 when every check holds).")
ap.add_argument("--binary", default=".build/debug/dialkiosk", help="the dialkiosk under test")
ap.add_argument("--keep", action="store_true", help="keep the work directory (Home Assistant's config and log)")
ap.add_argument("--start-timeout", type=float, default=300, help="seconds Home Assistant may take to start")
args = ap.parse_args()
binary = os.path.abspath(args.binary)
if os.geteuid() != 0:
    sys.exit("core.py: needs root (Home Assistant runs in a Debian 13 root entered with chroot)")

t0 = time.monotonic()
bed = subprocess.run([os.path.join(here, "venv.sh")], stdout=subprocess.PIPE, text=True)
if bed.returncode != 0:
    sys.exit(f"core.py: tests/ha/venv.sh failed (status {bed.returncode})")
root, venv = bed.stdout.split()
print(f"Home Assistant bed {venv} ready in {time.monotonic() - t0:.1f} s", flush=True)

work = tempfile.mkdtemp(prefix="dialkiosk-ha-", dir="/var/tmp")
os.chmod(work, 0o755)
client = "hatest"
processes = []  # (name, Popen started in a session of its own), stopped in reverse order


def start(name, command, **kw):
    p = subprocess.Popen(command, start_new_session=True, **kw)
    processes.append((name, p))
    return p


def stop(name, p, timeout=60):
    """SIGTERM, SIGKILL after `timeout` s; True when it ended in time. A process started in a
    session of its own gets the signals as a group and counts as ended when its whole group
    has: Home Assistant runs under venv.sh, unshare and chroot, which end before it does."""
    group = p.poll() is None and os.getpgid(p.pid) == p.pid
    pgid = p.pid

    def signal_it(sig):
        try:
            os.killpg(pgid, sig) if group else p.send_signal(sig)
        except ProcessLookupError:
            pass

    def ended():
        p.poll()  # reaps the direct child, whose zombie would keep the group alive
        if not group:
            return p.returncode is not None
        try:
            os.killpg(pgid, 0)
            return False
        except ProcessLookupError:
            return True
    if ended():
        return True
    signal_it(signal.SIGTERM)
    if wait_for(name, ended, timeout, every=0.2):
        return True
    print(f"     {name} did not end within {timeout} s of SIGTERM: killed", flush=True)
    signal_it(signal.SIGKILL)
    wait_for(name, ended, 10, every=0.2)
    return False


def stop_all():
    while processes:
        name, p = processes.pop()
        stop(name, p, timeout=30)


def wait_for(what, predicate, timeout, every=0.5):
    """predicate()'s first truthy value within `timeout` s, else None."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(every)


def tail(path, n=30):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return "(none)"


ha_dir = os.path.join(work, "ha")
ha_log = os.path.join(ha_dir, "home-assistant.log")
ha_port, broker_port = free_port(), free_port()
base_url = f"http://127.0.0.1:{ha_port}"


class HA:
    """Home Assistant's REST API with the token from onboarding."""
    token = None

    @staticmethod
    def request(path, data=None, form=False, timeout=10):
        headers = {}
        body = None
        if data is not None:
            body = (urllib.parse.urlencode(data) if form else json.dumps(data)).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded" if form else "application/json"
        if HA.token:
            headers["Authorization"] = "Bearer " + HA.token
        req = urllib.request.Request(base_url + path, data=body, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, None
        except (OSError, ValueError):
            return None, None

    @staticmethod
    def states():
        """{entity_id: state object} now, or None when Home Assistant does not answer."""
        status, body = HA.request("/api/states")
        return {s["entity_id"]: s for s in body} if status == 200 else None


def write_configs():
    os.makedirs(os.path.join(ha_dir, ".storage"))
    with open(os.path.join(ha_dir, "configuration.yaml"), "w") as f:
        # No default_config: only what MQTT needs. Every location field set, so no repair
        # issue or warning asks for them; http only on loopback.
        f.write("homeassistant:\n  name: DialKiosk test\n  latitude: 52.5\n  longitude: 13.4\n  elevation: 34\n"
                "  unit_system: metric\n  time_zone: UTC\n  country: DE\n  currency: EUR\n  language: en\n"
                f"http:\n  server_host: 127.0.0.1\n  server_port: {ha_port}\n"
                "logger:\n  default: info\n")
    now = "2026-01-01T00:00:00+00:00"
    # The MQTT config entry as the config flow stores it (version 1.2: the broker in data,
    # discovery in options). A config flow is the only way to name the broker in current Home
    # Assistant; the stored entry is what the flow leaves behind.
    entry = {"created_at": now, "modified_at": now, "data": {"broker": "127.0.0.1", "port": broker_port},
             "discovery_keys": {}, "disabled_by": None, "domain": "mqtt", "entry_id": "01DIALKIOSKHATESTMQTT00000",
             "minor_version": 2, "version": 1, "options": {"discovery": True, "discovery_prefix": "homeassistant"},
             "pref_disable_new_entities": False, "pref_disable_polling": False, "source": "user",
             "subentries": [], "title": "127.0.0.1", "unique_id": None}
    with open(os.path.join(ha_dir, ".storage", "core.config_entries"), "w") as f:
        json.dump({"version": 1, "minor_version": 5, "key": "core.config_entries", "data": {"entries": [entry]}}, f, indent=2)


def kiosk_config(with_number):
    items = "items:\n"
    if with_number:
        items += "  - id: volume\n    label: Volume\n    value: {min: 0, max: 100, step: 5, unit: \"%\"}\n"
    items += "  - {id: tea, label: Tea}\n  - {id: coffee, label: Coffee}\n"
    return items + (f"mqtt:\n  host: 127.0.0.1\n  port: {broker_port}\n  client_id: {client}\n"
                    f"  base_topic: dialkiosk/{client}\n  keepalive_seconds: 10\n")


def retained_discovery():
    """{config topic: payload} of the kiosk's retained discovery configs on the broker now."""
    out = subprocess.run(["timeout", "5", "mosquitto_sub", "-h", "127.0.0.1", "-p", str(broker_port), "-v",
                          "-t", f"homeassistant/+/{client}/+/config", "-W", "2"], capture_output=True, text=True).stdout
    configs = {}
    for line in out.splitlines():
        topic, _, payload = line.partition(" ")
        if payload:
            configs[topic] = json.loads(payload)
    return configs


def log_entries():
    """Home Assistant's log as entries (a line with a level, and the lines under it)."""
    entries = []
    try:
        with open(ha_log, errors="replace") as f:
            for line in f:
                if re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", line) or not entries:
                    entries.append(line)
                else:
                    entries[-1] += line
    except OSError:
        pass
    return entries


number = f"number.{client}_value_volume"
try:
    write_configs()
    broker = mosquitto(work, "broker", broker_port)
    processes.append(("mosquitto", broker))
    t = time.monotonic()
    ha = start("home assistant", [os.path.join(here, "venv.sh"), "--run", work, "hass", "-c", ha_dir, "--skip-pip", "--log-no-color"],
               stdout=open(os.path.join(work, "hass.out"), "w"), stderr=subprocess.STDOUT)
    up = wait_for("home assistant", lambda: ha.poll() is not None or HA.request("/api/onboarding")[0] == 200, args.start_timeout)
    if not up or ha.poll() is not None:
        check(False, f"Home Assistant answers on {base_url} within {args.start_timeout:.0f} s "
                     f"(status {ha.poll()}); its log:\n{tail(ha_log)}{tail(os.path.join(work, 'hass.out'), 10)}")
        raise SystemExit
    print(f"Home Assistant up in {time.monotonic() - t:.1f} s", flush=True)

    # The first user, through onboarding, and a token for it (OAuth2 code grant).
    client_id = base_url + "/"
    status, body = HA.request("/api/onboarding/users", {"client_id": client_id, "name": "Test", "username": "test",
                                                      "password": "dialkiosk-test", "language": "en"})
    code = (body or {}).get("auth_code")
    if code:
        status, body = HA.request("/auth/token", {"grant_type": "authorization_code", "code": code, "client_id": client_id}, form=True)
        HA.token = (body or {}).get("access_token")
    check(HA.token is not None, f"an access token from Home Assistant's onboarding (last status {status})")
    if not HA.token:
        raise SystemExit

    # MQTT's config entry set up: Home Assistant subscribed to discovery before the kiosk comes.
    def mqtt_loaded():
        status, entries = HA.request("/api/config/config_entries/entry")
        return status == 200 and any(e.get("domain") == "mqtt" and e.get("state") == "loaded" for e in entries or [])
    check(wait_for("mqtt", mqtt_loaded, 60), "Home Assistant's MQTT config entry is loaded (connected to the test broker)")

    config = os.path.join(work, "kiosk.yaml")
    with open(config, "w") as f:
        f.write(kiosk_config(with_number=True))
    out_path = os.path.join(work, "kiosk.out")
    kiosk = start("dialkiosk", [binary, "run", "--display", "virtual:96x64@30", "--config", config],
                  stdout=open(out_path, "w"), stderr=open(os.path.join(work, "kiosk.err"), "w"))

    # 1. Everything the kiosk announced, under the entity id it asked for.
    announced = wait_for("discovery", lambda: (c := retained_discovery()) and any("/number/" in k for k in c) and c, 30)
    check(bool(announced), f"the kiosk's retained discovery configs on the broker, a number among them "
                           f"({sorted(announced or {})}; its journal:\n{tail(os.path.join(work, 'kiosk.err'))})")
    no_id = sorted(topic for topic, c in (announced or {}).items() if "default_entity_id" not in c)
    check(not no_id, f"every config names its entity with default_entity_id (without one: {no_id})")
    wanted = sorted(c["default_entity_id"] for c in (announced or {}).values() if "default_entity_id" in c)

    def all_there():
        states = HA.states() or {}
        return all(w in states for w in wanted) and states
    states = wait_for("entities", all_there, 60) or HA.states() or {}
    missing = [w for w in wanted if w not in states]
    theirs = sorted(e for e in states if client in e)
    check(not missing and number in wanted, f"Home Assistant has every entity the kiosk announced ({len(wanted)}, "
          f"{number} among them); missing: {missing}; Home Assistant has: {theirs}")
    check(states.get(number, {}).get("state") not in (None, "unavailable"),
          f"{number} is available (state {states.get(number, {}).get('state')!r}, unit "
          f"{states.get(number, {}).get('attributes', {}).get('unit_of_measurement')!r})")

    # The number works both ways: set in Home Assistant, the kiosk takes it and reports it back.
    status, _ = HA.request("/api/services/number/set_value", {"entity_id": number, "value": 40})

    def reported():
        state = (HA.states() or {}).get(number, {}).get("state")
        try:
            return float(state) == 40
        except (TypeError, ValueError):
            return False
    check(status == 200 and wait_for("value", reported, 20),
          f"number.set_value 40 in Home Assistant (status {status}) comes back as its state "
          f"({(HA.states() or {}).get(number, {}).get('state')!r})")

    # 2. A reload that removes the value item.
    with open(config, "w") as f:
        f.write(kiosk_config(with_number=False))
    os.kill(kiosk.pid, signal.SIGHUP)
    reloaded = wait_for("reload", lambda: '"reloaded"' in open(out_path).read(), 20)
    check(reloaded, f"the kiosk reloaded after SIGHUP (its journal:\n{tail(os.path.join(work, 'kiosk.err'))})")
    gone = wait_for("removal", lambda: (s := HA.states()) is not None and number not in s and s, 30)
    stay = [w for w in wanted if w != number]
    check(bool(gone), f"after the reload {number} is gone from Home Assistant's states "
                      f"(it has: {(HA.states() or {}).get(number)})")
    check(bool(gone) and all(w in gone for w in stay),
          f"the other {len(stay)} entities stay (missing: {[w for w in stay if w not in (gone or {})]})")
    # The event entity still takes the events it declares: the reload's last line selects tea
    # (the first item left).
    dial = f"event.{client}_dial"

    def last_event():
        attributes = (HA.states() or {}).get(dial, {}).get("attributes", {})
        return (attributes.get("event_type"), attributes.get("item"))
    fired = wait_for("event", lambda: last_event() == ("selected", "tea"), 10)
    check(fired, f"{dial}'s last event is the reload's selection of tea (it has: {last_event()})")
    left = retained_discovery()
    check(not any("/number/" in k for k in left), f"the broker keeps no retained number config ({sorted(left)})")

    # Home Assistant stopped: it writes its entity registry on the way out.
    stop("dialkiosk", kiosk, timeout=20)
    check(stop("home assistant", ha, timeout=90), "Home Assistant stopped within 90 s of SIGTERM")
    try:
        with open(os.path.join(ha_dir, ".storage", "core.entity_registry")) as f:
            registry = json.load(f)["data"]["entities"]
    except (OSError, ValueError, KeyError) as e:
        registry = None
        check(False, f"Home Assistant's entity registry is readable ({e})")
    if registry is not None:
        ours = {e["entity_id"]: e for e in registry if e.get("platform") == "mqtt"}
        check(number not in ours and f"{client}_value_volume" not in {e.get("unique_id") for e in ours.values()},
              f"Home Assistant's entity registry holds no entry for {number} (its MQTT entries: {sorted(ours)})")
        check(all(w in ours for w in stay), f"... and holds the {len(stay)} that stay (missing: {[w for w in stay if w not in ours]})")

    # 3. No warning or error about MQTT, a deprecation, or the kiosk's topics in Home Assistant's log.
    entries = log_entries()
    loud = [e for e in entries if re.match(r"\S+ \S+ (WARNING|ERROR|CRITICAL)", e)]
    ours = [e for e in loud if re.search(rf"mqtt|deprecat|homeassistant/|dialkiosk|{client}", e, re.I)]
    check(len(entries) > 0, f"Home Assistant's log has entries ({len(entries)} in {ha_log})")
    check(not ours, f"no warning or error about MQTT, deprecations or the kiosk in Home Assistant's log "
                    f"({len(ours)} of {len(loud)} warnings and errors):\n" + "".join("     " + e for e in ours))
    for e in loud:
        if e not in ours:
            print("     (other) " + e.rstrip()[:300], flush=True)
except SystemExit:
    pass
finally:
    stop_all()
    if failures or args.keep:
        print(f"work directory kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)

print(f"{len(failures)} failure(s) in {time.monotonic() - t0:.1f} s")
sys.exit(1 if failures else 0)
