#!/usr/bin/env bash
# The test command: unit tests with `swift test`, then the VM test bed (real kernel drivers in
# qemu) unless DIALKIOSK_SKIP_VM=1. Run from anywhere inside the clone.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

echo "== swift test"
swift test 2>&1

if [ "${DIALKIOSK_SKIP_FUZZ:-0}" != 1 ]; then
  echo "== libFuzzer (fixed budget)"
  scripts/fuzz.sh "${DIALKIOSK_FUZZ_RUNS:-10000}"
fi

if [ "${DIALKIOSK_SKIP_VM:-0}" != 1 ] && [ -x tests/vm/run-all.sh ]; then
  echo "== VM test bed (release build of what the guest runs)"
  swift build -c release --product dialkiosk 2>&1 | tail -n 2
  tests/vm/run-all.sh
fi
