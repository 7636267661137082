#!/usr/bin/env python3
"""End-to-end test of system mode typing into real browsers on X11 (issue 28, class 1):
Chromium and Firefox ESR, each in a `<textarea>` and an `<input>` of a local page
(browser_support.py) that reports the field's value on every change, so the text is read back
exactly as the browser holds it.

Its own Xvfb with openbox (run_system_tests.Desktop), one `HeeApp --system --trace` (the `en`
layout) driven only by pointer gestures through XTEST (targets/xtest_pointer.py: clicks,
down–move–up for slides and the alternates bubbles); the field is focused by a click. In each browser, each
field, at two paces — a person's (each key held 80 ms, 150 ms between keys) and 20 ms
between keys (a click, the next 20 ms after the app handled it) — it types:

- the sentence "Hi, it's 3:45 — café? ¥5 •" (slides from 123 onto , ' ?, the bubbles of - and
  e, ¥ and • from #+=);
- a share of every alternate of the en layout's bubbles and of every key of #+=, so that in
  each browser each of them is typed exactly once (its first use there: the characters the
  keymap lacks go on spare keycodes, remapped as they come);
- Return, BackSpace, ← ← →, a letter (it lands before the last character), then ctrl + a and a
  letter (it replaces everything);

and checks the field's value after the text and after ctrl + a (exact), that no keystroke was
dropped, and that `xmodmap -pke` and `xkbcomp` are the same as before the keyboard started
once the pointer has left it (also after the symbols layer was shown and nothing typed
from it: a prepared but unused loan goes back) and after it quit.

Prints `ok - …` per check; exit 1 on the first failure (work directory kept), 2 when a tool is
missing (skipped on a developer's machine, see run_system_tests.py). HEE_BROWSERS=chromium
picks browsers; HEE_BROWSER_PACES=fast the paces; HEE_E2E_KEEP=1 keeps the work directory
(traces, browser logs); HEE_BROWSER_DEBUG=1 adds, on a failure, a screenshot (failure.png),
the pointer's place and the keyboard's stacks (gdb).
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import REPO_ROOT, Prerequisite, app_binary, fail, is_event, ok, require_tools, script_main  # noqa: E402
import browser_support  # noqa: E402
from layer_typist import OPENING  # noqa: E402
import run_system_tests as system  # noqa: E402

BROWSERS = [b for b in os.environ.get("HEE_BROWSERS", "chromium,firefox").split(",") if b]
PACES = [p for p in os.environ.get("HEE_BROWSER_PACES", "person,fast").split(",") if p]
FIELDS = ["area", "line"]
TITLE = "HeeKeyboard browser test"
SENTENCE = "Hi, it's 3:45 — café? ¥5 •"
SENTENCE_PLAN = OPENING + [
    ("tap", "123"), ("tap", "#+="), ("tap", "¥"), ("tap", "123"), ("tap", "5"), ("tap", "space"),
    ("tap", "#+="), ("tap", "•"), ("tap", "ABC"),
]
# The en layout's keys with alternates, by layer (layouts/en.json), and #+='s keys.
ALTERNATES = {"letters": ["e", "a", "c", "i", "l", "n", "o", "s", "u", "y", "z"],
              "numbers": ["-", "$", ".", "?", "!", "'", "\"", "0"]}
LAYER_KEYS = {"123": "numbers", "#+=": "symbols", "ABC": "letters"}
# A person's pace: each key held this long, and this long between keys (seconds).
PERSON_HOLD, PERSON_GAP = 0.08, 0.15
FAST_GAP = 0.02


class Pointer:
    """targets/xtest_pointer.py, one process for the whole test: each command line costs no
    process start, so 20 ms between keys is 20 ms."""

    def __init__(self, desktop):
        self.proc = subprocess.Popen([system.PYTHON, os.path.join(system.TARGETS, "xtest_pointer.py")], env=desktop.env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True)
        desktop.procs.append(self.proc)

    def run(self, commands):
        """Sends `commands` (lines) and waits until the X server has taken them."""
        self.proc.stdin.write("".join(c + "\n" for c in commands) + "sync\n")
        self.proc.stdin.flush()
        if self.proc.stdout.readline().strip() != "ok":
            fail(f"xtest_pointer.py stopped (status {self.proc.poll()})")


class Typist:
    """Pointer gestures on the keyboard at a pace, following (or predicting) the layer shown.

    The keys of every layer are learnt once from the trace's `layout` lines (`learn`). Every
    key waits for the trace to show the one before handled; the paces differ in how long a
    key is held and how long after that the next comes."""

    def __init__(self, desktop, kb):
        self.desktop, self.kb, self.trace = desktop, kb, kb.trace
        self.pointer = Pointer(desktop)
        self.window = str(kb.window)
        self.layouts = {}
        self.layer = None

    def _layout_event(self, since):
        self.trace.drain()
        found = [e for e in self.trace.events[since:] if e["event"] == "layout"]
        return found[-1] if found else None

    def learn(self):
        """Taps through 123, #+= and ABC (waiting for each) and keeps each layer's keys."""
        self.layer = "letters"
        self.layouts["letters"] = self._layout_event(0)
        for key in ("123", "#+=", "ABC"):
            since = self.trace.mark()
            self.pointer.run([self.move(key), "down", "up"])
            shown = self.trace.wait_for(is_event("layer"), f"{key} to show its layer", since=since)
            self.trace.wait_for(is_event("layout"), "its layout", since=since)
            self.layer = shown["name"]
            self.layouts[self.layer] = self._layout_event(since)
        if self.layer != "letters" or set(self.layouts) != {"letters", "numbers", "symbols"}:
            fail(f"layers learnt: {sorted(self.layouts)}, showing {self.layer}")

    def move(self, key, layer=None):
        """The pointer command that moves onto `key` of `layer` (default: the layer shown)."""
        rect = self.layouts[layer or self.layer]["keys"].get(key)
        if rect is None:
            fail(f"the {layer or self.layer} layer has no key {key!r}")
        return f"move {self.window} {round(rect['x'] + rect['w'] / 2)} {round(rect['y'] + rect['h'] / 2)}"

    def type(self, plan, pace):
        """Types `plan` ((gesture, args…) as in layer_typist) at `pace` (`person`, `fast`)."""
        for gesture, *args in plan:
            getattr(self, f"_{gesture}_{pace}")(*args)

    # A person: every key pressed, held, released, its release waited for in the trace.
    def _press_person(self, key, then_move_to=None):
        since = self.trace.mark()
        self.pointer.run([self.move(key), "down", f"sleep {PERSON_HOLD * 1000:.0f}"])
        target = key
        if then_move_to is not None:
            layer = LAYER_KEYS[key]
            self.trace.wait_for(is_event("layer", name=layer), f"{key} to show {layer}", since=since)
            self.pointer.run([self.move(then_move_to, layer), f"sleep {PERSON_HOLD * 1000:.0f}"])
            target = then_move_to
        self.pointer.run(["up"])
        self.trace.wait_for(is_event("touch", key=target, down=False), f"{target} released", since=since)
        time.sleep(PERSON_GAP)

    def _tap_person(self, key):
        self._press_person(key)
        self.layer = LAYER_KEYS.get(key, self.layer)

    def _slide_person(self, layer_key, key):
        self._press_person(layer_key, then_move_to=key)

    # 20 ms between keys, each sent once the app has handled the one before (its release in
    # the trace): openbox, click to focus, holds every click on a window in a synchronous
    # grab until it has looked at it, and while it digests a keymap change (it grabs its key
    # bindings again) a click sent 20 ms after the last can wait there for 100 ms and more
    # while later motions go through: the clicks of a blind burst then land where the last
    # motion put the pointer (seen here; none of that without a window manager).
    def _tap_fast(self, key):
        since = self.trace.mark()
        self.pointer.run([self.move(key), "down", "up"])
        self.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released", since=since)
        self.layer = LAYER_KEYS.get(key, self.layer)
        time.sleep(FAST_GAP)

    def _slide_fast(self, layer_key, key):
        since = self.trace.mark()
        layer = LAYER_KEYS[layer_key]
        self.pointer.run([self.move(layer_key), "down"])
        self.trace.wait_for(is_event("layer", name=layer), f"{layer_key} to show {layer}", since=since)
        self.pointer.run([f"sleep {FAST_GAP * 1000:.0f}", self.move(key, layer), f"sleep {FAST_GAP * 1000:.0f}", "up"])
        self.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released", since=since)
        time.sleep(FAST_GAP)

    # A bubble: held until the trace shows it open, at any pace.
    def _hold(self, key, choice, gap):
        since = self.trace.mark()
        self.pointer.run([self.move(key), "down"])
        bubble = self.trace.wait_for(is_event("alternates", key=key), f"{key}'s bubble", since=since)
        cells = [c for c in bubble["choices"] if c["text"] == choice]
        if not cells:
            self.pointer.run(["up"])
            fail(f"{key}'s bubble offers {[c['text'] for c in bubble['choices']]}, not {choice!r}")
        x, y = cells[0]["x"] + cells[0]["w"] / 2, cells[0]["y"] + cells[0]["h"] / 2
        self.pointer.run([f"move {self.window} {round(x)} {round(y)}", f"sleep {gap * 1000:.0f}", "up"])
        self.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released on {choice}", since=since)
        time.sleep(gap)

    def _hold_person(self, key, choice):
        self._hold(key, choice, PERSON_GAP)

    def _hold_fast(self, key, choice):
        self._hold(key, choice, FAST_GAP)


