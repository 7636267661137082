"""Real touch for the end-to-end tests (issue 19): weston's headless backend with kiosk-shell
and Xwayland, and our own weston module (`Tests/touch/hee_touch.c`) that gives weston a seat
with a touch screen and a pointer, driven by commands through a FIFO. Standard library only.

- `build_module()`: builds the module from source (`make -C Tests/touch`, gcc against
  Debian's libweston-10-dev) and returns its path.
- `Weston`: a `with` block around weston (`--backend=headless-backend.so --use-pixman
  --shell=kiosk-shell.so --xwayland --modules=hee-touch.so`) in a runtime directory of its own.
  weston 10 runs as root here (no seat, no DRM, no logind), so no other user is needed. It
  knows its Wayland socket (`socket`, an absolute path), the X display Xwayland listens on
  (`display`), and speaks the module's commands (`command`), including `shot`: the output's
  pixels after its next repaint.
- `HeeWindow`: where the app's window is on the output, so gestures are given in the app's
  own window coordinates (the `layout` trace's space) and arrive in output pixels. kiosk-shell
  makes a native Wayland window fullscreen (here: the whole output, at 0,0); an Xwayland
  window is maximized inside weston's title bar and borders, at the place X reports for it.
- `Touch`: fingers and the pointer in window coordinates: `down`, `move`, `up`, `tap`,
  `cancel` (the compositor takes the touches back: `wl_touch.cancel`), `click`.
"""
import os
import re
import select
import shutil
import subprocess
import tempfile
import time

from e2e_support import REPO_ROOT, Prerequisite, fail, kill_group

MODULE_SOURCE = os.path.join(REPO_ROOT, "Tests", "touch")
MODULE_OUT = os.path.join(REPO_ROOT, ".build", "touch")
REPLY_TIMEOUT = 10.0          # a safety net: the module replies as soon as weston reads the line
START_TIMEOUT = 20.0


