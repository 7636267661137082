#!/usr/bin/env python3
"""End-to-end test of the desktop row in system mode (issue 21): `esc` `tab` `ctrl` `alt` and
the arrows of `HeeApp --system`, clicked with xdotool only, typing into real applications on
a real X desktop under several keyboard layouts.

Its own Xvfb with openbox (as run_system_tests.py, whose Desktop and Keyboard it uses), two
targets, and the setting:

- an xterm running a raw terminal (`stty raw -echo; cat -v > FILE`, xterm's metaSendsEscape
  on, so Alt+x arrives as ESC x): under `setxkbmap us`, `de`, `fr` (AZERTY: a, z, q, w, m
  elsewhere) and `jp`, each key's bytes arrive exactly — `^[` esc, `^I` tab (a tab byte:
  `cat -v` writes it as it is), `^C` `^A` `^Z` ctrl (latched) + c / a / z (Control with the
  keysym, wherever the layout has it), `^[x`
  alt + x, `^[[D` `^[[B` `^[[A` `^[[C` the arrows, `^H` or `^?` ctrl + backspace, and
  「へぇ〜」's UTF-8 unchanged after ctrl (latched) + へぇ; under `us` also ctrl (latched) with
  ← held, repeating `^[[1;5D` (Control held for every repeat); each key's `send` lines and
  the `modifier` lines (on, then off once used) checked in the trace;
- a GTK 3 entry (Tests/e2e/targets/gtk_entry.py --state, which reports its text, caret and
  selection on every change): "hello world" typed, ctrl (latched) + a selects it all, x
  replaces it; ← ← and a letter land inside the text; ctrl double-tapped (locked) + ← ← moves
  by words; a tap on ctrl turns it off and the next letter is plain;
- the setting: `"desktopKeys": true` shows the row on the host screen too (ctrl + a, x there
  leaves "x" in its field), `false` hides it with `--system` (480x458: the kana pad's candidate bar counts, ja-kana being among the globe key's default layouts) unless
  `--desktop-keys`, absent shows it with `--system` only, `--no-desktop-keys` hides it; no run
  writes the setting.

After each layout, and at the end, the X server is as before: `xmodmap -pke` and `xkbcomp`
identical (spare keycodes are given back 2 s after the pointer leaves the keyboard: waited
for), no modifier set in the server's state and no key down (QueryPointer / QueryKeymap,
Tests/e2e/targets/modifier_state.py).

Prints `ok - …` per check; exit 1 on the first failure (artifacts kept). A missing tool skips
the test with one line (exit 0) on a developer's machine and fails it (exit 2) under CI.
Environment: HEE_APP, HEE_E2E_KEEP=1, HEE_E2E_SYSTEM_PYTHON (as run_system_tests.py).
"""

import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Prerequisite, app_binary, ok, fail, script_main  # noqa: E402
from run_e2e import is_event  # noqa: E402
from run_system_tests import PYTHON, TARGETS, Desktop, Keyboard, read, run, wait_until  # noqa: E402

HEE_TEXT = "へぇ〜"


def cat_v(data):
    """What GNU `cat -v` writes for `data` (bytes): control characters as ^X except tab and
    line feed (written as they are), DEL as ^?, bytes of 128 and more as M- and the rest."""
    out = []
    for b in data:
        if b >= 128:
            out.append("M-")
            b -= 128
        out.append("^?" if b == 127 else chr(b) if b in (9, 10) or b >= 32 else "^" + chr(b + 64))
    return "".join(out)


def ctrl(key):
    return {"key": f"ctrl+{key}", "modifiers": ["ctrl"]}


