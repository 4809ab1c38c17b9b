# Shared pieces of scripts/package.sh, scripts/debian13.sh and the VM bed's Debian 13 root
# (sourced, not run): the cache, a private view of Debian 13's archive, cached roots made with
# debootstrap, and running commands inside a root.
#
# Cache: ${DIALKIOSK_PKG_CACHE:-/var/cache/dialkiosk-pkg}, outside the clone, like the VM bed's.
#   apt/            a private APT configuration and lists for trixie (amd64 + arm64); the host's
#                   apt state is never touched
#   debs/           every .deb downloaded (debootstrap, apt in the roots, the arm64 sysroot)
#   root-<key>/     a trixie root; the key is a hash of the package list and the versions apt
#                   resolves for it, so a new swiftlang (or any other package) makes a new root
set -o pipefail

pkg_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pkg_cache="${DIALKIOSK_PKG_CACHE:-/var/cache/dialkiosk-pkg}"
pkg_mirror="${DIALKIOSK_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
pkg_suite=trixie
# The mirror SwiftPM's git reads github.com addresses from (the host's `git config --system`).
pkg_swift_mirror="${DIALKIOSK_SWIFT_MIRROR:-/opt/swift-packages}"

pkg_log() { echo "package: $*" >&2; }
pkg_die() { echo "package: error: $*" >&2; exit 1; }
pkg_now() { date +%s.%N; }
pkg_elapsed() { awk -v a="$1" -v b="$(pkg_now)" 'BEGIN { printf "%.1f", b - a }'; }

# The packages a build root holds: Debian's Swift, the C libraries' -dev packages, and what the
# test suite calls (git for SwiftPM, python3 and util-linux's setpriv, systemd-analyze, which
# also runs kill and man for the unit's commands and Documentation=, the fonts: the language
# golden pictures draw a CJK label through fontconfig's fallback, fonts-droid-fallback, as on the
# host), Debian 13's own lintian for the packages (package.sh runs the host's too), and debhelper,
# whose helpers write the maintainer scripts' systemd and sysusers parts and the control file
# (packaging/debhelper.sh).
pkg_build_packages=(
  swiftlang pkg-config git ca-certificates
  libdrm-dev libudev-dev libinput-dev libfreetype-dev libharfbuzz-dev libpng-dev libfontconfig-dev
  fonts-dejavu-core fonts-noto-core fonts-droid-fallback python3-minimal procps systemd man-db dpkg-dev file
  lintian debhelper
  libmosquitto-dev mosquitto openssl
  libespeak-ng-dev libasound2-dev espeak-ng
  libsodium-dev
  libyaml-dev
)

# pkg_apt ARGS...: apt-get/apt-cache against trixie with the private configuration.
pkg_apt_setup() {
  local dir="$pkg_cache/apt"
  mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$pkg_cache/debs" "$dir/sources/parts.d"
  [ -f "$dir/status" ] || : >"$dir/status"
  cat >"$dir/sources/trixie.list" <<EOF
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $pkg_mirror $pkg_suite main
EOF
  cat >"$dir/apt.conf" <<EOF
APT::Architecture "amd64";
APT::Architectures { "amd64"; "arm64"; };
Dir::State "$dir";
Dir::State::Lists "$dir/lists";
Dir::State::status "$dir/status";
Dir::Cache "$dir";
Dir::Cache::archives "$pkg_cache/debs";
Dir::Etc::SourceList "$dir/sources/trixie.list";
Dir::Etc::SourceParts "$dir/sources/parts.d";
Dir::Etc::Preferences "$dir/sources/preferences";
Dir::Etc::PreferencesParts "$dir/sources/parts.d";
APT::Sandbox::User "root";
APT::Install-Recommends "false";
Acquire::Languages "none";
DPkg::Lock::Timeout "900";
EOF
  export APT_CONFIG="$dir/apt.conf"
  # Lists are fetched once; DIALKIOSK_PKG_REFRESH=1 (package.sh --refresh) fetches them again,
  # and new versions then make new cache keys.
  if [ "${DIALKIOSK_PKG_REFRESH:-0}" = 1 ] || ! ls "$dir/lists/"*_Packages* >/dev/null 2>&1; then
    pkg_log "fetching Debian $pkg_suite's package lists"
    # apt-get update does not wait for another's lock on the lists (two stages sharing this
    # cache at once, a VM case and a package build): flock makes the second wait its turn.
    flock -w 900 "$dir/update.flock" apt-get -qq update || pkg_die "apt-get update for $pkg_suite failed"
  fi
}

# pkg_versions [ARCH] PACKAGE...: "name=version" of every package in the closure apt would
# install on an empty system, sorted; the input to the cache keys.
pkg_versions() {
  local arch=amd64
  case "$1" in amd64|arm64) arch="$1"; shift ;; esac
  # Resolving takes apt 10-30 s here; the answer only changes with the lists, so it is kept.
  local memo
  memo="$pkg_cache/apt/resolved-$(cat "$pkg_cache/apt/lists/"*InRelease 2>/dev/null | pkg_key "$arch" "$@")"
  if [ ! -s "$memo" ]; then
    apt-get -s -o APT::Architecture="$arch" install "$@" 2>/dev/null \
      | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1=\2/p' | sort >"$memo.tmp"
    mv "$memo.tmp" "$memo"
  fi
  cat "$memo"
}

