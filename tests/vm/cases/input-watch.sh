#!/usr/bin/env bash
# TouchInput on a real input stack: uinput touchscreen, wheel mouse and keyboard in the guest,
# read through udev and libinput by `dialkiosk list-inputs --watch`, which prints what `run`
# would feed the dial. Checks positions (plain, --rotate 90, a calibration matrix), one step per
# wheel detent and per arrow key, Enter/Space/Home, the mouse as a finger, and an unplug
# mid-drag ending as a cancel while the program keeps running.
#
# On the host: tests/vm/cases/input-watch.sh [OUTDIR]   (boots the VM with this file as the script)
# In the guest (DK_VM=1): runs the checks, exit status 0 when all pass.
set -uo pipefail

if [ -z "${DK_VM:-}" ]; then
  here="$(cd "$(dirname "$0")" && pwd)"
  out="${1:-$here/../../../.build/vm-out/input-watch}"
  exec "$here/../boot.sh" --script "$here/$(basename "$0")" --out "$out" --timeout 900
fi

bin="${DIALKIOSK_BIN:-}"
for b in "$bin" "$DK_REPO/.build/debug/dialkiosk" "$DK_REPO/.build/release/dialkiosk"; do
  [ -n "$b" ] && [ -x "$b" ] && { bin="$b"; break; }
done
[ -x "$bin" ] || { echo "input-watch: no dialkiosk binary under $DK_REPO/.build"; exit 1; }
work="$DK_OUT/input-watch"
rm -rf "$work"; mkdir -p "$work"
failures=0

# Waits up to $2 seconds for the extended regex $3 in file $1.
wait_for() {
  local file=$1 seconds=$2 pattern=$3 pid=${4:-} i
  for ((i = 0; i < seconds * 10; i++)); do
    grep -Eq "$pattern" "$file" 2>/dev/null && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      echo "${0##*/}: process $pid ended while waiting for /$pattern/ in $file"
      return 1
    fi
    sleep 0.1
  done
  echo "input-watch: timed out after ${seconds}s waiting for /$pattern/ in $file"
  return 1
}

# phase NAME SCRIPT WATCH-OPTIONS...: creates the devices, starts the watcher, replays the script,
# stops the watcher with SIGTERM once the injector is done, and leaves NAME.jsonl behind.
phase() {
  local name=$1 script=$2; shift 2
  local log="$work/$name.inject.log" go="$work/$name.go"
  python3 "$DK_GUEST/inject.py" "$script" --go-file "$go" >"$log" 2>&1 &
  local ip=$!
  wait_for "$log" 120 "inject: (ready|error)" $ip && grep -q "inject: ready" "$log" || { cat "$log"; kill $ip; return 1; }
  udevadm settle --timeout=60
  "$bin" list-inputs --watch "$@" >"$work/$name.jsonl" 2>"$work/$name.err" &
  local wp=$!
  wait_for "$work/$name.jsonl" 120 '"event":"watching"' $wp || { cat "$work/$name.err"; kill $wp $ip; return 1; }
  touch "$go"
  wait_for "$log" 120 "inject: (done|error)" && grep -q "inject: done" "$log" || { cat "$log"; kill $wp $ip; return 1; }
  # The last events are read within a poll round; give the emulated CPU time for it.
  sleep 2
  if ! kill -0 $wp 2>/dev/null; then
    echo "input-watch: $name: the watcher exited early"; cat "$work/$name.err"; kill $ip; return 1
  fi
  kill -TERM $wp; wait $wp; local rc=$?
  kill -TERM $ip; wait $ip
  [ $rc -eq 0 ] || { echo "input-watch: $name: watcher exit status $rc"; cat "$work/$name.err"; return 1; }
}

# check NAME PYTHON: runs the assertions in PYTHON over the events of NAME (list `ev`).
check() {
  local name=$1 code=$2
  if python3 - "$work/$name.jsonl" "$code" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
touch = [e for e in ev if e["event"] == "touch" and e["phase"] != "frame"]
commands = [e for e in ev if e["event"] == "command"]
def near(e, x, y, tol=1.5):
    return abs(e["x"] - x) <= tol and abs(e["y"] - y) <= tol
try:
    exec(sys.argv[2])
except AssertionError as err:
    print("  events:", *ev, sep="\n    ")
    print("FAILED:", err)
    sys.exit(1)
PY
  then echo "input-watch: $name: ok"; else echo "input-watch: $name: FAILED"; failures=$((failures + 1)); fi
}