# Each step: the keys clicked, the sends the trace must show, the modifier lines (key, state)
# in order, and what `cat -v` writes for it (one of several where the terminal may choose).
TERMINAL_STEPS = [
    (["esc"], [{"key": "Escape"}], [], ["^["]),
    (["tab"], [{"key": "Tab"}], [], ["\t"]),  # ^I: `cat -v` writes a tab as it is
    (["ctrl", "c"], [ctrl("c")], [("ctrl", "on"), ("ctrl", "off")], ["^C"]),
    (["ctrl", "a"], [ctrl("a")], [("ctrl", "on"), ("ctrl", "off")], ["^A"]),
    (["ctrl", "z"], [ctrl("z")], [("ctrl", "on"), ("ctrl", "off")], ["^Z"]),
    (["alt", "x"], [{"key": "alt+x", "modifiers": ["alt"]}], [("alt", "on"), ("alt", "off")], ["^[x"]),
    (["left"], [{"key": "Left"}], [], ["^[[D"]),
    (["down"], [{"key": "Down"}], [], ["^[[B"]),
    (["up"], [{"key": "Up"}], [], ["^[[A"]),
    (["right"], [{"key": "Right"}], [], ["^[[C"]),
    # xterm sends ^? for BackSpace (its erase character) and ^H with Ctrl.
    (["ctrl", "backspace"], [ctrl("BackSpace")], [("ctrl", "on"), ("ctrl", "off")], ["^H", "^?"]),
    # The へぇ button uses Ctrl up, and its text arrives unchanged (Ctrl released around it).
    (["ctrl", "hee"], [{"text": HEE_TEXT}], [("ctrl", "on"), ("ctrl", "off")], [cat_v(HEE_TEXT.encode())]),
]


# Seed 002: a touch-down less than 0.25 s after the modifier's previous one is a double tap,
# whatever came between (ctrl, c, ctrl quickly locks). A tap meant as a tap waits this long
# after the trace showed the previous tap handled: the app's time between the two presses is
# then longer still, however busy it is (Tests/e2e/README.md, "No timing in the checks").
TAP_GAP = 0.3
last_tap = {}


def click(kb, key, target):
    """Clicks `key` (a ctrl or alt tap a single tap, never half of a double tap)."""
    if key in ("ctrl", "alt") and key in last_tap:
        time.sleep(max(0.0, last_tap[key] + TAP_GAP - time.monotonic()))
    sends = kb.click(key, target)
    if key in ("ctrl", "alt"):
        last_tap[key] = time.monotonic()
    return sends


def modifier_lines(events):
    return [(e["key"], e["state"]) for e in events if e["event"] == "modifier"]


def plain_sends(events):
    return [{k: v for k, v in e.items() if k not in ("event", "t")} for e in events if e["event"] == "send"]


def server_state(desktop):
    return json.loads(run([PYTHON, os.path.join(TARGETS, "modifier_state.py")], desktop.env))


def expect_released(desktop, when):
    state = server_state(desktop)
    if state["modifiers"] or state["keys"]:
        fail(f"{when}: the X server still has modifiers {state['modifiers']} set and keys {state['keys']} down")


def raw_terminal(desktop, name):
    out = os.path.join(desktop.workdir, f"{name}.txt")
    desktop.spawn(["xterm", "-u8", "-xrm", "XTerm*metaSendsEscape: true", "-T", name, "-geometry", "70x8+20+20",
                   "-e", "sh", "-c", f"stty raw -echo; exec cat -v > {out}"], name)
    window = int(desktop.window_named(name))
    # The terminal is raw once cat has opened the file (it opens it after stty ran).
    wait_until(lambda: read(out) is not None, f"{name}: cat to open {out}")
    return window, out


def terminal_layout(desktop, kb, term, out, layout):
    """The steps under `layout`; returns what the terminal holds after them."""
    run(["setxkbmap", layout], desktop.env)
    before = desktop.keymap()
    written = read(out)
    for keys, sends, modifiers, shown in TERMINAL_STEPS:
        since = kb.trace.mark()
        for key in keys:
            click(kb, key, term)
        events = kb.trace.events[since:]
        if plain_sends(events) != sends:
            fail(f"{layout}: {' + '.join(keys)} sent {plain_sends(events)}, expected {sends}")
        if modifier_lines(events) != modifiers:
            fail(f"{layout}: {' + '.join(keys)} traced modifier lines {modifier_lines(events)}, expected {modifiers}")
        choices = [written + text for text in shown]
        wait_until(lambda: read(out) in choices, f"{layout}: {' + '.join(keys)} to write one of {shown} to the terminal")
        written = read(out)
    if layout == "us":
        written = held_arrow(desktop, kb, term, out, written)
    # Spare keycodes (for へ, ぇ, 〜) go back 2 s after the pointer left the keyboard.
    desktop.xdo("mousemove", "2", "2")
    wait_until(lambda: desktop.keymap() == before, f"{layout}: the keymap as before (xmodmap -pke, xkbcomp) once the pointer left")
    expect_released(desktop, f"after the keys under {layout}")
    return written


