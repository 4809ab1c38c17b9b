# A clean Debian 13 (trixie) root for VM cases that install the package (sourced by a case's
# host script after case.sh): no Swift, no compiler, no -dev package. Made once with debootstrap
# (packaging/lib.sh) and cached in the bed's cache, keyed by the versions of what it holds.
# What it holds beyond minbase, and why:
#   systemd systemd-sysv udev kmod   systemd as PID 1, devices, modprobe
#   python3-evdev                    the bed's uinput injector (guest/inject.py)
#   libdrm2                          the bed's drmtool (built on the host against libdrm 2.4)
#   procps                           ps, to see which user the service runs as
source "$vm_repo/packaging/lib.sh"
trixie_packages=(systemd systemd-sysv udev kmod python3-evdev libdrm2 procps)

# trixie_root: makes (once) and prints the root's directory. Call pkg_apt_setup first in the
# case's shell: trixie_fetch_depends needs its APT_CONFIG.
trixie_root() {
  [ "${APT_CONFIG:-}" = "$pkg_cache/apt/apt.conf" ] || pkg_apt_setup
  local key
  key="$(pkg_versions "${trixie_packages[@]}" | pkg_key guest "${trixie_packages[@]}")"
  [ -n "$key" ] || case_fail "cannot resolve the guest root's packages in Debian 13's lists"
  pkg_make_root "$vm_cache/trixie-root-$key" "${trixie_packages[@]}" >&2 \
    || case_fail "making the Debian 13 root failed"
  echo "$vm_cache/trixie-root-$key"
}

# trixie_fetch_depends ROOT DEB DIR [ARCH]: downloads into DIR the .debs that `apt install ./DEB`
# needs on ROOT (its Depends' closure minus what ROOT has), so the offline guest can install them
# with the package; prints their names. ARCH: the root's (default amd64).
trixie_fetch_depends() {
  local root="$1" deb="$2" dir="$3" arch="${4:-amd64}" names line
  # Of alternatives ("systemd | systemd-standalone-sysusers | ..."), the first, as apt picks.
  names="$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/ //g' | sort -u)"
  mkdir -p "$dir"
  apt-get -s -o APT::Architecture="$arch" -o Dir::State::status="$root/var/lib/dpkg/status" install $names 2>/dev/null \
    | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1=\2/p' >"$dir/.list"
  [ -s "$dir/.list" ] || case_fail "apt resolves nothing for $deb's Depends"
  apt-get -qq -o APT::Architecture="$arch" -o Dir::State::status="$root/var/lib/dpkg/status" --download-only -y install $names >/dev/null \
    || case_fail "downloading $deb's dependencies failed"
  while read -r line; do
    local f="$pkg_cache/debs/${line%%=*}_$(sed 's/:/%3a/' <<<"${line#*=}")_"
    cp "$f$arch.deb" "$dir/" 2>/dev/null || cp "$f"all.deb "$dir/" || case_fail "no .deb for $line"
    echo "${line%%=*}"
  done <"$dir/.list"
}
