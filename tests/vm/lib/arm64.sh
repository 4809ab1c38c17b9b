# The arm64 bed (sourced by a case's host script after case.sh and trixie.sh): Debian 13's arm64
# kernel for qemu-system-aarch64 -M virt, a busybox initramfs for it, a clean Debian 13 arm64
# root (systemd as PID 1) and the bed's drmtool cross-compiled. Everything is made once and
# cached in the bed's cache, keyed by the package versions:
#   arm64-kernel-<abi>-<version>/   vmlinuz, modules, initramfs-<hash>.cpio.gz, tools/<hash>/
#   arm64-root-<key>/               mmdebstrap'ed through qemu-user (binfmt_misc)
# The root holds the amd64 deb-install root's packages (lib/trixie.sh says why) and the arm64
# package's whole dependency closure, so the guest's `apt install ./dialkiosk_..._arm64.deb`
# installs that one package: apt and dpkg run at qemu-user's speed on the host once per version
# instead of at qemu-system's in every boot (14 minutes there for 41 .debs).
arm64_initramfs_modules=(virtio_pci_legacy_dev virtio_pci_modern_dev virtio_ring virtio virtio_pci
  9pnet 9pnet_virtio netfs fscache 9p overlay)

# arm64_binfmt: the host runs arm64 programs through qemu-aarch64-static (dpkg and the
# maintainer scripts in the root do): binfmt_misc mounted, qemu-aarch64 registered with the F
# flag (the interpreter opened at registration, so it works inside a chroot).
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

# arm64_deb_depends DEB: the names DEB's Depends asks for, one a line; of alternatives
# ("systemd | systemd-standalone-sysusers | ..."), the first, as apt picks.
arm64_deb_depends() {
  dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/ //g' | sed '/^$/d' | sort -u
}

# arm64_root DEB: makes (once) and prints the arm64 root's directory: minbase, the bed's
# packages and DEB's dependencies, not DEB itself. The key is the versions apt resolves for that
# list, so a new libswiftlang (or a new dependency of the package) makes a new root.
arm64_root() {
  [ "${APT_CONFIG:-}" = "$pkg_cache/apt/apt.conf" ] || pkg_apt_setup
  local deb="$1" key root packages
  # init-system-helpers (deb-systemd-helper, deb-systemd-invoke: what debhelper's snippets in the
  # maintainer scripts call) is Essential, so no Depends names it; named here, the list, and so
  # the cached root's key, stays what it was when the package's own Depends named it.
  mapfile -t packages < <( (printf '%s\n' "${trixie_packages[@]}" init-system-helpers; arm64_deb_depends "$deb") | sort -u)
  key="$(pkg_versions arm64 "${packages[@]}" | pkg_key guest-arm64-mmdebstrap "${packages[@]}")"
  [ -n "$key" ] || case_fail "cannot resolve the arm64 root's packages in Debian 13's lists"
  root="$vm_cache/arm64-root-$key"
  if [ ! -f "$root/.ready" ]; then
    arm64_binfmt
    arm64_make_root "$root" "${packages[@]}" >&2 || case_fail "making the Debian 13 arm64 root failed (log: $root.log)"
  fi
  echo "$root"
}

# arm64_make_root DIR PACKAGE...: mmdebstrap resolves and downloads with the host's apt and runs
# dpkg in the root through qemu-user: one apt run for the whole list (debootstrap's --include
# does not resolve dependencies, so it needed a second apt inside the root). Flock'ed, made in
# DIR.tmp and renamed, so a half-made root is never used.
arm64_make_root() {
  local root="$1" list t; shift
  command -v mmdebstrap >/dev/null || case_fail "mmdebstrap is missing (scripts/install-deps.sh)"
  mkdir -p "$(dirname "$root")" || return 1
  exec 8>"$root.lock" || return 1
  flock 8
  if [ ! -f "$root/.ready" ]; then
    t=$(vm_now)
    list="$(IFS=,; echo "$*")"
    rm -rf "$root.tmp" "$root"
    vm_log "creating $root (mmdebstrap --arch=arm64 --variant=minbase $pkg_suite --include=$list)"
    # The host's apt configuration is not read (APT_CONFIG would point mmdebstrap's apt at the
    # packaging cache's state); the root gets its own lists, which it drops at the end.
    env -u APT_CONFIG mmdebstrap --mode=root --variant=minbase --arch=arm64 \
      --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
      --aptopt='APT::Install-Recommends "false"' --include="$list" \
      "$pkg_suite" "$root.tmp" "$pkg_mirror" >"$root.log" 2>&1 \
      || { tail -n 20 "$root.log" >&2; flock -u 8; return 1; }
    date -u +%FT%TZ >"$root.tmp/.ready"
    mv "$root.tmp" "$root"
    vm_log "arm64 root ready in $(vm_elapsed "$t") s: $root ($(du -sh "$root" | cut -f1))"
  fi
  flock -u 8
  exec 8>&-
}
