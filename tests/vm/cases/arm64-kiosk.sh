#!/usr/bin/env bash
# The arm64 package on a real arm64 kernel. Debian 13's arm64 kernel in
# qemu-system-aarch64 -M virt (TCG, cortex-a72) with qemu's virtio-gpu as the KMS device and
# uinput for touch; a clean Debian 13 arm64 root (mmdebstrap through qemu-user binfmt, cached)
# that already holds the package's dependency closure, systemd as PID 1, no network. In one boot:
#   - `apt-get install ./dialkiosk_VERSION_arm64.deb` installs that one package (apt finds every
#     dependency installed) and starts the packaged unit, READY (active) as user dialkiosk: the
#     arm64 system-call filter and sandbox hold;
#   - a uinput swipe gives `selected` in the journal at the item `simulate` predicts from the
#     samples libinput delivered;
#   - the screen read back at rest equals the arm64 binary's `render` (at most 1 per channel);
#   - `systemctl stop` puts the console's framebuffer back on the CRTC;
#   - the same with --kms-api atomic and legacy (a drop-in adding --stats and a demo fling):
#     READY as dialkiosk, the screen at rest equals render, stop restores the CRTC.
# Notes the times: boot to basic.target, process start to the first frame, READY, --stats.
# Needs dist/dialkiosk_*_arm64.deb (scripts/package.sh --arch all; scripts/test.sh makes it).
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
source "$(dirname "$0")/../lib/trixie.sh"
source "$(dirname "$0")/../lib/arm64.sh"

version="$(dpkg-parsechangelog -l "$vm_repo/packaging/debian/changelog" -S Version)"
deb="${DIALKIOSK_VM_ARM64_DEB:-$vm_repo/dist/dialkiosk_${version}_arm64.deb}"
[ -f "$deb" ] || case_fail "no $deb: run scripts/package.sh --arch all first"
t=$(vm_now)
pkg_apt_setup
root="$(arm64_root "$deb")" || exit 1
case_note "Debian 13 arm64 root $root ready in $(vm_elapsed "$t") s"

rm -rf "$case_out"; mkdir -p "$case_out/debs"
cp "$deb" "$case_out/debs/"
# Warm, the boot takes 10-12 minutes on this 2-core machine under load; 30 leaves room.
rc=0
"$vm_dir/boot.sh" --script "$case_guest" --out "$case_out" --timeout "${DIALKIOSK_VM_TIMEOUT:-1800}" \
  --systemd --root "$root" --arch arm64 || rc=$?
if [ "$rc" != 0 ]; then
  [ -f "$case_out/.vm/script.log" ] && tail -n 20 "$case_out/.vm/script.log"
  case_fail "the VM run failed with status $rc (serial log: $case_out/serial.log)"
fi

cd "$case_out"
echo "--- root.txt"; cat root.txt
[ -s waits.txt ] && { echo "--- waits.txt (waits that timed out)"; cat waits.txt; }
echo "--- install.txt (last 8)"; tail -n 8 install.txt
echo "--- start.txt"; cat start.txt
echo "--- journal.txt (last 15)"; tail -n 15 journal.txt
for api in atomic legacy; do echo "--- $api.journal.txt (stats)"; grep -E 'stats:|KMS API' "$api.journal.txt" || true; done

kms_check "an arm64 kernel (uname -m aarch64)" grep -q '^machine aarch64$' root.txt
kms_check "a Debian 13 arm64 root" bash -c 'grep -q "^os Debian GNU/Linux 13" root.txt && grep -q "^dpkg-arch arm64$" root.txt'
kms_check "no Swift compiler, C compiler or -dev package in the root before the install" \
  bash -c '! grep -E "^before (swiftlang|gcc|libc6-dev|libdrm-dev) " root.txt | grep -q "install ok installed"'
kms_check "no dialkiosk in the root before the install" grep -q '^before dialkiosk absent' root.txt
kms_check "the root holds the Swift runtime before the install (its cached dependencies)" \
  grep -q '^before libswiftlang install ok installed' root.txt
# 1. Install and READY.
kms_check "apt-get install of the local .deb succeeded" grep -q '^install rc=0$' install.txt
kms_check "apt found every dependency installed: it installed the package alone" \
  grep -q '^0 upgraded, 1 newly installed, 0 to remove' install.txt
