#!/usr/bin/env python3
"""Replay-driven end-to-end tests of HeeApp (issue 3: touch, multi-touch, lost releases, key
repeat, rapid presses, shift timing, HiDPI, malformed files, record → replay, stress).

Scenarios 1-12 follow the task list (see Tests/e2e/replay/README.md); 13 checks that a replay's
timing does not depend on how fast the machine is. They run in order 1-11, 13, 12 (the
stress test, the slowest, last).

Every scenario writes a replay file (JSON Lines, the format documented in
Sources/AppModel/Replay/InputRecord.swift), runs

    HeeApp --trace --replay FILE --exit-when-done

under SDL's offscreen video driver (no display needed) and checks the JSON Lines trace.
Key positions come from the app's own first `layout` event (one run with an empty replay
per scale), never from hard-coded numbers. Only the record → replay scenario needs a
display: it starts its own Xvfb and drives the app with xdotool.

Prints `ok - ...` per passed check; on the first failure prints `FAIL: ...` with the replay
file and the trace lines involved and exits 1 (2 for a missing prerequisite).

Environment:
  HEE_APP                      binary (default <repo>/.build/release/HeeApp)
  HEE_ASSETS                   if set, pass `--assets DIR` to the app
  HEE_REPLAY_ONLY              comma-separated scenario numbers to run (default: all), e.g. 1,6,12
  HEE_REPLAY_KEEP=1            keep the work directory (replay files, traces) after a pass
  HEE_REPLAY_STRESS_PAIRS      press/release pairs in scenario 12 (default 10000)
  HEE_REPLAY_STRESS_TIMEOUT    seconds scenario 12 may take (default 120: a safety net, not a speed target)
Standard-library Python 3 only.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import (Prerequisite, REPO_ROOT, TraceReader, app_binary, ok, fail, kill_group,  # noqa: E402
                         run_scenarios, script_main, start_xvfb)
REPLAY_DIR = os.path.join(REPO_ROOT, "Tests", "e2e", "replay")
MALFORMED_DIR = os.path.join(REPLAY_DIR, "malformed")
HEE_TEXT = "へぇ〜"
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]
ALL_KEYS = ["hee", "shift", "backspace", "space"] + LETTERS
# A safety net for one replay run, not a speed target: sanitizer builds (scripts/sanitize.sh) on a
# loaded machine take far longer (ThreadSanitizer drawing --scale 8 took over 20 s at load 10).
RUN_TIMEOUT = float(os.environ.get("HEE_REPLAY_RUN_TIMEOUT", "20"))
TIME_TOLERANCE = 0.015  # seconds; trace `t` is rounded to 1 ms and may run a few ms ahead of the file


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# --------------------------------------------------------------------------- running the app

class Context:
    def __init__(self, binary, workdir):
        self.binary = binary
        self.workdir = workdir
        assets = os.environ.get("HEE_ASSETS")
        self.asset_args = ["--assets", os.path.abspath(assets)] if assets else []
        self.layouts = {}
        self.counter = 0

    def env(self, **extra):
        env = dict(os.environ)
        env.pop("GDK_SCALE", None)
        # Live runs save settings: keep them out of the user's ~/.config (and theirs out of us).
        env.update(SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy",
                   XDG_CONFIG_HOME=os.path.join(self.workdir, "config"))
        env.update({k: v for k, v in extra.items() if v is not None})
        return env

    def path(self, name):
        return os.path.join(self.workdir, name)

    def write_replay(self, name, records):
        self.counter += 1
        path = self.path(f"{self.counter:02d}-{name}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for record in records:
                f.write((record if isinstance(record, str) else dumps(record)) + "\n")
        return path


class Run:
    """One finished app run: exit status, parsed trace, stderr, the replay file."""

    def __init__(self, name, replay_path, returncode, stdout, stderr, wall):
        self.name = name
        self.replay_path = replay_path
        self.returncode = returncode
        self.raw_stdout = stdout
        self.stderr = stderr
        self.wall = wall
        self.lines = stdout.splitlines()
        self.events = []
        for line in self.lines:
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                self.fail(f"trace line is not JSON: {line!r}")
            if not isinstance(event, dict) or "event" not in event or "t" not in event:
                self.fail(f"trace line lacks \"event\"/\"t\": {line!r}")
            self.events.append(event)

    # ---- selection
    def of(self, kind, **fields):
        return [e for e in self.events
                if e["event"] == kind and all(e.get(k) == v for k, v in fields.items())]

    def touches(self):
        return [(e["key"], e["down"]) for e in self.of("touch")]

    def texts(self):
        return [e["text"] for e in self.of("text")]

    def counts(self):
        return [e["count"] for e in self.of("hee")]

    def shifts(self):
        return [e["state"] for e in self.of("shift")]

    def index(self, event):
        return next(i for i, e in enumerate(self.events) if e is event)

    # ---- failure with context
    def context(self, kinds=("touch", "hee", "shift", "text", "sound", "audio")):
        replay = ""
        if self.replay_path and os.path.exists(self.replay_path):
            with open(self.replay_path, encoding="utf-8") as f:
                lines = f.read().splitlines()
            shown = lines if len(lines) <= 40 else lines[:20] + [f"... ({len(lines) - 40} more)"] + lines[-20:]
            replay = f"\nreplay file {self.replay_path}:\n  " + "\n  ".join(shown)
        trace = [line for line, e in zip(self.lines, self.events) if e["event"] in kinds]
        if len(trace) > 40:
            trace = trace[:20] + [f"... ({len(trace) - 40} more)"] + trace[-20:]
        stderr = f"\napp stderr:\n  {self.stderr.strip()}" if self.stderr.strip() else ""
        return f"{replay}\ntrace ({'/'.join(kinds)} lines):\n  " + ("\n  ".join(trace) or "(none)") + stderr

    def fail(self, message):
        fail(f"[{self.name}] {message}{self.context()}")

    def expect(self, condition, message):
        if not condition:
            self.fail(message)

    def expect_equal(self, actual, expected, what):
        if actual != expected:
            self.fail(f"{what}:\n  expected {dumps(expected)}\n  actual   {dumps(actual)}")


def run_app(ctx, name, records, args=(), env=None, timeout=RUN_TIMEOUT, expect_rc=0, path=None):
    """Writes `records` as a replay file (unless `path` is given), runs the app on it and
    returns a `Run`. Fails unless it exits with `expect_rc` (None: any)."""
    if path is None:
        path = ctx.write_replay(name, records)
    command = [ctx.binary, "--trace", "--replay", path, "--exit-when-done", *ctx.asset_args, *args]
    started = time.monotonic()
    try:
        proc = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout, env=env or ctx.env(),
                              cwd=ctx.workdir)
    except subprocess.TimeoutExpired:
        fail(f"[{name}] the app did not exit within {timeout} s: {' '.join(command)}")
    wall = time.monotonic() - started
    with open(os.path.join(ctx.workdir, os.path.basename(path) + ".trace"), "wb") as f:
        f.write(proc.stdout)  # kept with the work dir for debugging
    result = Run(name, path, proc.returncode, proc.stdout.decode("utf-8", errors="replace"),
                 proc.stderr.decode("utf-8", errors="replace"), wall)
    if expect_rc is not None and proc.returncode != expect_rc:
        result.fail(f"exit status {proc.returncode}, expected {expect_rc}: {' '.join(command)}")
    return result


def layout_for(ctx, scale=None):
    """The first `layout` event of a run with an empty replay (cached per scale)."""
    if scale in ctx.layouts:
        return ctx.layouts[scale]
    args = ["--scale", str(scale)] if scale is not None else []
    run = run_app(ctx, f"layout-scale-{scale or 'default'}", [], args=args)
    layouts = run.of("layout")
    run.expect(layouts, "no layout event with an empty replay")
    layout = layouts[0]
    missing = [k for k in ALL_KEYS + ["textField", "closeKeyboard"] if k not in layout.get("keys", {})]
    run.expect(not missing, f"layout lacks keys {missing}")
    shown = run.of("keyboard", status="show")
    run.expect(shown, "no keyboard show event at launch")
    layout = dict(layout, keyboardFrame=shown[0]["frame"])
    ctx.layouts[scale] = layout
    return layout


# --------------------------------------------------------------------------- writing replays

def centre(rect):
    return (rect["x"] + rect["w"] / 2, rect["y"] + rect["h"] / 2)


def inside(rect, point):
    x, y = point
    return rect["x"] <= x < rect["x"] + rect["w"] and rect["y"] <= y < rect["y"] + rect["h"]


class Script:
    """Builds a replay: `now` is the current time in ms; positions are key names or
    (x, y) in window coordinates, turned into 0…1 fractions for finger events."""

    def __init__(self, layout, start=1000):
        self.layout = layout
        self.now = start
        self.records = []

    def wait(self, ms):
        self.now += ms
        return self

    def add(self, kind, **fields):
        self.records.append({"t": self.now, "type": kind, **fields})
        return self

    def point(self, where, dx=0.0, dy=0.0):
        x, y = centre(self.layout["keys"][where]) if isinstance(where, str) else where
        return (x + dx, y + dy)

    def fraction(self, where, dx=0.0, dy=0.0):
        x, y = self.point(where, dx, dy)
        window = self.layout["window"]
        return (round(x / window["w"], 6), round(y / window["h"], 6))

    def finger(self, action, finger, where, dx=0.0, dy=0.0):
        x, y = self.fraction(where, dx, dy)
        return self.add("finger" + action, finger=finger, x=x, y=y)

    def mouse(self, action, where, dx=0.0, dy=0.0, **extra):
        x, y = self.point(where, dx, dy)
        return self.add("mouse" + action, x=round(x, 3), y=round(y, 3), **extra)

    def tap(self, where, finger=1, hold=50):
        self.finger("down", finger, where).wait(hold)
        return self.finger("up", finger, where)

    def click(self, where, hold=50, **extra):
        self.mouse("down", where, **extra).wait(hold)
        return self.mouse("up", where, **extra)


def host_point(layout):
    """A point in the host area (above the keyboard) on no host control."""
    keyboard_top = layout["keyboardFrame"]["y"]
    x = layout["window"]["w"] / 2
    for y in range(int(keyboard_top) - 20, 0, -10):
        if not any(inside(layout["keys"][c], (x, y)) for c in ("textField", "closeKeyboard")):
            return (x, float(y))
    fail("no free point in the host area")


def expect_times(run, events, base, expected, what):
    actual = [round(e["t"] - base, 3) for e in events]
    if len(actual) != len(expected) or any(abs(a - b) > TIME_TOLERANCE for a, b in zip(actual, expected)):
        run.fail(f"{what}: times after the press\n  expected {expected}\n  actual   {actual}")


# --------------------------------------------------------------------------- scenarios

def scenario_touch(ctx):
    layout = layout_for(ctx)
    s = Script(layout).tap("hee", finger=1, hold=80)
    run = run_app(ctx, "touch", s.records)
    audio = run.of("audio")
    run.expect(audio and audio[0].get("status") == "open", "the audio device did not open (dummy driver)")
    run.expect_equal(run.touches(), [("hee", True), ("hee", False)], "touch events")
    run.expect_equal(run.counts(), [1], "hee counts")
    run.expect_equal([(e["text"], e["caret"]) for e in run.of("text")], [(HEE_TEXT, 3)], "text events")
    run.expect_equal([e["name"] for e in run.of("sound")], ["hee"], "sound events")
    down, up = run.of("touch", key="hee", down=True)[0], run.of("touch", key="hee", down=False)[0]
    order = [run.index(e) for e in (down, run.of("hee")[0], run.of("text")[0], run.of("sound")[0], up)]
    run.expect(order == sorted(order), "expected touch down, hee, text, sound, touch up in that order")
    expect_times(run, [up], down["t"], [0.080], "touch hee up")
    ok("touch: finger tap on hee → touch hee down/up, hee count 1, text 「へぇ〜」 caret 3, sound hee")


def scenario_emulated_mouse(ctx):
    layout = layout_for(ctx)
    s = Script(layout)
    # One touch as SDL delivers it: the finger events plus the mouse events it makes from them.
    s.finger("down", 1, "hee").mouse("down", "hee", touch=True).wait(20)
    s.finger("motion", 1, "hee", dx=2).mouse("motion", "hee", dx=2, buttons=1, touch=True).wait(40)
    s.finger("up", 1, "hee", dx=2).mouse("up", "hee", dx=2, touch=True).wait(300)
    # The same on a letter (letters act on release: a different path).
    s.finger("down", 2, "a").mouse("down", "a", touch=True).wait(60)
    s.finger("up", 2, "a").mouse("up", "a", touch=True).wait(300)
    # A real mouse click still counts.
    s.click("hee", hold=60)
    run = run_app(ctx, "emulated-mouse", s.records)
    touches = run.touches()
    run.expect_equal(touches[:2], [("hee", True), ("hee", False)], "touch events of the touch on hee")
    run.expect_equal(run.counts()[:1], [1], "hee count after the touch (finger + emulated mouse)")
    before_a = [e for e in run.of("hee") if run.index(e) < run.index(run.of("touch", key="a")[0])]
    run.expect_equal([e["count"] for e in before_a], [1], "hee events of the touch (finger + emulated mouse)")
    ok("emulated-mouse duplicates: fingerdown + mousedown(touch) + fingerup + mouseup(touch) on hee → exactly one count")
    run.expect_equal(touches[2:4], [("a", True), ("a", False)], "touch events of the touch on 'a'")
    run.expect_equal(run.texts()[:2], [HEE_TEXT, HEE_TEXT + "a"], "text after the touch on 'a'")
    ok("emulated-mouse duplicates: the same on 'a' types one 'a'")
    run.expect_equal(run.counts(), [1, 2], "hee counts after the real mouse click")
    run.expect_equal(touches, [("hee", True), ("hee", False), ("a", True), ("a", False), ("hee", True), ("hee", False)],
                     "all touch events")
    run.expect_equal(run.texts(), [HEE_TEXT, HEE_TEXT + "a", HEE_TEXT + "a" + HEE_TEXT], "text events")
    ok("emulated-mouse duplicates: a real mouse click (no touch flag) still counts (count 2)")


def scenario_multi_touch(ctx):
    layout = layout_for(ctx)
    # Two fingers on hee: the second lands while the first is held.
    s = Script(layout)
    s.finger("down", 1, "hee").wait(50)
    s.finger("down", 2, "hee", dx=20, dy=10).wait(50)
    s.finger("up", 1, "hee").wait(100)
    s.finger("up", 2, "hee", dx=20, dy=10)
    run = run_app(ctx, "multi-touch-hee", s.records)
    run.expect_equal(run.counts(), [1], "hee counts with two fingers on hee")
    run.expect_equal(run.texts(), [HEE_TEXT], "text events with two fingers on hee")
    run.expect_equal(run.touches(), [("hee", True), ("hee", False)], "touch events with two fingers on hee")
    down, up = run.of("touch", key="hee")
    expect_times(run, [up], down["t"], [0.200], "touch hee up (must wait for the second finger, lifted at +0.2 s)")
    ok("multi-touch: two fingers on hee → one count; hee up only when the second finger lifts (+0.2 s)")

    # Shift held by one finger while another types 'a'; then shift released; then 'a'.
    s = Script(layout)
    s.finger("down", 3, "shift").wait(100)
    s.tap("a", finger=4, hold=50).wait(150)
    s.finger("up", 3, "shift").wait(300)
    s.tap("a", finger=5, hold=50)
    run = run_app(ctx, "multi-touch-shift-chord", s.records)
    run.expect_equal(run.texts(), ["A", "Aa"], "text events (chord, then a plain tap)")
    run.expect_equal(run.shifts(), ["on", "off"], "shift events")
    shift_off = run.of("shift", state="off")[0]
    run.expect(run.index(run.of("text", text="A")[0]) < run.index(shift_off), "shift went off before 'A' was typed")
    run.expect(run.index(shift_off) < run.index(run.of("text", text="Aa")[0]), "'a' typed before shift went off")
    expect_times(run, [shift_off], run.of("touch", key="shift", down=True)[0]["t"], [0.300],
                 "shift off (on the shift finger's release at +0.3 s)")
    run.expect_equal(run.touches(), [("shift", True), ("a", True), ("a", False), ("shift", False), ("a", True), ("a", False)],
                     "touch events")
    ok("multi-touch: shift held + another finger taps 'a' → \"A\"; releasing shift → off; then 'a' → \"a\"")


def scenario_drag_off(ctx):
    layout = layout_for(ctx)
    host = host_point(layout)
    a = centre(layout["keys"]["a"])
    s = Script(layout)
    s.finger("down", 1, "a").wait(30)
    for i in range(1, 5):  # up and off the keyboard in steps
        s.finger("motion", 1, (a[0], a[1] + (host[1] - a[1]) * i / 4)).wait(30)
    s.finger("up", 1, host).wait(200)
    # The same with the mouse.
    s.mouse("down", "a").wait(30)
    s.mouse("motion", host, buttons=1).wait(30)
    s.mouse("up", host)
    run = run_app(ctx, "drag-off-keyboard", s.records)
    run.expect_equal(run.texts(), [], "text events after sliding off the keyboard")
    run.expect_equal(run.touches(), [("a", True), ("a", False)] * 2, "touch events")
    ok(f"drag off a key: down on 'a', slide into the host area {host}, up → nothing typed (finger and mouse)")

    s = Script(layout)
    s.finger("down", 1, "a").wait(40)
    s.finger("motion", 1, "a", dx=15).wait(40)
    s.finger("motion", 1, "s").wait(40)
    s.finger("up", 1, "s")
    run = run_app(ctx, "drag-a-to-s", s.records)
    run.expect_equal(run.texts(), ["s"], "text events after sliding from 'a' to 's'")
    run.expect_equal(run.touches(), [("a", True), ("a", False), ("s", True), ("s", False)], "touch events")
    ok("drag off a key: down on 'a', slide to 's', up → \"s\"")


def scenario_lost_releases(ctx):
    layout = layout_for(ctx)
    # The mouse comes back with no button held (released outside the window).
    s = Script(layout)
    s.mouse("down", "a").wait(100)
    s.mouse("motion", "a", dx=3, dy=2, buttons=0).wait(200)
    s.click("s")
    run = run_app(ctx, "lost-mouse-release", s.records)
    run.expect_equal(run.touches(), [("a", True), ("a", False), ("s", True), ("s", False)], "touch events")
    run.expect_equal(run.texts(), ["s"], "text events (the lost press on 'a' must type nothing)")
    expect_times(run, run.of("touch", key="a", down=False), run.of("touch", key="a", down=True)[0]["t"], [0.100],
                 "touch a up (on the motion with buttons 0)")
    ok("lost releases: mouse down on 'a', motion with buttons 0 → key up, nothing typed; the mouse works after")

    # A finger id that goes down again while we think it is down.
    s = Script(layout)
    s.finger("down", 3, "hee").wait(100)
    s.finger("down", 3, "q").wait(100)
    s.finger("up", 3, "q")
    run = run_app(ctx, "finger-down-twice", s.records)
    run.expect_equal(run.counts(), [1], "hee counts")
    run.expect_equal(run.touches(), [("hee", True), ("hee", False), ("q", True), ("q", False)], "touch events")
    run.expect_equal(run.texts(), [HEE_TEXT, HEE_TEXT + "q"], "text events")
    hee_down = run.of("touch", key="hee", down=True)[0]["t"]
    expect_times(run, run.of("touch", key="hee", down=False) + run.of("text", text=HEE_TEXT + "q"), hee_down,
                 [0.100, 0.200], "hee up (second fingerdown) and 'q' typed (fingerup)")
    ok("lost releases: finger 3 down on hee, down again on 'q' → stale hee press ends, no second count; 'q' types on release")

    # Focus lost while keys are held (backspace by a finger, hee by the mouse, then 'w' by a finger).
    s = Script(layout)
    s.add("textinput", text="hello").wait(100)
    s.finger("down", 1, "backspace").wait(50)
    s.mouse("down", "hee").wait(50)
    s.finger("down", 2, "w").wait(100)  # last: a later touch would type it (iOS rollover, issue 12)
    s.add("window", event="focus_lost").wait(1200)  # backspace would have repeated by now
    s.finger("up", 1, "backspace").finger("up", 2, "w").mouse("up", "hee").wait(100)
    s.add("window", event="focus_gained").wait(100)
    s.tap("r", finger=1)
    run = run_app(ctx, "focus-lost", s.records)
    run.expect_equal(run.texts(), ["hello", "hell", "hell" + HEE_TEXT, "hell" + HEE_TEXT + "r"], "text events")
    run.expect_equal(run.counts(), [1], "hee counts")
    ups = run.of("touch", down=False)
    run.expect_equal(sorted(e["key"] for e in ups[:3]), ["backspace", "hee", "w"], "keys released by focus loss")
    expect_times(run, ups[:3], run.of("touch", key="backspace", down=True)[0]["t"], [0.2, 0.2, 0.2],
                 "keys released (focus lost at +0.2 s)")
    run.expect_equal(run.touches()[-2:], [("r", True), ("r", False)], "touch events after focus came back")
    run.expect_equal(len(run.touches()), 8, "number of touch events (3 down, 3 up by focus loss, 'r' down/up)")
    ok("lost releases: focus_lost while backspace, 'w' and hee are held → all keys up, nothing typed or repeated")


def backspace_model(text, hold_ms):
    """The expected text after each deletion of backspace held `hold_ms`: (ms, text) pairs."""
    def word(t):
        t = t.rstrip()  # mirrors TextBuffer.deleteWordBackward: spaces, then the word
        i = len(t)
        while i > 0 and not t[i - 1].isspace():
            i -= 1
        return t[:i]
    out = [(0, text[:-1])]
    text = text[:-1]
    fire = 500
    while fire < hold_ms:  # a repeat due at the release's very instant does not fire (issue 12)
        text = word(text) if fire >= 2000 else text[:-1]
        out.append((fire, text))
        fire += 100
    return out


def scenario_repeat(ctx):
    layout = layout_for(ctx)
    sentence = "hello world this is a test"

    def held(name, text, hold_ms, jitter=False):
        s = Script(layout)
        s.add("textinput", text=text).wait(100)
        s.finger("down", 1, "backspace")
        if jitter:
            for i, step in enumerate(range(50, hold_ms, 50)):
                s.wait(50).finger("motion", 1, "backspace", dx=(-3, 2, 3, -2)[i % 4], dy=(2, -3, 1, 3)[i % 4])
            s.wait(hold_ms - (s.now - s.records[1]["t"]))
        else:
            s.wait(hold_ms)
        s.finger("up", 1, "backspace", dx=2 if jitter else 0)
        run = run_app(ctx, name, s.records)
        press = run.of("touch", key="backspace", down=True)
        run.expect(len(press) == 1, "expected one backspace press")
        split = run.index(press[0])
        # A textinput line arrives whole, however long (one commit).
        typed = [e for e in run.of("text") if run.index(e) < split]
        run.expect(typed and typed[-1]["text"] == text, "the textinput did not arrive whole")
        deletions = [e for e in run.of("text") if run.index(e) > split]
        expected = backspace_model(text, hold_ms)
        run.expect_equal([e["text"] for e in deletions], [t for _, t in expected], "text after each deletion")
        expect_times(run, deletions, press[0]["t"], [ms / 1000 for ms, _ in expected], "deletions")
        run.expect_equal(run.touches(), [("backspace", True), ("backspace", False)], "touch events")
        return run, expected

    run, expected = held("repeat-1s", sentence, 1000)
    run.expect_equal(len(expected), 6, "model sanity")
    ok(f"repeat: backspace held 1.0 s → 1 + 5 deletions at t=0, 0.5, 0.6 … 0.9 s; none at the release's instant "
       f"(text now {expected[-1][1]!r})")

    words = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
             "oscar papa quebec romeo sierra tango uniform victor whiskey")
    run, expected = held("repeat-3s", words, 3000)
    word_steps = [(ms, before, after) for (ms, after), (_, before) in zip(expected[1:], expected) if ms >= 2000]
    run.expect(len(word_steps) == 10 and all(len(b) - len(a) >= 2 and (a == "" or a.endswith(" "))
                                             for _, b, a in word_steps), "model sanity (word steps)")
    ok(f"repeat: backspace held 3.0 s → char deletions until 1.9 s, then 10 whole words at 2.0 … 2.9 s "
       f"(text now {expected[-1][1]!r})")

    run, expected = held("repeat-1s-jitter", sentence, 1000, jitter=True)
    ok("repeat: finger jitter (motion within ±3 points every 50 ms) keeps the repeat going: same 6 deletions")


def scenario_rapid(ctx):
    layout = layout_for(ctx)
    s = Script(layout)
    for i in range(10):
        s.tap("hee", finger=1 + i % 2, hold=45).wait(50)  # a press every 95 ms: 10 in 0.855 s
    expected_texts = [HEE_TEXT * k for k in range(1, 11)]

    def check(run, driver):
        audio = run.of("audio")
        run.expect(audio and audio[0].get("status") == "open",
                   f"first audio event is not 'open' with the {driver} driver: {audio[:1]}")
        run.expect(run.index(audio[0]) < run.index(run.of("sound")[0]) if run.of("sound") else True,
                   "a sound before the audio device opened")
        run.expect_equal(run.counts(), list(range(1, 11)), "hee counts")
        run.expect_equal(run.texts(), expected_texts, "text events")
        sounds = run.of("sound", name="hee")
        run.expect_equal(len(sounds), 10, "number of sound events")
        heees = run.of("hee")
        span = heees[-1]["t"] - heees[0]["t"]
        run.expect(span < 1.0, f"the ten presses span {span:.3f} s, not within one second")
        for i, (h, snd) in enumerate(zip(heees, sounds)):
            nxt = run.index(heees[i + 1]) if i + 1 < len(heees) else len(run.events)
            run.expect(run.index(h) < run.index(snd) < nxt, f"sound {i + 1} is not between hee {i + 1} and hee {i + 2}")
        return span

    run = run_app(ctx, "rapid-presses", s.records)
    span = check(run, "dummy")
    ok(f"rapid presses: 10 presses in {span:.3f} s → count 10, 「へぇ〜」×10, 10 sound events (dummy audio, "
       f"opened {run.of('audio')[0]['rate']} Hz)")

    disk_file = ctx.path("rapid-disk-audio.raw")
    run = run_app(ctx, "rapid-presses-disk", s.records,
                  env=ctx.env(SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=disk_file))
    check(run, "disk")
    size = os.path.getsize(disk_file) if os.path.exists(disk_file) else -1
    run.expect(size >= 0, f"the disk audio driver wrote no file {disk_file}")
    ok(f"rapid presses: the same with SDL_AUDIODRIVER=disk → 10 sound events; audio file {size} bytes "
       f"({run.wall:.2f} s wall)")


def scenario_shift_timing(ctx):
    layout = layout_for(ctx)
    for gap, states, typed in ((249, ["on", "capsLock"], "A"), (251, ["on", "off"], "a")):
        results = []
        for attempt in range(3):
            s = Script(layout)
            s.tap("shift", finger=1, hold=40).wait(gap - 40)
            s.tap("shift", finger=1, hold=40).wait(300)
            s.tap("a", finger=2, hold=40)
            run = run_app(ctx, f"shift-{gap}ms-{attempt + 1}", s.records)
            downs = run.of("touch", key="shift", down=True)
            run.expect(len(downs) == 2, "expected two shift presses")
            run.expect_equal(run.shifts()[:2], states, f"shift states for taps {gap} ms apart (run {attempt + 1})")
            run.expect_equal(run.texts(), [typed], f"letter typed after taps {gap} ms apart (run {attempt + 1})")
            results.append((tuple(run.shifts()), tuple(run.texts())))
        if len(set(results)) != 1:
            fail(f"[shift-{gap}ms] results differ between runs: {results}")
        ok(f"shift timing: taps {gap} ms apart → {' → '.join(states)} (then 'a' types {typed!r}), 3/3 runs identical")


def scenario_hidpi(ctx):
    base = layout_for(ctx, 1)
    order = ["hee", "backspace", "space"] + LETTERS + ["shift"]

    def expected_texts():
        text, out = "", []
        for key in order:
            if key == "hee":
                text += HEE_TEXT
            elif key == "backspace":
                text = text[:-1]
            elif key == "space":
                text += " "
            elif key != "shift":
                text += key
            else:
                continue
            out.append(text)
        return out

    def press_all(scale, layout, with_fingers):
        s = Script(layout)
        for i, key in enumerate(order):
            if with_fingers:
                s.tap(key, finger=7, hold=30)
            else:
                s.click(key, hold=30)
            s.wait(70)
        kind = "finger" if with_fingers else "mouse"
        run = run_app(ctx, f"hidpi-{kind}-scale-{scale}", s.records, args=["--scale", str(scale)])
        touches = run.touches()
        expected = [(k, d) for k in order for d in (True, False)]
        if touches != expected:
            wrong = next(((i // 2, e, a) for i, (e, a) in enumerate(zip(expected, touches)) if e != a), None)
            detail = ""
            if wrong:
                key = order[wrong[0]]
                detail = (f"\n  first wrong: pressing the centre of {key!r} at {Script(layout).point(key)} "
                          f"(rect {layout['keys'][key]}) gave {wrong[2]}")
            run.fail(f"{kind} at the key centres, --scale {scale}: touch events differ{detail}\n"
                     f"  expected {dumps(expected)}\n  actual   {dumps(touches)}")
        run.expect_equal(run.texts(), expected_texts(), f"text events ({kind}, --scale {scale})")
        run.expect_equal(run.shifts(), ["on"], f"shift events ({kind}, --scale {scale})")
        return run

    for scale in (1, 2, 1.5):
        layout = layout_for(ctx, scale)
        window = layout["window"]
        if abs(window["w"] - 480 * scale) > 0.5 or abs(window["h"] - 800 * scale) > 0.5:
            fail(f"[hidpi] --scale {scale}: layout window {window}, expected {480 * scale}×{800 * scale}")
        if abs(layout["scale"] - scale) > 1e-6:
            fail(f"[hidpi] --scale {scale}: layout scale {layout['scale']}, expected {scale}")
        for key in ALL_KEYS:
            r, r1 = layout["keys"][key], base["keys"][key]
            if any(abs(r[f] - r1[f] * scale) > 1.0 for f in ("x", "y", "w", "h")):
                fail(f"[hidpi] --scale {scale}: rect of {key!r} {r} is not {scale} × {r1}")
        press_all(scale, layout, with_fingers=False)
        ok(f"HiDPI: --scale {scale} (window {window['w']}×{window['h']}): a mouse click at the centre of each of "
           f"the {len(order)} keys hits that key; letters type themselves")
    layout = layout_for(ctx, 1.5)
    press_all(1.5, layout, with_fingers=True)
    ok("HiDPI: --scale 1.5 with finger events at the key centres (fractions of the window) hits every key")


def scenario_malformed(ctx):
    files = sorted(f for f in os.listdir(MALFORMED_DIR) if f.endswith(".jsonl"))
    if len(files) < 6:
        fail(f"expected the malformed replay fixtures in {MALFORMED_DIR}, found {files}")
    for name in files:
        path = os.path.join(MALFORMED_DIR, name)
        with open(path, encoding="utf-8") as f:
            header = f.read()
        match = re.search(r"^# expect-line: (\d+)$", header, re.M)
        if not match:
            fail(f"{path} lacks a '# expect-line: N' comment")
        line = int(match.group(1))
        run = run_app(ctx, f"malformed-{name}", None, path=path, expect_rc=None)
        if run.returncode != 65:
            run.fail(f"exit status {run.returncode} for a malformed file, expected 65")
        if run.raw_stdout:
            run.fail(f"the app wrote to the trace although the file is malformed:\n{run.raw_stdout[:2000]}")
        err = run.stderr.rstrip("\n")
        if "\n" in err or not err:
            run.fail(f"expected a one-line error on stderr, got {run.stderr!r}")
        if f"{path}:{line}:" not in err:
            run.fail(f"the error does not name {path}:{line}: {err!r}")
        ok(f"malformed: {name} → exit 65, stdout empty, stderr: {err.replace(REPO_ROOT + '/', '')}")


# --------------------------------------------------------------------------- record → replay

class LiveTrace(TraceReader):
    """The live app's trace (TraceReader); a line that is not JSON raises JSONDecodeError."""

    def __init__(self, stream):
        super().__init__(stream, timeout=5.0)

    def parse(self, line):
        return json.loads(line.rstrip("\n"))

    def closed_message(self, what):
        return f"[record] the app exited waiting for {what}\n" + self.last_lines()

    def timeout_message(self, what, timeout, since):
        return f"[record] timed out waiting for {what}\n" + self.last_lines()

    def last_lines(self):
        return "last trace lines:\n  " + "\n  ".join(self.lines[-15:])


