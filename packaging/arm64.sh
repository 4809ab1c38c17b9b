# The arm64 Swift SDK for cross-compiling in the trixie build root (sourced by package.sh and
# the arm64 checks). The facts behind it, in short:
#   - the compiler reads the target's .swiftmodule files, so the arm64 swiftlang and
#     libswiftlang must be exactly the root's version;
#   - `dpkg-deb -x` does not make the merged-/usr links, and libc.so's linker script names /lib;
#   - SwiftPM 6.0.3 reads .pc files itself: PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR, not
#     PKG_CONFIG_LIBDIR.

# What the sysroot holds: the C runtime and the -dev packages the link needs, and the font and
# fontconfig's configuration so that `qemu-aarch64 -L SYSROOT` renders like the target.
pkg_arm64_packages=(
  libc6-dev libgcc-14-dev libstdc++-14-dev linux-libc-dev
  libdrm-dev libudev-dev libinput-dev libfreetype-dev libharfbuzz-dev libpng-dev libfontconfig-dev
  libmosquitto-dev
  libespeak-ng-dev libasound2-dev
  libsodium-dev
  libyaml-dev
  fontconfig-config fonts-dejavu-core
)
pkg_sdk_name=trixie-arm64

# pkg_deb_file NAME=VERSION [ARCH]: the downloaded .deb of that package in $pkg_cache/debs
# (ARCH default arm64).
pkg_deb_file() {
  local name="${1%%=*}" version="${1#*=}" arch="${2:-arm64}" f
  version="${version//:/%3a}"
  for f in "$pkg_cache/debs/${name}_${version}_$arch.deb" "$pkg_cache/debs/${name}_${version}_all.deb"; do
    [ -f "$f" ] && { echo "$f"; return 0; }
  done
  pkg_die "no .deb for $1 in $pkg_cache/debs"
}

# pkg_arm64_sdk SWIFT_VERSION: makes (once, keyed by every version in it) and prints the
# directory holding sdks/ (give it to --swift-sdks-path) and sysroot/.
pkg_arm64_sdk() {
  local swift_version="$1" versions key dir
  versions="$(pkg_versions arm64 "${pkg_arm64_packages[@]}")"
  [ -n "$versions" ] || pkg_die "cannot resolve the arm64 packages in $pkg_suite"
  key="$(pkg_key "swiftlang=$swift_version" <<<"$versions")"
  dir="$pkg_cache/arm64-$key"
  if [ -f "$dir/.ready" ]; then echo "$dir"; return 0; fi
  exec 7>"$dir.lock"
  flock 7
  if [ ! -f "$dir/.ready" ]; then
    local t; t=$(pkg_now)
    pkg_log "creating the arm64 sysroot and SDK in $dir"
    rm -rf "$dir"
    local sysroot="$dir/sdks/$pkg_sdk_name.artifactbundle/$pkg_sdk_name/sysroot"
    mkdir -p "$sysroot"
    apt-get -qq -o APT::Architecture=arm64 --download-only -y install "${pkg_arm64_packages[@]}" >/dev/null \
      || pkg_die "downloading the arm64 packages failed"
    (cd "$pkg_cache/debs" && for p in swiftlang libswiftlang; do
       [ -f "${p}_${swift_version//:/%3a}_arm64.deb" ] || apt-get -qq download "$p:arm64=$swift_version"
     done) || pkg_die "downloading swiftlang:arm64=$swift_version failed"
    local line
    while read -r line; do dpkg-deb -x "$(pkg_deb_file "$line")" "$sysroot"; done <<<"$versions"
    dpkg-deb -x "$(pkg_deb_file "libswiftlang=$swift_version")" "$sysroot"
    # Of the compiler package only the target's modules, runtime and clang headers.
    local tmp="$dir/swiftlang"
    dpkg-deb -x "$(pkg_deb_file "swiftlang=$swift_version")" "$tmp"
    local d
    for d in swift swift_static clang; do
      mkdir -p "$sysroot/usr/libexec/swift/lib/$d"
      cp -a "$tmp/usr/libexec/swift/lib/$d/." "$sysroot/usr/libexec/swift/lib/$d/"
    done
    rm -rf "$tmp"
    for d in lib bin sbin; do [ -e "$sysroot/$d" ] || ln -s "usr/$d" "$sysroot/$d"; done
    local bundle="$dir/sdks/$pkg_sdk_name.artifactbundle"
    cat >"$bundle/info.json" <<EOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "$pkg_sdk_name": {
      "type": "swiftSDK",
      "version": "$swift_version",
      "variants": [{ "path": "$pkg_sdk_name" }]
    }
  }
}
EOF
    cat >"$bundle/$pkg_sdk_name/swift-sdk.json" <<EOF
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "aarch64-unknown-linux-gnu": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "sysroot/usr/libexec/swift/lib/swift",
      "swiftStaticResourcesPath": "sysroot/usr/libexec/swift/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
EOF
    # lld comes with swiftlang; giving -fuse-ld=lld to the C compiler too only adds warnings.
    cat >"$bundle/$pkg_sdk_name/toolset.json" <<EOF
{ "schemaVersion": "1.0", "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] } }
EOF
    printf '%s\n' "swiftlang=$swift_version" "$versions" >"$dir/versions"
    date -u +%FT%TZ >"$dir/.ready"
    pkg_log "arm64 SDK ready in $(pkg_elapsed "$t") s ($(du -sh "$dir" | cut -f1))"
  fi
  flock -u 7
  exec 7>&-
  echo "$dir"
}

# pkg_arm64_sysroot DIR: the sysroot inside an SDK directory from pkg_arm64_sdk.
pkg_arm64_sysroot() { echo "$1/sdks/$pkg_sdk_name.artifactbundle/$pkg_sdk_name/sysroot"; }
