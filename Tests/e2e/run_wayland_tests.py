#!/usr/bin/env python3
"""End-to-end tests of HeeApp on native Wayland (issue 14), in sway's headless backend.

sway runs as an unprivileged user (`hee-wayland`, created once when we are root: sway
refuses root) with two outputs: HEADLESS-1 at scale 1 and HEADLESS-2 at scale 2. Our own
Wayland client holds a virtual pointer on the seat, so `swaymsg seat seat0 cursor ...` can
click; `wtype` types through a virtual keyboard; `grim` takes screenshots. A private Xvfb
renders the same states on X11 for comparison. See wayland_support.py.

Scenarios (each runs even if an earlier one failed):
  start        only WAYLAND_DISPLAY set: the window appears (app id hee-keyboard, 480 × 800),
               `layout` scale 1, no OpenGL/Mesa loaded, frames in our shared memory
  installed    an installed copy finds lib/hee-keyboard/libHeeVulkanStub.so; without it the
               window is made with OpenGL and still works
  same-as-x11  grim's capture of the window equals the X11 rendering of the same state
  scale-2      moved to the scale-2 output: a `layout` line with scale 2 and the same keys, a
               frame of 960 × 1600 pixels equal to X11's `--scale 2` rendering (sharp, not
               upscaled); at scale 1.5 likewise (720 × 1200); moved back: scale 1; started on
               the scale-2 output: scale 2 at once
  input        clicks through sway's seat: 音量 −, the へぇ button (touch, hee, text), a
               letter; typing with wtype; resized by the compositor: a layout and a frame of
               the new size; SIGTERM: exit 0 with the volume and size saved
  choice       WAYLAND_DISPLAY and DISPLAY both set: Wayland (closed by the compositor:
               status 0); SDL_VIDEODRIVER=x11: X11
  no-seat      a compositor without a seat (a proxy hides wl_seat): exit 69 with one line,
               no crash; with DISPLAY too: X11 with one warning
  late-keymap  a compositor that sends modifiers and a key before the keymap (a proxy
               reorders them): no crash, typing works once the keymap arrives
  weston       a compositor that leaves decorations to the client (weston, in Xvfb with its
               X11 backend): libdecor's title bar, the frame equal to X11's, a click counts,
               the title bar's close button quits with status 0

Prints `ok - ...` per passed check and `not ok - SCENARIO: message` per failed scenario;
exits 1 if any failed, 2 when a prerequisite (binary, sway, grim, Xvfb, xdotool, ImageMagick,
the user for sway) is missing; a scenario whose own tool (wtype, weston) is missing is skipped
with a `SKIP -` line. With HEE_E2E_REQUIRE=1 (set by .ci/run) or CI=true a missing tool is a
failure instead.

Environment:
  HEE_APP              binary (default <repo>/.build/release/HeeApp)
  HEE_E2E_REQUIRE=1    a missing tool fails (as in CI) instead of skipping
  HEE_WAYLAND_ONLY     comma-separated scenario names (default: all)
  HEE_WAYLAND_KEEP=1   keep the work directory (traces, screenshots, logs) after a pass
Standard-library Python 3 only.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import (CheckFailed, Prerequisite, REPO_ROOT, app_binary, ok, fail, kill_group, required,  # noqa: E402
                         script_main, start_xvfb)
from run_e2e import Image, Trace, is_event, run  # noqa: E402
from wayland_support import KeyboardHolder, Sway, VirtualPointer, WaylandProxy  # noqa: E402

TIMEOUT = 10.0                # safety nets for waits, never what is checked
SETTLE_TIMEOUT = 15.0         # captures until a frame shows the expected state
OUTPUTS = {"HEADLESS-1": "resolution 1280x1024 position 0 0 scale 1",
           "HEADLESS-2": "resolution 1200x1800 position 1280 0 scale 2",
           "HEADLESS-3": "resolution 1200x1800 position 2480 0 scale 1.5"}
# Pixels whose channels differ by more than this count as different; the caret blinks, so
# a frame may differ from another in the caret's 2 × 22 points (× scale²) and no more.
CHANNEL_TOLERANCE = 2
CARET_PIXELS = 2 * 22
MESA = ("libEGL", "libGLESv2", "libGLX", "libLLVM", "swrast_dri", "libvulkan")


class App:
    """One HeeApp process with its trace (stdout) and stderr in the work directory."""

    def __init__(self, binary, env, workdir, name, args=()):
        self.name = name
        self.stderr_path = os.path.join(workdir, f"{name}-stderr.txt")
        self.config = env.get("XDG_CONFIG_HOME")
        with open(self.stderr_path, "wb") as stderr:
            self.proc = subprocess.Popen([binary, "--trace", *args], cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, stderr=stderr, start_new_session=True)
        self.trace = Trace(self.proc.stdout)
        self.workdir = workdir

    def wait_for(self, kind, what=None, timeout=TIMEOUT, **fields):
        return self.trace.wait_for(is_event(kind, **fields), what or f"a {kind} event {fields or ''}", timeout)

    def stderr(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def quit(self):
        """SIGTERM; returns the exit status (fails after 20 s, a safety net: it exits at once)."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            fail(f"{self.name}: no exit within 20 s of SIGTERM")

    def finish(self):
        kill_group(self.proc)
        self.trace.thread.join(timeout=2)
        self.trace.drain()
        with open(os.path.join(self.workdir, f"{self.name}-trace.jsonl"), "w", encoding="utf-8") as f:
            f.write("\n".join(self.trace.lines) + "\n")


