"""Typing into a native Wayland application with an on-screen keyboard (issue 23), measured the
same way for HeeKeyboard --system, wvkbd 0.12 (`wvkbd-mobintl`) and squeekboard 1.21, each on a
sway headless output of its own (1280 × 1024, scale 1) with foot focused:

  press → text   one process (this one) drives the seat's virtual pointer
                 (zwlr_virtual_pointer_v1: a button and a frame in one write, its time taken
                 just before the write) and reads what foot's `cat` writes into a FIFO (foot
                 runs `stty raw -echo; exec cat > FIFO`), both on this process's monotonic
                 clock. Each keyboard is timed from its own sending moment: wvkbd and
                 squeekboard send a letter when the key goes down, HeeKeyboard when it comes
                 up (as iOS does), and its へぇ button when it goes down. A tap is held
                 `HOLD` seconds (a fast finger's) — a keyboard that sends on the press has
                 typed before the release, which the run checks — and the next tap follows
                 `GAP` seconds after the text and the release. The pointer is moved onto the
                 key, then by one pixel (wvkbd 0.12 ignores the position in wl_pointer.enter).
                 Each run's first tap of a key is not counted (foot compiles the keymap of a
                 keyboard new to it at its first key).
  first buffer   exec → the keyboard's first `wl_surface.attach` on its Wayland connection,
                 from WAYLAND_DEBUG=client's timestamps (CLOCK_REALTIME microseconds modulo
                 2^32, matched to this process's clock at the exec); the debug output slows
                 start-up a little, alike for all three.
  PSS            /proc/PID/smaps_rollup one second after the first buffer (the keyboard's own
                 process; squeekboard's D-Bus services are not counted).

The keyboards measured together take turns (five runs of a fifth of the taps each, then one
start each, ten times), so that each meets the shared machine's load alike; the load average
(1 min) at each turn is kept with the figures.

The letter is `a`; where each keyboard draws it was found in grim screenshots of the keyboard
on this output (HeeKeyboard's comes from its `layout` trace line). squeekboard needs a D-Bus
session bus (a `dbus-daemon --session` of the run's own, with the standard service directories
for dconf and the accessibility bus) and shows itself when GNOME's `screen-keyboard-enabled`
setting is true and a text-input client has the focus (foot); it shows its terminal layout for
foot. A seat keyboard (`wtype`, `KeyboardHolder`) is on the seat from before each keyboard
starts: wvkbd 0.12 types every letter twice on a seat that had none.
"""
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))
from wayland_support import KeyboardHolder, Sway, VirtualPointer  # noqa: E402
from run_e2e import Trace, is_event  # noqa: E402
from e2e_support import kill_group  # noqa: E402

WIDTH, HEIGHT = 1280, 1024
OUTPUTS = {"HEADLESS-1": f"resolution {WIDTH}x{HEIGHT} position 0 0 scale 1"}
HOLD = float(os.environ.get("HEE_WL_HOLD", "0.040"))
GAP = float(os.environ.get("HEE_WL_GAP", "0.030"))
TIMEOUT = 10.0


def stats(values):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    return {"min": round(values[0], 3), "median": round(statistics.median(values), 3), "p99": round(pick(0.99), 3),
            "max": round(values[-1], 3), "n": len(values)}


