# Device faults on a real kernel: SIGTERM in the middle of a fling ends `dialkiosk run`
# at once with the CRTC back on the framebuffer that was there before (the card is held open by
# `drmtool hold`, so the kernel's own console restore cannot mask a missing restore); removing
# the card under a running fling (the bochs PCI device: vkms has no driver to unbind) ends `run`
# within seconds with a status (69: the card went away, or 71), never a hang, never a crash.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot --bochs

cd "$case_out"
echo "--- term.log"; tail -n 5 term.log
echo "--- unbind.log"; tail -n 5 unbind.log
kms_check "SIGTERM mid-fling: exit 0 within 10 s (got $(cat term.status))" test "$(cat term.status)" = 0
kms_check "the signal came while the ring still moved (no rest before it)" test "$(cat rests-before-term.txt)" = 0
before=$(kms_fb crtc-before.txt)
after=$(kms_fb crtc-after-term.txt)
kms_check "after SIGTERM mid-fling the CRTC shows the framebuffer from before ($before, now $after)" \
  test -n "$before" -a "$before" = "$after"
kms_check "PCI card $(cat unbound-device.txt) removed while run animated" test ! -s unbind-write.err
status=$(cat unbind.status)
kms_check "card removed: run ended with 69 or 71, not a hang or a crash (got $status)" \
  kms_between "$( [ "$status" = hung ] && echo 999 || echo "$status")" 69 71
kms_check "card removed: the message says what happened" grep -q -E 'dialkiosk: .*(the card was removed|No such device)' unbind.log
kms_finish
