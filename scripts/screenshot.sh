#!/usr/bin/env bash
# Takes the README's screenshot from the real app window: starts Xvfb, launches the
# release binary, presses the へぇ button three times and holds it down for the shot, so
# the picture shows the pressed (yellow, sunk) cap, the counter and the typed text.
# Usage: scripts/screenshot.sh OUTPUT.png   (needs xvfb, xdotool, imagemagick)
set -euo pipefail
# On a session bus of its own, which ends with the script: without one, the app (libdbus) and
# GTK would autolaunch one that outlives it.
if [[ -z ${HEE_SCREENSHOT_BUS:-} ]] && command -v dbus-run-session > /dev/null; then
  HEE_SCREENSHOT_BUS=1 NO_AT_BRIDGE=1 exec dbus-run-session -- "$0" "$@"
fi
out="${1:?usage: scripts/screenshot.sh OUTPUT.png}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
app="${HEE_APP:-$here/../.build/release/HeeApp}"
exec 3< <(Xvfb -displayfd 1 -screen 0 480x800x24 -nolisten tcp 2>/dev/null)
xvfb=$!
read -r -t 10 number <&3 || { echo "screenshot.sh: Xvfb did not start" >&2; exit 1; }
display=":$number"
trace="$(mktemp)"
cleanup() { kill "${app_pid:-}" "$xvfb" 2>/dev/null || true; rm -f "$trace"; }
trap cleanup EXIT
export DISPLAY="$display"
XDG_CONFIG_HOME="$(mktemp -d)" "$app" --trace --mute --lang ja > "$trace" 2>/dev/null &
app_pid=$!
wid="$(xdotool search --sync --class hee-keyboard | head -n 1)"
for _ in $(seq 50); do grep -q '"event":"layout"' "$trace" && break; sleep 0.1; done
# Centre of the へぇ button from the trace's layout event.
read -r cx cy < <(grep -m1 '"event":"layout"' "$trace" | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())["keys"]["hee"]
print(int(r["x"] + r["w"] / 2), int(r["y"] + r["h"] / 2))')
xdotool windowmove "$wid" 0 0
for _ in 1 2; do xdotool mousemove --window "$wid" "$cx" "$cy" click 1; sleep 0.2; done
xdotool mousemove --window "$wid" "$cx" "$cy" mousedown 1
sleep 0.4
import -window root "$out"
xdotool mouseup 1
echo "wrote $out"
