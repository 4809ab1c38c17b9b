#!/usr/bin/env bash
# TouchInput on a real input stack: uinput touchscreen, wheel mouse and keyboard in the guest,
# read through udev and libinput by `dialkiosk list-inputs --watch`, which prints what `run`
# would feed the dial. Checks positions (plain, --rotate 90, a calibration matrix), one step per
# wheel detent and per arrow key, Enter/Space/Home, the mouse as a finger, and an unplug
# mid-drag ending as a cancel while the program keeps running. Rotary encoders as the kernel's
# rotary-encoder driver makes them: REL_WHEEL through libinput, REL_DIAL read from evdev directly,
# also plugged in, out and in again while the watcher runs, and only on its udev seat (ID_SEAT).
# Host side: boots the bed once with input-watch.guest and reports its results.txt.
source "$(dirname "$0")/../lib/case.sh"
DIALKIOSK_VM_TIMEOUT="${DIALKIOSK_VM_TIMEOUT:-900}" case_boot
case_results
