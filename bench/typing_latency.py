"""press→KeyPress at the target: how long an on-screen keyboard takes to type into another
application, in X server time (issue 9's benchmark; used by `make bench` and
`make bench-peers`).

Setup: our own Xvfb without a window manager (so no window manager's click handling is
measured), a target window of our own that has the keyboard focus, and the keyboard under
test beside it. A driver clicks the keyboard's key through XTEST (a real click: motion, then
button press and release); the X server's RECORD extension reports every device event with
its server timestamp (ms): the click's ButtonPress / ButtonRelease and the KeyPress events the
keyboard then sends. A figure is the time from the click's press (or release, for keys that
type on release) to the first KeyPress, and for 「へぇ〜」 to the KeyPress of its last
character, when the whole text is there. The target checks every keystroke it receives
(keysyms, order), so a wrong or missing character fails the run.

The server's timestamps count whole milliseconds, so these figures are quantised to 1 ms (a
reading of 1 ms is anything from just above 0 to just under 2 ms). The target also notes when
each KeyPress reaches it on the machine's monotonic clock, against the driver's clock when it
sent the click: the "client clock" figures, in µs resolution, include the RECORD-free path
through two X clients written in Python (an upper bound).
Needs python-xlib.
"""
import os
import select
import struct
import subprocess
import threading
import time

from Xlib import X, XK, display
from Xlib.ext import record, xtest

KEY_PRESS, KEY_RELEASE, BUTTON_PRESS, BUTTON_RELEASE = 2, 3, 4, 5


class Recorder:
    """Device events with their X server times, from RECORD, on a thread of its own."""

    def __init__(self, name):
        self.events = []  # (type, detail, server ms)
        self.control = display.Display(name)
        self.data = display.Display(name)
        self.context = self.control.record_create_context(0, [record.AllClients], [{
            "core_requests": (0, 0), "core_replies": (0, 0), "ext_requests": (0, 0, 0, 0),
            "ext_replies": (0, 0, 0, 0), "delivered_events": (0, 0),
            "device_events": (KEY_PRESS, BUTTON_RELEASE), "errors": (0, 0),
            "client_started": False, "client_died": False}])
        self.control.sync()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        time.sleep(0.2)  # recording has started

    def _run(self):
        def take(reply):
            if reply.category != record.FromServer or reply.client_swapped:
                return
            data = reply.data
            for i in range(0, len(data) - 31, 32):
                kind, detail = data[i] & 0x7F, data[i + 1]
                (stamp,) = struct.unpack_from("=I", data, i + 4)
                self.events.append((kind, detail, stamp))
        self.data.record_enable_context(self.context, take)

    def close(self):
        self.control.record_disable_context(self.context)
        self.control.flush()
        self.thread.join(timeout=5)
        self.control.record_free_context(self.context)
        self.control.close()


