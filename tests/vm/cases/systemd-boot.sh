#!/usr/bin/env bash
# systemd as PID 1 in the guest (for the service tests): the bed's script runs as a unit, a unit
# installed with --unit starts and logs to the journal, vkms/uinput came up through
# modules-load.d with the writeback option.
source "$(dirname "$0")/../lib/case.sh"
case_boot --systemd --unit "$vm_dir/cases/files/dialkiosk-vm-probe.service"

[ "$(cat "$(case_file pid1.txt)")" = systemd ] || case_fail "PID 1 is $(cat "$case_out/pid1.txt"), not systemd"
case_grep '^Result=success$' "$(case_file probe-show.txt)" "successful probe unit"
case_grep '^probe ran as [a-z-]+ uid [1-9][0-9]*$' "$(case_file probe-journal.txt)" "probe's journal line from a non-root user"
[ "$(cat "$(case_file writeback.txt)")" = Y ] || case_fail "vkms was loaded without enable_writeback=1"
case_grep '/dev/uinput' "$(case_file devices.txt)" "/dev/uinput"
case_grep '^connector [0-9]+ Virtual-1 connected' "$(case_file crtc.txt)" "connected Virtual-1"
