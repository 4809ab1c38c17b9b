# The amd64 package on a clean Debian 13 root (debootstrap'ed once and
# cached; no Swift, no compiler, no -dev package), systemd as PID 1, no network in the guest:
# `apt-get install ./dialkiosk_VERSION_amd64.deb` together with the dependency .debs beside it
# (the closure of its Depends that the root lacks, libswiftlang among them) creates the user,
# enables the unit and starts it; the unit is READY (active) as user dialkiosk; an upgrade to a
# newer build (the .deb re-versioned, its example changed) with an edited configuration, run as
# unattended-upgrades does (noninteractive, --force-confdef --force-confold, stdin closed), asks
# nothing, keeps the edit byte for byte and restarts the running kiosk exactly once, with the
# same dial back on the CRTC; a uinput swipe shows as `selected` in the journal; `apt-get
# remove` stops it and the CRTC shows the console's framebuffer again; `apt-get purge` leaves no
# file of the package behind.
# Needs dist/dialkiosk_*_amd64.deb (scripts/package.sh).
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
source "$(dirname "$0")/../lib/trixie.sh"

version="$(dpkg-parsechangelog -l "$vm_repo/packaging/debian/changelog" -S Version)"
deb="$vm_repo/dist/dialkiosk_${version}_amd64.deb"
[ -f "$deb" ] || case_fail "no $deb: run scripts/package.sh first"
t=$(vm_now)
pkg_apt_setup
root="$(trixie_root)" || exit 1
case_note "Debian 13 root $root ready in $(vm_elapsed "$t") s"

