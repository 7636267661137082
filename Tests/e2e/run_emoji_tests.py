#!/usr/bin/env python3
"""End-to-end test of the emoji keyboard (issue 34), clicks, drags and the wheel only, on the
release binary under Xvfb with openbox.

1. Host screen: 🌐 twice (en → ja-kana → emoji: `keyboardLayout` lines, then a `layout` line
   naming the grid's emoji and the category keys). 😀 clicked; the mouse wheel turns pages to
   👍, held: the bubble (`alternates`) offers the five tones, 👍🏽 chosen by sliding onto it;
   the Flags category clicked, the wheel to 🇯🇵, clicked; the Smileys category and the wheel
   to 👨‍👩‍👧, clicked: the field holds exactly 😀👍🏽🇯🇵👨‍👩‍👧. Backspace deletes 👨‍👩‍👧 whole (one
   `text` line). A drag sideways on the grid turns one page and types nothing. After SIGTERM
   settings.json's `emojiRecents` lists them, most recent first (and `layout` is ja-kana:
   the emoji keyboard is never the one to start with).
2. `--system`: the same 😀 and 👍🏽 (from the bubble), then 🇯🇵, into an xterm (`cat > FILE`,
   the line ended with the letters' return after ABC) and a GTK 3 entry: each text exact, and
   the trace's `send` lines are the emoji themselves.

Every step waits for the trace line it causes; nothing waits a fixed time. About 20 s.

Environment: HEE_APP, HEE_E2E_KEEP=1, HEE_E2E_DISPLAYS, HEE_E2E_SYSTEM_PYTHON (see
run_system_tests.py).
"""

import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Prerequisite, app_binary, fail, ok, script_main  # noqa: E402
from run_e2e import is_event  # noqa: E402
import run_system_tests as system  # noqa: E402

TONE = "👍🏽"
FAMILY = "👨\u200d👩\u200d👧"


def show_emoji(kb, start="en"):
    """From `start`, 🌐 (en → ja-kana) and 🌐 again (→ emoji): the emoji keyboard's layout."""
    if start == "en":
        since = kb.trace.mark()
        kb.click("🌐")
        kb.trace.wait_for(is_event("keyboardLayout", name="ja-kana"), "the kana pad", since=since)
        kb.relayout(since)
    since = kb.trace.mark()
    kb.click("🌐")
    kb.trace.wait_for(is_event("keyboardLayout", name="emoji"), "the emoji keyboard", since=since)
    kb.relayout(since)
    for key in ("😀", "emoji:smileys", "emoji:flags", "emoji:abc", "backspace", "hee"):
        if key not in kb.layout["keys"]:
            fail(f"the emoji keyboard's layout line lacks {key}: {list(kb.layout['keys'])[:40]}")


def category(kb, name, changes=False):
    """Clicks the category key `name`; `changes`: another category was shown, so the trace
    must say `emojiCategory` `name` (after the `layout` line)."""
    since = kb.trace.mark()
    kb.click(f"emoji:{name}")
    if changes:
        kb.trace.wait_for(is_event("emojiCategory", name=name), f"the emojiCategory line for {name}", since=since)
    kb.relayout(since)


def wheel_to(kb, *keys):
    """The mouse wheel (down) over the grid until one of `keys` is shown (each turn is a
    `layout` line); returns it."""
    for _ in range(40):
        for key in keys:
            if key in kb.layout["keys"]:
                return key
        x, y = kb.key_center("emoji:smileys")
        since = kb.trace.mark()
        kb.desktop.xdo("mousemove", "--window", str(kb.window), str(x), str(y - 60), "click", "5")
        kb.relayout(since)
    fail(f"{' or '.join(keys)} not reached with the wheel")


def choose_tone(kb, key, index):
    """Holds `key` until its bubble shows, slides onto choice `index`, lets go; returns the choices."""
    since = kb.trace.mark()
    x, y = kb.key_center(key)
    kb.desktop.xdo("mousemove", "--window", str(kb.window), str(x), str(y), "mousedown", "1")
    try:
        bubble = kb.trace.wait_for(is_event("alternates", key=key), f"{key}'s bubble", since=since)
        choice = bubble["choices"][index]
        kb.desktop.xdo("mousemove", "--window", str(kb.window), str(round(choice["x"] + choice["w"] / 2)),
                       str(round(choice["y"] + choice["h"] / 2)))
    finally:
        kb.desktop.xdo("mouseup", "1")
    kb.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released", since=since)
    return [c["text"] for c in bubble["choices"]]