class Rig:
    """What the scenarios share: sway, the pointer, Xvfb, the binary, the work directory."""

    def __init__(self, binary, workdir, sway, xvfb_display):
        self.binary, self.workdir, self.sway, self.display = binary, workdir, sway, xvfb_display
        self.apps = []
        self.counter = 0
        self.x11_reference = {}

    def config_dir(self, name):
        path = os.path.join(self.workdir, "config-" + name)
        os.makedirs(path, exist_ok=True)
        return path

    def launch_wayland(self, name, args=(), **extra):
        env = self.sway.client_env(XDG_CONFIG_HOME=self.config_dir(name), SDL_AUDIODRIVER="dummy", **extra)
        env.pop("GDK_SCALE", None)
        app = App(self.binary, env, self.workdir, name, args)
        self.apps.append(app)
        return app

    def launch_x11(self, name, args=(), **extra):
        env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "WAYLAND_SOCKET", "GDK_SCALE")}
        env.update(DISPLAY=self.display, XDG_CONFIG_HOME=self.config_dir(name), SDL_AUDIODRIVER="dummy", **extra)
        app = App(self.binary, env, self.workdir, name, args)
        self.apps.append(app)
        return app

    def window_of(self, app, proxied=False):
        # A client behind our proxy is, to sway, the proxy: this process.
        pid = os.getpid() if proxied else app.proc.pid
        window = self.sway.wait_for_window(pid, alive=lambda: app.proc.poll() is None)
        if window is None:
            fail(f"{app.name}: no sway window for pid {pid} (exit status {app.proc.poll()}; "
                 f"stderr: {app.stderr().strip()[-300:]})")
        return window

    def wayland_frame(self, app, name):
        """The window's pixels as grim captures them from its output."""
        window = self.window_of(app)
        output = self.sway.output(window["output"])
        scale = output["scale"]
        png = os.path.join(self.workdir, f"{name}-output.png")
        self.sway.screenshot(png, window["output"])
        r = window["rect"]
        x, y = round((r["x"] - output["rect"]["x"]) * scale), round((r["y"] - output["rect"]["y"]) * scale)
        w, h = round(r["width"] * scale), round(r["height"] * scale)
        crop = os.path.join(self.workdir, f"{name}.png")
        run(["convert", png, "-crop", f"{w}x{h}+{x}+{y}", "+repage", crop], timeout=30)
        return Image.from_ppm(run(["convert", crop, "-depth", "8", "ppm:-"], timeout=30))

    def x11_frame(self, scale, size=None):
        """The X11 rendering of a freshly started app at `scale` and `size` (points, "WxH";
        default: the default size), computed once each."""
        key = (scale, size)
        if key in self.x11_reference:
            return self.x11_reference[key]
        name = f"x11-scale{scale}" + (f"-{size}" if size else "")
        app = self.launch_x11(name, ["--scale", str(scale)] + (["--size", size] if size else []))
        app.wait_for("layout", "the X11 reference's first layout", scale=scale)
        wid = run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(app.proc.pid)],
                  env=dict(os.environ, DISPLAY=self.display), timeout=TIMEOUT).decode().split()[0]
        # Mapped and painted: captures until two in a row are the same (no fixed wait; a busy
        # app paints late). The caret blinks, so they may also differ in its pixels only.
        png = os.path.join(self.workdir, f"{name}.png")
        deadline = time.monotonic() + SETTLE_TIMEOUT
        image = None
        while True:
            run(["import", "-window", wid, png], env=dict(os.environ, DISPLAY=self.display), timeout=30)
            previous, image = image, Image.from_ppm(run(["convert", png, "-depth", "8", "ppm:-"], timeout=30))
            if previous is not None and previous.data == image.data:
                break
            if time.monotonic() > deadline:
                fail(f"the X11 reference {name} did not hold still in two captures in a row within "
                     f"{SETTLE_TIMEOUT} s; see {png}")
        app.quit()
        self.x11_reference[key] = image
        return image

    def click(self, window, rect):
        """Clicks the middle of `rect` (window coordinates) through sway's seat."""
        x = window["rect"]["x"] + rect["x"] + rect["w"] / 2
        y = window["rect"]["y"] + rect["y"] + rect["h"] / 2
        self.sway.command(f"seat seat0 cursor set {round(x)} {round(y)}")
        self.sway.command("seat seat0 cursor press button1")
        time.sleep(0.05)
        self.sway.command("seat seat0 cursor release button1")


