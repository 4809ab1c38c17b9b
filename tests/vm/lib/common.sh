# Shared settings for the VM test bed scripts (sourced, not run).
# The cache lives outside the clone so repeated runs on one machine skip downloads and builds.

# Default /var/cache/dialkiosk-vm; a user who cannot write there gets one in their own cache.
vm_cache="${DIALKIOSK_VM_CACHE:-/var/cache/dialkiosk-vm}"
if [ -z "${DIALKIOSK_VM_CACHE:-}" ] && ! { mkdir -p "$vm_cache" && [ -w "$vm_cache" ]; } 2>/dev/null; then
  vm_cache="${XDG_CACHE_HOME:-$HOME/.cache}/dialkiosk-vm"
fi
vm_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
vm_repo="$(cd "$vm_dir/../.." && pwd)"

vm_log() { echo "vm: $*" >&2; }
vm_die() { echo "vm: error: $*" >&2; exit 1; }

# Seconds since the epoch with milliseconds, for stage timings.
vm_now() { date +%s.%N; }
vm_elapsed() { awk -v a="$1" -v b="$(vm_now)" 'BEGIN { printf "%.1f", b - a }'; }

# The kernel ABI name (e.g. 6.1.0-56-amd64) and package version the bed uses. Pinned with
# DIALKIOSK_VM_KVER (and DIALKIOSK_VM_KPKGVER); otherwise whatever linux-image-amd64 points at
# in the apt lists. run-all.sh resolves once and exports both (apt-cache takes seconds).
vm_resolve_kernel() {
  if [ -n "${DIALKIOSK_VM_KVER:-}" ]; then
    vm_kver="$DIALKIOSK_VM_KVER"
  else
    vm_kver="$(apt-cache depends linux-image-amd64 2>/dev/null \
      | sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*-amd64\)$/\1/p' | head -n1)"
    [ -n "$vm_kver" ] || vm_die "cannot resolve the kernel from linux-image-amd64 (run apt-get update?)"
  fi
  vm_kpkgver="${DIALKIOSK_VM_KPKGVER:-}"
  [ -n "$vm_kpkgver" ] || vm_kpkgver="$(apt-cache policy "linux-image-$vm_kver-unsigned" 2>/dev/null \
    | sed -n 's/^ *Candidate: //p')"
  [ -n "$vm_kpkgver" ] && [ "$vm_kpkgver" != "(none)" ] \
    || vm_die "linux-image-$vm_kver-unsigned has no candidate version in the apt lists"
  vm_kdir="$vm_cache/kernel-$vm_kver-$vm_kpkgver"
}

# The dialkiosk binary every case runs, on the host (render, the expected pictures) and in the
# guest (boot.sh passes it in as DK_BIN): the release build, since the debug build paints far
# too slowly under emulation. DIALKIOSK_VM_BIN names another one. The bed does not build it:
# `swift build -c release --product dialkiosk` first (scripts/test.sh does).
vm_bin() {
  local bin="${DIALKIOSK_VM_BIN:-$vm_repo/.build/release/dialkiosk}" newer
  [ -x "$bin" ] || vm_die "no dialkiosk binary at $bin: swift build -c release --product dialkiosk"
  newer="$(find "$vm_repo/Sources" "$vm_repo/Package.swift" -newer "$bin" -name '*.swift' -print -quit 2>/dev/null)"
  [ -z "$newer" ] || vm_log "warning: $bin is older than ${newer#"$vm_repo"/}: the VM runs the binary as it is"
  echo "$bin"
}

# vm_build_initramfs OUT BUSYBOX INIT MODDIR MODULE...: the bed's initramfs (prepare.sh for amd64,
# prepare-arm64.sh for arm64): BUSYBOX as /bin/busybox, INIT as /init, and the MODULEs from
# MODDIR/kernel, decompressed, in /modules with their load order in /modules/order.
vm_build_initramfs() {
  local out="$1" busybox="$2" init="$3" moddir="$4" tmp m f
  shift 4
  tmp="$(mktemp -d)"
  mkdir -p "$tmp"/{bin,dev,proc,sys,modules,lower,upper,newroot}
  cp "$busybox" "$tmp/bin/busybox"
  cp "$init" "$tmp/init"
  chmod 0755 "$tmp/init"
  for m in "$@"; do
    f="$(find "$moddir/kernel" -name "$m.ko*" | head -n1)"
    [ -n "$f" ] || vm_die "module $m not found in $moddir"
    case "$f" in
      *.xz) xz -dc "$f" >"$tmp/modules/$m.ko" ;;
      *.zst) zstd -qdc "$f" >"$tmp/modules/$m.ko" ;;
      *) cp "$f" "$tmp/modules/$m.ko" ;;
    esac
    echo "$m" >>"$tmp/modules/order"
  done
  (cd "$tmp" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
  mv "$out.tmp" "$out"
  rm -rf "$tmp"
}
