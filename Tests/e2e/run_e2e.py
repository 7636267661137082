#!/usr/bin/env python3
"""End-to-end test of HeeApp: the real release binary in a real X server, driven by xdotool.

Starts Xvfb (unless HEE_E2E_USE_DISPLAY=1), launches `HeeApp --trace` with SDL's disk audio
driver, and checks the JSON-lines trace, screenshots of the へぇ button and the audio file
while clicking, typing, resizing and closing/opening the keyboard (issue 2, "End-to-end
test"). Prints one `ok - ...` line per passed check; exits 1 with a message on the first
failure, 2 when a prerequisite (binary, Xvfb, xdotool, ImageMagick) is missing.

Environment:
  HEE_APP              binary to test (default: <repo>/.build/release/HeeApp)
  HEE_E2E_USE_DISPLAY  1 = use the existing $DISPLAY instead of starting Xvfb
  HEE_E2E_ASSETS       optional: pass `--assets DIR` (by default the app must find its
                       assets from the binary's location)
  HEE_E2E_KEEP         1 = keep the temporary directory (trace, screenshots, audio) even on
                       success; it is always kept on failure
Only the Python standard library is used.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import (CheckFailed, Prerequisite, TraceReader, app_binary, ok, fail, is_event,  # noqa: E402
                         kill_group, script_main, start_xvfb)

DEFAULT_TIMEOUT = 10.0            # safety nets for waits, never what is checked
LAUNCH_TIMEOUT = 20.0
SETTLE_TIMEOUT = 10.0             # screenshots until the cap shows the expected state

# Seed 000, in the へぇ button's 170 × 180 design points (see HeeButtonGeometry).
HEE_DESIGN_WIDTH = 170.0
CAP_PROBE = (85.0, 50.0)          # inside the cap (y 25…105 at rest, 35…115 held), above the band (y 65)
CAP_COLUMN_X = 85.0               # column scanned for the cap's top edge
CAP_SCAN_HEIGHT = 60.0            # rows scanned from the top of the hee frame
CAP_PRESS_OFFSET = 10.0           # `.offset(y: isTouching ? 10 : 0)`
EDGE_THRESHOLD = 36               # sum of |Δr|+|Δg|+|Δb| against the keyboard background


# --------------------------------------------------------------------------- processes

def run(args, timeout=10.0, check=True, env=None):
    """Runs a short command (xdotool, import, convert); returns stdout bytes."""
    try:
        proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        fail(f"command timed out after {timeout} s: {' '.join(args)}")
    if check and proc.returncode != 0:
        fail(f"command failed ({proc.returncode}): {' '.join(args)}\n"
             f"{proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout


# --------------------------------------------------------------------------- trace

class Trace(TraceReader):
    """The app's trace; `wait_for` finds events after a cursor and consumes them by default.
    A line that is not a JSON object with "event" and "t" fails the check."""

    def __init__(self, stream):
        super().__init__(stream, timeout=DEFAULT_TIMEOUT)

    def parse(self, line):
        text = line.rstrip("\n")
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            fail(f"trace line is not JSON: {text!r}")
        if not isinstance(event, dict) or "event" not in event or "t" not in event:
            fail(f"trace line lacks \"event\"/\"t\": {text!r}")
        return event

    def tail(self, n=20):
        self.drain()
        return "\n".join(self.lines[-n:]) or "(no trace lines)"

    def wait_for(self, predicate, what="a trace event", timeout=DEFAULT_TIMEOUT, since=None, consume=True):
        """The first event at or after `since` (default: the cursor) that matches.

        With `consume`, the cursor moves past it. Fails with the last 20 trace lines on
        timeout."""
        return super().wait_for(predicate, what, timeout, since, consume)

    def closed_message(self, what):
        return f"the app closed its stdout (exited?) while waiting for {what}\nlast 20 trace lines:\n{self.tail()}"

    def timeout_message(self, what, timeout, since):
        return f"timed out after {timeout} s waiting for {what}\nlast 20 trace lines:\n{self.tail()}"

    def collect(self, seconds):
        """Waits `seconds` and returns the events that arrived after the cursor."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.drain(min(deadline - time.monotonic(), 0.05))
        self.drain()
        return self.events[self.cursor:]


