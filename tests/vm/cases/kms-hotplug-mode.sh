# A connector that comes back with a different preferred mode gets a new modeset at that size and
# the dial laid out again (issue 11, item 5). qemu's virtio-gpu changes its connector's preferred
# mode (through the EDID it generates) when a display client resizes it, and sends a hotplug:
# the host resizes it through qemu's VNC server (vnc-resize.py, RFB SetDesktopSize) while `run`
# shows the dial. The screen after the change equals `dialkiosk render` at the new size.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
kms_build
sock="/tmp/dialkiosk-vnc-$$.sock"
vnc_log="/tmp/dialkiosk-vnc-$$.log"
rm -f "$sock"
# Connects once qemu has made the socket (after case_boot has emptied $case_out), then waits for
# the guest's /out/resize-now.
python3 "$vm_dir/cases/vnc-resize.py" "$sock" --when "$case_out/resize-now" --size 800x600 >"$vnc_log" 2>&1 &
helper=$!
boot_rc=0
(case_boot --virtio-gpu "$sock") || boot_rc=$?
kill "$helper" 2>/dev/null || true
wait "$helper" 2>/dev/null || true
rm -f "$sock"
echo "--- vnc-resize"; cat "$vnc_log"; rm -f "$vnc_log"
[ "$boot_rc" = 0 ] || case_fail "the VM run failed (see above)"

cd "$case_out"
echo "--- run.err"; cat run.err 2>/dev/null
echo "--- crtc-before.txt"; cat crtc-before.txt 2>/dev/null
echo "--- crtc-after.txt"; cat crtc-after.txt 2>/dev/null
kms_check "exit 0 on SIGTERM" test "$(cat run.status 2>/dev/null)" = 0
size_of() { sed -n 's/^dump crtc [0-9]* fb [0-9]* \([0-9]*x[0-9]*\) .*/\1/p' "$1" 2>/dev/null; }
before=$(size_of before.dump.txt)
after=$(size_of after.dump.txt)
kms_check "a first mode other than 800x600 (got '$before')" bash -c "[ -n '$before' ] && [ '$before' != 800x600 ]"
kms_check "the new mode is 800x600 (got '$after')" test "$after" = 800x600
kms_check "run logged the new mode" grep -q 'display: new mode 800x600' run.err
rot=$(sed -n 's/.*"event": "rest".*"rotation": \([-0-9.e]*\),.*/\1/p' run.log | tail -n1)
for shot in before after; do
  size=$(size_of "$shot.dump.txt")
  [ -n "$size" ] || { kms_check "a dump $shot ('$(cat "$shot.dump.txt" 2>/dev/null)')" false; continue; }
  "$kms_bin" render --size "$size" --items 24 --angle "${rot:-0}" --out "$shot.png"
  kms_check "$shot: the screen equals render --size $size --angle ${rot:-0}" \
    python3 "$vm_dir/cases/kms-compare.py" "$shot.ppm" "$shot.png" --max-channel 0 --max-fraction 0
done
kms_finish
