# The service with systemd as PID 1 and the real `dialkiosk run` as the installed unit
# (one boot, in order): scripts/install.sh --enable starts it and it becomes active as the
# dialkiosk user only after its first page flip (READY=1); no watchdog timeout in 20 s; a swipe
# from a uinput touchscreen gives `selected` in the journal and the hub tap runs the item's
# command (its file appears); `systemctl reload` with new labels shows them in the next frame,
# equal to `dialkiosk render --config NEW` at the rest rotation; a broken file on reload keeps
# the menu and the journal names the line (at priority err); `systemctl stop` puts the previous
# framebuffer back on the CRTC; a broken file at start fails with 78 and no restart.
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot --systemd

cd "$case_out"
echo "--- start.txt"; cat start.txt
echo "--- journal.txt (last 40)"; tail -n 40 journal.txt
[ -f activate-fallback.txt ] && case_note "$(cat activate-fallback.txt)"

# 1. Started by the install command, as dialkiosk, active only after the first flip.
kms_check "install.sh --enable succeeded" grep -q '^install rc=0$' install.txt
kms_check "active (running) after install" grep -q '^SubState=running$' start.txt
kms_check "main process runs as dialkiosk" grep -Eq '^dialkio' start.txt
active_us=$(sed -n 's/^ActiveEnterTimestampMonotonic=//p' start.txt)
first_flip=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["first"])' flips-start.json)
started_t=$(python3 "$vm_repo/tests/lib/dkevents.py" journal.txt --event started --field t --first || true)
case_note "first flip (kernel) ${first_flip}s, started event t=${started_t}s, unit active at $((active_us / 1000)) ms"
kms_check "READY came after the first flip ($first_flip s <= active $active_us us)" \
  python3 -c 'import sys; f, a = float(sys.argv[1]), int(sys.argv[2]); sys.exit(0 if 0 < f <= a / 1e6 else 1)' "$first_flip" "$active_us"
kms_check "the started event is the flip's time, before active" \
  python3 -c 'import sys; t, a = float(sys.argv[1]), int(sys.argv[2]); sys.exit(0 if 0 < t <= a / 1e6 else 1)' "${started_t:-0}" "$active_us"

# 2. Watchdog.
pid0=$(sed -n 's/^pid-before //p' watchdog.txt)
kms_check "same main process after 20 s ($pid0)" grep -q "^MainPID=$pid0$" watchdog.txt
kms_check "no restart in 20 s" grep -q '^NRestarts=0$' watchdog.txt
kms_check "no watchdog timeout in the journal" grep -q '^watchdog-lines 0$' watchdog.txt

# 3. Swipe and tap.
id=$(cat activated-id.txt)
kms_check "a selected event from the swipe (not the start's, index 0)" grep -Eq '"event": "selected", "index": [1-9]' journal.txt
kms_check "the activated item's command ran (activated-$id)" grep -q "activated-$id" runtime-dir.txt

# 4. Reload with new labels: the next frame equals render --config NEW at the rest rotation.
rot=$(python3 "$vm_repo/tests/lib/dkevents.py" journal.txt --event rest --field rotation --until reloaded --last || true)
size=$(sed -n 's/^dump crtc [0-9]* fb [0-9]* \([0-9]*x[0-9]*\) .*/\1/p' dump-new.txt)
if [ -n "$rot" ] && [ -n "$size" ]; then
  "$kms_bin" render --config config-old.yaml --size "$size" --angle "$rot" --out reference-old.png
  "$kms_bin" render --config config-new.yaml --size "$size" --angle "$rot" --out reference-new.png
  kms_check "before the reload the screen equals render --config OLD --angle $rot" \
    python3 "$vm_dir/cases/kms-compare.py" screen-old.ppm reference-old.png
  kms_check "after the reload the screen equals render --config NEW --angle $rot" \
    python3 "$vm_dir/cases/kms-compare.py" screen-new.ppm reference-new.png
else
  kms_check "a rest rotation ('$rot') and a dump ('$(cat dump-new.txt)')" false
fi
kms_check "the new labels changed the picture" bash -c '! cmp -s screen-old.ppm screen-new.ppm'
kms_check "reload kept the process ($pid0)" grep -q "^MainPID=$pid0$" reload.txt
kms_check "a reloaded event" grep -q '"event": "reloaded"' journal.txt
kms_check "one reload per systemctl reload (no second SIGHUP from a tty hangup)" \
  bash -c '! grep -q "reload: /etc/dialkiosk/config.yaml: no change" journal.txt'

# 5. Broken reload.
kms_check "a broken reload keeps the process" grep -q "^MainPID=$pid0$" reload-broken.txt
kms_check "a broken reload keeps the picture" cmp -s screen-new.ppm screen-broken.ppm
kms_check "the journal names the broken line" \
  grep -q "reload: /etc/dialkiosk/config.yaml:3: items\[0\]\.color: expected #RRGGBB, got 'blu'" journal.txt
