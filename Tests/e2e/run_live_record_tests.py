#!/usr/bin/env python3
"""Issue 12: the recording of a live run replays to the same state.

The release binary runs under its own Xvfb with a real window manager (Debian's openbox, so
minimizing really iconifies the window) as `HeeApp --record rec.jsonl --trace`, driven by
xdotool: mouse clicks on the へぇ button, shift (a double click: caps lock) and letters, a
slide from one letter to another, backspace held long enough to repeat, physical typing,
Shift+click and a drag in the text field, Ctrl+V with a clipboard set by xclip, the window
resized, minimized, resized while minimized and restored, the keyboard closed and brought
back, then SIGTERM. The recording is replayed headless (`--replay rec.jsonl
--exit-when-done`, SDL's offscreen driver) and its state lines — `text`, `hee`, `shift`,
`keyboard`, `layout` (and `touch`, `composition`) — must equal the live run's, except `t`.

It also checks that every `layout` line of the live run carries the time of the window event
that changed the layout (also the one that came while the window was minimized), and that
the recording holds the window events of the run (minimized, restored, resized,
size_changed, moved, shown, hidden, exposed, enter, leave, focus).

Always starts its own Xvfb (first free display from :91) and openbox on it, each in its own
process group, with private XDG directories. Without Xvfb, xdotool, xclip or openbox the test
is skipped with one `SKIP - ...` line (under CI, CI=true or HEE_E2E_REQUIRE=1, it fails
instead). Prints `ok - ...` per check; a failure prints `FAIL: ...` and exits 1; a missing
binary exits 2.

Environment:
  HEE_APP            binary (default <repo>/.build/release/HeeApp)
  HEE_ASSETS         if set, pass `--assets DIR` to the app
  HEE_LIVE_KEEP=1    keep the work directory (recording, traces) after a pass
Standard-library Python 3 only.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import (app_binary, ok, fail, kill_group, missing_tool, script_main, start_xvfb,  # noqa: E402
                         wait_for_clipboard)
from run_replay_tests import LiveTrace, dumps  # noqa: E402  (the live trace reader)

HEE_TEXT = "へぇ〜"
STATE_KINDS = ("text", "hee", "shift", "keyboard", "layout", "touch", "composition")


class Trace(LiveTrace):
    """The live trace reader with this script's failure messages (trace lines cut at 200
    characters)."""

    def closed_message(self, what):
        return f"the app exited waiting for {what}\n" + self.last_lines()

    def timeout_message(self, what, timeout, since):
        return f"timed out waiting for {what}\n" + self.last_lines()

    def last_lines(self):
        return "last trace lines:\n  " + "\n  ".join(line[:200] for line in self.lines[-15:])


def centre(rect):
    return (rect["x"] + rect["w"] / 2, rect["y"] + rect["h"] / 2)


def state_lines(events):
    return [{k: v for k, v in e.items() if k != "t"} for e in events if e["event"] in STATE_KINDS]


class LiveRun:
    """The app under Xvfb + openbox, and the xdotool helpers that drive it."""

    def __init__(self, binary, workdir, asset_args):
        self.workdir = workdir
        self.xvfb = self.wm = self.app = self.clip = None
        self.xvfb, self.display = start_xvfb()
        home = os.path.join(workdir, "home")
        runtime = os.path.join(workdir, "runtime")
        os.makedirs(runtime, mode=0o700)
        self.env = dict(os.environ, DISPLAY=self.display, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"),
                        XDG_RUNTIME_DIR=runtime, SDL_AUDIODRIVER="dummy")
        for name in ("SDL_VIDEODRIVER", "GDK_SCALE", "WAYLAND_DISPLAY"):
            self.env.pop(name, None)
        with open(os.path.join(workdir, "openbox.log"), "wb") as log:
            self.wm = subprocess.Popen(["openbox", "--sm-disable"], env=self.env, stdin=subprocess.DEVNULL,
                                       stdout=log, stderr=log, start_new_session=True)
        self.wait(lambda: subprocess.run(["xdotool", "get_num_desktops"], env=self.env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL).returncode == 0, "openbox to manage the screen")
        self.record_path = os.path.join(workdir, "rec.jsonl")
        with open(os.path.join(workdir, "app-stderr.txt"), "wb") as err:
            self.app = subprocess.Popen([binary, "--record", self.record_path, "--trace", *asset_args], env=self.env,
                                        cwd=workdir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err,
                                        start_new_session=True)
        self.trace = Trace(self.app.stdout)
        self.layout = self.expect(0, lambda e: e["event"] == "layout", "the first layout", timeout=20)
        self.wid = None
        self.wait(self.find_window, "the app's window to be mapped")
        self.xdo("windowactivate", "--sync", self.wid)

    def wait(self, predicate, what, timeout=10.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return
            time.sleep(0.05)
        fail(f"timed out waiting for {what}")

    def find_window(self):
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "hee-keyboard"], env=self.env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().split()
        for candidate in found:
            pid = subprocess.run(["xdotool", "getwindowpid", candidate], env=self.env, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL).stdout.decode().strip()
            if pid == str(self.app.pid):
                self.wid = candidate
                return True
        return False

    def xdo(self, *args):
        proc = subprocess.run(["xdotool", *args], env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=10)
        if proc.returncode != 0:
            fail(f"xdotool {' '.join(args)} failed: {proc.stderr.decode().strip()}")
        return proc.stdout.decode().strip()

    def point(self, key):
        return centre(self.layout["keys"][key])

    def move(self, key, dx=0, dy=0):
        x, y = self.point(key)
        self.xdo("mousemove", "--window", self.wid, str(round(x + dx)), str(round(y + dy)))

    def click(self, key, repeat=1):
        self.move(key)
        if repeat == 1:
            self.xdo("click", "1")
        else:
            self.xdo("click", "--repeat", str(repeat), "--delay", "80", "1")

    def mark(self):
        """The number of trace events so far: later waits look only at what comes after."""
        self.trace.drain()
        return len(self.trace.events)

    def expect(self, since, predicate, what, timeout=10.0):
        """Waits for a trace event after `since` for which `predicate` holds."""
        return self.trace.wait_for(predicate, what, timeout, since)

    def text(self, since, text, what):
        return self.expect(since, lambda e: e["event"] == "text" and e["text"] == text, what)

    def recorded(self, event, after=0):
        """Waits until the recording holds window event `event` (after `after` records)."""
        def present():
            with open(self.record_path, encoding="utf-8") as f:
                lines = f.read().splitlines()[after:]
            return any(json.loads(line).get("event") == event for line in lines if line.strip())
        self.wait(present, f"a recorded {event} window event")

    def settle(self):
        """Waits until the window stays in one place for 0.3 s (openbox may move it back
        after a restore) and has the focus."""
        last, stable_since = None, time.monotonic()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            where = self.xdo("getwindowgeometry", self.wid)
            if where != last:
                last, stable_since = where, time.monotonic()
            elif time.monotonic() - stable_since >= 0.3:
                break
            time.sleep(0.05)
        self.xdo("windowactivate", "--sync", self.wid)

    def recorded_type(self, kind, after):
        """Waits until the recording holds a record of `kind` (after `after` records)."""
        def present():
            with open(self.record_path, encoding="utf-8") as f:
                lines = f.read().splitlines()[after:]
            return any(json.loads(line).get("type") == kind for line in lines if line.strip())
        self.wait(present, f"a recorded {kind}")

    def record_count(self):
        with open(self.record_path, encoding="utf-8") as f:
            return len([line for line in f if line.strip()])

    def close(self):
        for proc in (self.clip, self.app, self.wm, self.xvfb):
            kill_group(proc)


def drive(run):
    """The live session. Each step waits for the trace (or the recording) to show it."""
    m = run.mark()
    run.click("hee")
    run.expect(m, lambda e: e["event"] == "hee" and e["count"] == 1, "hee count 1")
    m = run.mark()
    run.click("shift", repeat=2)
    run.expect(m, lambda e: e["event"] == "shift" and e["state"] == "capsLock", "shift capsLock")
    m = run.mark()
    run.click("a")
    run.text(m, HEE_TEXT + "A", "'A' typed with caps lock")
    m = run.mark()
    run.click("shift")
    run.expect(m, lambda e: e["event"] == "shift" and e["state"] == "off", "shift off")
    # A slide: down on 'q', across to 'w', up there → 'w'.
    m = run.mark()
    run.move("q")
    run.xdo("mousedown", "1")
    run.move("q", dx=12)
    run.move("w")
    run.xdo("mouseup", "1")
    run.text(m, HEE_TEXT + "Aw", "the slide from q to w typing 'w'")
    ok("live: mouse on へぇ, caps lock by double click, 'A', shift off, a slide from q to w")

    # Backspace held long enough to repeat (0.5 s, then every 0.1 s).
    m = run.mark()
    run.move("backspace")
    run.xdo("mousedown", "1")
    time.sleep(0.75)
    run.xdo("mouseup", "1")
    run.expect(m, lambda e: e["event"] == "touch" and e["key"] == "backspace" and not e["down"], "backspace up")
    ok("live: backspace held 0.75 s (repeats)")

    # Physical typing, Shift+click and a drag in the text field, Ctrl+V with our clipboard.
    m = run.mark()
    run.xdo("type", "--delay", "40", "hello world")
    run.expect(m, lambda e: e["event"] == "text" and e["text"].endswith("hello world"), "typed 'hello world'")
    field = run.layout["keys"]["textField"]
    fx, fy = field["x"], field["y"] + field["h"] / 2
    m = run.mark()
    run.xdo("mousemove", "--window", run.wid, str(round(fx + 4)), str(round(fy)))
    run.xdo("click", "1")
    run.expect(m, lambda e: e["event"] == "text" and e["caret"] == 0, "a click at the start of the field")
    m = run.mark()
    run.xdo("keydown", "shift")
    run.xdo("mousemove", "--window", run.wid, str(round(fx + field["w"] - 4)), str(round(fy)))
    run.xdo("click", "1")
    run.xdo("keyup", "shift")
    run.expect(m, lambda e: e["event"] == "text" and e["caret"] == len(e["text"]), "Shift+click at the end")
    clip_text = "clip!"
    run.clip = subprocess.Popen(["xclip", "-selection", "clipboard", "-quiet"], env=run.env, stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    run.clip.stdin.write(clip_text.encode())
    run.clip.stdin.close()
    wait_for_clipboard(run.env, clip_text, run.clip)
    m = run.mark()
    run.xdo("key", "ctrl+v")
    run.text(m, clip_text, "Ctrl+V replacing the Shift+click selection with the clipboard")
    kill_group(run.clip)
    run.clip = None
    m = run.mark()
    run.xdo("key", "BackSpace")
    run.text(m, clip_text[:-1], "BackSpace")
    ok("live: typing, a click at the field's start, Shift+click selecting everything, Ctrl+V, BackSpace")

    # Resize; minimize; resize while minimized; restore.
    m = run.mark()
    run.xdo("windowsize", run.wid, "600", "900")
    run.expect(m, lambda e: e["event"] == "layout" and e["window"]["w"] == 600, "the layout at 600×900")
    before = run.record_count()
    run.xdo("windowminimize", "--sync", run.wid)
    run.recorded("minimized", after=before)
    m = run.mark()
    run.xdo("windowsize", run.wid, "520", "860")
    minimized_layout = run.expect(m, lambda e: e["event"] == "layout" and e["window"]["w"] == 520,
                                  "a layout for 520×860 while minimized")
    before = run.record_count()
    run.xdo("windowactivate", "--sync", run.wid)
    run.recorded("restored", after=before)
    run.recorded("exposed", after=before)
    run.settle()
    ok(f"live: resized to 600×900; minimized (iconified by openbox); resized to 520×860 while minimized → "
       f"layout at t={minimized_layout['t']}; restored")

    # The keyboard and keys after the restore; closing and reopening the keyboard.
    run.layout = minimized_layout
    m = run.mark()
    run.click("hee")
    run.expect(m, lambda e: e["event"] == "hee" and e["count"] == 2, "hee count 2 after the restore")
    m = run.mark()
    run.click("z")
    run.text(m, clip_text[:-1] + HEE_TEXT + "z", "'z' after the restore")
    m = run.mark()
    run.click("closeKeyboard")
    run.expect(m, lambda e: e["event"] == "keyboard" and e["status"] == "hide", "keyboard hidden")
    m = run.mark()
    before = run.record_count()
    run.click("textField")
    run.expect(m, lambda e: e["event"] == "keyboard" and e["status"] == "show", "keyboard shown again")
    # The app has handled everything sent to it once the recording holds that click's release:
    # the run can end there (no fixed wait).
    run.recorded_type("mouseup", after=before)
    ok("live: へぇ and 'z' after the restore; キーボードを閉じる and the text field bring the keyboard down and up")


def main():
    assets = os.environ.get("HEE_ASSETS")
    asset_args = ["--assets", os.path.abspath(assets)] if assets else []

    def body(workdir):
        began = time.monotonic()
        run = None
        try:
            missing = [tool for tool in ("Xvfb", "xdotool", "xclip", "openbox") if shutil.which(tool) is None]
            if missing:
                # Skipped on a developer's machine, a failure in CI (scripts/install-deps.sh has them).
                missing_tool(f"run_live_record_tests.py needs {', '.join(missing)} (a real window manager, so "
                             f"minimizing really iconifies; apt-get install {' '.join(missing).lower()})")
                return
            binary = app_binary()
            print(f"# binary {binary}, work dir {workdir}", flush=True)
            run = LiveRun(binary, workdir, asset_args)
            print(f"# Xvfb {run.display} with openbox, window {run.wid}", flush=True)
            drive(run)
            run.app.send_signal(signal.SIGTERM)
            try:
                rc = run.app.wait(timeout=10)
            except subprocess.TimeoutExpired:
                fail("the app did not exit within 10 s of SIGTERM")
            run.trace.thread.join(timeout=2)
            run.trace.drain()
            if rc != 0:
                fail(f"the live app exited with status {rc} after SIGTERM")
            live_events = run.trace.events
            with open(os.path.join(workdir, "live-trace.jsonl"), "w", encoding="utf-8") as f:
                f.write("\n".join(run.trace.lines) + "\n")
            record_path = run.record_path
            run.close()
            run = None

            with open(record_path, encoding="utf-8") as f:
                records = [json.loads(line) for line in f if line.strip()]
            window_events = {r["event"] for r in records if r["type"] == "window"}
            needed = {"minimized", "restored", "resized", "size_changed", "shown", "hidden", "exposed", "moved",
                      "enter", "leave", "focus_lost", "focus_gained"}
            if not needed <= window_events:
                fail(f"the recording lacks the window events {sorted(needed - window_events)} (it has {sorted(window_events)})")
            kinds = sorted({r["type"] for r in records})
            ok(f"recording: {len(records)} records ({', '.join(kinds)}); window events {', '.join(sorted(window_events))}")
            if not any(r["type"] == "keydown" and r.get("clipboard") == "clip!" for r in records):
                fail("the Ctrl+V keydown does not carry the clipboard it pasted")
            ok("recording: the Ctrl+V keydown carries the clipboard it pasted")

            # Every layout line carries the time of the size event that changed the layout.
            size_times = {r["t"] / 1000 for r in records if r.get("event") in ("resized", "size_changed")}
            layouts = [e for e in live_events if e["event"] == "layout"][1:]
            stray = [e["t"] for e in layouts if not any(abs(e["t"] - t) < 1e-6 for t in size_times)]
            if stray or len(layouts) < 2:
                fail(f"live layout lines at t={stray} carry no size event's time ({len(layouts)} layouts after the "
                     f"first; size events at {sorted(size_times)})")
            minimized_at = [r["t"] / 1000 for r in records if r.get("event") == "minimized"]
            restored_at = [r["t"] / 1000 for r in records if r.get("event") == "restored"]
            while_minimized = [e for e in layouts if any(m <= e["t"] <= r for m, r in zip(minimized_at, restored_at))]
            if not while_minimized:
                fail(f"no layout line while minimized (minimized {minimized_at}, restored {restored_at}, "
                     f"layouts at {[e['t'] for e in layouts]})")
            ok(f"live: each of the {len(layouts)} layout lines after launch has the time of its size event; "
               f"{len(while_minimized)} came while the window was minimized")

            env = dict(os.environ, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy",
                       XDG_CONFIG_HOME=os.path.join(workdir, "replay-config"))
            env.pop("GDK_SCALE", None)
            proc = subprocess.run([binary, "--trace", "--replay", record_path, "--exit-when-done", *asset_args], env=env,
                                  cwd=workdir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=60)
            with open(os.path.join(workdir, "replay-trace.jsonl"), "wb") as f:
                f.write(proc.stdout)
            if proc.returncode != 0:
                fail(f"the replay exited with {proc.returncode}: {proc.stderr.decode(errors='replace').strip()}")
            replayed = state_lines(json.loads(line) for line in proc.stdout.decode().splitlines())
            live = state_lines(live_events)
            if replayed != live:
                first = next((i for i, (a, b) in enumerate(zip(live, replayed)) if a != b), min(len(live), len(replayed)))
                fail(f"the replay's state lines differ from the live run's from line {first + 1} "
                     f"({len(live)} live, {len(replayed)} replayed):\n  live:     "
                     + "\n            ".join(dumps(e)[:200] for e in live[max(first - 2, 0):first + 3])
                     + "\n  replayed: " + "\n            ".join(dumps(e)[:200] for e in replayed[max(first - 2, 0):first + 3]))
            counts = {}
            for e in live:
                counts[e["event"]] = counts.get(e["event"], 0) + 1
            ok(f"replay of the recording: its {len(live)} state lines ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}) "
               f"equal the live run's, except t")
            # The recording starts at time 0, so the replay's clock runs as the live run's did:
            # after the launch, each state line has its event's time in both (a key repeat or
            # the keyboard's slide settling its scheduled time, not when the loop woke up).
            def times(events):
                events = list(events)
                launch = events[0]["t"]  # the settings line; layout and keyboard come with it
                return [e["t"] for e in events if e["event"] in STATE_KINDS and e["t"] != launch]
            live_t = times(live_events)
            replay_t = times(json.loads(line) for line in proc.stdout.decode().splitlines())
            off = [(a, b) for a, b in zip(live_t, replay_t) if abs(a - b) > 0.005]
            if off or len(live_t) != len(replay_t):
                fail(f"state lines after the launch with other times in the replay (live, replayed): {off[:10]}")
            exact = sum(1 for a, b in zip(live_t, replay_t) if a == b)
            ok(f"replay of the recording: the {len(live_t)} state lines after the launch have the live run's times "
               f"({exact} to the millisecond)")
            print(f"# passed in {time.monotonic() - began:.1f} s", flush=True)
        finally:
            if run is not None:
                run.close()
    return script_main(body, prefix="hee-live-record-", keep_variable="HEE_LIVE_KEEP")


if __name__ == "__main__":
    sys.exit(main())
