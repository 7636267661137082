#!/usr/bin/env python3
"""End-to-end tests of HeeApp's text field (issue 4): caret, selection, clipboard, undo,
clicks and long text, through the real release binary.

Two parts:

* xdotool scenarios: a private Xvfb (first free display from :81), `HeeApp --trace --mute`,
  driven with xdotool (keys, Ctrl shortcuts, clicks, double and triple clicks, drags) and
  xclip (the X clipboard as another application sees it). Checks the JSON Lines trace
  (`text` events carry the text and the caret in Characters) and screenshots (the caret is
  drawn in #007AFF; character positions are measured from the caret itself).
* replay scenarios: `HeeApp --trace --replay FILE --exit-when-done` under SDL's offscreen
  driver with textinput, keydown ("Left", "Right", "Home", "End", "Backspace", "Delete",
  "Up", "Down": SDL key names) and mouse records. Replayed keydowns carry no modifiers, so
  Ctrl/Shift shortcuts are only tested with xdotool.

Every scenario runs even if an earlier one failed (each starts from an empty field).
Prints `ok - ...` per passed check and `not ok - SCENARIO: message` per failed scenario;
exits 1 if any failed, 2 when a prerequisite (binary, Xvfb, xdotool, ImageMagick, xclip,
xmodmap, GTK 3 for Python) is missing.

The app runs with XDG_CONFIG_HOME in the work directory, so no saved settings of the
user's (volume, count limit) take part and none are written to their home.

Environment:
  HEE_APP          binary (default <repo>/.build/release/HeeApp)
  HEE_ASSETS       if set, pass `--assets DIR` to the app
  HEE_TEXT_ONLY    comma-separated scenario names to run (default: all); see SCENARIOS
  HEE_TEXT_KEEP=1  keep the work directory (traces, screenshots, replay files) after a pass
  HEE_TEXT_PYTHON  the Python with python3-gi for the GTK clipboard owner (default /usr/bin/python3)
Standard-library Python 3 only.
"""

import json
import os
import select
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import (CheckFailed, Prerequisite, TraceReader, app_binary, ok, fail, kill_group,  # noqa: E402
                         script_main, start_xvfb, wait_for_clipboard)

import functools  # noqa: E402
start_xvfb = functools.partial(start_xvfb, first=81, last=160)  # this script's display range

TIMEOUT = 10.0                # a safety net for waits on the trace, never what is checked
LAUNCH_TIMEOUT = 20.0
CARET_TIMEOUT = 15.0          # the caret blinks for 10 s after the last input, then stays solid
TINT = (0, 122, 255)          # the caret: Palette.tint, #007AFF
ROW_TEXT_INSET = 16           # SceneRenderer.rowTextInset, points
LONG_PASTE = 200_000          # Characters pasted from another application
XCLIP_INCR_BYTES = 1_200_000  # UTF-8 bytes from xclip: above 1 MiB, xclip sends them with INCR
GTK_INCR_PASTE = 300_000      # code points from GTK: above about 256 KB, GTK sends them with INCR
PYTHON = os.environ.get("HEE_TEXT_PYTHON", "/usr/bin/python3")  # with python3-gi, for GTK
TARGETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "targets")
DOUBLINGS = 12                # 20 Characters doubled 12 times: 81,920


def short(text, limit=60):
    """A text for a message: whole if short, else its length, head and tail."""
    if text is None:
        return "None"
    if len(text) <= limit:
        return repr(text)
    return f"<{len(text)} chars {text[:20]!r}…{text[-20:]!r}>"


def run(args, timeout=10.0, check=True, env=None, input=None):
    try:
        proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, env=env, input=input)
    except subprocess.TimeoutExpired:
        fail(f"command timed out after {timeout} s: {' '.join(args[:4])}")
    if check and proc.returncode != 0:
        fail(f"command failed ({proc.returncode}): {' '.join(args[:4])}: "
             f"{proc.stderr.decode(errors='replace').strip()[:200]}")
    return proc.stdout


# --------------------------------------------------------------------------- images

class Image:
    def __init__(self, width, height, data):
        self.width, self.height, self.data = width, height, data

    @staticmethod
    def from_png(path, env):
        blob = run(["convert", path, "-depth", "8", "ppm:-"], env=env, timeout=20)
        fields, pos = [], 0
        while len(fields) < 4:
            while blob[pos:pos + 1].isspace():
                pos += 1
            if blob[pos:pos + 1] == b"#":
                pos = blob.index(b"\n", pos) + 1
                continue
            end = pos
            while not blob[end:end + 1].isspace():
                end += 1
            fields.append(blob[pos:end])
            pos = end
        pos += 1
        if fields[0] != b"P6" or fields[3] != b"255":
            fail(f"unexpected PPM header from convert: {fields}")
        width, height = int(fields[1]), int(fields[2])
        return Image(width, height, blob[pos:pos + width * height * 3])

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return tuple(self.data[i:i + 3])

    def tint_pixels(self, x0, y0, x1, y1, tolerance=40):
        """(x, y) of the pixels within `tolerance` (sum of |Δ|) of the caret colour."""
        found = []
        for y in range(max(y0, 0), min(y1, self.height)):
            for x in range(max(x0, 0), min(x1, self.width)):
                p = self.pixel(x, y)
                if sum(abs(a - b) for a, b in zip(p, TINT)) <= tolerance:
                    found.append((x, y))
        return found


# --------------------------------------------------------------------------- the live app

