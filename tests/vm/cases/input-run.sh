#!/usr/bin/env bash
# `dialkiosk run` driven by uinput devices through udev and libinput, on vkms. While run shows
# the dial, `list-inputs --watch` records the very samples libinput delivers; `simulate` fed
# those samples predicts run's selected/activated events, which must match:
#   - a quarter-turn clockwise swipe released with speed selects the predicted item,
#   - a slow drag of one slot selects a neighbour, a tap in the hub prints activated,
#   - wheel detents and arrow keys move exactly one item each,
#   - destroying the touchscreen mid-drag leaves the ring at rest on an item, run still running,
#   - the swipe and the tap again with --rotate 90, the touch coordinates turned with the panel.
#
# On the host: tests/vm/cases/input-run.sh [OUTDIR]   (DIALKIOSK_BIN picks the binary; default
# .build/release/dialkiosk, else .build/debug/dialkiosk)
# In the guest (DK_VM=1): runs the checks; exit status 0 when all pass.
set -uo pipefail

if [ -z "${DK_VM:-}" ]; then
  here="$(cd "$(dirname "$0")" && pwd)"
  out="${1:-$here/../../../.build/vm-out/input-run}"
  mkdir -p "$out"
  printf '%s\n' "${DIALKIOSK_BIN:-}" >"$out/bin.txt"
  exec "$here/../boot.sh" --script "$here/$(basename "$0")" --out "$out" --timeout 1200
fi

bin="$(cat "$DK_OUT/bin.txt" 2>/dev/null)"
for b in "$bin" "$DK_REPO/.build/release/dialkiosk" "$DK_REPO/.build/debug/dialkiosk"; do
  [ -n "$b" ] && [ -x "$b" ] && { bin="$b"; break; }
done
[ -x "$bin" ] || { echo "input-run: no dialkiosk binary under $DK_REPO/.build"; exit 1; }
echo "input-run: using $bin"
work="$DK_OUT/input-run"
rm -rf "$work"; mkdir -p "$work"
failures=0
items=12

wait_for() {  # FILE SECONDS REGEX
  local file=$1 seconds=$2 pattern=$3 pid=${4:-} i
  for ((i = 0; i < seconds * 10; i++)); do
    grep -Eq "$pattern" "$file" 2>/dev/null && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      echo "${0##*/}: process $pid ended while waiting for /$pattern/ in $file"
      return 1
    fi
    sleep 0.1
  done
  echo "input-run: timed out after ${seconds}s waiting for /$pattern/ in $file"
  return 1
}

# gestures.py WIDTH HEIGHT ROTATE PART: the injector script of one gesture. Gestures are laid out
# in the logical frame (the dial's centre and ring for WIDTHxHEIGHT logical pixels) and turned
# onto the 1024x768 panel as the display rotation does (DisplayRotation.logicalPoint's inverse).
cat >"$work/gestures.py" <<'PY'
import json, math, sys
w, h, rotate, part = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
panel_w, panel_h = (h, w) if rotate in (90, 270) else (w, h)
cx, cy, ring = w / 2, h / 2, 0.7 * min(w, h) / 2
def panel(x, y):
    return {0: (x, y), 90: (panel_w - y, x), 180: (panel_w - x, panel_h - y), 270: (y, panel_h - x)}[rotate]
lines, t, last = [], 0.2, (0, 0)
def touch(kind, x=None, y=None):
    global last
    if x is None:
        x, y = last  # an up where the finger was (the injector ignores it; simulate wants it)
    last = (x, y)
    px, py = panel(x, y)
    lines.append({"t": round(t, 4), "type": kind, "x": round(px, 2), "y": round(py, 2), "slot": 0})
def on_ring(deg):
    a = math.radians(deg)
    return cx + ring * math.cos(a), cy + ring * math.sin(a)
def arc(start, end, steps, dt, hold=0.0):
    global t
    touch("down", *on_ring(start))
    for i in range(1, steps + 1):
        t += dt
        touch("motion", *on_ring(start + (end - start) * i / steps))
    t += hold
    if hold:
        touch("motion", *on_ring(end))
    touch("up")
