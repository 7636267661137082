"""Real sound servers for the end-to-end tests and the benchmark: PulseAudio, and PipeWire
with WirePlumber and pipewire-pulse, each with a null sink `hee` as the default output,
recorded from its monitor with `parec`.

Every server runs in a directory the caller owns (its XDG_RUNTIME_DIR, HOME, XDG_* and a
private D-Bus session bus), so it never meets the machine's own server or another user's.
Servers run as the current user (root included: PulseAudio with --system=false, whose "not
intended to be run as root" warning is expected). Clients reach them through the same
XDG_RUNTIME_DIR (`client_env`); libpulse's autospawn is switched off in the client's
client.conf, so "no server" really means none.

Standard-library Python 3 only.
"""
import array
import bisect
import math
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import wave

RATE = 48000
SINK = "hee"


class ServerError(Exception):
    pass


def _kill(proc, sig=signal.SIGTERM, grace=3.0):
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=grace)


def _accepts(path):
    """Whether a server listens on the Unix socket `path`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        try:
            s.connect(path)
            return True
        except OSError:
            return False


class SoundServer:
    """Base: directories, a private D-Bus, the environment of clients, recording."""

    name = "?"
    tools = ()

    def __init__(self, root):
        self.root = root
        self.runtime = os.path.join(root, "runtime")
        self.home = os.path.join(root, "home")
        for d in (self.runtime, self.home, os.path.join(self.home, ".config", "pulse")):
            os.makedirs(d, mode=0o700, exist_ok=True)
        with open(os.path.join(self.home, ".config", "pulse", "client.conf"), "w") as f:
            f.write("autospawn = no\n")
        self.bus = None
        self.procs = []
        self.logs = []

    @classmethod
    def missing_tools(cls):
        return [t for t in cls.tools if shutil.which(t) is None]

    def base_env(self):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PULSE_", "PIPEWIRE_", "XDG_", "DBUS_", "SDL_AUDIO"))}
        env.update(XDG_RUNTIME_DIR=self.runtime, HOME=self.home,
                   XDG_CONFIG_HOME=os.path.join(self.home, ".config"),
                   XDG_STATE_HOME=os.path.join(self.home, ".local", "state"),
                   XDG_DATA_HOME=os.path.join(self.home, ".local", "share"),
                   XDG_CACHE_HOME=os.path.join(self.home, ".cache"))
        if self.bus:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus
        return env

    def client_env(self, env=None):
        """`env` (default: ours) changed so that its programs find this server and no other."""
        env = dict(env if env is not None else os.environ)
        for key in list(env):
            if key.startswith(("PULSE_", "PIPEWIRE_")) or key in ("DBUS_SESSION_BUS_ADDRESS",):
                del env[key]
        env.update(XDG_RUNTIME_DIR=self.runtime, HOME=self.home)
        if self.bus:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus
        return env

    def _spawn(self, args, log):
        path = os.path.join(self.root, log)
        self.logs.append(path)
        with open(path, "ab") as out:
            proc = subprocess.Popen(args, env=self.base_env(), stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                    start_new_session=True)
        self.procs.append(proc)
        return proc

    def _start_bus(self):
        if self.bus:
            return
        address = "unix:path=" + os.path.join(self.runtime, "bus")
        self.bus_proc = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=" + address],
                                         env=self.base_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True)
        deadline = time.monotonic() + 10
        while not os.path.exists(os.path.join(self.runtime, "bus")):
            if self.bus_proc.poll() is not None or time.monotonic() > deadline:
                raise ServerError("dbus-daemon did not start")
            time.sleep(0.02)
        self.bus = address

    def pactl(self, *args, check=True, timeout=10):
        proc = subprocess.run(["pactl", *args], env=self.client_env(self.base_env()), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
        if check and proc.returncode != 0:
            raise ServerError(f"pactl {' '.join(args)}: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout.decode(errors="replace")

    def _wait_ready(self, timeout=15):
        deadline = time.monotonic() + timeout
        while True:
            proc = subprocess.run(["pactl", "info"], env=self.client_env(self.base_env()), stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, timeout=10)
            if proc.returncode == 0:
                return proc.stdout.decode(errors="replace")
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.procs):
                raise ServerError(f"{self.name} did not come up; logs: {self.log_tail()}")
            time.sleep(0.05)

    def _wait_sink_default(self, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            info = self.pactl("info", check=False)
            if f"Default Sink: {SINK}" in info and SINK in self.pactl("list", "short", "sinks", check=False):
                return
            if time.monotonic() > deadline:
                raise ServerError(f"{self.name}: the sink {SINK} is not the default: {info}")
            self.pactl("set-default-sink", SINK, check=False)
            time.sleep(0.05)

    def log_tail(self, lines=15):
        out = []
        for path in self.logs:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    out.append(f"--- {os.path.basename(path)}\n" + "".join(f.readlines()[-lines:]))
            except OSError:
                pass
        return "\n".join(out)

    def kill(self, sig=signal.SIGKILL):
        """Ends the server's processes (SIGKILL: as a crash), keeping the bus."""
        for proc in reversed(self.procs):
            _kill(proc, sig)
        self.procs = []

    def close(self):
        self.kill(signal.SIGTERM)
        _kill(getattr(self, "bus_proc", None))
        self.bus = None

    def restart(self):
        self.kill()
        self.start()

    def record(self, fragment_frames=128):
        """Starts recording the sink's monitor in fragments of `fragment_frames` (parec's
        requested latency): as small as the app's own buffer, so the recorder never makes the
        server run faster than the app alone would (PipeWire's quantum follows the smallest
        latency asked for)."""
        return Recorder(self, fragment_frames)


