#!/usr/bin/env bash
# Reverses a source install by scripts/install.sh: stops and disables the service, removes the
# binary, the unit and the sysusers file, and reloads systemd. /etc/dialkiosk (your
# configuration) and /var/cache/dialkiosk stay unless --purge is given. The dialkiosk user stays (removing a system user
# can orphan files it owns). A package goes with `apt remove dialkiosk` (or `apt purge`).
#
#   sudo scripts/uninstall.sh [--purge]
# Environment: PREFIX and DESTDIR as given to install.sh.
set -euo pipefail

PREFIX="${PREFIX:-/usr/local}"
DESTDIR="${DESTDIR:-}"
purge=0

while [ $# -gt 0 ]; do
  case "$1" in
    --purge) purge=1 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "uninstall.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
  esac
  shift
done

PREFIX="${PREFIX%/}"
case "$PREFIX" in
  /*) ;;
  *) echo "uninstall.sh: PREFIX must be an absolute path, not '$PREFIX'" >&2; exit 64 ;;
esac
case "$PREFIX" in
  /usr|/usr/local) unitdir="$PREFIX/lib/systemd/system"; sysusersdir="$PREFIX/lib/sysusers.d" ;;
  *) unitdir="/etc/systemd/system"; sysusersdir="/etc/sysusers.d" ;;
esac
systemd_running() { [ -z "$DESTDIR" ] && [ -d /run/systemd/system ]; }

if [ -e "$DESTDIR$unitdir/dialkiosk.service" ]; then
  if systemd_running; then
    systemctl disable --now dialkiosk.service || true
  else
    systemctl --root="${DESTDIR:-/}" disable dialkiosk.service || true
  fi
fi

rm -f "$DESTDIR$PREFIX/bin/dialkiosk" "$DESTDIR$unitdir/dialkiosk.service" "$DESTDIR$sysusersdir/dialkiosk.conf" \
  "$DESTDIR$PREFIX/share/man/man5/dialkiosk.yaml.5"
case "$PREFIX" in
  /usr) rm -f "$DESTDIR/usr/lib/udev/rules.d/70-dialkiosk-backlight.rules" ;;
  *) rm -f "$DESTDIR/etc/udev/rules.d/70-dialkiosk-backlight.rules" ;;
esac

if [ "$purge" = 1 ]; then
  rm -rf "$DESTDIR/etc/dialkiosk"
  # The unit's CacheDirectory= (fontconfig's cache) and the RuntimeDirectory= that
  # RuntimeDirectoryPreserve=yes keeps after the stop (the backlight's value to restore), and
  # the StateDirectory= of pushed fleet configurations.
  rm -rf "$DESTDIR/var/cache/dialkiosk" "$DESTDIR/run/dialkiosk" "$DESTDIR/var/lib/dialkiosk"
else
  [ -d "$DESTDIR/etc/dialkiosk" ] && echo "uninstall.sh: kept /etc/dialkiosk (use --purge to remove it)"
fi

if systemd_running; then
  systemctl daemon-reload
  systemctl reset-failed dialkiosk.service 2>/dev/null || true
fi
echo "uninstall.sh: done"