def extras_plan(alternates, symbols):
    """A plan typing `alternates` ((layer, key, choice)…) and `symbols` (keys of #+=) from the
    letters layer, back on it at the end; and the text it types."""
    plan, text, layer = [], "", "letters"
    for where, key, choice in alternates:
        if where != layer:
            plan.append(("tap", "123" if where == "numbers" else "ABC"))
            layer = where
        plan.append(("hold", key, choice))
        text += choice
    if symbols:
        if layer == "letters":
            plan.append(("tap", "123"))
        plan.append(("tap", "#+="))
        layer = "symbols"
        for key in symbols:
            plan.append(("tap", key))
            text += key
    if layer != "letters":
        plan.append(("tap", "ABC"))
    return plan, text


def en_alternates():
    """The en layout's alternates, from the layout file the app loads."""
    with open(os.path.join(REPO_ROOT, "layouts", "en.json"), encoding="utf-8") as f:
        keys = json.load(f)["keys"]
    return {key: value["alternates"] for key, value in keys.items() if "alternates" in value}


def split(items, parts):
    return [items[i::parts] for i in range(parts)]


def type_run(desktop, kb, server, typist, browser, field, pace, plan, text):
    """One run: the field emptied and focused by a click, `plan` at `pace`, then the editing
    keys; checks the values read back."""
    label = f"{browser.name} <{'textarea' if field == 'area' else 'input'}> {pace}"
    started = time.monotonic()
    window = browser.click_field(server, desktop.xdo, field, TITLE)
    kb.wait_target(int(window))
    since_trace = kb.trace.mark()
    since = server.mark()
    typist.type(plan, pace)
    # Return (a line break in the textarea, nothing in the input), BackSpace, ← ← →, x.
    edit = [("tap", "return"), ("tap", "backspace"), ("tap", "left"), ("tap", "left"), ("tap", "right"), ("tap", "x")]
    typist.type(edit, pace)
    before = text if field == "area" else text[:-1]
    expected = before[:-1] + "x" + before[-1:]
    kb.trace.wait_for(is_event("touch", key="x", down=False), "the last key released", since=since_trace)
    server.wait_value(field, expected, f"{label}: the field to hold {expected!r}", since=since)
    typist.type([("tap", "ctrl"), ("tap", "a"), ("tap", "y")], pace)
    server.wait_value(field, "y", f"{label}: ctrl + a and y to leave 'y'", since=since)
    sends = kb.sends(since_trace)
    dropped = [s for s in sends if "dropped" in s]
    if dropped:
        fail(f"{label}: keystrokes dropped: {dropped}")
    # Empty the field for the next run (ctrl + a, backspace). A ctrl touch-down within 0.25 s
    # of the last one would be a double tap (seed 002: locked): kept further apart.
    time.sleep(0.3)
    typist.type([("tap", "ctrl"), ("tap", "a"), ("tap", "backspace")], "person")
    server.wait_value(field, "", f"{label}: the field emptied", since=since)
    ok(f"{label}: {len(text)} characters ({len(plan)} gestures) exact, then Return, BackSpace, ← ← →, x and "
       f"ctrl + a, y exact; nothing dropped; {time.monotonic() - started:.1f} s")


