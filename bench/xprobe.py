"""X11 measurements for the benchmarks, the same for HeeKeyboard and its peers.

- mapped: the MapNotify of the program's first top-level window (SubstructureNotify on the
  root window of an Xvfb without a window manager);
- fully painted: the first XDamage report after which the window shows its final content.
  The window is captured at every damage report and again at the end (`SETTLE` seconds
  after mapping, three times); pixels that still change at the end (a blinking caret) are
  left out of the comparison. A program that paints in several steps is measured at its
  last step;
- idle CPU: utime + stime ticks from /proc/PID/stat over a period;
- PSS: /proc/PID/smaps_rollup.
Needs python-xlib (bench/requirements.txt).
"""
import os, select, signal, subprocess, time

from Xlib import X, display as xdisplay
from Xlib.ext import damage

SETTLE = 2.0


class Xvfb:
    """An Xvfb server on a free display number, for the duration of a `with` block."""

    def __init__(self, size="1280x1024x24"):
        self.size = size

    def __enter__(self):
        for n in range(60, 90):
            if os.path.exists("/tmp/.X11-unix/X%d" % n) or os.path.exists("/tmp/.X%d-lock" % n):
                continue
            self.name = ":%d" % n
            self.proc = subprocess.Popen(["Xvfb", self.name, "-screen", "0", self.size, "-nolisten", "tcp"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                if os.path.exists("/tmp/.X11-unix/X%d" % n):
                    return self
                time.sleep(0.05)
            self.proc.kill()
        raise RuntimeError("no free display for Xvfb")

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()


def _stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _grab(window, width, height):
    return window.get_image(0, 0, width, height, X.ZPixmap, 0xFFFFFFFF).data


def _stable_mask(finals):
    """Indices (4-byte pixels) that are equal in every final capture."""
    first = finals[0]
    n = len(first) // 4
    return [i for i in range(n) if all(f[4 * i:4 * i + 4] == first[4 * i:4 * i + 4] for f in finals[1:])]


def _matches(sample, final, mask):
    if len(sample) != len(final):
        return False
    if sample == final:
        return True
    return all(sample[4 * i:4 * i + 4] == final[4 * i:4 * i + 4] for i in mask)


def launch_and_watch(disp, cmd, env, timeout=20.0, stdout=subprocess.DEVNULL, settle=True):
    """Starts `cmd`; returns (process, ms to mapped, ms to fully painted, window id)."""
    d = xdisplay.Display(disp.name)
    d.damage_query_version()
    root = d.screen().root
    root.change_attributes(event_mask=X.SubstructureNotifyMask)
    d.sync()
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=stdout, stderr=subprocess.DEVNULL, start_new_session=True)
    mapped = None
    window = None
    samples = []  # (time of the damage report, capture after it)
    deadline = t0 + timeout
    while time.monotonic() < deadline:
        damaged = None
        while d.pending_events():
            e = d.next_event()
            now = time.monotonic()
            if e.type == X.MapNotify and mapped is None and e.window.id != root.id:
                geometry = e.window.get_geometry()
                if geometry.width > 1 and geometry.height > 1:
                    mapped = now
                    window = e.window
                    size = (geometry.width, geometry.height)
                    window.damage_create(damage.DamageReportRawRectangles)
                    damaged = now  # mapping exposes the window
            elif e.type == d.extension_event.DamageNotify and damaged is None:
                damaged = now
        if damaged is not None and window is not None:
            samples.append((damaged, _grab(window, *size)))
        if mapped is not None and (not settle or time.monotonic() - mapped > SETTLE):
            break
        select.select([d.fileno()], [], [], 0.002)
    if mapped is None:
        d.close()
        _stop(proc)
        raise RuntimeError("%s: no window mapped within %.0f s" % (cmd[0], timeout))
    painted = mapped
    if settle:
        finals = []
        for _ in range(3):
            finals.append(_grab(window, *size))
            time.sleep(0.35)
        mask = _stable_mask(finals)
        painted = next((t for t, image in samples if _matches(image, finals[0], mask)), None)
        if painted is None:
            painted = samples[-1][0] if samples else mapped
    d.close()
    return proc, (mapped - t0) * 1000, (painted - t0) * 1000, window.id


def startup(disp, cmd, env):
    proc, mapped, painted, _ = launch_and_watch(disp, cmd, env)
    _stop(proc)
    return mapped, painted


def cpu_ticks(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)


def pss_kb(pid):
    for line in open("/proc/%d/smaps_rollup" % pid):
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def idle_percent(pid, seconds):
    hz = os.sysconf("SC_CLK_TCK")
    a = cpu_ticks(pid)
    time.sleep(seconds)
    return (cpu_ticks(pid) - a) / hz / seconds * 100


def idle_cpu(disp, cmd, env, seconds=10):
    """HeeKeyboard's idle CPU with the keyboard shown, then hidden (closed with its button)."""
    proc, _, _, window = launch_and_watch(disp, cmd + ["--trace"], env, stdout=subprocess.PIPE, settle=False)
    layout = None
    for line in proc.stdout:
        if b'"event":"layout"' in line:
            import json
            layout = json.loads(line)
            break
    # Idle means: the caret has stopped blinking (10 s after the last activity, as GTK
    # does) and the silent audio device has been suspended (3 s after the last sound).
    time.sleep(11)
    shown = idle_percent(proc.pid, seconds)
    r = layout["keys"]["closeKeyboard"]
    subprocess.run(["xdotool", "mousemove", "--window", str(window), str(int(r["x"] + 20)), str(int(r["y"] + r["h"] / 2)),
                    "click", "1"], env=env, check=True)
    time.sleep(1)
    hidden = idle_percent(proc.pid, seconds)
    _stop(proc)
    return shown, hidden


def peer_figures(disp, cmd, env, seconds=10, runs=5):
    """Start-up, PSS and idle CPU of any program with a window."""
    mapped, painted = [], []
    for _ in range(runs):
        m, p = startup(disp, cmd, env)
        mapped.append(m)
        painted.append(p)
    proc, _, _, _ = launch_and_watch(disp, cmd, env)
    time.sleep(1)
    pss = pss_kb(proc.pid) / 1024
    idle = idle_percent(proc.pid, seconds)
    _stop(proc)
    return {"mapped": mapped, "painted": painted, "pss": pss, "idle": idle}
