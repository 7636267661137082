#!/usr/bin/env python3
"""End-to-end tests of system mode on Wayland (issue 23): `HeeApp --system` in sway's
headless backend (run as the unprivileged user `hee-wayland`, XWayland enabled), docked as a
layer surface, typing into native Wayland applications and, through the virtual keyboard,
into XWayland ones.

Targets: `foot` running `sh -c 'stty -icanon min 1 time 0; exec cat > FILE'` (text-input-v3
with content purpose terminal: the virtual keyboard), a GTK 3 entry with GDK_BACKEND=wayland
(Tests/e2e/targets/gtk_entry.py --live, Debian's python3-gi: the input method for text, the
virtual keyboard for BackSpace), and xterm
through XWayland (no text input: the virtual keyboard for everything). The keyboard is driven
with clicks of our own virtual pointer (`swaymsg seat seat0 cursor ...`) on the keys the
trace's `layout` line places; the layer surface is at the bottom of the 1280 × 1024 output.

Keys every target gets: へぇ, h, i, shift + a, space, 123 → 1 and ?, ABC, e held until its
alternates open → é, x, backspace, return (the layout's places from the trace's `layout`
lines, which follow the layers). The keyboard is clicked only once it is drawn (grim).

Scenarios (each runs even if an earlier one failed):
  foot        exact text in the file (a terminal's text input: the virtual keyboard); foot is
              the focused window (`get_tree`) after every click; the layer surface is anchored
              at the bottom with its exclusive zone (the workspace is the output less the
              keyboard's height); the trace's target says the input method is active
  rapid       1,000 へぇ presses in a row (at most IN_FLIGHT ahead) arrive as exactly 1,000
              「へぇ〜」 in foot
  after-quit  after the keyboard quits, another keyboard (wtype) types 'aB c' exactly into
              foot: its keymap and modifiers are the seat's again
  gtk         the same keys into a GTK entry (text through the input method, exact text)
  xterm       the same keys into xterm through XWayland (virtual keyboard for everything)
  second-im   with another input method bound on the seat first, one stderr line and the
              virtual keyboard types exactly into foot
  float       --float: no exclusive zone

Prints `ok - ...` per passed check and `not ok - SCENARIO: message` per failed scenario;
exits 1 if any failed, 2 when a prerequisite is missing (a skip with one line outside CI).
Environment: HEE_APP, HEE_WAYLAND_KEEP=1 (keep the work directory), HEE_WAYLAND_SYSTEM_ONLY
(comma-separated scenario names).
"""
import functools
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_support  # noqa: E402
from e2e_support import Prerequisite, app_binary, fail, kill_group, ok, script_main  # noqa: E402
from run_e2e import Trace, is_event  # noqa: E402
from wayland_support import (KeyboardHolder, Sway, VirtualPointer, read_string, run_each, split_messages,  # noqa: E402
                             wl_message, wl_string)

TIMEOUT = 15.0                # safety nets for waits, never what is checked
# Rapid presses ahead of the keyboard's trace at most. The test clicks through sway's IPC as
# fast as sway answers (≈ 1,000 clicks a second, 2 cores shared by sway, foot, the keyboard
# and this script); unbounded, sway's messages to the keyboard piled up faster than it was
# scheduled to read them (in 1 of 2 runs), and libwayland-server 1.21 disconnects a client
# whose socket is full ("Broken pipe"). 100 in flight is ≈ 10 s of a fast human's tapping.
IN_FLIGHT = 100
# The keyboard's background (HeeRender's Palette.keyboardBackground), exact on sway's pixman
# renderer at scale 1.
KEYBOARD_BACKGROUND = (209, 212, 217)
HEE_TEXT = "へぇ〜"
OUTPUT = {"HEADLESS-1": "resolution 1280x1024 position 0 0 scale 1"}
OUTPUT_WIDTH, OUTPUT_HEIGHT = 1280, 1024
TARGETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "targets")
# The keys every target gets, and what they make: shift + a is "A", 123 shows the numbers
# layer (a digit and "?" from it), ABC the letters again (skipped where typing brought them
# back), ("e", "é") holds e until its alternates open and releases on é, backspace deletes x.
KEYS = ["hee", "h", "i", "shift", "a", "space", "123", "1", "?", "ABC", ("e", "é"), "x", "backspace", "return"]
TYPED = HEE_TEXT + "hiA 1?é"
# A terminal reading without line editing (stty -icanon) gets BackSpace as the DEL byte.
TYPED_TERMINAL = TYPED + "x\x7f\n"
TEXT_SENDS = 9                # sends with text: へぇ〜 h i A " " 1 ? é x (BackSpace and Return are keys)