def build_module():
    """Builds `.build/touch/hee-touch.so` (and runs its parser test) from `Tests/touch`; returns
    its path. Raises Prerequisite when the compiler or libweston's headers are missing."""
    if shutil.which("make") is None or shutil.which(os.environ.get("CC", "cc")) is None:
        raise Prerequisite("make or a C compiler not found (apt-get install build-essential)")
    proc = subprocess.run(["make", "--no-print-directory", "-C", MODULE_SOURCE, f"OUT={MODULE_OUT}"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    output = proc.stdout.decode(errors="replace").strip()
    if proc.returncode == 69:
        raise Prerequisite(output.splitlines()[-1] if output else "libweston-10-dev is missing")
    if proc.returncode != 0:
        fail(f"building the hee-touch weston module failed:\n{output}")
    return os.path.join(MODULE_OUT, "hee-touch.so")


class Weston:
    """weston headless with kiosk-shell, Xwayland and the hee-touch module, for a `with`
    block. `size`: the output's size in pixels (scale 1)."""

    def __init__(self, workdir, module, size=(480, 800), name="weston"):
        self.workdir, self.module, self.size, self.name = workdir, module, size, name
        self.proc = None
        self.commands = self.replies = None
        self.pending = b""
        self.fingers = set()      # touch ids down (not lifted, not cancelled)

    def __enter__(self):
        for tool in ("weston", "Xwayland"):
            if shutil.which(tool) is None:
                raise Prerequisite(f"{tool} not found (apt-get install weston xwayland)")
        self.runtime = tempfile.mkdtemp(prefix=f"{self.name}-", dir=self.workdir)
        os.chmod(self.runtime, 0o700)
        command_path = os.path.join(self.runtime, "commands")
        reply_path = os.path.join(self.runtime, "replies")
        os.mkfifo(command_path, 0o600)
        os.mkfifo(reply_path, 0o600)
        self.log_path = os.path.join(self.workdir, f"{self.name}.log")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "XDG_RUNTIME_DIR": self.runtime,
               "HOME": self.runtime, "LANG": "C.UTF-8",
               "HEE_TOUCH_COMMANDS": command_path, "HEE_TOUCH_REPLIES": reply_path}
        width, height = self.size
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                ["weston", "--backend=headless-backend.so", "--use-pixman", f"--width={width}",
                 f"--height={height}", "--shell=kiosk-shell.so", "--xwayland", "--idle-time=0", "--no-config",
                 "--socket=wayland-hee", f"--modules={self.module}"],
                env=env, cwd=self.runtime, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
        self.socket = os.path.join(self.runtime, "wayland-hee")
        self.display = None
        deadline = time.monotonic() + START_TIMEOUT
        while not (os.path.exists(self.socket) and self.display and self._module_ready()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.__exit__(None, None, None)
                raise Prerequisite(f"weston did not start with the hee-touch module: {self.log_tail()}")
            match = re.search(r"xserver listening on display (:\d+)", self.log())
            self.display = match.group(1) if match else None
            time.sleep(0.02)
        # The module holds both FIFOs open for reading and writing, so neither open blocks.
        self.commands = os.open(command_path, os.O_WRONLY)
        self.replies = os.open(reply_path, os.O_RDONLY | os.O_NONBLOCK)
        return self

    def __exit__(self, *exc):
        for fd in (self.commands, self.replies):
            if fd is not None:
                os.close(fd)
        self.commands = self.replies = None
        kill_group(self.proc)

    def log(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def log_tail(self, n=15):
        return "".join(self.log().splitlines(keepends=True)[-n:]) or "(no weston log)"

    def _module_ready(self):
        return "hee-touch: seat0" in self.log()

    def command(self, line, timeout=REPLY_TIMEOUT):
        """Sends one command to the module and returns its reply ("ok …"); fails on an
        "error …" reply, or when weston does not answer within `timeout` seconds."""
        os.write(self.commands, line.encode() + b"\n")
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.proc.poll() is not None:
                fail(f"weston did not answer {line!r} (status {self.proc.poll()}): {self.log_tail()}")
            ready, _, _ = select.select([self.replies], [], [], min(remaining, 0.5))
            if ready:
                try:
                    self.pending += os.read(self.replies, 65536)
                except BlockingIOError:
                    pass
        reply, self.pending = self.pending.split(b"\n", 1)
        reply = reply.decode(errors="replace")
        if reply != f"ok {line}":
            fail(f"hee-touch module: {reply!r} for {line!r}")
        words = line.split()
        if words[0] == "down":
            self.fingers.add(int(words[1]))
        elif words[0] == "up":
            self.fingers.discard(int(words[1]))
        elif words[0] == "cancel":
            self.fingers.clear()
        return reply

    def lift_all(self):
        """Lifts every finger still down (after a failed check), so the next touch starts a new
        touch sequence: weston gives every later finger to the first one's surface until all
        are up."""
        for finger in sorted(self.fingers):
            self.command(f"up {finger}")
        self.command("frame")

    def shot(self, path):
        """The whole output after its next repaint, as a binary PPM at `path` (written by the
        module; pixels, scale 1)."""
        self.command(f"shot {path}")

    def client_env(self, base, route, **extra):
        """`base` for a client of this weston: route "wayland" (WAYLAND_DISPLAY only, as an
        absolute path) or "x11" (DISPLAY of Xwayland only); XDG_RUNTIME_DIR of the client's
        own."""
        env = {k: v for k, v in base.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "SDL_VIDEODRIVER", "GDK_SCALE")}
        if route == "wayland":
            env["WAYLAND_DISPLAY"] = self.socket
        else:
            env["DISPLAY"] = self.display
        env["XDG_RUNTIME_DIR"] = os.path.join(self.workdir, f"{self.name}-client-runtime")
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        env.update(extra)
        return env


class HeeWindow:
    """Where the app's window lies on weston's output: `origin` (output pixels of the window's
    top-left corner) and `size` (window coordinates, as the `layout` trace gives them; scale 1
    here, so one window coordinate is one output pixel)."""

    def __init__(self, origin, size):
        self.origin, self.size = origin, size

    def to_output(self, point):
        return (self.origin[0] + point[0], self.origin[1] + point[1])

    @staticmethod
    def locate(weston, route, pid, layout_size, timeout=START_TIMEOUT):
        """The window of process `pid`, whose last `layout` says it is `layout_size` {w, h}.

        Wayland: kiosk-shell makes the window fullscreen and centres it on the output; the
        app takes the output's size, so it lies at 0,0 (anything else fails here: the
        gestures would miss). X11: the position X reports for the visible window of `pid`
        (Xwayland's root window is weston's global space), once it is maximized in weston's
        frame."""
        w, h = layout_size["w"], layout_size["h"]
        if route == "wayland":
            if (w, h) != tuple(weston.size):
                fail(f"the Wayland window is {w}×{h}, not the output's {weston.size[0]}×{weston.size[1]}: "
                     f"kiosk-shell did not make it fullscreen")
            return HeeWindow((0, 0), (w, h))
        env = dict(os.environ, DISPLAY=weston.display)
        deadline = time.monotonic() + timeout
        while True:
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=10).stdout.split()
            for wid in found:
                info = subprocess.run(["xwininfo", "-id", wid.decode()], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, timeout=10).stdout.decode()
                fields = dict(re.findall(r"^\s*(Absolute upper-left [XY]|Width|Height):\s+(-?\d+)", info, re.M))
                if len(fields) != 4 or (int(fields["Width"]), int(fields["Height"])) != (w, h):
                    continue
                x, y = int(fields["Absolute upper-left X"]), int(fields["Absolute upper-left Y"])
                # Maximized in weston's frame, whose borders are alike left, right and below:
                # before that the window may be mapped elsewhere for a moment.
                if 2 * x + w == weston.size[0] and y + h + x == weston.size[1]:
                    return HeeWindow((x, y), (w, h))
            if time.monotonic() > deadline:
                fail(f"no visible X window of pid {pid} with the layout's size {w}×{h} on {weston.display}")
            time.sleep(0.05)


class Touch:
    """The touch screen and pointer of `weston`'s seat, aimed at `window`: points are window
    coordinates (x, y). Every touch event is followed by a `frame` (one event per frame, as a
    touch screen's driver reports a finger that moves alone), unless `frame=False` groups it
    with the next."""

    def __init__(self, weston, window):
        self.weston, self.window = weston, window

    def _at(self, point):
        x, y = self.window.to_output(point)
        return f"{x:.2f} {y:.2f}"

    def _send(self, line, frame):
        self.weston.command(line)
        if frame:
            self.weston.command("frame")

    def down(self, finger, point, frame=True):
        self._send(f"down {finger} {self._at(point)}", frame)

    def move(self, finger, point, frame=True):
        self._send(f"motion {finger} {self._at(point)}", frame)

    def up(self, finger, frame=True):
        self._send(f"up {finger}", frame)

    def tap(self, finger, point):
        self.down(finger, point)
        self.up(finger)

    def cancel(self):
        """The compositor takes every touch back (wl_touch.cancel; the fingers' later motion
        and lifting reach no client)."""
        self.weston.command("cancel")

    def pointer(self, point):
        self.weston.command(f"pointer {self._at(point)}")

    def click(self, point):
        self.pointer(point)
        self.weston.command("press")
        self.weston.command("release")


def centre(rect):
    """The middle of a `layout` rect {x, y, w, h}."""
    return (rect["x"] + rect["w"] / 2, rect["y"] + rect["h"] / 2)
