#!/usr/bin/env bash
# Prepares the VM test bed: a Debian 6.1 kernel with an out-of-tree vkms.ko, a busybox initramfs
# and the guest-side C tools. Idempotent: everything lands in the cache directory
# (${DIALKIOSK_VM_CACHE:-/var/cache/dialkiosk-vm}), keyed by the kernel package version, and a
# second run only checks stamps. Network: only Debian's archive, through apt-get download.
#
# Prints KDIR=, INITRAMFS= and TOOLS= lines on stdout for boot.sh.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

start=$(vm_now)
mkdir -p "$vm_cache"
# Several test runs (or helpers) may prepare at once: one at a time.
exec 9>"$vm_cache/.lock"
flock 9

vm_resolve_kernel
kbuild_series="$(echo "$vm_kver" | cut -d. -f1,2)"   # 6.1.0-56-amd64 -> 6.1

# The initramfs only mounts the roots; what runs after it comes from the clone, so it only
# changes when its own sources do.
init_src="$vm_dir/guest/initramfs-init.sh"
initramfs_modules=(virtio_pci_legacy_dev virtio_pci_modern_dev virtio_ring virtio virtio_pci
  9pnet 9pnet_virtio netfs fscache 9p overlay)
initramfs_key="$( (cat "$init_src"; echo "${initramfs_modules[*]}"; readlink -f /bin/busybox) \
  | sha256sum | cut -c1-12)"

build_kernel() {
  local tmp="$vm_kdir.tmp"
  rm -rf "$tmp"
  mkdir -p "$tmp/root" "$tmp/src"
  # The downloads are kept (by version) so a failed build does not fetch them again.
  local debs="$vm_cache/debs-$vm_kpkgver"
  local pkgs=("linux-image-$vm_kver-unsigned" "linux-headers-$vm_kver"
    "linux-headers-${vm_kver%-amd64}-common" "linux-kbuild-$kbuild_series"
    "linux-source-$kbuild_series")
  mkdir -p "$debs"
  # apt drops privileges to _apt for downloads; the directory must be writable for it.
  chmod 0777 "$debs"
  # A name may be a virtual package that apt resolves to a versioned one (trixie's
  # linux-kbuild-6.12 is provided by linux-kbuild-6.12.117+deb13): the file found is the one with
  # the name, or a longer name, at this version.
  deb_of() {
    compgen -G "$debs/${1}_*.deb" | head -n1 || true
    compgen -G "$debs/${1}"'[.+]*'"_${vm_kpkgver}_*.deb" | head -n1 || true
  }
  local p want=()
  for p in "${pkgs[@]}"; do
    [ -n "$(deb_of "$p")" ] || want+=("$p=$vm_kpkgver")
  done
  if [ ${#want[@]} -gt 0 ]; then
    vm_log "downloading ${want[*]}"
    (cd "$debs" && apt-get download -q "${want[@]}") >&2
  fi
  local file
  for p in "${pkgs[@]}"; do
    file="$(deb_of "$p" | head -n1)"
    [ -n "$file" ] || { vm_log "no .deb for $p in $debs"; return 1; }
    case "$p" in linux-source-*) dpkg -x "$file" "$tmp/src" ;;
      *) dpkg -x "$file" "$tmp/root" ;; esac
  done

  # Only vkms is needed from the 140 MB source tarball.
  vm_log "unpacking drivers/gpu/drm/vkms"
  tar -xJf "$tmp/src/usr/src/linux-source-$kbuild_series.tar.xz" -C "$tmp/src" \
    "linux-source-$kbuild_series/drivers/gpu/drm/vkms"
  local vkms="$tmp/src/linux-source-$kbuild_series/drivers/gpu/drm/vkms"
  patch_possible_clones "$vkms"

  # The headers' Makefile includes the common headers by absolute /usr/src path.
  local hdr="$tmp/root/usr/src/linux-headers-$vm_kver"
  sed -i "s|/usr/src/|$tmp/root/usr/src/|g" "$hdr/Makefile"
  vm_log "building vkms.ko"
  make -s -C "$hdr" M="$vkms" CONFIG_DRM_VKMS=m modules >&2

  local moddir
  moddir="$(modules_dir "$tmp/root")"
  mkdir -p "$moddir/updates"
  cp "$vkms/vkms.ko" "$moddir/updates/vkms.ko"
  depmod -b "${moddir%/lib/modules/*}" "$vm_kver"

  # Keep the kernel, the modules and the built module; drop the unpacked source.
  rm -rf "$tmp/src"
  rm -rf "$vm_kdir"
  mv "$tmp" "$vm_kdir"
  # The headers now point into the temporary path; they are not needed after the build.
  rm -rf "$vm_kdir/root/usr/src"
  touch "$vm_kdir/ready"
}