def compare(actual, expected, scale, what):
    """Fails unless the frames have one size and differ in at most the caret's pixels;
    returns a description of what differs."""
    if (actual.width, actual.height) != (expected.width, expected.height):
        fail(f"{what}: {actual.width}×{actual.height} pixels, expected {expected.width}×{expected.height}")
    a, b = actual.data, expected.data
    differing, box = 0, None
    for i in range(0, len(a), 3):
        if a[i:i + 3] != b[i:i + 3] and max(abs(a[i + c] - b[i + c]) for c in range(3)) > CHANNEL_TOLERANCE:
            differing += 1
            p = i // 3
            x, y = p % actual.width, p // actual.width
            box = (x, y, x, y) if box is None else (min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y))
    budget = round(CARET_PIXELS * scale * scale)
    where = "nothing" if box is None else f"{differing} pixels in x {box[0]}–{box[2]}, y {box[1]}–{box[3]}"
    if differing > budget:
        fail(f"{what}: {where} differ (budget {budget}: the caret)")
    return where


def settled_frame(rig, app, name, check):
    """Captures the app's window with grim until `check(frame)` passes (it fails with
    CheckFailed otherwise); returns the frame and what `check` returned. A busy app draws the
    state its trace already shows a little later: the capture is repeated, never preceded by a
    fixed wait. After SETTLE_TIMEOUT the last failure stands."""
    deadline = time.monotonic() + SETTLE_TIMEOUT
    while True:
        frame = rig.wayland_frame(app, name)
        try:
            return frame, check(frame)
        except CheckFailed:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def upscaled_blocks(image):
    """The share of aligned 2 × 2 pixel blocks that are one colour. A frame drawn at 1× and
    upscaled 2× is made of them only; a frame drawn at 2× has edges inside blocks."""
    uniform = total = 0
    w, d = image.width, image.data
    for y in range(0, image.height - 1, 2):
        row, below = y * w * 3, (y + 1) * w * 3
        for x in range(0, w - 1, 2):
            i, j = row + x * 3, below + x * 3
            total += 1
            if d[i:i + 3] == d[i + 3:i + 6] == d[j:j + 3] == d[j + 3:j + 6]:
                uniform += 1
    return uniform / max(total, 1)


def mapped_libraries(pid):
    with open(f"/proc/{pid}/maps") as f:
        return f.read()


# --------------------------------------------------------------------------- scenarios

def scenario_start(rig, state):
    if shutil.which("wtype"):
        # A keyboard on the seat before the app starts, so wtype's keys in "input" find its
        # wl_keyboard in place (KeyboardHolder says why); kept until "input" is done.
        state["keyboard"] = KeyboardHolder(rig.sway)
    app = rig.launch_wayland("start")
    state["app"] = app
    # Before the window is on an output SDL assumes the largest scale of all (2 here); once
    # the surface has entered HEADLESS-1 the frame is drawn again at its scale, 1.
    first = app.wait_for("layout", "the first layout")
    layout = first if first["scale"] == 1 else app.wait_for("layout", "a layout at HEADLESS-1's scale", scale=1)
    if layout["window"] != {"w": 480, "h": 800}:
        fail(f"layout has window {layout['window']}, expected 480×800")
    window = rig.window_of(app)
    state["window"] = window
    if window.get("app_id") != "hee-keyboard" or window.get("shell") != "xdg_shell":
        fail(f"sway sees app_id {window.get('app_id')!r}, shell {window.get('shell')!r}; "
             f"expected a native xdg_shell window 'hee-keyboard'")
    if (window["rect"]["width"], window["rect"]["height"]) != (480, 800) or window["output"] != "HEADLESS-1":
        fail(f"window {window['rect']} on {window['output']}, expected 480×800 on HEADLESS-1")
    ok(f"started with only WAYLAND_DISPLAY: native window 'hee-keyboard' {window['rect']['width']}×"
       f"{window['rect']['height']} on {window['output']}, layout scale 1")
    maps = mapped_libraries(app.proc.pid)
    loaded = sorted({name for name in MESA if name in maps})
    if loaded:
        fail(f"OpenGL/Mesa is loaded on the Wayland path: {loaded}")
    if "memfd:hee-keyboard-frame" not in maps:
        fail("no shared-memory frame buffer (memfd:hee-keyboard-frame) mapped: not presenting through wl_shm")
    ok("no OpenGL, EGL, Mesa or LLVM loaded; frames go through wl_shm buffers")
    state["keys"] = layout["keys"]


