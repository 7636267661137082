"""press→first sample through real sound servers, for `make bench` (issue 10).

For PulseAudio and for PipeWire (+ WirePlumber + pipewire-pulse), each started privately
with a null sink `hee` as the default output (Tests/e2e/sound_servers.py):

Method: one Python process clicks the へぇ button with XTEST (python-xlib: XTestFakeButtonEvent
then XSync, the click time taken just before, time.monotonic()) and reads `parec` on the
sink's monitor in a thread, stamping every chunk with its arrival time (same clock). A press's
figure is the arrival time of the chunk holding the first non-zero sample after the click,
minus the click time. parec asks for 128-frame fragments (2.7 ms at 48 kHz), the app's own
buffer, so that it never makes the server run faster than the app alone would. Error: the
figure is an upper bound — it includes the monitor's delivery to parec and to the reading
thread (up to one fragment, 2.7 ms, plus scheduling); the "in-chunk" variant, which assumes the
chunk's frames arrived as fast as they play, is a lower estimate. The X server's delivery of
the click to the app (well under 1 ms on Xvfb) is part of the path measured. A null sink has no
hardware buffer: a sound card adds its own latency after this point.

Scenarios (presses ≥ 20 each, pointer resting on the key unless said):
  - steady: presses 1 s apart, the device open;
  - after suspend: presses 4.2 s apart (the device is closed after 3 s of silence once the
    0.85 s clip has ended), so each press reopens it;
  - after suspend, pointer arriving: the same, but the pointer leaves the window after each
    press and comes back onto the key 150 ms before the next press (the app reopens a
    suspended device when the mouse moves over its window);
  - kept open (HEE_AUDIO_IDLE=keep): presses 4.2 s apart, the device never suspended.
Idle CPU of the app and of the server's processes (10 s, /proc ticks) with the device
suspended (default) and kept open. Each press must trace `sound`; the clip's integrity in the
recording (sound_servers.match) is counted too.
"""
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))
import sound_servers  # noqa: E402
from Xlib import X, display as xdisplay  # noqa: E402
from Xlib.ext import xtest  # noqa: E402

STEADY_GAP = 1.0
SUSPEND_GAP = 4.2
IDLE_SECONDS = 10


