#!/usr/bin/env bash
# Boots the test bed VM once, runs a guest shell script in it as root, powers off, and exits
# with the script's status. See tests/vm/README.md.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

usage() {
  cat <<USAGE
Usage: tests/vm/boot.sh --script FILE --out DIR [options]

  --script FILE        guest shell script (bash), run as root in /out after the bed is ready
  --out DIR            host directory shared writable as the guest's /out (created if missing);
                       the serial log is DIR/serial.log, the script's output DIR/.vm/script.log
  --timeout SECONDS    kill qemu and fail if the VM has not powered off by then (default 600)
  --systemd            boot systemd as PID 1; the script runs as a oneshot service
                       (dialkiosk-vm-script.service) once basic.target is reached
  --systemd-unit NAME  with --systemd: the unit to boot (systemd.unit=), default
                       dialkiosk-vm.target (basic.target + the script); the script is added
                       to NAME's wants
  --unit FILE          with --systemd: install FILE into the guest's /etc/systemd/system
                       (repeatable)
  --bochs              add a bochs VGA (qemu -device bochs-display) as a second KMS driver
  --virtio-gpu SOCKET  add a virtio-gpu (driver virtio_gpu) as a second KMS driver, its display
                       served by qemu's VNC server on the unix socket SOCKET (a client resizing
                       it changes the connector's preferred mode: tests/vm/cases/vnc-resize.py)
  --memory MB          guest memory (default 2048)
  --kernel-arg ARG     add ARG to the kernel command line, e.g. drm.debug=0x1e (repeatable)
  --root DIR           boot the root file system in DIR (read-only, under a tmpfs overlay)
                       instead of the host's; the clone and the tools are bound into it at
                       their own paths (stage 2 and the guest scripts come from there)
  --arch arm64         qemu-system-aarch64 -M virt (cortex-a72, TCG) with Debian 13's arm64
                       kernel (prepare-arm64.sh) and a virtio-gpu as the KMS device instead of
                       vkms (driver virtio_gpu, card0); needs --root with an arm64 root
  -h, --help           this text

Environment: DIALKIOSK_VM_BIN (the dialkiosk binary, default the clone's release build; the
guest gets it as DK_BIN), DIALKIOSK_VM_KMS_API (e.g. legacy: every \`dialkiosk run\` and
\`list-outputs\` of the guest script gets --kms-api with it; run-all.sh's legacy pass sets it).
USAGE
}

script="" out="" timeout=600 mode=script unit=dialkiosk-vm.target bochs=0 memory=2048 virtio_vnc=""
units=() kargs=() root="" arch=amd64
while [ $# -gt 0 ]; do
  case "$1" in
    --script) script="${2:?--script needs a file}"; shift 2 ;;
    --out) out="${2:?--out needs a directory}"; shift 2 ;;
    --timeout) timeout="${2:?--timeout needs seconds}"; shift 2 ;;
    --systemd) mode=systemd; shift ;;
    --systemd-unit) mode=systemd; unit="${2:?--systemd-unit needs a unit name}"; shift 2 ;;
    --unit) units+=("${2:?--unit needs a file}"); shift 2 ;;
    --bochs) bochs=1; shift ;;
    --virtio-gpu) virtio_vnc="${2:?--virtio-gpu needs a socket path}"; shift 2 ;;
    --memory) memory="${2:?--memory needs megabytes}"; shift 2 ;;
    --kernel-arg) kargs+=("${2:?--kernel-arg needs an argument}"); shift 2 ;;
    --root) root="${2:?--root needs a directory}"; shift 2 ;;
    --arch) arch="${2:?--arch needs amd64 or arm64}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; vm_die "unknown argument: $1" ;;
  esac
done
[ -n "$script" ] || { usage >&2; vm_die "--script is required"; }
[ -n "$out" ] || { usage >&2; vm_die "--out is required"; }
[ -f "$script" ] || vm_die "guest script not found: $script"
[[ "$memory" =~ ^[0-9]+$ ]] || vm_die "--memory must be megabytes, got '$memory'"
[[ "$timeout" =~ ^[0-9]+$ ]] && [ "$timeout" -gt 0 ] || vm_die "--timeout must be a positive number of seconds, got '$timeout'"
[ ${#units[@]} -eq 0 ] || [ "$mode" = systemd ] || vm_die "--unit needs --systemd"
for f in "${units[@]}"; do [ -f "$f" ] || vm_die "unit file not found: $f"; done
case "$arch" in
  amd64) command -v qemu-system-x86_64 >/dev/null || vm_die "qemu-system-x86_64 is missing (scripts/install-deps.sh)" ;;
  arm64) command -v qemu-system-aarch64 >/dev/null || vm_die "qemu-system-aarch64 is missing (scripts/install-deps.sh)"
    [ -n "$root" ] || vm_die "--arch arm64 needs --root (an arm64 root; the host's is amd64)" ;;
  *) vm_die "--arch must be amd64 or arm64, got '$arch'" ;;
esac
bin="$(vm_bin)" || exit 1

t0=$(vm_now)
if [ "$arch" = arm64 ]; then
  prep="$("$vm_dir/prepare-arm64.sh")" || vm_die "prepare-arm64.sh failed"
  kdir="$(sed -n 's/^KDIR=//p' <<<"$prep")"
  kernel="$(sed -n 's/^KERNEL=//p' <<<"$prep")"
  moddir="$(sed -n 's/^MODULES=//p' <<<"$prep")"
else
  prep="$("$vm_dir/prepare.sh")" || vm_die "prepare.sh failed"
  kdir="$(sed -n 's/^KDIR=//p' <<<"$prep")"
fi
initramfs="$(sed -n 's/^INITRAMFS=//p' <<<"$prep")"
tools="$(sed -n 's/^TOOLS=//p' <<<"$prep")"
t_prepare=$(vm_elapsed "$t0")
if [ "$arch" = amd64 ]; then
  kver="${kdir#"$vm_cache"/kernel-}"; kver="${kver%%-amd64-*}-amd64"
  kernel="$kdir/root/boot/vmlinuz-$kver"
  moddir=""
  for d in "$kdir/root/lib/modules/$kver" "$kdir/root/usr/lib/modules/$kver"; do
    [ -d "$d" ] && { moddir="$d"; break; }
  done
fi
[ -f "$kernel" ] && [ -n "$moddir" ] || vm_die "the cache in $kdir is incomplete: remove it and run again"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# qemu's -virtfs splits on commas and the kernel command line on spaces.
for p in "$out" "$vm_dir" "$moddir"; do
  [[ "$p" != *[,\ ]* ]] || vm_die "paths given to qemu must not contain commas or spaces: $p"
done
ctl="$out/.vm"
rm -rf "$ctl"
mkdir -p "$ctl"
cp "$script" "$ctl/script.sh"
if [ ${#units[@]} -gt 0 ]; then
  mkdir -p "$ctl/units"
  cp "${units[@]}" "$ctl/units/"
fi
{
  printf 'DK_MODE=%q\n' "$mode"
  printf 'DK_UNIT=%q\n' "$unit"
  printf 'DK_REPO=%q\n' "$vm_repo"
  printf 'DK_VMDIR=%q\n' "$vm_dir"
  printf 'DK_TOOLS=%q\n' "$tools"
  printf 'DK_BOCHS=%q\n' "$bochs"
  printf 'DK_BIN=%q\n' "$bin"
  printf 'DK_KMS_API=%q\n' "${DIALKIOSK_VM_KMS_API:-}"
  printf 'DK_ARCH=%q\n' "$arch"
} >"$ctl/config"

if [ -n "$root" ]; then
  [ -x "$root/usr/lib/systemd/systemd" ] || vm_die "--root $root has no systemd"
  for p in "$root" "$tools"; do
    [[ "$p" != *[,\ ]* ]] || vm_die "paths given to qemu must not contain commas or spaces: $p"
  done
  kargs+=("dk.root=guestroot" "dk.bind=$vm_repo" "dk.bind=$tools")
fi
# Plymouth is installed on the host (boot-handover needs it) and so in every guest: a case that
# does not ask for the splash boots without it, so plymouth-start cannot take the card from the
# case on a machine where systemd runs it (here /.dockerenv makes systemd skip it).
[[ " ${kargs[*]} " == *" splash "* ]] || kargs+=("plymouth.enable=0")
serial="$out/serial.log"
if [ "$arch" = arm64 ]; then
  # cortex-a72 (a Raspberry Pi 4's core): -cpu max would add pointer authentication, which TCG
  # emulates slowly.
  qemu=(qemu-system-aarch64 -M virt -accel tcg,thread=multi -cpu cortex-a72)
  console=ttyAMA0
else
  qemu=(qemu-system-x86_64 -accel tcg,thread=multi -cpu max)
  console=ttyS0,115200
fi
# no_timer_check (x86): under TCG on a loaded host the guest's early IO-APIC timer check can fail
# and panic ("IO-APIC + timer doesn't work!") before userspace, though the timer works.
timer_check=""
[ "$arch" = arm64 ] || timer_check=" no_timer_check"
qemu+=(-smp "${DIALKIOSK_VM_SMP:-2}"
  -m "$memory" -nodefaults -no-reboot -display none -monitor none
  -serial "file:$serial"
  -kernel "$kernel" -initrd "$initramfs"
  -append "console=$console panic=1 loglevel=4$timer_check dk.modules=$moddir dk.stage2=$vm_dir/guest/stage2.sh dk.repo=$vm_repo${kargs[*]:+ ${kargs[*]}}"
  -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
  -virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap")
[ -n "$root" ] && qemu+=(-virtfs "local,path=$root,mount_tag=guestroot,security_model=none,readonly=on,multidevs=remap")
# -nodefaults leaves no VGA, so vkms is the only KMS driver unless bochs is asked for.
[ "$bochs" = 1 ] && qemu+=(-device bochs-display)
[ -n "$virtio_vnc" ] && qemu+=(-device virtio-gpu-pci -vnc "unix:$virtio_vnc")
# arm64: Debian's kernel has no vkms; qemu's virtio-gpu is the KMS device (stage 2 loads it).
[ "$arch" = arm64 ] && [ -z "$virtio_vnc" ] && qemu+=(-device virtio-gpu-pci)

vm_log "booting ($mode mode, timeout ${timeout}s), serial log: $serial"
t1=$(vm_now)
set +e
timeout -k 10 "$timeout" "${qemu[@]}" </dev/null
qrc=$?
set -e
t_vm=$(vm_elapsed "$t1")

# Stage times from the guest's marks (their modification times are the host's clock).
mtime() { [ -f "$ctl/t-$1" ] && stat -c %.3Y "$ctl/t-$1"; }
span() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
m_user=$(mtime userspace || true); m_start=$(mtime script-start || true); m_end=$(mtime script-end || true)
times="prepare ${t_prepare}s"
[ -n "$m_user" ] && times+=", boot to userspace $(span "$t1" "$m_user")s"
if [ -n "$m_start" ] && [ -n "$m_user" ]; then
  if [ "$mode" = systemd ]; then what="systemd to the script"; else what="modules and udev"; fi
  times+=", $what $(span "$m_user" "$m_start")s"
fi
[ -n "$m_start" ] && [ -n "$m_end" ] && times+=", script $(span "$m_start" "$m_end")s"
times+=", whole VM ${t_vm}s"
vm_log "stages: $times"

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
  vm_die "the VM did not power off within ${timeout}s (killed); see $serial"
fi
[ "$qrc" = 0 ] || vm_die "qemu exited with status $qrc; see $serial"
[ -f "$ctl/status" ] || vm_die "the guest script reported no status (it did not run or the guest crashed); see $serial"
status="$(cat "$ctl/status")"
vm_log "guest script exited with status $status"
exit "$status"
