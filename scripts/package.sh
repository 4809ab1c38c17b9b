#!/usr/bin/env bash
# Makes the Debian packages: dist/dialkiosk_VERSION_ARCH.deb for Debian 13 (trixie) and newer.
#
#   scripts/package.sh [--arch amd64|arm64|all] [--refresh] [--out DIR]
#
#   --arch     amd64 (default), arm64, or both
#   --refresh  fetch Debian 13's package lists again (new versions make new cached roots)
#   --out DIR  where the .debs go (default: dist/ in the clone)
#
# Everything is built with Debian 13's own Swift (swiftlang) in a cached trixie root, arm64 by
# cross-compiling against a sysroot of Debian's arm64 packages (packaging/lib.sh, arm64.sh;
# cache in /var/cache/dialkiosk-pkg). The binary links the Swift runtime from Debian's
# libswiftlang (RUNPATH /usr/libexec/swift/lib/swift/linux). The amd64 binary is always built:
# the man page and the shell completions come from running it. Needs root (debootstrap, chroot).
set -euo pipefail
source "$(dirname "$0")/../packaging/lib.sh"
source "$pkg_repo/packaging/arm64.sh"

arches=(amd64)
out="$pkg_repo/dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --arch)
      case "${2:-}" in
        amd64|arm64) arches=("$2") ;;
        all) arches=(amd64 arm64) ;;
        *) echo "package.sh: --arch takes amd64, arm64 or all, not '${2:-}'" >&2; exit 64 ;;
      esac
      shift ;;
    --refresh) export DIALKIOSK_PKG_REFRESH=1 ;;
    --out) [ $# -ge 2 ] || { echo "package.sh: --out needs a directory" >&2; exit 64; }; out="$2"; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
  esac
  shift
done
[ "$(id -u)" = 0 ] || { echo "package.sh: needs root (debootstrap, chroot, mounts)" >&2; exit 77; }
for tool in dpkg-deb dpkg-parsechangelog lintian; do
  command -v "$tool" >/dev/null || pkg_die "$tool is missing (scripts/install-deps.sh)"
done

debian="$pkg_repo/packaging/debian"
version="$(dpkg-parsechangelog -l "$debian/changelog" -S Version)"
epoch="$(dpkg-parsechangelog -l "$debian/changelog" -S Timestamp)"
runtime_dir=/usr/libexec/swift/lib/swift/linux
# The runtime from libswiftlang instead of the SDK the binary was linked against, and no $ORIGIN
# (SwiftPM adds it for libraries of the package next to the binary; there are none).
# Full RELRO and BIND_NOW as Debian's hardening flags give C programs. Both architectures link
# with lld (the arm64 SDK's toolset does): Swift's default on amd64 is bfd ld, whose output here
# has no PT_GNU_RELRO segment at all, even with -z relro.
link_flags=(--disable-local-rpath -Xswiftc -no-toolchain-stdlib-rpath -Xlinker -rpath -Xlinker "$runtime_dir"
  -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
work="$pkg_repo/.build/package"
mkdir -p "$work" "$out"
out="$(cd "$out" && pwd)"   # absolute: bound into the build root for its lintian
t_all=$(pkg_now)

t=$(pkg_now)
pkg_apt_setup
root="$(pkg_build_root)"
swift_version="$(pkg_in_root "$root" - dpkg-query -W -f='${Version}' swiftlang)"
pkg_log "build root $root (swiftlang $swift_version) in $(pkg_elapsed "$t") s"

# in_root COMMAND...: in the build root with the clone bound at its own path (plus $sdk_dir).
sdk_dir=""
in_root() { pkg_in_root "$root" "$pkg_repo${sdk_dir:+:$sdk_dir}" "$@"; }

# build ARCH: release build of the product; prints the binary's path.
build() {
  local arch="$1" t; t=$(pkg_now)
  local args=(swift build -c release --product dialkiosk --scratch-path "$pkg_repo/.build/pkg-$arch" "${link_flags[@]}")
  local env=()
  if [ "$arch" = amd64 ]; then
    args+=(-Xswiftc -use-ld=lld)
  else
    local sysroot; sysroot="$(pkg_arm64_sysroot "$sdk_dir")"
    args+=(--swift-sdks-path "$sdk_dir/sdks" --swift-sdk "$pkg_sdk_name")
    env=(PKG_CONFIG_PATH="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig"
      PKG_CONFIG_SYSROOT_DIR="$sysroot")
  fi
  in_root env "${env[@]}" bash -c 'cd "$1" && shift && "$@"' bash "$pkg_repo" "${args[@]}" >"$work/build-$arch.log" 2>&1 \
    || { tail -n 30 "$work/build-$arch.log" >&2; pkg_die "the $arch build failed (log: $work/build-$arch.log)"; }
  local bin
  bin="$(in_root bash -c 'cd "$1" && shift && "$@" --show-bin-path' bash "$pkg_repo" "${args[@]}" 2>/dev/null | tail -n1)/dialkiosk"
  pkg_log "$arch build in $(pkg_elapsed "$t") s: $bin"
  echo "$bin"
}

# needed BINARY: the binary's NEEDED entries, sorted; checks that its RUNPATH is Debian's runtime
# directory and nothing else (no directory of the build machine).
needed() {
  local dyn; dyn="$(readelf -d "$1")"
  local runpath; runpath="$(sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p;s/.*(RPATH).*\[\(.*\)\]/RPATH \1/p' <<<"$dyn")"
  [ "$runpath" = "$runtime_dir" ] || pkg_die "$1: RUNPATH is '$runpath', want '$runtime_dir'"
  # lld names the dynamic loader (libc6's) explicitly where bfd ld leaves it to libc.so.
  sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dyn" | grep -v '^ld-linux' | sort
}

t=$(pkg_now)
bin_amd64="$(build amd64)"
needed_amd64="$(needed "$bin_amd64")"

# Depends: dpkg-shlibdeps on the amd64 binary in the root (where every library is a dpkg-installed
# file with symbols). libswiftlang ships no shlibs file and Swift has no stable ABI on Linux, so
# the runtime is pinned to the compiler's upstream version by hand; every NEEDED library must
# then belong to a package in Depends (checked below with dpkg -S).
shlibdeps() {
  local dir="$work/shlibdeps"
  rm -rf "$dir"; mkdir -p "$dir/debian"
  printf 'Source: dialkiosk\n\nPackage: dialkiosk\nArchitecture: any\n' >"$dir/debian/control"
  in_root bash -c 'cd "$1" && dpkg-shlibdeps --ignore-missing-info -O -e"$2" 2>/dev/null' bash "$dir" "$bin_amd64" \
    | sed -n 's/^shlibs:Depends=//p'
}
upstream="${swift_version%-*}"
swift_dep="libswiftlang (>= $swift_version), libswiftlang (<< ${upstream%.*}.$(( ${upstream##*.} + 1 ))~)"
depends="$(shlibdeps)"
[ -n "$depends" ] || pkg_die "dpkg-shlibdeps found no dependencies"
# Libraries the binary opens with dlopen the first time the configuration uses them, rather than
# links (speech, cues, MQTT and fleet signatures; Sources/C*/include/*.h name them,
# DK_*_SONAME). They are not in NEEDED, so dpkg-shlibdeps does not see them: their packages go
# into Recommends here, each with the dependency its shlibs file gives for the SONAME (a minimum
# version for any user of it). Recommends, not Depends: a kiosk without MQTT or speech may leave
# them out (apt installs recommends by default), and the kiosk then says which feature is off and
# which package brings it back.
mapfile -t dlopened < <(sed -n 's/^#define DK_[A-Z]*_SONAME "\(.*\)"$/\1/p' "$pkg_repo"/Sources/C*/include/*.h | sort)
[ "${#dlopened[@]}" -gt 0 ] || pkg_die "no DK_*_SONAME found in Sources/C*/include"
for lib in "${dlopened[@]}"; do
  grep -qaF "$lib" "$bin_amd64" || pkg_die "the binary does not name $lib, which Sources/C*/include says it opens"
done
dlopen_depends="$(in_root bash -c 'for lib; do
    path="$(ls /usr/lib/x86_64-linux-gnu/"$lib" 2>/dev/null | head -n1)"
    [ -n "$path" ] || { echo "MISSING $lib"; continue; }
    owner="$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n1 | cut -d: -f1-2)"
    [ -n "$owner" ] || { echo "UNOWNED $lib"; continue; }
    name="${lib%.so.*}" version="${lib##*.so.}"
    dep="$(dpkg-query --control-show "$owner" shlibs 2>/dev/null \
      | awk -v n="$name" -v v="$version" '"'"'$1 == n && $2 == v { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }'"'"')"
    echo "${dep:-${owner%%:*}}"
  done' bash "${dlopened[@]}")"
recommends=""
while IFS= read -r dep; do
  case "$dep" in MISSING*|UNOWNED*) pkg_die "a library the binary opens is not in a package: $dep" ;; esac
  grep -Eq "(^|, )${dep%% *}( |,|$)" <<<"$depends" && pkg_die "${dep%% *} is both linked and opened with dlopen"
  grep -Eq "(^|, )${dep%% *}( |,|$)" <<<"$recommends" || recommends="${recommends:+$recommends, }$dep"
done <<<"$dlopen_depends"
# What the maintainer scripts call comes from the helpers that write them (misc:Depends, filled
# in by dh_gencontrol: packaging/debhelper.sh); the rest of Depends is packaging/debian/control's.
shlibs_depends="$depends"
depends="$depends, $swift_dep, fonts-dejavu-core"
# Every NEEDED library is a file of a package named in Depends, every library it opens one in
# Recommends.
owners="$(in_root bash -c 'for lib; do
    path="$(ls /usr/lib/x86_64-linux-gnu/"$lib" '"$runtime_dir"'/"$lib" 2>/dev/null | head -n1)"
    [ -n "$path" ] || { echo "MISSING $lib"; continue; }
    dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n1 | cut -d: -f1 || echo "UNOWNED $lib"
  done' bash $needed_amd64 "${dlopened[@]}" | sort -u)"
for o in $owners; do
  case "$o" in MISSING|UNOWNED) pkg_die "a NEEDED library of the binary is not in a package: $owners" ;; esac
  grep -Eq "(^|, )$o( |,|$)" <<<"$depends, $recommends" \
    || pkg_die "NEEDED or opened library of package $o, which neither Depends nor Recommends names: $depends; $recommends"
done
pkg_log "Depends (before debhelper's misc:Depends): $depends"
pkg_log "Recommends: $recommends"

# The man page and completions come from the binary itself (argument-parser generates them).
# generate-manual is argument-parser's plugin tool, built in the root and run on the binary.
docs="$work/docs"
rm -rf "$docs"; mkdir -p "$docs"
in_root bash -c 'cd "$1" && swift build --scratch-path "$1/.build/pkg-amd64" --product generate-manual >/dev/null 2>&1 &&
  tool="$(swift build --scratch-path "$1/.build/pkg-amd64" --show-bin-path)/generate-manual" &&
  "$tool" "$2" --date "$(date -u -d @"$4" +%Y-%m-%d)" --section 1 --output-directory "$3" &&
  "$2" --generate-completion-script bash >"$3/dialkiosk.bash" &&
  "$2" --generate-completion-script zsh >"$3/_dialkiosk"' bash "$pkg_repo" "$bin_amd64" "$docs" "$epoch" \
  || pkg_die "generating the man page and completions failed"
[ -s "$docs/dialkiosk.1" ] || pkg_die "generate-manual wrote no dialkiosk.1"
pkg_log "amd64 binary, Depends, man page and completions in $(pkg_elapsed "$t") s"

# stage ARCH BINARY: the package's tree; prints its directory.
stage() {
  local arch="$1" binary="$2" s="$work/stage-$1"
  rm -rf "$s"
  install -d -m 0755 "$s/usr/bin" "$s/usr/lib/udev/rules.d" \
    "$s/usr/share/dialkiosk" "$s/usr/share/man/man1" "$s/usr/share/man/man5" "$s/usr/share/bash-completion/completions" \
    "$s/usr/share/zsh/vendor-completions" "$s/usr/share/doc/dialkiosk" "$s/usr/share/lintian/overrides"
  local strip=strip
  [ "$arch" = arm64 ] && strip=aarch64-linux-gnu-strip
  # What dh_strip does to an executable.
  "$strip" --remove-section=.comment --remove-section=.note -o "$s/usr/bin/dialkiosk" "$binary"
  chmod 0755 "$s/usr/bin/dialkiosk"
  # systemd/ is the source; the unit there names the binary by install.sh's default prefix.
  # dh_installsystemd installs it (packaging/debhelper.sh).
  local unit="$work/dialkiosk.service"
  sed 's#/usr/local/bin/dialkiosk#/usr/bin/dialkiosk#g' "$pkg_repo/systemd/dialkiosk.service" >"$unit"
  grep -q '^ExecStart=/usr/bin/dialkiosk ' "$unit" || pkg_die "the unit's ExecStart does not name /usr/bin/dialkiosk after the rewrite"
  local page
  for page in $(sed -n 's/^Documentation=//p' "$unit"); do
    case "$page" in
      man:*) page="${page#man:}"; page="${page%)}"; page="${page%(*}.${page##*(}"
        [ -f "$docs/$page" ] || [ -f "$pkg_repo/docs/man/$page" ] \
          || pkg_die "the unit's Documentation= names man:$page, which the package does not ship" ;;
    esac
  done
  # usr/lib/sysusers.d/dialkiosk.conf is dh_installsysusers' (packaging/debhelper.sh).
  install -m 0644 "$pkg_repo/packaging/udev/70-dialkiosk-backlight.rules" "$s/usr/lib/udev/rules.d/70-dialkiosk-backlight.rules"
  # What postinst sources: the steps it shares with scripts/install.sh.
  install -D -m 0644 "$pkg_repo/packaging/system-setup.sh" "$s/usr/lib/dialkiosk/system-setup.sh"
  # The example configuration, outside /etc: postinst copies it to /etc/dialkiosk/config.yaml
  # when that is missing. The configuration is the administrator's file, not a conffile, so an
  # edited one never stops an upgrade with a prompt (nor makes unattended-upgrades hold it back).
  install -m 0644 "$pkg_repo/systemd/dialkiosk.yaml" "$s/usr/share/dialkiosk/config.yaml"
  gzip -9n <"$docs/dialkiosk.1" >"$s/usr/share/man/man1/dialkiosk.1.gz"
  # The configuration's page is written by hand (ConfigReferenceTests checks it names every key).
  gzip -9n <"$pkg_repo/docs/man/dialkiosk.yaml.5" >"$s/usr/share/man/man5/dialkiosk.yaml.5.gz"
  # The reference documents, compressed as dh_compress does.
  local doc
  for doc in "$pkg_repo"/docs/*.md; do gzip -9n <"$doc" >"$s/usr/share/doc/dialkiosk/$(basename "$doc").gz"; done
  # bash-completion sources the file: no #! line (argument-parser writes one).
  sed '1{/^#!/d}' "$docs/dialkiosk.bash" >"$s/usr/share/bash-completion/completions/dialkiosk"
  install -m 0644 "$docs/_dialkiosk" "$s/usr/share/zsh/vendor-completions/_dialkiosk"
  install -m 0644 "$debian/copyright" "$s/usr/share/doc/dialkiosk/copyright"
  # The unit's drop-ins (docs/operations.md): the broker's addresses, the remote view's loopback.
  install -D -m 0644 "$pkg_repo/examples/mqtt.conf" "$s/usr/share/doc/dialkiosk/examples/mqtt.conf"
  install -D -m 0644 "$pkg_repo/examples/remote-tcp.conf" "$s/usr/share/doc/dialkiosk/examples/remote-tcp.conf"
  gzip -9n <"$debian/changelog" >"$s/usr/share/doc/dialkiosk/changelog.gz"
  install -m 0644 "$debian/lintian-overrides" "$s/usr/share/lintian/overrides/dialkiosk"
  chmod 0644 "$s"/usr/share/man/man1/*.gz "$s"/usr/share/man/man5/*.gz "$s"/usr/share/doc/dialkiosk/*.gz "$s/usr/share/bash-completion/completions/dialkiosk"
  # No conffiles: the package ships nothing under /etc.
  [ -z "$(find "$s" -path "$s/etc*" -print)" ] || pkg_die "the package would ship files under /etc"
  # The maintainer scripts, md5sums and control file from debhelper's helpers, in the root.
  in_root bash "$pkg_repo/packaging/debhelper.sh" "$s" "$arch" "$unit" "shlibs:Depends=$shlibs_depends" "swift:Depends=$swift_dep" \
    "dlopen:Recommends=$recommends" >"$work/debhelper-$arch.log" 2>&1 \
    || { cat "$work/debhelper-$arch.log" >&2; pkg_die "debhelper's helpers failed for $arch"; }
  [ -f "$s/DEBIAN/postinst" ] && [ -f "$s/DEBIAN/prerm" ] && [ -f "$s/DEBIAN/postrm" ] && [ -f "$s/DEBIAN/control" ] \
    || pkg_die "debhelper wrote no postinst, prerm, postrm or control into $s/DEBIAN"
  cmp -s "$unit" "$s/usr/lib/systemd/system/dialkiosk.service" || pkg_die "debhelper did not install the unit as usr/lib/systemd/system/dialkiosk.service"
  grep -q 'deb-systemd-invoke try-restart' "$s/DEBIAN/postinst" && grep -q 'systemd-sysusers' "$s/DEBIAN/postinst" \
    && grep -q 'deb-systemd-invoke stop' "$s/DEBIAN/prerm" || pkg_die "debhelper's systemd and sysusers snippets are missing"
  [ ! -e "$s/DEBIAN/conffiles" ] || pkg_die "debhelper made conffiles: $(cat "$s/DEBIAN/conffiles")"
  grep -q '^#DEBHELPER#' "$s"/DEBIAN/p*inst "$s"/DEBIAN/p*rm && pkg_die "#DEBHELPER# left in a maintainer script"
  [ ! -e "$s/DEBIAN/preinst" ] || pkg_die "debhelper wrote a preinst (a stop before the upgrade, then a second start?)"
  [ "$(sed -n 's/^Architecture: //p' "$s/DEBIAN/control")" = "$arch" ] \
    || pkg_die "the control file names another architecture than $arch"
  # Reproducible: every file dated by the changelog.
  find "$s" -exec touch -h -d "@$epoch" {} +
  echo "$s"
}

for arch in "${arches[@]}"; do
  t=$(pkg_now)
  binary="$bin_amd64"
  if [ "$arch" = arm64 ]; then
    command -v aarch64-linux-gnu-strip >/dev/null || pkg_die "aarch64-linux-gnu-strip is missing (scripts/install-deps.sh)"
    sdk_dir="$(pkg_arm64_sdk "$swift_version")"
    binary="$(build arm64)"
    # Depends was computed for amd64: the arm64 binary must link exactly the same libraries.
    needed_arm64="$(needed "$binary")"
    [ "$needed_arm64" = "$needed_amd64" ] || pkg_die "the arm64 binary links other libraries than the amd64 one:
$(diff <(echo "$needed_amd64") <(echo "$needed_arm64"))"
  fi
  s="$(stage "$arch" "$binary")"
  deb="$out/dialkiosk_${version}_$arch.deb"
  SOURCE_DATE_EPOCH="$epoch" dpkg-deb --root-owner-group -Zxz --build "$s" "$deb" >/dev/null
  pkg_log "$arch: $deb ($(stat -c %s "$deb") bytes; binary $(stat -c %s "$s/usr/bin/dialkiosk") bytes stripped) in $(pkg_elapsed "$t") s"
  pkg_log "$arch: Depends: $(dpkg-deb -f "$deb" Depends)"
  # lintian's errors fail the build; its warnings are printed (the kept ones are overridden
  # with their reasons in packaging/debian/lintian-overrides). Twice: the host's (Debian 12's)
  # and Debian 13's own, in the build root, whose checks match the release the package is for.
  for where in host trixie; do
    rc=0
    if [ "$where" = host ]; then
      lint="$(lintian --no-cfg --fail-on error "$deb" 2>&1)" || rc=$?
      lint_version="$(lintian --version)"
    else
      lint="$(pkg_in_root "$root" "$out" lintian --no-cfg --fail-on error "$deb" 2>&1)" || rc=$?
      lint_version="$(pkg_in_root "$root" - lintian --version)"
    fi
    lint="$(grep -v '^running with root privileges' <<<"$lint" || true)"
    pkg_log "$arch: $lint_version ($where): ${lint:-clean}"
    [ "$rc" = 0 ] || pkg_die "$lint_version reports errors for $deb"
  done
done
pkg_log "done in $(pkg_elapsed "$t_all") s: $(cd "$out" && ls dialkiosk_"${version}"_*.deb | tr '\n' ' ')"
