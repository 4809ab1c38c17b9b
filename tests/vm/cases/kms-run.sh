# `dialkiosk run` on vkms. A demo fling animates at about the flip rate (the flat painter
# measures the display path alone; with the dial painter the emulated CPU sets the rate), the
# ring comes to rest and the program goes idle (0 flips/s by its own count, by the kernel's flip
# tracepoint, and no CPU time), the screen at rest equals `dialkiosk render` of the rest
# rotation, the first frame of each run is a flip onto the console's running mode (no modeset),
# and after --exit-after and after SIGTERM the CRTC shows the framebuffer that was
# there before (drmtool hold keeps the card open, so the kernel's own restore cannot mask it);
# with display.on_exit: keep the screen after exit, and after the card's last close, still shows
# the last frame.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot

cd "$case_out"
for f in flat run; do
  echo "--- $f.log"; cat "$f.log"; [ -s "$f.err" ] && { echo "--- $f.err"; cat "$f.err"; }
done
kms_check "flat run exits 0 after --exit-after 6" test "$(cat flat.status)" = 0
kms_check "dial run exits 0 on SIGTERM" test "$(cat run.status)" = 0
# vkms has atomic KMS: auto takes it; run-all.sh's legacy pass (kms-run-legacy) forces the
# legacy calls through DIALKIOSK_VM_KMS_API.
api="${DIALKIOSK_VM_KMS_API:-atomic}"
kms_check "both runs drove the output with the $api API (--stats)" \
  test "$(grep -c "^stats: frame clock .*, KMS API $api" flat.err run.err | awk -F: '{ s += $2 } END { print s }')" = 2
kms_check "list-outputs says run would use the $api API" grep -q "KMS API: $api" list-outputs.txt
# Both runs start on the console's CRTC (fbcon holds Virtual-1 at 1024x768, the preferred mode
# run chooses): the first frame is a flip onto it, no modeset, said by run: and stats:.
for f in flat run; do
  kms_check "$f: the first frame went onto the running mode without a modeset" \
    grep -q '^run: first frame: flip onto the running mode; on the glass [0-9.]* s after process start' "$f.err"
  kms_check "$f: --stats says the same" grep -q '^stats: first frame: flip onto the running mode' "$f.err"
  case_note "$f: $(grep -m1 '^run: first frame' "$f.err")"
done

best_rate() { sed -n 's/^stats: \([0-9.]*\) flips\/s.*/\1/p' "$1" | sort -n | tail -n1; }
kernel_best() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(max(d["per_second"] or [0]))' "$1"; }
kernel_total() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$1"; }

# About 60 flips/s while animating, bounded loosely: emulated time varies with the host's load,
# so the floor is also relative to drmtool's flip rate in the same guest just before and after.
hz() { sed -n 's/^flip [0-9]* in [0-9.]* s = \([0-9.]*\) Hz/\1/p' "$1"; }
ref=$(printf '%s\n' "$(hz reference-flip-before.txt)" "$(hz reference-flip.txt)" | sed '/^$/d' | sort -n | head -n1)
lo=$(awk -v ref="${ref:-60}" 'BEGIN { l = 0.6 * ref; if (l > 40) l = 40; printf "%.1f", l }')
r=$(best_rate flat.err)
k=$(kernel_best flips-flat.json)
case_note "reference $(cat reference-flip-before.txt) before, $(cat reference-flip.txt) after; flat painter best second: $r flips/s (program), $k (kernel)"
kms_check "flat painter animates at $r flips/s by its own count (want $lo..65)" kms_between "$r" "$lo" 65
kms_check "flat painter animates at $k flips/s by the kernel's tracepoint (want $lo..65)" kms_between "$k" "$lo" 65
kms_check "flat run goes idle before --exit-after" grep -q '0 flips/s until input' flat.err
r=$(best_rate run.err)
case_note "dial painter under emulation: best second $r flips/s"
kms_check "dial painter shows frames while animating" kms_between "$r" 0.5 65

