#!/usr/bin/env bash
# Installs DialKiosk as a systemd service: a package made by scripts/package.sh (Debian 13 and
# newer: the way onto a kiosk), or a build from source (Debian 12, development machines).
#
#   sudo scripts/install.sh dist/dialkiosk_VERSION_ARCH.deb   # apt-get install of the package
#   sudo scripts/install.sh            # build, install, create the user, reload systemd
#   sudo scripts/install.sh --enable   # ... and enable and start dialkiosk.service
#
# Options (source installs):
#   --enable         also `systemctl enable --now dialkiosk.service`
#   --binary PATH    install this binary instead of building (packaging, tests)
# Environment:
#   PREFIX=/usr/local  where bin/dialkiosk goes; the unit and sysusers file go to
#                      $PREFIX/lib/{systemd/system,sysusers.d} for /usr and /usr/local, else to /etc.
#                      An absolute path of letters, digits and / . _ + - only (else status 64)
#   DESTDIR=           staging root: nothing outside it is touched, no user is created and
#                      systemd is not asked to reload (`--enable` only creates the symlink)
# Works whether or not systemd is running (containers, image builds): steps that need a
# running systemd are skipped with a note.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
enable=0
binary=""

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }

# A package: apt installs it with its dependencies, and its maintainer scripts create the user
# and enable and start the unit. PREFIX, DESTDIR and the other options belong to source installs.
if [[ "${1:-}" == *.deb ]]; then
  [ $# -eq 1 ] && [ -z "$DESTDIR" ] || { echo "install.sh: a .deb is installed alone, without options or DESTDIR" >&2; exit 64; }
  [ -f "$1" ] || { echo "install.sh: no package at $1" >&2; exit 66; }
  deb="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  echo "install.sh: apt-get install $deb"
  DEBIAN_FRONTEND=noninteractive exec apt-get install -y "$deb"
fi

while [ $# -gt 0 ]; do
  case "$1" in
    --enable) enable=1 ;;
    --binary) [ $# -ge 2 ] || { echo "install.sh: --binary needs a path" >&2; exit 64; }; binary="$2"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
  esac
  shift
done

case "$PREFIX" in
  /*) ;;
  *) echo "install.sh: PREFIX must be an absolute path, got '$PREFIX'" >&2; exit 64 ;;
esac
# PREFIX goes into a sed replacement and into the unit's ExecStart=, where a space splits the
# command line, % is a specifier, $ and \ expand, quotes quote, and &, # and \ mean something to
# sed. Only characters that are plain text in all of them are accepted, before anything is
# touched: refusing beats a unit that starts something else.
if ! [[ "$PREFIX" =~ ^/[A-Za-z0-9._+/-]*$ ]]; then
  printf "install.sh: PREFIX may hold only letters, digits and / . _ + - (it goes into the unit's ExecStart=), got %q\n" "$PREFIX" >&2
  exit 64
fi
PREFIX="${PREFIX%/}"
case "$PREFIX" in
  /usr|/usr/local) unitdir="$PREFIX/lib/systemd/system"; sysusersdir="$PREFIX/lib/sysusers.d" ;;
  *) unitdir="/etc/systemd/system"; sysusersdir="/etc/sysusers.d" ;;
esac
# udev reads rules from /usr/lib and /etc only, never from /usr/local.
case "$PREFIX" in
  /usr) udevdir="/usr/lib/udev/rules.d" ;;
  *) udevdir="/etc/udev/rules.d" ;;
esac
bindir="$PREFIX/bin"
confdir="/etc/dialkiosk"

# The user, the backlight rule and the enabling: the steps the package's postinst takes too.
# shellcheck source=packaging/system-setup.sh
. "$here/packaging/system-setup.sh"

# systemd is the init system and running (sd_booted(3)'s test); DESTDIR installs never touch it.
systemd_running() { [ -z "$DESTDIR" ] && [ -d /run/systemd/system ]; }

if [ -z "$binary" ]; then
  source "$here/scripts/swift-path.sh"
  echo "install.sh: building (swift build -c release)"
  (cd "$here" && swift build -c release --product dialkiosk)
  binary="$(cd "$here" && swift build -c release --show-bin-path)/dialkiosk"
fi
[ -x "$binary" ] || { echo "install.sh: no executable at $binary" >&2; exit 66; }

echo "install.sh: installing into ${DESTDIR:-/} with PREFIX=$PREFIX"
install -d -m 0755 "$DESTDIR$bindir" "$DESTDIR$unitdir" "$DESTDIR$sysusersdir" "$DESTDIR$confdir"
install -m 0755 "$binary" "$DESTDIR$bindir/dialkiosk"
# The unit names the binary by its installed path.
# (PREFIX holds no character special to sed or systemd: checked above.) The temporary file goes
# if anything fails before it is renamed.
unit_tmp="$DESTDIR$unitdir/dialkiosk.service.tmp"
trap 'rm -f "$unit_tmp"' EXIT
sed "s#/usr/local/bin/dialkiosk#$bindir/dialkiosk#g" "$here/systemd/dialkiosk.service" > "$unit_tmp"
chmod 0644 "$unit_tmp"
mv -f "$unit_tmp" "$DESTDIR$unitdir/dialkiosk.service"
install -m 0644 "$here/systemd/dialkiosk.conf" "$DESTDIR$sysusersdir/dialkiosk.conf"
install -D -m 0644 "$here/docs/man/dialkiosk.yaml.5" "$DESTDIR$PREFIX/share/man/man5/dialkiosk.yaml.5"
install -d -m 0755 "$DESTDIR$udevdir"
install -m 0644 "$here/packaging/udev/70-dialkiosk-backlight.rules" "$DESTDIR$udevdir/70-dialkiosk-backlight.rules"
if [ -e "$DESTDIR$confdir/config.yaml" ]; then
  echo "install.sh: keeping the existing $confdir/config.yaml"
else
  install -m 0644 "$here/systemd/dialkiosk.yaml" "$DESTDIR$confdir/config.yaml"
fi

if [ -z "$DESTDIR" ]; then
  # systemd-sysusers works without a running systemd (it only edits /etc/passwd and /etc/group).
  dk_create_user "$sysusersdir/dialkiosk.conf"
  dk_trigger_backlights
  "$bindir/dialkiosk" check-config "$confdir/config.yaml" ||
    echo "install.sh: warning: $confdir/config.yaml does not validate; the service will exit with status 78" >&2
fi

if systemd_running; then
  systemctl daemon-reload
else
  echo "install.sh: systemd is not running here (or DESTDIR is set): skipped daemon-reload"
fi

if [ "$enable" = 1 ]; then
  if systemd_running; then
    dk_enable_unit source
    systemctl start dialkiosk.service
    systemctl --no-pager --lines=0 status dialkiosk.service || true
  else
    dk_enable_unit source "${DESTDIR:-/}"
    echo "install.sh: enabled; it starts at the next boot (systemd is not running here)"
  fi
fi
echo "install.sh: done. Logs and events: journalctl -u dialkiosk -o cat"