def pss_mb(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return round(int(line.split()[1]) / 1024, 1)
    return None


def realtime_stamp_ms():
    """Now as WAYLAND_DEBUG prints it: CLOCK_REALTIME microseconds modulo 2^32, in ms."""
    return (time.time_ns() // 1000 % 2 ** 32) / 1000


def first_attach_stamp(path, timeout=TIMEOUT):
    """The WAYLAND_DEBUG stamp (ms) of the first wl_surface.attach in `path`, once written."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("[") and " -> wl_surface@" in line and ".attach(wl_buffer@" in line:
                    return float(line[1:line.index("]")])
        time.sleep(0.01)
    raise RuntimeError(f"no wl_surface.attach within {timeout} s (see {path})")


class Rig:
    """sway headless, the virtual pointer, a seat keyboard, and foot focused with `cat` into
    a FIFO this process reads."""

    def __enter__(self):
        self.work = tempfile.mkdtemp(prefix="hee-bench-wltyping-")
        os.chmod(self.work, 0o755)
        self.sway = Sway(self.work, OUTPUTS).__enter__()
        self.pointer = VirtualPointer(self.sway.socket)
        self.holder = KeyboardHolder(self.sway)
        self.env = self.sway.client_env(SDL_AUDIODRIVER="dummy", XDG_CONFIG_HOME=os.path.join(self.work, "config"),
                                        LANG="C.UTF-8")
        self.bus = None
        fifo = os.path.join(self.work, "typed.fifo")
        os.mkfifo(fifo, 0o666)
        self.reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.foot = subprocess.Popen(["foot", "--app-id", "bench", "sh", "-c", f"stty raw -echo; exec cat > {fifo}"],
                                     env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        window = self.sway.wait_for_window(self.foot.pid)
        if window is None:
            raise RuntimeError("foot did not open a window")
        r = window["rect"]
        self.move(r["x"] + r["width"] // 2, r["y"] + r["height"] // 2)
        self.pointer.button(True)
        self.pointer.button(False)
        self.pointer.sync()
        return self

    def __exit__(self, *exc):
        kill_group(self.foot)
        kill_group(self.bus)
        self.holder.close()
        self.pointer.close()
        os.close(self.reader)
        self.sway.__exit__(*exc)
        shutil.rmtree(self.work, ignore_errors=True)

    def session_bus(self):
        """A D-Bus session bus for the keyboards that need one (its address in `env`)."""
        if self.bus is None:
            self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], env=self.env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
            self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus.stdout.readline().decode().strip()
        return self.env["DBUS_SESSION_BUS_ADDRESS"]

    def move(self, x, y):
        self.pointer.move_to(x, y, WIDTH, HEIGHT)

    def pixel(self, x, y):
        proc = subprocess.run(["grim", "-g", f"{round(x)},{round(y)} 1x1", "-t", "ppm", "-"], env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=TIMEOUT)
        return tuple(proc.stdout[-3:]) if proc.returncode == 0 else None

    def wait_for_pixel(self, x, y, color, what):
        deadline = time.monotonic() + TIMEOUT
        while self.pixel(x, y) != color:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what}: the pixel at ({x}, {y}) is {self.pixel(x, y)}, not {color}")
            time.sleep(0.02)

    def drain(self):
        while select.select([self.reader], [], [], 0)[0]:
            if not os.read(self.reader, 4096):
                break

    def read_text(self, expected, timeout=TIMEOUT):
        """Waits for `expected` from foot; returns the monotonic time it was complete."""
        want = expected.encode()
        got, deadline = b"", time.monotonic() + timeout
        while len(got) < len(want):
            ready, _, _ = select.select([self.reader], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                raise RuntimeError(f"timed out waiting for {expected!r}: got {got!r}")
            got += os.read(self.reader, 4096)
        now = time.monotonic()
        if got != want:
            raise RuntimeError(f"typed {got!r}, expected {expected!r}")
        return now

    def text_arrived(self):
        return bool(select.select([self.reader], [], [], 0)[0])


# --------------------------------------------------------------------------- the keyboards

class Keyboard:
    """One keyboard: how to start it, where its keys are, when it is on the screen.
    `taps`: name → (key centre on the output, text it types, "press" or "release": when it sends)."""
    name = ""
    taps = {}

    def command(self):
        raise NotImplementedError

    def prepare(self, rig):
        """Once per rig, before the first start (positions, settings)."""

    def env(self, rig):
        return dict(rig.env)

    def ready(self, rig):
        """Waits until the keyboard is on the screen."""

    def start(self, rig, debug_path=None):
        env = self.env(rig)
        stderr = subprocess.DEVNULL
        if debug_path:
            env["WAYLAND_DEBUG"] = "client"
            stderr = open(debug_path, "wb")
        exec_stamp = realtime_stamp_ms()
        proc = subprocess.Popen(self.command(), env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=stderr, start_new_session=True)
        if debug_path:
            stderr.close()
        return proc, exec_stamp


class HeeKeyboard(Keyboard):
    name = "HeeKeyboard"

    def __init__(self, binary):
        self.binary = binary

    def command(self):
        return [self.binary, "--system", "--mute", "--no-auto-show"]

    def prepare(self, rig):
        # Where the keys are: the layout trace line of a first run (the app runs without
        # --trace when measured).
        proc = subprocess.Popen([self.binary, "--system", "--mute", "--no-auto-show", "--trace"], env=rig.env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            layout = Trace(proc.stdout).wait_for(is_event("layout"), "the layout", TIMEOUT, consume=False)
        finally:
            kill_group(proc)
        top = HEIGHT - layout["window"]["h"]

        def centre(key):
            k = layout["keys"][key]
            return round(k["x"] + k["w"] / 2), round(top + k["y"] + k["h"] / 2)
        a = layout["keys"]["a"]
        self.probe = (round(a["x"] + a["w"] / 2), round(top + a["y"] + 3))  # the key's white, above its label
        self.taps = {"letter": (centre("a"), "a", "release"), "hee": (centre("hee"), "へぇ〜", "press")}

    def ready(self, rig):
        rig.wait_for_pixel(*self.probe, (255, 255, 255), "HeeKeyboard's a key")


class Wvkbd(Keyboard):
    """wvkbd 0.12's mobintl keyboard: 1280 × 240 on this output, six rows of 40 pixels; the
    fourth row is Cmp, a … l and half a blank key, so `a` spans x 123–242."""
    name = "wvkbd"
    taps = {"letter": ((183, 924), "a", "press")}

    def command(self):
        return ["wvkbd-mobintl"]

    def ready(self, rig):
        rig.wait_for_pixel(183, 912, (46, 46, 46), "wvkbd's a key")


class Squeekboard(Keyboard):
    """squeekboard 1.21's terminal layout (`terminal/us_wide`) for foot: a row of Esc … →, then
    q … p, then a … l; `a` spans x 72–183, y 766–838."""
    name = "squeekboard"
    taps = {"letter": ((128, 802), "a", "press")}

    def command(self):
        return ["squeekboard"]

    def prepare(self, rig):
        rig.session_bus()
        subprocess.run(["gsettings", "set", "org.gnome.desktop.a11y.applications", "screen-keyboard-enabled", "true"],
                       env=rig.env, check=True, timeout=TIMEOUT)

    def ready(self, rig):
        rig.wait_for_pixel(128, 774, (222, 222, 222), "squeekboard's a key")


def keyboards(binary):
    return {"HeeKeyboard": HeeKeyboard(binary), "wvkbd": Wvkbd(), "squeekboard": Squeekboard()}


def installed(keyboard):
    return os.path.exists(keyboard.command()[0]) or shutil.which(keyboard.command()[0]) is not None


# --------------------------------------------------------------------------- measuring

def start_once(keyboard, rig, index):
    """One start: exec → first buffer (ms) and the process, still running."""
    path = os.path.join(rig.work, f"{keyboard.name}-debug-{index}.txt")
    proc, exec_stamp = keyboard.start(rig, debug_path=path)
    try:
        delay = first_attach_stamp(path) - exec_stamp
    except RuntimeError:
        kill_group(proc)
        raise
    return delay + (2 ** 32 / 1000 if delay < 0 else 0), proc


def typing(keyboard, rig, presses, samples):
    """Starts the keyboard and taps each of its keys `presses` times; appends press → text
    (ms) to `samples[tap]`."""
    proc, _ = keyboard.start(rig)
    try:
        keyboard.ready(rig)
        rig.drain()
        for name, ((x, y), text, sends) in keyboard.taps.items():
            rig.move(x - 1, y)
            rig.move(x, y)
            latencies = samples.setdefault(name, [])
            # One tap first, not counted: foot compiles the keymap of a keyboard new to it
            # at its first key (every run starts one).
            for index in range(presses + 1):
                pressed = rig.pointer.button(True)
                if sends == "press":
                    latency = (rig.read_text(text) - pressed) * 1000
                    time.sleep(max(pressed + HOLD - time.monotonic(), 0))
                    rig.pointer.button(False)
                else:
                    time.sleep(HOLD)
                    if rig.text_arrived():
                        raise RuntimeError(f"{keyboard.name} typed {name} before the release")
                    released = rig.pointer.button(False)
                    latency = (rig.read_text(text) - released) * 1000
                if index > 0:
                    latencies.append(latency)
                time.sleep(GAP)
    finally:
        kill_group(proc)


def measure(keyboards, presses, startups, rounds=5):
    """Every figure for each of `keyboards` (name → Keyboard), in one rig, the keyboards taking
    turns (`rounds` runs of presses / rounds taps each, then one start each, `startups` times)
    so that each meets the machine's load alike. Returns name → figures."""
    samples = {name: {} for name in keyboards}
    firsts = {name: [] for name in keyboards}
    pss = {}
    loads = {name: [] for name in keyboards}
    with Rig() as rig:
        for keyboard in keyboards.values():
            keyboard.prepare(rig)
        for turn in range(rounds):
            for name, keyboard in keyboards.items():
                loads[name].append(load_average())
                typing(keyboard, rig, presses // rounds + (1 if turn < presses % rounds else 0), samples[name])
        for i in range(startups):
            for name, keyboard in keyboards.items():
                loads[name].append(load_average())
                first, proc = start_once(keyboard, rig, i)
                try:
                    firsts[name].append(first)
                    if name not in pss:
                        time.sleep(1.0)
                        pss[name] = pss_mb(proc.pid)
                    keyboard.ready(rig)
                finally:
                    kill_group(proc)
    results = {}
    for name, keyboard in keyboards.items():
        result = {}
        for tap, values in samples[name].items():
            result[tap] = stats(values)
            result[tap]["from"] = keyboard.taps[tap][2]
        result["first_buffer_ms"] = stats(firsts[name])
        result["pss_mb"] = pss.get(name)
        result["load_average"] = {"min": min(loads[name]), "max": max(loads[name])}
        results[name] = result
    return results


def load_average():
    return round(os.getloadavg()[0], 2)