# case_boot empties $case_out, so the .debs are put there by a wrapper around it.
stage_debs() {
  mkdir -p "$case_out/debs"
  cp "$deb" "$case_out/debs/"
  deps="$(trixie_fetch_depends "$root" "$deb" "$case_out/debs/deps")" || case_fail "the dependency .debs: $deps"
  deps="$(tr '\n' ' ' <<<"$deps")"
  case_note "dependency .debs beside the package: $deps"
  # Build B for the upgrade: the same package with a higher version and its example
  # configuration changed, as a new release's would be (a conffile prompt needs both sides
  # changed: the administrator's file and the package's).
  local up="$case_out/debs/upgrade" tree="$case_out/debs/upgrade/tree"
  mkdir -p "$up"
  dpkg-deb -R "$deb" "$tree"
  sed -i "s/^Version: .*/&+up1/" "$tree/DEBIAN/control"
  printf '# changed in +up1\n' >>"$tree/usr/share/dialkiosk/config.yaml"
  (cd "$tree" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$tree/DEBIAN/md5sums"
  dpkg-deb --root-owner-group -Zxz --build "$tree" "$up/dialkiosk_${version}+up1_amd64.deb" >/dev/null \
    || case_fail "re-versioning $deb failed"
  rm -rf "$tree"
}
rm -rf "$case_out"; mkdir -p "$case_out"
stage_debs
# case_boot with the staged .debs kept: boot.sh writes only .vm/ and serial.log into the out dir.
rc=0
"$vm_dir/boot.sh" --script "$case_guest" --out "$case_out" --timeout "${DIALKIOSK_VM_TIMEOUT:-900}" \
  --systemd --root "$root" || rc=$?
if [ "$rc" != 0 ]; then
  [ -f "$case_out/.vm/script.log" ] && tail -n 20 "$case_out/.vm/script.log"
  case_fail "the VM run failed with status $rc (serial log: $case_out/serial.log)"
fi

cd "$case_out"
echo "--- root.txt"; cat root.txt
echo "--- install.txt (last 15)"; tail -n 15 install.txt
echo "--- start.txt"; cat start.txt
echo "--- upgrade.txt (last 10)"; tail -n 10 upgrade.txt
echo "--- upgrade-before.txt"; cat upgrade-before.txt
echo "--- upgrade-after.txt"; cat upgrade-after.txt
echo "--- journal-upgrade.txt"; cat journal-upgrade.txt
echo "--- glass"; cat crtc-running.txt crtc-upgraded.txt glass-compare.txt
echo "--- journal.txt (last 20)"; tail -n 20 journal.txt
echo "--- removed.txt"; cat removed.txt
echo "--- purged.txt"; cat purged.txt

kms_check "a Debian 13 root" grep -q '^os Debian GNU/Linux 13' root.txt
kms_check "no Swift, compiler or -dev package in the root before the install" \
  bash -c '! grep "^before" root.txt | grep -q "install ok installed"'
# 1. Install.
kms_check "apt-get install of the local .debs succeeded" grep -q '^install rc=0$' install.txt
kms_check "libswiftlang came from the .debs beside the package" grep -Eq '^libswiftlang [0-9]' start.txt
kms_check "active (running) after the install" grep -q '^SubState=running$' start.txt
kms_check "enabled" grep -q '^UnitFileState=enabled$' start.txt
kms_check "the main process runs as dialkiosk" grep -Eq '^dialkio' start.txt
kms_check "the user is in video, input, tty and audio" \
  bash -c 'grep "^uid=" start.txt | grep -q "(video)" && grep "^uid=" start.txt | grep -q "(input)" && grep "^uid=" start.txt | grep -q "(tty)" && grep "^uid=" start.txt | grep -q "(audio)"'
kms_check "a started event in the journal" grep -q '"event": "started"' journal-start.txt
# 2. Upgrade with an edited configuration: no prompt, the edit kept, one restart, the dial back.
prop() { sed -n "s/^$2=//p" "$1"; }
kms_check "the upgrade with unattended-upgrades' options and stdin closed succeeded (no prompt)" grep -q '^upgrade rc=0$' upgrade.txt
kms_check "no conffile prompt was even considered" bash -c '! grep -qi "configuration file" upgrade.txt'
kms_check "build B is installed ($(sed -n 's/^version //p' upgrade-after.txt))" grep -q "^version ${version}+up1\$" upgrade-after.txt
kms_check "the edited configuration is kept byte for byte" cmp -s config-edited.yaml config-upgraded.yaml
kms_check "... and the guest's cmp said so too" grep -q '^config kept$' upgrade-after.txt
kms_check "active before the upgrade" grep -q '^SubState=running$' upgrade-before.txt
kms_check "active (running) after the upgrade" grep -q '^SubState=running$' upgrade-after.txt
id_before="$(prop upgrade-before.txt InvocationID)" id_after="$(prop upgrade-after.txt InvocationID)"
kms_check "a new invocation after the upgrade ($id_before -> $id_after)" test -n "$id_before" -a -n "$id_after" -a "$id_before" != "$id_after"
kms_check "a new main process ($(prop upgrade-before.txt MainPID) -> $(prop upgrade-after.txt MainPID))" \
  test "$(prop upgrade-before.txt MainPID)" != "$(prop upgrade-after.txt MainPID)"
kms_check "started later than before ($(prop upgrade-before.txt ExecMainStartTimestampMonotonic) -> $(prop upgrade-after.txt ExecMainStartTimestampMonotonic) us)" \
  test "$(prop upgrade-after.txt ExecMainStartTimestampMonotonic)" -gt "$(prop upgrade-before.txt ExecMainStartTimestampMonotonic)"
kms_check "no restart by Restart= (NRestarts $(prop upgrade-before.txt NRestarts) -> $(prop upgrade-after.txt NRestarts))" \
  test "$(prop upgrade-before.txt NRestarts)" = 0 -a "$(prop upgrade-after.txt NRestarts)" = 0
# The kiosk's own event lines count the restarts: PID 1's "Stopping/Starting dialkiosk.service"
# lines do not show in this guest's `journalctl -u` at all (none at the install either), so
# counting them would count nothing.
n_stopped=$(grep -c '"event": "stopping"' journal-upgrade.txt) n_started=$(grep -c '"event": "started"' journal-upgrade.txt)
kms_check "the kiosk said stopping once and started once (stopping $n_stopped, started $n_started)" \
  test "$n_stopped" = 1 -a "$n_started" = 1
console_fb=$(kms_fb crtc-before.txt)
kms_check "after the upgrade the CRTC shows the kiosk's framebuffer, not the console's $console_fb (got $(kms_fb crtc-upgraded.txt))" \
  test -n "$(kms_fb crtc-upgraded.txt)" -a "$(kms_fb crtc-upgraded.txt)" != 0 -a "$(kms_fb crtc-upgraded.txt)" != "$console_fb"
kms_check "the glass after the upgrade equals the dial before it, pixel for pixel ($(head -n1 glass-compare.txt))" \
  grep -q '^glass same$' glass-compare.txt
# 3. Swipe.
kms_check "a selected event from the uinput swipe (not the start's, index 0)" grep -Eq '"event": "selected", "index": [1-9]' journal.txt
# 4. Remove.
before=$(kms_fb crtc-before.txt)
kms_check "apt-get remove succeeded" grep -q '^remove rc=0$' remove.txt
kms_check "the service stopped on remove" grep -q '^ActiveState=inactive$' removed.txt
kms_check "a stopping event on remove" grep -q '"event": "stopping"' journal-remove.txt
kms_check "before the install the console's fb is on the CRTC ($before)" test -n "$before" -a "$before" != 0
kms_check "after remove the CRTC shows fb $before again (got $(kms_fb crtc-after.txt))" \
  test "$(kms_fb crtc-after.txt)" = "$before"
kms_check "the configuration stays on remove" grep -q '^config.yaml$' removed.txt
# 5. Purge.
kms_check "apt-get purge succeeded" grep -q '^purge rc=0$' purge.txt
kms_check "the package is gone from dpkg" bash -c '! grep -q "^status .*installed" purged.txt'
kms_check "no file of the package left after purge" bash -c '! grep -q "^left: " purged.txt'
kms_check "nothing named dialkiosk left after purge" bash -c '! grep -q "^named: " purged.txt'
kms_finish
