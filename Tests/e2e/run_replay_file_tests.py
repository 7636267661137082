#!/usr/bin/env python3
"""Replays every fixed file in Tests/e2e/replay (issue 12) and checks two things:

1. Expectations written in the file itself. A file names the trace events it is about and
   lists them, in order, without `t`:

       # expect-kinds: touch shift text
       # expect: {"event":"touch","key":"shift","down":true}
       ...

   The trace's events of those kinds must equal the `# expect:` lines exactly. Also:
   `# expect-t: KIND T1 T2 ...` the times (seconds) of every event of KIND (a replay's clock
   starts at 0 at the file's first event); `# args: ...` adds command-line arguments (e.g.
   `--size 600x900`).

2. Determinism: every trace line comes from the event that caused it, stamped with that
   event's time, so replaying the same file twice gives byte-identical traces. Each file is
   replayed twice (the second run competing with a CPU-bound process, so its frames fall at
   other moments), and a generated file with thousands of events (taps on every key, overlapping
   presses, typing, compositions, resizes, window events, backspace held across repeats) is
   replayed three times.

3. Recording: the first replay of each file also runs with `--record`, which writes every
   event the app received; replaying that recording must give the same trace, byte for byte,
   and it must hold the same kinds of records (this exercises the recording of every record
   type, compositions and window events included, which a live X session cannot all make).

Runs the app as `HeeApp --trace --replay FILE --exit-when-done` with SDL's offscreen video
driver and dummy audio (no display needed). Prints `ok - ...` per check; the first failure
prints `FAIL: ...` and exits 1 (2 for a missing binary).

Environment:
  HEE_APP              binary (default <repo>/.build/release/HeeApp)
  HEE_ASSETS           if set, pass `--assets DIR` to the app
  HEE_REPLAY_KEEP=1    keep the work directory after a pass
  HEE_REPLAY_EVENTS    events in the generated file (default 5000)
Standard-library Python 3 only.
"""

