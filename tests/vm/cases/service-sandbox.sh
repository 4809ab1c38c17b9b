# The shipped unit under systemd as PID 1: scripts/install.sh creates the user and installs the
# unit; a probe standing in for `dialkiosk run` (drop-in ExecStart) shows that the hardened
# sandbox still reaches the DRM card (master), the input nodes, udev's netlink and database and
# the VT, refuses IP sockets and writes to /etc and to /sys (except the backlight's brightness
# file, a stand-in here), and that READY=1 makes the unit active. Then a
# broken configuration at start (check-config standing in for run) fails with status 78, the
# journal names the line, and systemd does not restart it.
source "$(dirname "$0")/../lib/case.sh"
case_boot --systemd

start="$(case_file start.txt)"
case_grep '^ActiveState=active$' "$start" "active unit after READY=1"
case_grep '^StatusText=probe ready$' "$start" "STATUS= from the probe"
case_grep '^dialkio' "$start" "main process owned by the dialkiosk user"
probe="$(case_file probe-journal.txt)"
for ok in stdin-tty drm-master input-open udev-netlink udev-database vt-graphics runtime-dir-socket read-config; do
  case_grep "^probe $ok: ok" "$probe" "$ok reachable inside the sandbox"
done
case_grep '^probe inet-socket: error Address family not supported' "$probe" "refusal of an IP socket"
case_grep '^probe write-etc: error Read-only file system' "$probe" "read-only /etc"
# The brightness file the unit's ExecStartPre linked is writable, a file of the
# same kind and permissions elsewhere under /sys/devices is not.
case_grep '^brightness-link /sys/devices/platform/.*/power/control$' "$start" "ExecStartPre's link to the backlight's file"
case_grep '^probe write-linked-sysfs: ok' "$probe" "the linked brightness file writable"
case_grep '^probe write-other-sysfs: error Read-only file system' "$probe" "the rest of /sys/devices read-only"
case_grep '^probe watchdog-usec: 10000000$' "$probe" "WatchdogSec=10s"
case_grep '^probe uid: [1-9]' "$probe" "a non-root uid"

broken="$(case_file broken.txt)"
case_grep '^ExecMainStatus=78$' "$broken" "exit status 78 for a broken config"
case_grep '^NRestarts=0$' "$broken" "no restart after status 78"
case_grep '^ActiveState=failed$' "$broken" "failed unit"
case_grep "config.yaml:3: items\[0\]\.color: expected #RRGGBB, got 'blu'" "$(case_file broken-journal.txt)" \
  "located config error in the journal"
