#!/usr/bin/env bash
# Runs the VM test bed: prepare once, then every executable tests/vm/cases/*.sh (files there
# that are not executable are helpers the cases source), each booting its VM, then the legacy
# pass: the cases in legacy_cases once more as NAME-legacy, with DIALKIOSK_VM_KMS_API=legacy
# (every `dialkiosk run` and `list-outputs` in the guest gets --kms-api legacy; vkms and bochs
# take the atomic path otherwise). Prints PASS/FAIL per case with the reason and the time it
# took, and ends with "vm: N passed, M failed". DIALKIOSK_SKIP_VM=1 skips everything.
# Usage: tests/vm/run-all.sh [NAME...]   (NAME = a case file's name without .sh, or NAME-legacy)
set -uo pipefail
source "$(dirname "$0")/lib/common.sh"

# The cases that drive `dialkiosk run` (or list-outputs), which must pass on the atomic and on the
# legacy KMS path: adding a case's name here gives it the legacy pass.
legacy_cases=(
  kms-run
  kms-switch
  kms-faults
  kms-errors
  kms-damage
  stuck-reader
  input-run
  service-kiosk
  boot-handover
)
# remote-kms is not here: the remote view reads the painter's frame, never the KMS path, so its
# legacy pass would test nothing the atomic one does not (and costs five minutes of CI).

if [ "${DIALKIOSK_SKIP_VM:-0}" = 1 ]; then
  echo "vm: skipped (DIALKIOSK_SKIP_VM=1)"
  exit 0
fi

is_case() { [ -x "$vm_dir/cases/$1.sh" ]; }
# Cases that run only when named (none now: speech-aloop joined once its latency check compared
# the right utterance and passed twice).
named_only_cases=()
is_named_only() { local c; for c in "${named_only_cases[@]}"; do [ "$c" = "$1" ] && return 0; done; return 1; }
has_legacy_pass() { local c; for c in "${legacy_cases[@]}"; do [ "$c" = "$1" ] && return 0; done; return 1; }
for c in "${legacy_cases[@]}"; do is_case "$c" || vm_die "legacy_cases names '$c', which is not a case"; done

# runs: "NAME API" per VM run, API empty for the driver's default.
runs=()
if [ $# -gt 0 ]; then
  for name in "$@"; do
    name="${name%.sh}"; name="${name##*/}"
    if is_case "$name"; then
      runs+=("$name ")
    elif [[ "$name" == *-legacy ]] && has_legacy_pass "${name%-legacy}"; then
      runs+=("${name%-legacy} legacy")
    else
      vm_die "no case '$name'; cases: $(cd "$vm_dir/cases" && for c in *.sh; do [ -x "$c" ] && printf '%s ' "${c%.sh}"; done)and the legacy pass: $(printf '%s-legacy ' "${legacy_cases[@]}")"
    fi
  done
else
  for f in "$vm_dir"/cases/*.sh; do
    [ -x "$f" ] || continue
    is_named_only "$(basename "$f" .sh)" && continue
    runs+=("$(basename "$f" .sh) ")
  done
  for c in "${legacy_cases[@]}"; do runs+=("$c legacy"); done
fi

all=$(vm_now)
passed=0 failed=0 summary=()
# The bed's own tools first, on the host (no VM): the injector's event encoding.
if unit="$(PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m unittest discover -s "$vm_dir/guest" \
    -p 'test_*.py' 2>&1)"; then
  passed=$((passed + 1)); summary+=("PASS bed-tools (host unit tests of inject.py)")
  tail -n 3 <<<"$unit"
else
  failed=$((failed + 1)); summary+=("FAIL bed-tools: tests/vm/guest/test_inject.py failed (output above)")
  echo "$unit"
fi
if ! "$vm_dir/prepare.sh" >/dev/null; then
  echo "FAIL prepare: tests/vm/prepare.sh failed (output above)"
  echo "vm: $passed passed, $((failed + ${#runs[@]})) failed"
  exit 1
fi
# The binary every case runs: missing, everything would fail the same way.
if ! vm_bin >/dev/null; then
  echo "vm: $passed passed, $((failed + ${#runs[@]})) failed"
  exit 1
fi

# Every case boots the kernel resolved here, without asking apt again.
vm_resolve_kernel
export DIALKIOSK_VM_KVER="$vm_kver" DIALKIOSK_VM_KPKGVER="$vm_kpkgver"

log_dir="${DIALKIOSK_VM_OUT:-$vm_repo/.build/vm-out}"
mkdir -p "$log_dir"
for run in "${runs[@]}"; do
  read -r case api <<<"$run"
  name="$case${api:+-$api}"
  log="$log_dir/$name.log"
  echo "== vm case $name"
  t=$(vm_now)
  DIALKIOSK_VM_KMS_API="$api" bash "$vm_dir/cases/$case.sh" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  took=$(vm_elapsed "$t")
  if [ "$rc" = 0 ]; then
    passed=$((passed + 1))
    line="PASS $name (${took}s)"
  else
    failed=$((failed + 1))
    reason="$(grep -E 'FAIL: ' "$log" | tail -n1 | sed 's/^.*FAIL: //')"
    line="FAIL $name (${took}s): ${reason:-exit status $rc, see $log}"
  fi
  echo "$line"
  summary+=("$line")
done

echo "== vm summary (whole suite $(vm_elapsed "$all") s, logs in $log_dir)"
printf '%s\n' "${summary[@]}"
echo "vm: $passed passed, $failed failed"
[ "$failed" = 0 ]