class Trace(TraceReader):
    """The app's trace; tracks the text field's last reported state. `wait_for` consumes the
    event it returns; a line that is not JSON fails the check."""

    def __init__(self, stream):
        super().__init__(stream, timeout=TIMEOUT)
        self.text, self.caret = "", 0
        # When the last event a wait matched was read: the app had handled its cause by then.
        self.matched_at = 0.0

    def parse(self, line):
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            fail(f"trace line is not JSON: {short(line)}")

    def recent_texts(self, n=6):
        texts = [e for e in self.events if e.get("event") == "text"][-n:]
        return "\n  ".join(f"t {e['t']}: text {short(e['text'])} caret {e['caret']}" for e in texts) or "(none)"

    def wait_for(self, predicate, what, timeout=TIMEOUT):
        """The first event after the cursor that matches; the cursor moves past it."""
        event = super().wait_for(predicate, what, timeout, consume=True)
        self.matched_at = time.monotonic()
        return event

    def timeout_message(self, what, timeout, since):
        return f"timed out after {timeout} s waiting for {what}; last text events:\n  {self.recent_texts()}"

    def expect_text(self, text, caret, what, timeout=TIMEOUT):
        """Waits for a `text` event with exactly this text and caret."""
        def matches(e):
            return (e.get("event") == "text" and e["caret"] == caret and len(e["text"]) == len(text)
                    and e["text"] == text)
        self.wait_for(matches, f"{what}: text {short(text)} caret {caret}", timeout)
        self.text, self.caret = text, caret

    def quiet(self, seconds=0.3):
        """Text events that arrive within `seconds` (after the cursor)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.drain(min(0.05, max(deadline - time.monotonic(), 0.001)))
        self.drain()
        return [e for e in self.events[self.cursor:] if e.get("event") == "text"]


class App:
    def __init__(self, binary, workdir, env, asset_args):
        self.workdir, self.env = workdir, env
        stderr = open(os.path.join(workdir, "app-stderr.txt"), "wb")
        try:
            self.proc = subprocess.Popen([binary, "--trace", "--mute", *asset_args], cwd=workdir, env=env,
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                                         start_new_session=True)
        finally:
            stderr.close()
        self.trace = Trace(self.proc.stdout)
        self.layout = self.trace.wait_for(lambda e: e.get("event") == "layout", "the first layout event",
                                          LAUNCH_TIMEOUT)
        self.scale = float(self.layout.get("scale", 1))
        self.field = self.layout["keys"]["textField"]
        self.wid = self._find_window()
        self.shots = 0
        self.last_click = 0.0
        # Keys go to the window under the pointer (no window manager): park it on the title.
        # No wait is needed after the focus change: the X server queues the app's FocusIn
        # before any key event sent after it, and the app handles its events in order.
        self.xdo("mousemove", "--window", self.wid, str(round(self.layout["window"]["w"] / 2)), "20")
        run(["xdotool", "windowfocus", self.wid], env=env, check=False)

    def _find_window(self):
        deadline = time.monotonic() + LAUNCH_TIMEOUT
        while time.monotonic() < deadline:
            out = run(["xdotool", "search", "--onlyvisible", "--class", "hee-keyboard"], env=self.env,
                      check=False, timeout=5).decode().split()
            for wid in out:
                pid = run(["xdotool", "getwindowpid", wid], env=self.env, check=False, timeout=5).decode().strip()
                if pid == str(self.proc.pid) or (not pid and len(out) == 1):
                    return wid
            time.sleep(0.1)
        fail("no visible window of class hee-keyboard belonging to the app")

    # ---- input
    def xdo(self, *args):
        return run(["xdotool", *args], env=self.env).decode().strip()

    def key(self, *keys):
        self.trace.mark()
        self.xdo("key", "--delay", "30", *keys)

    def type(self, text):
        self.trace.mark()
        self.xdo("type", "--delay", "25", text)

    def move(self, x, y):
        self.xdo("mousemove", "--window", self.wid, str(round(x)), str(round(y)))

    def click_gap(self):
        """Waits until a new click cannot count as part of a double click with the last one.
        SDL counts clicks by the time it handles them, so the gap (more than SDL's 0.5 s) is
        measured from when the trace showed the app had handled the last click's effect (every
        scenario waits for one), or from sending it, whichever is later: a busy app that
        handles two clicks late cannot see them closer together than that."""
        wait = max(self.last_click, self.trace.matched_at) + 0.7 - time.monotonic()
        if wait > 0:
            time.sleep(wait)

    def click(self, x, repeat=1, modifier=None, then=None):
        """Clicks the text field's middle row at window x (points), `repeat` times 90 ms apart
        (a double or triple click). With `modifier`, the key is held down around the click
        and let go only once the trace event `then(trace)` waits for shows the app handled
        the click (the app takes the modifier from the key events before the click, in order)."""
        self.click_gap()
        self.move(x, self.field_mid_y())
        self.trace.mark()
        args = ["click", "--repeat", str(repeat), "--delay", "90", "1"] if repeat > 1 else ["click", "1"]
        if modifier:
            self.xdo("keydown", modifier)
            try:
                self.xdo(*args)
                then(self.trace)
            finally:
                self.xdo("keyup", modifier)
        else:
            self.xdo(*args)
        self.last_click = time.monotonic()

    def drag(self, x0, x1):
        self.click_gap()
        y = self.field_mid_y()
        self.move(x0, y)
        self.trace.mark()
        self.xdo("mousedown", "1")
        for i in range(1, 6):
            self.move(x0 + (x1 - x0) * i / 5, y)
            time.sleep(0.02)
        self.xdo("mouseup", "1")
        self.last_click = time.monotonic()

    def park(self):
        self.move(self.layout["window"]["w"] / 2, 20)

    def field_mid_y(self):
        return self.field["y"] + self.field["h"] / 2

    # ---- text state
    def reset(self):
        """Empties the field (Ctrl+A, BackSpace) so a scenario starts from nothing."""
        self.park()
        if self.trace.text:
            self.key("ctrl+a", "BackSpace")
            self.trace.expect_text("", 0, "reset: Ctrl+A, BackSpace")

    def type_and_wait(self, text, what):
        before = self.trace.text[:self.trace.caret]
        after = self.trace.text[self.trace.caret:]
        self.type(text)
        self.trace.expect_text(before + text + after, len(before + text), what)

    def end(self):
        """Puts the caret at the end with End (nothing to wait for if it is there)."""
        if self.trace.caret != len(self.trace.text):
            self.key("End")
            self.trace.expect_text(self.trace.text, len(self.trace.text), "End")

    def caret_to(self, offset):
        """Puts the caret at `offset` with Home and Right (ASCII text)."""
        if self.trace.caret == offset:
            return
        if self.trace.caret != 0:
            self.key("Home")
            self.trace.expect_text(self.trace.text, 0, "Home")
        if offset:
            self.trace.mark()
            self.xdo("key", "--repeat", str(offset), "--delay", "15", "Right")
            self.trace.expect_text(self.trace.text, offset, f"Right ×{offset}")

    # ---- screen
    def screenshot(self, name):
        self.shots += 1
        path = os.path.join(self.workdir, f"{self.shots:02d}-{name}.png")
        run(["import", "-window", self.wid, path], env=self.env, timeout=20)
        return Image.from_png(path, self.env), path

    def caret_pixels(self, name):
        """The caret's pixels in the text field's band. Returns (pixels inside the field,
        pixels outside, path).

        Screenshots are taken until two in a row show the caret at the same place: the caret
        blinks (but stays solid 10 s after the last input, so it does show within
        CARET_TIMEOUT), and a first shot taken before a busy app has drawn the frame for the
        trace event just seen would show where it was."""
        s = self.scale
        f = self.field
        band = (0, int(f["y"] * s) - 4, int(self.layout["window"]["w"] * s), int((f["y"] + f["h"]) * s) + 4)
        deadline = time.monotonic() + CARET_TIMEOUT
        previous, attempt, path = None, 0, None
        while True:
            image, path = self.screenshot(f"{name}-{attempt}")
            attempt += 1
            pixels = image.tint_pixels(*band)
            if pixels:
                inside = [(x, y) for x, y in pixels
                          if f["x"] * s <= x < (f["x"] + f["w"]) * s and f["y"] * s <= y < (f["y"] + f["h"]) * s]
                outside = [p for p in pixels if p not in inside]
                if previous == (inside, outside):
                    return inside, outside, path
                previous = (inside, outside)
            if time.monotonic() > deadline:
                fail(f"no caret ({TINT}) pixels in the text field's band in the same place in two screenshots "
                     f"in a row within {CARET_TIMEOUT} s ({attempt} shots); last: {path}")

    def caret_x(self, offset):
        """Window x (points) of the caret's left edge when it stands at `offset`."""
        self.caret_to(offset)
        self.park()
        inside, outside, path = self.caret_pixels(f"caret-{offset}")
        if outside or not inside:
            fail(f"caret at {offset}: {len(inside)} pixels inside the field, {len(outside)} outside; see {path}")
        return min(x for x, _ in inside) / self.scale