# 1. Touch swipe, wheel detents, keys, mouse drag, unplug mid-drag.
cat >"$work/all.script" <<'J'
{"t": 0.0, "type": "down", "x": 512, "y": 100, "slot": 0}
{"t": 0.05, "type": "motion", "x": 700, "y": 160, "slot": 0}
{"t": 0.1, "type": "motion", "x": 800, "y": 300, "slot": 0}
{"t": 0.15, "type": "up", "slot": 0}
{"t": 0.4, "type": "wheel", "detents": -1}
{"t": 0.5, "type": "wheel", "detents": 1}
{"t": 0.6, "type": "wheel", "v120": -60}
{"t": 0.7, "type": "wheel", "v120": -60}
{"t": 0.8, "type": "key", "key": "KEY_RIGHT"}
{"t": 0.9, "type": "key", "key": "KEY_LEFT"}
{"t": 1.0, "type": "key", "key": "KEY_DOWN"}
{"t": 1.1, "type": "key", "key": "KEY_UP"}
{"t": 1.2, "type": "key", "key": "KEY_ENTER"}
{"t": 1.3, "type": "key", "key": "KEY_SPACE"}
{"t": 1.4, "type": "key", "key": "KEY_HOME"}
{"t": 1.5, "type": "key", "key": "KEY_A"}
{"t": 1.6, "type": "button", "button": "BTN_LEFT", "down": true}
{"t": 1.7, "type": "pointer", "dx": 40, "dy": 0}
{"t": 1.8, "type": "button", "button": "BTN_LEFT", "down": false}
{"t": 2.0, "type": "down", "x": 300, "y": 600, "slot": 0}
{"t": 2.05, "type": "motion", "x": 340, "y": 620, "slot": 0}
{"t": 2.1, "type": "destroy", "device": "touch"}
J
if phase all "$work/all.script" --size 1024x768; then
  check all '
assert [e["phase"] for e in touch[:4]] == ["down", "motion", "motion", "up"], "swipe phases"
assert near(touch[0], 512, 100) and near(touch[2], 800, 300) and near(touch[3], 800, 300), "swipe positions"
assert all(e["slot"] == 0 for e in touch), "one finger is slot 0"
steps = [(c["command"], c.get("by")) for c in commands]
# Wheel: REL_WHEEL -1 is a detent towards the user (v120 +120, forward); two half detents make one.
assert steps == [("step", 1), ("step", -1), ("step", 1), ("step", 1), ("step", -1), ("step", 1), ("step", -1),
                 ("activate", None), ("activate", None), ("first", None)], steps
mouse = touch[4:7]
assert [e["phase"] for e in mouse] == ["down", "motion", "up"], "mouse drag"
assert near(mouse[0], 512, 384) and mouse[1]["x"] > mouse[0]["x"] and mouse[1]["y"] == mouse[0]["y"], "mouse starts centred, moves right"
last = touch[7:]
assert [e["phase"] for e in last] == ["down", "motion", "cancel"], "unplug mid-drag is a cancel: %s" % last
assert near(last[2], 340, 620), "the cancel keeps the last position"
'
else failures=$((failures + 1)); fi

# 2. The same touch with the display turned 90 degrees: logical (x, y) = (panel y, 1024 - panel x).
cat >"$work/rotated.script" <<'J'
{"t": 0.0, "type": "down", "x": 1000, "y": 10, "slot": 0}
{"t": 0.05, "type": "motion", "x": 900, "y": 700, "slot": 0}
{"t": 0.1, "type": "up", "slot": 0}
J
if phase rotated "$work/rotated.script" --size 1024x768 --rotate 90; then
  check rotated '
assert [e["phase"] for e in touch] == ["down", "motion", "up"], touch
assert near(touch[0], 10, 24) and near(touch[1], 700, 124), "rotated positions %s" % touch[:2]
'
else failures=$((failures + 1)); fi

# 3. A digitizer mounted upside down: libinput's calibration matrix turns it back.
if phase calibrated "$work/rotated.script" --size 1024x768 --touch-calibration "-1 0 1 0 -1 1"; then
  check calibrated '
assert [e["phase"] for e in touch] == ["down", "motion", "up"], touch
assert near(touch[0], 1024 - 1000, 768 - 10, 2.5) and near(touch[1], 1024 - 900, 768 - 700, 2.5), "calibrated %s" % touch[:2]
'
else failures=$((failures + 1)); fi

echo "input-watch: $failures failure(s)"
[ $failures -eq 0 ]
