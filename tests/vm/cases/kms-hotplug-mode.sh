# A connector that comes back with a different preferred mode gets a new modeset at that size and
# the dial laid out again. qemu's virtio-gpu changes its connector's preferred
# mode (through the EDID it generates) when a display client resizes it, and sends a hotplug:
# the host resizes it through qemu's VNC server (vnc-resize.py, RFB SetDesktopSize) while `run`
# shows the dial. The screen after the change equals `dialkiosk render` at the new size.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
sock="/tmp/dialkiosk-vnc-$$.sock"
vnc_log="/tmp/dialkiosk-vnc-$$.log"
rm -f "$sock"
# Connects once qemu has made the socket (after case_boot has emptied $case_out), then waits for
# the guest's /out/resize-now.
python3 "$vm_dir/cases/vnc-resize.py" "$sock" --step "$case_out/resize-1:800x600" \
  --step "$case_out/resize-2:1024x768" --step "$case_out/resize-3:800x600" >"$vnc_log" 2>&1 &
helper=$!
boot_rc=0
(case_boot --virtio-gpu "$sock") || boot_rc=$?
kill "$helper" 2>/dev/null || true
wait "$helper" 2>/dev/null || true
rm -f "$sock"
echo "--- vnc-resize"; cat "$vnc_log"; rm -f "$vnc_log"
[ "$boot_rc" = 0 ] || case_fail "the VM run failed (see above)"

cd "$case_out"
size_of() { sed -n 's/^dump crtc [0-9]* fb [0-9]* \([0-9]*x[0-9]*\) .*/\1/p' "$1" 2>/dev/null; }
# atomic: from the first preferred mode to 800x600; legacy: from there to 1024x768.
for run in "atomic 800x600" "legacy 1024x768"; do
  set -- $run
  api=$1 new=$2
  echo "--- $api.err"; cat "$api.err" 2>/dev/null
  echo "--- $api.crtc-before.txt"; cat "$api.crtc-before.txt" 2>/dev/null
  echo "--- $api.crtc-after.txt"; cat "$api.crtc-after.txt" 2>/dev/null
  kms_check "$api: exit 0 on SIGTERM" test "$(cat "$api.status" 2>/dev/null)" = 0
  kms_check "$api: the log names the API" grep -q "KMS API $api" "$api.err"
  before=$(size_of "$api.before.dump.txt")
  after=$(size_of "$api.after.dump.txt")
  kms_check "$api: a first mode other than $new (got '$before')" bash -c "[ -n '$before' ] && [ '$before' != $new ]"
  kms_check "$api: the new mode is $new (got '$after')" test "$after" = "$new"
  kms_check "$api: run logged the new mode" grep -q "display: new mode $new" "$api.err"
  rot=$(python3 "$vm_repo/tests/lib/dkevents.py" "$api.log" --event rest --field rotation --last || true)
  for shot in before after; do
    size=$(size_of "$api.$shot.dump.txt")
    [ -n "$size" ] || { kms_check "$api: a dump $shot ('$(cat "$api.$shot.dump.txt" 2>/dev/null)')" false; continue; }
    "$kms_bin" render --size "$size" --items 24 --angle "${rot:-0}" --out "$api.$shot.png"
    kms_check "$api: $shot: the screen equals render --size $size --angle ${rot:-0}" \
      python3 "$vm_dir/cases/kms-compare.py" "$api.$shot.ppm" "$api.$shot.png" --max-channel 0 --max-fraction 0
  done
done
# A mode change inside a ring: the drinks ring stays open, laid out anew.
echo "--- ring.err"; cat ring.err 2>/dev/null
kms_check "ring: exit 0 on SIGTERM" test "$(cat ring.status 2>/dev/null)" = 0
kms_check "ring: the control socket opened drinks" grep -q '"event": "opened".*"drinks"' ring.log
kms_check "ring: run logged the new mode 800x600" grep -q "display: new mode 800x600" ring.err
size=$(size_of ring.after.dump.txt)
if [ "$size" = 800x600 ]; then
  "$kms_bin" render --config "$case_out/menu.yaml" --size "$size" --path drinks --out ring.after.png
  kms_check "ring: after the new mode the screen equals render --path drinks --size $size" \
    python3 "$vm_dir/cases/kms-compare.py" ring.after.ppm ring.after.png --max-channel 0 --max-fraction 0
else
  kms_check "ring: a dump at 800x600 (got '$size')" false
fi
kms_finish