def comparable(events, kinds=("hee", "shift", "text")):
    return [{k: v for k, v in e.items() if k != "t"} for e in events if e["event"] in kinds]


def scenario_record_replay(ctx):
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            raise Prerequisite(f"{tool} not found (needed for the record → replay scenario)")
    xvfb = app = None
    try:
        xvfb, display = start_xvfb()
        env = ctx.env(DISPLAY=display)
        env.pop("SDL_VIDEODRIVER")
        record_path = ctx.path("recorded.jsonl")
        stderr = open(ctx.path("record-stderr.txt"), "wb")
        app = subprocess.Popen([ctx.binary, "--record", record_path, "--trace", *ctx.asset_args], env=env,
                               cwd=ctx.workdir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                               start_new_session=True)
        stderr.close()
        trace = LiveTrace(app.stdout)
        layout = trace.wait_for(lambda e: e["event"] == "layout", "the first layout", timeout=20)
        keys = layout["keys"]

        def xdo(*args):
            proc = subprocess.run(["xdotool", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=10)
            if proc.returncode != 0:
                fail(f"[record] xdotool {' '.join(args)} failed: {proc.stderr.decode().strip()}")
            return proc.stdout.decode().strip()

        wid = None
        deadline = time.monotonic() + 10
        while wid is None and time.monotonic() < deadline:
            for candidate in subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "hee-keyboard"], env=env,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().split():
                pid = subprocess.run(["xdotool", "getwindowpid", candidate], env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL).stdout.decode().strip()
                if pid in ("", str(app.pid)):
                    wid = candidate
            time.sleep(0.05)
        if wid is None:
            fail("[record] no visible HeeApp window under Xvfb")

        def click(key, repeat=1):
            x, y = centre(keys[key])
            xdo("mousemove", "--window", wid, str(round(x)), str(round(y)))
            if repeat == 1:
                xdo("click", "1")
            else:
                xdo("click", "--repeat", str(repeat), "--delay", "80", "1")

        click("hee")
        trace.wait_for(lambda e: e["event"] == "hee" and e["count"] == 1, "hee count 1")
        click("shift", repeat=2)
        trace.wait_for(lambda e: e["event"] == "shift" and e["state"] == "capsLock", "shift capsLock")
        click("a")
        trace.wait_for(lambda e: e["event"] == "text" and e["text"] == HEE_TEXT + "A", "text へぇ〜A")
        subprocess.run(["xdotool", "windowfocus", wid], env=env, stderr=subprocess.DEVNULL)
        xdo("type", "--delay", "50", "xy")
        trace.wait_for(lambda e: e["event"] == "text" and e["text"] == HEE_TEXT + "Axy", "text へぇ〜Axy")
        xdo("key", "BackSpace")
        trace.wait_for(lambda e: e["event"] == "text" and e["text"] == HEE_TEXT + "Ax", "text へぇ〜Ax")
        # The app has handled everything sent to it once the recording holds BackSpace's
        # release: stop it then (no fixed wait).
        deadline = time.monotonic() + 10
        while not any('"keyup"' in line and '"backspace"' in line.lower() for line in open(record_path, encoding="utf-8")):
            if time.monotonic() > deadline:
                fail("[record] the recording holds no BackSpace keyup 10 s after the key")
            time.sleep(0.05)
        app.send_signal(signal.SIGTERM)
        try:
            rc = app.wait(timeout=20)  # a safety net: it exits at once
        except subprocess.TimeoutExpired:
            fail("[record] the app did not exit within 20 s of SIGTERM")
        trace.thread.join(timeout=2)
        trace.drain()
        if rc != 0:
            fail(f"[record] the live app exited with status {rc} after SIGTERM")
        with open(ctx.path("recorded-trace.jsonl"), "w", encoding="utf-8") as f:
            f.write("\n".join(trace.lines) + "\n")
        with open(record_path, encoding="utf-8") as f:
            recorded = [json.loads(line) for line in f if line.strip()]
        kinds = sorted({r["type"] for r in recorded})
        live = comparable(trace.events)
        ok(f"record: live run under Xvfb {display} → {len(recorded)} records ({', '.join(kinds)}), "
           f"{len(live)} hee/shift/text events")
    finally:
        kill_group(app)
        kill_group(xvfb)

    run = run_app(ctx, "replay-of-recording", None, path=record_path)
    replayed = comparable(run.events)
    if replayed != live:
        run.fail("replayed hee/shift/text events differ from the live run's\n  live:     "
                 + "\n            ".join(dumps(e) for e in live)
                 + "\n  replayed: " + "\n            ".join(dumps(e) for e in replayed))
    ok(f"record → replay: the replay's {len(replayed)} hee/shift/text events equal the live run's "
       f"(final text {live[-1].get('text')!r})")
    live_touch, replay_touch = comparable(trace.events, ("touch",)), comparable(run.events, ("touch",))
    if live_touch != replay_touch:
        run.fail(f"replayed touch events differ: live {dumps(live_touch)}, replayed {dumps(replay_touch)}")
    ok(f"record → replay: touch events equal too ({len(live_touch)})")