commands = {"wheel-forward": {"type": "wheel", "detents": -1}, "wheel-back": {"type": "wheel", "detents": 1},
            "right": {"type": "key", "key": "KEY_RIGHT"}, "left": {"type": "key", "key": "KEY_LEFT"},
            "down": {"type": "key", "key": "KEY_DOWN"}, "up": {"type": "key", "key": "KEY_UP"}}
if part == "swipe":      # a quarter turn clockwise from 12 o'clock in 0.12 s, let go moving
    arc(-90, 0, 12, 0.010)
elif part == "slow":     # one slot (30 degrees for 12 items) in a second, held still, lifted
    arc(-90, -60, 20, 0.050, hold=0.4)
elif part == "tap":      # in the hub
    touch("down", cx, cy); t += 0.06; touch("up")
elif part in commands:   # REL_WHEEL -1 is a detent towards the user: forward
    lines.append(dict(commands[part], t=t))
elif part == "unplug":   # ten degrees of a drag, then the touchscreen disappears
    touch("down", *on_ring(-90))
    for i in range(1, 6):
        t += 0.04; touch("motion", *on_ring(-90 + 2 * i))
    t += 0.05
    lines.append({"t": round(t, 4), "type": "destroy", "device": "touch"})
else:
    sys.exit("gestures.py: unknown part " + part)
for d in lines:
    print(json.dumps(d))
PY

count() { grep -Ec "$2" "$1" 2>/dev/null; }

# gesture NAME PART: fresh uinput devices (a hotplug for run and the watcher), one gesture, then
# waits for run to come to rest after it and removes the devices again.
gesture() {
  local name=$1 part=$2 n=$((++gestures))
  local script="$work/$name.$n.$part.script" log="$work/$name.$n.$part.inject.log" go="$work/$name.$n.go"
  python3 "$work/gestures.py" $lw $lh "$rotate" "$part" >"$script" || return 1
  local rests; rests=$(count "$work/$name.run.log" '^rest|"event": ?"rest"')
  python3 "$DK_GUEST/inject.py" "$script" --go-file "$go" >"$log" 2>&1 &
  local ip=$!
  wait_for "$log" 120 "inject: (ready|error)" $ip && grep -q "inject: ready" "$log" || { cat "$log"; kill $ip; return 1; }
  # Both readers have the new touchscreen before the gesture starts.
  local added=$((3 * n))
  for f in "$work/$name.run.err" "$work/$name.watch.err"; do
    local i
    for ((i = 0; i < 600; i++)); do
      [ "$(count "$f" '"DialKiosk test (touchscreen|wheel mouse|keyboard)"')" -ge $added ] && break
      sleep 0.1
    done
  done
  touch "$go"
  wait_for "$log" 120 "inject: (done|error)" $ip && grep -q "inject: done" "$log" || { cat "$log"; kill $ip; return 1; }
  local i
  for ((i = 0; i < 600; i++)); do
    [ "$(count "$work/$name.run.log" '^rest|"event": ?"rest"')" -gt "$rests" ] && break
    sleep 0.1
  done
  [ $i -lt 600 ] || echo "input-run: $name: no rest after $part within 60 s"
  kill -TERM $ip; wait $ip
  for ((i = 0; i < 600; i++)); do
    [ "$(count "$work/$name.run.err" 'input device [0-9]+: removed')" -ge $added ] && break
    sleep 0.1
  done
}