kms_check "the reload error has priority err (<3>)" grep -q 'reload: /etc/dialkiosk/config.yaml:3:' journal-err.txt

# 5b. VT switching still works after the reloads.
kms_check "VT switch away after the reloads suspends the output" grep -q '^vt away: suspended$' vt.txt
kms_check "VT switch back resumes it" grep -q '^vt back: resumed$' vt.txt
kms_check "the same process across the VT switch" grep -q "^MainPID=$pid0$" vt.txt

# 6. Stop.
before=$(kms_fb crtc-before.txt)
kms_check "before the start the console's fb is on the CRTC ($before)" test -n "$before" -a "$before" != 0
kms_check "after stop the CRTC shows fb $before again (got $(kms_fb crtc-after.txt))" \
  test "$(kms_fb crtc-after.txt)" = "$before"
kms_check "a stopping event" grep -q '"event": "stopping"' journal.txt
kms_check "stopped cleanly" grep -q '^Result=success$' stop.txt

# 7. Broken at start.
kms_check "a broken config at start exits 78" grep -q '^ExecMainStatus=78$' broken-start.txt
kms_check "no restart after 78" grep -q '^NRestarts=0$' broken-start.txt
kms_check "the unit failed" grep -q '^ActiveState=failed$' broken-start.txt
kms_check "the journal names the line at start" \
  grep -q "^dialkiosk: /etc/dialkiosk/config.yaml:3: items\[0\]\.color: expected #RRGGBB, got 'blu'" broken-start-journal.txt
kms_check "the start error has priority err" grep -q '^dialkiosk: /etc/dialkiosk/config.yaml:3:' journal-err-all.txt
# 8. Optional parts under the shipped unit (both refused, the dial on), then with its two
#    drop-ins (mqtt.conf with the broker on loopback, remote-tcp.conf).
echo "--- parts.txt"; cat parts.txt
while read -r line; do case_note "$line"; done < <(grep -E '^(exposure|without)' parts.txt)
journal_parts=journal-parts.txt
kms_check "without remote-tcp.conf the refusal names the drop-in, once" \
  test "$(grep -c "remote: Failed to create the remote view's socket for 127.0.0.1:5900: Address family not supported by protocol; the unit's RestrictAddressFamilies= forbids AF_INET and AF_INET6: install the drop-in /usr/share/doc/dialkiosk/examples/remote-tcp.conf" "$journal_parts")" = 1
kms_check "without remote-tcp.conf the unit stays active, never restarted" \
  bash -c "grep -q '^ActiveState=active$' parts.txt && [ \"\$(grep -m1 '^NRestarts=' parts.txt)\" = NRestarts=0 ]"
parts_fb=$(sed -n 's/^crtc [0-9]* index 0 fb \([0-9]*\) .*/\1/p' crtc-parts.txt)
kms_check "without remote-tcp.conf the dial is on the CRTC (fb $parts_fb, not the console's $before)" \
  test -n "$parts_fb" -a "$parts_fb" != 0 -a "$parts_fb" != "$before"
size=$(sed -n 's/^dump crtc [0-9]* fb [0-9]* \([0-9]*x[0-9]*\) .*/\1/p' dump-parts.txt)
kms_check "the dial read back from the CRTC equals render --config (size '$size')" bash -c "
  [ -n '$size' ] && grep -v -e '^remote:' -e '^mqtt:' config-old.yaml >config-parts.yaml &&
  '$kms_bin' render --config config-parts.yaml --size '$size' --angle 0 --out reference-parts.png &&
  python3 '$vm_dir/cases/kms-compare.py' screen-parts.ppm reference-parts.png"
kms_check "without mqtt.conf the MQTT refusal names its drop-in" \
  grep -q "mqtt: cannot connect to 127.0.0.1:1883: .*Address family not supported by protocol (the unit's RestrictAddressFamilies= .*examples/mqtt.conf" "$journal_parts"
kms_check "with remote-tcp.conf an RFB greeting from 127.0.0.1:5900" grep -q "^greeting b'RFB 003.008\\\\n'$" rfb.txt
kms_check "with both drop-ins online, and no problems in the state" \
  bash -c "grep -q '^dialkiosk/vm/availability online$' topics-view.txt && grep -q '^dialkiosk/vm/state ' topics-view.txt && ! grep -q problems topics-view.txt"
for f in $(grep -o 'exposure level for dialkiosk.service: [0-9.]*' parts.txt | awk '{print $NF}'); do
  kms_check "exposure $f at most 3.0" awk -v f="$f" 'BEGIN { exit !(f <= 3.0) }'
done
kms_check "four exposure figures" test "$(grep -c 'Overall exposure level' parts.txt)" = 4
kms_finish