class Target:
    """A window of ours with the keyboard focus: the application typed into."""

    def __init__(self, name):
        self.d = display.Display(name)
        screen = self.d.screen()
        self.window = screen.root.create_window(900, 40, 300, 120, 0, screen.root_depth,
                                                event_mask=X.KeyPressMask | X.FocusChangeMask)
        self.window.set_wm_name("typing-latency target")
        self.window.map()
        self.d.sync()
        time.sleep(0.2)
        self.window.set_input_focus(X.RevertToParent, X.CurrentTime)
        self.d.sync()
        self.keys = []  # (keysym, monotonic s)
        self.lock = threading.Condition()
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop:
            if not self.d.pending_events():
                select.select([self.d.fileno()], [], [], 0.05)
                if not self.d.pending_events():
                    continue
            event = self.d.next_event()
            if event.type == X.MappingNotify:
                self.d.refresh_keyboard_mapping(event)
            elif event.type == X.KeyPress:
                now = time.monotonic()
                # Level 1 or 2: Shift gives the capital (none of our keys needs more).
                keysym = self.d.keycode_to_keysym(event.detail, 1 if event.state & X.ShiftMask else 0)
                if 0xFFE1 <= keysym <= 0xFFEE:
                    continue  # a modifier the keyboard holds for a key
                with self.lock:
                    self.keys.append((keysym, now))
                    self.lock.notify_all()

    def wait(self, count, timeout=2.0):
        """Waits until `count` keys have arrived in all; returns them."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while len(self.keys) < count and time.monotonic() < deadline:
                self.lock.wait(deadline - time.monotonic())
            return list(self.keys)

    def close(self):
        self.stop = True
        self.thread.join(timeout=2)
        self.d.close()


def keysyms_of(text):
    return [XK.string_to_keysym(c) if c.isascii() and c.isalpha() else 0x1000000 + ord(c) for c in text]


def run_presses(name, point, presses, text, on_release, interval=0.05):
    """Clicks `point` (root coordinates) `presses` times; each click must type `text`.

    Returns per-press dicts: server ms from the click's press (or release) to the first and the
    last KeyPress, and the client-clock ms to the last key's arrival."""
    driver = display.Display(name)
    target = Target(name)
    recorder = Recorder(name)
    expected = keysyms_of(text)
    sent = []  # monotonic time of the measured button event
    try:
        xtest.fake_input(driver, X.MotionNotify, x=point[0], y=point[1])
        driver.sync()
        time.sleep(0.5)  # the pointer reaches the keyboard before the first click
        have = 0
        for i in range(presses):
            if on_release:
                xtest.fake_input(driver, X.ButtonPress, 1)
                driver.sync()
                time.sleep(0.02)
            sent.append(time.monotonic())
            xtest.fake_input(driver, X.ButtonRelease if on_release else X.ButtonPress, 1)
            driver.sync()
            keys = target.wait(have + len(expected))
            got = [k for k, _ in keys[have:have + len(expected)]]
            if got != expected:
                raise RuntimeError("press %d typed %s, expected %s" % (i + 1, [hex(k) for k in got], [hex(k) for k in expected]))
            have += len(expected)
            if not on_release:
                time.sleep(0.02)
                xtest.fake_input(driver, X.ButtonRelease, 1)
                driver.sync()
            time.sleep(interval)
        time.sleep(0.2)
    finally:
        recorder.close()
        target.close()
        driver.close()
    arrivals = [t for _, t in target.keys]
    # Pair each measured button event with the key presses that follow it.
    measured = BUTTON_RELEASE if on_release else BUTTON_PRESS
    results, current = [], None
    for kind, _, stamp in recorder.events:
        if kind == measured:
            current = {"at": stamp, "keys": []}
            results.append(current)
        elif kind == KEY_PRESS and current is not None:
            current["keys"].append(stamp)
    if len(results) != presses:
        raise RuntimeError("RECORD saw %d clicks for %d presses" % (len(results), presses))
    out = []
    for i, r in enumerate(results):
        # The keyboard's own key presses (a Shift for a capital) may come first: the text's
        # keys are the last len(expected) of them... but a modifier release is no KeyPress,
        # so the first and the last KeyPress after the click bound the text.
        if not r["keys"]:
            raise RuntimeError("no KeyPress after click %d" % (i + 1))
        last_arrival = arrivals[(i + 1) * len(expected) - 1]
        out.append({"first": r["keys"][0] - r["at"], "last": r["keys"][-1] - r["at"],
                    "client": (last_arrival - sent[i]) * 1000})
    return out


def window_of(pid, name, timeout=20, search=None):
    """The id of the visible top-level window of process `pid` (by `_NET_WM_PID`), or the
    first that `xdotool search` finds with the `search` arguments (for programs that do not
    set `_NET_WM_PID`)."""
    env = dict(os.environ, DISPLAY=name)
    deadline = time.monotonic() + timeout
    query = search or ["--all", "--pid", str(pid), "--name", "."]
    while time.monotonic() < deadline:
        out = subprocess.run(["xdotool", "search", "--onlyvisible", *query],
                             capture_output=True, text=True, env=env).stdout.split()
        if out:
            return int(out[-1])
        time.sleep(0.1)
    raise RuntimeError("no window for process %d" % pid)