kms_check "the program reports idle" grep -q '0 flips/s until input' run.err
# --stats gives the kiosk's own memory when it goes idle, the scanout buffers it maps apart.
mem=$(grep '^stats: memory ' run.err | tail -n1)
case_note "dial painter's memory at idle (--stats): ${mem#stats: memory }"
kms_check "run --stats reports the kiosk's memory, the mapped scanout buffers apart" \
  grep -Eq '^stats: memory rss_kb=[0-9]+ anon_kb=[0-9]+ .* scanout_kb=[0-9]+$' run.err
# Two dumb buffers of the console's 1024x768 XRGB8888 mode: 2 x 3072 kB mapped (vkms maps them
# as page frames, which smaps counts as 0 kB resident: scanout_kb is their mapped size).
echo "--- run-dri-smaps.txt"; cat run-dri-smaps.txt
scanout=$(sed -n 's/.* scanout_kb=\([0-9]*\)$/\1/p' <<<"$mem")
kms_check "run --stats counts the scanout buffers it maps (want 6144 kB, got ${scanout:-none})" \
  test "${scanout:-0}" -ge 6144
n=$(kernel_total flips-rest.json)
kms_check "0 flips from outside in 3 s at rest (got $n)" test "$n" = 0
ticks=$(cat cpu-ticks-at-rest.txt)
kms_check "at most 2 CPU ticks (1/100 s) in 3 s at rest (got $ticks)" test "$ticks" -le 2

# stdout carries the event lines (JSON), stderr the log lines (stats).
rot=$(python3 "$vm_repo/tests/lib/dkevents.py" run.log --event rest --field rotation --last || true)
size=$(sed -n 's/^dump crtc [0-9]* fb [0-9]* \([0-9]*x[0-9]*\) .*/\1/p' dump.txt)
if [ -n "$rot" ] && [ -n "$size" ]; then
  "$kms_bin" render --size "$size" --angle "$rot" --out reference.png
  kms_check "the scanout at rest equals render --size $size --angle $rot" \
    python3 "$vm_dir/cases/kms-compare.py" screen.ppm reference.png
else
  kms_check "a rest rotation ('$rot') and a dump ('$(cat dump.txt)')" false
fi

before=$(kms_fb crtc-before.txt)
kms_check "before the runs the console's fb is on the CRTC ($before)" test -n "$before" -a "$before" != 0
kms_check "after --exit-after the CRTC shows fb $before again (got $(kms_fb crtc-after-flat.txt))" \
  test "$(kms_fb crtc-after-flat.txt)" = "$before"
kms_check "after SIGTERM the CRTC shows fb $before again (got $(kms_fb crtc-after.txt))" \
  test "$(kms_fb crtc-after.txt)" = "$before"

# display.on_exit: keep: the last frame (the flat painter's colour at rest) is copied into the
# console's framebuffer, which our restore puts back and the kernel shows after the last close.
echo "--- keep.err"; cat keep.err
kms_check "keep: run exits 0 on SIGTERM" test "$(cat keep.status)" = 0
kms_check "keep: the last frame went into the console's framebuffer" \
  grep -q '^run: on exit the last frame stays (copied into /dev/fb[0-9]*)' keep.err
kms_check "keep: the CRTC shows the console's fb $before again (got $(kms_fb crtc-after-keep.txt))" \
  test "$(kms_fb crtc-after-keep.txt)" = "$before"
# fbcon's cursor may blink into a few pixels of its framebuffer: a small fraction may differ.
kms_check "keep: after exit the screen still shows the last frame" \
  python3 "$vm_dir/cases/kms-compare.py" keep-after.ppm keep-running.ppm --max-channel 0 --max-fraction 0.001
kms_check "keep: after the card's last close too (the kernel's restore)" \
  python3 "$vm_dir/cases/kms-compare.py" keep-after-close.ppm keep-running.ppm --max-channel 0 --max-fraction 0.001
kms_finish
