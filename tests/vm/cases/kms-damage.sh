# `dialkiosk run` on vkms after a long spin, with damage-limited copies (each scanout buffer gets
# only what changed since it was last painted): at 0 and 90 degrees, with 2 and 3 buffers, the
# screen at rest equals `dialkiosk render` of the rest rotation, so no frame's copy left a stale
# pixel behind.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot

cd "$case_out"
for rotate in 0 90; do
  for buffers in 2 3; do
    name="r$rotate-b$buffers"
    echo "--- $name.err"; cat "$name.err" 2>/dev/null
    kms_check "$name: exit 0 on SIGTERM" test "$(cat "$name.status" 2>/dev/null)" = 0
    frames=$(sed -n 's/.*"event": "rest".*"frames": \([0-9]*\).*/\1/p' "$name.log" | tail -n1)
    kms_check "$name: a spin of at least 20 frames before rest (got '$frames')" kms_between "${frames:-0}" 20 100000
    rot=$(sed -n 's/.*"event": "rest".*"rotation": \([-0-9.e]*\),.*/\1/p' "$name.log" | tail -n1)
    size=$(sed -n 's/^dump crtc [0-9]* fb [0-9]* \([0-9]*x[0-9]*\) .*/\1/p' "$name.dump.txt" 2>/dev/null)
    if [ -n "$rot" ] && [ -n "$size" ]; then
      "$kms_bin" render --size "$size" --items 24 --rotate "$rotate" --angle "$rot" --out "$name.png"
      kms_check "$name: the scanout after the spin equals render --size $size --rotate $rotate --angle $rot" \
        python3 "$vm_dir/cases/kms-compare.py" "$name.ppm" "$name.png" --max-channel 0 --max-fraction 0
    else
      kms_check "$name: a rest rotation ('$rot') and a dump ('$(cat "$name.dump.txt" 2>/dev/null)')" false
    fi
  done
done
kms_finish