def scenario_installed(rig, state):
    """An installed copy (bin/hee-keyboard, lib/hee-keyboard/libHeeVulkanStub.so) finds the
    stub beside its prefix; without the stub it still runs, with Mesa loaded."""
    stub = os.path.join(os.path.dirname(rig.binary), "libHeeVulkanStub.so")
    if not os.path.exists(stub):
        fail(f"{stub} was not built")
    prefix = os.path.join(rig.workdir, "prefix")
    os.makedirs(os.path.join(prefix, "bin"), exist_ok=True)
    os.makedirs(os.path.join(prefix, "lib", "hee-keyboard"), exist_ok=True)
    installed = os.path.join(prefix, "bin", "hee-keyboard")
    shutil.copy2(rig.binary, installed)
    shutil.copy2(stub, os.path.join(prefix, "lib", "hee-keyboard", "libHeeVulkanStub.so"))
    for name, keep_stub in (("installed", True), ("installed-no-stub", False)):
        if not keep_stub:
            os.unlink(os.path.join(prefix, "lib", "hee-keyboard", "libHeeVulkanStub.so"))
        env = rig.sway.client_env(XDG_CONFIG_HOME=rig.config_dir(name), SDL_AUDIODRIVER="dummy")
        app = App(installed, env, rig.workdir, name, ["--assets", REPO_ROOT])
        rig.apps.append(app)
        app.wait_for("layout", f"the first layout of the {name} copy")
        rig.window_of(app)
        maps = mapped_libraries(app.proc.pid)
        mesa = sorted({m for m in MESA if m in maps})
        if keep_stub and (mesa or "lib/hee-keyboard/libHeeVulkanStub.so" not in maps):
            fail(f"the installed copy did not use {prefix}/lib/hee-keyboard/libHeeVulkanStub.so (Mesa: {mesa})")
        if not keep_stub and "libEGL" not in maps:
            fail("without the stub the window should be made the ordinary way (with EGL)")
        if app.quit() != 0:
            fail(f"{name}: exit status {app.proc.returncode}")
    ok("an installed copy loads lib/hee-keyboard/libHeeVulkanStub.so (no Mesa); without it, it still runs (with EGL)")


def scenario_same_as_x11(rig, state):
    app = state.get("app") or fail("no running app (start failed)")
    reference = rig.x11_frame(1)
    frame, where = settled_frame(rig, app, "wayland-scale1",
                                 lambda f: compare(f, reference, 1, "Wayland frame vs X11 frame at scale 1"))
    ok(f"grim's capture equals the X11 rendering of the same state ({frame.width}×{frame.height}; differing: {where})")


def scenario_scale_2(rig, state):
    app = state.get("app") or fail("no running app (start failed)")
    keys = state["keys"]
    app.trace.mark()
    rig.sway.command(f"[pid={app.proc.pid}] move container to output HEADLESS-2")
    layout = app.wait_for("layout", "a layout line for the scale-2 output", scale=2)
    if layout["keys"] != keys or layout["window"] != {"w": 480, "h": 800}:
        fail(f"scale-2 layout moved the keys or the window: {layout['window']}")
    window = rig.window_of(app)
    if window["output"] != "HEADLESS-2":
        fail(f"window on {window['output']}, expected HEADLESS-2")
    ok("moved to the scale-2 output: a layout line with scale 2, keys in the same window coordinates")
    reference = rig.x11_frame(2)
    frame, where = settled_frame(rig, app, "wayland-scale2",
                                 lambda f: compare(f, reference, 2, "Wayland frame at output scale 2 vs X11 at --scale 2"))
    blocks = upscaled_blocks(frame)
    if blocks > 0.995:
        fail(f"{blocks:.1%} of 2×2 blocks are uniform: the frame looks upscaled from 1×")
    ok(f"scale 2: a {frame.width}×{frame.height} frame equal to X11's --scale 2 rendering (differing: {where}); "
       f"{1 - blocks:.1%} of 2×2 blocks hold detail (drawn at 2×, not upscaled)")
    # A fractional scale: SDL 2.26 takes it from xdg-output and presents through a viewport,
    # so the buffer is 1.5 × the window, drawn at 1.5.
    app.trace.mark()
    rig.sway.command(f"[pid={app.proc.pid}] move container to output HEADLESS-3")
    app.wait_for("layout", "a layout line for the scale-1.5 output", scale=1.5)
    reference = rig.x11_frame(1.5)
    frame, where = settled_frame(rig, app, "wayland-scale1.5", lambda f: compare(
        f, reference, 1.5, "Wayland frame at output scale 1.5 vs X11 at --scale 1.5"))
    ok(f"scale 1.5: a layout line with scale 1.5 and a {frame.width}×{frame.height} frame equal to X11's "
       f"--scale 1.5 rendering (differing: {where})")
    app.trace.mark()
    rig.sway.command(f"[pid={app.proc.pid}] move container to output HEADLESS-1")
    app.wait_for("layout", "a layout line back at scale 1", scale=1)
    ok("moved back to the scale-1 output: a layout line with scale 1")
    rig.sway.command("focus output HEADLESS-2")
    second = rig.launch_wayland("start-scale2")
    try:
        first = second.wait_for("layout", "the first layout on the scale-2 output")
        rig.window_of(second)
        later = [e for e in second.trace.collect(1.0) if e.get("event") == "layout"]
        if first["scale"] != 2 or later:
            fail(f"started on the scale-2 output with layouts of scale {[first['scale']] + [e['scale'] for e in later]}, "
                 "expected one of scale 2")
        ok("started on the scale-2 output: one layout, scale 2")
        if second.quit() != 0:
            fail(f"the second app exited with {second.proc.returncode}")
    finally:
        rig.sway.command("focus output HEADLESS-1")
        rig.sway.command(f"[pid={app.proc.pid}] focus")


