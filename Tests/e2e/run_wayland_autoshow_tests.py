#!/usr/bin/env python3
"""End-to-end tests of auto-show on Wayland (issue 30): `HeeApp --system --auto-show` docked in
sway's headless backend (as in run_wayland_system_tests.py: the user `hee-wayland`, our own
virtual pointer, wtype holding the seat's keyboard) beside a GTK 3 window (GDK_BACKEND=wayland,
Tests/e2e/targets/gtk_focus.py) of entries of each input purpose and a button, whose focus the
test moves as a click or Tab would. What the keyboard hears is sway's input-method-v2 events
for GTK's text-input-v3; the keyboard's own layout (LAYOUT) has a `hide` key.

Scenarios (each runs even if an earlier one failed; they share the window and the keyboard):
  start     the button has the focus when the keyboard starts: it starts hidden, with no flash:
            over START_WATCH seconds no `keyboard` line, the workspace the whole output at every
            look, and in its own protocol log (WAYLAND_DEBUG=1) no buffer ever attached to
            a surface and the layer surface's role destroyed before the first frame
  purposes  each entry focused in turn (free, email, number, phone, url, password, pin): the
            first shows the keyboard (`keyboard show`, the exclusive zone reserved, the keyboard
            drawn, its first buffer attached only now); each traces its `context` line (the purpose; `secure` for password and PIN),
            and the keyboard never hides in between (sway's deactivate + done, activate + done)
  button    the button focused: `context` inactive, then `keyboard hide` no sooner than 250 ms
            later, the whole output the workspace's again; hidden, the keyboard uses no CPU
            time at all over IDLE_SECONDS (/proc/PID/stat)
  hide-key  an entry focused, the `hide` key clicked: hidden, and it stays hidden 1 s while the
            entry keeps the focus; the same entry focused again (through the button, within the
            hold) shows it
  terminal  the button focused (hidden), then foot: context purpose `terminal`, shown and drawn
  secrets   no entry's text appears anywhere in the trace

Prints `ok - ...` per check and `not ok - SCENARIO: message` per failed scenario with each
scenario's wall time; exits 1 if any failed, 2 when a prerequisite is missing (a skip with one
line outside CI). Environment: HEE_APP, HEE_WAYLAND_KEEP=1 (keep the work directory),
HEE_WAYLAND_AUTOSHOW_ONLY (comma-separated scenario names), HEE_WAYLAND_AUTOSHOW_SCREENSHOT=PATH
(grim's PNG of the output once the free-form entry showed the keyboard: docs/system-mode-autoshow.png).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Prerequisite, app_binary, fail, kill_group, ok, script_main  # noqa: E402
from run_e2e import Trace, is_event  # noqa: E402
from run_wayland_system_tests import OUTPUT, OUTPUT_HEIGHT, TARGETS, Rig, read, wait_until  # noqa: E402
from wayland_support import KeyboardHolder, Sway, VirtualPointer, run_each  # noqa: E402

TIMEOUT = 15.0                # safety nets for waits, never what is checked
HOLD = 0.25                   # AutoShow.hideDelay, seconds
IDLE_SECONDS = 5              # how long the hidden keyboard's CPU time is watched
START_WATCH = 1.0             # how long the keyboard started with no field is watched (4 holds)
ATTACH = re.compile(r"-> wl_surface@\d+\.attach\(wl_buffer@")
PURPOSES = [("free", "normal"), ("email", "email"), ("number", "number"), ("phone", "phone"), ("url", "url"),
            ("password", None), ("pin", None)]
LAYOUT = {"name": "hide-test", "columns": 10, "layers": [{"name": "letters", "rows": [
    ["hee"], ["q", "w", "e", "r", "t", "y", "u", "i", "o", "p"], ["a", "s", "d", "f", "g", "h", "j", "k", "l"],
    [{"key": "shift", "width": 1.5}, "z", "x", "c", "v", "b", "n", "m", {"key": "backspace", "width": 1.5}],
    [{"key": "hide", "width": 1.5}, {"key": "space", "width": "fill"}, {"key": "return", "width": 2}]]}]}


class Fields:
    """The GTK window of entries, driven through its stdin."""

    def __init__(self, rig):
        log = open(os.path.join(rig.workdir, "gtk-focus.log"), "wb")
        self.proc = subprocess.Popen(["/usr/bin/python3", os.path.join(TARGETS, "gtk_focus.py"), "auto-show fields"],
                                     env=rig.env(GDK_BACKEND="wayland"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=log, start_new_session=True, text=True, bufsize=1)
        rig.procs.append(self.proc)
        if self.proc.stdout.readline().strip() != "ready":
            fail(f"the GTK window did not start: {read(os.path.join(rig.workdir, 'gtk-focus.log'))[-300:]}")
        window = rig.sway.wait_for_window(self.proc.pid, alive=lambda: self.proc.poll() is None)
        if window is None:
            fail("the GTK window did not map")
        wait_until(lambda: rig.focused()[0] == self.proc.pid, "the GTK window to have the focus")

    def focus(self, name):
        self.proc.stdin.write(f"focus {name}\n")
        answer = self.proc.stdout.readline().strip()
        if answer != f"focused {name}":
            fail(f"the GTK window answered {answer!r} to focus {name}")


def cpu_ticks(pid):
    """utime + stime of `pid` (every thread), in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def workspace_height(rig):
    return [w for w in rig.sway._ipc(1) if w.get("focused")][0]["rect"]["height"]


