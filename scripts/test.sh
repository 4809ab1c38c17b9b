#!/usr/bin/env bash
# The test command: unit tests with `swift test`, the fuzz budget, the Debian packages with the
# 6.0.3 test run, the arm64 checks and the install on a minbase root (unless
# DIALKIOSK_SKIP_PACKAGE=1), then the VM test bed
# (real kernel drivers in qemu; the cases that drive `run` once more on the legacy KMS path)
# unless DIALKIOSK_SKIP_VM=1. Run from anywhere inside the clone.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-path.sh

echo "== swift test"
swift test 2>&1

# MQTT: 50 kiosks on the virtual display on one real mosquitto.
echo "== MQTT fleet (tests/mqtt/fleet.py)"
swift build --product dialkiosk 2>&1 | tail -n 1
python3 tests/mqtt/fleet.py --binary .build/debug/dialkiosk --kiosks 50 --kill 10
# Signed fleet configuration: one retained bundle to 50 kiosks, confirm, revert, refusals, bad
# input, SIGKILL crash safety (docs/fleet.md).
echo "== Fleet signatures against minisign (tests/fleet/minisign.py)"
python3 tests/fleet/minisign.py --binary .build/debug/dialkiosk
echo "== MQTT fleet configuration (tests/mqtt/fleet-config.py)"
python3 tests/mqtt/fleet-config.py --binary .build/debug/dialkiosk --kiosks 50 --crashes 12 --confirm-seconds 6
# Home Assistant discovery against a real Home Assistant Core (a pinned release in a venv in a
# cached Debian 13 root, tests/ha/venv.sh; about 6 minutes to make once, then about 15 s a run):
# every announced entity appears under its default_entity_id, a reload that removes a value
# item takes its number out of Home Assistant, and its log has no MQTT or deprecation warning.
echo "== Home Assistant Core (tests/ha/core.py)"
ha_start=$SECONDS
python3 tests/ha/core.py --binary .build/debug/dialkiosk
echo "Home Assistant Core: $((SECONDS - ha_start)) s"

# The remote view against a real RFB client (vncdotool, from PyPI into a cached venv).
echo "== remote view against vncdotool (tests/remote/viewer.py)"
"$(tests/remote/venv.sh)" tests/remote/viewer.py --binary .build/debug/dialkiosk
# Screenshots (control socket and MQTT on a real mosquitto), the viewer count, the mark, dim/dark.
echo "== screenshots and who is watching (tests/remote/screenshot.py)"
"$(tests/remote/venv.sh)" tests/remote/screenshot.py --binary .build/debug/dialkiosk
# `preview` in Debian's headless chromium (noVNC from Debian's novnc), driven by chromedriver.
echo "== preview in chromium (tests/remote/browser.py)"
"$(tests/remote/venv.sh)" tests/remote/browser.py --binary .build/debug/dialkiosk
# The WebSocket front's edges from a raw client (Host, Origin, token, version, method) and a
# peer that pings and never reads against the kiosk's resident memory (60 s).
echo "== WebSocket edges (tests/remote/edges.py)"
python3 tests/remote/edges.py --binary .build/debug/dialkiosk --memory 60
# Another loopback port's page in headless chromium cannot drive the preview.
echo "== cross-origin page in chromium (tests/remote/origin.py)"
python3 tests/remote/origin.py --binary .build/debug/dialkiosk
# A raw RFB client switching SetEncodings and SetPixelFormat while each update is encoded,
# every update read strictly (about 30 s; RFBDesyncTests runs 10,000 in-process).
echo "== RFB mid-update switches (tests/remote/desync.py)"
python3 tests/remote/desync.py --binary .build/debug/dialkiosk --updates 1000
# TigerVNC's real viewer under Xvfb: its window equals `render`, before and after a turn.
echo "== TigerVNC's viewer (tests/remote/tigervnc.py)"
python3 tests/remote/tigervnc.py --binary .build/debug/dialkiosk

if [ "${DIALKIOSK_SKIP_FUZZ:-0}" != 1 ]; then
  echo "== libFuzzer (fixed budget)"
  scripts/fuzz.sh "${DIALKIOSK_FUZZ_RUNS:-10000}"
fi

# The packages (Debian 13's swiftlang 6.0.3 in a cached trixie root), the test suite once more
# with that oldest supported toolchain, and the arm64 package under qemu user mode. The VM bed's
# deb-install case then installs the amd64 package on a clean Debian 13 root.
if [ "${DIALKIOSK_SKIP_PACKAGE:-0}" != 1 ]; then
  echo "== Debian packages (scripts/package.sh --arch all)"
  scripts/package.sh --arch all
  echo "== swift test with Debian 13's Swift 6.0.3 (scripts/debian13.sh test)"
  mkdir -p .build/package
  rc=0
  scripts/debian13.sh test >.build/package/debian13-test.log 2>&1 || rc=$?
  grep -E '^(✘|error:|.*Test run with)' .build/package/debian13-test.log || true
  [ "$rc" = 0 ] || { tail -n 40 .build/package/debian13-test.log; echo "swift test with Swift 6.0.3 failed"; exit 1; }
  echo "== arm64 package under qemu-aarch64 (packaging/check-arm64.sh)"
  packaging/check-arm64.sh
  echo "== amd64 package on a minbase Debian 13 root, as image builders start (packaging/check-minbase.sh)"
  packaging/check-minbase.sh
fi

if [ "${DIALKIOSK_SKIP_VM:-0}" != 1 ] && [ -x tests/vm/run-all.sh ]; then
  echo "== VM test bed (release build of what the guest runs)"
  swift build -c release --product dialkiosk 2>&1 | tail -n 2
  tests/vm/run-all.sh    # every case, then the legacy pass (run-all.sh's legacy_cases)
fi