wait_until = functools.partial(e2e_support.wait_until, timeout=TIMEOUT)


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


class Rig:
    """sway, our pointer, the binary and the work directory; targets and keyboards."""

    def __init__(self, binary, workdir, sway, pointer):
        self.binary, self.workdir, self.sway, self.pointer = binary, workdir, sway, pointer
        self.shared = os.path.join(workdir, "shared")
        os.makedirs(self.shared, exist_ok=True)
        os.chmod(self.shared, 0o777)     # targets started by sway run as its user
        self.procs = []

    def env(self, **extra):
        return self.sway.client_env(XDG_CONFIG_HOME=os.path.join(self.workdir, "config"), SDL_AUDIODRIVER="dummy",
                                    LANG="C.UTF-8", **extra)

    def start(self, args, name, **extra):
        log = open(os.path.join(self.workdir, f"{name}.log"), "wb")
        proc = subprocess.Popen(args, env=self.env(**extra), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                start_new_session=True)
        self.procs.append(proc)
        return proc

    def foot(self, name):
        """foot running cat into a file in non-canonical mode; returns (proc, file, window)."""
        path = os.path.join(self.shared, f"{name}.txt")
        proc = self.start(["env", "WAYLAND_DEBUG=" + os.environ.get("HEE_FOOT_DEBUG", "0"), "foot", "--app-id", name, "sh", "-c", f"stty -icanon min 1 time 0; exec cat > {path}"], name)
        window = self.sway.wait_for_window(proc.pid, alive=lambda: proc.poll() is None)
        if window is None:
            fail(f"foot did not open a window: {read(os.path.join(self.workdir, name + '.log'))[-300:]}")
        wait_until(lambda: os.path.exists(path), "foot's cat to open its file")
        return proc, path, window

    def keyboard(self, name, args=(), drawn=True, wayland_debug=None):
        """Starts the keyboard and waits until it is on the screen (see `wait_drawn`; not with
        `drawn` false). It stays shown without a focused field (`--no-auto-show`, issue 30)
        unless `args` say `--auto-show` (the last of the two wins). `wayland_debug` is its
        WAYLAND_DEBUG (libwayland's protocol log on its stderr), else HEE_APP_DEBUG's."""
        err = os.path.join(self.workdir, f"{name}-stderr.txt")
        debug = wayland_debug or os.environ.get("HEE_APP_DEBUG", "0")
        with open(err, "wb") as stderr:
            proc = subprocess.Popen([self.binary, "--system", "--trace", "--no-auto-show", *args],
                                    env=self.env(WAYLAND_DEBUG=debug),
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, start_new_session=True)
        self.procs.append(proc)
        trace = Trace(proc.stdout)
        layout = trace.wait_for(is_event("layout"), "the keyboard's first layout", TIMEOUT, consume=False)
        trace.wait_for(is_event("target"), "the keyboard's first target line", TIMEOUT, consume=False)
        if drawn:
            self.wait_drawn(layout)
        return proc, trace, layout, err

    def pixel(self, x, y):
        """The output's pixel (r, g, b) at (`x`, `y`), through grim."""
        proc = subprocess.run(["grim", "-g", f"{round(x)},{round(y)} 1x1", "-t", "ppm", "-"], env=self.env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        if proc.returncode != 0:
            fail(f"grim failed: {proc.stderr.decode(errors='replace').strip()}")
        return tuple(proc.stdout[-3:])

    def wait_drawn(self, layout):
        """Waits until the keyboard is on the screen: beside the keys is the keyboard's
        background colour (HeeRender's Palette.keyboardBackground) and the へぇ button's centre
        is not. A window below can differ at the two places (foot's window under the へぇ
        button and the bare output beside the keys): a click then went to the workspace, and
        foot lost the focus. The trace's first lines come before the first frame; a click
        before the surface has a buffer goes nowhere, as it would for a user."""
        top = OUTPUT_HEIGHT - layout["window"]["h"]
        first = min(k["y"] for name, k in layout["keys"].items() if name != "hee")
        hee_x, hee_y = self.place(layout, "hee")
        wait_until(lambda: self.pixel(1, top + first + 1) == KEYBOARD_BACKGROUND != self.pixel(hee_x, hee_y),
                   "the docked keyboard to be drawn")

    def focused(self):
        """The focused view's pid and app id (or window class)."""
        found = []

        def walk(node):
            if node.get("focused") and node.get("pid"):
                found.append((node["pid"], node.get("app_id") or (node.get("window_properties") or {}).get("class")))
            for child in node.get("nodes", []) + node.get("floating_nodes", []):
                walk(child)
        walk(self.sway.command_json("get_tree"))
        return found[0] if found else (None, None)

    def click_at(self, x, y):
        self.sway.command(f"seat seat0 cursor set {round(x)} {round(y)}")
        self.sway.command("seat seat0 cursor press button1")
        self.sway.command("seat seat0 cursor release button1")

    def click_window(self, window):
        r = window["rect"]
        self.click_at(r["x"] + r["width"] / 2, r["y"] + r["height"] / 2)

    def place(self, layout, key):
        """`key`'s centre on the output (the keyboard is docked at the bottom)."""
        k = layout["keys"][key]
        return k["x"] + k["w"] / 2, OUTPUT_HEIGHT - layout["window"]["h"] + k["y"] + k["h"] / 2

    def click_key(self, layout, key):
        self.click_at(*self.place(layout, key))

    def close(self):
        for proc in self.procs:
            kill_group(proc)
        self.close_xterms()

    def close_xterms(self):
        """Ends the xterms sway started (not our children) and waits until sway lost them."""
        for window in self.sway.windows():
            if (window.get("window_properties") or {}).get("class") == "HeeXterm":
                try:
                    os.kill(window["pid"], signal.SIGTERM)
                except ProcessLookupError:
                    pass
        wait_until(lambda: not any((w.get("window_properties") or {}).get("class") == "HeeXterm"
                                   for w in self.sway.windows()), "the xterms to close")


def type_keys(rig, layout, trace, keys, focused_pid):
    """Clicks `keys` on the keyboard (a pair: hold the first until its alternates open, release
    on the second); after each the target is still the focused window. Returns the layout."""
    for key in keys:
        layout = trace.events[max(i for i, e in enumerate(trace.events) if e["event"] == "layout")]
        if key == "ABC" and key not in layout["keys"]:
            continue                 # typing brought the letters back already
        if isinstance(key, tuple):
            key, choice = key
            rig.sway.command("seat seat0 cursor set {} {}".format(*map(round, rig.place(layout, key))))
            rig.sway.command("seat seat0 cursor press button1")
            bubble = trace.wait_for(is_event("alternates", key=key), f"{key}'s alternates", TIMEOUT, consume=True)
            cell = next((c for c in bubble["choices"] if c["text"] == choice), None)
            if cell is None:
                fail(f"{key}'s alternates {bubble['choices']} have no {choice!r}")
            x, y = cell["x"] + cell["w"] / 2, OUTPUT_HEIGHT - layout["window"]["h"] + cell["y"] + cell["h"] / 2
            # sway's `cursor set` under a held button sends its motion only after the release.
            rig.pointer.move_to(x, y, OUTPUT_WIDTH, OUTPUT_HEIGHT)
            rig.sway.command("seat seat0 cursor release button1")
        else:
            if key not in layout["keys"]:
                fail(f"no {key!r} key in the layout shown: {sorted(layout['keys'])}")
            rig.click_key(layout, key)
        trace.wait_for(is_event("touch", key=key, down=False), f"the {key} key's release", TIMEOUT, consume=True)
        pid, _ = rig.focused()
        if pid != focused_pid:
            fail(f"after clicking {key} the focused window is pid {pid}, not the target's {focused_pid}")
    return layout


def expect_text(path, expected, what, trace=None, grows=True):
    """Waits until the file holds `expected` (or more, for a file that only `grows`); fails
    with what it holds and, given the keyboard's trace, the keystrokes it sent."""
    def finished():
        return read(path) == expected or (grows and len(read(path)) > len(expected))
    deadline = time.monotonic() + TIMEOUT
    while not finished() and time.monotonic() < deadline:
        time.sleep(0.02)
    if read(path) != expected:
        sends = [e for e in trace.events if e["event"] in ("send", "touch", "alternates")] if trace else []
        fail(f"{what}: got {read(path)!r}, expected {expected!r}" + "".join(f"\n  {e}" for e in sends))


# --------------------------------------------------------------------------- scenarios

def scenario_foot(rig, state):
    foot, path, window = rig.foot("foot-keys")
    rig.click_window(window)
    wait_until(lambda: rig.focused()[0] == foot.pid, "foot to have the focus")
    proc, trace, layout, err = rig.keyboard("foot")
    if layout["window"]["w"] != 1280:
        fail(f"the docked keyboard is {layout['window']['w']} wide, not the output's 1280")
    trace.wait_for(is_event("target", inputMethod="active"), "the input method to be active in foot", TIMEOUT,
                   consume=False)
    ok("foot: the trace's target says the input method is active")
    workspace = [w for w in rig.sway._ipc(1) if w.get("focused")][0]["rect"]
    if workspace["height"] != OUTPUT_HEIGHT - layout["window"]["h"] or workspace["y"] != 0:
        fail(f"the workspace is {workspace}: the keyboard's exclusive zone of {layout['window']['h']} is not reserved at the bottom")
    ok(f"docked at the bottom: the workspace is the output less {layout['window']['h']} at the bottom")
    type_keys(rig, layout, trace, KEYS, foot.pid)
    expect_text(path, TYPED_TERMINAL, "foot", trace)
    sends = [e for e in trace.events if e["event"] == "send"]
    # A terminal's text input (content purpose terminal) reads keys: the virtual keyboard.
    if any(e.get("via") != "virtual-keyboard" for e in sends):
        fail(f"foot's keys did not all go through the virtual keyboard: {sends}")
    ok(f"foot: {TYPED_TERMINAL!r}, through the virtual keyboard (a terminal's text input), foot focused after every click")
    state["foot"] = (proc, trace, layout, foot, path)


def scenario_rapid(rig, state):
    if "foot" not in state:
        fail("needs the foot scenario")
    proc, trace, layout, foot, path = state["foot"]
    before = read(path)
    count = [e for e in trace.events if e["event"] == "hee"][-1]["count"]
    for i in range(1000):
        if i >= IN_FLIGHT and i % 10 == 0:
            # At most IN_FLIGHT presses ahead of the keyboard (see IN_FLIGHT).
            trace.wait_for(is_event("hee", count=count + 1 + i - IN_FLIGHT), "the keyboard to keep up", TIMEOUT,
                           consume=False)
        rig.click_key(layout, "hee")
    trace.wait_for(is_event("hee", count=count + 1000), "the 1,000th press's count", 120)
    expected = before + HEE_TEXT * 1000
    expect_text(path, expected, "1,000 rapid へぇ")
    ok("1,000 rapid へぇ presses: exactly 1,000 「へぇ〜」 in order in foot")
    state["foot-end"] = read(path)


def scenario_after_quit(rig, state):
    if "foot" not in state:
        fail("needs the foot scenario")
    proc, trace, layout, foot, path = state.pop("foot")
    proc.send_signal(signal.SIGTERM)
    if proc.wait(timeout=20) != 0:
        fail(f"the keyboard exited with {proc.returncode}")
    before = read(path)
    env = rig.env()
    subprocess.run(["wtype", "aB c"], env=env, timeout=20, check=True)
    expect_text(path, before + "aB c", "wtype after the keyboard quit")
    ok("after quit another keyboard types 'aB c' exactly (its keymap, no modifier left held)")


def scenario_gtk(rig, state):
    path = os.path.join(rig.shared, "gtk.txt")
    gtk = rig.start(["/usr/bin/python3", os.path.join(TARGETS, "gtk_entry.py"), "--live", path, "GTK entry"], "gtk",
                    GDK_BACKEND="wayland")
    window = rig.sway.wait_for_window(gtk.pid, alive=lambda: gtk.poll() is None)
    if window is None:
        fail(f"the GTK entry did not open: {read(os.path.join(rig.workdir, 'gtk.log'))[-300:]}")
    rig.click_window(window)
    wait_until(lambda: rig.focused()[0] == gtk.pid, "the GTK entry to have the focus")
    proc, trace, layout, err = rig.keyboard("gtk")
    trace.wait_for(is_event("target", inputMethod="active"), "the input method to be active in the GTK entry",
                   TIMEOUT, consume=False)
    type_keys(rig, layout, trace, KEYS[:-1], gtk.pid)
    # The entry writes its text after every change (--live): "x" comes, then goes.
    expect_text(path, TYPED, "GTK entry", trace, grows=False)
    sends = [e for e in trace.events if e["event"] == "send"]
    if [e.get("via") for e in sends if "text" in e] != ["input-method"] * TEXT_SENDS:
        fail(f"the GTK entry's text did not all go through the input method: {sends}")
    ok(f"GTK entry (Wayland): {TYPED!r}, text through the input method, GTK focused after every click")
    kill_group(proc)


def scenario_xterm(rig, state):
    path = os.path.join(rig.shared, "xterm.txt")
    # Started by sway, so it has sway's XWayland display.
    rig.sway.command(f"exec xterm -class HeeXterm -e sh -c 'stty -icanon min 1 time 0; exec cat > {path}'")
    window = wait_until(lambda: next((w for w in rig.sway.windows()
                                      if (w.get("window_properties") or {}).get("class") == "HeeXterm"), None),
                        "xterm's window")
    wait_until(lambda: os.path.exists(path), "xterm's cat to open its file")
    rig.click_window(window)
    wait_until(lambda: rig.focused()[0] == window["pid"], "xterm to have the focus")
    proc, trace, layout, err = rig.keyboard("xterm")
    type_keys(rig, layout, trace, KEYS, window["pid"])
    expect_text(path, TYPED_TERMINAL, "xterm", trace)
    sends = [e for e in trace.events if e["event"] == "send"]
    if any(e.get("via") != "virtual-keyboard" for e in sends):
        fail(f"xterm's keys did not all go through the virtual keyboard: {sends}")
    ok(f"xterm (XWayland): {TYPED_TERMINAL!r} through the virtual keyboard")


class InputMethodHolder:
    """Another input method on the seat (a client of our own holding a zwp_input_method_v2),
    as fcitx5 or ibus would be."""

    def __init__(self, socket_path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(socket_path)
        self.sock.sendall(wl_message(1, 1, struct.pack("=I", 2)) + wl_message(1, 0, struct.pack("=I", 3)))
        globals_, buffer, done = {}, b"", False
        while not done:
            messages, buffer = split_messages(buffer + self.sock.recv(65536))
            for object_id, opcode, payload in messages:
                if object_id == 2 and opcode == 0:
                    (name,) = struct.unpack_from("=I", payload, 0)
                    interface, offset = read_string(payload, 4)
                    globals_[interface] = name
                elif object_id == 3 and opcode == 0:
                    done = True
        if "zwp_input_method_manager_v2" not in globals_:
            raise Prerequisite("sway offers no zwp_input_method_manager_v2")

        def bind(interface, new_id):
            return wl_message(2, 0, struct.pack("=I", globals_[interface]) + wl_string(interface) + struct.pack("=II", 1, new_id))
        # seat 4, manager 5, input method 6: get_input_method(seat, new_id), then a sync (7).
        self.sock.sendall(bind("wl_seat", 4) + bind("zwp_input_method_manager_v2", 5)
                          + wl_message(5, 0, struct.pack("=II", 4, 6)) + wl_message(1, 0, struct.pack("=I", 7)))
        buffer, done = b"", False
        while not done:
            messages, buffer = split_messages(buffer + self.sock.recv(65536))
            done = any(object_id == 7 for object_id, _, _ in messages)

    def close(self):
        self.sock.close()


def scenario_second_im(rig, state):
    holder = InputMethodHolder(rig.sway.socket)
    try:
        foot, path, window = rig.foot("foot-second-im")
        rig.click_window(window)
        wait_until(lambda: rig.focused()[0] == foot.pid, "foot to have the focus")
        proc, trace, layout, err = rig.keyboard("second-im")
        trace.wait_for(is_event("target", inputMethod="unavailable"), "the input method to be unavailable", TIMEOUT,
                   consume=False)
        lines = [line for line in read(err).splitlines() if "input method" in line]
        if len(lines) != 1:
            fail(f"expected one stderr line about the other input method, got: {read(err)!r}")
        type_keys(rig, layout, trace, KEYS, foot.pid)
        expect_text(path, TYPED_TERMINAL, "foot with another input method bound", trace)
        ok(f"another input method bound: one stderr line ({lines[0]!r}); the virtual keyboard types exactly")
        kill_group(proc)
    finally:
        holder.close()


def scenario_float(rig, state):
    proc, trace, layout, err = rig.keyboard("float", ["--float"])
    workspace = [w for w in rig.sway._ipc(1) if w.get("focused")][0]["rect"]
    if workspace["height"] != OUTPUT_HEIGHT:
        fail(f"--float: the workspace is {workspace}, not the whole output")
    ok("--float: no exclusive zone (the workspace keeps the whole output)")
    kill_group(proc)


SCENARIOS = [("foot", scenario_foot), ("rapid", scenario_rapid), ("after-quit", scenario_after_quit),
             ("gtk", scenario_gtk), ("xterm", scenario_xterm), ("second-im", scenario_second_im),
             ("float", scenario_float)]


def main():
    binary = app_binary()

    def body(workdir):
        for tool in ("foot", "wtype", "xterm"):
            if shutil.which(tool) is None:
                raise Prerequisite(f"{tool} not found (apt-get install foot wtype xterm)")
        os.chmod(workdir, 0o755)
        with Sway(workdir, OUTPUT) as sway:
            pointer = VirtualPointer(sway.socket)
            holder = KeyboardHolder(sway)
            rig = Rig(binary, workdir, sway, pointer)
            state = {}

            def after():
                # Keyboards and targets end with their scenario, except the keyboard and foot
                # later ones use (a window left over would be clicked).
                keep = [state["foot"][0], state["foot"][3]] if "foot" in state else []
                for proc in rig.procs:
                    if all(proc is not k for k in keep) and proc.poll() is None:
                        kill_group(proc)
                rig.close_xterms()
            try:
                failed = run_each(SCENARIOS, "HEE_WAYLAND_SYSTEM_ONLY", lambda scenario: scenario(rig, state), after)
            finally:
                rig.close()
                holder.close()
                pointer.close()
            if failed:
                fail(f"{failed} scenario(s) failed")
    return script_main(body, prefix="hee-wayland-system-", keep_variable="HEE_WAYLAND_KEEP", skip_missing=True)


if __name__ == "__main__":
    sys.exit(main())
