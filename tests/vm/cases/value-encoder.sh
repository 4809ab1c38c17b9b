#!/usr/bin/env bash
# A value dial turned by a rotary encoder on the real input stack: a uinput REL_DIAL device (as
# the kernel's rotary-encoder driver makes it with `linux,axis = <7>`) read by `dialkiosk run`
# on vkms, with a real mosquitto in the guest (value-encoder.guest). Enter opens the value dial
# of a 24-step range; N detents give exactly N steps (`changing` lines one step apart), a pause
# commits, and each commit reaches the broker once, with the step's decimals.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot

cd "$case_out"
echo "--- run.log"; cat run.log
echo "--- run.err"; cat run.err
echo "--- broker.txt"; cat broker.txt
kms_check "check-config accepts the value item" grep -q 'value.yaml: OK: 2 items' check-config.txt
kms_check "run exits 0 on SIGTERM" test "$(cat run.status 2>/dev/null)" = 0

PYTHONPATH="$vm_repo/tests/lib" python3 - run.log >values.txt <<'PY'
import sys
from dkevents import events
for e in events(open(sys.argv[1])):
    if e["event"] == "opened" and e.get("id") == "heating":
        print("opened", float(e["value"]))
    if e["event"] == "value":
        print(e["phase"], float(e["value"]))
PY
echo "--- value events"; cat values.txt
expected="opened 16.0
changing 16.5
changing 17.0
changing 17.5
changing 18.0
changing 18.5
committed 18.5
changing 18.0
changing 17.5
committed 17.5"
kms_check "5 detents are 5 steps, 2 back are 2, each pause one commit" test "$(cat values.txt)" = "$expected"
kms_check "each commit reached the broker once, with the step's decimals" \
  test "$(grep '^home/heating/target/set ' broker.txt)" = "home/heating/target/set 18.5
home/heating/target/set 17.5"
kms_finish
