#!/usr/bin/env bash
# VM case: `dialkiosk run` on a virtual terminal. While it runs the VT is in KD_GRAPHICS; a
# switch to another VT (chvt 2) makes it drop DRM master and stop (the console's framebuffer
# comes back on the CRTC); switching back (chvt 1) makes it take master and repaint (its own
# framebuffer again); after SIGTERM the VT is back in KD_TEXT and the CRTC shows the console's
# framebuffer. `drmtool hold` keeps the card open throughout.
set -euo pipefail
source "$(dirname "$0")/kms-lib.sh"
kms_setup kms-vt

guest="$kms_out/guest.sh"
cat >"$guest" <<'GUEST'
set -u
. /out/case.env
T="$DK_TOOLS/drmtool"
waitfor() { # FILE PATTERN TENTHS [COUNT]
  local i
  for ((i = 0; i < $3; i++)); do
    [ "$(grep -c "$2" "$1" 2>/dev/null)" -ge "${4:-1}" ] && return 0
    sleep 0.1
  done
  echo "guest: timed out waiting for '$2' in $1"
  return 1
}
kdmode() { python3 -c 'import fcntl,struct; f=open("/dev/tty1","rb",0); b=bytearray(4); fcntl.ioctl(f,0x4B3B,b); print(["text","graphics"][struct.unpack("i",b)[0] & 1])'; }
chvt 1
"$T" hold >/out/hold.txt 2>&1 &
hold=$!
waitfor /out/hold.txt '^hold pid' 300
"$T" crtc >/out/crtc-before.txt 2>&1
kdmode >/out/kd-before.txt
"$BIN" run --stats --exit-after 200 </dev/tty1 >/out/run.log 2>/out/run.err &
run=$!
waitfor /out/run.log 'stats: idle' 900
"$T" crtc >/out/crtc-running.txt 2>&1
kdmode >/out/kd-running.txt
chvt 2
waitfor /out/run.log 'display: suspended' 300
"$T" crtc >/out/crtc-away.txt 2>&1
chvt 1
waitfor /out/run.log 'display: resumed' 300
waitfor /out/run.log 'stats: idle' 900 2
"$T" crtc >/out/crtc-back.txt 2>&1
kill -TERM "$run"
wait "$run"
echo $? >/out/run.status
kdmode >/out/kd-after.txt
"$T" crtc >/out/crtc-after.txt 2>&1
kill "$hold"
wait "$hold"
exit 0
GUEST

t0=$(date +%s)
kms_boot "$guest" || kms_fail "the guest script failed"
kms_log "VM took $(( $(date +%s) - t0 )) s"
cd "$kms_out"
kms_log "run.log:"; sed 's/^/  | /' run.log; [ -s run.err ] && sed 's/^/  ! /' run.err
fb() { sed -n 's/^crtc [0-9]* index 0 fb \([0-9]*\).*/\1/p' "$1"; }
console=$(fb crtc-before.txt); running=$(fb crtc-running.txt); away=$(fb crtc-away.txt)
back=$(fb crtc-back.txt); after=$(fb crtc-after.txt)
kms_log "CRTC fb: before $console, running $running, switched away $away, back $back, after $after"
[ "$(cat kd-running.txt)" = graphics ] && kms_pass "KD_GRAPHICS while running" || kms_fail "console mode while running: $(cat kd-running.txt)"
[ "$(cat kd-after.txt)" = text ] && kms_pass "KD_TEXT after exit" || kms_fail "console mode after exit: $(cat kd-after.txt)"
[ -n "$running" ] && [ "$running" != "$console" ] && kms_pass "running: the CRTC shows our fb $running" || kms_fail "running: fb '$running'"
grep -q 'display: suspended' run.log && kms_pass "VT release suspended the output" || kms_fail "no suspend on VT release"
[ -n "$away" ] && [ "$away" != "$running" ] && [ "$away" != "$back" ] && kms_pass "switched away: the CRTC shows fb $away, not ours" \
  || kms_fail "switched away: fb '$away'"
grep -q 'display: resumed' run.log && kms_pass "VT acquire resumed the output" || kms_fail "no resume on VT acquire"
[ -n "$back" ] && [ "$back" != "$console" ] && [ "$back" != "$away" ] && kms_pass "back: repainted, the CRTC shows our fb $back" \
  || kms_fail "back: fb '$back'"
[ "$(cat run.status)" = 0 ] && kms_pass "exit 0 on SIGTERM" || kms_fail "status $(cat run.status) on SIGTERM"
[ -n "$after" ] && [ "$after" = "$console" ] && kms_pass "after exit: the console's fb $after again" || kms_fail "after exit: fb '$after' (console $console)"
exit "$kms_failed"
