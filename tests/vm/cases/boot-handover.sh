#!/usr/bin/env bash
# From the boot splash to the dial without one black frame. One boot of the systemd
# guest into graphical.target with Plymouth (Debian's, script plugin, DRM renderer) showing the
# theme `dialkiosk splash` wrote, and the shipped dialkiosk.service enabled; a watcher holding
# the card open records every change of the CRTC's framebuffer, mode and ACTIVE.
#  - hand-over: ACTIVE never 0, the mode never changes, Plymouth's framebuffer is followed by
#    the dial's with none in between (no console), none of them all black; Plymouth's last frame
#    and the dial's first differ by at most 1 per channel; the screen then equals `render`;
#    plymouth-quit.service never ran, the unit logged nothing at warning or worse;
#  - phase 2, Plymouth gone: `systemctl stop` brings the console back, `systemctl start` goes
#    from the console's framebuffer to the dial's, same checks;
#  - the figures: kernel start (CLOCK_MONOTONIC 0) to Plymouth's first frame and to the dial's.
# BOOT_HANDOVER_UNIT=FILE boots another unit in place of systemd/dialkiosk.service (e.g. the one
# before the hand-over existed, to measure the boot without the hand-over; its checks then fail);
# BOOT_HANDOVER_THEME=NAME makes Plymouth show another installed theme (e.g. spinner, from
# plymouth-themes, to compare what the dial's theme costs; the pixel check then fails).
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"

# Everything the guest needs before plymouth-start.service lies outside $case_out (case_boot
# empties that): the guest sees the host's files at their own paths.
stage="$case_out.stage"
rm -rf "$stage"
mkdir -p "$stage/units"
config="$vm_repo/systemd/dialkiosk.yaml"
tools="$(sed -n 's/^TOOLS=//p' <<<"$("$vm_dir/prepare.sh")")"
[ -x "$tools/drmtool" ] || case_fail "no drmtool from prepare.sh ('$tools')"
"$kms_bin" splash --size 1024x768 --config "$config" --out "$stage/theme" >/dev/null \
  || case_fail "dialkiosk splash failed"
unit_src="${BOOT_HANDOVER_UNIT:-$vm_repo/systemd/dialkiosk.service}"
if [ -n "${DIALKIOSK_VM_KMS_API:-}" ]; then
  sed "s#^ExecStart=/usr/local/bin/dialkiosk run #ExecStart=/usr/local/bin/dialkiosk run --kms-api $DIALKIOSK_VM_KMS_API #" \
    "$unit_src" >"$stage/units/dialkiosk.service"
else
  cp "$unit_src" "$stage/units/dialkiosk.service"
fi
cat >"$stage/units/dialkiosk-vm-boot-prep.service" <<UNIT
[Unit]
Description=boot-handover: install the dial and its splash theme before Plymouth starts
DefaultDependencies=no
Before=plymouth-start.service dialkiosk.service sysinit.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/bash $vm_dir/cases/boot-handover-prep.sh $kms_bin $vm_repo $stage/theme ${BOOT_HANDOVER_THEME:-dialkiosk}
StandardOutput=journal+console
UNIT
# The guest runs the host's root, and a host that is a container (a /.dockerenv) makes systemd
# take the VM for one: plymouth-start.service's ConditionVirtualization=!container would skip
# the splash. The same unit without that condition, in /etc/systemd/system.
grep -v '^ConditionVirtualization=' /lib/systemd/system/plymouth-start.service >"$stage/units/plymouth-start.service" \
  || case_fail "no plymouth-start.service on the host (scripts/install-deps.sh installs plymouth)"
cat >"$stage/units/dialkiosk-vm-watch.service" <<UNIT
[Unit]
Description=boot-handover: record the CRTC from the splash on
DefaultDependencies=no
After=plymouth-start.service systemd-modules-load.service sys-kernel-debug.mount
Before=dialkiosk.service

[Service]
Type=exec
ExecStart=/bin/sh -c 'mkdir -p /out/watch; exec $tools/drmtool watch /out/watch >/out/watch.txt 2>/out/watch.err'
ExecStartPost=/bin/sh -c 'for i in \$(seq 600); do grep -q "^watch ready" /out/watch.txt 2>/dev/null && exit 0; sleep 0.1; done; exit 1'
UNIT
cat >"$stage/units/dialkiosk-vm-boot.target" <<UNIT
[Unit]
Description=boot-handover: graphical.target with the dial enabled, the watcher and the bed's script
Wants=graphical.target dialkiosk.service dialkiosk-vm-boot-prep.service dialkiosk-vm-watch.service
AllowIsolate=yes
UNIT

units=()
for u in "$stage"/units/*; do units+=(--unit "$u"); done
case_boot --systemd-unit dialkiosk-vm-boot.target "${units[@]}" \
  --kernel-arg quiet --kernel-arg splash --kernel-arg plymouth.ignore-serial-consoles \
  --kernel-arg systemd.mask=mosquitto.service

cd "$case_out"
echo "--- boot-state.txt"; cat boot-state.txt 2>/dev/null
echo "--- watch.txt (changes)"; grep -v '^watch snap' watch.txt 2>/dev/null | head -n 40
echo "--- journal.txt (last 30)"; tail -n 30 journal.txt 2>/dev/null

# The record, judged: boot-handover-check.py prints "check ok|FAIL: ..." and "figure ..." lines.
python3 "$vm_dir/cases/boot-handover-check.py" "$case_out" >check.txt 2>&1 || true
cat check.txt
while read -r verdict rest; do
  case "$verdict" in
    ok) case_note "ok: $rest" ;;
    FAIL:) kms_check "$rest" false ;;
    figure) case_note "$rest" ;;
  esac
done < <(sed -n 's/^check //p' check.txt)
grep -q '^check ' check.txt || kms_check "the record could be judged (check.txt)" false

kms_check "the unit became active at boot" grep -q '^ActiveState=active$' boot-state.txt
kms_check "plymouth-quit.service never ran (Conflicts=)" grep -q '^plymouth-quit: inactive started-at 0$' boot-state.txt
kms_check "Plymouth started at boot" grep -q '^plymouth-start: active result success$' boot-state.txt
kms_check "the unit logged nothing at warning or worse (with and without a running Plymouth)" \
  test ! -s journal-warning.txt
kms_check "no restart" grep -q '^NRestarts=0$' boot-state.txt
kms_check "active again after the restart" grep -q '^ActiveState=active$' restart-state.txt
kms_check "both starts flipped onto the running mode (no modeset): 'first frame: flip onto the running mode' twice" \
  test "$(grep -c 'first frame: flip onto the running mode' journal.txt)" = 2
kms_screen_is_render screen-boot 0 --config "$config"
kms_screen_is_render screen-restart 0 --config "$config"
kms_finish