def expect_quiet(app, what, seconds=0.3):
    extra = app.trace.quiet(seconds)
    if extra:
        fail(f"{what}: unexpected text events: " + "; ".join(f"{short(e['text'])} caret {e['caret']}" for e in extra))


# --------------------------------------------------------------------------- xdotool scenarios

def scenario_shortcuts(app):
    """Ctrl+arrows, Shift, Ctrl+C/V/X/Z/Y, Ctrl+Shift+Z, Ctrl+A, End, Ctrl+Backspace, Delete."""
    t = app.trace
    app.reset()
    app.type_and_wait("hello world", "xdotool type")
    app.key("ctrl+Left")
    t.expect_text("hello world", 6, "Ctrl+Left")
    app.key("shift+ctrl+Right")
    t.expect_text("hello world", 11, "Shift+Ctrl+Right")
    app.key("ctrl+c")
    expect_quiet(app, "Ctrl+C")
    clip = run(["xclip", "-o", "-selection", "clipboard"], env=app.env, timeout=5).decode()
    if clip != "world":
        fail(f"after Ctrl+C the X clipboard holds {short(clip)}, expected 'world'")
    ok("Ctrl+Left → caret 6; Shift+Ctrl+Right → caret 11; Ctrl+C puts 'world' on the X clipboard")
    app.key("End")
    expect_quiet(app, "End with the caret already at the end")
    app.key("ctrl+v")
    t.expect_text("hello worldworld", 16, "End, Ctrl+V")
    ok("End, Ctrl+V → 'hello worldworld' caret 16")
    app.key("ctrl+z")
    t.expect_text("hello world", 11, "Ctrl+Z undoes the paste")
    app.key("ctrl+shift+z")
    t.expect_text("hello worldworld", 16, "Ctrl+Shift+Z redoes the paste")
    app.key("ctrl+z")
    t.expect_text("hello world", 11, "Ctrl+Z again")
    app.key("ctrl+y")
    t.expect_text("hello worldworld", 16, "Ctrl+Y redoes the paste")
    app.key("ctrl+z")
    t.expect_text("hello world", 11, "Ctrl+Z once more")
    ok("Ctrl+Z → 'hello world'; Ctrl+Shift+Z and Ctrl+Y redo; Ctrl+Z undoes again")
    app.key("ctrl+a")
    expect_quiet(app, "Ctrl+A (selection only, caret stays at the end)")
    app.type("X")
    t.expect_text("X", 1, "Ctrl+A, type X")
    app.key("ctrl+z")
    t.expect_text("hello world", 11, "Ctrl+Z after replacing everything")
    ok("Ctrl+A, X → 'X'; Ctrl+Z → 'hello world'")
    app.key("Home", "shift+ctrl+Right")
    t.expect_text("hello world", 0, "Home")
    t.expect_text("hello world", 5, "Shift+Ctrl+Right from the start")
    app.key("ctrl+x")
    t.expect_text(" world", 0, "Ctrl+X")
    clip = run(["xclip", "-o", "-selection", "clipboard"], env=app.env, timeout=5).decode()
    if clip != "hello":
        fail(f"after Ctrl+X the X clipboard holds {short(clip)}, expected 'hello'")
    app.key("End", "ctrl+v")
    t.expect_text(" world", 6, "End")
    t.expect_text(" worldhello", 11, "Ctrl+V after Ctrl+X")
    ok("Ctrl+X cuts 'hello' (X clipboard 'hello'); End, Ctrl+V → ' worldhello'")
    app.key("ctrl+BackSpace")
    t.expect_text(" ", 1, "Ctrl+Backspace deletes the word before the caret")
    app.key("Home", "Delete")
    t.expect_text(" ", 0, "Home")
    t.expect_text("", 0, "Delete")
    ok("Ctrl+Backspace → ' '; Home, Delete → ''")


