#!/usr/bin/env bash
# Runs the VM test bed: prepare once, then every executable tests/vm/cases/*.sh (or only the NAMEs
# given; files there that are not executable are helpers the cases source), each booting its VM. Prints PASS/FAIL per case with the reason and the time it took, and
# ends with "vm: N passed, M failed". DIALKIOSK_SKIP_VM=1 skips everything.
# Usage: tests/vm/run-all.sh [NAME...]     (NAME = a case file's name without .sh)
set -uo pipefail
source "$(dirname "$0")/lib/common.sh"

if [ "${DIALKIOSK_SKIP_VM:-0}" = 1 ]; then
  echo "vm: skipped (DIALKIOSK_SKIP_VM=1)"
  exit 0
fi

cases=()
if [ $# -gt 0 ]; then
  for name in "$@"; do
    name="${name%.sh}"; name="${name##*/}"
    [ -x "$vm_dir/cases/$name.sh" ] || vm_die "no case '$name'; cases: $(cd "$vm_dir/cases" && for c in *.sh; do [ -x "$c" ] && printf '%s ' "${c%.sh}"; done)"
    cases+=("$vm_dir/cases/$name.sh")
  done
else
  for f in "$vm_dir"/cases/*.sh; do [ -x "$f" ] && cases+=("$f"); done
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
  echo "vm: $passed passed, $((failed + ${#cases[@]})) failed"
  exit 1
fi

# Every case boots the kernel resolved here, without asking apt again.
vm_resolve_kernel
export DIALKIOSK_VM_KVER="$vm_kver" DIALKIOSK_VM_KPKGVER="$vm_kpkgver"

log_dir="${DIALKIOSK_VM_OUT:-$vm_repo/.build/vm-out}"
mkdir -p "$log_dir"
for f in "${cases[@]}"; do
  name="$(basename "$f" .sh)"
  log="$log_dir/$name.log"
  echo "== vm case $name"
  t=$(vm_now)
  bash "$f" 2>&1 | tee "$log"
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
