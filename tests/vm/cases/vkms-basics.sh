#!/usr/bin/env bash
# vkms is loaded with its Virtual-1 connector, drmtool reads the CRTC, the writeback connector
# captures exactly what the framebuffer holds, and the tracepoint flip counter agrees with the
# number of flips a client made (and reads 0 while nobody flips).
source "$(dirname "$0")/../lib/case.sh"
case_boot

crtc="$(case_file crtc.txt)"
case_grep '^driver vkms$' "$crtc" "vkms card"
case_grep '^connector [0-9]+ Virtual-1 connected crtc [1-9][0-9]* ' "$crtc" "connected Virtual-1 on a CRTC"
case_grep '^crtc [0-9]+ index 0 fb [1-9][0-9]* mode 1024x768@60$' "$crtc" "CRTC scanning out 1024x768@60 (the console)"
cmp -s "$(case_file console-dump.ppm)" "$(case_file console-writeback.ppm)" \
  || case_fail "the writeback capture of the console differs from its framebuffer"

read -r _ made _ seconds _ _ hz _ <"$(case_file flip.txt)"    # flip N in S s = R Hz
/usr/bin/python3 - "$made" "$(case_file flips-busy.json)" "$(case_file flips-idle.json)" <<'PY' || exit 1
import json, sys
made = int(sys.argv[1])
busy = json.load(open(sys.argv[2]))
idle = json.load(open(sys.argv[3]))
def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)
if made < 10:
    fail(f"drmtool made only {made} flips in its window")
# The counter window opens before the client's first flip and closes after its last one.
if abs(busy["total"] - made) > 1:
    fail(f"the tracepoint counted {busy['total']} flips, drmtool made {made}")
if max(busy["per_second"]) > 62:
    fail(f"more flips in one second than vsync allows: {busy['per_second']}")
if idle["total"] != 0:
    fail(f"{idle['total']} flips counted while no client was flipping")
print(f"note: flips counted {busy['total']} (drmtool {made}), per second {busy['per_second']}, idle {idle['total']}")
PY
case_note "vkms flip rate under this emulation: $hz Hz ($made flips in $seconds s)"
