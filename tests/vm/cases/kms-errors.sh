#!/usr/bin/env bash
# VM case: the display errors a person can act on, each with its message and exit status:
# a wrong --connector (79), a card held by another DRM master (75), a user outside group video
# (77), no DRM device at all after vkms is unloaded (69). Also `list-outputs` on vkms.
set -euo pipefail
source "$(dirname "$0")/kms-lib.sh"
kms_setup kms-errors

guest="$kms_out/guest.sh"
cat >"$guest" <<'GUEST'
set -u
. /out/case.env
T="$DK_TOOLS/drmtool"
# try NAME ARGS...: runs dialkiosk, keeping stdout, stderr and the status apart.
try() {
  local name="$1"
  shift
  "$@" >"/out/$name.out" 2>"/out/$name.err"
  echo $? >"/out/$name.status"
}
try list-outputs "$BIN" list-outputs
try connector "$BIN" run --connector HDMI-A-2 --exit-after 5
"$T" master >/out/master.txt 2>&1 &
m=$!
for i in $(seq 300); do grep -q '^master pid' /out/master.txt && break; sleep 0.1; done
try master "$BIN" run --exit-after 5
kill "$m"
wait "$m"
try permission setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" run --exit-after 5
modprobe -r vkms || echo "guest: modprobe -r vkms failed"
ls /dev/dri >/out/dri-after-rmmod.txt 2>&1
try nodevice "$BIN" run --exit-after 5
exit 0
GUEST

t0=$(date +%s)
kms_boot "$guest" || kms_fail "the guest script failed"
kms_log "VM took $(( $(date +%s) - t0 )) s"
cd "$kms_out"
kms_log "list-outputs:"; sed 's/^/  | /' list-outputs.out
if [ "$(cat list-outputs.status)" = 0 ] && grep -q 'connector Virtual-1 (id [0-9]*): connected' list-outputs.out \
   && grep -q '1024x768@60.00 preferred' list-outputs.out && grep -q 'driver vkms' list-outputs.out; then
  kms_pass "list-outputs shows vkms, Virtual-1 connected, 1024x768 preferred"
else
  kms_fail "list-outputs status $(cat list-outputs.status): $(head -n3 list-outputs.err)"
fi
kms_expect_status "wrong connector" connector 79 "connector HDMI-A-2 not found; connected: Virtual-1"
kms_expect_status "card held by drmtool master" master 75 "another program is DRM master"
kms_expect_status "user outside group video" permission 77 "/dev/dri/card0: Permission denied (is the user in group video?)"
kms_expect_status "vkms unloaded" nodevice 69 "no DRM device found"
grep -q "dialkiosk simulate" nodevice.err && kms_pass "no-device message points to simulate" || kms_fail "no hint to simulate"
exit "$kms_failed"
