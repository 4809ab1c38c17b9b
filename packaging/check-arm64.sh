#!/usr/bin/env bash
# The arm64 package's proof without arm64 hardware: both .debs from dist/ are unpacked, each into
# a root holding only the packages its Depends pull in from Debian 13 (nothing of the build
# machine), the amd64 binary is run there with chroot and the arm64 one with qemu-aarch64 user
# mode (-L that root); then render, simulate and check-config must agree:
#   - render: the same pictures (per-channel difference at most 1);
#   - simulate: the same event lines on examples/fling.jsonl and on generated gesture loads;
#   - check-config: the same output and exit status on the example and the broken fixtures.
# Prints one line per check and "arm64: N passed, M failed"; exits non-zero on any failure.
#
#   packaging/check-arm64.sh [DIST_DIR]       (default dist/; run scripts/package.sh --arch all first)
set -uo pipefail
source "$(dirname "$0")/lib.sh"
source "$pkg_repo/packaging/arm64.sh"

dist="${1:-$pkg_repo/dist}"
version="$(dpkg-parsechangelog -l "$pkg_repo/packaging/debian/changelog" -S Version)"
work="$pkg_repo/.build/package/check"
command -v qemu-aarch64-static >/dev/null || pkg_die "qemu-aarch64-static is missing (scripts/install-deps.sh)"
[ "$(id -u)" = 0 ] || pkg_die "needs root (chroot)"
pkg_apt_setup

# runtime_root ARCH: DIR with the .deb and its Depends' closure unpacked (dpkg-deb -x; arm64
# maintainer scripts cannot run here, and none of these libraries needs one to be loadable).
runtime_root() {
  local arch="$1" deb="$dist/dialkiosk_${version}_$1.deb" rt="$work/root-$1"
  [ -f "$deb" ] || pkg_die "no $deb (scripts/package.sh --arch all)"
  local names
  # Libraries only: the alternatives (the sysusers provider postinst calls) are for maintainer
  # scripts, which do not run here.
  names="$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | grep -v '|' | sed 's/(.*//; s/ //g' | sort -u)"
  local versions; versions="$(pkg_versions "$arch" $names)"
  apt-get -qq -o APT::Architecture="$arch" --download-only -y install $names >/dev/null \
    || pkg_die "downloading the $arch dependencies failed"
  rm -rf "$rt"; mkdir -p "$rt"
  local line
  while read -r line; do dpkg-deb -x "$(pkg_deb_file "$line" "$arch")" "$rt"; done <<<"$versions"
  dpkg-deb -x "$deb" "$rt"
  for d in lib lib64 bin sbin; do [ -e "$rt/$d" ] || ln -s "usr/$d" "$rt/$d"; done
  echo "$rt"
}

rt_amd64="$(runtime_root amd64)"
rt_arm64="$(runtime_root arm64)"
pkg_log "roots: $(du -sh "$rt_amd64" | cut -f1) amd64, $(du -sh "$rt_arm64" | cut -f1) arm64 (the Depends closures)"

# run ARCH ARGS...: dialkiosk from that root. The clone is bound at its own path into the amd64
# root so that both see the same file names; qemu's -L only redirects paths that exist in the
# root, which the clone's do not.
run() {
  local arch="$1"; shift
  if [ "$arch" = amd64 ]; then
    # Swift's runtime reads the arguments from /proc/self/cmdline.
    unshare --mount --fork -- bash -c 'mkdir -p "$1$2" "$1/proc" && mount --bind "$2" "$1$2" &&
      mount -t proc proc "$1/proc" && r="$1" && shift 2 &&
      exec env -i HOME=/nonexistent XDG_CACHE_HOME=/tmp LANG=C.UTF-8 /usr/sbin/chroot "$r" /usr/bin/dialkiosk "$@"' \
      bash "$rt_amd64" "$pkg_repo" "$@"
  else
    env -i HOME=/nonexistent XDG_CACHE_HOME=/tmp LANG=C.UTF-8 qemu-aarch64-static -L "$rt_arm64" "$rt_arm64/usr/bin/dialkiosk" "$@"
  fi
}
mkdir -p "$rt_amd64/tmp" "$rt_arm64/tmp"