def scenario_input(rig, state):
    app = state.get("app") or fail("no running app (start failed)")
    keys = state["keys"]
    window = rig.window_of(app)
    app.trace.mark()
    rig.click(window, keys["volumeDown"])
    app.wait_for("volume", "volume 90 after clicking 音量 −", volume=90)
    ok("click on 音量 − through the seat: volume 90")
    rig.click(window, keys["hee"])
    app.wait_for("touch", "へぇ pressed", key="hee", down=True)
    app.wait_for("hee", "the count", count=1)
    app.wait_for("text", "the inserted text", text="へぇ〜")
    app.wait_for("touch", "へぇ released", key="hee", down=False)
    ok("click on へぇ through the seat: touch down/up, hee count 1, text 「へぇ〜」")
    rig.click(window, keys["q"])
    app.wait_for("touch", "q pressed", key="q", down=True)
    app.wait_for("text", "the letter typed", text="へぇ〜q")
    ok("click on q: text 「へぇ〜q」")
    if shutil.which("wtype"):
        # The seat has had a keyboard since before the app started (scenario "start"), so the
        # app's wl_keyboard is in place: no wait before the first key.
        try:
            run(["wtype", "xyz"], env=rig.sway.client_env(), timeout=TIMEOUT)
            app.wait_for("text", "typed text from wtype", text="へぇ〜qxyz")
        finally:
            holder = state.pop("keyboard", None)
            if holder:
                holder.close()
        ok("typing with wtype (a virtual keyboard): 「へぇ〜qxyz」")
    app.trace.mark()
    rig.sway.command(f"[pid={app.proc.pid}] resize set 600 900")
    bigger = app.wait_for("layout", "a layout for 600 × 900", window={"w": 600, "h": 900})
    # The X11 reference is a fresh start at that size (count 0, volume 100, no text): the
    # letter rows are in the same state in both.
    reference = rig.x11_frame(1, "600x900")
    top = round(bigger["keys"]["q"]["y"])
    frame, resized = settled_frame(rig, app, "wayland-600x900", lambda f: compare(
        crop(f, 0, top, 600, 900 - top), crop(reference, 0, top, 600, 900 - top), 1,
        "the resized frame's letter rows vs X11"))
    ok(f"resized by the compositor to 600×900: a layout for it, and a 600×900 frame whose letter rows equal "
       f"X11's (differing: {resized})")
    status = app.quit()
    if status != 0:
        fail(f"exit status {status} after SIGTERM, expected 0")
    settings_path = os.path.join(app.config, "hee-keyboard", "settings.json")
    try:
        with open(settings_path, encoding="utf-8") as f:
            saved = json.load(f)
    except (OSError, ValueError) as error:
        fail(f"no readable settings after SIGTERM: {error}")
    if saved.get("volume") != 90 or (saved.get("windowWidth"), saved.get("windowHeight")) != (600, 900):
        fail(f"saved settings {saved}, expected volume 90 and the window 600×900")
    ok(f"SIGTERM: exit status 0, settings saved {saved}")
    state["app"] = None


