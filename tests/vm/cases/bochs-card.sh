#!/usr/bin/env bash
# boot.sh --bochs: qemu's bochs-display gives a second KMS driver (bochs-drm, card1) next to
# vkms (card0); a master's pattern on it reads back exactly. bochs has no vblank interrupt, so its
# flips are not paced at 60 Hz: the note only records the rate.
source "$(dirname "$0")/../lib/case.sh"
case_boot --bochs

cards="$(case_file cards.txt)"
case_grep '^driver vkms$' "$cards" "vkms card"
case_grep '^driver bochs-drm$' "$cards" "bochs-drm card"
case_grep '^connector [0-9]+ Virtual-2 connected' "$cards" "bochs's connected Virtual-2"
case_grep '^dump crtc [0-9]+ fb [1-9][0-9]* [0-9]+x[0-9]+ ' "$(case_file dump.txt)" "dump of the bochs CRTC"
cmp -s "$(case_file expect.ppm)" "$(case_file dump.ppm)" \
  || case_fail "the bochs scanout read back differs from the pattern the master drew"
case_note "bochs: $(cat "$(case_file flip.txt)")"
