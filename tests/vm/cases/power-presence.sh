#!/usr/bin/env bash
# The presence sensor on real kernel input: a uinput device with KEY_WAKEUP (power-presence.guest)
# wakes a screen blanked for idle: the CRTC inactive before, active after, a `power` event with
# reason `presence`, no dial event from the press; unplugged and plugged back, the kiosk reads
# it again.
source "$(dirname "$0")/../lib/case.sh"
case_boot
cd "$case_out"
for f in run.err power-blank.txt power-woken.txt; do echo "--- $f"; cat "$f" 2>/dev/null; done
log="$(case_file run.log)"
test "$(cat status 2>/dev/null)" = 0 || case_fail "the kiosk did not exit 0 on SIGTERM (status $(cat status 2>/dev/null))"
active() { sed -n 's/^power crtc [0-9]* active \([-0-9]*\)$/\1/p' "$1" | head -n1; }
test "$(active "$(case_file power-blank.txt)")" = 0 || case_fail "the CRTC is active while blank"
test "$(active "$(case_file power-woken.txt)")" = 1 || case_fail "the CRTC is not active after the presence key"
after=$(tail -n +"$(( $(cat "$(case_file lines-before-press.txt)") + 1 ))" "$log")
grep -q '"event": "power", "state": "on", "reason": "presence"' <<<"$after" || case_fail "no power event with reason presence"
! grep -Eq '"event": "(selected|activated|opened|closed)"' <<<"$after" || case_fail "the presence key reached the dial: $(grep -E '"event": "(selected|activated|opened|closed)"' <<<"$after" | head -n1)"
grep -q 'presence: .* went away' run.err || case_fail "no log line when the sensor was unplugged"
[ "$(grep -c 'presence: reading key 143' run.err)" -ge 2 ] || case_fail "the sensor was not read again after it came back"
exit 0
