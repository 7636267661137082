#!/usr/bin/env python3
"""The focused field's context on X11 (issue 30): how long a focus change takes to become the
keyboard's `context` line, and what following it costs at start-up, measured on the context
test's desktop (Tests/e2e/run_context_tests.py: Xvfb, openbox, at-spi2-core's own bus) with a
GTK 3 window of fields.

- focus → context: CHANGES clicks alternating between a plain entry and a password entry of the
  GTK window (each click a new context line). `in app`: from the AT-SPI event reaching the
  watch's thread to the trace line written (HEE_LATENCY_PROBE's atspi-event and context-traced);
  `click → line`: from the click sent (python-xlib's XTEST, no process started per click) to the
  line read by this script.
- start-up: the main thread's cost of starting the watch (loading libatspi, starting its
  thread: atspi-start → atspi-started), the watch's connection until its first report
  (atspi-started → the first atspi-report), and PSS one second after start with the
  accessibility bus and without one.

usage: bench/context_latency.py [CHANGES]     (HEE_APP: the binary; default 200)
Prints the figures and adds them to bench/results.json under "context_x11".
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))
import run_context_tests as ctx  # noqa: E402
from e2e_support import session_bus  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "bench"))
from wayland_typing import pss_mb, stats as summary  # noqa: E402

APP = os.environ.get("HEE_APP", os.path.join(ROOT, ".build/release/HeeApp"))
CHANGES = int(sys.argv[1]) if len(sys.argv) > 1 else 200


def probes(path):
    """The `probe STAGE NS` lines of a stderr file, in order."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return [(parts[1], int(parts[2])) for parts in (line.split() for line in f) if len(parts) == 3 and parts[0] == "probe"]


def clicker(display):
    from Xlib import X, display as xdisplay  # python3-xlib (bench-deps)
    from Xlib.ext import xtest
    connection = xdisplay.Display(display)

    def click(x, y):
        xtest.fake_input(connection, X.MotionNotify, x=x, y=y)
        xtest.fake_input(connection, X.ButtonPress, 1)
        xtest.fake_input(connection, X.ButtonRelease, 1)
        connection.sync()
    return click


def absolute(desktop, geometry, name):
    info = ctx.run(["xwininfo", "-id", str(geometry["window"])], desktop.env)
    corner = [int(line.split(":")[1]) for line in info.splitlines() if "Absolute upper-left" in line]
    x, y, w, h = geometry["fields"][name]
    return corner[0] + x + w // 2, corner[1] + y + h // 2


def measure(workdir):
    desktop = ctx.ContextDesktop(workdir)
    result = {}
    try:
        desktop.start_openbox()
        # Without an accessibility bus: PSS for comparison.
        bare = ctx.keyboard(desktop, APP, "bare")
        time.sleep(1)
        result["pss_mb_without_bus"] = pss_mb(bare.proc.pid)
        bare.quit()
        desktop.start_accessibility_bus()
        env = {"HEE_LATENCY_PROBE": "1"}
        kb = ctx.Keyboard(desktop, APP, "bench", extra_env=env)
        desktop.place(kb.window, (790, 510))
        ctx.wait_until(lambda: desktop.bus_status() is True, "the keyboard to set IsEnabled")
        time.sleep(1)
        result["pss_mb_with_bus"] = pss_mb(kb.proc.pid)
        gtk = desktop.start_target("gtk", ["gtk_fields.py", "GTK fields"], (0, 0))
        ctx.click_field(desktop, kb, gtk, "free", ctx.field("normal", "gtk_fields.py"), "first")
        click = clicker(desktop.display)
        spots = {name: absolute(desktop, gtk, name) for name in ("free", "password")}
        expected = {"free": ctx.field("normal", "gtk_fields.py"), "password": ctx.secure("gtk_fields.py")}
        round_trips = []
        for n in range(CHANGES):
            name = "password" if n % 2 == 0 else "free"
            kb.trace.drain()
            since = len(kb.trace.events)
            sent = time.monotonic()
            click(*spots[name])
            kb.trace.wait_for(lambda e: e["event"] == "context" and ctx.shown(e) == expected[name], f"change {n}",
                              timeout=15, since=since)
            round_trips.append((time.monotonic() - sent) * 1000)
        kb.quit()
        marks = probes(kb.stderr_path)
        start = next(ns for stage, ns in marks if stage == "atspi-start")
        started = next(ns for stage, ns in marks if stage == "atspi-started")
        first_report = next(ns for stage, ns in marks if stage == "atspi-report")
        result["start_main_thread_ms"] = round((started - start) / 1e6, 3)
        result["connect_ms"] = round((first_report - started) / 1e6, 1)
        in_app, event = [], None
        for stage, ns in marks:
            if stage == "atspi-event":
                event = ns
            elif stage == "context-traced" and event is not None:
                in_app.append((ns - event) / 1e6)
        result["event_to_line_ms"] = summary(in_app[-CHANGES:])
        result["click_to_line_ms"] = summary(round_trips)
        result["load_average"] = os.getloadavg()[0]
    finally:
        desktop.close()
    return result


def main():
    workdir = tempfile.mkdtemp(prefix="hee-context-bench-")
    session_bus.start(os.path.join(workdir, ".bus"))
    try:
        result = measure(workdir)
    finally:
        session_bus.stop()
    for key in ("event_to_line_ms", "click_to_line_ms"):
        s = result[key]
        print(f"  context {key:18} p50 {s['median']:7.3f}  p99 {s['p99']:7.3f}  max {s['max']:7.3f}  (n {s['n']})")
    print(f"  start: main thread {result['start_main_thread_ms']} ms, connected {result['connect_ms']} ms later; "
          f"PSS {result['pss_mb_with_bus']} MB with the bus, {result['pss_mb_without_bus']} MB without "
          f"(load {result['load_average']:.1f})")
    path = os.path.join(ROOT, "bench/results.json")
    data = json.load(open(path)) if os.path.exists(path) else {}
    data["context_x11"] = result
    with open(path, "w") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
