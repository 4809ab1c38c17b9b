#!/usr/bin/env bash
# The package's maintainer scripts, md5sums and control file, written by debhelper's own helpers
# into a staged tree (scripts/package.sh stages it and runs this in the build root, where
# debhelper is; the tests run it with the host's debhelper):
#
#   packaging/debhelper.sh TREE ARCH UNIT [SUBSTVAR=VALUE]...
#
# TREE is the package's file tree (what dpkg-deb builds; TREE/DEBIAN is written here), ARCH the
# Debian architecture, UNIT the service file to ship, the substvars those packaging/debian/control
# names (shlibs:Depends, swift:Depends, dlopen:Recommends). The helpers, in dh's order:
#   dh_installsysusers  debian/dialkiosk.sysusers (systemd/dialkiosk.conf) into
#                       usr/lib/sysusers.d, systemd-sysusers in postinst, its Depends
#   dh_installsystemd   debian/dialkiosk.service (UNIT) into the unit directory of that
#                       debhelper (usr/lib/systemd/system in Debian 13's): enabled in postinst (kept
#                       disabled across upgrades if the administrator disabled it), stopped in
#                       prerm on removal, masked while removed and purged in postrm; with
#                       --no-start, a running kiosk is try-restarted once on upgrade and a
#                       stopped one left alone, and the first start is postinst's own (it first
#                       checks that nobody uses tty1, which no helper knows about)
#   dh_installdeb       packaging/debian/postinst and postrm with the helpers' snippets at
#                       #DEBHELPER#, prerm from the snippets alone
#   dh_md5sums, dh_gencontrol   DEBIAN/md5sums, DEBIAN/control (Installed-Size, misc:Depends)
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: debhelper.sh TREE ARCH UNIT [SUBSTVAR=VALUE]..." >&2; exit 64; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tree="$(cd "$1" && pwd)" arch="$2" unit="$3"
shift 3
for tool in dh_installsysusers dh_installsystemd dh_installdeb dh_md5sums dh_gencontrol; do
  command -v "$tool" >/dev/null || { echo "debhelper.sh: $tool is missing (debhelper)" >&2; exit 69; }
done
src="$(mktemp -d "${TMPDIR:-/tmp}/dialkiosk-dh.XXXXXX")"
trap 'rm -rf "$src"' EXIT
mkdir "$src/debian"
cp "$here/debian/control" "$here/debian/changelog" "$src/debian/"
install -m 0755 "$here/debian/postinst" "$src/debian/dialkiosk.postinst"
install -m 0755 "$here/debian/prerm" "$src/debian/dialkiosk.prerm"
install -m 0755 "$here/debian/postrm" "$src/debian/dialkiosk.postrm"
cp "$here/../systemd/dialkiosk.conf" "$src/debian/dialkiosk.sysusers"
cp "$unit" "$src/debian/dialkiosk.service"
printf '%s\n' "$@" >"$src/debian/dialkiosk.substvars"
# The helpers act on the packages of the host architecture: the one being packaged.
export DEB_HOST_ARCH="$arch" DH_QUIET=1
cd "$src"
dh_installsysusers -pdialkiosk -P"$tree"
dh_installsystemd -pdialkiosk -P"$tree" --no-start --restart-after-upgrade
dh_installdeb -pdialkiosk -P"$tree"
dh_md5sums -pdialkiosk -P"$tree"
dh_gencontrol -pdialkiosk -P"$tree" 2> >(grep -v 'unused substitution variable' >&2)