# Debian 6.1 stable kernels check encoder clones in atomic commits, and vkms 6.1 never sets
# possible_clones, so any commit that attaches the writeback connector fails with EINVAL.
# Declare the CRTC encoder and the writeback encoder clones of each other.
patch_possible_clones() {
  local dir="$1"
  grep -q 'possible_clones' "$dir/vkms_output.c" && return 0
  # vkms_output_init: once the writeback connector exists, both encoders list both.
  sed -i 's|^\(\s*\)writeback = vkms_enable_writeback_connector(vkmsdev);|&\
\1if (!writeback) {\
\1\tencoder->possible_clones = drm_encoder_mask(encoder) \|\
\1\t\tdrm_encoder_mask(\&output->wb_connector.encoder);\
\1\toutput->wb_connector.encoder.possible_clones = encoder->possible_clones;\
\1}|' "$dir/vkms_output.c"
  grep -q 'possible_clones' "$dir/vkms_output.c" \
    || vm_die "the possible_clones patch did not apply to $dir/vkms_output.c"
}

# The image package ships its modules under /lib/modules or /usr/lib/modules.
modules_dir() {
  local root="$1" d
  for d in "$root/lib/modules/$vm_kver" "$root/usr/lib/modules/$vm_kver"; do
    [ -d "$d/kernel" ] && { echo "$d"; return; }
  done
  vm_die "no modules directory for $vm_kver under $root"
}

build_initramfs() {
  local out="$vm_kdir/initramfs-$initramfs_key.cpio.gz"
  [ -s "$out" ] && return 0
  vm_log "building the initramfs ($initramfs_key)"
  vm_build_initramfs "$out" /bin/busybox "$init_src" "$(modules_dir "$vm_kdir/root")" "${initramfs_modules[@]}"
}

# Guest tools: compiled with the host's gcc against libdrm into a directory keyed by their
# source, so clones (or worktrees) with different versions sharing the cache never mix them.
build_tools() {
  local key
  key="$(cat "$vm_dir"/tools/*.[ch] | sha256sum | cut -c1-12)"
  tools_dir="$vm_cache/tools/$key"
  if [ ! -x "$tools_dir/drmtool" ]; then
    vm_log "compiling drmtool"
    mkdir -p "$tools_dir"
    # shellcheck disable=SC2046
    gcc -O2 -Wall -Wextra -Werror -o "$tools_dir/drmtool.tmp" "$vm_dir"/tools/*.c \
      $(pkg-config --cflags --libs libdrm)
    mv "$tools_dir/drmtool.tmp" "$tools_dir/drmtool"
  fi
}

if [ -f "$vm_kdir/ready" ]; then
  vm_log "kernel $vm_kver ($vm_kpkgver) with vkms is cached in $vm_kdir"
else
  build_kernel
fi
build_initramfs
build_tools
vm_log "prepare took $(vm_elapsed "$start") s"
echo "KDIR=$vm_kdir"
echo "INITRAMFS=$vm_kdir/initramfs-$initramfs_key.cpio.gz"
echo "TOOLS=$tools_dir"