def scenario_choice(rig, state):
    both = rig.launch_wayland("both-displays", DISPLAY=rig.display)
    both.wait_for("layout", "the first layout with both displays")
    rig.window_of(both)
    # Closed by the compositor (xdg_toplevel.close, as a title bar's close button does).
    rig.sway.command(f"[pid={both.proc.pid}] kill")
    try:
        status = both.proc.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail("the compositor's close request did not end the app")
    if status != 0:
        fail(f"closed by the compositor with status {status}, expected 0")
    ok("WAYLAND_DISPLAY and DISPLAY both set: a native Wayland window; closed by the compositor: status 0")
    forced = rig.launch_wayland("forced-x11", DISPLAY=rig.display, SDL_VIDEODRIVER="x11")
    forced.wait_for("layout", "the first layout with SDL_VIDEODRIVER=x11")
    found = run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(forced.proc.pid)],
                env=dict(os.environ, DISPLAY=rig.display), timeout=TIMEOUT).decode().split()
    if not found or any(w.get("pid") == forced.proc.pid for w in rig.sway.windows()):
        fail("SDL_VIDEODRIVER=x11 did not give an X11 window")
    if forced.quit() != 0:
        fail(f"exit status {forced.proc.returncode}")
    ok("SDL_VIDEODRIVER=x11 with both set: an X11 window")


def scenario_no_seat(rig, state):
    proxy_path = os.path.join(rig.workdir, "no-seat.sock")
    proxy = WaylandProxy(proxy_path, rig.sway.socket, "no_seat")
    try:
        app = rig.launch_wayland("no-seat", WAYLAND_DISPLAY=proxy_path)
        try:
            status = app.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            fail("with no seat the app neither started nor exited")
        lines = app.stderr().strip().splitlines()
        if status != 69 or len(lines) != 1 or "no input seat" not in lines[0]:
            fail(f"no seat: exit status {status}, stderr {lines}; expected 69 and one line")
        if proxy.hidden_seats < 1:
            fail("the proxy hid no wl_seat: the scenario did not happen")
        ok(f"a compositor without a seat: exit 69, one line: {lines[0][:100]}…")
        fallback = rig.launch_wayland("no-seat-x11", WAYLAND_DISPLAY=proxy_path, DISPLAY=rig.display)
        fallback.wait_for("layout", "the first layout on X11")
        if fallback.quit() != 0:
            fail(f"exit status {fallback.proc.returncode}")
        warnings = [l for l in fallback.stderr().splitlines() if "no input seat" in l]
        if len(warnings) != 1 or "using X11" not in warnings[0]:
            fail(f"expected one warning about using X11, got {fallback.stderr().strip().splitlines()}")
        ok("the same with DISPLAY set: runs on X11 with one warning")
    finally:
        proxy.close()


def scenario_late_keymap(rig, state):
    if shutil.which("wtype") is None:
        raise Prerequisite("wtype not found (apt-get install wtype)")
    proxy_path = os.path.join(rig.workdir, "late-keymap.sock")
    proxy = WaylandProxy(proxy_path, rig.sway.socket, "late_keymap")
    # A keyboard on the seat before the app starts (KeyboardHolder): the app's wl_keyboard
    # exists from its start, so the keys below reach it however busy it is.
    holder = KeyboardHolder(rig.sway)
    try:
        app = rig.launch_wayland("late-keymap", WAYLAND_DISPLAY=proxy_path)
        app.wait_for("layout", "the first layout")
        window = rig.window_of(app, proxied=True)
        rig.sway.command(f"[con_id={window['id']}] focus")
        deadline = time.monotonic() + TIMEOUT
        while proxy.holding < 1:
            if app.proc.poll() is not None or time.monotonic() > deadline:
                fail(f"the proxy holds no keymap of the app's keyboard (status {app.proc.poll()})")
            time.sleep(0.05)
        # The proxy holds the keyboard's keymaps back, so the key "h" (with enter and
        # modifiers) reaches the app before any keymap does; the keymaps follow it.
        run(["wtype", "hi"], env=rig.sway.client_env(), timeout=TIMEOUT)
        deadline = time.monotonic() + TIMEOUT
        while proxy.held_keymaps < 1:
            if app.proc.poll() is not None:
                fail(f"modifiers and a key before the keymap: the app died (status {app.proc.returncode})")
            if time.monotonic() > deadline:
                fail("the proxy delivered no keymap late: the scenario did not happen")
            time.sleep(0.05)
        # Without a keymap SDL reads wtype's first keycode as an evdev one: Escape, which
        # closes the keyboard. A click on the text field brings it back once it has slid away
        # (a click while the window is still sliding may not reach it through sway's seat);
        # then type.
        app.wait_for("keyboard", "the keyboard closed by the first key read as Escape", status="hide")
        layout = [e for e in app.trace.events if e.get("event") == "layout"][-1]
        app.trace.mark()
        rig.click(window, layout["keys"]["textField"])
        app.wait_for("keyboard", "the keyboard shown by a click on the text field", status="show")
        run(["wtype", "ok"], env=rig.sway.client_env(), timeout=TIMEOUT)
        deadline = time.monotonic() + TIMEOUT
        text = ""
        while not text.endswith("ok") and time.monotonic() < deadline:
            event = app.wait_for("text", "'ok' typed once the keymap has arrived")
            text = event["text"]
        if not text.endswith("ok"):
            fail(f"typing after the late keymap: text {text!r}, expected it to end with 'ok'")
        if app.quit() != 0:
            fail(f"exit status {app.proc.returncode}")
        ok(f"modifiers and a key before the keymap ({proxy.held_keymaps} keymap(s) delivered late): "
           f"no crash; typing works once it arrives (text {text!r})")
    finally:
        holder.close()
        proxy.close()


