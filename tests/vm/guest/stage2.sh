#!/bin/bash
# Stage 2 of the test bed guest, run as PID 1 right after the initramfs's switch_root (and, in
# systemd mode, again as the test script's service with --run-script). The root is the host's,
# read-only under a tmpfs overlay; /out is the host's results directory; /out/.vm holds what
# boot.sh passed in (config, script, units) and what goes back (status, stage marks, log).
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
ctl=/out/.vm
# shellcheck source=/dev/null
. "$ctl/config"
export DK_OUT=/out DK_REPO DK_VMDIR DK_TOOLS DK_BIN DK_KMS_API DK_GUEST="$DK_VMDIR/guest" DK_VM=1
export PATH="$DK_TOOLS:$DK_GUEST:$PATH"

# The host reads these files' modification times (set by the host's clock) for stage timings.
mark() { echo "$1" >"$ctl/t-$1"; }

power_off() {
  sync
  echo o >/proc/sysrq-trigger
  sleep 30
}

# Runs the test script as root in /out; its status goes to $ctl/status, its output to the
# console and $ctl/script.log.
run_script() {
  udevadm settle --timeout=120 || echo "stage2: udevadm settle timed out" >&2
  mark script-start
  cd /out || exit 1
  bash "$ctl/script.sh" 2>&1 | tee "$ctl/script.log"
  local rc=${PIPESTATUS[0]}
  echo "$rc" >"$ctl/status"
  mark script-end
  echo "stage2: guest script exited with status $rc"
}

if [ "${1:-}" = --run-script ]; then
  run_script
  exit 0
fi

mark userspace
echo "stage2: guest userspace reached (mode $DK_MODE)"

# What both modes need: vkms with its writeback connector, uinput and evdev for injected input.
mkdir -p /etc/modprobe.d /etc/modules-load.d
echo "options vkms enable_writeback=1" >/etc/modprobe.d/dialkiosk-vm.conf
hostname dialkiosk-vm 2>/dev/null || true

# Cards come up in load order: vkms first (card0), bochs (--bochs) second. Loaded by name, since
# udev is only asked to replay drm/input events, not the PCI ones that would autoload bochs.
modules=(vkms uinput evdev)
# boot.sh --arch arm64: Debian's arm64 kernel has no vkms; qemu's virtio-gpu is the card.
[ "${DK_ARCH:-amd64}" = arm64 ] && modules=(virtio_gpu uinput evdev)
[ "${DK_BOCHS:-0}" = 1 ] && modules+=(bochs)

if [ "$DK_MODE" = systemd ]; then
  printf '%s\n' "${modules[@]}" >/etc/modules-load.d/dialkiosk-vm.conf
  # The host's enabled timers and services that only cost emulated time here (the overlay keeps
  # the host untouched). A test that needs one can unmask it.
  for u in apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer fstrim.timer \
      dpkg-db-backup.timer systemd-timesyncd.service systemd-pstore.service e2scrub_reap.service \
      postgresql.service; do
    ln -sf /dev/null "/etc/systemd/system/$u"
  done
  # The host was never booted by systemd, so ConditionNeedsUpdate= would rebuild the hwdb and
  # the ld cache at every boot: mark /etc and /var up to date.
  touch /etc/.updated /var/.updated
  # A volatile journal spares the flush to /var/log; udev replays only what the bed uses.
  mkdir -p /etc/systemd/journald.conf.d /etc/systemd/system/systemd-udev-trigger.service.d
  printf '[Journal]\nStorage=volatile\n' >/etc/systemd/journald.conf.d/dialkiosk-vm.conf
  cat >/etc/systemd/system/systemd-udev-trigger.service.d/dialkiosk-vm.conf <<UNIT
[Service]
ExecStart=
ExecStart=-udevadm trigger --type=subsystems --action=add
ExecStart=-udevadm trigger --type=devices --action=add --subsystem-match=drm --subsystem-match=input --subsystem-match=misc --subsystem-match=graphics
UNIT
  if [ -d "$ctl/units" ]; then
    cp -r "$ctl/units/." /etc/systemd/system/
  fi
  cat >/etc/systemd/system/dialkiosk-vm-script.service <<UNIT
[Unit]
Description=DialKiosk VM test bed: the guest test script
After=basic.target systemd-udev-trigger.service systemd-modules-load.service
Wants=systemd-udev-trigger.service
SuccessAction=poweroff-immediate
FailureAction=poweroff-immediate

[Service]
Type=oneshot
ExecStart=/bin/bash $DK_VMDIR/guest/stage2.sh --run-script
StandardOutput=journal+console
StandardError=journal+console
UNIT
  cat >/etc/systemd/system/dialkiosk-vm.target <<UNIT
[Unit]
Description=DialKiosk VM test bed
Requires=basic.target
After=basic.target
Wants=dialkiosk-vm-script.service
AllowIsolate=yes
UNIT
  if [ "$DK_UNIT" != dialkiosk-vm.target ]; then
    mkdir -p "/etc/systemd/system/$DK_UNIT.wants"
    ln -sf ../dialkiosk-vm-script.service "/etc/systemd/system/$DK_UNIT.wants/"
  fi
  exec /lib/systemd/systemd --unit="$DK_UNIT" --log-target=console --show-status=false
fi

mount -t tmpfs -o mode=0755 tmpfs /run
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null

for m in "${modules[@]}"; do
  modprobe "$m" || echo "stage2: modprobe $m failed" >&2
done
/lib/systemd/systemd-udevd --daemon
# Only what the bed's programs look at: cards, input devices, uinput. Triggering every device
# costs tens of seconds of emulated time.
udevadm trigger --type=subsystems --action=add
udevadm trigger --type=devices --action=add --subsystem-match=drm --subsystem-match=input \
  --subsystem-match=misc --subsystem-match=graphics
run_script
power_off