def held_arrow(desktop, kb, term, out, written):
    """Ctrl latched, then ← held until the trace shows three repeats after the press: each is
    Ctrl+Left, which xterm writes as CSI 1;5D."""
    click(kb, "ctrl", term)
    sends = kb.hold("left", lambda sent: len(sent) >= 4)
    keys = [s.get("key") for s in sends]
    if keys != ["ctrl+Left"] * len(keys):
        fail(f"ctrl latched and ← held sent {keys}, expected only ctrl+Left")
    expected = written + "^[[1;5D" * len(keys)
    wait_until(lambda: read(out) == expected, f"the terminal to hold {len(keys)} × ^[[1;5D")
    ok(f"us: ctrl (latched) and ← held: {len(keys)} × ctrl+Left (the press and its repeats) arrive as ^[[1;5D")
    return expected


def check_terminal(desktop, kb):
    term, out = raw_terminal(desktop, "hee-raw")
    desktop.click_into(term)
    wait_until(lambda: desktop.active() == term, "the raw terminal to be active")
    kb.wait_target(term, "hee-raw")
    for layout in ("us", "de", "fr", "jp"):
        start = read(out)
        written = terminal_layout(desktop, kb, term, out, layout)
        ok(f"setxkbmap {layout}: raw terminal got exactly {written[len(start):]!r}; send and modifier lines exact; "
           f"keymap as before, no modifier or key left down")
    run(["setxkbmap", "us"], desktop.env)


# --------------------------------------------------------------------------- GTK

class Entry:
    """A GTK 3 entry that reports its state on every change (gtk_entry.py --state)."""

    def __init__(self, desktop, label):
        self.out = os.path.join(desktop.workdir, "gtk-state.json")
        self.proc = desktop.spawn([PYTHON, os.path.join(TARGETS, "gtk_entry.py"), "--state", self.out, label], "gtk-state")
        self.window = int(desktop.window_named(label))

    def state(self):
        text = read(self.out)
        try:
            return json.loads(text) if text else None
        except json.JSONDecodeError:
            return None

    def wait(self, what, text, caret, bound=None):
        expected = {"text": text, "caret": caret, "bound": caret if bound is None else bound}
        deadline = time.monotonic() + 10
        while self.state() != expected:
            if time.monotonic() > deadline:
                fail(f"GTK entry: after {what} it holds {self.state()}, expected {expected}")
            time.sleep(0.02)


def type_keys(kb, window, text):
    for character in text:
        kb.click("space" if character == " " else character, window)


def check_gtk(desktop, kb):
    entry = Entry(desktop, "GTK desktop keys")
    desktop.click_into(entry.window, 60, -8)  # the title bar: focus without moving the caret
    wait_until(lambda: desktop.active() == entry.window, "the GTK window to be active")
    kb.wait_target(entry.window, "GTK desktop keys")
    w = entry.window

    type_keys(kb, w, "hello world")
    entry.wait("typing hello world", "hello world", 11)
    since = kb.trace.mark()
    click(kb, "ctrl", w)
    kb.click("a", w)
    entry.wait("ctrl (latched) + a", "hello world", 11, bound=0)
    if modifier_lines(kb.trace.events[since:]) != [("ctrl", "on"), ("ctrl", "off")]:
        fail(f"ctrl + a: modifier lines {modifier_lines(kb.trace.events[since:])}")
    kb.click("x", w)
    entry.wait("x over the selection", "x", 1)
    ok("GTK entry: hello world, ctrl (latched) + a selects it all, x replaces it: \"x\"")

    kb.click("backspace", w)
    type_keys(kb, w, "hello world")
    entry.wait("typing hello world again", "hello world", 11)
    kb.click("left", w)
    kb.click("left", w)
    entry.wait("← ←", "hello world", 9)
    kb.click("y", w)
    entry.wait("y after ← ←", "hello woryld", 10)
    ok("GTK entry: ← ← and y land inside the text: \"hello woryld\"")

    since = kb.trace.mark()
    x, y = kb.key_center("ctrl")
    time.sleep(max(0.0, last_tap["ctrl"] + TAP_GAP - time.monotonic()))
    desktop.xdo("mousemove", "--window", str(kb.window), str(x), str(y), "click", "--repeat", "2", "--delay", "40", "1")
    kb.trace.wait_for(is_event("modifier", key="ctrl", state="locked"), what="ctrl locked", since=since)
    kb.click("left", w)
    entry.wait("ctrl (locked) + ←", "hello woryld", 6)
    kb.click("left", w)
    entry.wait("ctrl (locked) + ← ←", "hello woryld", 0)
    kb.click("right", w)
    entry.wait("ctrl (locked) + →", "hello woryld", 5)
    last_tap["ctrl"] = time.monotonic()
    click(kb, "ctrl", w)
    kb.click("j", w)
    entry.wait("ctrl off, then j", "helloj woryld", 6)
    lines = modifier_lines(kb.trace.events[since:])
    if lines != [("ctrl", "on"), ("ctrl", "locked"), ("ctrl", "off")]:
        fail(f"ctrl locked then off: modifier lines {lines}")
    sends = plain_sends(kb.trace.events[since:])
    if sends != [ctrl("Left"), ctrl("Left"), ctrl("Right"), {"text": "j"}]:
        fail(f"ctrl locked: sends {sends}")
    ok("GTK entry: ctrl double-tapped (locked) + ← ← moves by words (to 6, then 0), + → to the word's end; "
       "a tap turns it off (modifier on, locked, off) and j types plain")
    os.killpg(entry.proc.pid, 15)
    wait_until(lambda: entry.proc.poll() is not None, "the GTK entry to end")


