# Helpers for guest scripts (sourced: `. "$DK_GUEST/lib.sh"`). Guest scripts run as root with
# bash in /out; DK_OUT=/out, DK_REPO (the clone), DK_TOOLS (drmtool), DK_GUEST (this directory).
# Both tool directories are on PATH: drmtool, flips.py, inject.py.
# Everything waits on an event (a line, a file) with a generous timeout, never on a fixed sleep:
# emulated time varies a lot on shared machines.

# Commands, not shell functions: `drmtool master &` must give the tool's own pid in $!.
export PATH="$DK_TOOLS:$DK_GUEST:$PATH"

# guest_fail MESSAGE: ends the guest script with a message the host shows.
guest_fail() { echo "guest: FAIL: $*" >&2; exit 1; }

# wait_for SECONDS WHAT COMMAND...: runs COMMAND every 0.1 s until it succeeds.
wait_for() {
  local seconds="$1" what="$2"; shift 2
  local deadline=$(( $(date +%s) + seconds ))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || guest_fail "timed out after ${seconds}s waiting for $what"
    sleep 0.1
  done
}

# wait_for_line SECONDS FILE REGEXP: waits until FILE has a line matching REGEXP.
wait_for_line() {
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
# until its devices exist. Sets INJECT_PID; its output is in /tmp/inject.log.
start_inject() {
  inject.py "$@" >/tmp/inject.log 2>&1 &
  INJECT_PID=$!
  wait_for_line 300 /tmp/inject.log '^inject: (ready|error)'
  grep -q '^inject: ready' /tmp/inject.log || guest_fail "$(cat /tmp/inject.log)"
  udevadm settle --timeout=120
}
