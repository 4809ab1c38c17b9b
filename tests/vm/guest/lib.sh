# Helpers for guest scripts (sourced: `. "$DK_GUEST/lib.sh"`; every guest script does, first).
# Guest scripts run as root with bash in /out; DK_OUT=/out, DK_REPO (the clone), DK_TOOLS
# (drmtool), DK_GUEST (this directory), DK_BIN (the dialkiosk binary the host chose: vm_bin in
# tests/vm/lib/common.sh), DK_KMS_API (empty, or the --kms-api every run takes).
# Both tool directories are on PATH: drmtool, flips.py, inject.py.
# Everything waits on an event (a line, a file) with a generous timeout, never on a fixed sleep:
# emulated time varies a lot on shared machines.

# Commands, not shell functions: `drmtool master &` must give the tool's own pid in $!.
export PATH="$DK_TOOLS:$DK_GUEST:$PATH"

# BIN: the dialkiosk the guest script runs. With DK_KMS_API set (run-all.sh's legacy pass) it is
# a wrapper that adds `--kms-api $DK_KMS_API` to `run` and `list-outputs`, so that a case takes
# that path unchanged; a file rather than a function, so that setpriv, install.sh and systemd
# run it too (it execs, so the pid stays the program's).
BIN="$DK_BIN"
if [ -n "${DK_KMS_API:-}" ]; then
  BIN=/run/dialkiosk-vm/dialkiosk
  mkdir -p /run/dialkiosk-vm
  # The wrapper runs a copy beside it, not DK_BIN: DK_BIN lies in the repository, at the host's
  # path (a CI clone under /tmp or /root), which the hardened unit cannot see (PrivateTmp,
  # ProtectHome); the unit would fail with 127.
  cp "$DK_BIN" /run/dialkiosk-vm/dialkiosk.real
  cat >"$BIN" <<WRAPPER
#!/bin/sh
case "\$1" in
  run|list-outputs) command="\$1"; shift; exec /run/dialkiosk-vm/dialkiosk.real "\$command" --kms-api "$DK_KMS_API" "\$@" ;;
esac
exec /run/dialkiosk-vm/dialkiosk.real "\$@"
WRAPPER
  chmod 0755 "$BIN"
fi

# guest_fail MESSAGE: ends the guest script (or the subshell it runs in) with a message the host shows.
guest_fail() { echo "guest: FAIL: $*" >&2; exit 1; }

# wait_for SECONDS WHAT COMMAND...: runs COMMAND every 0.1 s until it succeeds; fails after
# SECONDS, or as soon as the process `wait_pid` names has ended (wait_for_line's PID argument).
wait_for() {
  local seconds="$1" what="$2"; shift 2
  local deadline=$(( $(date +%s) + seconds ))
  until "$@" >/dev/null 2>&1; do
    [ -z "${wait_pid:-}" ] || kill -0 "$wait_pid" 2>/dev/null \
      || guest_fail "process $wait_pid ended while waiting for $what"
    [ "$(date +%s)" -lt "$deadline" ] || guest_fail "timed out after ${seconds}s waiting for $what"
    sleep 0.1
  done
}

# wait_for_line SECONDS FILE REGEXP [PID]: waits until FILE has a line matching REGEXP; with PID,
# gives up as soon as that process has ended.
wait_for_line() {
  local wait_pid="${4:-}"
  wait_for "$1" "a line /$3/ in $2" grep -Eq -- "$3" "$2"
}

# start_hold: keeps the card open (not master) so the kernel does not restore the console by
# itself when the program under test closes it. Sets HOLD_PID.
start_hold() {
  drmtool hold >/tmp/hold.log 2>&1 &
  HOLD_PID=$!
  wait_for_line 120 /tmp/hold.log '^hold pid'
}

# start_inject [inject.py args...]: starts the uinput injector in the background and waits
# until its devices exist. Sets INJECT_PID; its output goes to $INJECT_LOG (default
# /tmp/inject.log). Returns non-zero (the injector stopped) when the devices did not come.
start_inject() {
  INJECT_LOG="${INJECT_LOG:-/tmp/inject.log}"
  inject.py "$@" >"$INJECT_LOG" 2>&1 &
  INJECT_PID=$!
  if ! (wait_for_line 300 "$INJECT_LOG" '^inject: (ready|error)' "$INJECT_PID") \
      || ! grep -q '^inject: ready' "$INJECT_LOG"; then
    echo "guest: FAIL: inject.py: $(cat "$INJECT_LOG")" >&2
    kill "$INJECT_PID" 2>/dev/null || true
    return 1
  fi
  udevadm settle --timeout=120
}

# Phases: a guest that checks several things in turn records each in /out/results.txt, "ok NAME"
# or "FAIL: NAME: reason" (the host's case_results reads it); a failed phase does not stop the
# ones after it. phase_failures counts the failed ones.
phase_failures=0
phase_ok() { echo "ok $1" | tee -a "$DK_OUT/results.txt"; }
phase_failed() { echo "FAIL: $1: $2" | tee -a "$DK_OUT/results.txt"; phase_failures=$((phase_failures + 1)); }