def scenario_selection_keys(app):
    """Shift+Left/Right/Home/End, Left/Right collapsing, Backspace on a selection."""
    t = app.trace
    app.reset()
    app.type_and_wait("abc def", "type 'abc def'")
    app.key("shift+Left", "shift+Left")
    t.expect_text("abc def", 6, "Shift+Left")
    t.expect_text("abc def", 5, "Shift+Left again")
    app.key("Left")
    expect_quiet(app, "Left collapsing a selection to its start, where the caret already is")
    app.key("shift+Home")
    t.expect_text("abc def", 0, "Shift+Home")
    app.key("Right")
    t.expect_text("abc def", 5, "Right collapses to the selection's end")
    ok("Shift+Left ×2 → 5; Left collapses there; Shift+Home → 0; Right collapses to 5")
    app.key("shift+End")
    t.expect_text("abc def", 7, "Shift+End")
    app.key("BackSpace")
    t.expect_text("abc d", 5, "Backspace deletes the selection only")
    app.key("Home", "shift+Right", "shift+Right", "Delete")
    t.expect_text("abc d", 0, "Home")
    t.expect_text("abc d", 2, "Shift+Right ×2")
    t.expect_text("c d", 0, "Delete deletes the selection only")
    ok("Shift+End, Backspace → 'abc d'; Home, Shift+Right ×2, Delete → 'c d'")


def spare_keycodes(env):
    """Keycodes with no keysym on the display's keymap, highest first. Keycode 8, the lowest,
    is left to xdotool (its scratch keycode for a keysym it cannot find)."""
    free = []
    for line in run(["xmodmap", "-pke"], env=env).decode().splitlines():
        left, _, right = line.partition("=")
        words = left.split()
        if len(words) == 2 and words[0] == "keycode" and not right.strip():
            free.append(int(words[1]))
    return sorted((k for k in free if k > 8), reverse=True)


def map_characters(env, text):
    """Puts every non-ASCII character of `text` on a spare keycode of this test's own Xvfb
    (its Unicode keysym, `U3047` for ぇ), as a user's layout would have it. Returns the
    keycodes used.

    Without it `xdotool type` binds each such keysym to a scratch keycode, presses the key and
    binds the keycode back to nothing at once; an app that looks the key up after that (its
    MappingNotify tells it to re-read the keymap) finds nothing there and the character is
    lost. With the keysyms on the keymap before typing starts, the app has re-read it before
    the first key event (the X server queues the MappingNotify first) and nothing changes
    while it types."""
    wanted = sorted({c for c in text if ord(c) > 0x7F}, key=ord)
    spare = spare_keycodes(env)
    if len(spare) < len(wanted):
        fail(f"only {len(spare)} spare keycodes on the Xvfb keymap for {len(wanted)} characters")
    used = spare[:len(wanted)]
    args = ["xmodmap"]
    for keycode, character in zip(used, wanted):
        args += ["-e", f"keycode {keycode} = U{ord(character):04X}"]
    run(args, env=env)
    return used


def unmap_keycodes(env, keycodes):
    if keycodes:
        run(["xmodmap", *[a for k in keycodes for a in ("-e", f"keycode {k} =")]], env=env, check=False)


def scenario_graphemes(app):
    """Characters typed through X (one scalar per key event) merge into grapheme clusters;
    Left/Right and Backspace take whole clusters."""
    t = app.trace
    app.reset()
    # xdotool types each Unicode scalar as its own key event: the skin tone, the accent and
    # the flag's second half each arrive as a separate SDL_TEXTINPUT. The characters go on
    # spare keycodes first (map_characters says why), and xdotool runs with DEBUG=1 to show
    # that it found every one on the keymap: it says "Mapping sym" when it binds one itself.
    typed = "aぇe\u0301👍🏽🇯🇵b"
    keycodes = map_characters(app.env, typed)
    try:
        t.mark()
        proc = subprocess.run(["xdotool", "type", "--delay", "25", typed], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=dict(app.env, DEBUG="1"), timeout=20)
        if proc.returncode != 0:
            fail(f"xdotool type failed ({proc.returncode}): {proc.stderr.decode(errors='replace').strip()[:200]}")
        remapped = [line for line in proc.stderr.decode(errors="replace").splitlines() if "Mapping sym" in line]
        if remapped:
            fail(f"xdotool bound keysyms to a scratch keycode itself (racy): {remapped}")
        t.expect_text(typed, 6, "xdotool type, caret in Characters")
    finally:
        unmap_keycodes(app.env, keycodes)
    ok(f"xdotool type {typed!r} (each character on the keymap, keycodes {keycodes}): 6 Characters, caret 6")
    carets = []
    for _ in range(3):
        app.key("Left")
        carets.append(t.wait_for(lambda e: e.get("event") == "text", "Left")["caret"])
    if carets != [5, 4, 3]:
        fail(f"Left ×3 over b, 🇯🇵, 👍🏽 gave carets {carets}, expected [5, 4, 3]")
    app.key("BackSpace")
    t.expect_text("aぇ👍🏽🇯🇵b", 2, "Backspace deletes e + accent as one Character")
    app.key("Right", "BackSpace")
    t.expect_text("aぇ👍🏽🇯🇵b", 3, "Right over 👍🏽")
    t.expect_text("aぇ🇯🇵b", 2, "Backspace deletes 👍🏽 whole")
    app.key("Delete")
    t.expect_text("aぇb", 2, "Delete deletes 🇯🇵 whole")
    ok("Left ×3 → 5, 4, 3; Backspace/Delete remove é, 👍🏽, 🇯🇵 whole")


