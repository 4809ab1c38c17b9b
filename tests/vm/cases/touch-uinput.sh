#!/usr/bin/env bash
# The uinput devices of tests/vm/guest/inject.py are real input devices to udev and libinput:
# a direct touchscreen at the screen's pixel grid, a wheel mouse with one detent, a keyboard,
# a cancelled touch and an unplug.
source "$(dirname "$0")/../lib/case.sh"
case_boot

log="$(case_file libinput.log)"
case_grep 'DEVICE_ADDED +DialKiosk test touchscreen .*cap:t ' "$log" "touchscreen with touch capability"
case_grep 'DEVICE_ADDED +DialKiosk test wheel mouse .*cap:p' "$log" "wheel mouse with pointer capability"
case_grep 'DEVICE_ADDED +DialKiosk test keyboard .*cap:k' "$log" "keyboard with key capability"
# 4 units per mm on the touch axes: pixel (800, 384) is at (200, 96) mm.
case_grep 'TOUCH_DOWN .*\(200\.00/96\.00mm\)' "$log" "touch down at pixel 800,384"
case_grep 'TOUCH_MOTION .*\(190\.00/130\.00mm\)' "$log" "last motion at pixel 760,520"
count() { grep -c -- "$1" "$log" || true; }
[ "$(count TOUCH_DOWN)" = 2 ] || case_fail "expected 2 TOUCH_DOWN, got $(count TOUCH_DOWN)"
[ "$(count TOUCH_MOTION)" = 2 ] || case_fail "expected 2 TOUCH_MOTION, got $(count TOUCH_MOTION)"
[ "$(count TOUCH_UP)" = 1 ] || case_fail "expected 1 TOUCH_UP, got $(count TOUCH_UP)"
[ "$(count TOUCH_CANCEL)" = 1 ] || case_fail "expected 1 TOUCH_CANCEL (palm), got $(count TOUCH_CANCEL)"
case_grep 'POINTER_SCROLL_WHEEL .*vert -15\.00/-120\.0' "$log" "one wheel detent (v120 = 120)"
case_grep 'KEYBOARD_KEY .*KEY_LEFT \(105\) pressed' "$log" "KEY_LEFT pressed"
case_grep 'KEYBOARD_KEY .*KEY_LEFT \(105\) released' "$log" "KEY_LEFT released"
case_grep 'DEVICE_REMOVED +DialKiosk test touchscreen' "$log" "touchscreen unplug"
case_grep '^ID_INPUT_TOUCHSCREEN=1' "$(case_file udev.txt)" "udev touchscreen tag"
