#!/usr/bin/env python3
"""Press → first sample when the press is a real touch (issue 19), for `make bench`.

A touch screen cannot announce a press by moving a pointer over the window first, so the first
touch after a pause finds the audio device as the pause left it. Method as
bench/sound_latency.py (a private PulseAudio or PipeWire + WirePlumber + pipewire-pulse with a
null sink, recorded by `parec` in 128-frame fragments in a thread that stamps each chunk with
its arrival time; a press's figure is the arrival of the chunk holding the first non-zero sample
after the press, an upper bound, with the "in-chunk" lower estimate beside it), but the press
is a finger: weston headless with our hee-touch module (Tests/touch, see
Tests/e2e/touch_support.py), the app native on Wayland, the press time taken just before the
`down` command is written to the module's FIFO (so weston's handling and the Wayland delivery
are part of the measured path, as the X server's delivery of a click is in sound_latency.py).

Scenarios per server (the finger lifts 60 ms after it lands; presses on the へぇ key):
  - steady: touches 1 s apart (the device never idle);
  - first touch after the 3 s suspend: touches 4.2 s apart (3 s after the 0.85 s clip has
    ended the app suspends its audio, so every touch is the first after a pause);
  - first touch after 12 s: touches 12 s apart (fewer of them);
then the idle CPU of the app and of the server's processes over 10 s (recorder stopped).

    python3 bench/touch_sound_latency.py [--quick] [--label NAME] [--env VAR=VALUE ...]

prints the figures (and, with --json FILE, writes them); `run_bench.py` calls `measure`.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import sound_servers  # noqa: E402
from sound_latency import cpu_percent, latencies  # noqa: E402
from touch_support import HeeWindow, Touch, Weston, build_module, centre  # noqa: E402

STEADY_GAP = 1.0
SUSPEND_GAP = 4.2
LONG_GAP = 12.0
IDLE_SECONDS = 10
HOLD = 0.06


class TouchedApp:
    """The app on weston (Wayland), its trace read in a thread."""

    def __init__(self, app, server, weston, work, extra_env):
        env = server.client_env(dict(os.environ))
        for key in ("SDL_AUDIODRIVER", "SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_SOCKET"):
            env.pop(key, None)
        env.update(WAYLAND_DISPLAY=weston.socket, LANG="C", XDG_CONFIG_HOME=os.path.join(work, "config"))
        env.update(extra_env)
        self.proc = subprocess.Popen([app, "--trace"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        self.events, self.lock = [], threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        self.layout = self.wait(lambda e: e.get("event") == "layout")
        self.audio = self.wait(lambda e: e.get("event") == "audio")
        window = HeeWindow.locate(weston, "wayland", self.proc.pid, self.layout["window"])
        self.touch = Touch(weston, window)
        self.hee = centre(self.layout["keys"]["hee"])
        # On the output: the へぇ key's pixels are the app's (kiosk-shell's background is black).
        shot = os.path.join(work, "shot.ppm")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            weston.shot(shot)
            with open(shot, "rb") as f:
                data = f.read()
            width = int(data.split()[1])
            offset = len(data) - width * int(data.split()[2]) * 3
            x, y = window.to_output(self.hee)
            i = offset + (int(y) * width + int(x)) * 3
            if sum(data[i:i + 3]) > 100:
                return
            time.sleep(0.05)
        raise RuntimeError("the app's window never showed on weston's output")

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            with self.lock:
                self.events.append(json.loads(raw))

    def wait(self, predicate, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for e in self.events:
                    if predicate(e):
                        return e
            time.sleep(0.02)
        raise RuntimeError("the app did not trace what was waited for")

    def count(self, kind, **fields):
        with self.lock:
            return sum(1 for e in self.events if e.get("event") == kind and all(e.get(k) == v for k, v in fields.items()))

    def stop(self):
        try:
            os.killpg(self.proc.pid, 15)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=5)


def touches(app, n, gap):
    """n touches on へぇ, `gap` s apart; returns the press times."""
    times = []
    for i in range(n):
        time.sleep(gap - HOLD if i else 0.5)
        t0 = time.monotonic()
        app.touch.down(1, app.hee)
        times.append(t0)
        time.sleep(HOLD)
        app.touch.up(1)
    time.sleep(1.0)
    return times


def measure_server(kind, app_path, module, n, stats, label, extra_env):
    figures = {}
    clip, _ = sound_servers.load_clip(os.path.join(ROOT, "sounds", "hee.wav"))
    work = tempfile.mkdtemp(prefix="hee-bench-touch-sound-")
    server = kind(os.path.join(work, "server"))
    server.start()
    recorder = server.record()
    name = server.name
    try:
        with Weston(work, module) as weston:
            app = TouchedApp(app_path, server, weston, work, extra_env)
            driver = app.audio.get("driver")
            for scenario, gap, count in (("steady", STEADY_GAP, n), ("first touch after the 3 s suspend", SUSPEND_GAP, n),
                                         ("first touch after 12 s", LONG_GAP, max(n // 4, 3))):
                sounds_before = app.count("sound")
                presses = touches(app, count, gap)
                upper, lower, intact = latencies(recorder, presses, clip)
                key = "touch→first sample, %s, %s%s ms" % (name, scenario, label)
                figures[key] = stats(upper)
                figures[key + " (in-chunk estimate)"] = stats(lower)
                if figures[key] is not None:
                    figures[key].update(sound_lines=app.count("sound") - sounds_before, clips_intact=intact, driver=driver)
            time.sleep(4.0)  # past the suspend
            recorder.stop()
            time.sleep(1)
            cpu = cpu_percent([app.proc.pid] + [p.pid for p in server.procs], IDLE_SECONDS)
            figures["idle CPU %s after touches%s: app / server %%" % (name, label)] = {"app": cpu[0], "server": sum(cpu[1:])}
            app.stop()
    finally:
        recorder.stop()
        server.close()
    return figures


def measure(app_path, stats, quick=False, label="", extra_env=None):
    """All figures, for every sound server whose tools are here (others skipped, named)."""
    module = build_module()
    figures = {}
    for kind in sound_servers.SERVERS:
        missing = kind.missing_tools()
        if missing:
            print("bench: %s skipped, missing %s" % (kind.name, ", ".join(missing)), file=sys.stderr)
            continue
        figures.update(measure_server(kind, app_path, module, 5 if quick else 20, stats, label, extra_env or {}))
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--label", default="")
    parser.add_argument("--env", action="append", default=[], help="VAR=VALUE for the app")
    parser.add_argument("--json")
    args = parser.parse_args()
    app = os.environ.get("HEE_APP", os.path.join(ROOT, ".build/release/HeeApp"))

    def stats(values):
        v = sorted(values)
        if not v:
            return None
        p99 = v[min(len(v) - 1, int(round((len(v) - 1) * 0.99)))]
        return {"min": v[0], "median": statistics.median(v), "p99": p99, "max": v[-1], "n": len(v)}
    label = f", {args.label}" if args.label else ""
    figures = measure(app, stats, args.quick, label, dict(e.split("=", 1) for e in args.env))
    load = os.getloadavg()
    for key, s in figures.items():
        if s and "median" in s:
            print("%-88s %6.1f %6.1f %6.1f %6.1f  n %d" % (key, s["min"], s["median"], s["p99"], s["max"], s["n"]))
        else:
            print("%-88s %s" % (key, s))
    print("# load average %.1f %.1f %.1f" % load)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"figures": figures, "load": load}, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
