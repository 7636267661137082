#!/usr/bin/env python3
"""End-to-end tests of system mode on Wayland in the applications people type into (issue 28,
classes 2–7): `HeeApp --system` docked in sway's headless backend (as in
run_wayland_system_tests.py: the user `hee-wayland`, our own virtual pointer clicking the keys
as a person does, through Tests/e2e/wayland_typist.py), with another virtual keyboard (wtype)
holding the seat before anything starts, as another on-screen keyboard would.

The sentence is issue 28's, SENTENCE; edits follow it: Return, the sentence again fast,
BackSpace, ← ←, a letter, → →, x y ← z → five times 0 ms apart (BURST), then Ctrl+A and a
letter. Before each application starts, a new wtype joins the seat, so its keymap (no keys)
is the seat's. Text is read back from the
application itself: gedit through the accessibility bus (Tests/e2e/targets/atspi_text.py),
the GTK entry from its state file, Chromium and Firefox from their page (browser_support.py),
foot from the file its cat writes.

Scenarios (each runs even if an earlier one failed):
  gedit        SENTENCE at a person's pace, Return, SENTENCE at 20 ms between keys and EDITS
               into gedit (GTK 3, Wayland) with wtype's keymap on the seat (class 2: BackSpace,
               the arrows and Ctrl+A did nothing there; class 3: keys overtaken by text); the
               trace says the text went through the input method, the arrows through the
               virtual keyboard
  gtk-entry    the same at 20 ms into a GtkEntry
  chromium     `--ozone-platform=wayland`: the textarea, then Tab and text into the input,
               then x ← y and SIGTERM at once: what was queued still arrives
  firefox      `MOZ_ENABLE_WAYLAND=1`: 「へぇ〜」 tapped 20 times, every 10 ms, from the keyboard's
               first frame on (class 4: the first was lost), then as chromium
  layouts      the seat's layout changed while the keyboard runs (class 5): yz@é typed into
               foot after `input type:keyboard xkb_layout de`, `reload`, `xkb_layout fr` and back
  squeekboard  squeekboard's keymap on the seat (it uploads one when shown; class 6) and its
               input method taken: every alternate (from its bubble) and every symbol of the
               layout, 20 ms between keys, exactly into foot through the virtual keyboard
  second       a second `--system` exits 0 with one line naming the first, which traces
               `show` and types on (class 7)

Prints `ok - ...` per check and `not ok - SCENARIO: message` per failed scenario, with each
scenario's wall time; exits 1 if any failed, 2 when a prerequisite is missing (a skip with one
line outside CI). Environment: HEE_APP, HEE_WAYLAND_KEEP=1 (keep the work directory),
HEE_WAYLAND_APPS_ONLY (comma-separated scenario names), HEE_E2E_PORTS (the page's port range).
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import app_binary, fail, kill_group, ok, require_tools, script_main  # noqa: E402
from run_e2e import Trace, is_event  # noqa: E402
from run_wayland_system_tests import (KEYBOARD_BACKGROUND, OUTPUT, OUTPUT_HEIGHT, OUTPUT_WIDTH, TARGETS, Rig,  # noqa: E402
                                      read, wait_until)
from wayland_support import KeyboardHolder, SeatKeymaps, Sway, VirtualPointer, run_each  # noqa: E402
from wayland_typist import FAST, PERSON, WaylandTypist, every_alternate, every_symbol  # noqa: E402
import browser_support  # noqa: E402

TIMEOUT = 20.0                # safety nets for waits, never what is checked
SENTENCE = "Hi, it's 3:45 — café? ¥5 •"
# After SENTENCE, Return, SENTENCE fast: BackSpace takes the •, ← ← go before the 5, x, → →;
# then x y ← z → five times, 0 ms apart (a key followed at once by text, class 3).
BURST = ["x", "y", "left", "z", "right"] * 5
EDITED = SENTENCE + "\n" + SENTENCE[:-3] + "x5 " + "xzy" * 5
ATSPI_TEXT = os.path.join(TARGETS, "atspi_text.py")


def type_edits(typist, person=True):
    """SENTENCE at a person's pace and Return (`person`), SENTENCE fast, BackSpace ← ← x → →,
    BURST."""
    if person:
        typist.pace = PERSON
        typist.type(SENTENCE + "\n")
    typist.pace = FAST
    typist.type(SENTENCE)
    typist.keys("backspace", "left", "left")
    typist.type("x")
    typist.keys("right", "right")
    typist.show("letters")
    typist.burst(BURST)


def select_all_and_type(typist, letter="z"):
    typist.keys("ctrl", "a")
    typist.type(letter)


def expect_value(read_value, expected, what, trace):
    """Waits until `read_value()` is `expected` (the keystrokes may still be queued); fails
    with what it holds and the keystrokes sent."""
    deadline = time.monotonic() + TIMEOUT
    value = read_value()
    while value != expected and time.monotonic() < deadline:
        time.sleep(0.1)
        value = read_value()
    if value != expected:
        sends = [e for e in trace.events if e["event"] == "send"]
        fail(f"{what}: got {value!r}, expected {expected!r}; sent: "
             + " ".join(repr(e.get("text") or e.get("key")) + ("" if "via" not in e else "/" + e["via"][0]) for e in sends))


def check_ways(trace, what):
    """No keystroke dropped; text through the input method, the arrows through the virtual
    keyboard (BackSpace goes either way, see KeystrokeOrder)."""
    sends = [e for e in trace.events if e["event"] == "send"]
    dropped = [e for e in sends if "dropped" in e]
    if dropped:
        fail(f"{what}: keystrokes dropped: {dropped}")
    texts = {e.get("via") for e in sends if "text" in e}
    arrows = {e.get("via") for e in sends if e.get("key") in ("Left", "Right")}
    if texts != {"input-method"} or arrows != {"virtual-keyboard"}:
        fail(f"{what}: the text went {texts}, the arrows {arrows}")


class Apps(Rig):
    """The system tests' rig with the typist, gedit's accessibility bus and the browsers."""

    def fresh_holder(self):
        """A new wtype on the seat: its keymap, which has no key, is the seat's when the next
        application starts (as after another on-screen keyboard typed)."""
        self.holder.close()
        self.holder = KeyboardHolder(self.sway)

    def typist(self, trace, pace=PERSON):
        return WaylandTypist(self.pointer, trace, OUTPUT_WIDTH, OUTPUT_HEIGHT, pace)

    def focus(self, proc, window=None):
        if window is not None:
            self.click_window(window)
        wait_until(lambda: self.focused()[0] == proc.pid, f"pid {proc.pid} to have the focus")

    def keyboard_from_first_frame(self, name):
        """Starts the keyboard and returns (proc, trace, layout) as soon as one pixel shows
        it (the keyboard's background beside the keys): its first frame, give or take one
        capture (grim, ~20 ms)."""
        proc = subprocess.Popen([self.binary, "--system", "--trace", "--no-auto-show"], env=self.env(), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=open(os.path.join(self.workdir, f"{name}-stderr.txt"), "wb"),
                                start_new_session=True)
        self.procs.append(proc)
        trace = Trace(proc.stdout)
        layout = trace.wait_for(is_event("layout"), "the keyboard's first layout", TIMEOUT, consume=False)
        top = OUTPUT_HEIGHT - layout["window"]["h"]
        first = min(k["y"] for key, k in layout["keys"].items() if key != "hee")
        wait_until(lambda: self.pixel(1, top + first + 1) == KEYBOARD_BACKGROUND, "the keyboard's first frame")
        return proc, trace, layout

    def accessibility_bus(self):
        """at-spi-bus-launcher on the script's private session bus (which activates nothing)."""
        if getattr(self, "atspi", None) is None:
            self.atspi = self.start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], "at-spi")

    def atspi_text(self, application):
        proc = subprocess.run(["/usr/bin/python3", ATSPI_TEXT, application], env=self.env(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=TIMEOUT)
        return json.loads(proc.stdout)["text"] if proc.returncode == 0 else None


# --------------------------------------------------------------------------- scenarios

def scenario_gedit(rig, state):
    rig.fresh_holder()
    rig.accessibility_bus()
    env_extra = {"GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "0"}
    gedit = rig.start(["gedit", "--new-window"], "gedit", **env_extra)
    window = rig.sway.wait_for_window(gedit.pid, timeout=60, alive=lambda: gedit.poll() is None)
    if window is None:
        fail(f"gedit did not open a window: {read(os.path.join(rig.workdir, 'gedit.log'))[-300:]}")
    rig.focus(gedit, window)
    wait_until(lambda: rig.atspi_text("gedit") == "", "gedit's document on the accessibility bus")
    proc, trace, layout, err = rig.keyboard("gedit")
    typist = rig.typist(trace)
    type_edits(typist)
    expect_value(lambda: rig.atspi_text("gedit"), EDITED, "gedit", trace)
    select_all_and_type(typist)
    expect_value(lambda: rig.atspi_text("gedit"), "z", "gedit after Ctrl+A and z", trace)
    check_ways(trace, "gedit")
    ok(f"gedit (wtype's keymap on the seat first): {EDITED!r} at a person's pace, 20 ms and 0 ms, then Ctrl+A z: 'z'; "
       "text through the input method, the arrows through the virtual keyboard")


def scenario_gtk_entry(rig, state):
    rig.fresh_holder()
    path = os.path.join(rig.shared, "entry.json")
    entry = rig.start(["/usr/bin/python3", os.path.join(TARGETS, "gtk_entry.py"), "--state", path, "GTK entry"], "gtk-entry",
                      GDK_BACKEND="wayland")
    window = rig.sway.wait_for_window(entry.pid, alive=lambda: entry.poll() is None)
    if window is None:
        fail(f"the GTK entry did not open: {read(os.path.join(rig.workdir, 'gtk-entry.log'))[-300:]}")
    rig.focus(entry, window)
    proc, trace, layout, err = rig.keyboard("gtk-entry")

    def value():
        text = read(path)
        return json.loads(text)["text"] if text else None
    typist = rig.typist(trace, FAST)
    type_edits(typist, person=False)
    expected = SENTENCE[:-3] + "x5 " + "xzy" * 5
    expect_value(value, expected, "GTK entry", trace)
    select_all_and_type(typist)
    expect_value(value, "z", "GTK entry after Ctrl+A and z", trace)
    check_ways(trace, "GTK entry")
    ok(f"GtkEntry at 20 ms and 0 ms: {expected!r}, then Ctrl+A z: 'z'")


def browser(rig, state, name, start_taps=0):
    rig.fresh_holder()
    with browser_support.PageServer() as server:
        app = browser_support.BROWSERS[name](server.url("area"), rig.env(), os.path.join(rig.workdir, name), wayland=True)
        rig.procs.append(app.proc)
        seconds = app.wait_ready(server, "area")
        window = rig.sway.wait_for_window(app.proc.pid, alive=lambda: app.proc.poll() is None)
        if window is None:
            fail(f"{name} has no window on sway: {app.log_tail()}")
        rig.focus(app.proc)

        def area():
            return (server.state("area") or {}).get("value")

        def line():
            return (server.state("line") or {}).get("value")
        prefix = ""
        # Class 4: 「へぇ〜」 every 10 ms from the first frame on, without waiting for the
        # keyboard; twice, the second keyboard started where one ran before (the first
        # keyboard of a Firefox lost nothing even before: its text input was not enabled yet).
        for start in range(2 if start_taps else 0):
            if start:
                kill_group(proc)
            proc, trace, layout = rig.keyboard_from_first_frame(f"{name}-{start}")
            x, y = WaylandTypist(rig.pointer, trace, OUTPUT_WIDTH, OUTPUT_HEIGHT).point(layout["keys"]["hee"])
            rig.pointer.move_to(x, y, OUTPUT_WIDTH, OUTPUT_HEIGHT)
            for _ in range(start_taps):
                rig.pointer.button(True)
                rig.pointer.button(False)
                time.sleep(0.01)
            trace.wait_for(is_event("hee", count=start_taps), f"{start_taps} へぇ presses", TIMEOUT)
            prefix += "へぇ〜" * start_taps
            expect_value(area, prefix, f"{name}: {start_taps} へぇ from keyboard {start + 1}'s first frame on", trace)
        if start_taps:
            ok(f"{name}: {start_taps} 「へぇ〜」 tapped every 10 ms from the first frame on, by two keyboards one after "
               "the other: none lost")
        else:
            proc, trace, layout, err = rig.keyboard(name)
        typist = rig.typist(trace, FAST)
        type_edits(typist)
        expect_value(area, prefix + EDITED, f"{name} textarea", trace)
        # Tab to the input, and text at once: the way changes between the fields.
        typist.keys("tab")
        typist.type("ok")
        expect_value(line, "ok", f"{name} input after Tab", trace)
        select_all_and_type(typist)
        expect_value(line, "z", f"{name} input after Ctrl+A and z", trace)
        if area() != prefix + EDITED:
            fail(f"{name}: the textarea changed to {area()!r} after Tab")
        ok(f"{name} (Wayland, started in {seconds:.1f} s): textarea {prefix + EDITED!r}, Tab, input 'ok', Ctrl+A z: 'z'")
        # Keystrokes still waiting their turn when the keyboard quits go out before it does
        # (the trace said `send` for them): x ← y at once, then SIGTERM at once.
        typist.burst(["x", "left", "y"])
        kill_group(proc, grace=5)
        if proc.returncode != 0:
            fail(f"{name}: the keyboard's exit status after SIGTERM was {proc.returncode}")
        expect_value(line, "zyx", f"{name} input after x ← y and the keyboard's SIGTERM right after them", trace)
        ok(f"{name}: x ← y clicked and the keyboard ended at once: 'zyx', nothing queued was lost")
        app.close()


def scenario_chromium(rig, state):
    browser(rig, state, "chromium")


def scenario_firefox(rig, state):
    browser(rig, state, "firefox", start_taps=20)


def scenario_layouts(rig, state):
    foot, path, window = rig.foot("foot-layouts")
    rig.focus(foot, window)
    proc, trace, layout, err = rig.keyboard("layouts")
    typist = rig.typist(trace, FAST)
    expected = ""
    for change in (None, "input type:keyboard xkb_layout de", "reload", "input type:keyboard xkb_layout fr",
                   "input type:keyboard xkb_layout us"):
        if change:
            # swaymsg answers once sway has applied it: its keymap events to the keyboard
            # are on their way before the next click.
            rig.sway.command(change)
        typist.type("yz@é")
        expected += "yz@é"
        expect_value(lambda: read(path), expected, f"foot after {change or 'nothing'}", trace)
    lines = [line for line in read(err).splitlines() if "keymap" in line]
    if lines:
        fail(f"stderr: {lines}")
    ok("yz@é typed exactly after xkb_layout de, reload, xkb_layout fr and us (sway applied each to our keyboard)")


def scenario_squeekboard(rig, state):
    require_tools("squeekboard")
    keymaps = SeatKeymaps(rig.sway.socket)
    squeekboard = rig.start(["squeekboard"], "squeekboard")
    try:
        path = os.path.join(rig.shared, "squeekboard-entry.txt")
        entry = rig.start(["/usr/bin/python3", os.path.join(TARGETS, "gtk_entry.py"), "--live", path, "squeekboard"],
                          "squeekboard-entry", GDK_BACKEND="wayland")
        window = rig.sway.wait_for_window(entry.pid, alive=lambda: entry.poll() is None)
        rig.focus(entry, window)

        def visible(shown):
            subprocess.run(["gdbus", "call", "--session", "--dest", "sm.puri.OSK0", "--object-path", "/sm/puri/OSK0",
                            "--method", "sm.puri.OSK0.SetVisible", "true" if shown else "false"], env=rig.env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=TIMEOUT)
        wait_until(lambda: visible(True) or "xkb_keycodes \"squeekboard\"" in "".join(keymaps.keymaps),
                   "squeekboard's keymap on the seat")
        visible(False)
        kill_group(entry)
        if "xkb_keycodes \"squeekboard\"" not in keymaps.keymaps[-1]:
            fail("the seat's keymap is not squeekboard's before the keyboard starts")
        foot, text, window = rig.foot("foot-squeekboard")
        rig.focus(foot, window)
        proc, trace, layout, err = rig.keyboard("squeekboard")
        trace.wait_for(is_event("target", inputMethod="unavailable"), "squeekboard's input method to keep the seat", TIMEOUT,
                       consume=False)
        typist = rig.typist(trace, FAST)
        typed = every_alternate()
        typist.type(typed, prefer_hold=True)
        typist.type(every_symbol())
        typed += every_symbol()
        expect_value(lambda: read(text), typed, "foot with squeekboard's keymap on the seat", trace)
        ok(f"squeekboard's keymap (keycodes 9-118) on the seat: every alternate ({typist.holds} from their bubbles) and "
           f"every symbol, {len(typed)} characters at 20 ms, exactly into foot through the virtual keyboard")
    finally:
        keymaps.close()
        kill_group(squeekboard)


def scenario_second(rig, state):
    foot, path, window = rig.foot("foot-second")
    rig.focus(foot, window)
    first, trace, layout, err = rig.keyboard("first")
    started = time.monotonic()
    second = subprocess.run([rig.binary, "--system", "--trace", "--no-auto-show"], env=rig.env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    took = time.monotonic() - started
    lines = second.stderr.decode(errors="replace").splitlines()
    if second.returncode != 0 or len(lines) != 1 or f"(pid {first.pid})" not in lines[0] or second.stdout:
        fail(f"the second keyboard: status {second.returncode}, stderr {lines}, stdout {second.stdout[:200]!r}")
    trace.wait_for(is_event("show"), "the first keyboard's show line", TIMEOUT)
    typist = rig.typist(trace, FAST)
    typist.type("ok")
    expect_value(lambda: read(path), "ok", "foot after the second keyboard", trace)
    ok(f"a second --system exited 0 in {took:.2f} s with one line ({lines[0]!r}); the first traced show and typed 'ok'")


SCENARIOS = [("gedit", scenario_gedit), ("gtk-entry", scenario_gtk_entry), ("chromium", scenario_chromium),
             ("firefox", scenario_firefox), ("layouts", scenario_layouts), ("squeekboard", scenario_squeekboard),
             ("second", scenario_second)]


def main():
    binary = app_binary()

    def body(workdir):
        require_tools("foot", "wtype", "gedit", "chromium", "firefox-esr", "gdbus", "/usr/libexec/at-spi-bus-launcher")
        os.environ.setdefault("HEE_E2E_PORTS", "18500-18599")
        os.chmod(workdir, 0o755)
        with Sway(workdir, OUTPUT) as sway:
            pointer = VirtualPointer(sway.socket)
            # Another virtual keyboard holds the seat first (its keymap has no keys at all).
            rig = Apps(binary, workdir, sway, pointer)
            rig.holder = KeyboardHolder(sway)
            def after():
                for proc in rig.procs:
                    if proc is not getattr(rig, "atspi", None) and proc.poll() is None:
                        kill_group(proc)
            try:
                failed = run_each(SCENARIOS, "HEE_WAYLAND_APPS_ONLY", lambda scenario: scenario(rig, {}), after)
            finally:
                rig.close()
                rig.holder.close()
                pointer.close()
            if failed:
                fail(f"{failed} scenario(s) failed")
    return script_main(body, prefix="hee-wayland-apps-", keep_variable="HEE_WAYLAND_KEEP", skip_missing=True)


if __name__ == "__main__":
    sys.exit(main())