import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import REPO_ROOT, app_binary, ok, fail, kill_group, script_main  # noqa: E402
REPLAY_DIR = os.path.join(REPO_ROOT, "Tests", "e2e", "replay")
RUN_TIMEOUT = 60.0


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Context:
    def __init__(self, binary, workdir):
        self.binary = binary
        self.workdir = workdir
        assets = os.environ.get("HEE_ASSETS")
        self.asset_args = ["--assets", os.path.abspath(assets)] if assets else []

    def env(self):
        env = dict(os.environ)
        env.pop("GDK_SCALE", None)
        env.update(SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy",
                   XDG_CONFIG_HOME=os.path.join(self.workdir, "config"))
        return env

    def replay(self, path, args=(), label="", busy=False):
        """Runs the app on `path`; returns the trace's bytes. `busy`: a CPU-bound process
        competes with the app meanwhile."""
        command = [self.binary, "--trace", "--replay", path, "--exit-when-done", *self.asset_args, *args]
        hog = None
        if busy:
            hog = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        try:
            proc = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=RUN_TIMEOUT, env=self.env(), cwd=self.workdir)
        except subprocess.TimeoutExpired:
            fail(f"[{label}] the app did not exit within {RUN_TIMEOUT:.0f} s: {' '.join(command)}")
        finally:
            kill_group(hog)
        if proc.returncode != 0:
            fail(f"[{label}] exit status {proc.returncode}: {' '.join(command)}\n"
                 f"  stderr: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout


def events_of(trace):
    return [json.loads(line) for line in trace.decode("utf-8").splitlines()]


def first_difference(a, b):
    la, lb = a.decode("utf-8", "replace").splitlines(), b.decode("utf-8", "replace").splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {i + 1}:\n  first  {x[:300]}\n  second {y[:300]}"
    return f"the traces have {len(la)} and {len(lb)} lines (the first {min(len(la), len(lb))} agree)"


def check_identical(ctx, name, path, first, second):
    if first != second:
        for n, trace in (("1", first), ("2", second)):
            with open(os.path.join(ctx.workdir, f"{name}.trace{n}"), "wb") as f:
                f.write(trace)
        fail(f"[{name}] two replays of {path} gave different traces; {first_difference(first, second)}\n"
             f"  (both kept in {ctx.workdir})")


# --------------------------------------------------------------------------- fixed files

def parse_header(path):
    kinds, expected, args, times = None, [], [], {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("# expect-kinds:"):
                kinds = line.split(":", 1)[1].split()
            elif line.startswith("# expect-t:"):
                kind, *values = line.split(":", 1)[1].split()
                times[kind] = [float(v) for v in values]
            elif line.startswith("# expect:"):
                try:
                    expected.append(json.loads(line.split(":", 1)[1]))
                except json.JSONDecodeError as error:
                    fail(f"{path}:{number}: the expectation is not JSON: {error}")
            elif line.startswith("# args:"):
                args = line.split(":", 1)[1].split()
    return kinds, expected, args, times


def check_file(ctx, name):
    path = os.path.join(REPLAY_DIR, name)
    kinds, expected, args, times = parse_header(path)
    if not kinds or not expected:
        fail(f"{path} has no '# expect-kinds:' / '# expect:' lines: every fixed replay file states what it does")
    recording = os.path.join(ctx.workdir, name + ".recorded")
    first = ctx.replay(path, [*args, "--record", recording], label=name)
    second = ctx.replay(path, args, label=name, busy=True)
    actual = [{k: v for k, v in e.items() if k != "t"} for e in events_of(first) if e["event"] in kinds]
    if actual != expected:
        fail(f"[{name}] the trace's {'/'.join(kinds)} events differ from the file's expectations\n"
             f"  expected:\n    " + "\n    ".join(dumps(e) for e in expected)
             + "\n  actual:\n    " + "\n    ".join(dumps(e) for e in actual))
    ok(f"{name}: {len(expected)} {'/'.join(kinds)} events as the file expects")
    for kind, want in times.items():
        got = [e["t"] for e in events_of(first) if e["event"] == kind]
        if len(got) != len(want) or any(abs(a - b) > 1e-9 for a, b in zip(got, want)):
            fail(f"[{name}] times of the {kind} events: expected {want}, actual {got}")
        ok(f"{name}: {len(want)} {kind} events at t = {', '.join(map(str, want))} s, the times of their events")
    check_identical(ctx, name, path, first, second)
    ok(f"{name}: replayed twice (the second time beside a busy CPU) → byte-identical traces "
       f"({len(first.splitlines())} lines)")
    check_recording(ctx, name, path, recording, args, first)


def record_kinds(path):
    kinds = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                record = json.loads(line)
                kinds.add(record["type"] + ("/" + record["event"] if "event" in record else ""))
    return kinds


def check_recording(ctx, name, path, recording, args, trace):
    """`--record` during the replay of `path` wrote `recording`: it holds the same kinds of
    records, and replaying it gives the same trace as the original."""
    original, recorded = record_kinds(path), record_kinds(recording)
    missing = original - recorded
    if missing:
        fail(f"[{name}] the recording made while replaying {path} lacks {sorted(missing)} (it has {sorted(recorded)})")
    again = ctx.replay(recording, args, label=name + " (recorded)")
    check_identical(ctx, name + "-recorded", recording, trace, again)
    ok(f"{name}: recorded while replayed ({len(recorded)} kinds of record); replaying the recording gives the "
       f"same trace, byte for byte")


# --------------------------------------------------------------------------- thousands of events

def key_centres(ctx):
    empty = os.path.join(ctx.workdir, "empty.jsonl")
    open(empty, "w").close()
    layout = next(e for e in events_of(ctx.replay(empty, label="layout")) if e["event"] == "layout")
    return layout


def generate_long_file(path, layout, count, seed=12):
    """A long, varied replay: `count` events, times strictly from the file (the app's clock
    follows them), mixing every input kind the app reacts to."""
    rng = random.Random(seed)
    keys = layout["keys"]
    # Not return either: on the host screen it ends editing and the keyboard goes away for
    # good (only a click on the text field brings it back, and where such a click puts the
    # caret in a long text depends on how the field scrolled in the frames drawn, which a
    # busy machine skips). Return has its own replay file (layers-bubble-trackpad.jsonl).
    # Nor the globe key: it would switch to the kana pad, where these keys are not (the kana
    # pad's replays are files of their own, kana-*.jsonl).
    names = [k for k in keys if k not in ("textField", "closeKeyboard", "resetCount", "volumeDown", "volumeUp", "return",
                                          "🌐")]
    size = [layout["window"]["w"], layout["window"]["h"]]
    records = []
    t = 1000
    down = {}  # finger id → key name

    def centre(name, jitter=True):
        r = keys[name]
        dx = rng.uniform(-r["w"] / 4, r["w"] / 4) if jitter else 0
        dy = rng.uniform(-r["h"] / 4, r["h"] / 4) if jitter else 0
        scale_x, scale_y = size[0] / layout["window"]["w"], size[1] / layout["window"]["h"]
        return (r["x"] + r["w"] / 2 + dx) * scale_x, (r["y"] + r["h"] / 2 + dy) * scale_y

    def finger(kind, fid, name):
        x, y = centre(name)
        records.append({"t": t, "type": "finger" + kind, "finger": fid,
                        "x": round(min(max(x / size[0], 0), 1), 6), "y": round(min(max(y / size[1], 0), 1), 6)})

    while len(records) < count:
        # Now and then a pause long enough for the silent audio device to be suspended.
        t += rng.choice((0, 1, 5, 20, 40, 90, 250)) if rng.random() < 0.99 else 4500
        roll = rng.random()
        if roll < 0.45:
            # Fingers: press a free finger, or lift/move a held one (overlaps happen).
            if down and rng.random() < 0.55:
                fid = rng.choice(sorted(down))
                if rng.random() < 0.2:
                    finger("motion", fid, rng.choice(names))
                else:
                    finger("up", fid, down.pop(fid))
            else:
                fid = rng.randint(1, 4)
                name = rng.choice(names)
                down[fid] = name
                finger("down", fid, name)
        elif roll < 0.6:
            x, y = centre(rng.choice(names))
            records.append({"t": t, "type": "mousedown", "x": round(x), "y": round(y)})
            t += rng.choice((30, 60))
            records.append({"t": t, "type": "mouseup", "x": round(x), "y": round(y)})
        elif roll < 0.7:
            records.append({"t": t, "type": "textinput", "text": rng.choice(["a", "へぇ", "xyz ", "é", "🇯🇵"])})
        elif roll < 0.75:
            records.append({"t": t, "type": "keydown", "key": rng.choice(["Backspace", "Left", "Right", "Home", "End"])})
        elif roll < 0.8:
            for text in ("へ", "へん", ""):
                records.append({"t": t, "type": "textediting", "text": text, "start": len(text), "length": 0})
                t += 10
            if rng.random() < 0.5:
                records.append({"t": t, "type": "textinput", "text": "変"})
        elif roll < 0.84:
            size = [rng.choice([480, 520, 600, 700]), rng.choice([800, 850, 900])]
            for event in ("resized", "size_changed"):
                records.append({"t": t, "type": "window", "event": event, "w": size[0], "h": size[1]})
        elif roll < 0.88:
            event = rng.choice(["enter", "leave", "exposed", "shown", "focus_gained"])
            records.append({"t": t, "type": "window", "event": event})
        elif roll < 0.9:
            records.append({"t": t, "type": "window", "event": "moved", "x": rng.randint(0, 300), "y": rng.randint(0, 300)})
        elif roll < 0.92:
            # Minimized, resized meanwhile, restored.
            records.append({"t": t, "type": "window", "event": "minimized"})
            t += 200
            size = [rng.choice([480, 640]), rng.choice([800, 960])]
            records.append({"t": t, "type": "window", "event": "size_changed", "w": size[0], "h": size[1]})
            t += 200
            records.append({"t": t, "type": "window", "event": "restored"})
        elif roll < 0.95:
            # Backspace held across repeats (0.5 s, then every 0.1 s), sometimes to a tie.
            for fid in sorted(down):
                finger("up", fid, down.pop(fid))
            finger("down", 9, "backspace")
            t += rng.choice((400, 500, 700, 900, 2100))
            finger("up", 9, "backspace")
        else:
            # Three overlapping presses.
            letters = rng.sample([n for n in names if len(n) == 1], 3)
            for i, name in enumerate(letters):
                finger("down", 5 + i, name)
                t += rng.choice((10, 30))
            for i in rng.sample(range(3), 3):
                finger("up", 5 + i, letters[i])
                t += rng.choice((10, 30))
    for fid in sorted(down):
        finger("up", fid, down.pop(fid))
    with open(path, "w", encoding="utf-8") as f:
        for record in records:
            f.write(dumps(record) + "\n")
    return records


def check_long_file(ctx):
    count = int(os.environ.get("HEE_REPLAY_EVENTS", "5000"))
    layout = key_centres(ctx)
    path = os.path.join(ctx.workdir, "long.jsonl")
    records = generate_long_file(path, layout, count)
    recording = os.path.join(ctx.workdir, "long.recorded")
    started = time.monotonic()
    traces = [ctx.replay(path, ["--record", recording], label="long")]
    wall = time.monotonic() - started
    traces.append(ctx.replay(path, label="long", busy=True))
    traces.append(ctx.replay(path, label="long"))
    for n, trace in enumerate(traces[1:], 2):
        check_identical(ctx, f"long-run{n}", path, traces[0], trace)
    events = events_of(traces[0])
    kinds = {}
    for e in events:
        kinds[e["event"]] = kinds.get(e["event"], 0) + 1
    for needed in ("layout", "text", "touch", "hee", "shift", "keyboard", "composition", "sound", "audio",
                   "layer", "alternates"):
        if kinds.get(needed, 0) < 2:
            fail(f"[long] the generated replay produced too few {needed} events ({kinds}) to be a fair test")
    ok(f"long replay: {len(records)} events ({records[-1]['t'] / 1000:.0f} s of virtual time) replayed three "
       f"times → byte-identical traces of {len(events)} lines ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}); "
       f"{wall:.2f} s wall per run")
    check_recording(ctx, "long", path, recording, [], traces[0])


def main():
    def body(workdir):
        binary = app_binary()
        began = time.monotonic()
        ctx = Context(binary, workdir)
        files = sorted(f for f in os.listdir(REPLAY_DIR) if f.endswith(".jsonl"))
        if not files:
            fail(f"no replay files in {REPLAY_DIR}")
        print(f"# binary {binary}, {len(files)} replay files in {REPLAY_DIR}", flush=True)
        for name in files:
            check_file(ctx, name)
        check_long_file(ctx)
        print(f"# all replay-file checks passed in {time.monotonic() - began:.1f} s", flush=True)
    return script_main(body, prefix="hee-replay-files-", keep_variable="HEE_REPLAY_KEEP")


if __name__ == "__main__":
    sys.exit(main())