def host_screen(desktop, binary):
    kb = system.Keyboard(desktop, binary, "emoji-host", system=False)
    show_emoji(kb)
    since = kb.trace.mark()
    kb.click("😀")
    kb.trace.wait_for(is_event("text", text="😀"), "😀 in the field", since=since)
    wheel_to(kb, "👍")
    since = kb.trace.mark()
    tones = choose_tone(kb, "👍", 2)
    if tones != ["👍🏻", "👍🏼", TONE, "👍🏾", "👍🏿"]:
        fail(f"👍's bubble offers {tones}")
    kb.trace.wait_for(is_event("text", text="😀" + TONE), "👍🏽 in the field", since=since)
    kb.relayout(since)
    if TONE not in kb.layout["keys"]:
        fail("the chosen tone is not shown in 👍's place")
    category(kb, "flags", changes=True)
    wheel_to(kb, "🇯🇵")
    since = kb.trace.mark()
    kb.click("🇯🇵")
    kb.trace.wait_for(is_event("text", text="😀" + TONE + "🇯🇵"), "🇯🇵 in the field", since=since)
    category(kb, "smileys", changes=True)
    wheel_to(kb, FAMILY)
    since = kb.trace.mark()
    kb.click(FAMILY)
    goal = "😀" + TONE + "🇯🇵" + FAMILY
    kb.trace.wait_for(is_event("text", text=goal), "👨‍👩‍👧 in the field", since=since)
    ok(f"host screen: 🌐 ×2 shows the emoji keyboard; 😀, 👍🏽 (bubble of {len(tones)} tones), 🇯🇵 and 👨‍👩‍👧 "
       f"by clicks and the wheel: the field holds {goal!r} exactly")
    since = kb.trace.mark()
    kb.click("backspace")
    line = kb.trace.wait_for(is_event("text"), "backspace's text line", since=since)
    if line["text"] != "😀" + TONE + "🇯🇵":
        fail(f"backspace left {line['text']!r}: the family was not deleted whole")
    layer_before = kb.layout
    bar = kb.layout["keys"]["emoji:abc"]["y"]
    middle = next(k for k, r in kb.layout["keys"].items()
                  if k != "hee" and r["y"] < bar and r["x"] >= 200 and r["y"] > kb.layout["keys"]["hee"]["y"])
    x, y = kb.key_center(middle)
    since = kb.trace.mark()
    kb.desktop.xdo("mousemove", "--window", str(kb.window), str(x), str(y), "mousedown", "1",
                   "mousemove", "--window", str(kb.window), str(x - 20), str(y),
                   "mousemove", "--window", str(kb.window), str(x - 60), str(y), "mouseup", "1")
    kb.relayout(since)
    kb.trace.drain()
    typed = [e for e in kb.trace.events[since:] if e["event"] == "text"]
    if typed or kb.layout["keys"] == layer_before["keys"]:
        fail(f"a drag sideways typed {typed} or turned no page")
    ok("backspace deletes 👨‍👩‍👧 whole; a drag sideways turns the page and types nothing")
    kb.quit()
    with open(os.path.join(desktop.env["XDG_CONFIG_HOME"], "hee-keyboard", "settings.json"), encoding="utf-8") as f:
        saved = json.load(f)
    if saved.get("emojiRecents") != [FAMILY, "🇯🇵", TONE, "😀"] or saved.get("layout") != "ja-kana":
        fail(f"settings.json after the emoji: {saved}")
    ok(f"settings.json: \"emojiRecents\": {saved['emojiRecents']} (most recent first); \"layout\" the last letters or kana layout, ja-kana")


def system_mode(desktop, binary, workdir):
    term, term_out = system.xterm(desktop, "emoji-term")
    desktop.click_into(term)
    system.wait_until(lambda: desktop.active() == term, "the terminal to be active")
    kb = system.Keyboard(desktop, binary, "emoji-system")
    kb.wait_target(term, "emoji-term")
    show_emoji(kb, start="ja-kana")  # the layout saved by the host screen's run
    goal = "😀" + TONE + "🇯🇵"

    def emoji_into(target, what):
        since = kb.trace.mark()
        category(kb, "smileys")
        kb.click("😀", target)
        # 👍 shows as 👍🏽 once that tone was chosen (the GTK entry's turn).
        key = wheel_to(kb, "👍", TONE)
        choose_tone(kb, key, 2)
        category(kb, "flags")
        wheel_to(kb, "🇯🇵")
        kb.click("🇯🇵", target)
        sent = [e.get("text") for e in kb.sends(since)]
        if sent != ["😀", TONE, "🇯🇵"] or any("dropped" in e for e in kb.sends(since)):
            fail(f"{what}: the keyboard sent {kb.sends(since)}")

    emoji_into(term, "xterm")
    since = kb.trace.mark()
    kb.click("emoji:abc", term)
    kb.trace.wait_for(is_event("keyboardLayout", name="ja-kana"), "ABC back to the kana pad", since=since)
    kb.relayout(since)
    kb.click("return", term)
    system.wait_until(lambda: system.read(term_out) == goal + "\n", f"the terminal to hold {goal!r}")
    ok(f"xterm: {goal!r} exact (ABC back to the kana pad, its 改行 ends the line)")
    out = os.path.join(workdir, "gtk-emoji.txt")
    proc = desktop.spawn([system.PYTHON, os.path.join(system.TARGETS, "gtk_entry.py"), out, "GTK emoji", ""], "gtk-emoji")
    window = int(desktop.window_named("GTK emoji"))
    desktop.click_into(window, 60, -8)
    system.wait_until(lambda: desktop.active() == window, "the GTK entry to be active")
    kb.wait_target(window)
    since = kb.trace.mark()
    kb.click("🌐", window)
    kb.trace.wait_for(is_event("keyboardLayout", name="emoji"), "the emoji keyboard again", since=since)
    kb.relayout(since)
    emoji_into(window, "GTK entry")
    os.killpg(proc.pid, 15)
    text = system.wait_until(lambda: proc.poll() is not None and system.read(out), "the GTK entry to write its text")
    if text != goal:
        fail(f"the GTK entry holds {text!r}, expected {goal!r}")
    ok(f"GTK 3 entry: {goal!r} exact")
    kb.quit()


def main():
    def body(workdir):
        binary = app_binary()
        for tool in ("Xvfb", "xdotool", "openbox", "xterm", system.PYTHON):
            if shutil.which(tool) is None:
                raise Prerequisite(f"emoji end-to-end test: {tool} not found (scripts/install-deps.sh installs it)")
        desktop = system.Desktop(workdir)
        try:
            desktop.start_openbox()
            host_screen(desktop, binary)
            system_mode(desktop, binary, workdir)
            print("# all emoji keyboard checks passed", flush=True)
        finally:
            desktop.close()
    return script_main(body, prefix="hee-emoji-e2e-", skip_missing=True)


if __name__ == "__main__":
    sys.exit(main())
