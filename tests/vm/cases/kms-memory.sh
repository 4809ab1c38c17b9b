#!/usr/bin/env bash
# The kiosk's memory on the KMS path: `run --items 24` on vkms at 1920x1080 while a uinput
# finger turns the ring, read by scripts/memory-bench.py --attach (resident peak, anonymous,
# file, shared, smaps_rollup, Rss by mapping, and the dumb buffers at their mapped size). Prints
# the figures; checks only that they were read and that frames flowed, never a bound on memory.
source "$(dirname "$0")/../lib/case.sh"
case_boot
cat "$(case_file kms-memory/memory.txt)"
case_note "best second while turning: $(cat "$(case_file kms-memory/best-rate.txt)")"
case_note "$(grep -m1 '^run: first frame' "$(case_file kms-memory/run.err)")"
case_results
