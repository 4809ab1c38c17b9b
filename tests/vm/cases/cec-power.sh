#!/usr/bin/env bash
# HDMI-CEC on a real kernel driver: vivid's emulated HDMI output with CEC, the TV side played
# by cec-ctl and cec-follower on the paired input adapter (cec-power.guest). The messages are
# read from the bus (cec-ctl's monitor on the TV's adapter), not from the kiosk's log: Image
# View On, Active Source and Give Device Power Status at the start and when the hours open,
# Standby when they close and at `screen off`, Image View On at `screen on`; the TV's own
# Standby darkens the screen without a Standby echoed back; a TV that stops answering is
# reported as a `power` event with reason `failed` within 5 s.
source "$(dirname "$0")/../lib/case.sh"
case_boot
cd "$case_out"
for f in tz.txt marks.txt run.err failed-times.txt wakeups.txt jump-times.txt; do echo "--- $f"; cat "$f" 2>/dev/null; done
echo "--- bus (kiosk's messages)"; grep -E '^(Received|Transmitted)' monitor.txt | grep -v 'REPORT_FEATURES\|REPORT_PHYSICAL_ADDR\|DEVICE_VENDOR_ID' || true
monitor="$(case_file monitor.txt)"
lo="$(case_file list-outputs.txt)"
echo "--- list-outputs"; cat "$lo"
grep -A2 '^  connector Virtual-1' "$lo" | grep -q '^    backlight: none$' || case_fail "list-outputs has no backlight line for Virtual-1"
grep -A2 '^  connector Virtual-1' "$lo" | grep -q '^    CEC: none$' || case_fail "list-outputs has no CEC line for Virtual-1"
grep -q '^CEC adapter /dev/cec1 (vivid-000-vid-out0): physical address 1.0.0.0' "$lo" || case_fail "list-outputs does not list vivid's output adapter"
log="$(case_file run.log)"
test "$(cat status 2>/dev/null)" = 0 || case_fail "the kiosk did not exit 0 on SIGTERM (status $(cat status 2>/dev/null))"
# The bus between two marks (line numbers of monitor.txt the guest noted).
line_at() { awk -v m="$1" '$1 == m { print $2 }' "$case_out/marks.txt"; }
between() { sed -n "$(( $(line_at "$1") + 1 )),$(line_at "$2")p" "$monitor"; }
IVO='(4 to 0): IMAGE_VIEW_ON'
AS='(4 to 15): ACTIVE_SOURCE'
SB='(4 to 0): STANDBY'
GDPS='(4 to 0): GIVE_DEVICE_POWER_STATUS'
has() { grep -qF -- "$2" <<<"$1" || case_fail "$3"; }
hasnt() { ! grep -qF -- "$2" <<<"$1" || case_fail "$3"; }
start=$(sed -n "1,$(line_at start)p" "$monitor")
has "$start" "$IVO" "no Image View On at the start"
has "$start" "$AS" "no Active Source at the start"
has "$start" "$GDPS" "no Give Device Power Status at the start"
hasnt "$start" "$SB" "a Standby at the start"
grep -q 'phys-addr: 1.0.0.0' monitor.txt || case_fail "Active Source did not carry 1.0.0.0"
closed=$(between start closed)
has "$closed" "$SB" "no Standby when the hours closed"
hasnt "$closed" "$IVO" "an Image View On while the hours closed"
read -r w0 w1 u0 u1 <"$(case_file wakeups.txt)"
echo "wake-ups while closed: $((w1 - w0)) in $(python3 -c "print(round($u1 - $u0, 1))") s"
[ $((w1 - w0)) -le 2 ] || case_fail "$((w1 - w0)) wake-ups of the kiosk in 10 s while closed (at most 2)"
read -r j0 j1 <"$(case_file jump-times.txt)"
# The event's own time (the loop's clock, CLOCK_MONOTONIC, the same as the guest's uptime here)
# against the uptime just before the clock was set: the guest's polling adds nothing to it.
PYTHONPATH="$vm_repo/tests/lib" python3 - "$j0" "$log" <<'PY' || case_fail "the clock set past the opening was noticed only at the old deadline"
import sys
from dkevents import events
j0 = float(sys.argv[1])
for e in events(open(sys.argv[2])):
    if e.get("event") == "power" and e.get("state") == "on" and e.get("reason") == "schedule" and e["t"] > j0:
        d = e["t"] - j0
        print(f"hours opened {d:.1f} s after the clock was set")
        sys.exit(0 if d <= 5 else 1)
sys.exit(1)
PY
open=$(between closed open)
has "$open" "$IVO" "no Image View On when the hours opened"
has "$open" "$AS" "no Active Source when the hours opened"
has "$(between open off)" "$SB" "no Standby at screen off"
has "$(between off on)" "$IVO" "no Image View On at screen on"
tvstandby=$(between on tvstandby)
has "$tvstandby" "(0 to 15): STANDBY" "the TV's Standby is not on the bus"
hasnt "$tvstandby" "$SB" "the kiosk echoed the TV's Standby"
has "$(between tvstandby on2)" "$IVO" "no Image View On at screen on after the TV's Standby"
active() { sed -n 's/^power crtc [0-9]* active \([-0-9]*\)$/\1/p' "$1" | head -n1; }
test "$(active power-start.txt)" = 1 || case_fail "the CRTC is not active at the start"
test "$(active power-closed.txt)" = 0 || case_fail "the CRTC is active while the hours are closed"
test "$(active power-tv-standby.txt)" = 0 || case_fail "the CRTC is active after the TV's Standby"
PYTHONPATH="$vm_repo/tests/lib" python3 - "$log" <<'PY' || case_fail "no power event with reason failed"
import sys
from dkevents import events
sys.exit(0 if any(e["event"] == "power" and e.get("state") == "off" and e.get("reason") == "failed"
                  and str(e.get("detail", "")).startswith("cec: ") for e in events(open(sys.argv[1]))) else 1)
PY
# Within 5 s of the Standby that went unanswered: the failed event's time against the
# `screen off` event's, both the loop's clock (the guest's own polling adds nothing).
PYTHONPATH="$vm_repo/tests/lib" python3 - "$log" <<'PY' || case_fail "failed came later than 5 s after screen off"
import sys
from dkevents import events
power = [e for e in events(open(sys.argv[1])) if e.get("event") == "power"]
i = next(i for i, e in enumerate(power) if e["reason"] == "failed")
off = power[i - 1]
assert off["state"] == "off" and off["reason"] == "requested", off
d = power[i]["t"] - off["t"]
print(f"failed reported {d:.2f} s after screen off")
sys.exit(0 if d <= 5 else 1)
PY
n=$(grep -c 'warning: cec:\|cec: .*not acknowledged' run.err || true)
echo "cec warnings: $n"
exit 0
