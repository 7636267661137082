#!/usr/bin/env python3
"""End-to-end test of issue 20's layers, alternates, trackpad and return, with the real app
under Xvfb driven by xdotool (mousedown / mousemove / mouseup for the gestures).

1. Host screen: the text field receives "Hi, it's 3:45 — café? [ok] #1 €5 ¿" exactly, typed
   with the layer keys (taps, and slides from 123 onto , ' ?), the alternates bubble (—, é, €,
   ¿) and the space bar; the space bar held turns into the trackpad (trace `trackpad`) and a
   drag moves the caret 3 characters left and back (trace `text` carets); `return` ends
   editing: the keyboard hides (trace `keyboard` hide), the text stays.
2. System mode: the same sentence, the same gestures, into xterm (`cat`), a GTK 3 entry and a
   Tk entry under `setxkbmap us`, `de`, `fr` and `jp` (one keyboard process, each layout in
   turn); the entries also take the trackpad's Left/Right keys; each target's text is exact;
   `xmodmap -pke` and `xkbcomp` are identical before and after each layout.

Prints `ok - …` per check; exit 1 on the first failure (work directory kept), 2 when a tool is
missing (skipped on a developer's machine, see run_system_tests.py). HEE_LAYER_ONLY=1,2 picks
scenarios; HEE_LAYER_LAYOUTS=us,jp the X layouts of scenario 2; HEE_E2E_KEEP=1 keeps the work
directory.
"""

import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import (Prerequisite, app_binary, fail, is_event, kill_group, ok, require_tools,  # noqa: E402
                         run_scenarios, script_main, start_xvfb)
from layer_typist import MESSAGE, PLAN, Typist  # noqa: E402
from run_e2e import Trace, find_window, launch  # noqa: E402
import run_system_tests as system  # noqa: E402

LAYOUTS = [name for name in os.environ.get("HEE_LAYER_LAYOUTS", "us,de,fr,jp").split(",") if name]
TRACKPAD_STEPS = -3


def xdo_with(env):
    def xdo(*args):
        return system.run(["xdotool", *args], env).strip()
    return xdo


def check_gestures(typist, where):
    """The gestures the plan made were what the trace says: the bubbles that opened and the
    layers shown, in order."""
    opened = [b["key"] for b in typist.bubbles]
    if opened != ["-", "e", "$", "?"]:
        fail(f"{where}: bubbles opened for {opened}, expected -, e, $, ?")
    slides = typist.layers.count("numbers")
    if slides < 6 or "symbols" not in typist.layers:
        fail(f"{where}: layers shown {typist.layers}")
    return f"{len(typist.layers)} layer changes, bubbles of {' '.join(opened)}"


# --------------------------------------------------------------------------- 1. host screen