def keyboard_lines(trace, since=0):
    return [e for e in trace.events[since:] if e["event"] == "keyboard"]


def scenario_start(rig, state):
    config = os.path.join(rig.workdir, "config", "hee-keyboard", "layouts")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "hide-test.json"), "w") as f:
        json.dump(LAYOUT, f)
    os.chmod(rig.workdir, 0o755)
    state["fields"] = fields = Fields(rig)
    fields.focus("button")
    started = time.monotonic()
    proc, trace, layout, err = rig.keyboard("auto-show", ["--auto-show", "--layout", "hide-test"], drawn=False,
                                            wayland_debug="1")
    state.update(proc=proc, trace=trace, layout=layout, err=err)
    looks = 0
    watch_end = time.monotonic() + START_WATCH
    while time.monotonic() < watch_end:
        if workspace_height(rig) != OUTPUT_HEIGHT:
            fail(f"the workspace lost the keyboard's height {time.monotonic() - started:.2f} s after the start")
        looks += 1
        time.sleep(0.02)
    trace.drain()
    lines = keyboard_lines(trace)
    if lines:
        fail(f"the keyboard started with no field focused traced {lines}")
    log = read(err)
    attached = [line for line in log.splitlines() if ATTACH.search(line)]
    if attached:
        fail(f"a buffer went to the compositor with no field focused: {attached[0].strip()}")
    if "zwlr_layer_surface_v1@" not in log or not re.search(r"-> zwlr_layer_surface_v1@\d+\.destroy\(\)", log):
        fail("the protocol log shows no layer surface made and destroyed (WAYLAND_DEBUG not honoured?)")
    ok(f"no field focused at the start: hidden from the start, no `keyboard` line, no buffer attached, "
       f"the workspace the whole output at {looks} looks over {START_WATCH} s")


def need(state):
    if "trace" not in state:
        fail("needs the start scenario")
    return state["fields"], state["trace"], state["layout"]


def scenario_purposes(rig, state):
    fields, trace, layout = need(state)
    first = len(trace.events)
    for name, purpose in PURPOSES:
        since = len(trace.events)
        fields.focus(name)
        if purpose is None:
            line = trace.wait_for(lambda e: e["event"] == "context" and e.get("active") and e.get("secure"),
                                  f"{name}'s context line (secure)", TIMEOUT, since=since)
            if "purpose" in line or "hints" in line:
                fail(f"{name}: a secure field's context line names more than it may: {line}")
        else:
            line = trace.wait_for(lambda e: e["event"] == "context" and e.get("active") and e.get("purpose") == purpose,
                                  f"{name}'s context line (purpose {purpose})", TIMEOUT, since=since)
        if name == "free":
            trace.wait_for(is_event("keyboard", status="show"), "the keyboard to show", TIMEOUT, since=since)
            wait_until(lambda: workspace_height(rig) == OUTPUT_HEIGHT - layout["window"]["h"],
                       "the exclusive zone to be reserved")
            rig.wait_drawn(layout)
            if not any(ATTACH.search(line) for line in read(state["err"]).splitlines()):
                fail("drawn, yet no buffer attached in the protocol log")
            shot = os.environ.get("HEE_WAYLAND_AUTOSHOW_SCREENSHOT")
            if shot:  # docs/system-mode-autoshow.png: the keyboard over the focused GTK entry
                subprocess.run(["grim", os.path.abspath(shot)], env=rig.env(), check=True, timeout=TIMEOUT)
            ok("the free-form entry focused: `keyboard show`, the exclusive zone reserved, the keyboard drawn "
               "(its first buffer)")
        ok(f"{name}: context {json.dumps({k: v for k, v in line.items() if k not in ('event', 't')})}")
    time.sleep(2 * HOLD)
    hides = [e for e in keyboard_lines(trace, first) if e["status"] == "hide"]
    if hides:
        fail(f"the keyboard hid between two entries: {hides}")
    ok(f"entry → entry ({len(PURPOSES)} entries): never hidden in between")