kms_check "the installed binary is aarch64 (ELF machine b7)" grep -q '^elf-machine *b7 00' start.txt
kms_check "libswiftlang is arm64's" grep -Eq '^libswiftlang [0-9].* arm64$' start.txt
kms_check "active (running) after the install" grep -q '^SubState=running$' start.txt
kms_check "the main process runs as dialkiosk" grep -Eq '^dialkio' start.txt
kms_check "a started event in the journal" grep -q '"event": "started"' journal-start.txt
# 2. Swipe: selected, at the item simulate predicts from libinput's samples.
selected_id() { python3 "$vm_repo/tests/lib/dkevents.py" "$1" --event selected --field id --last || true; }
run_id="$(selected_id journal.txt)" sim_id="$(selected_id simulate.jsonl)"
kms_check "a selected event from the uinput swipe ($run_id)" test -n "$run_id"
kms_check "simulate on libinput's samples predicts the same item ($sim_id)" test -n "$sim_id" -a "$sim_id" = "$run_id"
# 3. The screen at rest equals the arm64 render (at most 1 per channel).
compare() { # NAME
  kms_check "$1: the screen ($(cat "$1.dump.txt" 2>/dev/null)) equals the arm64 render at rotation $(cat "$1.rotation")" \
    python3 "$vm_dir/cases/kms-compare.py" "$1.ppm" "$1.render.png" --max-channel 1 --max-fraction 0
}
compare screen
# 4. Stop restores the CRTC.
before=$(kms_fb crtc-before.txt)
kms_check "before the install the console's fb is on the CRTC ($before)" test -n "$before" -a "$before" != 0
kms_check "after stop the CRTC shows fb $before again (got $(kms_fb crtc-after.txt))" test "$(kms_fb crtc-after.txt)" = "$before"
kms_check "stopped cleanly" grep -q '^Result=success$' stop.txt
kms_check "a stopping event" grep -q '"event": "stopping"' journal-stop.txt
# 5. Both KMS APIs.
for api in atomic legacy; do
  kms_check "$api: started (READY)" grep -q '^start rc=0$' "$api.start.txt"
  kms_check "$api: runs as dialkiosk" grep -Eq '^dialkio' "$api.start.txt"
  kms_check "$api: run reports KMS API $api" grep -Eq "KMS API:? $api" "$api.journal.txt"
  kms_check "$api: the fling came to rest" grep -q '"event": "rest"' "$api.journal.txt"
  kms_check "$api: --stats lines" grep -q 'stats: .* flips/s' "$api.journal.txt"
  compare "$api"
  kms_check "$api: after stop the CRTC shows fb $before again (got $(kms_fb "$api.crtc-after.txt"))" \
    test "$(kms_fb "$api.crtc-after.txt")" = "$before"
  kms_check "$api: stopped cleanly" grep -q '^Result=success$' "$api.stop.txt"
done

# Figures (emulated arm64 on a shared 2-core x86 host: not a board's times).
us() { sed -n "s/^$1=//p" "$2"; }
started_t() { python3 "$vm_repo/tests/lib/dkevents.py" "$1" --event started --field t --first || true; }
times() { # WHAT START-FILE JOURNAL
  local s a f
  s=$(us ExecMainStartTimestampMonotonic "$2"); a=$(us ActiveEnterTimestampMonotonic "$2"); f=$(started_t "$3")
  [ -n "$s" ] && [ -n "$a" ] && [ -n "$f" ] || return 0
  case_note "$1: process start to first frame $(awk -v s="$s" -v f="$f" 'BEGIN { printf "%.2f", f - s / 1e6 }') s, to READY $(awk -v s="$s" -v a="$a" 'BEGIN { printf "%.2f", (a - s) / 1e6 }') s"
}
basic=$(sed -n 's/^basic-target-us //p' root.txt)
[ -n "$basic" ] && case_note "kernel start to basic.target $(awk -v b="$basic" 'BEGIN { printf "%.1f", b / 1e6 }') s (guest monotonic)"
times "installed unit" start.txt journal-start.txt
for api in atomic legacy; do
  times "$api" "$api.start.txt" "$api.journal.txt"
  grep -E 'stats: [0-9.]+ flips/s' "$api.journal.txt" | sed "s/^/note: $api --stats (emulated): /" | head -n 6
done
# Where the boot's time went: guest uptime at each step of the guest script.
if [ -s steps.txt ]; then
  awk 'NR == 1 { printf "note: guest uptime when the script began %.1f s\n", $2 }
       NR > 1 { printf "note: guest step %s took %.1f s\n", prev, $2 - t } { prev = $1; t = $2 }' steps.txt
fi
kms_finish