class Screen:
    def __init__(self, wid, env, workdir):
        self.wid = wid
        self.env = env
        self.workdir = workdir

    def xdo(self, *args):
        return run(["xdotool", *args], env=self.env).decode().strip()

    def move(self, x, y):
        self.xdo("mousemove", "--window", self.wid, str(round(x)), str(round(y)))

    def click(self, x, y, repeat=1, delay_ms=100):
        self.move(x, y)
        if repeat == 1:
            self.xdo("click", "1")
        else:
            self.xdo("click", "--repeat", str(repeat), "--delay", str(delay_ms), "1")

    def click_rect(self, rect, **kwargs):
        self.click(rect["x"] + rect["w"] / 2, rect["y"] + rect["h"] / 2, **kwargs)

    def screenshot(self, name):
        """Saves <workdir>/<name>.png and returns (width, height, rgb bytes) of the window."""
        png = os.path.join(self.workdir, f"{name}.png")
        run(["import", "-window", self.wid, png], env=self.env, timeout=20)
        ppm = run(["convert", png, "-depth", "8", "ppm:-"], env=self.env, timeout=20)
        return Image.from_ppm(ppm)


class Image:
    def __init__(self, width, height, data):
        self.width, self.height, self.data = width, height, data

    @staticmethod
    def from_ppm(blob):
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
        pos += 1  # the single whitespace after maxval
        if fields[0] != b"P6" or fields[3] != b"255":
            fail(f"unexpected PPM header from convert: {fields}")
        width, height = int(fields[1]), int(fields[2])
        data = blob[pos:pos + width * height * 3]
        if len(data) != width * height * 3:
            fail("truncated PPM from convert")
        return Image(width, height, data)

    def pixel(self, x, y):
        x, y = int(round(x)), int(round(y))
        if not (0 <= x < self.width and 0 <= y < self.height):
            fail(f"pixel ({x}, {y}) outside the {self.width}×{self.height} screenshot")
        i = (y * self.width + x) * 3
        return tuple(self.data[i:i + 3])

    def mean(self, cx, cy, radius=2):
        pixels = [self.pixel(cx + dx, cy + dy)
                  for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)]
        return tuple(round(sum(p[c] for p in pixels) / len(pixels)) for c in range(3))


def distance(a, b):
    return sum(abs(x - y) for x, y in zip(a, b))


def is_yellow(rgb):
    r, g, b = rgb
    return r > 200 and g > 200 and b < 170


def file_size(path):
    return os.path.getsize(path) if os.path.exists(path) else 0


def wait_for_audio(path, what, condition, timeout=SETTLE_TIMEOUT):
    """Waits until the disk audio file's bytes satisfy `condition`: SDL's disk driver writes
    it in real time from its own thread, so a busy machine writes it late, never wrong."""
    deadline = time.monotonic() + timeout
    while True:
        with open(path, "rb") if os.path.exists(path) else open(os.devnull, "rb") as f:
            data = f.read()
        if condition(data):
            return data
        if time.monotonic() > deadline:
            fail(f"{what}: not in the disk audio file {path} ({len(data)} bytes) within {timeout} s")
        time.sleep(0.05)


def cap_top_edge(image, hee, unit, background):
    """First row (pixels from the hee frame's top) in column 85 pt that differs strongly
    from the keyboard background."""
    x = hee["x"] * unit["s"] + CAP_COLUMN_X * unit["k"]
    top = hee["y"] * unit["s"]
    for row in range(int(CAP_SCAN_HEIGHT * unit["k"])):
        if distance(image.pixel(x, top + row), background) > EDGE_THRESHOLD:
            return row
    return None


# --------------------------------------------------------------------------- the test

def launch(binary, workdir, env):
    args = [binary, "--trace"]
    if os.environ.get("HEE_E2E_ASSETS"):
        args += ["--assets", os.path.abspath(os.environ["HEE_E2E_ASSETS"])]
    stderr = open(os.path.join(workdir, "app-stderr.txt"), "wb")
    try:
        return subprocess.Popen(args, cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=stderr, start_new_session=True)
    finally:
        stderr.close()


