#!/usr/bin/env bash
# VM case: `dialkiosk run` on vkms. A demo fling animates at about the flip rate (the flat
# painter measures the display path alone; the dial painter is what the emulated CPU allows),
# the ring comes
# to rest and the program goes idle (0 flips/s by its own count, by the kernel's flip tracepoint,
# and by its CPU time), the screen at rest equals `dialkiosk render` of the rest rotation, and
# after the run ends the CRTC shows the framebuffer that was there before (the card is held open
# by `drmtool hold` meanwhile, so the kernel's own console restore cannot mask a missing one).
# Host side: boots the bed once, then checks what the guest left in the output directory.
set -euo pipefail
source "$(dirname "$0")/kms-lib.sh"
kms_setup kms-run

guest="$kms_out/guest.sh"
cat >"$guest" <<'GUEST'
set -u
. /out/case.env
T="$DK_TOOLS/drmtool"
F="$DK_GUEST/flips.py"
waitfor() { # FILE PATTERN TENTHS [PID]
  local i
  for ((i = 0; i < $3; i++)); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    [ -n "${4:-}" ] && ! kill -0 "$4" 2>/dev/null && return 1
    sleep 0.1
  done
  return 1
}
"$T" crtc >/out/crtc-before.txt 2>&1
"$T" hold >/out/hold.txt 2>&1 &
hold=$!
waitfor /out/hold.txt '^hold pid' 300 "$hold" || echo "guest: drmtool hold did not start"
python3 "$F" start

# 1. The display path alone (flat painter), exactly as the acceptance runs it.
python3 "$F" now >/out/flat-t0.txt
"$BIN" run --painter flat --exit-after 6 --stats --demo-fling 30 >/out/flat.log 2>/out/flat.err
echo $? >/out/flat.status
"$T" crtc >/out/crtc-after-flat.txt 2>&1
python3 "$F" now >/out/flat-t1.txt

# 2. The dial painter: animate, rest, dump the screen, watch a window at rest, SIGTERM.
"$BIN" run --exit-after 120 --stats --demo-fling 30 >/out/run.log 2>/out/run.err &
run=$!
waitfor /out/run.log 'stats: idle' 1200 "$run" || echo "guest: run never went idle"
python3 "$F" now >/out/t-idle.txt
"$T" dump /out/screen.ppm >/out/dump.txt 2>&1
cpu0=$(awk '{print $14 + $15}' "/proc/$run/stat")
python3 "$F" now >/out/t-window-start.txt
# A window at rest: neither the program's CPU time nor the kernel's flip count may grow.
sleep 3
cpu1=$(awk '{print $14 + $15}' "/proc/$run/stat")
python3 "$F" now >/out/t-window-end.txt
echo "$((cpu1 - cpu0))" >/out/cpu-ticks-at-rest.txt
kill -TERM "$run"
wait "$run"
echo $? >/out/run.status
python3 "$F" stop
python3 "$F" report --from "$(cat /out/flat-t0.txt)" --to "$(cat /out/flat-t1.txt)" >/out/flips-flat.json
python3 "$F" report --from "$(cat /out/t-idle.txt)" >/out/flips-dial.json
python3 "$F" report --from "$(cat /out/t-window-start.txt)" --to "$(cat /out/t-window-end.txt)" >/out/flips-rest.json
"$T" crtc >/out/crtc-after.txt 2>&1
kill "$hold"
wait "$hold"
# The bed's reference, last (drmtool leaves the CRTC as it likes): two buffers flipped as fast
# as vblank allows.
"$T" flip 3 >/out/reference-flip.txt 2>&1
exit 0
GUEST

t0=$(date +%s)
kms_boot "$guest" || kms_fail "the guest script failed"
kms_log "VM took $(( $(date +%s) - t0 )) s"
cd "$kms_out"
for f in flat run; do
  kms_log "$f.log:"; sed 's/^/  | /' "$f.log"; [ -s "$f.err" ] && sed 's/^/  ! /' "$f.err"
done

[ "$(cat flat.status 2>/dev/null)" = 0 ] && kms_pass "flat run exited 0 after --exit-after 6" || kms_fail "flat run status $(cat flat.status 2>/dev/null)"
[ "$(cat run.status 2>/dev/null)" = 0 ] && kms_pass "dial run exited 0 on SIGTERM" || kms_fail "dial run status $(cat run.status 2>/dev/null) after SIGTERM"