def geometry(window, name):
    env = dict(os.environ, DISPLAY=name)
    info = subprocess.run(["xwininfo", "-id", str(window)], capture_output=True, text=True, env=env).stdout
    value = lambda label: int(next(l.split(":")[1] for l in info.splitlines() if l.strip().startswith(label)))
    return value("Absolute upper-left X"), value("Absolute upper-left Y"), value("Width"), value("Height")


def _stats(values):
    v = sorted(values)
    p99 = v[min(len(v) - 1, int(round((len(v) - 1) * 0.99)))]
    return {"min": v[0], "median": v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2,
            "p99": p99, "max": v[-1], "n": len(v)}


def figures(label, samples, last=True):
    """Table rows for one measured key: server ms (first / last KeyPress) and client clock."""
    rows = {"%s, server ms" % label: _stats([s["last" if last else "first"] for s in samples]),
            "%s, client clock ms" % label: _stats([s["client"] for s in samples])}
    return rows


def heekeyboard(app, disp, presses, env):
    """HeeKeyboard --system: a letter (types on release) and へぇ (types on press)."""
    import json
    proc = subprocess.Popen([app, "--system", "--no-auto-show", "--trace"], env=dict(env, DISPLAY=disp.name, SDL_AUDIODRIVER="dummy"),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        layout = None
        for line in proc.stdout:
            if b'"event":"layout"' in line:
                layout = json.loads(line)
                break
        if layout is None:
            raise RuntimeError("HeeKeyboard printed no layout")
        x0, y0, _, _ = geometry(window_of(proc.pid, disp.name), disp.name)
        threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
        def center(key):
            r = layout["keys"][key]
            return int(x0 + r["x"] + r["w"] / 2), int(y0 + r["y"] + r["h"] / 2)
        letter = run_presses(disp.name, center("a"), presses, "a", on_release=True)
        hee = run_presses(disp.name, center("hee"), presses, "へぇ〜", on_release=False)
    finally:
        proc.terminate()
        proc.wait(timeout=5)
    rows = figures("HeeKeyboard a: release→KeyPress", letter)
    rows.update(figures("HeeKeyboard へぇ: press→last KeyPress of 「へぇ〜」", hee))
    rows["HeeKeyboard へぇ: press→first KeyPress, server ms"] = _stats([s["first"] for s in hee])
    return rows


# Where the "a" key is in each peer's window (fractions of its size), for Debian 12's
# versions: xvkbd 4.1's default keyboard at its own size, matchbox-keyboard 0.2's default
# layout resized to 800x240 (without a window manager it opens at its minimum, 160x48).
PEERS = {
    "xvkbd": {"cmd": ["xvkbd"], "a": (0.125, 0.578), "size": None, "search": ["--class", "xvkbd"]},
    "matchbox-keyboard": {"cmd": ["matchbox-keyboard"], "a": (0.0875, 0.5), "size": (800, 240),
                          "search": ["--name", "^Keyboard$"]},
}


def peer(name, disp, presses, env):
    """A peer keyboard typing "a": both send on release, so measured from the release."""
    spec = PEERS[name]
    proc = subprocess.Popen(spec["cmd"], env=dict(env, DISPLAY=disp.name), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        window = window_of(proc.pid, disp.name, search=spec["search"])
        if spec["size"]:
            subprocess.run(["xdotool", "windowsize", str(window), str(spec["size"][0]), str(spec["size"][1])],
                           env=dict(env, DISPLAY=disp.name), check=True)
            time.sleep(0.5)
        x0, y0, w, h = geometry(window, disp.name)
        point = (int(x0 + spec["a"][0] * w), int(y0 + spec["a"][1] * h))
        letter = run_presses(disp.name, point, presses, "a", on_release=True)
    finally:
        proc.terminate()
        proc.wait(timeout=5)
    return figures("%s a: release→KeyPress" % name, letter)
