#!/usr/bin/env bash
# Speech and sound cues on a real ALSA driver: the guest loads snd-aloop, `run` plays
# to the loopback's playback side (plughw:Loopback,0,0) while arecord records the capture side,
# every 10 ms chunk timestamped on CLOCK_MONOTONIC, the clock of run's event lines:
#   - cues: with `speech: off` and `sound_cues: on`, a slow drag across three slots gives one
#     click per detent crossed and nothing else (no speech); a tap that hits nothing is silent;
#   - speech: a drag resting on an item with a 200-character speech text starts speech in the
#     capture within the latency run measured for it (when ALSA says its first sample is
#     heard) plus espeak-ng's own quiet lead and 50 ms;
#     an arrow key to the next item cuts it: after the short next label, silence;
#   - unplug: snd-aloop removed mid-run, the dial keeps selecting on arrow keys, the log says
#     why once, SIGTERM ends run with status 0.
#   - lang: snd-aloop loaded again; with English and German configured, `language de` on the
#     control socket, then an arrow key: the log says `language: de (voice de)` and the next
#     item's words are heard as `espeak-ng -v de` says them (loud span within 3 %, loudness per
#     10 ms correlated above 0.95), not as `-v en` does.
# Host side: boots the bed once with speech-aloop.guest and reports its results.txt.
source "$(dirname "$0")/../lib/case.sh"
DIALKIOSK_VM_TIMEOUT="${DIALKIOSK_VM_TIMEOUT:-1200}" case_boot
case_results
