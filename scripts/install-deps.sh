#!/usr/bin/env bash
# Installs what building, testing and the VM test bed need on Debian 12. Idempotent.
# Usage: sudo scripts/install-deps.sh
set -euo pipefail

packages=(
  # headers for the C modules (Package.swift names them as providers too)
  pkg-config libdrm-dev libudev-dev libinput-dev
  libfreetype-dev libharfbuzz-dev libpng-dev libfontconfig-dev
  # libyaml's parser for the configuration and libinput records (Sources/CYAML, YAMLTree)
  libyaml-dev
  # fonts: DejaVu Sans is the default; the others cover scripts DejaVu lacks (Devanagari)
  fonts-dejavu-core fonts-noto-core
  # ... and a small CJK font (4 MB; fonts-noto-cjk is 100 MB+) for Chinese and Japanese labels
  # through fontconfig's fallback, which the language golden pictures show
  fonts-droid-fallback
  # the VM test bed: qemu under TCG, a busybox initramfs, module tools, a uinput injector
  qemu-system-x86 busybox-static cpio kmod python3-evdev
  # ... vkms.ko built out of tree and the guest tools (gcc + libdrm-dev), xz for linux-source,
  # udev and libinput debug-events inside the guest (which runs the host's root)
  gcc make libc6-dev xz-utils udev libinput-tools
  # ... cec-ctl and cec-follower, the TV side of the HDMI-CEC case (tests/vm/cases/cec-power);
  # linux/cec.h itself comes with linux-libc-dev (libc6-dev)
  v4l-utils
  # systemd-analyze verify/security for the unit
  systemd
  # the boot splash the unit takes over from (the VM case boot-handover; its script plugin and
  # DRM renderer show the theme `dialkiosk splash` writes)
  plymouth
  # the Debian packages (scripts/package.sh): a Debian 13 root, the .deb tools, the arm64 strip,
  # and qemu user mode for the arm64 checks (packaging/check-arm64.sh); debootstrap also makes
  # the Debian 13 root Home Assistant Core runs in (tests/ha/venv.sh: Python 3.13)
  debootstrap dpkg-dev lintian binutils-aarch64-linux-gnu qemu-user-static
  # debhelper: Tests/PackagingTests/MaintainerScriptTests write the maintainer scripts with its
  # helpers (packaging/debhelper.sh) as the package build does in its Debian 13 root
  debhelper
  # the arm64 VM case (tests/vm/cases/arm64-kiosk): qemu-system-aarch64, and the bed's drmtool
  # cross-compiled for the arm64 guest
  qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  # ... its cached arm64 root with the package's dependencies: mmdebstrap (apt on the host, dpkg
  # through qemu-user-static's binfmt_misc entry, which the case registers if the host has not)
  # arch-test, with which mmdebstrap checks that arm64 programs run here, and gpg for its keyring
  # (both only recommended by mmdebstrap)
  mmdebstrap arch-test gpg
  # MQTT: libmosquitto's headers; the broker, mosquitto_passwd and the CLI clients for
  # the real-broker tests; openssl makes their TLS certificate
  libmosquitto-dev mosquitto mosquitto-clients openssl
  # speech and sound cues: espeak-ng and ALSA headers, the voices (also for the VM
  # guest, which runs the host's root), espeak-ng for the synthesis test, aplay/arecord
  libespeak-ng-dev libasound2-dev espeak-ng espeak-ng-data alsa-utils
  # the remote view: zlib's headers (ZRLE, Tight); noVNC, which `preview` serves; headless
  # chromium and chromedriver for the browser test; python3-venv for vncdotool's cached venv
  zlib1g-dev novnc chromium chromium-driver python3-venv
  # TigerVNC's own viewer under Xvfb against the RFB listener (tests/remote/tigervnc.py), its
  # window grabbed with xwd and located with xwininfo (x11-apps, x11-utils), cut by convert
  tigervnc-viewer xvfb x11-apps x11-utils imagemagick
  # signed fleet configurations (docs/fleet.md): libsodium's header (Ed25519, BLAKE2b, scrypt,
  # SHA-256; the library is opened with dlopen, like libmosquitto); minisign, the format's own
  # tool, which tests/fleet/minisign.py and tests/mqtt/fleet-config.py sign and verify with
  libsodium-dev minisign
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