def find_frame(screen, frame, row):
    """Where `frame` is in `screen` (top-left): the first place where its `row` is found and
    the whole frame matches (the caret aside); None if nowhere."""
    line = frame.data[row * frame.width * 3:(row + 1) * frame.width * 3]
    stride = screen.width * 3
    for y in range(row, screen.height - frame.height + row + 1):
        start = y * stride
        while True:
            at = screen.data.find(line, start, (y + 1) * stride)
            if at < 0:
                break
            start = at + 1
            if (at - y * stride) % 3:
                continue
            x, top = (at - y * stride) // 3, y - row
            if x + frame.width <= screen.width:
                try:
                    compare(crop(screen, x, top, frame.width, frame.height), frame, 1, "candidate")
                    return x, top
                except CheckFailed:
                    pass
    return None


def crop(image, x, y, width, height):
    rows = [image.data[((y + r) * image.width + x) * 3:((y + r) * image.width + x + width) * 3] for r in range(height)]
    return Image(width, height, b"".join(rows))


def scenario_weston(rig, state):
    """weston leaves decorations to the client: SDL draws them with libdecor's cairo plugin.
    weston runs with its X11 backend in our Xvfb (its headless backend offers no seat), so
    xdotool's clicks reach it as a real pointer."""
    if shutil.which("weston") is None:
        raise Prerequisite("weston not found (apt-get install weston)")
    runtime = tempfile.mkdtemp(prefix="weston-", dir=rig.workdir)
    xenv = dict(os.environ, DISPLAY=rig.display, XDG_RUNTIME_DIR=runtime)
    xenv.pop("WAYLAND_DISPLAY", None)
    # No animations: a window that is still zooming in would take clicks elsewhere.
    config = os.path.join(runtime, "weston.ini")
    with open(config, "w") as f:
        f.write("[shell]\nanimation=none\nclose-animation=none\nstartup-animation=none\nfocus-animation=none\n")
    with open(os.path.join(rig.workdir, "weston.log"), "wb") as log:
        weston = subprocess.Popen(["weston", f"--config={config}", "--backend=x11-backend.so", "--use-pixman",
                                   "--socket=wayland-hee", "--width=1100", "--height=1000", "--idle-time=0"],
                                  env=xenv, cwd=runtime,
                                  stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    try:
        socket_path = os.path.join(runtime, "wayland-hee")
        deadline = time.monotonic() + 20
        while not os.path.exists(socket_path) and time.monotonic() < deadline and weston.poll() is None:
            time.sleep(0.05)
        if not os.path.exists(socket_path):
            fail(f"weston did not start (status {weston.poll()}; see weston.log)")
        app = rig.launch_wayland("weston", WAYLAND_DISPLAY=socket_path)
        first_layout = app.wait_for("layout", "the first layout on weston")
        maps = mapped_libraries(app.proc.pid)
        if "libdecor-cairo.so" not in maps:
            fail("libdecor's cairo plugin is not loaded on weston (apt-get install libdecor-0-plugin-1-cairo)")
        reference = rig.x11_frame(1)
        # A row through the へぇ button's dots: nothing else on the screen looks like it.
        hee_row = round(first_layout["keys"]["hee"]["y"] + 80)
        deadline = time.monotonic() + TIMEOUT
        place = darkness = None
        # libdecor draws the title bar once the window is on an output, a moment after the
        # first frame: wait for both.
        while time.monotonic() < deadline:
            time.sleep(0.3)
            png = os.path.join(rig.workdir, "weston-screen.png")
            run(["import", "-window", "root", png], env=xenv, timeout=30)
            screen = Image.from_ppm(run(["convert", png, "-depth", "8", "ppm:-"], timeout=30))
            place = find_frame(screen, reference, hee_row)
            if place is None or place[1] < 20:
                continue
            title = crop(screen, place[0], place[1] - 20, reference.width, 16)
            darkness = sum(title.data) / len(title.data)
            if darkness < 100:
                break
        if place is None:
            fail("the app's frame is nowhere on weston's screen (see weston-screen.png)")
        x, y = place
        if darkness is None or darkness >= 100:
            fail(f"no title bar above the frame at ({x}, {y}) (mean level {darkness}; see weston-screen.png)")
        where = compare(crop(screen, x, y, reference.width, reference.height), reference, 1,
                        "the frame on weston vs X11")
        ok(f"weston: libdecor's cairo plugin draws a title bar above the frame; the frame equals X11's "
           f"(differing: {where})")
        keys = [e for e in app.trace.events if e.get("event") == "layout"][-1]["keys"]
        hee = keys["hee"]

        def click(px, py):
            # The pointer comes in from outside weston's X window (which may have been mapped
            # under it, unseen) and moves twice over the surface before the button, so weston
            # has given the surface the pointer focus however busy the machine is.
            run(["xdotool", "mousemove", "1250", "1750"], env=xenv, timeout=TIMEOUT)
            time.sleep(0.2)
            run(["xdotool", "mousemove", str(px - 2), str(py - 2)], env=xenv, timeout=TIMEOUT)
            time.sleep(0.2)
            run(["xdotool", "mousemove", str(px), str(py)], env=xenv, timeout=TIMEOUT)
            time.sleep(0.2)
            run(["xdotool", "click", "1"], env=xenv, timeout=TIMEOUT)
        click(x + hee["x"] + hee["w"] // 2, y + hee["y"] + hee["h"] // 2)
        app.wait_for("hee", "a count from a click on weston", count=1)
        ok("weston: a click on へぇ counts 1")
        # The close button: the rightmost of the title bar's three, 16 px from the right edge.
        click(x + reference.width - 16, y - 12)
        try:
            status = app.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            fail("the title bar's close button did not close the app")
        if status != 0:
            fail(f"closed from the title bar with status {status}, expected 0")
        ok("weston: the title bar's close button quits with status 0")
    finally:
        kill_group(weston)


SCENARIOS = [("start", scenario_start), ("installed", scenario_installed), ("same-as-x11", scenario_same_as_x11), ("scale-2", scenario_scale_2),
             ("input", scenario_input), ("choice", scenario_choice), ("no-seat", scenario_no_seat),
             ("late-keymap", scenario_late_keymap), ("weston", scenario_weston)]


def main():
    only = os.environ.get("HEE_WAYLAND_ONLY")
    selected = [(n, f) for n, f in SCENARIOS if not only or n in only.split(",")]

    def body(workdir):
        binary = app_binary()
        for tool, package in (("Xvfb", "xvfb"), ("xdotool", "xdotool"), ("import", "imagemagick"),
                              ("convert", "imagemagick")):
            if shutil.which(tool) is None:
                raise Prerequisite(f"{tool} not found (apt-get install {package})")
        print(f"# binary {binary}, work dir {workdir}", flush=True)
        failures, passed = [], 0
        xvfb = sway = pointer = rig = None
        state = {}
        began = time.monotonic()
        try:
            sway = Sway(workdir, OUTPUTS).__enter__()
            pointer = VirtualPointer(sway.socket)
            xvfb, display = start_xvfb(size="1280x1800x24")
            print(f"# sway at {sway.socket}, Xvfb on {display}", flush=True)
            rig = Rig(binary, workdir, sway, display)
            for name, function in selected:
                print(f"# {name}", flush=True)
                try:
                    function(rig, state)
                    passed += 1
                except CheckFailed as error:
                    failures.append(name)
                    print(f"not ok - {name}: {error}", flush=True)
                except Prerequisite as error:
                    if required():
                        failures.append(name)
                        print(f"not ok - {name}: {error}; CI must have it (scripts/install-deps.sh)", flush=True)
                    else:
                        print(f"SKIP - {name}: {error}", flush=True)
            if failures:
                fail(f"{passed} scenarios passed, failed: {', '.join(failures)}")
            print(f"# all {passed} scenarios passed in {time.monotonic() - began:.1f} s", flush=True)
        except Exception as error:
            if sway and not isinstance(error, Prerequisite):
                print(f"sway log (last lines):\n{sway.log_tail()}", file=sys.stderr)
            raise
        finally:
            if state.get("keyboard"):
                state.pop("keyboard").close()
            for app in rig.apps if rig else []:
                app.finish()
            if pointer:
                pointer.close()
            if sway:
                sway.__exit__(None, None, None)
            kill_group(xvfb)
    return script_main(body, prefix="hee-wayland-", keep_variable="HEE_WAYLAND_KEEP")


if __name__ == "__main__":
    sys.exit(main())