# --------------------------------------------------------------------------- the setting

def settings_path(desktop):
    return os.path.join(desktop.env["XDG_CONFIG_HOME"], "hee-keyboard", "settings.json")


def write_settings(desktop, text):
    os.makedirs(os.path.dirname(settings_path(desktop)), exist_ok=True)
    with open(settings_path(desktop), "w", encoding="utf-8") as f:
        f.write(text)


def has_row(kb):
    return all(key in kb.layout["keys"] for key in ("esc", "tab", "ctrl", "alt", "left", "down", "up", "right"))


def check_setting(desktop, binary):
    """"desktopKeys" in settings.json and the flags, through the real program: the row is
    where they say, and neither a flag nor a run writes the setting."""
    # true: the host screen shows the row too, and its keys act on the text field.
    saved = '{"desktopKeys": true, "volume": 80}\n'
    write_settings(desktop, saved)
    host = Keyboard(desktop, binary, "host-row", args=("--mute",), system=False)
    settings = host.trace.wait_for(is_event("settings"), "the settings line", 10, since=0, consume=False)
    if not has_row(host) or settings.get("desktopKeys") is not True or host.layout["window"] != {"w": 480, "h": 800}:
        fail(f"host screen with \"desktopKeys\": true: settings {settings}, window {host.layout['window']}, "
             f"keys {sorted(host.layout['keys'])}")
    since = host.trace.mark()
    for key in ("h", "i", "ctrl", "a", "x"):
        click(host, key, None)
    host.trace.wait_for(is_event("text", text="x", caret=1), "ctrl + a, x on the host screen's field", since=since)
    host.quit()
    if read(settings_path(desktop)) != saved:
        fail(f"the host screen run changed settings.json: {read(settings_path(desktop))!r}")
    ok("\"desktopKeys\": true: the host screen shows the row (settings line desktopKeys true); hi, ctrl + a, x "
       "leaves \"x\" in its field; settings.json untouched")

    # false: system mode without the row (a shorter window), unless --desktop-keys.
    saved = '{"desktopKeys": false}\n'
    write_settings(desktop, saved)
    plain = Keyboard(desktop, binary, "system-no-row", args=("--mute",))
    plain.quit()
    if has_row(plain) or "ctrl" in plain.layout["keys"] or plain.layout["window"] != {"w": 480, "h": 458}:
        fail(f"--system with \"desktopKeys\": false: window {plain.layout['window']}, keys {sorted(plain.layout['keys'])}")
    flagged = Keyboard(desktop, binary, "system-flag-row", args=("--mute", "--desktop-keys"))
    flagged.quit()
    if not has_row(flagged) or flagged.layout["window"] != {"w": 480, "h": 506}:
        fail(f"--system --desktop-keys over \"desktopKeys\": false: window {flagged.layout['window']}")
    if read(settings_path(desktop)) != saved:
        fail(f"--desktop-keys was saved: {read(settings_path(desktop))!r}")
    ok("\"desktopKeys\": false: --system shows no row (480x458); --desktop-keys shows it for the run (480x506) "
       "and is not saved")

    # Absent: the host screen has no row; --no-desktop-keys hides system mode's.
    os.remove(settings_path(desktop))
    host = Keyboard(desktop, binary, "host-plain", args=("--mute",), system=False)
    host.quit()
    hidden = Keyboard(desktop, binary, "system-flag-plain", args=("--mute", "--no-desktop-keys"))
    hidden.quit()
    if "ctrl" in host.layout["keys"] or "ctrl" in hidden.layout["keys"] or hidden.layout["window"] != {"w": 480, "h": 458}:
        fail(f"no setting: the host screen's keys {sorted(host.layout['keys'])}; --system --no-desktop-keys "
             f"{hidden.layout['window']} {sorted(hidden.layout['keys'])}")
    ok("no setting: the host screen has no row; --system --no-desktop-keys neither (480x458)")


