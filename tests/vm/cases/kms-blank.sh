# `idle: blank` switches the output off, on vkms through the atomic path and
# with --kms-api legacy: while blank the CRTC is inactive (ACTIVE 0, the connector's DPMS Off)
# and the kernel delivers no flips; a uinput tap switches it on again, and the screen then equals
# `dialkiosk render` of the same state (the tap only wakes: the ring stays where it was).
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot

cd "$case_out"
# power_of FILE WHAT: the value on FILE's "power crtc|connector ..." line for the CRTC in use
# (the first) or the connector Virtual-1.
crtc_active() { sed -n 's/^power crtc [0-9]* active \([-0-9]*\)$/\1/p' "$1" | head -n1; }
dpms() { sed -n 's/^power connector [0-9]* Virtual-1 dpms \([-0-9]*\)$/\1/p' "$1"; }
for api in atomic legacy; do
  echo "--- $api.err"; cat "$api.err" 2>/dev/null
  for f in awake blank woken; do echo "--- $api.power-$f.txt"; cat "$api.power-$f.txt" 2>/dev/null; done
  kms_check "$api: exit 0 on SIGTERM" test "$(cat "$api.status" 2>/dev/null)" = 0
  kms_check "$api: the log names the API" grep -q "KMS API $api" "$api.err"
  kms_check "$api: awake, the CRTC is active" test "$(crtc_active "$api.power-awake.txt")" = 1
  kms_check "$api: blank, the CRTC is inactive (ACTIVE 0)" test "$(crtc_active "$api.power-blank.txt")" = 0
  kms_check "$api: blank, the connector's DPMS is Off (3)" test "$(dpms "$api.power-blank.txt")" = 3
  flips=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$api.flips-blank.json" 2>/dev/null)
  kms_check "$api: no flips in 3 s of blank (got '$flips')" test "${flips:-x}" = 0
  kms_check "$api: woken, the CRTC is active" test "$(crtc_active "$api.power-woken.txt")" = 1
  kms_check "$api: woken, the connector's DPMS is On (0)" test "$(dpms "$api.power-woken.txt")" = 0
  kms_check "$api: the waking tap activated nothing" bash -c "! grep -q '\"event\": \"activated\"' '$api.log'"
  rot=$(python3 "$vm_repo/tests/lib/dkevents.py" "$api.log" --event rest --field rotation --last || true)
  # The tap only wakes, so a run that never came to rest is still at angle 0.
  kms_screen_is_render "$api" "${rot:-0}" --items 24
done
kms_finish
