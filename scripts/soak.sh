#!/usr/bin/env bash
# Soak benchmark (prints figures; passes or fails on nothing but a crash or a sanitizer report):
#  1. release build, `simulate` over a generated gesture load of 1,000,000 frames, resident
#     memory at start, every 100,000 frames and at the end;
#  2. AddressSanitizer/LeakSanitizer build, the same load for 100,000 frames.
#  (and the same load painted into the 800x480 frame, as the device does, for PAINT_FRAMES;
#  and painted at 1920x1080 with a reload every 36,000 frames for HD_FRAMES, memory every minute).
# Usage: scripts/soak.sh [FRAMES] [ASAN_FRAMES] [PAINT_FRAMES] [HD_FRAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-path.sh
frames=${1:-1000000}
asan_frames=${2:-100000}
paint_frames=${3:-300000}
hd_frames=${4:-1000000}

echo "== release soak: $frames frames"
swift build -c release --product dialkiosk 2>&1 | tail -n 3
start=$(date +%s.%N)
.build/release/dialkiosk simulate --generate-frames "$frames" --memory-every 100000 --quiet --seed 42
echo "soak: $frames frames in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"

echo "== release soak with painting: $paint_frames frames painted at 800x480"
start=$(date +%s.%N)
.build/release/dialkiosk simulate --generate-frames "$paint_frames" --memory-every 100000 --quiet --seed 42 --paint
echo "soak: $paint_frames painted frames in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"

echo "== release soak at 1920x1080 with painting and a reload (a new painter) every 36,000 frames: $hd_frames frames"
# The figures after the first minute (3600 frames at 60 Hz) against the end: the memory goal wants the
# process's own memory (anon_kb) within 1 MB of it after a million frames.
.build/release/dialkiosk simulate --size 1920x1080 --generate-frames "$hd_frames" --memory-every 3600 \
  --reload-every 36000 --quiet --seed 42 --paint 2>&1 | tee /tmp/dialkiosk-soak-hd.txt
awk '/^memory: frames=3600 / { for (i = 1; i <= NF; i++) if ($i ~ /^anon_kb=/) { split($i, a, "="); first = a[2] } }
     /^memory: end / { for (i = 1; i <= NF; i++) if ($i ~ /^anon_kb=/) { split($i, a, "="); last = a[2] } }
     END { if (first != "" && last != "") printf "soak 1080p: anon %d kB after the first minute, %d kB at the end (%+d kB)\n", first, last, last - first }' \
  /tmp/dialkiosk-soak-hd.txt

echo "== address sanitizer soak: $asan_frames frames"
swift build --scratch-path .build-asan -Xswiftc -sanitize=address --product dialkiosk 2>&1 | tail -n 3
ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
  .build-asan/debug/dialkiosk simulate --generate-frames "$asan_frames" --memory-every 50000 --quiet --seed 42
echo "asan: no error reported (exit $?)"
