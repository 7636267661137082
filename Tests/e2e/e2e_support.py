"""Helpers shared by the end-to-end test scripts in this directory (and the benchmarks):
failures, progress lines, the binary under test, process groups, a private Xvfb, a private
D-Bus session bus, the reader of the app's --trace output, and the frame every script's main()
runs in. Standard library only."""
import contextlib
import json
import os
import queue
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

class CheckFailed(Exception):
    pass


class Prerequisite(Exception):
    pass


def ok(message):
    print(f"ok - {message}", flush=True)


def fail(message):
    raise CheckFailed(message)


def required():
    """Whether every test tool must be there (CI): a missing one fails instead of skipping."""
    return os.environ.get("CI") == "true" or os.environ.get("HEE_E2E_REQUIRE") == "1"


def missing_tool(message):
    """A check whose tool is missing: skipped with a message on a developer's machine, a failure
    in CI (CI=true, or HEE_E2E_REQUIRE=1 as .ci/run sets), where scripts/install-deps.sh
    installs every tool."""
    if required():
        fail(f"{message}; CI must have it (scripts/install-deps.sh)")
    print(f"SKIP - {message}", flush=True)


def require_tools(*names):
    """Raises Prerequisite naming the first of the programs `names` that is not on PATH."""
    for name in names:
        if shutil.which(name) is None:
            raise Prerequisite(f"{name} not found (scripts/install-deps.sh installs it)")


def kill_group(proc, grace=2.0):
    """Ends a process started with start_new_session=True, and its whole group."""
    if proc is None:
        return
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # stragglers in the group, if any
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass


def wait_until(predicate, what, timeout):
    """Polls `predicate` every 20 ms until it returns something true, and returns that; fails
    naming `what` after `timeout` seconds (a safety net, never what a test checks)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


def wait_for_clipboard(env, expected, owner, timeout=10.0):
    """Waits until the X clipboard reads back `expected`: the `owner` process (xclip) has
    taken the selection. Reading it back is the proof; no fixed wait."""
    deadline = time.monotonic() + timeout
    while True:
        proc = subprocess.run(["xclip", "-o", "-selection", "clipboard"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env, timeout=timeout)
        got = proc.stdout.decode(errors="replace") if proc.returncode == 0 else None
        if got == expected:
            return
        if owner.poll() is not None:
            fail(f"xclip exited ({owner.returncode}) before it owned the clipboard")
        if time.monotonic() > deadline:
            fail(f"xclip did not take the clipboard within {timeout} s "
                 f"({'nothing' if got is None else f'{len(got)} characters'} read back)")
        time.sleep(0.05)


def display_range(first, last):
    """The X display numbers a script may use: `first`…`last`, or HEE_E2E_DISPLAYS
    (`41-49`) when set, so that several people testing on one machine keep apart."""
    wanted = os.environ.get("HEE_E2E_DISPLAYS")
    if not wanted:
        return first, last
    low, _, high = wanted.partition("-")
    return int(low), int(high or low)


def start_xvfb(first=91, last=160, size="1280x1024x24"):
    """Starts Xvfb (screen `size`) on the first free display from :first (see
    `display_range`); returns (process, ':N')."""
    if shutil.which("Xvfb") is None:
        raise Prerequisite("Xvfb not found (apt-get install xvfb)")
    first, last = display_range(first, last)
    for number in range(first, last + 1):
        if os.path.exists(f"/tmp/.X{number}-lock") or os.path.exists(f"/tmp/.X11-unix/X{number}"):
            continue
        read_fd, write_fd = os.pipe()
        proc = subprocess.Popen(
            ["Xvfb", f":{number}", "-screen", "0", size, "-nolisten", "tcp",
             "-displayfd", str(write_fd)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=(write_fd,),
            start_new_session=True)
        os.close(write_fd)
        ready = b""
        deadline = time.monotonic() + 10
        try:
            while time.monotonic() < deadline and proc.poll() is None:
                r, _, _ = select.select([read_fd], [], [], 0.1)
                if r:
                    chunk = os.read(read_fd, 64)
                    if not chunk:
                        break
                    ready += chunk
                    if ready.endswith(b"\n"):
                        break
        finally:
            os.close(read_fd)
        if ready.strip() and proc.poll() is None:
            return proc, f":{ready.strip().decode()}"
        kill_group(proc, grace=1)  # display taken meanwhile, or Xvfb failed: try the next one
    raise Prerequisite(f"could not start Xvfb on any display :{first}…:{last}")


def app_binary():
    """The HeeApp binary under test: `$HEE_APP` (a relative path is taken from the current
    directory), else the release build `<repo>/.build/release/HeeApp`.
    Raises Prerequisite when it is not an executable file."""
    binary = os.environ.get("HEE_APP")
    binary = os.path.abspath(binary) if binary else os.path.join(REPO_ROOT, ".build", "release", "HeeApp")
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise Prerequisite(f"no executable at {binary} (build with `swift build -c release` or set HEE_APP)")
    return binary



def is_event(kind, **fields):
    """A predicate for TraceReader.wait_for: a trace event of `kind` (its "event" field) whose
    `fields` all have the given values."""
    return lambda e: e.get("event") == kind and all(e.get(k) == v for k, v in fields.items())


class TraceReader:
    """The app's `--trace` output (JSON Lines on its stdout: one object a line with at least
    "event" and "t"), read as it comes.

    A daemon thread reads `stream` (a binary pipe, the app's stdout) line by line, decodes each
    line as UTF-8 (undecodable bytes replaced) and queues it; `drain` moves what has been
    queued into `lines` (each line's text without its newline, for failure messages) and
    `events` (what `parse` made of it, in arrival order). `closed` becomes true once the stream
    has ended (the app closed its stdout or exited) and everything before that end is in
    `events`. `cursor` is the index of the first event no check has consumed yet: `wait_for`
    with `consume` moves it past the event it returns, `mark` past everything received.

    Times are in seconds: `timeout` is `wait_for`'s default, a safety net for a wait and never
    what a check measures; `poll` is the longest a wait blocks on the queue between two looks
    at `events`. A script's own behaviour goes in a small subclass: `parse` (how a line becomes
    an event, and what a bad line does), `closed_message` and `timeout_message` (what a failed
    wait says)."""

    def __init__(self, stream, timeout, poll=0.05):
        self.default_timeout = timeout
        self.poll_seconds = poll
        self.queue = queue.Queue()
        self.events = []
        self.lines = []
        self.closed = False
        self.cursor = 0
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream):
        for raw in iter(stream.readline, b""):
            self.queue.put(raw.decode("utf-8", errors="replace"))
        self.queue.put(None)

    def parse(self, line):
        """The event one trace line holds (`line`: its text with its newline), or None to drop
        the line. Raises json.JSONDecodeError for a line that is not JSON (a subclass may fail
        with a message instead)."""
        return json.loads(line)

    def drain(self, block=0.0):
        """Moves every queued line into `lines` and `events`, first waiting up to `block`
        seconds for one when none is queued."""
        try:
            item = self.queue.get(timeout=block) if block > 0 else self.queue.get_nowait()
        except queue.Empty:
            return
        while True:
            if item is None:
                self.closed = True
            else:
                self.lines.append(item.rstrip("\n"))
                event = self.parse(item)
                if event is not None:
                    self.events.append(event)
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return

    def mark(self):
        """Moves the cursor past every event received so far; returns it."""
        self.drain()
        self.cursor = len(self.events)
        return self.cursor

    def wait_for(self, predicate, what, timeout=None, since=None, consume=False):
        """The first event at or after index `since` (default: the cursor) for which
        `predicate` is true, waiting up to `timeout` seconds (default: the reader's) for it to
        arrive; with `consume`, the cursor moves past it. `what` names the event in the
        failure message. Raises CheckFailed with `closed_message` when the stream ends first,
        with `timeout_message` when the time is up."""
        timeout = self.default_timeout if timeout is None else timeout
        start = self.cursor if since is None else since
        deadline = time.monotonic() + timeout
        index = start
        while True:
            self.drain()
            while index < len(self.events):
                if predicate(self.events[index]):
                    if consume:
                        self.cursor = max(self.cursor, index + 1)
                    return self.events[index]
                index += 1
            remaining = deadline - time.monotonic()
            if self.closed:
                fail(self.closed_message(what))
            if remaining <= 0:
                fail(self.timeout_message(what, timeout, start))
            self.drain(min(remaining, self.poll_seconds))

    def closed_message(self, what):
        """What a wait for `what` says when the stream ended first."""
        return f"the app exited while waiting for {what}"

    def timeout_message(self, what, timeout, since):
        """What a wait for `what` from event index `since` says after `timeout` seconds."""
        return f"timed out after {timeout} s waiting for {what}"

class SessionBus:
    """A private D-Bus session bus for everything a script starts: the app, its targets,
    window managers.

    Without a session bus, libdbus (SDL_Init's, for input methods) and GLib (GTK targets)
    autolaunch one per process that has a DISPLAY (`dbus-launch --autolaunch`, a
    `dbus-daemon --syslog-only --fork` that nobody stops): hundreds of them piled up on the
    shared test machine, with their inotify instances. This bus is a `dbus-daemon` in its own
    process group, listening in `directory`, with no service directories, so nothing is
    activated through it (no accessibility bus, no dconf service) and nothing outlives it.
    `start` (in a directory of its own) exports its address in `os.environ`, so every child inherits it; an environment
    built from scratch gets it from `env`. `stop` ends it."""

    CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""

    def __init__(self):
        self.proc = None
        self.address = None
        self.previous = None

    def start(self, directory):
        """Starts the bus with its socket in `directory`. Without dbus-daemon, the address
        leads nowhere: no bus, but nothing is autolaunched either. Raises Prerequisite when
        dbus-daemon does not start."""
        os.makedirs(directory, exist_ok=True)
        socket = os.path.join(directory, "socket")
        if shutil.which("dbus-daemon") is None:
            print("# dbus-daemon not found: the apps run without a session bus", flush=True)
            self._export("unix:path=" + socket)
            return self
        config = os.path.join(directory, "bus.conf")
        with open(config, "w", encoding="utf-8") as f:
            f.write(self.CONFIG.format(socket=socket))
        self.proc = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork", "--nopidfile"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 10
        while not os.path.exists(socket):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                kill_group(self.proc)
                raise Prerequisite("the private D-Bus session bus (dbus-daemon) did not start")
            time.sleep(0.01)
        self._export("unix:path=" + socket)
        return self

    def _export(self, address):
        self.address = address
        self.previous = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = address
        # GTK's accessibility bridge would look for an accessibility bus on it: not here.
        os.environ.setdefault("NO_AT_BRIDGE", "1")

    def env(self, env):
        """`env` (a dict) with this bus as its session bus."""
        env = dict(env)
        if self.address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.address
            env.setdefault("NO_AT_BRIDGE", "1")
        return env

    def stop(self):
        if self.address is None:
            return
        kill_group(self.proc)
        self.proc = None
        if os.environ.get("DBUS_SESSION_BUS_ADDRESS") == self.address:
            if self.previous is None:
                os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
            else:
                os.environ["DBUS_SESSION_BUS_ADDRESS"] = self.previous
        self.address = None


#: The running script's private session bus (started by `script_main`), and the directory of
#: the work directory it lives in.
session_bus = SessionBus()
BUS_DIRECTORY = ".session-bus"


@contextlib.contextmanager
def private_session_bus():
    """`session_bus` started in a temporary directory for the `with` block (scripts that do
    not run in `script_main`: the benchmarks)."""
    directory = tempfile.mkdtemp(prefix="hee-session-bus-")
    try:
        yield session_bus.start(directory)
    finally:
        session_bus.stop()
        shutil.rmtree(directory, ignore_errors=True)


def script_main(body, *, prefix, keep_variable="HEE_E2E_KEEP", skip_missing=False):
    """The frame of every test script's main(): a work directory, the private session bus,
    `body(workdir)`, and the exit status, which it returns.

    - 0: `body` returned;
    - 1: a check failed (`CheckFailed`: `FAIL: …`) or `body` raised anything else (traceback);
    - 2: a prerequisite is missing (`Prerequisite`: `SKIP/ERROR: …`). With `skip_missing`, a
      missing prerequisite is a skip on a developer's machine (`SKIP: …`, status 0) and a
      failure only where every tool must be there (CI, `required()`).

    SIGTERM ends it through the same path (its `finally` clauses kill what it started). The
    work directory is removed after a pass, kept (and named on stderr) after a failure, or
    always with `keep_variable` or HEE_E2E_KEEP set to 1."""
    began = time.monotonic()
    workdir = tempfile.mkdtemp(prefix=prefix)
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    status = 0
    try:
        session_bus.start(os.path.join(workdir, BUS_DIRECTORY))
        body(workdir)
    except CheckFailed as error:
        status = 1
        print(f"FAIL: {error}", file=sys.stderr, flush=True)
    except Prerequisite as error:
        if skip_missing and not required():
            print(f"SKIP: {error}", flush=True)
        else:
            status = 2
            print(f"SKIP/ERROR: {error}" + ("; CI must have it (scripts/install-deps.sh)" if required() else ""),
                  file=sys.stderr, flush=True)
    except Exception:
        status = 1
        traceback.print_exc()
    finally:
        session_bus.stop()
        signal.signal(signal.SIGTERM, previous)
        keep = os.environ.get(keep_variable) == "1" or os.environ.get("HEE_E2E_KEEP") == "1"
        left = [name for name in os.listdir(workdir) if name != BUS_DIRECTORY]
        if (status != 0 and left) or keep:
            print(f"# work dir kept: {workdir} ({time.monotonic() - began:.1f} s)",
                  file=sys.stderr if status else sys.stdout, flush=True)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return status


def run_scenarios(scenarios, only_variable, *args):
    """Runs numbered scenarios, `(number, title, function)`, each as `function(*args)`, in
    order, stopping at the first failure, which it names: `scenario N. title: …`.
    `only_variable` (e.g. HEE_REPLAY_ONLY=3,5) picks some by number."""
    began = time.monotonic()
    only = os.environ.get(only_variable)
    selected = {int(n) for n in only.split(",") if n.strip()} if only else None
    for number, title, function in scenarios:
        if selected is not None and number not in selected:
            continue
        current = f"{number}. {title}"
        print(f"# {current}", flush=True)
        started = time.monotonic()
        try:
            function(*args)
        except CheckFailed as error:
            raise CheckFailed(f"scenario {current}: {error}") from None
        print(f"# {current}: passed in {time.monotonic() - started:.2f} s", flush=True)
    print(f"# all scenarios passed in {time.monotonic() - began:.1f} s", flush=True)