def browsers(binary, workdir):
    alternates = en_alternates()
    desktop = system.Desktop(workdir)
    try:
        desktop.start_openbox()
        keymap_before = desktop.keymap()
        kb = system.Keyboard(desktop, binary, "keyboard")
        # Below the browsers' windows (800 × 400 at the top left).
        desktop.xdo("windowmove", "--sync", str(kb.window), "780", "430")
        typist = Typist(desktop, kb)
        typist.learn()
        runs = [(field, pace) for field in FIELDS for pace in PACES]
        every = [(layer, key, choice) for layer, keys in ALTERNATES.items() for key in keys for choice in alternates[key]]
        not_text = {"hee", "123", "ABC", "backspace", "space", "return", "esc", "tab", "ctrl", "alt", "left", "down",
                    "up", "right", "🌐"}
        symbols = [k for k in typist.layouts["symbols"]["keys"] if k not in not_text]
        if len(every) < 60 or len(symbols) != 25:
            fail(f"en's alternates ({len(every)}) or #+= keys ({symbols}) are not what the test expects")
        with browser_support.PageServer(TITLE) as server:
            for name in BROWSERS:
                started = time.monotonic()
                since = server.mark()
                browser = browser_support.BROWSERS[name](server.url("area"), desktop.env, workdir)
                try:
                    startup = browser.wait_ready(server, "area", since)
                    for (field, pace), share, keys in zip(runs, split(every, len(runs)), split(symbols, len(runs))):
                        plan, extra = extras_plan(share, keys)
                        type_run(desktop, kb, server, typist, browser, field, pace, SENTENCE_PLAN + plan, SENTENCE + extra)
                finally:
                    browser.close()
                ok(f"{name}: every alternate of en ({len(every)}) and every #+= key ({len(symbols)}) typed once, "
                   f"exact; started in {startup:.1f} s; {time.monotonic() - started:.0f} s in all")
        # The symbols layer shown (its € £ ¥ • prepared) and nothing typed: the loans go back too.
        typist.type([("tap", "123"), ("tap", "#+=")], "person")
        desktop.xdo("mousemove", "2", "2")
        system.wait_until(lambda: desktop.keymap() == keymap_before,
                          "the keymap as before the keyboard started (xmodmap -pke / xkbcomp) once the pointer left it")
        kb.quit()
        if desktop.keymap() != keymap_before:
            fail("the keymap differs after the keyboard quit")
        ok("xmodmap -pke and xkbcomp identical before and after (also with #+= shown last and nothing typed from it)")
    except Exception:
        if os.environ.get("HEE_BROWSER_DEBUG"):
            subprocess.run(["import", "-window", "root", os.path.join(workdir, "failure.png")], env=desktop.env)
            print(desktop.xdo("getmouselocation"), desktop.xdo("search", "--onlyvisible", "--name", "."))
            for kb_ in desktop.keyboards:
                subprocess.run(["gdb", "-batch", "-p", str(kb_.proc.pid), "-ex", "thread apply all bt"])
        raise
    finally:
        desktop.close()


def main():
    def body(workdir):
        binary = app_binary()
        require_tools("Xvfb", "xdotool", "openbox", "xmodmap", "xkbcomp")
        for name in BROWSERS:
            if name not in browser_support.BROWSERS:
                raise Prerequisite(f"HEE_BROWSERS names {name!r}; known: {', '.join(browser_support.BROWSERS)}")
            require_tools(browser_support.BROWSERS[name].executable)
        probe = subprocess.run([system.PYTHON, "-c", "import Xlib"], capture_output=True)
        if probe.returncode != 0:
            raise Prerequisite(f"{system.PYTHON} lacks Xlib")
        started = time.monotonic()
        browsers(binary, workdir)
        ok(f"browsers end-to-end: {time.monotonic() - started:.0f} s")
    return script_main(body, prefix="hee-browser-e2e-", skip_missing=True)


if __name__ == "__main__":
    sys.exit(main())