def scenario_clicks(app):
    """Clicks put the caret at the nearest Character boundary; double click selects a word,
    triple click everything; drag and Shift+click select."""
    t = app.trace
    app.reset()
    text = "hello brave world"
    app.type_and_wait(text, "type")
    xs = {i: app.caret_x(i) for i in (0, 1, 2, 6, 7, 8, 9, 11, 12, 17)}
    if not all(xs[a] < xs[b] for a, b in zip(sorted(xs), sorted(xs)[1:])):
        fail(f"caret x positions are not increasing: {xs}")
    content_left = app.field["x"] + ROW_TEXT_INSET
    if abs(xs[0] - content_left) > 2:
        fail(f"caret at 0 is drawn at x {xs[0]}, expected the field's content edge {content_left}")
    ok(f"caret x measured from screenshots: 0 → {xs[0]:.0f}, 6 → {xs[6]:.0f}, 17 → {xs[17]:.0f}")

    app.end()
    app.click(content_left - 8)
    t.expect_text(text, 0, "click left of the text")
    app.click(xs[1] + (xs[2] - xs[1]) * 0.75)
    t.expect_text(text, 2, "click on the right half of the 2nd character")
    app.click(xs[7] + (xs[8] - xs[7]) * 0.25)
    t.expect_text(text, 7, "click on the left half of the 8th character")
    app.click(app.field["x"] + app.field["w"] - 8)
    t.expect_text(text, 17, "click right of the text")
    ok("clicks: left of the text → 0, right half of 'e' → 2, left half of 'r' → 7, right of the text → 17")

    # No wait between a click and the typing after it: the app handles X events in the order
    # they were sent.
    app.click((xs[8] + xs[9]) / 2, repeat=2)
    app.park()
    app.type("X")
    t.expect_text("hello X world", 7, "double click on 'brave', type X")
    ok("double click on 'brave', X → 'hello X world'")

    app.click(xs[2], repeat=3)
    app.park()
    app.type("T")
    t.expect_text("T", 1, "triple click, type T")
    ok("triple click selects everything: T → 'T'")

    app.key("BackSpace")
    t.expect_text("", 0, "Backspace")
    app.type_and_wait(text, "type again")
    app.drag(content_left - 4, xs[11] + (xs[12] - xs[11]) * 0.8)
    app.park()
    app.type("Z")
    t.expect_text("Zworld", 1, "drag from the start to the 'w' of 'world', type Z")
    ok("mouse drag selects: Z replaces 'hello brave ' → 'Zworld'")

    app.click(content_left - 4)
    t.expect_text("Zworld", 0, "click at the start")
    app.click(app.field["x"] + app.field["w"] - 8, modifier="shift",
              then=lambda trace: trace.expect_text("Zworld", 6, "Shift+click at the end"))
    app.park()
    app.type("!")
    t.expect_text("!", 1, "Shift+click selection replaced by typing")
    ok("Shift+click extends the selection: '!' replaces 'Zworld'")


def scenario_double_click_last_letter(app):
    """A double click on the right half of a word's last letter selects that word (the
    letter under the pointer decides, as in GTK and every desktop editor)."""
    t = app.trace
    app.reset()
    text = "hello brave world"
    app.type_and_wait(text, "type")
    x4, x5 = app.caret_x(4), app.caret_x(5)
    app.end()
    app.click(x4 + (x5 - x4) * 0.75, repeat=2)
    app.park()
    app.type("Y")
    event = t.wait_for(lambda e: e.get("event") == "text" and "Y" in e["text"], "the text after typing Y")
    t.text, t.caret = event["text"], event["caret"]
    if t.text != "Y brave world":
        fail(f"double click on the right half of the 'o' of 'hello', then Y: text {short(t.text)}, "
             f"expected 'Y brave world' (the word under the pointer replaced)")
    ok("double click on the right half of a word's last letter selects the word")


def scenario_long_text(app):
    """A long text scrolls: the caret stays inside the field; clicks and typing still work;
    a 200,000-character paste from another application arrives whole, newlines as spaces."""
    t = app.trace
    app.reset()
    seed = "The quick brown fox "
    app.type_and_wait(seed, "type the seed text")
    text = seed
    for _ in range(DOUBLINGS):
        app.key("ctrl+a", "ctrl+c", "End", "ctrl+v")
        text += text
        t.expect_text(text, len(text), "Ctrl+A, Ctrl+C, End, Ctrl+V doubles the text", timeout=10)
    ok(f"{DOUBLINGS} × (Ctrl+A, Ctrl+C, End, Ctrl+V): {len(text)} characters, caret at the end")

    inside, outside, path = app.caret_pixels("long-end")
    if outside:
        fail(f"caret pixels outside the text field at the end of {len(text)} characters: {outside[:3]}; see {path}")
    right = app.field["x"] + app.field["w"] - ROW_TEXT_INSET
    caret_x = min(x for x, _ in inside) / app.scale
    if not (app.field["x"] + ROW_TEXT_INSET < caret_x <= right):
        fail(f"caret at x {caret_x}, expected inside the field's content {app.field['x'] + ROW_TEXT_INSET}…{right}")
    ok(f"the field scrolled: the caret at the end is drawn inside it (x {caret_x:.0f}); {path}")

    app.key("Home")
    t.expect_text(text, 0, "Home on the long text")
    inside, outside, path = app.caret_pixels("long-home")
    home_x = min(x for x, _ in inside) / app.scale
    if outside or abs(home_x - (app.field["x"] + ROW_TEXT_INSET)) > 2:
        fail(f"after Home the caret is at x {home_x} ({len(outside)} pixels outside the field), expected "
             f"{app.field['x'] + ROW_TEXT_INSET}; see {path}")
    app.key("End")
    t.expect_text(text, len(text), "End on the long text")
    app.click(app.field["x"] + ROW_TEXT_INSET + 1)
    event = t.wait_for(lambda e: e.get("event") == "text", "a caret move from a click in the scrolled field")
    if not (len(text) - 80 < event["caret"] < len(text) - 10):
        fail(f"a click at the left edge of the field scrolled to the end put the caret at {event['caret']}, "
             f"expected the first visible character (a little before {len(text)})")
    t.caret = event["caret"]
    ok(f"Home scrolls back (caret x {home_x:.0f}); End, then a click at the left edge → caret {event['caret']}")

    app.key("End")
    t.expect_text(text, len(text), "End")
    # How long it takes is a `make bench` figure (HeeBench --text), not a check here.
    app.type("!")
    t.expect_text(text + "!", len(text) + 1, "typing at the end of the long text")
    ok(f"typing into {len(text)} characters: the character arrives at the end")

    # Another application's clipboard: 200,000 characters in lines.
    line = "%06d abcdefghij klmnopqrstuvwxyz ぇé👍🏽\n"
    lines = []
    while sum(map(len, lines)) < LONG_PASTE:
        lines.append(line % len(lines))
    pasted = "".join(lines)[:LONG_PASTE - 1] + "\n"
    source = os.path.join(app.workdir, "clipboard.txt")
    with open(source, "w", encoding="utf-8") as f:
        f.write(pasted)
    xclip = subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard", "-i", source], env=app.env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        wait_for_clipboard(app.env, pasted, xclip)
        app.key("ctrl+a")
        app.key("ctrl+v")
        expected = pasted.replace("\n", " ")
        # The caret counts Characters: each 👍🏽 is two code points but one Character.
        t.expect_text(expected, len(expected) - expected.count("🏽"), "Ctrl+V of 200,000 characters from xclip",
                      timeout=30)
    finally:
        kill_group(xclip)
    ok(f"Ctrl+V of {LONG_PASTE} code points from another application (xclip): whole, newlines as spaces")


