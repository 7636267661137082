"""Wayland measurements for the benchmark, in sway's headless backend (Tests/e2e/
wayland_support.py starts it, as an unprivileged user when we are root).

- first frame: sway maps a window when its first buffer is committed; HeeKeyboard commits a
  complete frame, so exec → sway's `window` `new` event is exec → first frame on screen
  (the X11 figure's "painted");
- memory: RSS and PSS (/proc/PID/smaps_rollup) one second after that;
- idle CPU: as on X11 (xprobe.idle_percent), once the caret has stopped blinking.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))
from wayland_support import Sway  # noqa: E402,F401  (re-exported for run_bench.py)

import xprobe  # noqa: E402


def memory_mb(pid):
    """(RSS, PSS) in MB."""
    values = {}
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            name, _, rest = line.partition(":")
            if name in ("Rss", "Pss"):
                values[name] = int(rest.split()[0]) / 1024
    return values["Rss"], values["Pss"]


def launch(sway, cmd, env, timeout=20.0):
    """Starts `cmd`; returns (process, ms from exec to its window's first frame)."""
    subscription = sway.subscribe(["window"])
    try:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        deadline = t0 + timeout
        while time.monotonic() < deadline:
            event = sway.next_event(subscription)
            if event.get("change") == "new" and event.get("container", {}).get("pid") == proc.pid:
                return proc, (time.monotonic() - t0) * 1000
        xprobe._stop(proc)
        raise RuntimeError("%s: no window within %.0f s" % (cmd[0], timeout))
    finally:
        subscription.close()


def startup(sway, cmd, env):
    proc, ms = launch(sway, cmd, env)
    xprobe._stop(proc)
    return ms


def memory_after_start(sway, cmd, env, settle=1.0):
    proc, _ = launch(sway, cmd, env)
    time.sleep(settle)
    rss, pss = memory_mb(proc.pid)
    xprobe._stop(proc)
    return rss, pss


def idle_cpu(sway, cmd, env, seconds=10):
    """Idle CPU with the keyboard shown, after the caret's 10 s of blinking."""
    proc, _ = launch(sway, cmd, env)
    time.sleep(11)
    idle = xprobe.idle_percent(proc.pid, seconds)
    xprobe._stop(proc)
    return idle
