#!/usr/bin/env bash
# Prints the python of a cached venv holding vncdotool (a real RFB client nobody here wrote),
# installed once per version from PyPI into /var/cache/dialkiosk-venv-vncdotool-<version>.
set -euo pipefail
version=1.4.2
dir=/var/cache/dialkiosk-venv-vncdotool-$version
[ -w /var/cache ] || dir=${XDG_CACHE_HOME:-$HOME/.cache}/dialkiosk-venv-vncdotool-$version
if [ ! -x "$dir/bin/python" ] || ! "$dir/bin/python" -c 'import vncdotool' 2>/dev/null; then
  rm -rf "$dir.tmp"
  python3 -m venv "$dir.tmp" >&2
  "$dir.tmp/bin/pip" install -q "vncdotool==$version" >&2
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  # The venv's scripts name the temporary path: fix their shebangs.
  sed -i "1s|$dir.tmp|$dir|" "$dir"/bin/* 2>/dev/null || true
fi
echo "$dir/bin/python"
