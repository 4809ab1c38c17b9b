# `dialkiosk run` on a virtual terminal, switched away and back, and its connector unplugged
# and replugged. While it runs the VT is in KD_GRAPHICS. A switch to VT 2 makes it drop DRM
# master and stop (the console's framebuffer comes back); VT 1 again makes it take master and
# repaint. The connector forced off through sysfs (a real hotplug uevent) suspends it; forced
# on, it sets the CRTC again and repaints. After SIGTERM the VT is in KD_TEXT and the CRTC shows
# the console's framebuffer.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot

cd "$case_out"
echo "--- run.log"; cat run.log; [ -s run.err ] && { echo "--- run.err"; cat run.err; }
console=$(kms_fb crtc-before.txt)
running=$(kms_fb crtc-running.txt)
away=$(kms_fb crtc-vt-away.txt)
back=$(kms_fb crtc-vt-back.txt)
replugged=$(kms_fb crtc-replugged.txt)
after=$(kms_fb crtc-after.txt)
case_note "CRTC fb: console $console, running $running, VT away $away, VT back $back, replugged $replugged, after $after"
kms_check "KD_GRAPHICS while running" test "$(cat kd-running.txt)" = graphics
kms_check "running: our framebuffer on the CRTC" test -n "$running" -a "$running" != "$console"
kms_check "VT release suspends the output" test "$(grep -c 'display: suspended' run.err)" -ge 1
kms_check "switched away: the CRTC no longer shows our framebuffer" test -n "$away" -a "$away" != "$running" -a "$away" != "$back"
kms_check "VT acquire resumes and repaints" test -n "$back" -a "$back" != "$console" -a "$back" != "$away"
kms_check "unplug suspends, replug resumes" test "$(grep -c 'display: resumed' run.err)" -ge 2
kms_check "replugged: our framebuffer on the CRTC" test -n "$replugged" -a "$replugged" != "$console"
kms_check "exit 0 on SIGTERM" test "$(cat run.status)" = 0
kms_check "KD_TEXT after exit" test "$(cat kd-after.txt)" = text
kms_check "after exit the console's framebuffer ($console) is back" test -n "$after" -a "$after" = "$console"
kms_finish
