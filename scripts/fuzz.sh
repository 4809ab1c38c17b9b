#!/usr/bin/env bash
# libFuzzer on the parsers that read what people and the network hand us (the configuration,
# `libinput record` captures and the JSON reader of live payloads and touch scripts), for a
# fixed budget of inputs each. Builds dialkiosk-fuzz with
# -sanitize=fuzzer,address (linked with lld: gold fails on the fuzzer runtime here) into
# .build-fuzz, seeds each run with the committed corpus, and fails on any finding: a crash,
# a sanitizer report, or the oracle's abort (an error that is not one located line).
# Usage: scripts/fuzz.sh [RUNS]    (default 20000 inputs per target)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-path.sh
runs=${1:-20000}
swift build --scratch-path .build-fuzz --product dialkiosk-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIBFUZZER \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld >/dev/null
fuzzer=.build-fuzz/debug/dialkiosk-fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for target in config record json; do
  mkdir -p "$work/$target"
  if [ "$target" = config ]; then
    cp Tests/DialKioskAppTests/Fixtures/bad-configs/*.yaml systemd/dialkiosk.yaml "$work/$target/"
  elif [ "$target" = record ]; then
    cp Tests/InputRecordingTests/Fixtures/*.yml "$work/$target/"
  else
    cp Tests/KioskJSONTests/Fixtures/seeds/*.json "$work/$target/"
  fi
  echo "== libFuzzer: $target, $runs inputs"
  status=0
  DIALKIOSK_FUZZ_TARGET=$target "$fuzzer" -runs="$runs" -max_len=8192 -artifact_prefix="$work/" \
    "$work/$target" >"$work/$target.log" 2>&1 || status=$?
  grep -E "^(#[0-9]+ +DONE|Done|==[0-9]+==ERROR|dialkiosk-fuzz)" "$work/$target.log" || true
  # A finding is any of: a saved input, the oracle's line, a sanitizer report or a failed
  # exit. (A sanitizer report from inside the oracle's abort can end the process before
  # libFuzzer saves the input: the log is then all there is.)
  if [ "$status" != 0 ] || ls "$work"/crash-* "$work"/leak-* >/dev/null 2>&1 \
     || grep -qE "^(==[0-9]+==ERROR|dialkiosk-fuzz: $target: )" "$work/$target.log"; then
    echo "fuzz: finding for $target (exit status $status):"
    grep -E "^(dialkiosk-fuzz: $target: |==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" "$work/$target.log" || true
    for f in "$work"/crash-* "$work"/leak-*; do [ -f "$f" ] && { ls -l "$f"; cp "$f" . ; } ; done
    exit 1
  fi
done
echo "fuzz: no finding"
