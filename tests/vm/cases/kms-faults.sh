#!/usr/bin/env bash
# VM case (issue 7's device faults on a real kernel): SIGTERM in the middle of a fling ends
# `dialkiosk run` at once with the CRTC back on the framebuffer that was there before (the card
# is held open by `drmtool hold`, so the kernel's own console restore cannot mask a missing
# restore); unbinding vkms while `run` animates ends it within seconds with "no DRM device"
# status 69 or a display error (71): never a hang, never a crash.
set -euo pipefail
source "$(dirname "$0")/kms-lib.sh"
kms_setup kms-faults

guest="$kms_out/guest.sh"
cat >"$guest" <<'GUEST'
set -u
. /out/case.env
T="$DK_TOOLS/drmtool"
waitfor() { # FILE PATTERN TENTHS [PID]
  local i
  for ((i = 0; i < $3; i++)); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    [ -n "${4:-}" ] && ! kill -0 "$4" 2>/dev/null && return 1
    sleep 0.1
  done
  return 1
}
# waitexit PID TENTHS: the process's status, or "hung" (then it is killed).
waitexit() {
  local i
  for ((i = 0; i < $2; i++)); do
    if ! kill -0 "$1" 2>/dev/null; then wait "$1"; echo $?; return; fi
    sleep 0.1
  done
  kill -KILL "$1"; wait "$1" 2>/dev/null; echo hung
}
"$T" crtc >/out/crtc-before.txt 2>&1
"$T" hold >/out/hold.txt 2>&1 &
hold=$!
waitfor /out/hold.txt '^hold pid' 300 "$hold" || echo "guest: drmtool hold did not start"

# 1. SIGTERM mid-fling: a fast fling, the signal as soon as frames flow.
"$BIN" run --exit-after 120 --stats --demo-fling 60 >/out/term.log 2>/out/term.err &
run=$!
waitfor /out/term.log '^run: ' 600 "$run" || echo "guest: run did not start"
sleep 0.5
grep -c '^rest ' /out/term.log >/out/rests-before-term.txt
kill -TERM "$run"
waitexit "$run" 100 >/out/term.status
"$T" crtc >/out/crtc-after-term.txt 2>&1
kill "$hold"; wait "$hold" 2>/dev/null

# 2. The card goes away under a running fling: unbind the vkms platform device.
"$BIN" run --exit-after 120 --stats --demo-fling 60 >/out/unbind.log 2>/out/unbind.err &
run=$!
waitfor /out/unbind.log '^run: ' 600 "$run" || echo "guest: run did not start"
sleep 0.5
dev=$(ls /sys/bus/platform/drivers/vkms/ | grep -v -E '^(bind|unbind|uevent|module)$' | head -n1)
echo "$dev" >/out/unbound-device.txt
echo "$dev" >/sys/bus/platform/drivers/vkms/unbind 2>/out/unbind-write.err
waitexit "$run" 300 >/out/unbind.status
ls /dev/dri >/out/dri-after-unbind.txt 2>&1
exit 0
GUEST

t0=$(date +%s)
kms_boot "$guest" || kms_fail "the guest script failed"
kms_log "VM took $(( $(date +%s) - t0 )) s"
cd "$kms_out"
for f in term unbind; do
  kms_log "$f.log:"; sed 's/^/  | /' "$f.log"; [ -s "$f.err" ] && sed 's/^/  ! /' "$f.err"
done

status=$(cat term.status 2>/dev/null || echo none)
[ "$status" = 0 ] && kms_pass "SIGTERM mid-fling: exit 0 within 10 s" || kms_fail "SIGTERM mid-fling: status $status"
[ "$(cat rests-before-term.txt 2>/dev/null)" = 0 ] && kms_pass "the signal came while the ring was still moving" \
  || kms_fail "the ring had come to rest before the signal: the case did not test a fling"
before=$(sed -n 's/^crtc \([0-9]*\) index 0 fb \([0-9]*\).*/\2/p' crtc-before.txt)
after=$(sed -n 's/^crtc \([0-9]*\) index 0 fb \([0-9]*\).*/\2/p' crtc-after-term.txt)
if [ -n "$before" ] && [ "$before" = "$after" ]; then
  kms_pass "after SIGTERM mid-fling the CRTC shows the framebuffer from before ($before)"
else
  kms_fail "CRTC framebuffer before '$before', after SIGTERM mid-fling '$after'"
fi

dev=$(cat unbound-device.txt 2>/dev/null)
[ -n "$dev" ] && [ ! -s unbind-write.err ] && kms_pass "vkms device $dev unbound while run animated" \
  || kms_fail "could not unbind vkms: $(cat unbind-write.err 2>/dev/null)"
status=$(cat unbind.status 2>/dev/null || echo none)
case "$status" in
  69|71) kms_pass "card unbound: run ended with status $status: $(tail -n1 unbind.err)" ;;
  hung) kms_fail "card unbound: run still running after 30 s (hang)" ;;
  *) kms_fail "card unbound: status $status (want 69 or 71), stderr: $(tail -n2 unbind.err)" ;;
esac
exit "$kms_failed"
