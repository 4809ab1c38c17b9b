# Shared by the kms-*.sh cases (sourced): paths, the case's output directory, checks.
kms_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kms_repo="$(cd "$kms_here/../../.." && pwd)"
kms_bin="${DIALKIOSK_BIN:-$kms_repo/.build/release/dialkiosk}"
kms_failed=0

kms_log() { echo "kms: $*"; }
kms_fail() { echo "kms: FAIL: $*"; kms_failed=1; }
kms_pass() { echo "kms: ok: $*"; }

# kms_setup NAME: fresh output directory under .build/vm (gitignored), the binary checked.
kms_setup() {
  kms_out="${DK_CASE_OUT:-$kms_repo/.build/vm}/$1"
  [ -x "$kms_bin" ] || { echo "kms: $kms_bin is missing: swift build -c release --product dialkiosk" >&2; exit 2; }
  rm -rf "$kms_out"
  mkdir -p "$kms_out"
  printf 'BIN=%q\n' "$kms_bin" >"$kms_out/case.env"
}

# kms_boot GUEST_SCRIPT: boots the bed with the guest part; its status is the script's.
kms_boot() {
  "$kms_repo/tests/vm/boot.sh" --script "$1" --out "$kms_out" --timeout "${DK_CASE_TIMEOUT:-600}"
}

# kms_expect_status NAME FILE-PREFIX STATUS MESSAGE: the guest wrote PREFIX.status and
# PREFIX.err; both must match.
kms_expect_status() {
  local name="$1" prefix="$kms_out/$2" want="$3" msg="$4" got
  got="$(cat "$prefix.status" 2>/dev/null || echo none)"
  if [ "$got" = "$want" ] && grep -qF -- "$msg" "$prefix.err"; then
    kms_pass "$name: status $got, \"$(head -n1 "$prefix.err")\""
  else
    kms_fail "$name: status $got (want $want), stderr: $(head -n3 "$prefix.err" 2>/dev/null) (want \"$msg\")"
  fi
}