# pkg_key TEXT...: a short hash of the arguments and stdin.
pkg_key() { { printf '%s\n' "$@"; cat; } | sha256sum | cut -c1-12; }

# pkg_make_root DIR PACKAGE...: a trixie minbase root with PACKAGES, made once (flock'ed,
# written to DIR.tmp and renamed, so a half-made root is never used). With pkg_root_arch=arm64
# the root is arm64's, made through qemu-user (binfmt_misc must run arm64 programs: pkg_binfmt).
pkg_make_root() {
  local root="$1"; shift
  [ -f "$root/.ready" ] && return 0
  command -v debootstrap >/dev/null || pkg_die "debootstrap is missing (scripts/install-deps.sh)"
  mkdir -p "$pkg_cache"
  exec 8>"$root.lock"
  flock 8
  if [ ! -f "$root/.ready" ]; then
    local t; t=$(pkg_now)
    rm -rf "$root.tmp" "$root"
    pkg_log "creating $root (debootstrap $pkg_suite, then ${*})"
    debootstrap --variant=minbase ${pkg_root_arch:+--arch=$pkg_root_arch} --cache-dir="$pkg_cache/debs" "$pkg_suite" "$root.tmp" "$pkg_mirror" \
      >"$root.log" 2>&1 || { tail -n 20 "$root.log" >&2; pkg_die "debootstrap failed (log: $root.log)"; }
    pkg_in_root "$root.tmp" - sh -c 'apt-get -qq update && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"' \
      sh "$@" >>"$root.log" 2>&1 || { tail -n 20 "$root.log" >&2; pkg_die "apt-get install in the root failed (log: $root.log)"; }
    # Lists and caches are not needed afterwards; the .debs stay in $pkg_cache/debs.
    rm -rf "$root.tmp/var/lib/apt/lists/"*_Packages* "$root.tmp/var/cache/apt/"*.bin
    date -u +%FT%TZ >"$root.tmp/.ready"
    mv "$root.tmp" "$root"
    pkg_log "root ready in $(pkg_elapsed "$t") s: $root ($(du -sh "$root" | cut -f1))"
  fi
  flock -u 8
  exec 8>&-
}

# pkg_build_root: makes (once) and prints the build root for the current package versions.
# Call pkg_apt_setup first in the calling shell when apt is used afterwards (APT_CONFIG).
pkg_build_root() {
  [ "${APT_CONFIG:-}" = "$pkg_cache/apt/apt.conf" ] || pkg_apt_setup
  local key
  key="$(pkg_versions "${pkg_build_packages[@]}" | pkg_key "${pkg_build_packages[@]}")"
  [ -n "$key" ] || pkg_die "cannot resolve the build packages in $pkg_suite"
  pkg_make_root "$pkg_cache/root-$key" "${pkg_build_packages[@]}"
  echo "$pkg_cache/root-$key"
}

# pkg_in_root ROOT BINDS COMMAND...: runs COMMAND chrooted into ROOT in a private mount
# namespace (every mount disappears with it), with /proc, /dev, /sys, a tmpfs /tmp, the apt
# cache, SwiftPM's package mirror and its git configuration. BINDS is a colon-separated list of
# host directories bound at the same path inside ("-" for none).
pkg_in_root() {
  local root="$1" binds="$2"; shift 2
  [ -d "$root" ] || pkg_die "no root at $root"
  # The host's insteadOf rules (github.com -> the mirror) as a git config file for the root.
  local gitcfg
  gitcfg="$(git config --system -l 2>/dev/null \
    | sed -n 's/^url\.\(.*\)\.insteadof=\(.*\)$/[url "\1"]\n\tinsteadOf = \2/p')"
  mkdir -p "$pkg_cache/home"
  unshare --mount --fork --propagation private -- bash -euc '
    root="$1" binds="$2" cache="$3" mirror="$4" gitcfg="$5" home="$6"; shift 6
    # The root a mount point of its own, so `mount --make-rprivate /` works inside (the tests).
    mount --bind "$root" "$root"
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --rbind /sys "$root/sys"
    mount -t tmpfs tmpfs "$root/tmp"
    mkdir -p "$root/var/cache/apt/archives"
    mount --bind "$cache" "$root/var/cache/apt/archives"
    # SwiftPM keeps its caches and configuration in $HOME: outside the root, kept between runs.
    mount --bind "$home" "$root/root"
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    if [ -d "$mirror" ]; then
      mkdir -p "$root$mirror"; mount --bind -o ro "$mirror" "$root$mirror"
    fi
    printf "%b\n" "$gitcfg" >"$root/tmp/gitconfig"
    if [ "$binds" != - ]; then
      IFS=: read -ra dirs <<<"$binds"
      for d in "${dirs[@]}"; do mkdir -p "$root$d"; mount --bind "$d" "$root$d"; done
    fi
    exec chroot "$root" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      LANG=C.UTF-8 GIT_CONFIG_GLOBAL=/tmp/gitconfig TERM="${TERM:-dumb}" "$@"
  ' bash "$root" "$binds" "$pkg_cache/debs" "$pkg_swift_mirror" "$gitcfg" "$pkg_cache/home" "$@"
}
