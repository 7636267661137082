#!/usr/bin/env python3
"""Real touch, end to end (issue 19): the release binary touched through a real compositor.

weston runs headless with kiosk-shell and Xwayland and our own module (Tests/touch/hee_touch.c,
built here from source against libweston-10-dev), which gives its seat a touch screen and a
pointer driven through a FIFO (see touch_support.py). Every scenario runs on both routes:

  wayland   the app native on Wayland (WAYLAND_DISPLAY only): SDL's wl_touch
  x11       the app on X11 through Xwayland (DISPLAY only): XInput 2.2 touch events

Scenarios (each with an app of its own):
  tap          a tap on a letter types it once
  hee          a tap on へぇ counts once, plays (SDL's disk audio driver: `sound` and non-zero
               samples), sinks the cap while held (weston's own pixels, LOOKed at: hee-*.png)
  shift        shift's single and double tap (0.25 s) by touch
  rollover     two and three overlapping fingers in every order (6 and 90, as
               RolloverTests.swift): the held letter commits when the next touch lands; with
               shift on, the first letter only is a capital
  hee-held     a finger on へぇ held while two others type
  slide        a finger sliding off a key onto another types the other
  outside      a finger lifted outside the window types nothing
  cancel       a touch the compositor cancels (wl_touch.cancel) leaves no key pressed; on
               Wayland it types nothing; through Xwayland it arrives as an ordinary touch end
               (Xwayland turns the cancel into XI_TouchEnd), so the letter is typed
  before       a touch that began before the window existed does nothing
  overlay      a second finger on an open alternates bubble types the cell it touches, never
               the へぇ button under the bubble; taps while the space bar is the trackpad do
               nothing (issue 28, class 8)
  hints        SDL_MOUSE_TOUCH_EVENTS and SDL_TOUCH_MOUSE_EVENTS 0 and 1: a real click (the
               compositor's pointer; and xdotool under Xvfb) and a real tap each type once
  record       a live touch run recorded with --record (fingers leaving the window and a
               compositor's cancel included: a `touchcancel` record on Wayland)
               replays headless to the same state lines (on Wayland SDL reports such a finger
               outside 0…1; through Xwayland at the window's edge: X clamps it)

A scenario marked a known failure (KNOWN_FAILURES: an app bug with its issue) prints
`xfail - …` when it fails and fails the run when it passes (remove the mark then).

Prints `ok - …` per check, `not ok - …` per failed scenario; exit 1 if any failed, 2 when a
prerequisite is missing (weston, Xwayland, libweston-10-dev, xdotool, xwininfo, ImageMagick).

Environment:
  HEE_APP               binary (default <repo>/.build/release/HeeApp)
  HEE_TOUCH_ONLY        comma-separated scenario names (default: all)
  HEE_TOUCH_ROUTES      comma-separated routes (default: wayland,x11)
  HEE_TOUCH_KEEP=1      keep the work directory (traces, screenshots, logs) after a pass
Standard-library Python 3 only.
"""
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import (CheckFailed, Prerequisite, app_binary, fail, is_event, kill_group, ok,  # noqa: E402
                         script_main, start_xvfb)
from run_e2e import (CAP_PRESS_OFFSET, CAP_PROBE, HEE_DESIGN_WIDTH, Image, Trace, cap_top_edge,  # noqa: E402
                     is_yellow, wait_for_audio)
from touch_support import HeeWindow, Touch, Weston, build_module, centre  # noqa: E402

TIMEOUT = 10.0                # safety nets, never what is checked
SETTLE_TIMEOUT = 15.0
HEE_TEXT = "へぇ〜"
ROUTES = ("wayland", "x11", "xvfb")     # xvfb: only the hints' clicks (Xvfb has no touch device)
#: (scenario, route) -> why it fails today: an app bug, with its issue.
KNOWN_FAILURES = {}   # none since Part 2 of issue 19