def clipboard_lines(minimum, measure=len):
    """Numbered lines of ASCII, kana, an accent and an emoji with a skin tone (two code
    points, one Character), cut so that `measure` of the text (ending in a newline) is at least
    `minimum`."""
    line = "%06d abcdefghij klmnopqrstuvwxyz ぇé👍🏽\n"
    lines, size = [], 0
    while size < minimum:
        lines.append(line % len(lines))
        size += measure(lines[-1])
    return "".join(lines)


def paste_from(app, owner_command, pasted, what):
    """Starts the clipboard owner, waits until `xclip -o` reads `pasted` back, then Ctrl+A,
    Ctrl+V: the field must hold it whole (newlines as spaces), and the owner must still serve
    the clipboard afterwards."""
    t = app.trace
    owner = subprocess.Popen(owner_command, env=app.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for_clipboard(app.env, pasted, owner)
        app.key("ctrl+a")
        app.key("ctrl+v")
        expected = pasted.replace("\n", " ")
        t.expect_text(expected, len(expected) - expected.count("🏽"), f"Ctrl+V of {what}", timeout=30)
        # A reader that leaves an INCR transfer unfinished leaves xclip serving nobody.
        wait_for_clipboard(app.env, pasted, owner, timeout=5)
    finally:
        kill_group(owner)


def scenario_large_paste(app):
    """Clipboards that arrive in pieces (the ICCCM INCR protocol, which SDL 2.26 does not
    read: it pasted nothing): more than 1 MiB from xclip, 300,000 characters from GTK."""
    app.reset()
    pasted = clipboard_lines(XCLIP_INCR_BYTES, measure=lambda line: len(line.encode()))
    source = os.path.join(app.workdir, "clipboard-large.txt")
    with open(source, "w", encoding="utf-8") as f:
        f.write(pasted)
    size = len(pasted.encode())
    paste_from(app, ["xclip", "-quiet", "-selection", "clipboard", "-i", source], pasted,
               f"{size:,} bytes from xclip")
    ok(f"Ctrl+V of {size:,} bytes ({len(pasted):,} code points) from xclip (INCR): whole; xclip still serves it")

    pasted = clipboard_lines(GTK_INCR_PASTE)[:GTK_INCR_PASTE - 1] + "\n"
    with open(source, "w", encoding="utf-8") as f:
        f.write(pasted)
    paste_from(app, [PYTHON, os.path.join(TARGETS, "gtk_clipboard.py"), source], pasted,
               f"{len(pasted):,} code points from GTK")
    ok(f"Ctrl+V of {len(pasted):,} code points ({len(pasted.encode()):,} bytes) from a GTK clipboard (INCR): whole")

    stderr_path = os.path.join(app.workdir, "app-stderr.txt")

    def stderr_lines():
        with open(stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()

    warnings = [line for line in stderr_lines() if "clipboard" in line]
    if warnings:
        fail(f"the app warned about the clipboard: {warnings[0].strip()}")
    ok("no clipboard warning on stderr")

    # Owners that misbehave (the trial's): one warning line per reason, nothing pasted, no X
    # error of the reader's own on stderr. "silent" says it wrote the text and did not (the
    # reader asked X for the name of atom None: BadAtom); "endless" never ends its INCR
    # transfer (the reader took 457 MB in 2 s): it stops at 64 MiB.
    app.reset()
    for mode, reason in (("silent", "wrote no text"), ("endless", "more than 64 MiB")):
        owner = subprocess.Popen([PYTHON, os.path.join(TARGETS, "odd_clipboard.py"), mode], env=app.env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
        try:
            ready, _, _ = select.select([owner.stdout], [], [], TIMEOUT)
            if not ready or owner.stdout.readline().strip() != b"owner":
                fail(f"the {mode} clipboard owner did not start")
            app.key("ctrl+v")
            deadline = time.monotonic() + 20
            while not any(reason in line for line in stderr_lines()):
                if time.monotonic() > deadline:
                    fail(f"no warning saying {reason!r} after Ctrl+V from the {mode} owner; stderr: {stderr_lines()}")
                time.sleep(0.05)
        finally:
            kill_group(owner)
    # Nothing was pasted: the next text event is the typed letter alone.
    app.type_and_wait("q", "typing after the two failed pastes")
    warnings = [line for line in stderr_lines() if "clipboard" in line or "X error" in line]
    if len(warnings) != 2 or any("X error" in line for line in warnings):
        fail(f"expected two clipboard warnings and no X error, stderr has: {warnings}")
    ok(f"misbehaving owners: nothing pasted, one warning each: {[w.split(': ', 2)[-1] for w in warnings]}")


# --------------------------------------------------------------------------- replay scenarios

class Replayer:
    def __init__(self, binary, workdir, asset_args):
        self.binary, self.workdir, self.asset_args = binary, workdir, asset_args
        self.count = 0
        self._layout = None

    def run(self, name, records):
        self.count += 1
        path = os.path.join(self.workdir, f"replay-{self.count:02d}-{name}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for record in records:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        env = dict(os.environ, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy",
                   XDG_CONFIG_HOME=os.path.join(self.workdir, "config"))
        env.pop("GDK_SCALE", None)
        command = [self.binary, "--trace", "--mute", "--replay", path, "--exit-when-done", *self.asset_args]
        try:
            proc = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=30, env=env, cwd=self.workdir)
        except subprocess.TimeoutExpired:
            fail(f"[{name}] the app did not exit within 30 s")
        with open(path + ".trace", "wb") as f:
            f.write(proc.stdout)
        if proc.returncode != 0:
            fail(f"[{name}] exit status {proc.returncode}: {proc.stderr.decode(errors='replace').strip()[:300]}")
        events = [json.loads(line) for line in proc.stdout.decode().splitlines() if line.strip()]
        return events, path

    def layout(self):
        if self._layout is None:
            events, _ = self.run("layout", [])
            layouts = [e for e in events if e["event"] == "layout"]
            if not layouts:
                fail("no layout event with an empty replay")
            self._layout = layouts[0]
        return self._layout


def texts_of(events):
    return [(e["text"], e["caret"]) for e in events if e["event"] == "text"]


def expect_texts(actual, expected, what, path):
    if actual != expected:
        first = next((i for i, (a, b) in enumerate(zip(actual, expected)) if a != b), min(len(actual), len(expected)))
        got = actual[first] if first < len(actual) else "(none)"
        want = expected[first] if first < len(expected) else "(none)"
        fail(f"{what}: {len(actual)} text events, expected {len(expected)}; first difference at #{first}: "
             f"got {got!r}, expected {want!r}; replay {path}")


def keys(start, *names, step=50):
    records, t = [], start
    for name in names:
        records.append({"t": t, "type": "keydown", "key": name})
        records.append({"t": t + 20, "type": "keyup", "key": name})
        t += step
    return records, t


def scenario_replay_keys(replayer):
    """textinput + keydown records: Left/Right/Home/End/Up/Down/Backspace/Delete."""
    records = [{"t": 1000, "type": "textinput", "text": "hello world"}]
    more, t = keys(1100, "Left", "Left", "Left", "Left", "Left", "Backspace", "Delete", "Home", "Delete",
                   "Right", "End", "Backspace", "Right", "Up", "Left", "Down", "Left")
    records += more
    records.append({"t": t, "type": "textinput", "text": "X"})
    events, path = replayer.run("keys", records)
    expected = [
        ("hello world", 11),
        ("hello world", 10), ("hello world", 9), ("hello world", 8), ("hello world", 7), ("hello world", 6),
        ("helloworld", 5),      # Backspace: the space
        ("helloorld", 5),       # Delete: the w
        ("helloorld", 0),       # Home
        ("elloorld", 0),        # Delete
        ("elloorld", 1),        # Right
        ("elloorld", 8),        # End
        ("elloorl", 7),         # Backspace
        # Right at the end: nothing
        ("elloorl", 0),         # Up = start
        # Left at the start: nothing
        ("elloorl", 7),         # Down = end
        ("elloorl", 6),         # Left
        ("elloorXl", 7),        # X
    ]
    expect_texts(texts_of(events), expected, "replayed keys", path)
    ok("replay: Left ×5, Backspace, Delete, Home, Delete, Right, End, Backspace, Right, Up, Left, Down, Left, X "
       "→ 'elloorXl' caret 7, one text event per change")


def scenario_replay_graphemes(replayer):
    """A commit longer than one SDL_TEXTINPUT (31 bytes) arrives live in pieces split between
    scalars, here inside a ZWJ family, and is recorded as one textinput line per piece; the
    pieces merge into whole Characters. (A single replayed line is one commit.)"""
    family = "👨\u200d👩\u200d👧\u200d👦"
    typed = "aぇe\u0301🇯🇵👍🏽" + family + "b"
    first_piece = "aぇe\u0301🇯🇵👍🏽👨\u200d"  # 30 bytes: SDL's 31-byte limit falls inside the family
    records = [{"t": 1000, "type": "textinput", "text": first_piece},
               {"t": 1000, "type": "textinput", "text": typed[len(first_piece):]}]
    more, t = keys(1100, "Left", "Left", "Backspace", "Left", "Backspace", "Delete", "End", "Backspace",
                   "Backspace", "Home", "Right", "Right", "Right")
    records += more
    events, path = replayer.run("graphemes", records)
    expected = [
        (first_piece, 6),
        (typed, 7),
        (typed, 6), (typed, 5),                                   # Left over b, over the family
        ("aぇe\u0301🇯🇵" + family + "b", 4),                       # Backspace: 👍🏽
        ("aぇe\u0301🇯🇵" + family + "b", 3),                       # Left over 🇯🇵
        ("aぇ🇯🇵" + family + "b", 2),                              # Backspace: é
        ("aぇ" + family + "b", 2),                                # Delete: 🇯🇵
        ("aぇ" + family + "b", 4),                                # End
        ("aぇ" + family, 3),                                      # Backspace: b
        ("aぇ", 2),                                               # Backspace: the family
        ("aぇ", 0), ("aぇ", 1), ("aぇ", 2),                        # Home, Right ×2, Right at the end: nothing
    ]
    expect_texts(texts_of(events), expected, "replayed graphemes", path)
    ok("replay: a 49-byte commit split inside a ZWJ family merges (7 Characters); Left/Backspace/Delete take "
       "👍🏽, é, 🇯🇵, the family whole")


def scenario_replay_clicks(replayer):
    """Mouse clicks in the text field after typing in the same replay: each click maps the
    pointer through the text as it is at that moment (not the frame before the typing)."""
    layout = replayer.layout()
    field = layout["keys"]["textField"]
    y = field["y"] + field["h"] / 2
    left = field["x"] + ROW_TEXT_INSET - 6
    right = field["x"] + field["w"] - 8
    records = [
        {"t": 1000, "type": "textinput", "text": "hello world"},
        {"t": 1100, "type": "mousedown", "x": left, "y": y}, {"t": 1150, "type": "mouseup", "x": left, "y": y},
        {"t": 1300, "type": "mousedown", "x": right, "y": y}, {"t": 1350, "type": "mouseup", "x": right, "y": y},
        {"t": 1500, "type": "mousedown", "x": left, "y": y},
        {"t": 1550, "type": "mousemotion", "x": right, "y": y, "buttons": 1},
        {"t": 1600, "type": "mouseup", "x": right, "y": y},
        {"t": 1700, "type": "textinput", "text": "Z"},
    ]
    events, path = replayer.run("clicks", records)
    expected = [("hello world", 11), ("hello world", 0), ("hello world", 11), ("hello world", 0),
                ("hello world", 11), ("Z", 1)]
    expect_texts(texts_of(events), expected, "replayed clicks and a drag", path)
    ok("replay: click left → 0, click right → 11, drag left → right selects all, Z replaces it")


# --------------------------------------------------------------------------- main

LIVE_SCENARIOS = [
    ("shortcuts", scenario_shortcuts),
    ("selection-keys", scenario_selection_keys),
    ("graphemes", scenario_graphemes),
    ("clicks", scenario_clicks),
    ("double-click-last-letter", scenario_double_click_last_letter),
    ("long-text", scenario_long_text),
    ("large-paste", scenario_large_paste),
]
REPLAY_SCENARIOS = [
    ("replay-keys", scenario_replay_keys),
    ("replay-graphemes", scenario_replay_graphemes),
    ("replay-clicks", scenario_replay_clicks),
]
SCENARIOS = [name for name, _ in LIVE_SCENARIOS + REPLAY_SCENARIOS]


def main():
    assets = os.environ.get("HEE_ASSETS")
    asset_args = ["--assets", os.path.abspath(assets)] if assets else []
    only = os.environ.get("HEE_TEXT_ONLY")
    selected = {n.strip() for n in only.split(",") if n.strip()} if only else set(SCENARIOS)
    unknown = selected - set(SCENARIOS)

    def body(workdir):
        if unknown:
            raise Prerequisite(f"unknown scenario(s) {sorted(unknown)}; known: {', '.join(SCENARIOS)}")
        binary = app_binary()
        live = [(n, f) for n, f in LIVE_SCENARIOS if n in selected]
        if live:
            for tool, package in (("Xvfb", "xvfb"), ("xdotool", "xdotool"), ("import", "imagemagick"),
                                  ("convert", "imagemagick"), ("xclip", "xclip"), ("xmodmap", "x11-xserver-utils")):
                if shutil.which(tool) is None:
                    raise Prerequisite(f"{tool} not found (apt-get install {package})")
        if "large-paste" in selected and subprocess.run(
                [PYTHON, "-c", "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
            raise Prerequisite(f"{PYTHON} cannot import GTK 3 (apt-get install python3-gi gir1.2-gtk-3.0; "
                               "HEE_TEXT_PYTHON names another Python)")
        print(f"# binary {binary}, work dir {workdir}", flush=True)
        failures, passed = [], 0
        xvfb = app = None
        began = time.monotonic()
        try:
            if live:
                xvfb, display = start_xvfb()
                env = dict(os.environ, DISPLAY=display, XDG_CONFIG_HOME=os.path.join(workdir, "config"))
                env.pop("GDK_SCALE", None)
                print(f"# Xvfb on {display}", flush=True)
                app = App(binary, workdir, env, asset_args)
                for name, function in live:
                    print(f"# {name}", flush=True)
                    try:
                        function(app)
                        passed += 1
                    except CheckFailed as error:
                        failures.append(name)
                        print(f"not ok - {name}: {error}", flush=True)
                        if app.proc.poll() is not None:
                            print(f"# the app exited with status {app.proc.returncode}; skipping the other live scenarios")
                            failures += [n for n, _ in live[live.index((name, function)) + 1:]]
                            break
                        # Forget the state this scenario left: read it back from the trace.
                        app.trace.drain()
                        texts = [e for e in app.trace.events if e.get("event") == "text"]
                        if texts:
                            app.trace.text, app.trace.caret = texts[-1]["text"], texts[-1]["caret"]
                        app.trace.mark()
            replayer = Replayer(binary, workdir, asset_args)
            for name, function in REPLAY_SCENARIOS:
                if name not in selected:
                    continue
                print(f"# {name}", flush=True)
                try:
                    function(replayer)
                    passed += 1
                except CheckFailed as error:
                    failures.append(name)
                    print(f"not ok - {name}: {error}", flush=True)
        except CheckFailed as error:  # during launch
            failures.append("launch")
            print(f"not ok - launch: {error}", flush=True)
            stderr_path = os.path.join(workdir, "app-stderr.txt")
            if os.path.exists(stderr_path):
                with open(stderr_path, encoding="utf-8", errors="replace") as f:
                    tail = f.read().strip().splitlines()[-5:]
                if tail:
                    print("# app stderr: " + "\n# ".join(tail), flush=True)
        finally:
            if app is not None:
                kill_group(app.proc)
            kill_group(xvfb)
        elapsed = time.monotonic() - began
        if failures:
            fail(f"{passed} scenario(s) passed, {len(failures)} failed: {', '.join(failures)} ({elapsed:.1f} s)")
        print(f"# all {passed} scenarios passed in {elapsed:.1f} s", flush=True)
    return script_main(body, prefix="hee-text-", keep_variable="HEE_TEXT_KEEP")


if __name__ == "__main__":
    sys.exit(main())