# best_rate LOG: the highest per-second count the program printed.
best_rate() { sed -n 's/^stats: \([0-9.]*\) flips\/s.*/\1/p' "$1" | sort -n | tail -n1; }
between() { [ -n "$1" ] && awk -v r="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(r >= lo && r <= hi) }'; }
kernel_best() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(max(d["per_second"] or [0]))' "$1"; }
kernel_total() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$1"; }

# Animating, display path alone: about 60 (bounded loosely, emulated time varies; VM-NOTES).
# The floor is also relative to what drmtool reaches in the same guest, since a loaded host
# slows the emulated CPU for everyone.
ref=$(sed -n 's/^flip [0-9]* in [0-9.]* s = \([0-9.]*\) Hz/\1/p' reference-flip.txt)
kms_log "reference: $(cat reference-flip.txt)"
lo=$(awk -v ref="${ref:-60}" 'BEGIN { l = 0.6 * ref; if (l > 40) l = 40; printf "%.1f", l }')
r=$(best_rate flat.log); k=$(kernel_best flips-flat.json)
between "$r" "$lo" 65 && kms_pass "flat painter: $r flips/s by the program's count (floor $lo)" || kms_fail "flat painter: best second '$r' flips/s (want $lo..65)"
between "$k" "$lo" 65 && kms_pass "flat painter: $k flips in a second by the kernel's tracepoint" || kms_fail "flat painter: kernel best second $k (want $lo..65)"
grep -q '0 flips/s until input' flat.log && kms_pass "flat run went idle before --exit-after" || kms_fail "flat run never went idle"

# With the dial painter the emulated CPU limits the rate: report it, require frames to flow.
r=$(best_rate run.log); k=$(kernel_best flips-dial.json)
kms_log "dial painter under emulation: best second $r flips/s by the program, $k by the kernel"
between "$r" 1 65 || kms_fail "dial painter: no frames while animating ('$r')"

# At rest.
grep -q '0 flips/s until input' run.log && kms_pass "program reports idle" || kms_fail "no idle line"
n=$(kernel_total flips-rest.json)
[ "$n" = 0 ] && kms_pass "0 flips from outside in 3 s at rest" || kms_fail "$n flips in 3 s at rest"
ticks=$(cat cpu-ticks-at-rest.txt)
[ "$ticks" -ge 0 ] && [ "$ticks" -le 2 ] && kms_pass "$ticks CPU ticks (1/100 s) in 3 s at rest" || kms_fail "$ticks CPU ticks in 3 s at rest"

# The screen at rest equals render of the rest rotation.
rot=$(sed -n 's/^rest rotation=\([-0-9.]*\) .*/\1/p' run.log | tail -n1)
size=$(sed -n 's/^dump crtc [0-9]* fb [0-9]* \([0-9]*x[0-9]*\) .*/\1/p' dump.txt)
if [ -n "$rot" ] && [ -n "$size" ]; then
  "$kms_bin" render --size "$size" --angle "$rot" --out reference.png
  if python3 "$kms_here/kms-compare.py" screen.ppm reference.png; then
    kms_pass "scanout at rest equals render --angle $rot"
  else
    kms_fail "scanout at rest differs from render --angle $rot"
  fi
else
  kms_fail "no rest rotation ('$rot') or no dump ('$(cat dump.txt)')"
fi

# Restore.
before=$(sed -n 's/^crtc \([0-9]*\) index 0 fb \([0-9]*\).*/\2/p' crtc-before.txt)
flat=$(sed -n 's/^crtc \([0-9]*\) index 0 fb \([0-9]*\).*/\2/p' crtc-after-flat.txt)
[ -n "$before" ] && [ "$before" = "$flat" ] && kms_pass "after --exit-after the CRTC shows fb $flat again" \
  || kms_fail "CRTC fb before '$before', after the flat run '$flat'"
after=$(sed -n 's/^crtc \([0-9]*\) index 0 fb \([0-9]*\).*/\2/p' crtc-after.txt)
if [ -n "$before" ] && [ "$before" = "$after" ] && [ "$before" != 0 ]; then
  kms_pass "after SIGTERM the CRTC shows fb $after again, as before the run"
else
  kms_fail "CRTC fb before '$before', after '$after'"
fi
exit "$kms_failed"