passed=0 failed=0
check() { if [ "$1" = ok ]; then passed=$((passed + 1)); echo "PASS $2"; else failed=$((failed + 1)); echo "FAIL $2: $3"; fi; }

# same NAME ARGS...: both architectures' stdout, stderr and exit status must be identical.
same() {
  local name="$1"; shift
  local a="$work/out/$name" ; mkdir -p "$a"
  run amd64 "$@" >"$a/amd64.out" 2>"$a/amd64.err"; echo $? >"$a/amd64.status"
  run arm64 "$@" >"$a/arm64.out" 2>"$a/arm64.err"; echo $? >"$a/arm64.status"
  local diffs
  diffs="$(for f in out err status; do cmp -s "$a/amd64.$f" "$a/arm64.$f" || echo "$f"; done | tr '\n' ' ')"
  if [ -z "$diffs" ]; then
    check ok "$name (status $(cat "$a/amd64.status"), $(wc -l <"$a/amd64.out") lines)"
  else
    check fail "$name" "differs in $diffs(see $a)"
  fi
}

# picture NAME RENDER_ARGS...: both render; the PNGs may differ by at most 1 per channel.
picture() {
  local name="$1"; shift
  local a="$work/out/render-$name"; rm -rf "$a"; mkdir -p "$a"
  if ! run amd64 render "$@" --out "$a/amd64.png" >"$a/log" 2>&1 || ! run arm64 render "$@" --out "$a/arm64.png" >>"$a/log" 2>&1; then
    check fail "render $name" "render failed: $(tail -n1 "$a/log")"; return
  fi
  if cmp -s "$a/amd64.png" "$a/arm64.png"; then check ok "render $name (byte-identical)"; return; fi
  local d; d="$(python3 "$pkg_repo/packaging/pngdiff.py" "$a/amd64.png" "$a/arm64.png")" \
    || { check fail "render $name" "the PNGs cannot be compared"; return; }
  if [ "$d" -le 1 ]; then check ok "render $name (largest channel difference $d)"; else check fail "render $name" "a channel differs by $d"; fi
}

picture demo-800x480 --size 800x480
picture items24-1920x1080-rot90 --size 1920x1080 --items 24 --rotate 90 --show-progress 0.5
picture config-1024x600-angle --size 1024x600 --angle 1.3 --config "$pkg_repo/systemd/dialkiosk.yaml"

same simulate-fling simulate --script "$pkg_repo/examples/fling.jsonl"
same simulate-fling-jitter simulate --script "$pkg_repo/examples/fling.jsonl" --jitter 4 --seed 7 --refresh 144
for seed in 1 2 3; do
  same "simulate-gestures-seed$seed" simulate --generate-frames 900 --seed "$seed" --items 12
done

same check-config-example check-config "$pkg_repo/systemd/dialkiosk.yaml"
same check-config-missing check-config "$work/no-such-config.yaml"
for f in "$pkg_repo"/Tests/DialKioskAppTests/Fixtures/bad-configs/*.yaml; do
  same "check-config-$(basename "$f" .yaml)" check-config "$f"
done
# The runs must have done something: the fling selects, the example validates, a broken file is 78.
grep -q '"selected"' "$work/out/simulate-fling/amd64.out" || check fail "simulate-fling" "no selected event at all"
[ "$(cat "$work/out/check-config-example/amd64.status")" = 0 ] || check fail "check-config-example" "the example config does not validate"
[ "$(cat "$work/out/check-config-color-word/amd64.status")" = 78 ] || check fail "check-config-color-word" "not exit status 78"

echo "arm64: $passed passed, $failed failed"
[ "$failed" = 0 ]
