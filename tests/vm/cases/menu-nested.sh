#!/usr/bin/env bash
# Nested menus on the real stack: `dialkiosk run` with a two-level menu on vkms, driven
# by uinput devices through udev and libinput (menu-nested.guest):
#   - a hub tap opens the child ring (`opened`), a drag selects a child (`selected` with its
#     path), a long press on the hub goes back (`closed`); Escape and the wheel's click
#     (BTN_MIDDLE) go back as well, and the ring remembers its item;
#   - the screen at rest equals `render --path` of the same state: the child ring as it opens,
#     the top ring after the last way back.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot

cd "$case_out"
echo "--- run.log"; cat run.log
echo "--- run.err (without stats)"; grep -v '^stats: ' run.err || true
config="$vm_dir/cases/files/menu-nested.yaml"
kms_check "check-config counts the rings" grep -q 'OK: 3 items on the top ring, 6 in 2 rings' check-config.txt
kms_check "run exits 0 on SIGTERM" test "$(cat run.status 2>/dev/null)" = 0

# The ring events and selections in order, as "event path" words.
PYTHONPATH="$vm_repo/tests/lib" python3 - run.log >events.txt <<'PY'
import sys
from dkevents import events
for e in events(open(sys.argv[1])):
    if e["event"] in ("opened", "closed", "selected", "activated"):
        print(e["event"], "/".join(e.get("path", [])))
PY
echo "--- ring events"; cat events.txt
# The first line is the start's: where the dial rests (every start says it).
expected="selected drinks
opened drinks
selected drinks/coffee
selected drinks/tea
closed drinks
selected drinks
opened drinks
selected drinks/tea
closed drinks
selected drinks
opened drinks
selected drinks/tea
closed drinks
selected drinks"
kms_check "tap opens, drag selects drinks/tea, long press, Escape and the wheel click close, tea is remembered" \
  test "$(cat events.txt)" = "$expected"

# The screen at rest against render of the same state: the child ring as it opens (on its
# first item: what `render --path` paints), then the top ring back on drinks, its first item
# (what `render` paints at angle 0).
size=$(sed -n 's/^dump crtc [0-9]* fb [0-9]* \([0-9]*x[0-9]*\) .*/\1/p' part-a.dump.txt)
if [ -n "$size" ]; then
  "$kms_bin" render --config "$config" --size "$size" --path drinks --out child.png
  kms_check "the child ring at rest equals render --path drinks" python3 "$vm_dir/cases/kms-compare.py" part-a.ppm child.png
  "$kms_bin" render --config "$config" --size "$size" --out top.png
  kms_check "the top ring at rest after going back equals render" python3 "$vm_dir/cases/kms-compare.py" part-c.ppm top.png
  kms_check "the two screens differ (the ring changed)" \
    bash -c "! python3 '$vm_dir/cases/kms-compare.py' part-a.ppm top.png >/dev/null"
else
  kms_check "a dump of the screen ('$(cat part-a.dump.txt)')" false
fi
kms_finish
