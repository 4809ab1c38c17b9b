#!/usr/bin/env bash
# Prepares the arm64 bed (boot.sh --arch arm64): Debian 13's arm64 kernel and modules (no
# out-of-tree module: the KMS device is qemu's virtio-gpu, whose driver Debian builds), a busybox
# initramfs from Debian 13's arm64 busybox-static, and the bed's drmtool cross-compiled with
# gcc-aarch64-linux-gnu against Debian 13's arm64 libdrm. Idempotent and locked like prepare.sh;
# everything lands in ${DIALKIOSK_VM_CACHE:-/var/cache/dialkiosk-vm}/arm64-kernel-<abi>-<version>,
# keyed by the kernel package's version. Network: only Debian's archive (apt-get download).
#
# Prints KDIR=, KERNEL=, MODULES=, INITRAMFS= and TOOLS= lines on stdout for boot.sh.
# The kernel is what trixie's linux-image-arm64 points to; pin it with DIALKIOSK_VM_ARM64_KVER
# (e.g. 6.12.117+deb13-arm64) and DIALKIOSK_VM_ARM64_KPKGVER (e.g. 6.12.117-1).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
source "$vm_repo/packaging/lib.sh"

start=$(vm_now)
mkdir -p "$vm_cache"
exec 9>"$vm_cache/.lock-arm64"
flock 9
# Debian 13's lists (amd64 + arm64) in the packaging cache; the host's apt is not touched.
pkg_apt_setup >&2

kver="${DIALKIOSK_VM_ARM64_KVER:-}"
[ -n "$kver" ] || kver="$(apt-cache -o APT::Architecture=arm64 depends linux-image-arm64 2>/dev/null \
  | sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*-arm64\)$/\1/p' | head -n1)"
[ -n "$kver" ] || vm_die "cannot resolve the arm64 kernel from Debian 13's linux-image-arm64"
kpkgver="${DIALKIOSK_VM_ARM64_KPKGVER:-}"
[ -n "$kpkgver" ] || kpkgver="$(apt-cache policy "linux-image-$kver-unsigned:arm64" 2>/dev/null \
  | sed -n 's/^ *Candidate: //p')"
[ -n "$kpkgver" ] && [ "$kpkgver" != "(none)" ] || vm_die "linux-image-$kver-unsigned:arm64 has no candidate"
kdir="$vm_cache/arm64-kernel-$kver-$kpkgver"

# Initramfs modules: 9p and overlay (virtio and virtio-pci are built into Debian's arm64 kernel).
initramfs_modules=(netfs 9pnet 9pnet_virtio 9p overlay)
init_src="$vm_dir/guest/initramfs-init.sh"

fetch_kernel() {
  local tmp="$kdir.tmp" debs="$vm_cache/debs-arm64-$kpkgver"
  rm -rf "$tmp"; mkdir -p "$tmp/root" "$debs"
  chmod 0777 "$debs"   # apt downloads as _apt
  if ! compgen -G "$debs/linux-image-${kver}-unsigned_*.deb" >/dev/null; then
    vm_log "downloading linux-image-$kver-unsigned:arm64 $kpkgver and busybox-static:arm64"
    (cd "$debs" && apt-get download -q "linux-image-$kver-unsigned:arm64=$kpkgver" busybox-static:arm64) >&2
  fi
  dpkg -x "$debs/linux-image-${kver}-unsigned_"*.deb "$tmp/root"
  dpkg -x "$(ls "$debs"/busybox-static_*_arm64.deb | tail -n1)" "$tmp/busybox"
  depmod -b "$tmp/root/usr" "$kver" 2>/dev/null || depmod -b "$tmp/root" "$kver"
  rm -rf "$kdir"; mv "$tmp" "$kdir"
  touch "$kdir/ready"
}

build_initramfs() {
  local key out
  key="$( (cat "$init_src"; echo "${initramfs_modules[*]}") | sha256sum | cut -c1-12)"
  out="$kdir/initramfs-$key.cpio.gz"
  initramfs="$out"
  [ -s "$out" ] && return 0
  vm_log "building the arm64 initramfs ($key)"
  vm_build_initramfs "$out" "$kdir/busybox/usr/bin/busybox" "$init_src" "$kdir/root/usr/lib/modules/$kver" \
    "${initramfs_modules[@]}"
}

# drmtool for the guest: the amd64 bed's sources, cross-compiled. libdrm comes from Debian 13's
# arm64 packages (headers and the library the root has); glibc from Debian 12's cross libc,
# which is older than the root's, so the binary runs there. libdrm.so.2's own glibc symbols are
# the root's business (--allow-shlib-undefined).
build_tools() {
  local key sys debs="$vm_cache/debs-arm64-$kpkgver"
  command -v aarch64-linux-gnu-gcc >/dev/null || vm_die "aarch64-linux-gnu-gcc is missing (scripts/install-deps.sh)"
  key="$(cat "$vm_dir"/tools/*.[ch] | sha256sum | cut -c1-12)"
  tools="$kdir/tools/$key"
  [ -x "$tools/drmtool" ] && return 0
  vm_log "cross-compiling drmtool for arm64"
  if ! compgen -G "$debs/libdrm-dev_*_arm64.deb" >/dev/null || ! compgen -G "$debs/libdrm2_*_arm64.deb" >/dev/null; then
    (cd "$debs" && apt-get download -q libdrm-dev:arm64 libdrm2:arm64) >&2
  fi
  sys="$kdir/libdrm"
  rm -rf "$sys"; mkdir -p "$sys"
  dpkg -x "$(ls "$debs"/libdrm-dev_*_arm64.deb | tail -n1)" "$sys"
  dpkg -x "$(ls "$debs"/libdrm2_*_arm64.deb | tail -n1)" "$sys"
  mkdir -p "$tools"
  aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror -o "$tools/drmtool.tmp" "$vm_dir"/tools/*.c \
    -I"$sys/usr/include" -I"$sys/usr/include/libdrm" -L"$sys/usr/lib/aarch64-linux-gnu" -ldrm \
    -Wl,--allow-shlib-undefined
  mv "$tools/drmtool.tmp" "$tools/drmtool"
}

if [ -f "$kdir/ready" ]; then
  vm_log "arm64 kernel $kver ($kpkgver) is cached in $kdir"
else
  fetch_kernel
fi
build_initramfs
build_tools
vm_log "prepare (arm64) took $(vm_elapsed "$start") s"
echo "KDIR=$kdir"
echo "KERNEL=$kdir/root/boot/vmlinuz-$kver"
echo "MODULES=$kdir/root/usr/lib/modules/$kver"
echo "INITRAMFS=$initramfs"
echo "TOOLS=$tools"