class TracedApp:
    def __init__(self, app, server, display, work, extra_env=None):
        env = server.client_env(dict(os.environ))
        for key in ("SDL_AUDIODRIVER", "SDL_VIDEODRIVER", "WAYLAND_DISPLAY"):
            env.pop(key, None)
        env.update(DISPLAY=display, LANG="C", XDG_CONFIG_HOME=os.path.join(work, "config"))
        env.update(extra_env or {})
        self.proc = subprocess.Popen([app, "--trace"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        self.lines = queue.Queue()
        self.events = []
        threading.Thread(target=self._read, daemon=True).start()
        self.layout = self.wait("layout")
        if not any(e.get("event") == "audio" for e in self.events):
            self.wait("audio")
        self.audio = next(e for e in self.events if e.get("event") == "audio")

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put(json.loads(raw))

    def drain(self):
        while True:
            try:
                self.events.append(self.lines.get_nowait())
            except queue.Empty:
                return

    def wait(self, kind, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                event = self.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            self.events.append(event)
            if event.get("event") == kind:
                return event
        raise RuntimeError("the app sent no %s event" % kind)

    def count(self, kind, **fields):
        self.drain()
        return sum(1 for e in self.events if e.get("event") == kind and all(e.get(k) == v for k, v in fields.items()))

    def stop(self):
        try:
            os.killpg(self.proc.pid, 15)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=5)


def key_centre(app, display):
    """Screen position of the へぇ key: the window is centred on an Xvfb without a window manager."""
    screen = display.screen()
    w, h = app.layout["window"]["w"], app.layout["window"]["h"]
    r = app.layout["keys"]["hee"]
    return int((screen.width_in_pixels - w) // 2 + r["x"] + r["w"] / 2), int((screen.height_in_pixels - h) // 2 + r["y"] + r["h"] / 2)


def presses(d, target, n, gap, arriving=False):
    """Clicks n times, `gap` s apart; returns the click times."""
    clicks = []
    for i in range(n):
        if arriving:
            xtest.fake_input(d, X.MotionNotify, x=5, y=5)  # outside the window
            d.sync()
            time.sleep(max(gap - 0.15 - 0.06, 0.1))
            for step in range(5, 0, -1):  # onto the key over 100 ms
                xtest.fake_input(d, X.MotionNotify, x=target[0] - 40 * step, y=target[1])
                d.sync()
                time.sleep(0.02)
            xtest.fake_input(d, X.MotionNotify, x=target[0], y=target[1])
            d.sync()
            time.sleep(0.05)
        else:
            time.sleep(gap - 0.06 if i else 0.3)
        t0 = time.monotonic()
        xtest.fake_input(d, X.ButtonPress, 1)
        d.sync()
        clicks.append(t0)
        time.sleep(0.06)
        xtest.fake_input(d, X.ButtonRelease, 1)
        d.sync()
    time.sleep(1.0)
    return clicks


def latencies(recorder, clicks, clip):
    upper, lower, intact = [], [], 0
    recorded, times, ends = recorder.samples()
    import bisect
    for c in clicks:
        k = bisect.bisect_right(times, c)
        i = ends[k - 1] if k > 0 else 0
        while i < len(recorded) and recorded[i] == 0:
            i += 1
        if i >= len(recorded):
            continue
        j = bisect.bisect_right(ends, i)
        upper.append((times[j] - c) * 1000)
        lower.append((times[j] - (ends[j] - i) / sound_servers.RATE - c) * 1000)
        matched, _ = sound_servers.match(recorded, i, clip)
        intact += matched >= 0.75
    return upper, lower, intact


def cpu_percent(pids, seconds):
    hz = os.sysconf("SC_CLK_TCK")

    def ticks(pid):
        fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    before = [ticks(p) for p in pids]
    time.sleep(seconds)
    return [(ticks(p) - b) / hz / seconds * 100 for p, b in zip(pids, before)]


def idle_cpu(app, server, recorder):
    """CPU of the app and of the server's processes over IDLE_SECONDS, with the recorder
    stopped meanwhile (recording is work for the server too). Returns the new recorder."""
    recorder.stop()
    time.sleep(1)
    cpu = cpu_percent([app.proc.pid] + [p.pid for p in server.procs], IDLE_SECONDS)
    return {"app": cpu[0], "server": sum(cpu[1:])}, server.record()


def measure_server(kind, app_path, display_name, n, stats):
    """Figures for one server, keyed by name."""
    figures = {}
    clip, _ = sound_servers.load_clip(os.path.join(ROOT, "sounds", "hee.wav"))
    work = tempfile.mkdtemp(prefix="hee-bench-sound-")
    server = kind(os.path.join(work, "server"))
    server.start()
    recorder = server.record()
    d = xdisplay.Display(display_name)
    name = server.name
    try:
        app = TracedApp(app_path, server, display_name, work)
        driver = app.audio.get("driver")
        target = key_centre(app, d)
        xtest.fake_input(d, X.MotionNotify, x=target[0], y=target[1])
        d.sync()
        for label, gap, arriving in (("steady", STEADY_GAP, False), ("first after suspend", SUSPEND_GAP, False),
                                     ("first after suspend, pointer arriving", SUSPEND_GAP, True)):
            before = app.count("sound")
            resumed_before = app.count("audio", status="resumed")
            clicks = presses(d, target, n, gap, arriving)
            upper, lower, intact = latencies(recorder, clicks, clip)
            sounds = app.count("sound") - before
            resumed = app.count("audio", status="resumed") - resumed_before
            key = "press→first sample, %s, %s ms" % (name, label)
            figures[key] = stats(upper)
            figures[key + " (in-chunk estimate)"] = stats(lower)
            figures[key]["sound_lines"] = sounds
            figures[key]["clips_intact"] = intact
            figures[key]["reopened"] = resumed
            figures[key]["driver"] = driver
        xtest.fake_input(d, X.MotionNotify, x=5, y=5)
        d.sync()
        time.sleep(3.5)  # suspended
        figures["idle CPU %s, device suspended: app / server %%" % name], recorder = idle_cpu(app, server, recorder)
        app.stop()

        app = TracedApp(app_path, server, display_name, work, {"HEE_AUDIO_IDLE": "keep"})
        xtest.fake_input(d, X.MotionNotify, x=target[0], y=target[1])
        d.sync()
        before = app.count("sound")
        clicks = presses(d, target, n, SUSPEND_GAP)
        upper, lower, intact = latencies(recorder, clicks, clip)
        key = "press→first sample, %s, after 4 s idle, kept open (HEE_AUDIO_IDLE=keep) ms" % name
        figures[key] = stats(upper)
        figures[key + " (in-chunk estimate)"] = stats(lower)
        figures[key]["sound_lines"] = app.count("sound") - before
        figures[key]["clips_intact"] = intact
        time.sleep(3.5)
        figures["idle CPU %s, device kept open: app / server %%" % name], recorder = idle_cpu(app, server, recorder)
        app.stop()
    finally:
        d.close()
        recorder.stop()
        server.close()
    return figures


def measure(app_path, display_name, stats, quick=False):
    """All sound-server figures; servers whose tools are missing are skipped (named)."""
    figures = {}
    n = 5 if quick else 20
    for kind in sound_servers.SERVERS:
        missing = kind.missing_tools()
        if missing:
            print("bench: %s skipped, missing %s" % (kind.name, ", ".join(missing)), file=sys.stderr)
            continue
        figures.update(measure_server(kind, app_path, display_name, n, stats))
    return figures
