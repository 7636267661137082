#!/usr/bin/env python3
"""End-to-end test of system mode (`HeeApp --system`, issue 9): HeeKeyboard typing into other
applications on a real X desktop.

Its own Xvfb (always: the test changes that display's keymap with setxkbmap, and only the
display it started), Debian's openbox on it (click to focus, its default configuration), and
three real targets: an xterm running `sh -c 'cat > FILE'`, a GTK 3 entry and a Tk entry
(Tests/e2e/targets/, run by Debian's /usr/bin/python3; they write their text to a file when
they end). HeeKeyboard is driven with xdotool clicks only; each target's text is checked
exactly, against what the keys the trace says were sent must make of it there.

Checks: the window's hints (input False, no WM_TAKE_FOCUS, toolbar type, above); launching and
every click leave the target the active window (`xdotool getactivewindow`); へぇ, h, i, shift,
a, space, backspace, return; caps lock; physical Shift and Ctrl held (on the server's own
keyboard device) change nothing; backspace held over a long text until the trace shows 10 word
deletions (repeat, then Ctrl+BackSpace); the keyboard stays on top, can be moved and resized (and reflows); the same
keys under setxkbmap us, de and jp type the same text; 1,000 rapid へぇ presses arrive as
exactly 1,000 「へぇ〜」 in order in the terminal; `xmodmap -pke` and `xkbcomp` identical
before and after; without a window manager the keyboard does not take the focus when it maps
nor when clicked, and with no focused window keys are dropped (and the trace says so); the
one-line Wayland notice on stderr.

Prints `ok - …` per check; exit 1 on the first failure (artifacts kept). A missing tool skips
the test with one line (exit 0) on a developer's machine and fails it (exit 2) under CI
(`CI=true` or `HEE_E2E_REQUIRE=1`), where scripts/install-deps.sh installs them all.

Environment: HEE_APP (binary, default <repo>/.build/release/HeeApp), HEE_E2E_KEEP=1 (keep the
temporary directory), HEE_E2E_SYSTEM_PYTHON (the Python with gi, tkinter and Xlib, default
/usr/bin/python3).
"""

import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Prerequisite, REPO_ROOT, app_binary, ok, fail, kill_group, script_main, start_xvfb  # noqa: E402
from run_e2e import Trace, is_event  # noqa: E402

TARGETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "targets")
PYTHON = os.environ.get("HEE_E2E_SYSTEM_PYTHON", "/usr/bin/python3")
TIMEOUT = 15.0                # a safety net for waits, never what is checked
HEE_TEXT = "へぇ〜"
# Long enough that 16 backspaces and ~11 word deletions never reach its start.
LONG_TEXT = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
             "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu ")