class App:
    """One HeeApp process on `route` with its trace; `touch` once `ready`."""

    def __init__(self, rig, route, name, args=(), **extra_env):
        self.rig, self.route, self.name = rig, route, name
        self.workdir = rig.workdir
        self.stderr_path = os.path.join(rig.workdir, f"{name}-stderr.txt")
        config = os.path.join(rig.workdir, f"{name}-config")
        os.makedirs(config, exist_ok=True)
        env = rig.weston.client_env(os.environ, route, XDG_CONFIG_HOME=config, SDL_AUDIODRIVER="dummy")
        env.update(extra_env)
        with open(self.stderr_path, "wb") as stderr:
            self.proc = subprocess.Popen([rig.binary, "--trace", *args], cwd=rig.workdir, env=env,
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                                         start_new_session=True)
        self.trace = Trace(self.proc.stdout)
        self.layout = self.window = self.touch = None

    def ready(self):
        """Waits for the window to settle on weston's output and be drawn there; sets `layout`
        (its keys, window coordinates), `window` and `touch`."""
        weston = self.rig.weston
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while True:
            self.trace.drain(0.05)
            layouts = [e for e in self.trace.events if e["event"] == "layout"]
            if self.proc.poll() is not None:
                fail(f"{self.name}: the app exited with status {self.proc.returncode}: {self.stderr()[-400:]}")
            if layouts and self.settled(layouts[-1]["window"]):
                break
            if time.monotonic() > deadline:
                fail(f"{self.name}: the window did not settle on weston's output "
                     f"(layouts: {[e['window'] for e in layouts]})")
        self.layout = layouts[-1]
        self.window = HeeWindow.locate(weston, self.route, self.proc.pid, self.layout["window"])
        self.touch = Touch(weston, self.window)
        # Drawn: the へぇ cap at rest is on the output (kiosk-shell's background is black).
        probe = self.hee_probe()
        self.rig.settled_shot(self, f"{self.name}-first", lambda image: rest_colour(image.mean(*probe)),
                              "the app's first frame on weston's output")
        self.trace.mark()
        return self

    def settled(self, size):
        """Whether a window of `size` {w, h} is where kiosk-shell puts it for good: the output
        (Wayland), or maximized inside weston's frame (X11: the frame's borders are alike on
        the left, right and bottom, so the window and its frame fill the output)."""
        width, height = self.rig.weston.size
        if self.route == "wayland":
            return (size["w"], size["h"]) == (width, height)
        border = (width - size["w"]) / 2
        return 0 < border < 20 and 0 < height - size["h"] - border < 60

    def key(self, name):
        return centre(self.layout["keys"][name])

    def hee_probe(self):
        """Output pixel inside the へぇ button's cap (seed 000's design point CAP_PROBE)."""
        hee = self.layout["keys"]["hee"]
        k = hee["w"] / HEE_DESIGN_WIDTH
        return self.window.to_output((hee["x"] + CAP_PROBE[0] * k, hee["y"] + CAP_PROBE[1] * k))

    def wait_for(self, kind, what=None, timeout=TIMEOUT, **fields):
        return self.trace.wait_for(is_event(kind, **fields), what or f"{self.name}: a {kind} event {fields or ''}",
                                   timeout)

    def expect(self, expected, what):
        """Waits for the next len(`expected`) state events (text, touch, shift, hee, volume; as
        (kind, value…) tuples, see `state`) after the cursor and compares them; moves the
        cursor past them."""
        start = self.trace.cursor
        got = []
        index = start
        deadline = time.monotonic() + TIMEOUT
        while len(got) < len(expected):
            self.trace.drain(0.05)
            while index < len(self.trace.events) and len(got) < len(expected):
                item = state(self.trace.events[index])
                index += 1
                if item is not None:
                    got.append(item)
            if len(got) < len(expected) and (time.monotonic() > deadline or self.trace.closed):
                break
        self.trace.cursor = index
        if got != expected:
            fail(f"{self.name}: {what}: state events {got}, expected {expected}\n{self.trace.tail()}")

    def barrier(self, what):
        """Proves that nothing more came of what went before: a tap on 音量 − then ＋ (volume
        90, then 100), whose events must be the next state events."""
        self.touch.tap(9, self.key("volumeDown"))
        self.touch.tap(9, self.key("volumeUp"))
        self.expect([("volume", 90), ("volume", 100)], f"{what} (then the barrier: 音量 −, ＋)")

    def stderr(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def quit(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            fail(f"{self.name}: no exit within 20 s of SIGTERM")
        if status != 0:
            fail(f"{self.name}: exit status {status} after SIGTERM: {self.stderr()[-400:]}")

    def finish(self):
        kill_group(self.proc)
        self.trace.thread.join(timeout=2)
        self.trace.drain()
        with open(os.path.join(self.workdir, f"{self.name}-trace.jsonl"), "w", encoding="utf-8") as f:
            f.write("\n".join(self.trace.lines) + "\n")


def state(event):
    """A trace event as the tuple the scenarios compare, or None for other events."""
    kind = event["event"]
    if kind == "text":
        return ("text", event["text"])
    if kind == "touch":
        return ("touch", event["key"], event["down"])
    if kind == "shift":
        return ("shift", event["state"])
    if kind == "hee":
        return ("hee", event["count"])
    if kind == "volume":
        return ("volume", event["volume"])
    return None


def rest_colour(rgb):
    """The へぇ cap at rest: grey-blue, not yellow, not the black of an empty output."""
    return not is_yellow(rgb) and rgb[2] >= rgb[0] and sum(rgb) > 300


class Rig:
    """What the scenarios share: weston, the binary, the work directory."""

    def __init__(self, binary, workdir, weston):
        self.binary, self.workdir, self.weston = binary, workdir, weston
        self.apps = []

    def launch(self, route, name, args=(), **env):
        app = App(self, route, name, args, **env)
        self.apps.append(app)
        return app

    def shot(self, name):
        """The output's pixels now (after weston's next repaint); kept as `name`.png."""
        ppm = os.path.join(self.workdir, f"{name}.ppm")
        self.weston.shot(ppm)
        with open(ppm, "rb") as f:
            image = Image.from_ppm(f.read())
        subprocess.run(["convert", ppm, os.path.join(self.workdir, f"{name}.png")], check=False, timeout=30)
        os.remove(ppm)
        return image

    def wait_output_empty(self):
        """Waits until weston's output shows no window (kiosk-shell's black): an app that has
        exited leaves its window there for a moment (an X window the longest, until weston's
        X window manager has let go of it), and the next app's first frame must be its own."""
        width, height = self.weston.size
        points = [(x * width / 4, y * height / 8) for x in (1, 2, 3) for y in (1, 4, 7)]
        deadline = time.monotonic() + SETTLE_TIMEOUT
        while True:
            image = self.shot("empty")
            if all(sum(image.mean(x, y)) < 30 for x, y in points):
                os.remove(os.path.join(self.workdir, "empty.png"))
                return
            if time.monotonic() > deadline:
                fail(f"a window stayed on weston's output {SETTLE_TIMEOUT} s after its app exited; see empty.png")

    def settled_shot(self, app, name, expected, what):
        """Shots until two in a row agree at the へぇ probe and `expected(image)` holds (the app
        draws late on a busy machine); returns the last."""
        deadline = time.monotonic() + SETTLE_TIMEOUT
        previous = None
        while True:
            image = self.shot(name)
            current = image.mean(*app.hee_probe())
            if current == previous and expected(image):
                return image
            if time.monotonic() > deadline:
                fail(f"{app.name}: {what}: not seen within {SETTLE_TIMEOUT} s (colour {current} at the へぇ "
                     f"probe); see {name}.png")
            previous = current


# --------------------------------------------------------------------------- scenarios

def scenario_tap(rig, route):
    app = rig.launch(route, f"{route}-tap").ready()
    app.touch.tap(1, app.key("a"))
    app.expect([("touch", "a", True), ("text", "a"), ("touch", "a", False)], "a tap on a")
    app.touch.tap(2, app.key("q"))
    app.expect([("touch", "q", True), ("text", "aq"), ("touch", "q", False)], "a tap on q")
    app.barrier("two taps")
    ok(f"{route}: a tap on a letter types it once (a, then q)")
    app.quit()


def scenario_hee(rig, route):
    audio = os.path.join(rig.workdir, f"{route}-hee.raw")
    app = rig.launch(route, f"{route}-hee", SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=audio).ready()
    opened = app.trace.wait_for(is_event("audio"), "the first audio line", since=0, consume=False)
    if opened.get("status") not in ("open", "resumed"):
        fail(f"audio did not open with SDL's disk driver: {opened}")
    rest = rig.settled_shot(app, f"{route}-hee-rest", lambda image: rest_colour(image.mean(*app.hee_probe())),
                            "the cap at rest")
    since = app.trace.mark()
    start = os.path.getsize(audio) if os.path.exists(audio) else 0
    app.touch.down(1, app.key("hee"))
    app.expect([("touch", "hee", True), ("hee", 1), ("text", HEE_TEXT)], "a finger down on へぇ")
    app.trace.wait_for(is_event("sound", name="hee"), "the clip playing", since=since, consume=False)
    held = rig.settled_shot(app, f"{route}-hee-held", lambda image: is_yellow(image.mean(*app.hee_probe())),
                            "the held cap yellow")
    hee = app.layout["keys"]["hee"]
    k = hee["w"] / HEE_DESIGN_WIDTH
    frame = {"x": app.window.origin[0] + hee["x"], "y": app.window.origin[1] + hee["y"], "w": hee["w"]}
    keyboard = app.layout["keys"]["q"]
    background = rest.mean(*app.window.to_output((keyboard["x"] - 2, keyboard["y"] - 4)), radius=1)
    unit = {"s": 1.0, "k": k}
    top_rest, top_held = cap_top_edge(rest, frame, unit, background), cap_top_edge(held, frame, unit, background)
    if top_rest is None or top_held is None:
        fail(f"the cap's top edge not found (rest {top_rest}, held {top_held}); see {route}-hee-*.png")
    sunk = (top_held - top_rest) / k
    if abs(sunk - CAP_PRESS_OFFSET) > 2:
        fail(f"the held cap's top edge moved {sunk:.1f} pt, expected {CAP_PRESS_OFFSET} ± 2; see {route}-hee-*.png")
    ok(f"{route}: a finger on へぇ: touch, count 1, 「へぇ〜」, sound; the cap yellow and {sunk:.1f} pt lower "
       f"while held ({route}-hee-held.png)")
    wait_for_audio(audio, "the clip in the disk audio file", lambda data: any(data[start:]))
    app.touch.up(1)
    app.expect([("touch", "hee", False)], "the finger lifted from へぇ")
    rig.settled_shot(app, f"{route}-hee-released", lambda image: rest_colour(image.mean(*app.hee_probe())),
                     "the cap back at rest")
    app.barrier("one press on へぇ")
    ok(f"{route}: it counted once, the clip is in the audio file, the cap is back at rest")
    app.quit()


def scenario_shift(rig, route):
    app = rig.launch(route, f"{route}-shift").ready()
    shift = app.key("shift")
    app.touch.tap(1, shift)
    app.expect([("touch", "shift", True), ("shift", "on"), ("touch", "shift", False)], "one tap on shift")
    # More than 0.25 s from when the trace showed the tap handled (load only makes it longer).
    time.sleep(0.4)
    app.touch.tap(1, shift)
    app.expect([("touch", "shift", True), ("shift", "off"), ("touch", "shift", False)], "a second, late tap")
    ok(f"{route}: one tap turns shift on, a tap 0.4 s later turns it off")
    time.sleep(0.4)
    # A double tap: four touch events sent at once, well inside 0.25 s.
    app.touch.tap(1, shift)
    app.touch.tap(2, shift)
    app.expect([("touch", "shift", True), ("shift", "on"), ("touch", "shift", False),
                ("touch", "shift", True), ("shift", "capsLock"), ("touch", "shift", False)], "a double tap on shift")
    app.touch.tap(3, app.key("h"))
    app.touch.tap(3, app.key("i"))
    app.expect([("touch", "h", True), ("text", "H"), ("touch", "h", False),
                ("touch", "i", True), ("text", "HI"), ("touch", "i", False)], "two letters in caps lock")
    time.sleep(0.4)
    app.touch.tap(1, shift)
    app.expect([("touch", "shift", True), ("shift", "off"), ("touch", "shift", False)], "a tap in caps lock")
    app.barrier("shift taps")
    ok(f"{route}: a double tap locks caps (HI), one tap unlocks")
    app.quit()


def orderings(count):
    """Every order of the downs and ups of `count` presses, each down before its up (as
    RolloverTests.orderings): [(index, down)]."""
    result = []

    def extend(prefix, downs, ups):
        if len(ups) == count:
            result.append(prefix)
            return
        for i in range(count):
            if i not in downs:
                extend(prefix + [(i, True)], downs | {i}, ups)
            elif i not in ups:
                extend(prefix + [(i, False)], downs, ups | {i})
    extend([], frozenset(), frozenset())
    return result


def rollover_events(steps, letters, text, shift):
    """The state events the iOS rule gives (issue 12, RolloverTests.Expectation): a press
    commits at its release or when the next touch lands, whichever is first; shift `on` makes
    the first committed letter a capital and turns off. Returns (events, text, shift)."""
    events, held = [], None

    def commit(i):
        nonlocal text, shift
        letter = letters[i].upper() if shift in ("on", "capsLock") else letters[i]
        text += letter
        events.append(("text", text))
        if shift == "on":
            shift = "off"
            events.append(("shift", "off"))
        events.append(("touch", letters[i], False))
    for i, down in steps:
        if down:
            if held is not None:
                commit(held)
            held = i
            events.append(("touch", letters[i], True))
        elif held == i:
            commit(i)
            held = None
    return events, text, shift


def scenario_rollover(rig, route):
    app = rig.launch(route, f"{route}-rollover").ready()
    text, count = "", 0
    for letters in (("h", "e"), ("t", "h", "e")):
        for steps in orderings(len(letters)):
            for i, down in steps:
                if down:
                    app.touch.down(i + 1, app.key(letters[i]))
                else:
                    app.touch.up(i + 1)
            expected, text, _ = rollover_events(steps, letters, text, "off")
            app.expect(expected, "fingers " + " ".join(f"{'d' if d else 'u'}{i + 1}" for i, d in steps)
                       + f" on {''.join(letters)}")
            count += 1
    ok(f"{route}: {count} orderings of two and three overlapping fingers type in the order of touching")
    # The case: shift on; h down, e down, e up, h up: "He".
    app.touch.tap(1, app.key("shift"))
    app.expect([("touch", "shift", True), ("shift", "on"), ("touch", "shift", False)], "shift on")
    steps = [(0, True), (1, True), (1, False), (0, False)]
    for i, down in steps:
        (app.touch.down(i + 1, app.key("he"[i])) if down else app.touch.up(i + 1))
    expected, text, _ = rollover_events(steps, ("h", "e"), text, "on")
    app.expect(expected, "shift on, then h and e overlapping")
    app.barrier("the orderings")
    ok(f"{route}: shift on, h and e overlapping type \"He\" and shift turns off")
    app.quit()


def scenario_hee_held(rig, route):
    app = rig.launch(route, f"{route}-hee-held").ready()
    app.touch.down(1, app.key("hee"))
    app.expect([("touch", "hee", True), ("hee", 1), ("text", HEE_TEXT)], "finger 1 on へぇ")
    app.touch.tap(2, app.key("a"))
    app.touch.down(3, app.key("b"))
    app.touch.down(2, app.key("c"))
    app.touch.up(3)
    app.touch.up(2)
    app.expect([("touch", "a", True), ("text", HEE_TEXT + "a"), ("touch", "a", False),
                ("touch", "b", True), ("text", HEE_TEXT + "ab"), ("touch", "b", False), ("touch", "c", True),
                ("text", HEE_TEXT + "abc"), ("touch", "c", False)], "fingers 2 and 3 typing while へぇ is held")
    rig.settled_shot(app, f"{route}-hee-still-held", lambda image: is_yellow(image.mean(*app.hee_probe())),
                     "the cap still held")
    app.touch.up(1)
    app.expect([("touch", "hee", False)], "finger 1 lifted from へぇ")
    app.barrier("へぇ held while typing")
    ok(f"{route}: へぇ held by one finger while two others type abc: one count, the cap stays down")
    app.quit()


def scenario_slide(rig, route):
    app = rig.launch(route, f"{route}-slide").ready()
    app.touch.down(1, app.key("a"))
    a, s = app.key("a"), app.key("s")
    app.touch.move(1, ((a[0] + s[0]) / 2 - 1, a[1]))
    app.touch.move(1, s)
    app.touch.up(1)
    app.expect([("touch", "a", True), ("touch", "a", False), ("touch", "s", True), ("text", "s"),
                ("touch", "s", False)], "a finger sliding from a onto s")
    app.barrier("the slide")
    ok(f"{route}: a finger that slides from a onto s types s")
    app.quit()


def scenario_overlay(rig, route):
    """Issue 28, class 8: a second finger on an open alternates bubble chooses the cell it
    touches and never presses the へぇ button the bubble covers; one on the keyboard while the
    space bar is the trackpad does nothing."""
    app = rig.launch(route, f"{route}-overlay").ready()
    app.touch.down(1, app.key("e"))
    app.expect([("touch", "e", True)], "finger 1 on e")
    bubble = app.wait_for("alternates", "e's bubble opening", key="e")
    cell = bubble["choices"][3]
    hee = app.layout["keys"]["hee"]
    point = centre(cell)
    if not (hee["x"] <= point[0] <= hee["x"] + hee["w"] and hee["y"] <= point[1] <= hee["y"] + hee["h"]):
        fail(f"the bubble's cell {cell} does not cover the へぇ button {hee}: the scenario tests nothing")
    app.touch.tap(2, point)
    app.expect([("text", cell["text"]), ("touch", "e", False)], f"finger 2 on the bubble's {cell['text']}")
    app.touch.up(1)
    app.barrier("the bubble's choice by a second finger")
    ok(f"{route}: a second finger on the open bubble typed {cell['text']} and did not press the へぇ button under it")
    app.touch.down(3, app.key("space"))
    app.expect([("touch", "space", True)], "finger 3 on the space bar")
    app.wait_for("trackpad", "the trackpad", active=True)
    app.touch.tap(4, app.key("hee"))
    app.touch.tap(4, app.key("a"))
    app.touch.up(3)
    app.expect([("touch", "space", False)], "finger 3 lifted, after finger 4 tapped へぇ and a")
    app.barrier("taps while the trackpad was active")
    ok(f"{route}: taps on へぇ and a while the space bar is the trackpad type and count nothing")
    app.quit()


def outside_point(app):
    """A point outside the window where a finger can be: on Wayland, kiosk-shell's window is
    the whole output, so beyond the output's top edge (weston passes such coordinates on as
    they come); through Xwayland, on weston's title bar above the window."""
    x = app.key("a")[0]
    return (x, -40) if app.route == "wayland" else (x, -app.window.origin[1] / 2)


def scenario_outside(rig, route):
    app = rig.launch(route, f"{route}-outside").ready()
    app.touch.down(1, app.key("a"))
    app.touch.move(1, app.key("q"))
    app.touch.move(1, outside_point(app))
    app.touch.up(1)
    app.expect([("touch", "a", True), ("touch", "a", False), ("touch", "q", True), ("touch", "q", False)],
               "a finger from a over q to outside the window")
    # Off the other edges, next to the keys nearest them (through Xwayland the finger is
    # then reported at the window's edge, which no key reaches).
    w, h = app.window.size
    for key, point in (("p", (w + 10, app.key("p")[1])), ("space", (app.key("space")[0], h + 10)),
                       ("q", (-10, app.key("q")[1]))):
        app.touch.down(2, app.key(key))
        app.touch.move(2, point)
        app.touch.up(2)
        app.expect([("touch", key, True), ("touch", key, False)], f"a finger from {key} off the window's edge")
    app.barrier("fingers lifted outside the window")
    ok(f"{route}: a finger lifted outside the window (over the top, right, bottom and left edges) types nothing")
    app.quit()


def scenario_cancel(rig, route):
    app = rig.launch(route, f"{route}-cancel").ready()
    app.touch.down(1, app.key("a"))
    app.expect([("touch", "a", True)], "a finger on a")
    app.touch.cancel()
    app.touch.up(1)
    if route == "x11":
        # Xwayland has no way to tell an X client that a touch was cancelled once the client
        # owns it: it sends XI_TouchEnd, an ordinary lift, and the letter types
        # (docs/known-limitations.md).
        app.expect([("text", "a"), ("touch", "a", False)], "the compositor's cancel, seen as a lift")
        app.barrier("the cancelled touch")
        ok(f"{route}: a compositor's cancel reaches the X client as an ordinary touch end: a typed, no key pressed")
    else:
        app.expect([("touch", "a", False)], "the compositor's cancel")
        app.barrier("the cancelled touch")
        ok(f"{route}: a touch the compositor cancels leaves no key pressed and types nothing")
    app.quit()


def scenario_before(rig, route):
    # A finger on the output where the window will be (the keyboard's letters), before the
    # app starts.
    weston = rig.weston
    Touch(weston, HeeWindow((0, 0), weston.size)).down(5, (weston.size[0] / 2 - 100, weston.size[1] - 120))
    app = rig.launch(route, f"{route}-before").ready()
    a = app.key("a")
    app.touch.move(5, a)
    app.touch.move(5, (a[0] + 2, a[1]))
    app.touch.up(5)
    app.barrier("a finger that was down before the window existed, moved onto a and lifted")
    app.touch.tap(1, a)
    app.expect([("touch", "a", True), ("text", "a"), ("touch", "a", False)], "a new tap after it")
    ok(f"{route}: a touch that began before the window existed does nothing; the next tap types")
    app.quit()


def scenario_hints(rig, route):
    failures = []
    for mouse_touch, touch_mouse in itertools.product("01", "01"):
        hints = f"SDL_MOUSE_TOUCH_EVENTS={mouse_touch} SDL_TOUCH_MOUSE_EVENTS={touch_mouse}"
        app = rig.launch(route, f"{route}-hints-{mouse_touch}{touch_mouse}", SDL_MOUSE_TOUCH_EVENTS=mouse_touch,
                         SDL_TOUCH_MOUSE_EVENTS=touch_mouse).ready()
        try:
            app.touch.click(app.key("a"))
            app.touch.pointer((5, 5))
            app.expect([("touch", "a", True), ("text", "a"), ("touch", "a", False)], f"{hints}: a click on a")
            app.touch.tap(1, app.key("b"))
            app.expect([("touch", "b", True), ("text", "ab"), ("touch", "b", False)], f"{hints}: a tap on b")
            app.barrier(f"{hints}: one click and one tap")
            ok(f"{route}: {hints}: a click and a tap type once each")
        except CheckFailed as error:
            failures.append(str(error).splitlines()[0])
        app.quit()
        rig.wait_output_empty()
    if failures:
        fail("; ".join(failures))


def scenario_record(rig, route):
    recording = os.path.join(rig.workdir, f"{route}-record.jsonl")
    app = rig.launch(route, f"{route}-record", ["--record", recording]).ready()
    t = app.touch
    t.tap(1, app.key("hee"))
    t.tap(1, app.key("shift"))
    t.down(1, app.key("h"))
    t.down(2, app.key("e"))
    t.up(2)
    t.up(1)
    t.down(3, app.key("y"))
    t.move(3, outside_point(app))
    t.up(3)
    t.down(1, app.key("a"))
    t.move(1, app.key("s"))
    t.up(1)
    t.down(4, app.key("k"))
    t.cancel()
    t.up(4)
    t.tap(9, app.key("volumeDown"))
    t.tap(9, app.key("volumeUp"))
    app.wait_for("volume", "the last recorded tap (音量 ＋)", volume=100)
    live = app.trace.events[:]
    app.quit()
    app.finish()
    with open(recording, encoding="utf-8") as f:
        fingers = [json.loads(line) for line in f if '"finger' in line]
    outside = [r for r in fingers if not (0 <= r["x"] <= 1 and 0 <= r["y"] <= 1)]
    if route == "wayland" and not outside:
        fail(f"no finger record outside 0…1 in {recording}: the finger did not leave the window")
    with open(recording, encoding="utf-8") as f:
        cancels = sum(1 for line in f if '"touchcancel"' in line)
    if cancels != (1 if route == "wayland" else 0):
        fail(f"{cancels} touchcancel records in {recording}, expected {1 if route == 'wayland' else 0} "
             f"(through Xwayland a cancel is an ordinary touch end)")
    if route == "x11":
        # X reports a touch outside the window at the window's edge (Xwayland clamps it).
        if outside:
            fail(f"finger records outside 0…1 through Xwayland: {outside[:2]}")
        outside = [r for r in fingers if r["type"] == "fingerup" and 0 in (r["x"], r["y"])]
        if not outside:
            fail(f"the finger that left the window was not lifted at its edge: {fingers}")
    replayed = subprocess.run([rig.binary, "--trace", "--replay", recording, "--exit-when-done"], cwd=rig.workdir,
                              env=dict(os.environ, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy",
                                       XDG_CONFIG_HOME=os.path.join(rig.workdir, f"{route}-replay-config")),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if replayed.returncode != 0:
        fail(f"the replay of {recording} exited {replayed.returncode}: {replayed.stderr.decode().strip()}")
    kinds = ("text", "hee", "shift", "keyboard", "layout", "touch")
    strip = lambda events: [{k: v for k, v in e.items() if k != "t"} for e in events if e["event"] in kinds]  # noqa: E731
    replay = [json.loads(line) for line in replayed.stdout.decode().splitlines() if line.strip()]
    if strip(replay) != strip(live):
        fail(f"the replay's state lines differ from the live run's:\nlive   {strip(live)[-6:]}\nreplay {strip(replay)[-6:]}")
    ok(f"{route}: a live touch run (with {len(outside)} finger records outside the window) replays to the same "
       f"state lines")


SCENARIOS = [("tap", scenario_tap), ("hee", scenario_hee), ("shift", scenario_shift),
             ("rollover", scenario_rollover), ("hee-held", scenario_hee_held), ("slide", scenario_slide),
             ("outside", scenario_outside), ("cancel", scenario_cancel), ("before", scenario_before),
             ("hints", scenario_hints), ("record", scenario_record), ("overlay", scenario_overlay)]


def xvfb_clicks(binary, workdir):
    """Under Xvfb (no touch device): a real click with xdotool types once, whatever the hints."""
    xvfb, display = start_xvfb()
    try:
        for mouse_touch, touch_mouse in itertools.product("01", "01"):
            hints = f"SDL_MOUSE_TOUCH_EVENTS={mouse_touch} SDL_TOUCH_MOUSE_EVENTS={touch_mouse}"
            env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "WAYLAND_SOCKET")}
            env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy", SDL_MOUSE_TOUCH_EVENTS=mouse_touch,
                       SDL_TOUCH_MOUSE_EVENTS=touch_mouse,
                       XDG_CONFIG_HOME=os.path.join(workdir, f"xvfb-{mouse_touch}{touch_mouse}-config"))
            proc = subprocess.Popen([binary, "--trace"], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
            try:
                trace = Trace(proc.stdout)
                layout = trace.wait_for(is_event("layout"), "the first layout", TIMEOUT)
                wid = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(proc.pid)], env=env,
                                     stdout=subprocess.PIPE, timeout=TIMEOUT).stdout.split()[0].decode()
                for key in ("a", "volumeDown", "volumeUp"):
                    x, y = centre(layout["keys"][key])
                    subprocess.run(["xdotool", "mousemove", "--window", wid, str(round(x)), str(round(y)), "click", "1"],
                                   env=env, check=True, timeout=TIMEOUT)
                trace.wait_for(is_event("volume", volume=100), "the barrier (音量 −, ＋)", TIMEOUT)
                got = [s for s in map(state, trace.events) if s and s[0] in ("text", "touch")]
                expected = [("touch", "a", True), ("text", "a"), ("touch", "a", False)]
                if got != expected:
                    fail(f"Xvfb, {hints}: a click on a gave {got}, expected {expected}")
            finally:
                kill_group(proc)
            ok(f"Xvfb: {hints}: a click with xdotool types once")
    finally:
        kill_group(xvfb)