# --------------------------------------------------------------------------- slow machine

def scenario_slow_machine(ctx):
    """Issue 3: "Gesture timing (double tap, repeat) uses each event's own timestamp, so a
    replay gives the same result on a slow or a busy machine." The same file is replayed at
    --scale 1 and --scale 8: at 8 every frame is 3840×6400 pixels, so the replay's frames
    take far longer in real time (a stand-in for a slow machine). In the file backspace is
    held 0.3 s while 2000 one-letter textinputs arrive: one deletion, no repeat."""
    results = {}
    for scale in (1, 8):
        layout = layout_for(ctx, scale)
        s = Script(layout)
        s.add("textinput", text="hello world").wait(100)
        s.finger("down", 1, "backspace").wait(10)
        for i in range(2000):
            s.add("textinput", text="x")
            if i % 100 == 99:
                s.wait(1)
        s.now = s.records[1]["t"] + 300
        s.finger("up", 1, "backspace")
        run = run_app(ctx, f"slow-machine-scale-{scale}", s.records, args=["--scale", str(scale)], timeout=30)
        press = run.of("touch", key="backspace", down=True)
        release = run.of("touch", key="backspace", down=False)
        run.expect(len(press) == 1 and len(release) == 1, "expected one backspace press and release")
        texts = run.texts()
        deletions = sum(1 for a, b in zip(texts, texts[1:]) if len(b) < len(a))
        final = texts[-1] if texts else ""
        results[scale] = (deletions, len(final))
        if deletions != 1 or final != "hello worl" + "x" * 2000:
            wall = run.wall
            fail(f"[slow-machine-scale-{scale}] backspace held 0.3 s in the replay file (fingerdown t="
                 f"{s.records[1]['t']}, fingerup t={s.now}) must delete exactly one character; with --scale "
                 f"{scale} the app made {deletions} deletions, final text {len(final)} characters instead of 2010 "
                 f"({final[:14]!r}…). Trace: backspace down t={press[0]['t']}, up t={release[0]['t']} "
                 f"({release[0]['t'] - press[0]['t']:.3f} s apart), replay took {wall:.2f} s wall; "
                 f"replay file {run.replay_path}")
        ok(f"slow machine: --scale {scale}: backspace held 0.3 s (in the file) → exactly one deletion "
           f"({run.wall:.2f} s wall)")


