#!/bin/busybox sh
# PID 1 of the test bed's initramfs (busybox). Mounts the host root read-only over 9p with a
# tmpfs overlay, the writable results share on /out, the kernel's modules from the cache, then
# hands over to stage 2 (a script in the clone, read over 9p) with switch_root.
# Kernel command line: dk.modules=<host path of lib/modules/KVER> dk.stage2=<host path>;
# optionally dk.root=<9p tag> (another root, e.g. a clean Debian 13) and dk.bind=<host path>...
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

fail() {
  echo "initramfs: $*"
  # Without a root there is nothing to run: power off so the host does not wait for a timeout.
  echo o >/proc/sysrq-trigger
  sleep 5
}

for m in $(cat /modules/order); do
  insmod "/modules/$m.ko" || fail "insmod $m failed"
done

modules=""; stage2=""; repo=""; guestroot=""; binds=""
for arg in $(cat /proc/cmdline); do
  case "$arg" in
    dk.modules=*) modules="${arg#dk.modules=}" ;;
    dk.stage2=*) stage2="${arg#dk.stage2=}" ;;
    dk.repo=*) repo="${arg#dk.repo=}" ;;
    dk.root=*) guestroot="${arg#dk.root=}" ;;
    dk.bind=*) binds="$binds ${arg#dk.bind=}" ;;
  esac
done
[ -n "$modules" ] && [ -n "$stage2" ] || fail "dk.modules= and dk.stage2= are required"

# The host root never changes during a run, so 9p may cache it (loose) for speed.
# With dk.root=TAG (boot.sh --root) the guest's root is that share instead, and the host root
# is only the source of the dk.bind= paths (the clone, the tools), the modules and stage 2.
host=/lower
[ -n "$guestroot" ] && { host=/host; mkdir -p /host; }
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose hostroot "$host" \
  || fail "cannot mount the host root (9p tag hostroot)"
if [ -n "$guestroot" ]; then
  mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose "$guestroot" /lower \
    || fail "cannot mount the guest root (9p tag $guestroot)"
fi
mount -t tmpfs -o mode=0755 tmpfs /upper
mkdir -p /upper/data /upper/work
mount -t overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work overlay /newroot \
  || fail "cannot mount the overlay root"

# Results go straight through to the host (no cache), so nothing is lost at power-off.
mkdir -p /newroot/out
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /newroot/out \
  || fail "cannot mount the results share (9p tag out)"
# systemd's tmpfiles empty /tmp as the overlay shows it; a tmpfs of its own keeps the host's out.
mount -t tmpfs -o mode=1777 tmpfs /newroot/tmp
# A clone under /tmp (CI may put one there) would vanish under that tmpfs: show it again.
case "$repo" in
  /tmp/*)
    mkdir -p "/newroot$repo"
    mount --bind "$host$repo" "/newroot$repo" || fail "cannot show the clone $repo under the guest's /tmp"
    ;;
esac
for b in $binds; do
  mkdir -p "/newroot$b"
  mount --bind "$host$b" "/newroot$b" || fail "cannot bind the host's $b into the guest root"
done
kver="$(basename "$modules")"
mkdir -p "/newroot/usr/lib/modules/$kver"
mount --bind "$host$modules" "/newroot/usr/lib/modules/$kver"

mount --move /dev /newroot/dev
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
exec switch_root /newroot "$stage2"
