# A `run` whose stdout pipe nobody reads must keep flipping and pinging the
# watchdog, and leave on SIGTERM; one whose stdout reader goes away must not die of SIGPIPE
# (status 141) but say so in its log and run on to --exit-after (status 0).
source "$(dirname "$0")/../lib/case.sh"
source "$(dirname "$0")/kms-lib.sh"
case_boot

cd "$case_out"
for f in stuck gone; do echo "--- $f.err (last 15)"; tail -n 15 "$f.err"; done
echo "--- notify.log (last 5)"; tail -n 5 notify.log
case_note "$(cat stuck-fill.txt)"

# 1. A full pipe nobody reads.
kms_check "the stuck run went idle (no freeze)" test ! -e stuck-idle-timeout.txt
kms_check "the stuck run left on SIGTERM" test ! -e stuck-kill.txt
kms_check "the stuck run exits 0 on SIGTERM (got $(cat stuck.status))" test "$(cat stuck.status)" = 0
total=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' flips-stuck.json)
case_note "flips while stdout was full: $total"
kms_check "it kept flipping with stdout full ($total flips, want >= 20)" test "${total:-0}" -ge 20
kms_check "READY=1 came" grep -q ' READY=1$' notify.log
t1=$(cat stuck-t1.txt)
pings=$(awk -v t1="$t1" '$2 == "WATCHDOG=1" && $1 <= t1' notify.log | wc -l)
last=$(awk -v t1="$t1" '$2 == "WATCHDOG=1" && $1 <= t1 { t = $1 } END { print t + 0 }' notify.log)
case_note "watchdog pings (every 1 s asked) until the end of the window: $pings, the last at $last (window end $t1)"
kms_check "the watchdog was pinged through the window at rest ($pings pings)" test "$pings" -ge 8
kms_check "the last ping came within 3 s of the window's end" \
  awk -v a="$last" -v b="$t1" 'BEGIN { exit !(b - a <= 3) }'

# 2. A reader that went away.
kms_check "the run whose reader went away exits 0, not 141 (got $(cat gone.status))" test "$(cat gone.status)" = 0
kms_check "it logs that event lines no longer go out" \
  grep -q 'Failed to write event lines to standard output: Broken pipe; no more event lines go there' gone.err
kms_finish
