#!/usr/bin/env bash
# Takes the system-mode screenshot of docs/system-mode.md: HeeKeyboard --system typing into another
# application on a real X desktop. Starts its own Xvfb with openbox, a GTK 3 window with a
# text entry (Tests/e2e/targets/gtk_entry.py) that gets the focus, and the release binary with
# --system; clicks へぇ, "h", "i", へぇ, then "ctrl" once (latched for the next key: white), so
# the picture shows the typed text in the other window, the keyboard's line naming it, and
# the desktop row (esc tab ctrl alt ← ↓ ↑ →) with ctrl's latched state.
# Usage: scripts/system-screenshot.sh OUTPUT.png
#        (needs xvfb, openbox, xdotool, imagemagick, python3-gi and gir1.2-gtk-3.0)
set -euo pipefail
# On a session bus of its own, which ends with the script: without one, the app (libdbus) and
# GTK would autolaunch one that outlives it.
if [[ -z ${HEE_SCREENSHOT_BUS:-} ]] && command -v dbus-run-session > /dev/null; then
  HEE_SCREENSHOT_BUS=1 NO_AT_BRIDGE=1 exec dbus-run-session -- "$0" "$@"
fi
out="${1:?usage: scripts/system-screenshot.sh OUTPUT.png}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
app="${HEE_APP:-$here/../.build/release/HeeApp}"
work="$(mktemp -d)"
exec 3< <(Xvfb -displayfd 1 -screen 0 960x760x24 -nolisten tcp 2>/dev/null)
xvfb=$!
read -r -t 10 number <&3 || { echo "system-screenshot.sh: Xvfb did not start" >&2; exit 1; }
cleanup() {
  for pid in "${app_pid:-}" "${gtk_pid:-}" "${wm_pid:-}" "$xvfb"; do
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true
  done
  # The app saves its settings as it quits: wait for it (and the others) before removing
  # their directory, or the save lands in it after the removal.
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export DISPLAY=":$number" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" LANG=C.UTF-8
openbox > /dev/null 2>&1 &
wm_pid=$!
for _ in $(seq 50); do xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q window && break; sleep 0.1; done

# The other application: a chat-like window with a draft, focused by a click on its title bar.
/usr/bin/python3 "$here/../Tests/e2e/targets/gtk_entry.py" "$work/chat.txt" "チャット — 友だち" "今日のトリビア：" \
  > /dev/null 2>&1 &
gtk_pid=$!
chat="$(xdotool search --sync --onlyvisible --name '^チャット' | head -n 1)"
xdotool windowsize "$chat" 560 70 windowmove "$chat" 40 60
sleep 0.5
xdotool mousemove --window "$chat" 120 -8 click 1
sleep 0.3

"$app" --system --trace --mute --lang ja > "$work/trace.jsonl" 2>/dev/null &
app_pid=$!
for _ in $(seq 100); do grep -q '"event":"layout"' "$work/trace.jsonl" && break; sleep 0.1; done
kb="$(xdotool search --sync --onlyvisible --all --pid "$app_pid" --name . | tail -n 1)"
xdotool windowmove "$kb" 380 240
sleep 0.5
# Key centres from the trace's layout event.
center() {
  grep -m1 '"event":"layout"' "$work/trace.jsonl" | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())["keys"][sys.argv[1]]
print(int(r["x"] + r["w"] / 2), int(r["y"] + r["h"] / 2))' "$1"
}
for key in hee h i hee ctrl; do
  read -r x y < <(center "$key")
  xdotool mousemove --window "$kb" "$x" "$y" click 1
  sleep 0.3
done
# The pointer rests between the keys (no key looks pressed).
read -r x y < <(center esc)
xdotool mousemove --window "$kb" 2 "$y"
sleep 0.5
import -window root "$out"
echo "wrote $out"