class PulseAudio(SoundServer):
    name = "PulseAudio"
    tools = ("pulseaudio", "pactl", "parec", "dbus-daemon")

    def start(self):
        self._start_bus()
        self._spawn(["pulseaudio", "-n", "--daemonize=no", "--system=false", "--disallow-exit", "--exit-idle-time=-1",
                     "--use-pid-file=no", "--log-target=stderr",
                     "-L", f"module-null-sink sink_name={SINK} rate={RATE}",
                     "-L", "module-native-protocol-unix auth-anonymous=1"], "pulseaudio.log")
        info = self._wait_ready()
        if "Server Name: pulseaudio" not in info:
            raise ServerError(f"not PulseAudio: {info}")
        self._wait_sink_default()

    def base_env(self):
        env = super().base_env()
        env["PULSE_RUNTIME_PATH"] = os.path.join(self.runtime, "pulse")
        env["PULSE_STATE_PATH"] = os.path.join(self.home, ".pulse-state")
        return env


class PipeWire(SoundServer):
    name = "PipeWire"
    tools = ("pipewire", "wireplumber", "pipewire-pulse", "pactl", "parec", "dbus-daemon")

    def start(self):
        self._start_bus()
        # No Bluetooth monitor: it needs logind (an inotify instance, of which a busy machine
        # may have none left) and there is no Bluetooth here; a user file of the same name
        # replaces WirePlumber's own.
        bluetooth = os.path.join(self.home, ".config", "wireplumber", "bluetooth.lua.d")
        os.makedirs(bluetooth, exist_ok=True)
        with open(os.path.join(bluetooth, "90-enable-all.lua"), "w") as f:
            f.write("-- bluez_monitor.enable() left out by the tests\n")
        path = os.path.join(self.runtime, "pipewire-0")  # may be left stale by a kill
        self._spawn(["pipewire"], "pipewire.log")
        deadline = time.monotonic() + 10
        while not _accepts(path):
            if time.monotonic() > deadline:
                raise ServerError(f"pipewire did not start: {self.log_tail()}")
            time.sleep(0.02)
        self._spawn(["wireplumber"], "wireplumber.log")
        # pipewire-pulse makes $XDG_RUNTIME_DIR/pulse when it is missing, and gives up if
        # someone else (a libpulse client polling for the server: pactl, the app) made it in
        # between: made here first, as it would be on a desktop after the first start.
        os.makedirs(os.path.join(self.runtime, "pulse"), mode=0o700, exist_ok=True)
        self._spawn(["pipewire-pulse"], "pipewire-pulse.log")
        info = self._wait_ready()
        if "PipeWire" not in info:
            raise ServerError(f"not pipewire-pulse: {info}")
        if SINK not in self.pactl("list", "short", "sinks", check=False):
            self.pactl("load-module", "module-null-sink", f"sink_name={SINK}", f"rate={RATE}")
        self._wait_sink_default()


SERVERS = (PulseAudio, PipeWire)


