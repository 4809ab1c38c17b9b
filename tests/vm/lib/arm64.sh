# The arm64 bed (sourced by a case's host script after case.sh and trixie.sh): Debian 13's arm64
# kernel for qemu-system-aarch64 -M virt, a busybox initramfs for it, a clean Debian 13 arm64
# root (systemd as PID 1) and the bed's drmtool cross-compiled. Everything is made once and
# cached in the bed's cache, keyed by the package versions:
#   arm64-kernel-<abi>-<version>/   vmlinuz, modules, initramfs-<hash>.cpio.gz, tools/<hash>/
#   arm64-root-<key>/               debootstrap'ed through qemu-user (binfmt_misc)
# The root holds the same packages as the amd64 deb-install root (lib/trixie.sh says why).
arm64_initramfs_modules=(virtio_pci_legacy_dev virtio_pci_modern_dev virtio_ring virtio virtio_pci
  9pnet 9pnet_virtio netfs fscache 9p overlay)

# arm64_binfmt: the host runs arm64 programs through qemu-aarch64-static (debootstrap's second
# stage and apt in the root do): binfmt_misc mounted, qemu-aarch64 registered with the F flag
# (the interpreter opened at registration, so it works inside a chroot).
arm64_binfmt() {
  local bm=/proc/sys/fs/binfmt_misc
  [ -f "$bm/status" ] || mount -t binfmt_misc binfmt_misc "$bm" \
    || case_fail "binfmt_misc cannot be mounted: the arm64 root cannot be made here"
  if [ ! -f "$bm/qemu-aarch64" ]; then
    [ -f /usr/lib/binfmt.d/qemu-aarch64.conf ] || case_fail "no /usr/lib/binfmt.d/qemu-aarch64.conf (qemu-user-static)"
    cat /usr/lib/binfmt.d/qemu-aarch64.conf >"$bm/register" || case_fail "registering qemu-aarch64 in binfmt_misc failed"
  fi
  grep -q '^enabled' "$bm/qemu-aarch64" || case_fail "binfmt_misc's qemu-aarch64 entry is disabled"
}

# arm64_root: makes (once) and prints the arm64 root's directory.
arm64_root() {
  [ "${APT_CONFIG:-}" = "$pkg_cache/apt/apt.conf" ] || pkg_apt_setup
  local key
  key="$(pkg_versions arm64 "${trixie_packages[@]}" | pkg_key guest-arm64 "${trixie_packages[@]}")"
  [ -n "$key" ] || case_fail "cannot resolve the arm64 root's packages in Debian 13's lists"
  if [ ! -f "$vm_cache/arm64-root-$key/.ready" ]; then
    arm64_binfmt
    pkg_root_arch=arm64 pkg_make_root "$vm_cache/arm64-root-$key" "${trixie_packages[@]}" >&2 \
      || case_fail "making the Debian 13 arm64 root failed"
  fi
  echo "$vm_cache/arm64-root-$key"
}