def run(args, env, timeout=10.0, check=True):
    try:
        proc = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"timed out after {timeout} s: {' '.join(args)}")
    if check and proc.returncode != 0:
        fail(f"failed ({proc.returncode}): {' '.join(args)}\n{proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout.decode(errors="replace")


def wait_until(predicate, what, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


# --------------------------------------------------------------------------- models

def gtk_result(text, sends):
    """What a GTK entry makes of `sends` typed at the end of `text`: BackSpace deletes a
    character, Ctrl+BackSpace the word before the caret (back over spaces, then the word)."""
    chars = list(text)
    for s in sends:
        if "text" in s:
            chars += list(s["text"])
        elif s["key"] == "BackSpace":
            chars = chars[:-1]
        elif s["key"] == "ctrl+BackSpace":
            while chars and chars[-1].isspace():
                chars.pop()
            while chars and not chars[-1].isspace():
                chars.pop()
        elif s["key"] != "Return":  # Return activates an entry; its text stays
            fail(f"unexpected send {s}")
    return "".join(chars)


def tk_result(text, sends):
    """A Tk entry: BackSpace and Ctrl+BackSpace each delete one character (Tk's entry has
    no word deletion on Ctrl+BackSpace)."""
    chars = list(text)
    for s in sends:
        if "text" in s:
            chars += list(s["text"])
        elif s["key"] in ("BackSpace", "ctrl+BackSpace"):
            chars = chars[:-1]
        elif s["key"] != "Return":
            fail(f"unexpected send {s}")
    return "".join(chars)


def terminal_result(sends):
    """What `cat` reads from xterm's terminal in canonical mode: BackSpace is the erase
    character (deletes one character of the line), Ctrl+BackSpace is ^H (kept: `stty erase`
    is ^?), Return ends the line."""
    done, line = "", []
    for s in sends:
        if "text" in s:
            line += list(s["text"])
        elif s["key"] == "BackSpace":
            line = line[:-1]
        elif s["key"] == "ctrl+BackSpace":
            line.append("\b")
        elif s["key"] == "Return":
            done += "".join(line) + "\n"
            line = []
        else:
            fail(f"unexpected send {s}")
    return done


# --------------------------------------------------------------------------- desktop

class Desktop:
    """Our Xvfb with openbox, the targets, and the X tools, all in process groups we own."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.procs = []
        self.keyboards = []
        self.xvfb, self.display = start_xvfb()
        self.env = dict(os.environ, DISPLAY=self.display, XDG_CONFIG_HOME=os.path.join(workdir, "config"),
                        XDG_CACHE_HOME=os.path.join(workdir, "cache"), LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.env.pop("WAYLAND_DISPLAY", None)
        self.env.pop("SDL_VIDEODRIVER", None)
        self.openbox = None

    def spawn(self, args, name, env=None):
        log = open(os.path.join(self.workdir, f"{name}.log"), "wb")
        proc = subprocess.Popen(args, env=env or self.env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True, cwd=self.workdir)
        log.close()
        self.procs.append(proc)
        return proc

    def start_openbox(self):
        self.openbox = self.spawn(["openbox"], "openbox")
        wait_until(lambda: "_NET_SUPPORTING_WM_CHECK(WINDOW)" in self.xprop_root("_NET_SUPPORTING_WM_CHECK"),
                   "openbox to manage the screen")

    def stop_openbox(self):
        kill_group(self.openbox)
        wait_until(lambda: "_NET_SUPPORTING_WM_CHECK(WINDOW)" not in self.xprop_root("_NET_SUPPORTING_WM_CHECK")
                   or self.openbox.poll() is not None, "openbox to quit")
        run(["xprop", "-root", "-remove", "_NET_SUPPORTING_WM_CHECK"], self.env, check=False)
        run(["xprop", "-root", "-remove", "_NET_ACTIVE_WINDOW"], self.env, check=False)

    def xprop_root(self, name):
        return run(["xprop", "-root", name], self.env, check=False)

    def xdo(self, *args, check=True):
        return run(["xdotool", *args], self.env, check=check).strip()

    def window_named(self, title):
        return wait_until(lambda: (self.xdo("search", "--onlyvisible", "--name", f"^{title}$", check=False).split() or [None])[0],
                          f"a window named {title!r}")

    def active(self):
        return int(self.xdo("getactivewindow", check=False) or 0)

    def focused(self):
        return int(self.xdo("getwindowfocus", "-f", check=False) or 0)

    def click_into(self, window, x=40, y=20):
        self.xdo("mousemove", "--window", str(window), str(x), str(y), "click", "1")

    def keymap(self):
        """`xmodmap -pke` and the full XKB keymap (`xkbcomp`)."""
        return (run(["xmodmap", "-pke"], self.env), run(["xkbcomp", "-xkb", self.display, "-"], self.env))

    def physical(self, direction, *keys):
        run([PYTHON, os.path.join(TARGETS, "physical_key.py"), direction, *keys], self.env)

    def close(self):
        for proc in reversed(self.procs):
            kill_group(proc)
        kill_group(self.xvfb)
        for kb in self.keyboards:
            kb.save_trace()


class Keyboard:
    """A running `HeeApp --system --no-auto-show --trace` (and `args`, which may say
    `--auto-show`; without `--system` when `system` is false: the host screen) and its keys."""

    def __init__(self, desktop, binary, name, extra_env=None, args=(), system=True):
        self.desktop = desktop
        env = dict(desktop.env, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=os.path.join(desktop.workdir, f"{name}.raw"))
        env.update(extra_env or {})
        self.stderr_path = os.path.join(desktop.workdir, f"{name}-stderr.txt")
        stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen([binary, *(["--system", "--no-auto-show"] if system else []), "--trace", *args], env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=stderr, start_new_session=True,
                                     cwd=desktop.workdir)
        stderr.close()
        desktop.procs.append(self.proc)
        desktop.keyboards.append(self)
        self.trace = Trace(self.proc.stdout)
        self.name = name
        self.layout = self.trace.wait_for(is_event("layout"), "the first layout", 20, consume=False)
        self.window = int(wait_until(lambda: self._own_window(), "the keyboard's window"))

    def _own_window(self):
        found = self.desktop.xdo("search", "--all", "--onlyvisible", "--pid", str(self.proc.pid), "--name", ".", check=False).split()
        return found[-1] if found else None

    def key_center(self, key):
        r = self.layout["keys"][key]
        return round(r["x"] + r["w"] / 2), round(r["y"] + r["h"] / 2)

    def click(self, key, target=None):
        """Clicks `key`; waits until the app handled the release; returns the sends it made.
        With `target`, checks the target is still the active window afterwards."""
        since = self.trace.mark()
        x, y = self.key_center(key)
        self.desktop.xdo("mousemove", "--window", str(self.window), str(x), str(y), "click", "1")
        self.trace.wait_for(is_event("touch", key=key, down=False), what=f"{key} released", since=since)
        if target is not None:
            active = self.desktop.active()
            if active != target:
                fail(f"after clicking {key}: the active window is {active}, not the target {target}")
        return self.sends(since)

    def sends(self, since):
        self.trace.drain()
        return [e for e in self.trace.events[since:] if e["event"] == "send"]

    def hold(self, key, until):
        """Holds `key` down until `until(sends so far)` holds (the trace shows it), then lets
        go: the hold is measured in what the app did, not in seconds (a busy app handles the
        press late, and a fixed hold would be shorter in its time)."""
        since = self.trace.mark()
        x, y = self.key_center(key)
        self.desktop.xdo("mousemove", "--window", str(self.window), str(x), str(y), "mousedown", "1")
        try:
            wait_until(lambda: until(self.sends(since)), f"{key} held until the trace shows enough")
        finally:
            self.desktop.xdo("mouseup", "1")
        self.trace.wait_for(is_event("touch", key=key, down=False), what=f"{key} released", since=since)
        return self.sends(since)

    def wait_target(self, window, title=None):
        def seen():
            self.trace.drain()
            targets = [e for e in self.trace.events if e["event"] == "target"]
            return targets and targets[-1]["window"] == window and (title is None or targets[-1]["title"] == title)
        wait_until(seen, f"the trace to report target {window} {title or ''}")

    def relayout(self, since):
        self.layout = self.trace.wait_for(is_event("layout"), "a new layout", TIMEOUT, since=since)

    def quit(self):
        os.killpg(self.proc.pid, 15)
        try:
            status = self.proc.wait(timeout=20)  # a safety net: it exits at once
        except subprocess.TimeoutExpired:
            fail(f"{self.name}: no exit within 20 s of SIGTERM")
        if status != 0:
            fail(f"{self.name}: exit status {status} after SIGTERM")
        self.save_trace()

    def save_trace(self):
        self.trace.thread.join(timeout=2)
        self.trace.drain()
        with open(os.path.join(self.desktop.workdir, f"{self.name}-trace.jsonl"), "w", encoding="utf-8") as f:
            f.write("\n".join(self.trace.lines) + "\n")

    def stderr(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read()


def xterm(desktop, name):
    out = os.path.join(desktop.workdir, f"{name}.txt")
    desktop.spawn(["xterm", "-u8", "-T", name, "-geometry", "60x8+20+20", "-e", "sh", "-c", f"cat > {out}"], name)
    return int(desktop.window_named(name)), out


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


# --------------------------------------------------------------------------- phases

def check_hints(desktop, kb):
    props = run(["xprop", "-id", str(kb.window), "WM_HINTS", "WM_PROTOCOLS", "_NET_WM_WINDOW_TYPE", "_NET_WM_STATE",
                 "_NET_WM_ALLOWED_ACTIONS"], desktop.env)
    for needed in ("Client accepts input or input focus: False", "_NET_WM_WINDOW_TYPE_TOOLBAR", "_NET_WM_STATE_ABOVE",
                   "WM_DELETE_WINDOW", "_NET_WM_ACTION_MOVE", "_NET_WM_ACTION_RESIZE"):
        if needed not in props:
            fail(f"the keyboard's window lacks {needed}:\n{props}")
    if "WM_TAKE_FOCUS" in props:
        fail(f"the keyboard's window offers WM_TAKE_FOCUS:\n{props}")
    ok("window: input hint False, no WM_TAKE_FOCUS, _NET_WM_WINDOW_TYPE_TOOLBAR, _NET_WM_STATE_ABOVE; "
       "openbox allows move and resize")


def basic_sequence(kb, target):
    """へぇ, h, i, shift, a, space, backspace, return; caps lock; physical Shift and Ctrl."""
    sends = []
    for key in ["hee", "h", "i", "shift", "a", "space", "backspace", "return"]:
        sends += kb.click(key, target)
    expected = [{"text": HEE_TEXT}, {"text": "h"}, {"text": "i"}, {"text": "A"}, {"text": " "},
                {"key": "BackSpace"}, {"key": "Return"}]
    got = [{k: v for k, v in s.items() if k in ("text", "key", "dropped")} for s in sends]
    if got != expected:
        fail(f"sends {got}, expected {expected}")
    # Caps lock: a double tap (40 ms apart, well inside the 0.25 s rule however late a busy app
    # handles both), two capitals, a tap back to lower case.
    since = kb.trace.mark()
    x, y = kb.key_center("shift")
    kb.desktop.xdo("mousemove", "--window", str(kb.window), str(x), str(y), "click", "--repeat", "2", "--delay", "40", "1")
    kb.trace.wait_for(is_event("shift", state="capsLock"), what="caps lock", since=since)
    if kb.desktop.active() != target:
        fail("the double tap on shift took the active window")
    caps = kb.click("b", target) + kb.click("c", target) + kb.click("shift", target) + kb.click("d", target)
    sends += caps
    if [s.get("text") for s in caps] != ["B", "C", "d"]:
        fail(f"caps lock typed {caps}, expected B, C, then d")
    # Physical Shift, then Ctrl, held on the server's own keyboard while clicking.
    for modifier, letter in (("Shift_L", "e"), ("Control_L", "f")):
        kb.desktop.physical("down", modifier)
        try:
            held = kb.click("hee", target) + kb.click(letter, target)
        finally:
            kb.desktop.physical("up", modifier)
        if [s.get("text") for s in held] != [HEE_TEXT, letter]:
            fail(f"with {modifier} held: sends {held}")
        sends += held
    return sends


WORD_DELETIONS = 10  # backspace is held until the trace shows this many Ctrl+BackSpace


def hold_backspace(kb):
    """Backspace held (about 3 s) until the trace shows WORD_DELETIONS word deletions. The app
    times the repeat by its own clock, so the 16 character deletions before the words (down,
    then every 0.1 s from 0.5 s to 2 s) are exact however busy the machine; a few more words
    may go before the release is handled."""
    sends = kb.hold("backspace", lambda sent: sum(1 for s in sent if s.get("key") == "ctrl+BackSpace") >= WORD_DELETIONS)
    plain = sum(1 for s in sends if s.get("key") == "BackSpace")
    words = sum(1 for s in sends if s.get("key") == "ctrl+BackSpace")
    keys = [s.get("key") for s in sends]
    if plain != 16 or words < WORD_DELETIONS or keys != ["BackSpace"] * plain + ["ctrl+BackSpace"] * words:
        fail(f"backspace held sent {plain} BackSpace then {words} ctrl+BackSpace ({keys}); expected 16 "
             f"(down, then every 0.1 s from 0.5 s), then Ctrl+BackSpace (words, from 2 s)")
    return sends, words


def check_entry(desktop, kb, binary_name, script, model, label):
    out = os.path.join(desktop.workdir, f"{binary_name}.txt")
    proc = desktop.spawn([PYTHON, os.path.join(TARGETS, script), out, label, LONG_TEXT], binary_name)
    window = int(desktop.window_named(label))
    # The title bar: focuses the window without moving the entry's caret.
    desktop.click_into(window, 60, -8)
    wait_until(lambda: desktop.active() == window, f"{label} to be the active window")
    kb.wait_target(window, label)
    ok(f"{label}: clicked its title bar; active window and trace target {window}")
    # Backspace held over the long text first (plain words: no script boundaries to argue
    # about), then the sequence.
    sends, words = hold_backspace(kb)
    if desktop.active() != window:
        fail(f"{label}: holding backspace took the active window")
    sends += basic_sequence(kb, window)
    os.killpg(proc.pid, 15)
    text = wait_until(lambda: proc.poll() is not None and read(out), f"{label} to write {out}")
    expected = model(LONG_TEXT, sends)
    if text != expected:
        fail(f"{label} holds {text!r}, expected {expected!r}")
    ok(f"{label}: text exact after backspace held over a long text (16 characters, {words} Ctrl+BackSpace), "
       f"へぇ h i shift a space backspace return, caps lock, physical Shift/Ctrl: …{text[-34:]!r}")
    return sends


def stacking_order(desktop):
    stacking = desktop.xprop_root("_NET_CLIENT_LIST_STACKING")
    return [int(w, 16) for w in stacking.split("#", 1)[-1].replace(",", " ").split()] if "#" in stacking else []


def check_stacking(desktop, kb):
    ids = stacking_order(desktop)
    if not ids or ids[-1] != kb.window:
        fail(f"the keyboard {kb.window} is not on top of the stacking order {ids}")


def main():
    def body(workdir):
        binary = app_binary()
        for tool in ("Xvfb", "xdotool", "openbox", "xterm", "setxkbmap", "xmodmap", "xkbcomp", "xprop", PYTHON):
            if shutil.which(tool) is None:
                raise Prerequisite(f"system-mode end-to-end test: {tool} not found (scripts/install-deps.sh installs it)")
        probe = subprocess.run([PYTHON, "-c", "import gi, tkinter, Xlib; gi.require_version('Gtk', '3.0')"],
                               capture_output=True)
        if probe.returncode != 0:
            raise Prerequisite(f"system-mode end-to-end test: {PYTHON} lacks gi (GTK 3), tkinter or Xlib "
                               "(python3-gi, gir1.2-gtk-3.0, python3-tk, python3-xlib)")
        desktop = None
        try:
            desktop = Desktop(workdir)
            run_checks(desktop, binary)
            print("# all system-mode checks passed", flush=True)
        finally:
            if desktop is not None:
                desktop.close()
    return script_main(body, prefix="hee-system-e2e-", skip_missing=True)

def check_desktop_action():
    with open(os.path.join(REPO_ROOT, "data", "hee-keyboard.desktop"), encoding="utf-8") as f:
        entry = f.read()
    action = entry.split("[Desktop Action system]", 1)[-1] if "[Desktop Action system]" in entry else ""
    if "Actions=system;" not in entry or "\nExec=hee-keyboard --system\n" not in action \
            or "Name=Keyboard for other apps" not in action or "Name[ja]=ほかのアプリに入力" not in action:
        fail("data/hee-keyboard.desktop lacks the action 'system' (Exec=hee-keyboard --system, names en/ja)")
    ok("desktop entry: action \"Keyboard for other apps\" / 「ほかのアプリに入力」 runs hee-keyboard --system")


def run_checks(desktop, binary):
    started = time.monotonic()
    check_desktop_action()
    desktop.start_openbox()
    ok(f"Xvfb {desktop.display} with openbox (click to focus)")
    run(["setxkbmap", "us"], desktop.env)
    keymap_before = desktop.keymap()

    # The terminal first: click into it, then start the keyboard — which must not take it.
    term, term_out = xterm(desktop, "hee-term")
    desktop.click_into(term)
    wait_until(lambda: desktop.active() == term, "the terminal to be active")
    kb = Keyboard(desktop, binary, "keyboard")
    kb.wait_target(term, "hee-term")
    # openbox decides the focus when it manages a window: once the keyboard is in its client
    # list, that decision has been made (no fixed wait).
    wait_until(lambda: kb.window in stacking_order(desktop), "openbox to manage the keyboard's window")
    if desktop.active() != term:
        fail(f"starting the keyboard made {desktop.active()} active instead of the terminal {term}")
    ok(f"keyboard {kb.window} mapped; the terminal {term} stays active; trace target {term} \"hee-term\"")
    check_hints(desktop, kb)
    check_stacking(desktop, kb)

    # Terminal: the sequence, then backspace held over a long line.
    sends = basic_sequence(kb, term)
    line = []
    for letter in "alpha bravo charlie delta":
        line += kb.click("space" if letter == " " else letter, term)
    held, words = hold_backspace(kb)
    sends += line + held + kb.click("return", term)
    expected = text = terminal_result(sends)
    deadline = time.monotonic() + TIMEOUT
    while read(term_out) != expected and time.monotonic() < deadline:
        time.sleep(0.05)
    if read(term_out) != expected:
        fail(f"terminal wrote {read(term_out)!r}, expected {expected!r}")
    ok(f"terminal: exact text after the sequence, caps lock, physical Shift/Ctrl, and backspace held "
       f"(16 erased, {words} Ctrl+BackSpace = ^H): {text!r}")
    if not any(e["event"] == "sound" for e in kb.trace.events):
        fail("no sound event for the へぇ presses")
    check_stacking(desktop, kb)
    ok("keyboard still on top of the stacking order after the terminal took clicks")

    check_entry(desktop, kb, "gtk", "gtk_entry.py", gtk_result, "GTK entry")
    check_stacking(desktop, kb)
    check_entry(desktop, kb, "tk", "tk_entry.py", tk_result, "Tk entry")
    check_stacking(desktop, kb)
    ok("keyboard stays on top of the GTK and Tk windows it typed into")

    # Move and resize like any window: it reflows; keys still type.
    since = kb.trace.mark()
    desktop.xdo("windowmove", str(kb.window), "300", "200")
    desktop.xdo("windowsize", str(kb.window), "640", "480")
    kb.relayout(since)
    if kb.layout["window"] != {"w": 640, "h": 480}:
        fail(f"after a resize to 640×480 the layout is for {kb.layout['window']}")
    right, space = kb.layout["keys"]["return"], kb.layout["keys"]["space"]
    if abs(right["x"] + right["w"] - (640 - 3)) > 0.01 or not 470 <= space["y"] + space["h"] <= 474:
        fail(f"the keyboard did not reflow to fill 640×480: return {right}, space {space}")
    geometry = run(["xwininfo", "-id", str(kb.window)], desktop.env)
    if "Width: 640" not in geometry or "Height: 480" not in geometry:
        fail(f"the window manager did not resize the keyboard:\n{geometry}")
    ok("moved and resized to 640×480 through the window manager; the layout reflowed")

    # The same keys under us, de and jp.
    desktop.click_into(term)
    wait_until(lambda: desktop.active() == term, "the terminal to be active again")
    kb.wait_target(term)
    start = read(term_out)
    lines = []
    for layout in ("us", "de", "jp"):
        run(["setxkbmap", layout], desktop.env)
        before = desktop.keymap()
        seq = []
        for key in ["hee", "h", "i", "shift", "a", "z", "y", "space", "backspace", "return"]:
            seq += kb.click(key, term)
        lines.append(terminal_result(seq))
        # Borrowed keycodes go back 2 s after the pointer left the keyboard (by the app's clock:
        # waited for, a busy app gives them back late).
        desktop.xdo("mousemove", "2", "2")
        wait_until(lambda: desktop.keymap() == before,
                   f"{layout}: the keymap as before the keys (xmodmap -pke / xkbcomp) once the pointer left")
    expected = start + "".join(lines)
    wait_until(lambda: read(term_out) == expected, f"the terminal to hold {expected!r}")
    if set(lines) != {HEE_TEXT + "hiAzy\n"}:
        fail(f"the layouts typed {lines}")
    ok(f"setxkbmap us, de, jp: each typed {lines[0]!r}; xmodmap -pke and xkbcomp unchanged after each")
    run(["setxkbmap", "us"], desktop.env)

    # 1,000 rapid へぇ presses into a fresh terminal, 250 per line.
    burst, burst_out = xterm(desktop, "hee-burst")
    desktop.click_into(burst)
    wait_until(lambda: desktop.active() == burst, "the burst terminal to be active")
    kb.wait_target(burst, "hee-burst")
    since = kb.trace.mark()
    x, y = kb.key_center("hee")
    # The pointer reaches the key before the first press, as a mouse user's does (the
    # keyboard readies 「へぇ〜」's keys when the pointer comes onto it; the app handles the
    # motion before the clicks in any case, so the pause is not what makes the text right).
    desktop.xdo("mousemove", "--window", str(kb.window), str(x), str(y))
    time.sleep(0.3)
    for _ in range(4):
        desktop.xdo("mousemove", "--window", str(kb.window), str(x), str(y), "click", "--repeat", "250", "--delay", "20", "1")
        kb.click("return", burst)
    presses = [e for e in kb.sends(since) if e.get("text") == HEE_TEXT]
    dropped = [e for e in kb.sends(since) if "dropped" in e]
    if len(presses) != 1000 or dropped:
        fail(f"1,000 clicks made {len(presses)} sends of {HEE_TEXT} ({len(dropped)} dropped)")
    expected = (HEE_TEXT * 250 + "\n") * 4
    wait_until(lambda: read(burst_out) == expected, "1,000 「へぇ〜」 in the terminal", 20)
    if desktop.active() != burst:
        fail("the burst took the active window")
    ok("1,000 rapid へぇ presses: exactly 1,000 「へぇ〜」 in order in the terminal (4 lines of 250)")

    desktop.xdo("mousemove", "2", "2")
    wait_until(lambda: desktop.keymap() == keymap_before,
               "the keymap as before the keyboard ran, once the pointer left it (xmodmap -pke / xkbcomp)")
    kb.quit()
    if desktop.keymap() != keymap_before:
        fail("the keymap differs after the keyboard quit")
    counts = [e["count"] for e in kb.trace.events if e["event"] == "hee"]
    ok(f"keymap identical before and after (xmodmap -pke and xkbcomp); {counts[-1]} へぇ counted; exit 0 on SIGTERM")

    # Without a window manager: mapping and clicks leave the focus alone.
    desktop.stop_openbox()
    plain, plain_out = xterm(desktop, "hee-plain")
    desktop.xdo("windowfocus", "--sync", str(plain))
    kb = Keyboard(desktop, binary, "keyboard-nowm")
    kb.wait_target(plain, "hee-plain")
    time.sleep(0.5)
    if desktop.focused() != plain:
        fail(f"without a window manager, mapping the keyboard moved the focus to {desktop.focused()}")
    sends = []
    for key in ["hee", "a", "return"]:
        sends += kb.click(key)
        if desktop.focused() != plain:
            fail(f"without a window manager, clicking {key} moved the focus to {desktop.focused()}")
    wait_until(lambda: read(plain_out) == HEE_TEXT + "a\n", "the text without a window manager")
    ok("no window manager: the focus stays on the terminal when the keyboard maps and on every click; text exact")
    run([PYTHON, "-c", "from Xlib import display, X; d = display.Display(); d.set_input_focus(X.NONE, X.RevertToNone, X.CurrentTime); d.sync()"],
        desktop.env)
    kb.wait_target(None)
    sends = kb.click("hee") + kb.click("b")
    if [s.get("dropped") for s in sends] != ["no window has focus"] * 2:
        fail(f"with no focused window the sends were {sends}")
    kb.quit()
    if read(plain_out) != HEE_TEXT + "a\n":
        fail(f"keys reached the terminal with no window focused: {read(plain_out)!r}")
    ok("no focused window: trace target null, presses traced as dropped (\"no window has focus\"), nothing typed")

    # Wayland: one line on stderr, whether SDL is on XWayland or not on X11 at all.
    kb = Keyboard(desktop, binary, "keyboard-xwayland", {"WAYLAND_DISPLAY": "wayland-hee-test"})
    kb.quit()
    lines = [line for line in kb.stderr().splitlines() if "Wayland" in line]
    if len(lines) != 1 or "XWayland" not in lines[0] or "zwlr_layer_shell_v1" not in lines[0] \
            or "zwp_virtual_keyboard_manager_v1" not in lines[0]:
        fail(f"on a Wayland desktop stderr says {kb.stderr()!r}")
    ok(f"Wayland desktop (XWayland): one line on stderr: {lines[0]}")
    env = dict(desktop.env, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy")
    proc = subprocess.Popen([binary, "--system", "--no-auto-show", "--trace"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    trace = Trace(proc.stdout)
    trace.wait_for(is_event("layout"), "the offscreen layout", 20)
    os.killpg(proc.pid, 15)
    err = proc.stderr.read().decode(errors="replace").strip().splitlines()
    if proc.wait(timeout=20) != 0 or len(err) != 1 or "'offscreen'" not in err[0] or "keys are not sent" not in err[0]:
        fail(f"without X11 (offscreen driver): status {proc.returncode}, stderr {err}")
    ok(f"without X11: one line on stderr, X11 parts skipped: {err[0]}")
    ok(f"system mode end-to-end: {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