# phase NAME ROTATE PART...: run and the watcher, then each gesture; leaves NAME.run.log,
# NAME.watch.jsonl and simulate's prediction from the samples the watcher saw.
phase() {
  local name=$1; rotate=$2; shift 2
  lw=1024 lh=768 gestures=0
  if [ "$rotate" = 90 ] || [ "$rotate" = 270 ]; then lw=768 lh=1024; fi
  "$bin" run --items $items --rotate "$rotate" --connector Virtual-1 >"$work/$name.run.log" 2>"$work/$name.run.err" &
  local rp=$!
  "$bin" list-inputs --watch --size 1024x768 --rotate "$rotate" >"$work/$name.watch.jsonl" 2>"$work/$name.watch.err" &
  local wp=$!
  wait_for "$work/$name.watch.jsonl" 120 '"event":"watching"' $wp || { cat "$work/$name.watch.err"; kill $rp $wp; return 1; }
  wait_for "$work/$name.run.err" 120 '^run: /dev/dri' $rp || { cat "$work/$name.run.err"; kill $rp $wp; return 1; }
  local part
  for part in "$@"; do
    gesture "$name" "$part" || { kill $rp $wp; return 1; }
  done
  local alive=yes
  kill -0 $rp 2>/dev/null || alive=no
  echo "$alive" >"$work/$name.alive"
  kill -TERM $rp $wp; wait $rp; echo $? >"$work/$name.run.status"; wait $wp
  # simulate on the very samples libinput delivered, times from the first sample.
  python3 - "$work/$name.watch.jsonl" >"$work/$name.samples" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
touch = [e for e in ev if e["event"] == "touch" and e["phase"] != "frame"]
t0 = touch[0]["time"] - 0.5 if touch else 0
for e in touch:
    print(json.dumps({"t": round(e["time"] - t0, 6), "type": e["phase"], "x": e["x"], "y": e["y"], "slot": e["slot"]}))
PY
  "$bin" simulate --items $items --size ${lw}x${lh} --script "$work/$name.samples" >"$work/$name.simulate.jsonl" 2>"$work/$name.simulate.err"
}

# check NAME PYTHON: assertions over run's events (`run`, list of (kind, index)), simulate's
# (`sim`), the rests after the last command (`rests`) and whether run was alive (`alive`).
check() {
  local name=$1 code=$2
  if python3 - "$work/$name" "$code" $items <<'PY'
import json, re, sys
base, code, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def events(lines):
    out = []
    for line in lines:
        m = re.search(r'"event": ?"(selected|activated|rest)".*?"index": ?(\d+|null)', line) \
            or re.search(r'^(selected|activated|rest)\b.*?index=(\d+|none)', line)
        if m:
            out.append((m.group(1), None if m.group(2) in ("null", "none") else int(m.group(2))))
    return out
all_run = events(open(base + ".run.log"))
run = [e for e in all_run if e[0] != "rest"]
sim = [e for e in events(open(base + ".simulate.jsonl")) if e[0] != "rest"]
rests = [e for e in all_run if e[0] == "rest"]
alive = open(base + ".alive").read().strip() == "yes"
status = open(base + ".run.status").read().strip()
try:
    exec(code)
except AssertionError as err:
    print("  run:", all_run, "\n  simulate:", sim, "\n  FAILED:", err)
    sys.exit(1)
PY
  then echo "input-run: $name: ok"; else echo "input-run: $name: FAILED"; failures=$((failures + 1)); fi
}

if phase plain 0 swipe slow tap wheel-forward wheel-back right left down up unplug; then
  check plain '
k = len(sim)
assert k >= 3, "simulate predicts a swipe selection, a neighbour and an activation: %s" % sim
assert run[:k] == sim, "run %s != simulate %s" % (run[:k], sim)
swipe, slow, tap = sim[-3], sim[-2], sim[-1]
assert swipe[0] == "selected" and swipe[1] != 0, "the swipe moved the ring: %s" % (swipe,)
assert slow[0] == "selected" and (slow[1] - swipe[1]) % n in (1, n - 1), "slow drag selects a neighbour: %s" % sim
assert tap == ("activated", slow[1]), "tap in the hub activates the selection: %s" % (tap,)
s = slow[1]
want = [("selected", (s + d) % n) for d in (1, 0, 1, 0, 1, 0)]
assert run[k:k + 6] == want, "one item per detent and per arrow key: %s, want %s" % (run[k:], want)
assert len(run) == k + 6, "nothing else selected after the unplug: %s" % run[k + 6:]
assert rests and rests[-1][1] == s, "at rest on an item after the unplug: %s" % rests[-3:]
assert alive, "run kept running after the touchscreen disappeared"
assert status == "0", "run exited %s on SIGTERM" % status
'
else failures=$((failures + 1)); fi

if phase rotated 90 swipe tap; then
  check rotated '
assert len(sim) == 2, "simulate predicts the swipe and the tap: %s" % sim
assert run == sim, "run %s != simulate %s" % (run, sim)
assert sim[0][0] == "selected" and sim[0][1] != 0 and sim[1] == ("activated", sim[0][1]), sim
assert status == "0", "run exited %s" % status
'
else failures=$((failures + 1)); fi

echo "input-run: $failures failure(s)"
[ $failures -eq 0 ]
