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
    frames=$(python3 "$vm_repo/tests/lib/dkevents.py" "$name.log" --event rest --field frames --last || true)
    kms_check "$name: a spin of at least 20 frames before rest (got '$frames')" kms_between "${frames:-0}" 20 100000
    rot=$(python3 "$vm_repo/tests/lib/dkevents.py" "$name.log" --event rest --field rotation --last || true)
    kms_screen_is_render "$name" "$rot" --items 24 --rotate "$rotate"
  done
done
kms_finish
