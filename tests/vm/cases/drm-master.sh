#!/usr/bin/env bash
# drmtool master + dump round trip: what a master scans out is read back exactly by a root
# client; a second master is refused; with a handle held open the kernel leaves the CRTC alone
# when the master exits, and restores the console only when the last handle closes.
source "$(dirname "$0")/../lib/case.sh"
case_boot

fb_of() { sed -n 's/^crtc [0-9]* index 0 fb \([0-9]*\) .*/\1/p' "$(case_file "$1")"; }
before="$(fb_of crtc-before.txt)"
[ -n "$before" ] && [ "$before" != 0 ] || case_fail "no console framebuffer before the master started"
master_fb="$(sed -n 's/^master pid [0-9]* crtc [0-9]* fb \([0-9]*\) .*/\1/p' "$(case_file master.txt)")"
[ -n "$master_fb" ] || case_fail "drmtool master did not report its framebuffer"
[ "$(fb_of crtc-master.txt)" = "$master_fb" ] || case_fail "the CRTC shows fb $(fb_of crtc-master.txt), the master set $master_fb"
case_grep "^dump crtc [0-9]+ fb $master_fb 1024x768 " "$(case_file dump.txt)" "dump of the master's framebuffer"
cmp -s "$(case_file expect.ppm)" "$(case_file dump.ppm)" \
  || case_fail "the dumped scanout differs from the pattern the master drew"
[ "$(cat "$(case_file second-master.rc)")" != 0 ] || case_fail "a second drmtool master was not refused"
case_grep 'drmSetMaster: Device or resource busy' "$(case_file second-master.txt)" "EBUSY for the second master"
after_master="$(fb_of crtc-after-master.txt)"
[ "$after_master" = 0 ] || case_fail "with the card held open, the CRTC shows fb $after_master after the master removed its own (expected 0: nobody restored it)"
[ "$(fb_of crtc-after-hold.txt)" = "$before" ] \
  || case_fail "after the last handle closed the CRTC shows fb $(fb_of crtc-after-hold.txt), not the console's $before"
