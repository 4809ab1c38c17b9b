# Helpers for host-side case scripts in tests/vm/cases/NAME.sh (sourced). A case file must be
# executable; run-all.sh takes the non-executable *.sh files there for sourced helpers.
# A case boots the VM once with its guest script (tests/vm/cases/NAME.guest by default), then
# checks what the guest left in $case_out. It exits 0 for PASS; on failure it prints one line
# "FAIL: reason" (case_fail) and exits non-zero. run-all.sh shows that reason.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

case_name="$(basename "$0" .sh)"
case_guest="$vm_dir/cases/$case_name.guest"
# run-all.sh's legacy pass (DIALKIOSK_VM_KMS_API=legacy) keeps its results in NAME-legacy.
case_out="${DIALKIOSK_VM_OUT:-$vm_repo/.build/vm-out}/$case_name${DIALKIOSK_VM_KMS_API:+-$DIALKIOSK_VM_KMS_API}"

case_fail() { echo "FAIL: $*"; exit 1; }
case_note() { echo "note: $*"; }

# case_boot [boot.sh options...]: boots with the case's guest script; fails the case when the
# guest script fails (its output is in $case_out/.vm/script.log).
case_boot() {
  rm -rf "$case_out"
  mkdir -p "$case_out"
  local rc=0
  "$vm_dir/boot.sh" --script "$case_guest" --out "$case_out" \
    --timeout "${DIALKIOSK_VM_TIMEOUT:-900}" "$@" || rc=$?
  if [ "$rc" != 0 ]; then
    if [ -f "$case_out/.vm/script.log" ]; then
      echo "--- last lines of the guest script's output ($case_out/.vm/script.log):"
      tail -n 20 "$case_out/.vm/script.log"
    fi
    case_fail "the VM run failed with status $rc (serial log: $case_out/serial.log)"
  fi
  # The pass's API, as run or list-outputs logged it: the forced path was really taken.
  if [ -n "${DIALKIOSK_VM_KMS_API:-}" ] && ! grep -rEqs "KMS API:? $DIALKIOSK_VM_KMS_API" "$case_out"; then
    case_fail "no run or list-outputs of the guest reported KMS API $DIALKIOSK_VM_KMS_API"
  fi
}

# case_file NAME: the path of a result the guest wrote to /out/NAME; fails if it is missing.
case_file() {
  [ -s "$case_out/$1" ] || case_fail "the guest did not write /out/$1"
  echo "$case_out/$1"
}

# case_grep PATTERN FILE WHAT: fails with "no WHAT in FILE" unless an extended regexp matches.
case_grep() {
  grep -Eq -- "$1" "$2" || case_fail "no $3 in $(basename "$2") (pattern: $1)"
}

# case_results: for a guest that reports phases in /out/results.txt (the guest lib.sh's phase_ok
# and phase_failed): shows them, fails with the first failed phase or when none reported.
case_results() {
  local results
  results="$(case_file results.txt)"
  cat "$results"
  if grep -q '^FAIL: ' "$results"; then
    case_fail "$(grep '^FAIL: ' "$results" | head -n1 | sed 's/^FAIL: //')"
  fi
  grep -q '^ok ' "$results" || case_fail "no phase reported a result"
}
