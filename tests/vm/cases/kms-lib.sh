# Shared by the kms-* cases (sourced after ../lib/case.sh): the binary they run on the host
# (render), and checks that report every failure of a case, not only the first.
kms_bin="$(vm_bin)" || case_fail "no dialkiosk binary (the line above says where it was looked for)"
kms_failures=()

# kms_check WHAT COMMAND...: notes WHAT when COMMAND succeeds, records it as a failure if not.
kms_check() {
  local what="$1"
  shift
  if "$@"; then
    case_note "ok: $what"
  else
    echo "failed: $what"
    kms_failures+=("$what")
  fi
}

# kms_finish: PASS when nothing failed; otherwise one FAIL line per failure, the last one shown
# by run-all.sh.
kms_finish() {
  [ ${#kms_failures[@]} -eq 0 ] && exit 0
  local f
  for f in "${kms_failures[@]}"; do echo "FAIL: $f"; done
  exit 1
}

# kms_fb FILE: the framebuffer id on CRTC index 0 in a `drmtool crtc` listing.
kms_fb() { sed -n 's/^crtc [0-9]* index 0 fb \([0-9]*\) .*/\1/p' "$case_out/$1"; }

# kms_between VALUE LOW HIGH
kms_between() { [ -n "$1" ] && awk -v r="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(r >= lo && r <= hi) }'; }

# kms_status NAME STATUS MESSAGE: the guest's NAME.status and NAME.err match.
kms_status() {
  [ "$(cat "$case_out/$1.status" 2>/dev/null)" = "$2" ] && grep -qF -- "$3" "$case_out/$1.err"
}

# kms_screen_is_render NAME ROTATION [render options...]: the guest's NAME.ppm (a scanout dump,
# its size in NAME.dump.txt) equals `render` at that size and rotation, pixel for pixel (the
# picture goes to NAME.png).
kms_screen_is_render() {
  local name="$1" rot="$2" size
  shift 2
  size=$(sed -n 's/^dump crtc [0-9]* fb [0-9]* \([0-9]*x[0-9]*\) .*/\1/p' "$name.dump.txt" 2>/dev/null)
  if [ -n "$rot" ] && [ -n "$size" ]; then
    "$kms_bin" render --size "$size" "$@" --angle "$rot" --out "$name.png"
    kms_check "$name: the screen equals render --size $size $* --angle $rot" \
      python3 "$vm_dir/cases/kms-compare.py" "$name.ppm" "$name.png" --max-channel 0 --max-fraction 0
  else
    kms_check "$name: a rest rotation ('$rot') and a dump ('$(cat "$name.dump.txt" 2>/dev/null)')" false
  fi
}