def scenario_button(rig, state):
    fields, trace, layout = need(state)
    since = len(trace.events)
    fields.focus("button")
    inactive = trace.wait_for(is_event("context", active=False), "the button's context line (inactive)", TIMEOUT, since=since)
    hidden = trace.wait_for(is_event("keyboard", status="hide"), "the keyboard to hide", TIMEOUT, since=since)
    # Both lines' `t` are rounded to 1 ms, and the context line is stamped when written, a
    # little after the input method's done that the hold counts from: a few ms of slack.
    if hidden["t"] - inactive["t"] < HOLD - 0.005:
        fail(f"hidden {hidden['t'] - inactive['t']:.3f} s after the field went away, before the {HOLD} s hold")
    wait_until(lambda: workspace_height(rig) == OUTPUT_HEIGHT, "the exclusive zone to be released")
    ok(f"the button focused: hidden {hidden['t'] - inactive['t']:.3f} s after `context` inactive, exclusive zone released")
    pid = state["proc"].pid
    before = cpu_ticks(pid)
    time.sleep(IDLE_SECONDS)
    used = cpu_ticks(pid) - before
    if used > 0:
        fail(f"hidden, the keyboard used {used} clock ticks of CPU in {IDLE_SECONDS} s")
    ok(f"hidden: 0 clock ticks of CPU over {IDLE_SECONDS} s (0.0 %)")


def scenario_hide_key(rig, state):
    fields, trace, layout = need(state)
    since = len(trace.events)
    fields.focus("email")
    trace.wait_for(is_event("keyboard", status="show"), "the keyboard to show for the email entry", TIMEOUT, since=since)
    rig.wait_drawn(layout)
    since = len(trace.events)
    rig.click_key(layout, "hide")
    trace.wait_for(is_event("keyboard", status="hide"), "the hide key to hide the keyboard", TIMEOUT, since=since)
    wait_until(lambda: workspace_height(rig) == OUTPUT_HEIGHT, "the exclusive zone to be released")
    if any(e["event"] == "send" for e in trace.events[since:]):
        fail(f"the hide key typed something: {[e for e in trace.events[since:] if e['event'] == 'send']}")
    time.sleep(1.0)
    if any(e["status"] == "show" for e in keyboard_lines(trace, since)):
        fail("the keyboard came back while the entry kept the focus")
    ok("the hide key: hidden, nothing typed, still hidden 1 s later while the entry keeps the focus")
    since = len(trace.events)
    fields.focus("button")
    fields.focus("email")
    trace.wait_for(is_event("keyboard", status="show"), "the same entry focused again to show it", TIMEOUT, since=since)
    ok("the same entry focused again: shown")


def scenario_secrets(rig, state):
    fields, trace, layout = need(state)
    time.sleep(0.2)
    leaked = [e for e in trace.events if "-text-7391" in json.dumps(e, ensure_ascii=False)]
    if leaked:
        fail(f"a field's text is in the trace: {leaked[:3]}")
    contexts = sum(1 for e in trace.events if e["event"] == "context")
    ok(f"no field's text in the trace ({len(trace.events)} lines, {contexts} context lines)")


def scenario_terminal(rig, state):
    fields, trace, layout = need(state)
    since = len(trace.events)
    fields.focus("button")
    trace.wait_for(is_event("keyboard", status="hide"), "the keyboard to hide (the button)", TIMEOUT, since=since)
    since = len(trace.events)
    foot, path, window = rig.foot("terminal")
    rig.click_window(window)
    wait_until(lambda: rig.focused()[0] == foot.pid, "foot to have the focus")
    trace.wait_for(lambda e: e["event"] == "context" and e.get("active") and e.get("purpose") == "terminal",
                   "foot's context line (purpose terminal)", TIMEOUT, since=since)
    trace.wait_for(is_event("keyboard", status="show"), "the keyboard to show for foot", TIMEOUT, since=since)
    rig.wait_drawn(layout)
    ok("foot focused: context purpose terminal, the keyboard shown and drawn")


SCENARIOS = [("start", scenario_start), ("purposes", scenario_purposes), ("button", scenario_button),
             ("hide-key", scenario_hide_key), ("terminal", scenario_terminal), ("secrets", scenario_secrets)]


def main():
    binary = app_binary()

    def body(workdir):
        for tool in ("wtype", "foot"):
            if shutil.which(tool) is None:
                raise Prerequisite(f"{tool} not found (apt-get install wtype foot)")
        probe = subprocess.run(["/usr/bin/python3", "-c", "import gi; gi.require_version('Gtk', '3.0')"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if probe.returncode != 0:
            raise Prerequisite("GTK 3 for /usr/bin/python3 not found (apt-get install python3-gi gir1.2-gtk-3.0)")
        started = time.monotonic()
        os.chmod(workdir, 0o755)
        with Sway(workdir, OUTPUT) as sway:
            pointer = VirtualPointer(sway.socket)
            holder = KeyboardHolder(sway)
            rig = Rig(binary, workdir, sway, pointer)
            state = {}
            try:
                failed = run_each(SCENARIOS, "HEE_WAYLAND_AUTOSHOW_ONLY", lambda scenario: scenario(rig, state), lambda: None)
            finally:
                rig.close()
                holder.close()
                pointer.close()
            print(f"# auto-show suite: {time.monotonic() - started:.1f} s", flush=True)
            if failed:
                fail(f"{failed} scenario(s) failed")
    return script_main(body, prefix="hee-wayland-autoshow-", keep_variable="HEE_WAYLAND_KEEP", skip_missing=True)


if __name__ == "__main__":
    sys.exit(main())