class Recorder:
    """`parec` on the null sink's monitor, 48 kHz mono s16; a thread keeps every chunk with
    its arrival time (time.monotonic())."""

    def __init__(self, server, fragment_frames):
        self.proc = subprocess.Popen(
            ["parec", "-d", f"{SINK}.monitor", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=1",
             f"--latency={fragment_frames * 2}"],
            env=server.client_env(server.base_env()), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True)
        self.data = bytearray()
        self.times = []   # arrival time of each chunk
        self.ends = []    # frame count at the end of each chunk
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.ends:  # recording for real
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise ServerError("parec did not start recording")
            time.sleep(0.01)

    def _read(self):
        fd = self.proc.stdout.fileno()
        while True:
            chunk = os.read(fd, 65536)
            now = time.monotonic()
            if not chunk:
                return
            with self.lock:
                self.data += chunk
                self.times.append(now)
                self.ends.append(len(self.data) // 2)

    def stop(self):
        _kill(self.proc)
        self.thread.join(timeout=2)

    def samples(self):
        with self.lock:
            return array.array("h", bytes(self.data[:len(self.data) // 2 * 2])), list(self.times), list(self.ends)

    def onset_after(self, t0):
        """(frame index, arrival time) of the first non-zero sample recorded after time `t0`
        (a chunk arriving after t0 or later), or None."""
        a, times, ends = self.samples()
        k = bisect.bisect_right(times, t0)
        i = ends[k - 1] if k > 0 else 0
        while i < len(a) and a[i] == 0:
            i += 1
        if i >= len(a):
            return None
        j = bisect.bisect_right(ends, i)
        return i, times[j]

    def wait_frames(self, frames, timeout=15.0):
        """The recording once it holds `frames` frames (or all of it after `timeout`, a safety
        net: the caller's check then says what is missing)."""
        deadline = time.monotonic() + timeout
        while True:
            recorded, _, _ = self.samples()
            if len(recorded) >= frames or time.monotonic() > deadline or self.proc.poll() is not None:
                return recorded
            time.sleep(0.05)

    def wait_onset(self, t0, timeout=10.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.onset_after(t0)
            if found:
                return found
            time.sleep(0.05)
        return None


def load_clip(path):
    with wave.open(path) as w:
        if w.getnchannels() != 1 or w.getsampwidth() != 2:
            raise ServerError(f"{path}: expected mono 16-bit")
        return array.array("h", w.readframes(w.getnframes())), w.getframerate()


def _correlation(a, b):
    dot = sum(p * q for p, q in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(x * x for x in b))
    return dot / (na * nb) if na and nb else 0.0


def without_gaps(samples, shortest=16):
    """`samples` without the runs of exact digital silence of `shortest` frames or more: the
    gaps a server leaves when a stream's buffer comes late (an underrun on a loaded machine).
    The clip has no such run (a spoken word, normalised), so what remains is what was played,
    in order."""
    out, run = array.array("h"), 0
    for x in samples:
        if x == 0:
            run += 1
            continue
        if 0 < run < shortest:
            out.extend([0] * run)
        run = 0
        out.append(x)
    if 0 < run < shortest:
        out.extend([0] * run)
    return out


def match(recorded, start, clip, windows=8, size=512, search=4800):
    """How well the recording from frame `start` on holds the clip: the clip's first half
    second is cut into `windows` pieces of `size` frames, each looked for within ±`search`
    frames (100 ms) of where it belongs — a server that drops a few buffers under load (an
    underrun leaves silence and shifts the rest) still plays the clip. Returns the fraction of
    pieces found with a normalised correlation of at least 0.9, and the ratio of the
    recording's peak to the clip's."""
    length = min(len(clip), RATE // 2)
    found = 0
    for n in range(windows):
        at = n * (length - size) // max(windows - 1, 1)
        piece = clip[at:at + size]
        if max(abs(x) for x in piece) < 300:  # too quiet to tell
            found += 1
            continue
        coarse = piece[::4]
        best, best_offset = -1.0, 0
        for offset in range(-search, search + 1, 8):  # every 4th sample, then all around the best
            s = start + at + offset
            if 0 <= s and s + size <= len(recorded):
                c = _correlation(coarse, recorded[s:s + size:4])
                if c > best:
                    best, best_offset = c, offset
        best = -1.0
        for offset in range(best_offset - 8, best_offset + 9):
            s = start + at + offset
            if 0 <= s and s + size <= len(recorded):
                best = max(best, _correlation(piece, recorded[s:s + size]))
        if best >= 0.9:
            found += 1
    segment = recorded[max(start, 0):start + length]
    peak = max((abs(x) for x in segment), default=0) / (max(abs(x) for x in clip[:length]) or 1)
    return found / windows, peak
