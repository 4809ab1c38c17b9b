#!/usr/bin/env bash
# The amd64 package on the root image builders start from (mmdebstrap, debos, rpi-image-gen):
# `debootstrap --variant=minbase trixie` and nothing else, no systemd running (a chroot, as in an
# image build). `apt-get install ./dialkiosk_*_amd64.deb` must pull in everything the maintainer
# scripts call and succeed; the user must exist and the unit be enabled; remove and purge must
# succeed and leave no configuration behind. An edited /etc/dialkiosk/config.yaml survives two
# upgrades to newer builds (the version bumped in copies), with unattended-upgrades' dpkg options
# and without, with no prompt; purge removes it.
#
#   packaging/check-minbase.sh [DEB]      (default dist/dialkiosk_VERSION_amd64.deb)
#
# The minbase root is made once and cached (/var/cache/dialkiosk-pkg/minbase-KEY, KEY a hash of
# the package lists it was made from: `package.sh --refresh` makes a new one); every run installs
# into a throwaway overlay on it, so the cached root stays pristine. Needs root.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

version="$(dpkg-parsechangelog -l "$pkg_repo/packaging/debian/changelog" -S Version)"
deb="${1:-$pkg_repo/dist/dialkiosk_${version}_amd64.deb}"
[ -f "$deb" ] || pkg_die "no $deb (scripts/package.sh)"
deb="$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")"
[ "$(id -u)" = 0 ] || pkg_die "needs root (debootstrap, chroot, mounts)"

# Everything below in a private mount namespace: the overlay goes away with it.
if [ -z "${DK_MINBASE_NS:-}" ]; then
  exec unshare --mount --propagation private env DK_MINBASE_NS=1 bash "$0" "$deb"
fi

t_all=$(pkg_now)
pkg_apt_setup
lists=("$pkg_cache/apt/lists/"*_InRelease "$pkg_cache/apt/lists/"*_binary-amd64_Packages*)
key="$(cat "${lists[@]}" | pkg_key minbase)"
base="$pkg_cache/minbase-$key"
t=$(pkg_now)
pkg_make_root "$base"    # debootstrap --variant=minbase, no package added
pkg_log "minbase root $base ($(du -sh "$base" | cut -f1)) in $(pkg_elapsed "$t") s"

work="$(mktemp -d /var/tmp/dialkiosk-minbase.XXXXXX)"
trap 'umount -l "$work/root" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/upper" "$work/ovl" "$work/root"
mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/ovl" "$work/root" \
  || pkg_die "overlay mount on $base failed"
root="$work/root"
# apt reads the same lists the key was made from (no apt-get update, no network for them); the
# .debs come from the shared download cache pkg_in_root binds.
cp "${lists[@]}" "$root/var/lib/apt/lists/"
cp "$deb" "$root/srv/"
name="$(basename "$deb")"
# Two newer builds for the upgrades: the same package with its version bumped (+up1, +up2) and
# its example configuration changed, as a new release's would be (a conffile prompt needs both
# sides changed: the administrator's file and the package's).
for n in 1 2; do
  rm -rf "$work/up"
  dpkg-deb -R "$deb" "$work/up"
  sed -i "s/^Version: .*/&+up$n/" "$work/up/DEBIAN/control"
  for f in "$work/up/usr/share/dialkiosk/config.yaml" "$work/up/etc/dialkiosk/config.yaml"; do
    [ -f "$f" ] && printf '# changed in +up%s\n' "$n" >>"$f"
  done
  (cd "$work/up" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$work/up/DEBIAN/md5sums"
  dpkg-deb --root-owner-group -Zxz --build "$work/up" "$root/srv/up$n.deb" >/dev/null
done
rm -rf "$work/up"
# What unattended-upgrades passes to dpkg (it keeps an edited conffile rather than ask).
confold="-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold"

# The chroot's script: each step's output in the log, its status on a line of its own.
fails=0
step() {
  local what="$1"; shift
  local rc=0
  pkg_in_root "$root" - bash -c "$*" >"$work/step.log" 2>&1 || rc=$?
  if [ "$rc" = 0 ]; then
    echo "minbase: ok   $what"
  else
    echo "minbase: FAIL $what (status $rc)"; tail -n 15 "$work/step.log" | sed 's/^/    /'
    fails=$((fails + 1))
  fi
}

step "apt-get install ./$name on a minbase trixie root" \
  "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /srv/$name"
# What it took: apt's summary (how many packages, how much disk).
grep -E '^[0-9]+ upgraded|^After this operation' "$work/step.log" | sed 's/^/minbase: apt: /'
step "installed and configured" "dpkg-query -W -f='\${Status}\n' dialkiosk | grep -qx 'install ok installed'"
step "user dialkiosk in video, input, tty and audio" \
  "id dialkiosk && id -nG dialkiosk | tr ' ' '\n' | sort | tr '\n' ' ' | grep -qx 'audio dialkiosk input tty video '"
step "unit enabled (graphical.target.wants)" "test -L /etc/systemd/system/graphical.target.wants/dialkiosk.service"
step "the binary runs (check-config on the shipped config)" "dialkiosk check-config /etc/dialkiosk/config.yaml"
step "the configuration is made from the example, and no conffile" \
  "cmp /usr/share/dialkiosk/config.yaml /etc/dialkiosk/config.yaml && test -z \"\$(dpkg-query -W -f='\${Conffiles}' dialkiosk)\""
# An edited configuration across upgrades: no prompt (stdin is /dev/null, so a conffile prompt
# would end dpkg with an error), the edit kept, with unattended-upgrades' options and without.
edit="printf '# edited by the administrator\\n' >>/etc/dialkiosk/config.yaml && cp /etc/dialkiosk/config.yaml /root/edited.yaml"
step "the administrator edits /etc/dialkiosk/config.yaml" "$edit"
step "upgrade to +up1 with --force-confdef --force-confold asks nothing and keeps the edit" \
  "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $confold /srv/up1.deb </dev/null &&
   dpkg-query -W -f='\${Version}' dialkiosk | grep -q '+up1\$' && cmp /root/edited.yaml /etc/dialkiosk/config.yaml"
step "upgrade to +up2 without dpkg options asks nothing and keeps the edit" \
  "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /srv/up2.deb </dev/null &&
   dpkg-query -W -f='\${Version}' dialkiosk | grep -q '+up2\$' && cmp /root/edited.yaml /etc/dialkiosk/config.yaml"
step "remove keeps the edited configuration" \
  "DEBIAN_FRONTEND=noninteractive apt-get remove -y dialkiosk </dev/null && cmp /root/edited.yaml /etc/dialkiosk/config.yaml"
step "a reinstallation keeps it too" \
  "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /srv/up2.deb </dev/null && cmp /root/edited.yaml /etc/dialkiosk/config.yaml"
step "apt-get remove" "DEBIAN_FRONTEND=noninteractive apt-get remove -y dialkiosk && test ! -e /usr/bin/dialkiosk"
step "apt-get purge leaves no configuration" \
  "DEBIAN_FRONTEND=noninteractive apt-get purge -y dialkiosk && test ! -e /etc/dialkiosk/config.yaml && test ! -e /etc/dialkiosk && ! dpkg-query -W dialkiosk 2>/dev/null | grep -q ."

pkg_log "minbase check in $(pkg_elapsed "$t_all") s: $fails failed"
[ "$fails" = 0 ]