def main():
    def body(workdir):
        binary = app_binary()
        for tool in ("xdotool", "xwininfo", "convert"):
            if shutil.which(tool) is None:
                raise Prerequisite(f"{tool} not found (apt-get install xdotool x11-utils imagemagick)")
        module = build_module()
        ok(f"the hee-touch weston module built from source: {module}")
        only = {n.strip() for n in os.environ.get("HEE_TOUCH_ONLY", "").split(",") if n.strip()}
        routes = [r.strip() for r in os.environ.get("HEE_TOUCH_ROUTES", ",".join(ROUTES)).split(",") if r.strip()]
        failed, expected_failures = [], []
        began = time.monotonic()
        with Weston(workdir, module) as weston:
            ok(f"weston headless with kiosk-shell, Xwayland on {weston.display} and the hee-touch seat")
            rig = Rig(binary, workdir, weston)
            for name, function in SCENARIOS:
                if only and name not in only:
                    continue
                for route in [r for r in routes if r != "xvfb"]:
                    started = time.monotonic()
                    known = KNOWN_FAILURES.get((name, route))
                    try:
                        function(rig, route)
                        if known:
                            failed.append(f"{name} on {route} passed but is marked a known failure ({known}): "
                                          f"remove the mark")
                            print(f"not ok - {name} on {route}: passed, yet marked a known failure", flush=True)
                    except CheckFailed as error:
                        if known:
                            expected_failures.append(name)
                            print(f"xfail - {name} on {route}: {known}\n  {str(error).splitlines()[0]}", flush=True)
                        else:
                            failed.append(f"{name} on {route}: {error}")
                            print(f"not ok - {name} on {route}: {error}", flush=True)
                    finally:
                        weston.lift_all()
                        for app in rig.apps:
                            app.finish()
                        rig.apps.clear()
                        rig.wait_output_empty()
                    print(f"# {name} on {route}: {time.monotonic() - started:.1f} s", flush=True)
        if (not only or "hints" in only) and "xvfb" in routes:
            known = KNOWN_FAILURES.get(("hints", "xvfb"))
            try:
                xvfb_clicks(binary, workdir)
                if known:
                    failed.append(f"hints under Xvfb passed but is marked a known failure ({known}): remove the mark")
            except CheckFailed as error:
                if known:
                    expected_failures.append("hints")
                    print(f"xfail - hints under Xvfb: {known}\n  {str(error).splitlines()[0]}", flush=True)
                else:
                    failed.append(f"hints under Xvfb: {error}")
                    print(f"not ok - hints under Xvfb: {error}", flush=True)
        print(f"# touch scenarios: {time.monotonic() - began:.1f} s, {len(expected_failures)} known failures",
              flush=True)
        if failed:
            fail(f"{len(failed)} failed:\n" + "\n".join(failed))
    return script_main(body, prefix="hee-touch-", keep_variable="HEE_TOUCH_KEEP")


if __name__ == "__main__":
    sys.exit(main())
