#!/usr/bin/env bash
# A real Home Assistant Core for tests/ha/core.py: a Debian 13 root (Home Assistant since
# 2025.2 needs Python 3.13, and `default_entity_id` exists only from 2025.10; Debian 12 has
# 3.11) holding a venv with a pinned homeassistant from PyPI, both made once and cached.
#
#   tests/ha/venv.sh                       makes (once) and prints "ROOT VENV"
#   tests/ha/venv.sh --run DIR COMMAND...  runs COMMAND in the root with the venv's bin on PATH,
#                                          DIR (a host directory) bound at its own path
#
# Cache: ${DIALKIOSK_HA_CACHE:-/var/cache/dialkiosk-ha}
#   root-KEY/          debootstrap --variant=minbase trixie plus python3 and what the venv
#                      needs (ha_packages below; packaging/lib.sh's pkg_make_root; KEY hashes the versions apt resolves
#                      from the package build's cached trixie lists, so new ones make a new root)
#   debs/, home/       the roots' downloaded .debs and HOME (packaging/lib.sh's layout)
#   venv-KEY-haVER/    the venv, bound at that same path inside the root (its scripts name it);
#                      made under a lock, used only once its .ready exists
# Besides homeassistant itself, the venv holds the requirements (pinned by each manifest, under
# Home Assistant's own package_constraints.txt) of every integration Home Assistant sets up for
# the test's configuration: the core's, the default ones it always loads (frontend, http, ...)
# and mqtt (paho-mqtt), with their dependencies. core.py starts hass with --skip-pip, so Home
# Assistant never installs anything at run time. Needs root (debootstrap, chroot, mounts).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../../packaging/lib.sh"

# The newest release that installs on Debian 13's Python 3.13 (2026.3 and later need 3.14).
ha_version=2026.2.3
ha_cache="${DIALKIOSK_HA_CACHE:-/var/cache/dialkiosk-ha}"
# gcc, libc6-dev and python3-dev: a few pinned requirements have no wheel for Python 3.13 on
# PyPI (lru-dict 1.3.0) and are compiled (Home Assistant's own images take them from its index).
ha_packages=(python3 python3-venv python3-dev gcc libc6-dev tzdata)
ha_log() { echo "ha: $*" >&2; }

[ "$(id -u)" = 0 ] || { ha_log "needs root (debootstrap, chroot, mounts)"; exit 77; }
mkdir -p "$ha_cache"
pkg_apt_setup
key="$(pkg_versions "${ha_packages[@]}" | pkg_key homeassistant "${ha_packages[@]}")"
[ -n "$key" ] || pkg_die "cannot resolve ${ha_packages[*]} in Debian $pkg_suite's lists"
root="$ha_cache/root-$key"
# Downloads and the root's HOME in this cache, not the package build's: apt in a root locks its
# archive directory, and a package build may hold that lock for minutes.
pkg_cache="$ha_cache"
mkdir -p "$pkg_cache/debs" "$pkg_cache/home"
venv="$ha_cache/venv-$key-ha$ha_version"

if [ "${1:-}" = --run ]; then
  [ $# -ge 3 ] || { ha_log "--run needs a directory and a command"; exit 64; }
  dir="$2"; shift 2
  [ -f "$root/.ready" ] && [ -f "$venv/.ready" ] || { ha_log "no cached bed yet: run tests/ha/venv.sh first"; exit 69; }
  pkg_in_root "$root" "$venv:$dir" env PATH="$venv/bin:/usr/bin:/bin" LANG=C.UTF-8 HOME=/root "$@"
  exit
fi

t=$(pkg_now)
pkg_make_root "$root" "${ha_packages[@]}" >&2
if [ ! -f "$venv/.ready" ]; then
  exec 9>"$venv.lock"
  flock 9
  if [ ! -f "$venv/.ready" ]; then
    rm -rf "$venv"
    mkdir -p "$venv"
    ha_log "making $venv (homeassistant $ha_version from PyPI)"
    # pip inside the root trusts what the host trusts (a site may intercept TLS with its own CA).
    cert=/etc/ssl/certs/ca-certificates.crt
    [ -f "$cert" ] && cp "$cert" "$venv/ca.crt"
    pkg_in_root "$root" "$venv:$here" bash -euc '
      venv="$1" version="$2" here="$3"
      export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_NO_INPUT=1
      [ -f "$venv/ca.crt" ] && export PIP_CERT="$venv/ca.crt"
      python3 -m venv "$venv"
      "$venv/bin/pip" install -q "homeassistant==$version"
      constraints="$("$venv/bin/python" -c "import homeassistant, os; print(os.path.join(os.path.dirname(homeassistant.__file__), \"package_constraints.txt\"))")"
      "$venv/bin/python" "$here/requirements.py" mqtt >"$venv/requirements.txt"
      "$venv/bin/pip" install -q -c "$constraints" -r "$venv/requirements.txt"
      "$venv/bin/pip" check
    ' bash "$venv" "$ha_version" "$here" >"$venv.log" 2>&1 || { tail -n 30 "$venv.log" >&2; pkg_die "making the Home Assistant venv failed (log: $venv.log)"; }
    date -u +%FT%TZ >"$venv/.ready"
    ha_log "venv ready in $(pkg_elapsed "$t") s: $venv ($(du -sh "$venv" | cut -f1)); requirements: $(tr '\n' ' ' <"$venv/requirements.txt")"
  fi
  flock -u 9
  exec 9>&-
fi
echo "$root $venv"