# --------------------------------------------------------------------------- main

def run_checks(desktop, binary):
    started = time.monotonic()
    desktop.start_openbox()
    run(["setxkbmap", "us"], desktop.env)
    keymap_before = desktop.keymap()
    expect_released(desktop, "before the keyboard ran")
    kb = Keyboard(desktop, binary, "keyboard", args=("--mute",))
    settings = kb.trace.wait_for(is_event("settings"), "the settings line", 10, since=0, consume=False)
    if settings.get("desktopKeys") is not True:
        fail(f"--system's settings line: desktopKeys {settings.get('desktopKeys')!r}, expected true")
    missing = [k for k in ("esc", "tab", "ctrl", "alt", "left", "down", "up", "right") if k not in kb.layout["keys"]]
    if missing:
        fail(f"the layout line lacks the desktop row's {missing}")
    ok(f"Xvfb {desktop.display} with openbox; --system shows the desktop row (settings desktopKeys true, layout names "
       f"esc tab ctrl alt left down up right)")

    check_terminal(desktop, kb)
    check_gtk(desktop, kb)

    desktop.xdo("mousemove", "2", "2")
    wait_until(lambda: desktop.keymap() == keymap_before, "the keymap as before the keyboard ran (xmodmap -pke / xkbcomp)")
    expect_released(desktop, "after the GTK entry")
    kb.quit()
    if desktop.keymap() != keymap_before:
        fail("the keymap differs after the keyboard quit")
    expect_released(desktop, "after the keyboard quit")
    dropped = [e for e in kb.trace.events if e["event"] == "send" and "dropped" in e]
    if dropped:
        fail(f"sends dropped: {dropped}")
    ok("after the run: xmodmap -pke and xkbcomp identical to before, no modifier set and no key down in the "
       "X server's state; exit 0 on SIGTERM")

    check_setting(desktop, binary)
    ok(f"desktop keys end-to-end: {time.monotonic() - started:.0f} s")


def main():
    def body(workdir):
        binary = app_binary()
        for tool in ("Xvfb", "xdotool", "openbox", "xterm", "setxkbmap", "xmodmap", "xkbcomp", "xprop", PYTHON):
            if shutil.which(tool) is None:
                raise Prerequisite(f"desktop-keys end-to-end test: {tool} not found (scripts/install-deps.sh installs it)")
        probe = subprocess.run([PYTHON, "-c", "import gi, Xlib; gi.require_version('Gtk', '3.0')"], capture_output=True)
        if probe.returncode != 0:
            raise Prerequisite(f"desktop-keys end-to-end test: {PYTHON} lacks gi (GTK 3) or Xlib "
                               "(python3-gi, gir1.2-gtk-3.0, python3-xlib)")
        desktop = None
        try:
            desktop = Desktop(workdir)
            run_checks(desktop, binary)
            print("# all desktop-keys checks passed", flush=True)
        finally:
            if desktop is not None:
                desktop.close()
    return script_main(body, prefix="hee-desktop-keys-e2e-", skip_missing=True)


if __name__ == "__main__":
    sys.exit(main())