def find_window(app, env):
    deadline = time.monotonic() + LAUNCH_TIMEOUT
    while time.monotonic() < deadline:
        if app.poll() is not None:
            fail(f"the app exited with status {app.returncode} before its window appeared")
        out = run(["xdotool", "search", "--onlyvisible", "--class", "hee-keyboard"], env=env,
                  check=False, timeout=5).decode().split()
        for wid in out:
            pid = run(["xdotool", "getwindowpid", wid], env=env, check=False, timeout=5).decode().strip()
            if pid == str(app.pid) or (not pid and len(out) == 1):
                return wid
        time.sleep(0.1)
    fail("no visible window of class hee-keyboard belonging to the app")


def check_all(binary, workdir, env, state):
    audio_path = os.path.join(workdir, "out.raw")
    env = dict(env, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=audio_path)
    started = time.monotonic()
    app = state["app"] = launch(binary, workdir, env)
    trace = state["trace"] = Trace(app.stdout)

    # 3. Launch ------------------------------------------------------------------------
    audio = trace.wait_for(is_event("audio"), "the first audio event", LAUNCH_TIMEOUT, consume=False)
    if audio.get("status") != "open":
        fail(f"audio did not open with the disk driver: {json.dumps(audio, ensure_ascii=False)}")
    for field, expected in (("rate", 48000), ("channels", 2), ("format", "s16")):
        if audio.get(field) != expected:
            fail(f"audio open event has {field}={audio.get(field)!r}, expected {expected!r}")
    ok(f"audio opened: {audio['rate']} Hz, {audio['channels']} ch, {audio['format']}, chunk {audio.get('chunk')}")

    shown = trace.wait_for(is_event("keyboard", status="show"), "keyboard show at launch", LAUNCH_TIMEOUT,
                           consume=False)
    kb = shown["frame"]
    if kb["w"] != 480 or kb["x"] != 0 or kb["y"] + kb["h"] != 800 or kb["h"] <= 0:
        fail(f"keyboard frame at launch {kb}: expected x 0, w 480 and y + h == 800")
    ok(f"keyboard shown at launch, frame {kb}")

    layout = trace.wait_for(is_event("layout"), "the first layout event", LAUNCH_TIMEOUT)
    if layout["window"] != {"w": 480, "h": 800}:
        fail(f"first layout has window {layout['window']}, expected 480×800")
    needed = ["hee", "shift", "backspace", "space", "textField", "closeKeyboard"] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    missing = [k for k in needed if k not in layout.get("keys", {})]
    if missing:
        fail(f"layout lacks keys {missing}")
    ok(f"layout after first frame (t {layout['t']} s, {time.monotonic() - started:.2f} s wall), {len(layout['keys'])} keys")
    trace.mark()

    wid = find_window(app, env)
    screen = Screen(wid, env, workdir)
    ok(f"window {wid} found (class hee-keyboard)")

    # 4. The へぇ button -----------------------------------------------------------------
    keys = layout["keys"]
    hee = keys["hee"]
    unit = {"s": float(layout.get("scale", 1)), "k": hee["w"] / HEE_DESIGN_WIDTH}
    unit["k"] *= unit["s"]  # design points → screenshot pixels
    probe = (hee["x"] * unit["s"] + CAP_PROBE[0] * unit["k"], hee["y"] * unit["s"] + CAP_PROBE[1] * unit["k"])

    def settled_cap(name, expected, what):
        """(colour at the probe, top edge row) once two screenshots in a row show the cap the
        same and `expected(rgb)` holds: the press animation runs 0.1 s of the app's time, and
        a busy app draws its frames late. Fails with the last shot after SETTLE_TIMEOUT."""
        deadline = time.monotonic() + SETTLE_TIMEOUT
        previous, shots = None, 0
        while True:
            image = screen.screenshot(name)
            background = image.mean(kb["x"] * unit["s"] + 3, kb["y"] * unit["s"] + 3, radius=1)
            current = (image.mean(*probe), cap_top_edge(image, hee, unit, background))
            shots += 1
            if current == previous and expected(current[0]):
                return current
            if time.monotonic() > deadline:
                fail(f"{what}: not seen in two screenshots in a row within {SETTLE_TIMEOUT} s ({shots} shots); last: "
                     f"colour {current[0]} at window pixel ({probe[0]:.0f}, {probe[1]:.0f}), top edge row "
                     f"{current[1]}; see {workdir}/{name}.png")
            previous = current

    # Some silence in the audio file before the press, so that "silent before the press" checks
    # something (the disk driver writes it in real time: no fixed wait).
    wait_for_audio(audio_path, "0.1 s of silence before the press", lambda data: len(data) >= 48000 * 4 // 10)
    screen.move(hee["x"] + hee["w"] / 2, hee["y"] + hee["h"] / 2)
    audio_before = file_size(audio_path)
    trace.mark()
    screen.xdo("mousedown", "1")
    since = trace.cursor
    for what, predicate in (
            ("touch hee down", is_event("touch", key="hee", down=True)),
            ("hee count 1", is_event("hee", count=1)),
            ('text "へぇ〜" caret 3', is_event("text", text="へぇ〜", caret=3)),
            ("sound hee", is_event("sound", name="hee"))):
        trace.wait_for(predicate, what=what, since=since)
    counted = [e for e in trace.events[since:] if e["event"] == "hee"]
    if len(counted) != 1:
        fail(f"one mousedown counted {len(counted)} times: {counted}")
    suspended = [e for e in trace.events[:since] if e["event"] == "audio" and e.get("status") == "suspended"]
    if suspended:
        fail(f"the audio device was suspended (3 s of silence) before the press at t {suspended[0]['t']}: the "
             f"disk audio file restarts when it reopens, so the audio checks below cannot be made")
    ok("mousedown on へぇ: touch hee down, hee count 1, text \"へぇ〜\" caret 3, sound hee")

    held_rgb, held_edge = settled_cap("held", is_yellow, "held cap yellow (r>200, g>200, b<170)")
    ok(f"held cap is yellow {held_rgb} at window pixel ({probe[0]:.0f}, {probe[1]:.0f})")

    screen.xdo("mouseup", "1")
    trace.wait_for(is_event("touch", key="hee", down=False), what="touch hee up")
    rest_rgb, rest_edge = settled_cap("released", lambda rgb: not is_yellow(rgb) and rgb[2] >= rgb[0],
                                      "released cap grey-blue (b >= r, not yellow)")
    ok(f"released cap is grey-blue {rest_rgb}")
    if held_edge is None or rest_edge is None:
        fail(f"cap top edge not found in column {CAP_COLUMN_X} pt (held {held_edge}, released {rest_edge})")
    shift_pt = (held_edge - rest_edge) / unit["k"]
    if abs(shift_pt - CAP_PRESS_OFFSET) > 2:
        fail(f"cap top edge held at row {held_edge}, released at row {rest_edge}: moved {shift_pt:.1f} pt, "
             f"expected {CAP_PRESS_OFFSET} ± 2")
    ok(f"cap top edge {rest_edge} px at rest, {held_edge} px held: {shift_pt:.1f} pt lower while held")

    # 5. Audio -----------------------------------------------------------------------------
    samples = wait_for_audio(audio_path, "non-zero samples after the press",
                             lambda data: any(data[audio_before:]))
    after = samples[audio_before:]
    first_nonzero = next((i for i, b in enumerate(after) if b), None)
    if first_nonzero is None:
        fail(f"disk audio {audio_path}: {len(after)} bytes after the press position {audio_before}, all zero")
    frame_bytes = audio["channels"] * 2
    rate = audio["rate"]
    ok(f"audio file has non-zero samples after the press ({len(samples)} bytes; first non-zero "
       f"{first_nonzero // frame_bytes / rate * 1000:.0f} ms after the file position at mousedown)")
    if any(samples[:audio_before]):
        lead = next(i for i, b in enumerate(samples) if b)
        fail(f"audio file has non-zero samples before the press: byte {lead} of {audio_before} "
             f"({lead // frame_bytes / rate:.3f} s)")
    ok(f"audio file is silent before the press ({audio_before} bytes = {audio_before / frame_bytes / rate:.2f} s of zeros)")

    text = "へぇ〜"

    # 6. Shift -------------------------------------------------------------------------------
    trace.mark()
    screen.click_rect(keys["shift"])
    trace.wait_for(is_event("shift", state="on"), what="shift on after one tap")
    ok("one tap on shift: on")
    # The double tap must not pair with that tap: 0.5 s from when the trace showed it handled
    # (the app times taps when it handles them, so a busy app only makes the gap longer). The
    # double tap's two clicks go 40 ms apart, well inside the 0.25 s rule.
    time.sleep(0.5)
    since = trace.mark()
    screen.click_rect(keys["shift"], repeat=2, delay_ms=40)
    trace.wait_for(is_event("shift", state="capsLock"), what="shift capsLock after a quick double tap")
    trace.collect(0.3)
    states = [e["state"] for e in trace.events[since:] if e["event"] == "shift"]
    if states != ["off", "capsLock"]:
        fail(f"quick double tap from on gave shift states {states}, expected ['off', 'capsLock']")
    ok("quick double tap on shift: off, then capsLock")

    def type_letter(key, expected_char):
        nonlocal text
        trace.mark()
        screen.click_rect(keys[key])
        event = trace.wait_for(is_event("text"), what=f"text after clicking {key}")
        text += expected_char
        if event["text"] != text or event["caret"] != len(text):
            fail(f"clicking {key!r}: text {event['text']!r} caret {event['caret']}, expected {text!r} caret {len(text)}")

    type_letter("a", "A")
    # The next tap on shift is the barrier: the app handles events in order, so a shift change
    # caused by typing "A" would come before the tap's own.
    typed_at = trace.cursor
    screen.click_rect(keys["shift"])
    trace.wait_for(is_event("shift"), what="a shift event after one tap in capsLock")
    shifts = [e for e in trace.events[typed_at:trace.cursor] if e["event"] == "shift"]
    if len(shifts) != 1:
        fail(f"typing in capsLock changed shift: {shifts[:-1]}")
    ok(f"capsLock: the a key types \"A\" (text {text!r}), shift stays capsLock")
    if shifts[0]["state"] != "off":
        fail(f"one tap in capsLock gave {shifts[0]}, expected off")
    ok("one tap on shift in capsLock: off")
    type_letter("a", "a")
    ok(f"off: the a key types \"a\" (text {text!r})")

    # 7. Physical typing ----------------------------------------------------------------------
    trace.mark()
    run(["xdotool", "windowfocus", wid], env=env, check=False)  # matters only under a window manager
    screen.xdo("type", "--delay", "50", "xyz")
    text += "xyz"
    trace.wait_for(lambda e: e["event"] == "text" and e["text"] == text and e["caret"] == len(text),
                   what=f"text {text!r} after typing xyz")
    ok(f"xdotool type xyz: text {text!r}")
    trace.mark()
    screen.xdo("key", "BackSpace")
    text = text[:-1]
    event = trace.wait_for(is_event("text"), what="text after BackSpace")
    if event["text"] != text or event["caret"] != len(text):
        fail(f"BackSpace: text {event['text']!r} caret {event['caret']}, expected {text!r} caret {len(text)}")
    ok(f"BackSpace removes one character: text {text!r}")

    # 8. Resize ------------------------------------------------------------------------------
    trace.mark()
    screen.xdo("windowsize", wid, "600", "900")
    shown = trace.wait_for(lambda e: e["event"] == "keyboard" and e["status"] == "show"
                           and e["frame"]["w"] == 600 and e["frame"]["y"] + e["frame"]["h"] == 900,
                           what="keyboard show with w 600 and y + h 900 after the resize", consume=False)
    layout = trace.wait_for(lambda e: e["event"] == "layout" and e["window"] == {"w": 600, "h": 900},
                            what="layout with window 600×900 after the resize")
    kb = shown["frame"]
    keys = layout["keys"]
    ok(f"resize to 600×900: keyboard frame {kb}, new layout (hee {keys['hee']})")
    trace.collect(0.3)
    later = [e for e in trace.events[trace.cursor:] if e["event"] in ("layout", "keyboard")]
    for e in later:
        if e["event"] == "layout":
            layout, keys = e, e["keys"]
    if layout["window"] != {"w": 600, "h": 900}:
        fail(f"after the resize the latest layout has window {layout['window']}")

    # 9. Close and reopen the keyboard ---------------------------------------------------------
    trace.mark()
    screen.click_rect(keys["closeKeyboard"])
    trace.wait_for(is_event("audio", status="closed"), what="audio closed after キーボードを閉じる", consume=False)
    hidden = trace.wait_for(is_event("keyboard", status="hide"), what="keyboard hide after the slide", consume=False)
    if hidden["frame"] != {"x": 0, "y": 0, "w": 0, "h": 0}:
        fail(f"keyboard hide frame is {hidden['frame']}, expected all zeros")
    ok(f"キーボードを閉じる: audio closed, keyboard hidden with a zero frame (t {hidden['t']})")
    # A click where the a key was, then one on the text field as the barrier: the app handles
    # them in order, so anything the first one typed comes before the keyboard shows again.
    # (The field click itself may move the caret: a text event with the text unchanged.)
    hidden_at = trace.mark()
    screen.click_rect(keys["a"])
    screen.click_rect(keys["textField"])
    reshown = trace.wait_for(is_event("keyboard", status="show"), what="keyboard show after clicking the text field", consume=False)
    events = trace.events[hidden_at:trace.events.index(reshown)]
    typed = [e for e in events if e["event"] in ("hee", "shift") or (e["event"] == "text" and e["text"] != text)]
    if typed:
        fail(f"clicking where the a key was, with the keyboard hidden, gave {typed}")
    ok("with the keyboard hidden, clicking where the a key was types nothing"
       + (f" (other events: {[e['event'] for e in events]})" if events else ""))
    reopened = trace.wait_for(is_event("audio"), what="audio event after the keyboard shows again", consume=False)
    if reopened.get("status") != "open":
        fail(f"audio after showing the keyboard again: {json.dumps(reopened, ensure_ascii=False)}, expected open")
    if reshown["frame"] != kb:
        fail(f"keyboard shown again with frame {reshown['frame']}, expected {kb}")
    ok(f"clicking the text field: keyboard shown again {reshown['frame']}, audio open again")

    # 10. Quit ---------------------------------------------------------------------------------
    os.kill(app.pid, signal.SIGTERM)
    try:
        status = app.wait(timeout=20)  # a safety net: it exits at once
    except subprocess.TimeoutExpired:
        fail("the app did not exit within 20 s of SIGTERM")
    if status != 0:
        fail(f"the app exited with status {status} after SIGTERM, expected 0")
    ok("SIGTERM: the app exited with status 0")


def main():
    def body(workdir):
        state = {"app": None, "xvfb": None}
        began = time.monotonic()
        try:
            binary = app_binary()
            for tool in ("xdotool", "import", "convert"):
                if shutil.which(tool) is None:
                    raise Prerequisite(f"{tool} not found (apt-get install xdotool imagemagick)")
            # Saved settings (window size, volume) must neither leak in from the user's
            # ~/.config nor be written there: a config directory of our own.
            env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(workdir, "config"))
            env.pop("GDK_SCALE", None)
            if os.environ.get("HEE_E2E_USE_DISPLAY") == "1":
                if not env.get("DISPLAY"):
                    raise Prerequisite("HEE_E2E_USE_DISPLAY=1 but DISPLAY is not set")
            else:
                state["xvfb"], env["DISPLAY"] = start_xvfb()
                ok(f"Xvfb on {env['DISPLAY']}")
            print(f"# binary {binary}, work dir {workdir}", flush=True)
            check_all(binary, workdir, env, state)
            print(f"# all checks passed in {time.monotonic() - began:.1f} s", flush=True)
        except Exception as error:
            # What the app said and did, for the failure report.
            trace = state.get("trace")
            if not isinstance(error, (CheckFailed, Prerequisite)) and trace is not None:
                print(f"last 20 trace lines:\n{trace.tail()}", file=sys.stderr)
            if not isinstance(error, Prerequisite) and state["app"] is not None and state["app"].poll() is not None:
                print(f"app exit status: {state['app'].returncode}", file=sys.stderr)
            stderr_path = os.path.join(workdir, "app-stderr.txt")
            if os.path.exists(stderr_path):
                with open(stderr_path, encoding="utf-8", errors="replace") as f:
                    lines = f.read().splitlines()
                if lines:
                    print("app stderr (last 10 lines):\n" + "\n".join(lines[-10:]), file=sys.stderr)
            raise
        finally:
            kill_group(state["app"])
            kill_group(state["xvfb"])
            trace = state.get("trace")
            if trace is not None:
                trace.thread.join(timeout=2)
                trace.drain()
                with open(os.path.join(workdir, "trace.jsonl"), "w", encoding="utf-8") as f:
                    f.write("\n".join(trace.lines) + "\n")
    return script_main(body, prefix="hee-e2e-")


if __name__ == "__main__":
    sys.exit(main())
