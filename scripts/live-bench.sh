#!/usr/bin/env bash
# Live items' figures against a real mosquitto on loopback (Tests/KioskRuntimeTests/
# LiveItemsBenchmark.swift): MQTT publish -> item's frame presented p50/p95, a value dial's
# detent -> its frame presented p50/p95, and frames per second and paint time with 50 bound
# items updating 10 times a second against none.
# A benchmark that prints, not a pass/fail timing test.
# Usage: scripts/live-bench.sh [--release]   (--release: an optimised build with testing
# enabled, in its own build directory .build/live-bench-release)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-path.sh
args=()
if [ "${1:-}" = --release ]; then
  args=(-c release -Xswiftc -enable-testing --scratch-path .build/live-bench-release)
fi
DIALKIOSK_LIVE_BENCH=1 swift test "${args[@]}" --filter LiveItemsBenchmark 2>&1 | grep -E "live-bench:|✘|error:"