# --------------------------------------------------------------------------- stress

def scenario_stress(ctx):
    layout = layout_for(ctx)
    pairs = int(os.environ.get("HEE_REPLAY_STRESS_PAIRS", "10000"))
    # A safety net, not a speed target (about 2.5 s here; `make bench` has the figures).
    limit = float(os.environ.get("HEE_REPLAY_STRESS_TIMEOUT", "120"))
    x, y = Script(layout).fraction("hee")
    path = ctx.path("stress.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for i in range(pairs):
            t = 1000 + 40 * i
            f.write(f'{{"t":{t},"type":"fingerdown","finger":1,"x":{x},"y":{y}}}\n')
            f.write(f'{{"t":{t + 20},"type":"fingerup","finger":1,"x":{x},"y":{y}}}\n')
    trace_path = ctx.path("stress-trace.jsonl")
    command = [ctx.binary, "--trace", "--mute", "--replay", path, "--exit-when-done", *ctx.asset_args]
    started = time.monotonic()
    with open(trace_path, "wb") as out:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE,
                                env=ctx.env(), cwd=ctx.workdir, start_new_session=True)
        try:
            _, err = proc.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            wall = time.monotonic() - started
            size = os.path.getsize(trace_path)
            counted, last_t = 0, None
            with open(trace_path, "rb") as f:
                for line in f:
                    if line.startswith(b'{"event":"hee"'):
                        counted += 1
                        last_t = json.loads(line)["t"]
            fail(f"[stress] {pairs} press/release pairs (virtual {pairs * 0.04:.0f} s) did not finish within "
                 f"{limit:.0f} s wall: killed after {wall:.1f} s with {counted} hee events traced (last at "
                 f"t={last_t}), {size / 1e6:.0f} MB of trace so far (every text event carries the whole text)")
    wall = time.monotonic() - started
    if proc.returncode != 0:
        fail(f"[stress] exit status {proc.returncode}: {err.decode(errors='replace').strip()}")
    hee_count, last_hee, last_text = 0, None, None
    with open(trace_path, "rb") as f:
        for line in f:
            if line.startswith(b'{"event":"hee"'):
                hee_count += 1
                last_hee = line
            elif line.startswith(b'{"event":"text"'):
                last_text = line
    if last_hee is None or last_text is None:
        fail("[stress] no hee or text events in the trace")
    final = json.loads(last_hee)["count"]
    text = json.loads(last_text)["text"]
    if hee_count != pairs or final != pairs:
        fail(f"[stress] {hee_count} hee events, final count {final}; expected {pairs}")
    if text != HEE_TEXT * pairs:
        fail(f"[stress] the last text is {len(text)} characters, not exactly 「へぇ〜」×{pairs} "
             f"({text.count(HEE_TEXT)} occurrences)")
    size = os.path.getsize(trace_path)
    ok(f"stress: {pairs} press/release pairs at full speed (--mute) → count {final}, text 「へぇ〜」×{pairs}; "
       f"wall {wall:.2f} s, trace {size / 1e6:.1f} MB")


# --------------------------------------------------------------------------- main

SCENARIOS = [
    (1, "touch", scenario_touch),
    (2, "emulated-mouse duplicates", scenario_emulated_mouse),
    (3, "multi-touch", scenario_multi_touch),
    (4, "drag off a key", scenario_drag_off),
    (5, "lost releases", scenario_lost_releases),
    (6, "repeat", scenario_repeat),
    (7, "rapid presses", scenario_rapid),
    (8, "shift timing", scenario_shift_timing),
    (9, "HiDPI", scenario_hidpi),
    (10, "malformed files", scenario_malformed),
    (11, "record → replay", scenario_record_replay),
    (13, "slow machine (replay timing)", scenario_slow_machine),
    (12, "stress", scenario_stress),  # last: the slowest
]


def main():
    def body(workdir):
        binary = app_binary()
        print(f"# binary {binary}, work dir {workdir}", flush=True)
        run_scenarios(SCENARIOS, "HEE_REPLAY_ONLY", Context(binary, workdir))
    return script_main(body, prefix="hee-replay-", keep_variable="HEE_REPLAY_KEEP")


if __name__ == "__main__":
    sys.exit(main())
