#!/usr/bin/env bash
# Builds or tests a source tree with Debian 13's own Swift (swiftlang 6.0.3), inside the cached
# trixie root that scripts/package.sh builds the packages in. Checks that a tree still works with
# the oldest supported toolchain without installing it on the host.
#
#   scripts/debian13.sh [--tree DIR] build [SWIFT BUILD ARGS...]   # swift build
#   scripts/debian13.sh [--tree DIR] test  [SWIFT TEST ARGS...]    # swift test (the default)
#   scripts/debian13.sh [--tree DIR] shell                         # a shell in the root
#
# DIR defaults to this clone. The build goes to DIR/.build/debian13 (its own scratch path, so the
# host's 6.3 build in DIR/.build is untouched). The first run creates the root (debootstrap and
# swiftlang: a few minutes and ~1.9 GB in /var/cache/dialkiosk-pkg); later runs reuse it.
set -euo pipefail
source "$(dirname "$0")/../packaging/lib.sh"

tree="$pkg_repo"
if [ "${1:-}" = --tree ]; then
  [ $# -ge 2 ] || { echo "debian13.sh: --tree needs a directory" >&2; exit 64; }
  tree="$2"; shift 2
fi
mode="${1:-test}"
[ $# -gt 0 ] && shift
case "$mode" in
  build|test|shell) ;;
  -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "debian13.sh: unknown mode '$mode' (build, test or shell)" >&2; exit 64 ;;
esac
[ -f "$tree/Package.swift" ] || { echo "debian13.sh: no Package.swift in $tree" >&2; exit 66; }
tree="$(cd "$tree" && pwd)"
[ "$(id -u)" = 0 ] || { echo "debian13.sh: needs root (debootstrap, chroot, mounts)" >&2; exit 77; }

root="$(pkg_build_root)"
pkg_log "Swift in the root: $(pkg_in_root "$root" - swift --version 2>&1 | head -n1)"
if [ "$mode" = shell ]; then
  pkg_in_root "$root" "$tree" bash -c 'cd "$1" && exec bash -i' bash "$tree"; exit
fi
# The tree is bound at its own path, so messages name the host's files.
pkg_in_root "$root" "$tree" bash -c 'cd "$1" && shift && exec swift "$@" --scratch-path .build/debian13' \
  bash "$tree" "$mode" "$@"
