# The display errors a person can act on, each with its message and exit status: a wrong
# --connector (79), a card held by another DRM master (75), a user outside group video (77), no
# DRM device once vkms is unloaded (69). Also `list-outputs` on vkms.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot

cd "$case_out"
echo "--- list-outputs"; head -n 8 list-outputs.out
head -n1 ./*.err
kms_check "list-outputs exits 0" test "$(cat list-outputs.status)" = 0
kms_check "list-outputs names the vkms driver" grep -q '^/dev/dri/card0: driver vkms$' list-outputs.out
kms_check "list-outputs shows Virtual-1 connected" grep -Eq '^  connector Virtual-1 \(id [0-9]+\): connected' list-outputs.out
kms_check "list-outputs marks 1024x768 preferred" grep -q '^    1024x768@60.00 preferred$' list-outputs.out
kms_check "wrong connector: 79, 'connector HDMI-A-2 not found; connected: Virtual-1'" \
  kms_status connector 79 "dialkiosk: connector HDMI-A-2 not found; connected: Virtual-1"
kms_check "card held by drmtool master: 75, 'another program is DRM master'" \
  kms_status master 75 "dialkiosk: another program is DRM master on /dev/dri/card0"
kms_check "user outside group video: 77, permission message" \
  kms_status permission 77 "dialkiosk: /dev/dri/card0: Permission denied (is the user in group video?)"
kms_check "vkms unloaded: 69, 'no DRM device found'" kms_status nodevice 69 "dialkiosk: no DRM device found"
kms_check "the no-device message points to simulate" grep -q 'dialkiosk simulate' nodevice.err
kms_finish
