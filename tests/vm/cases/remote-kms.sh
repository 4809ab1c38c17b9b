#!/usr/bin/env bash
# The remote view on the real KMS path (vkms), at 0 and 90 degrees: with a real viewer
# (vncdotool) connected, what it receives equals what the CRTC scans out (a `drmtool dump`),
# the "being viewed" mark included, before and after a drag the viewer made (which turned the
# dial: a `selected` line); a screenshot over the control socket equals the scanout too; once
# the viewer has left, the mark is gone (only its square changed).
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
# The viewer runs from the host's cached venv (the guest shares the host's root, no network).
python=$("$vm_repo/tests/remote/venv.sh")
# case_boot empties the results directory; this case boots by hand to leave the venv's path there.
rm -rf "$case_out"
mkdir -p "$case_out"
echo "$python" >"$case_out/venv-python"
rc=0
"$vm_dir/boot.sh" --script "$case_guest" --out "$case_out" --timeout "${DIALKIOSK_VM_TIMEOUT:-900}" || rc=$?
if [ "$rc" != 0 ]; then
  tail -n 20 "$case_out/.vm/script.log" 2>/dev/null
  case_fail "the VM run failed with status $rc (serial log: $case_out/serial.log)"
fi
if [ -n "${DIALKIOSK_VM_KMS_API:-}" ] && ! grep -rEqs "KMS API:? $DIALKIOSK_VM_KMS_API" "$case_out"; then
  case_fail "no run of the guest reported KMS API $DIALKIOSK_VM_KMS_API"
fi

cd "$case_out"
compare() { "$python" "$vm_dir/cases/kms-compare.py" "$@" --max-channel 0 --max-fraction 0; }
for rotate in 0 90; do
  name="r$rotate"
  echo "--- $name-viewer.txt"; cat "$name-viewer.txt" 2>/dev/null
  kms_check "$name: exit 0 on SIGTERM" test "$(cat "$name.status" 2>/dev/null)" = 0
  kms_check "$name: the viewer connected, saw a rest after its drag and left" grep -q '^viewer: done' "$name-viewer.txt"
  for stage in a b; do
    kms_check "$name-$stage: the viewer's framebuffer equals the scanout" compare "$name-$stage.ppm" "$name-$stage.png"
    kms_check "$name-$stage: the screenshot equals the scanout" compare "$name-$stage.ppm" "$name-$stage-shot.png"
  done
  kms_check "$name: the viewer's drag turned the dial (a selected line after it)" grep -q '^viewer: the drag turned the dial' "$name-viewer.txt"
  # The mark: the scanout while viewed and after the viewer left differ only in a top-right
  # square of at most 2% of the frame.
  kms_check "$name: the mark was on the glass while viewed and is gone after" \
    "$python" - "$name-b.ppm" "$name-c.ppm" <<'PY'
import sys
from PIL import Image, ImageChops
a, b = (Image.open(p).convert("RGB") for p in sys.argv[1:3])
box = ImageChops.difference(a, b).getbbox()
w, h = a.size
print(f"mark: differing box {box} of {w}x{h}")
ok = box is not None and box[2] == w and box[1] == 0 and (box[2] - box[0]) * (box[3] - box[1]) <= 0.02 * w * h
sys.exit(0 if ok else 1)
PY
done
kms_finish
