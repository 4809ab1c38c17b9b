#!/usr/bin/env bash
# The test command: unit tests with `swift test`, then the VM test bed (real kernel drivers in
# qemu) unless DIALKIOSK_SKIP_VM=1. Run from anywhere inside the clone.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

echo "== swift test"
swift test 2>&1

if [ "${DIALKIOSK_SKIP_VM:-0}" != 1 ] && [ -x tests/vm/run-all.sh ]; then
  echo "== VM test bed"
  tests/vm/run-all.sh
fi