def host_screen(binary, workdir):
    xvfb, display = start_xvfb()
    app = None
    try:
        env = dict(os.environ, DISPLAY=display, XDG_CONFIG_HOME=os.path.join(workdir, "config"),
                   SDL_AUDIODRIVER="dummy", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        for name in ("GDK_SCALE", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
            env.pop(name, None)
        app = launch(binary, workdir, env)
        trace = Trace(app.stdout)
        trace.wait_for(is_event("keyboard", status="show"), "the keyboard at launch", 20)
        window = find_window(app, env)
        typist = Typist(xdo_with(env), window, trace)
        if "123" not in typist.layout["keys"]:
            fail(f"the first layout has no 123 key: {sorted(typist.layout['keys'])}")
        since = trace.mark()
        typist.type_plan()
        last = trace.wait_for(is_event("text", text=MESSAGE), f"the field to hold {MESSAGE!r}", since=since)
        texts = [e["text"] for e in trace.events[since:] if e["event"] == "text"]
        if texts[-1] != MESSAGE or last["caret"] != len(MESSAGE):
            fail(f"the field holds {texts[-1]!r} (caret {last['caret']}), expected {MESSAGE!r}")
        ok(f"host screen: the field holds {MESSAGE!r} exactly ({len(PLAN)} gestures, "
           f"{check_gestures(typist, 'host screen')})")

        def caret_at(since_index, steps):
            caret_at.position += steps
            trace.wait_for(is_event("text", text=MESSAGE, caret=caret_at.position),
                           f"the caret at {caret_at.position}", since=since_index)
        caret_at.position = len(MESSAGE)
        since = trace.mark()
        typist.trackpad(TRACKPAD_STEPS, caret_at)
        texts = [e for e in trace.events[since:] if e["event"] == "text"]
        if any(e["text"] != MESSAGE for e in texts) or texts[-1]["caret"] != len(MESSAGE):
            fail(f"the trackpad changed the text or left the caret elsewhere: {texts}")
        ok(f"host screen: space held → trackpad; dragged {abs(TRACKPAD_STEPS) * 10 + 5} pt left and back: caret "
           f"{len(MESSAGE)} → {len(MESSAGE) + TRACKPAD_STEPS} → {len(MESSAGE)}; lifting typed nothing")

        since = trace.mark()
        typist.tap("return")
        trace.wait_for(is_event("keyboard", status="hide"), "the keyboard to hide after return", since=since)
        if any(e["event"] == "text" for e in trace.events[since:]):
            fail("return changed the text on the host screen")
        ok("host screen: return ended editing: keyboard hide, the text unchanged")
    finally:
        kill_group(app)
        kill_group(xvfb)


# --------------------------------------------------------------------------- 2. system mode

def entry_result(sends):
    """What an entry (GTK, Tk) makes of `sends` into an empty entry: text at the caret, Left
    and Right move it."""
    chars, caret = [], 0
    for s in sends:
        if "text" in s:
            chars[caret:caret] = list(s["text"])
            caret += len(s["text"])
        elif s.get("key") == "Left":
            caret = max(caret - 1, 0)
        elif s.get("key") == "Right":
            caret = min(caret + 1, len(chars))
        else:
            fail(f"unexpected send {s}")
    return "".join(chars)


def type_into(desktop, kb, label, trackpad):
    """Types the plan into the active window (and drags the trackpad there when asked);
    returns the sends."""
    since = kb.trace.mark()
    typist = Typist(desktop.xdo, kb.window, kb.trace)
    typist.type_plan()
    if trackpad:
        def sent(since_index, steps):
            key = "Left" if steps < 0 else "Right"
            system.wait_until(lambda: sum(1 for s in kb.sends(since_index) if s.get("key") == key) == abs(steps),
                              f"{abs(steps)} {key} keys sent")
        typist.trackpad(TRACKPAD_STEPS, sent)
    sends = kb.sends(since)
    dropped = [s for s in sends if "dropped" in s]
    if dropped:
        fail(f"{label}: sends dropped: {dropped}")
    check_gestures(typist, label)
    return sends


def system_mode(binary, workdir):
    for tool in ("openbox", "xterm", "setxkbmap", "xmodmap", "xkbcomp", system.PYTHON):
        if shutil.which(tool) is None:
            raise Prerequisite(f"{tool} not found (scripts/install-deps.sh installs it)")
    desktop = system.Desktop(workdir)
    try:
        desktop.start_openbox()
        kb = None
        for layout in LAYOUTS:
            started = time.monotonic()
            system.run(["setxkbmap", layout], desktop.env)
            before = desktop.keymap()
            term, term_out = system.xterm(desktop, f"term-{layout}")
            desktop.click_into(term)
            system.wait_until(lambda: desktop.active() == term, "the terminal to be active")
            if kb is None:
                kb = system.Keyboard(desktop, binary, "keyboard")
            kb.wait_target(term, f"term-{layout}")
            sends = type_into(desktop, kb, f"{layout}: xterm", trackpad=False)
            sends += kb.click("return", term)
            expected = system.terminal_result(sends)
            if expected != MESSAGE + "\n":
                fail(f"{layout}: the keys sent to xterm make {expected!r}")
            system.wait_until(lambda: system.read(term_out) == expected, f"{layout}: xterm's cat to write the line")
            results = ["xterm"]
            for name, script, label in (("gtk", "gtk_entry.py", "GTK entry"), ("tk", "tk_entry.py", "Tk entry")):
                out = os.path.join(workdir, f"{name}-{layout}.txt")
                title = f"{label} {layout}"
                proc = desktop.spawn([system.PYTHON, os.path.join(system.TARGETS, script), out, title, ""], f"{name}-{layout}")
                window = int(desktop.window_named(title))
                desktop.click_into(window, 60, -8)
                system.wait_until(lambda: desktop.active() == window, f"{title} to be the active window")
                kb.wait_target(window, title)
                sends = type_into(desktop, kb, f"{layout}: {label}", trackpad=True)
                if entry_result(sends) != MESSAGE:
                    fail(f"{layout}: the keys sent to the {label} make {entry_result(sends)!r}")
                os.killpg(proc.pid, 15)
                text = system.wait_until(lambda: proc.poll() is not None and system.read(out), f"{title} to write {out}")
                if text != MESSAGE:
                    fail(f"{layout}: the {label} holds {text!r}, expected {MESSAGE!r}")
                results.append(label)
            # Borrowed keycodes go back once the pointer has left the keyboard (by the app's
            # clock: waited for).
            desktop.xdo("mousemove", "2", "2")
            system.wait_until(lambda: desktop.keymap() == before,
                              f"{layout}: the keymap as before (xmodmap -pke / xkbcomp) once the pointer left")
            ok(f"setxkbmap {layout}: {', '.join(results)} hold {MESSAGE!r} exactly (the entries after the trackpad's "
               f"{abs(TRACKPAD_STEPS)} Left + Right); xmodmap -pke and xkbcomp unchanged; "
               f"{time.monotonic() - started:.0f} s")
        if kb is not None:
            kb.quit()
    finally:
        desktop.close()


SCENARIOS = [
    (1, "host screen: layers, bubbles, trackpad, return", host_screen),
    (2, "system mode: xterm, GTK, Tk under " + ", ".join(LAYOUTS), system_mode),
]


def main():
    def body(workdir):
        binary = app_binary()
        require_tools("Xvfb", "xdotool")
        probe = subprocess.run([system.PYTHON, "-c", "import gi, tkinter, Xlib; gi.require_version('Gtk', '3.0')"],
                               capture_output=True)
        if probe.returncode != 0:
            raise Prerequisite(f"{system.PYTHON} lacks gi (GTK 3), tkinter or Xlib")
        run_scenarios(SCENARIOS, "HEE_LAYER_ONLY", binary, workdir)
    return script_main(body, prefix="hee-layer-e2e-", skip_missing=True)


if __name__ == "__main__":
    sys.exit(main())
