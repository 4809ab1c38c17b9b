#!/usr/bin/env bash
# Long and hostile inputs benchmark (prints figures; passes or fails on nothing): wall time,
# peak resident memory and exit status of the release binary (or BIN) on
#   a 1,000,000-line touch script, from a file and from a pipe;
#   a 60,000-frame `libinput record` file;
#   `simulate < /dev/zero`;
#   configurations of 20,000 items and of 256 KiB.
# Usage: scripts/bench-inputs.sh [BIN]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-path.sh
bin=${1:-}
if [ -z "$bin" ]; then
  swift build -c release --product dialkiosk >/dev/null
  bin=.build/release/dialkiosk
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import math, sys
work = sys.argv[1]
with open(work + "/script.jsonl", "w") as f:  # drags round the dial, 42 lines each
    t, n = 0.0, 0
    while n < 1_000_000:
        f.write('{"t": %.4f, "type": "down", "x": 550.00, "y": 240.00}\n' % t); n += 1
        a = 0.0
        for _ in range(40):
            t += 0.008; a += 0.02
            f.write('{"t": %.4f, "type": "motion", "x": %.2f, "y": %.2f}\n' % (t, 400 + 150 * math.cos(a), 240 + 150 * math.sin(a))); n += 1
        t += 0.008
        f.write('{"t": %.4f, "type": "up", "x": %.2f, "y": %.2f}\n' % (t, 400 + 150 * math.cos(a), 240 + 150 * math.sin(a))); n += 1
        t += 0.05
head = open("Tests/InputRecordingTests/Fixtures/swipe-quarter-turn.yml").read()
with open(work + "/record.yml", "w") as f:  # contacts of 50 frames, 8 ms apart
    f.write(head[:head.index("  events:\n")] + "  events:\n")
    usec, tid = 0, 1
    for frame in range(60_000):
        i = frame % 50
        sec, us = divmod(usec, 1_000_000)
        row = lambda code, value: f.write("    - [%3d, %6d,   3, %3d, %7d]\n" % (sec, us, code, value))
        f.write("  - evdev:\n")
        if i == 0: row(47, 0); row(57, tid)
        row(53, int(2048 + 1200 * math.cos(i * 0.03))); row(54, int(2048 + 1200 * math.sin(i * 0.03)))
        if i == 49: row(57, -1); tid += 1
        f.write("    - [%3d, %6d,   0,   0,       0]\n" % (sec, us))
        usec += 8000 + (100_000 if i == 49 else 0)
with open(work + "/items-20k.yaml", "w") as f:
    f.write("items:\n" + "".join("  - id: item-%d\n" % i for i in range(20_000)))
with open(work + "/flow-256k.yaml", "w") as f:
    f.write("items: [" + "{id: a}, " * 28_000 + "]\n")
PY

measure() {
  local what=$1; shift
  /usr/bin/time -f "$what: %e s, peak RSS %M KB, status %x" "$@" >/dev/null 2>"$work/err" || true
  tail -n1 "$work/err"
}
measure "script, 1M lines, file" "$bin" simulate --quiet --max-seconds 100000 --script "$work/script.jsonl"
measure "script, 1M lines, pipe" sh -c "cat '$work/script.jsonl' | '$bin' simulate --quiet --max-seconds 100000"
measure "libinput record, 60,000 frames" "$bin" simulate --quiet --libinput-record "$work/record.yml"
measure "simulate < /dev/zero (killed after 3 s)" timeout 3 "$bin" simulate --quiet </dev/zero
measure "check-config, 20,000 items" "$bin" check-config "$work/items-20k.yaml"
measure "check-config, 256 KiB flow list" "$bin" check-config "$work/flow-256k.yaml"
