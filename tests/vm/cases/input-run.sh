#!/usr/bin/env bash
# `dialkiosk run` driven by uinput devices through udev and libinput, on vkms. While run shows
# the dial, `list-inputs --watch` records the very samples libinput delivers; `simulate` fed
# those samples predicts run's selected/activated events, which must match:
#   - a quarter-turn clockwise swipe released with speed selects the predicted item,
#   - a slow drag of one slot selects a neighbour, a tap in the hub prints activated,
#   - wheel detents and arrow keys move exactly one item each,
#   - destroying the touchscreen mid-drag leaves the ring at rest on an item, run still running,
#   - the swipe and the tap again with --rotate 90, the touch coordinates turned with the panel.
# Host side: boots the bed once with input-run.guest and reports its results.txt.
source "$(dirname "$0")/../lib/case.sh"
DIALKIOSK_VM_TIMEOUT="${DIALKIOSK_VM_TIMEOUT:-1200}" case_boot
case_results
