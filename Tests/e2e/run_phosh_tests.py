#!/usr/bin/env python3
"""End-to-end tests of HeeKeyboard as Phosh's keyboard (issue 31): phoc 0.24 headless (wlroots'
headless backend, the pixman renderer, a 720×1440 output at scale 2: 360×720 points) with
Tests/phosh's hee_phoc_seat.so preloaded (it gives phoc the seat phosh needs and makes each
frame whole for grim), phosh 0.24 (`-U`) inside it, all as the unprivileged user `hee-phosh` on
a session bus of their own; `HeeApp --system --trace` with XDG_CURRENT_DESKTOP=Phosh:GNOME
beside a GTK 3 window of entries (Tests/e2e/targets/gtk_focus.py).

Scenarios (in order; each runs even if an earlier one failed):
  name        the keyboard owns `sm.puri.OSK0` on the session bus (GetNameOwner) and, with the
              GTK window's button focused, stays hidden from the start (no `keyboard show`);
              `Visible` reads false (GetVisible and the property)
  focus       an entry focused: `keyboard show`, `Visible` true and announced with
              PropertiesChanged (gdbus monitor), and the keyboard's pixels in grim's screenshot
              along the bottom of the screen, where they were not while hidden
  setvisible  SetVisible(false) (gdbus call): `setVisible` and `keyboard hide` in the trace,
              `Visible` false, nothing on the screen's bottom rows changes back; another entry
              focused keeps it hidden (the request holds while a field stays active); the button
              focused and an entry again shows it (the active state changed); SetVisible(true)
              with the button focused shows it, and it stays past the 250 ms hold
  taken       squeekboard owns `sm.puri.OSK0` first: a second HeeKeyboard says so in one line
              on stderr and runs on as a plain keyboard (its trace goes on; squeekboard keeps
              the name)
  session     another phoc runs `gnome-session --builtin` (a session of phosh and sm.puri.OSK0,
              data/sm.puri.HeeKeyboard.desktop as sm.puri.OSK0.desktop, a stand-in system bus):
              the session runs (IsSessionRunning) without gnome-session's 90 s wait for an
              unregistered client, HeeKeyboard is its client sm.puri.OSK0 and owns the name, and
              a logout (EndSession) ends it

Prints `ok - ...` per check, `not ok - SCENARIO: message` per failed scenario; exits 1 if any
failed, 2 when a prerequisite is missing (phoc, phosh, squeekboard, grim, gdbus, the seat
library's build). Environment: HEE_APP, HEE_E2E_KEEP=1, HEE_PHOSH_ONLY (comma-separated names).
Takes about 15 s.
"""
import functools
import os
import pwd
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_support  # noqa: E402
from e2e_support import Prerequisite, app_binary, fail, kill_group, ok, script_main  # noqa: E402
from run_e2e import Trace, is_event  # noqa: E402
from wayland_support import run_each  # noqa: E402

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEAT_SOURCE = os.path.join(REPO_ROOT, "Tests", "phosh")
TARGETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "targets")
USER = "hee-phosh"
SOCKET = "hee-ph-0"                 # the name clients use (a link to phoc's socket in our runtime dir)
WIDTH, HEIGHT, SCALE = 360, 720, 2  # points; the output is 720×1440 pixels
TIMEOUT = 20.0                      # safety nets for waits, never what is checked
HOLD = 0.25                         # AutoShow.hideDelay
PHOC_INI = f"""[core]
xwayland=false

[output:HEADLESS-1]
mode = {WIDTH * SCALE}x{HEIGHT * SCALE}
scale = {SCALE}
"""


# An empty system bus for gnome-session, which aborts without one (no logind, no upower).
SYSTEM_BUS = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


def account():
    """(uid, gid) of the unprivileged user the session runs as (created when missing)."""
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        proc = subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                               "--shell", "/usr/sbin/nologin", USER], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode not in (0, 9):
            raise Prerequisite(f"useradd {USER} failed: {proc.stdout.decode(errors='replace').strip()}")
        entry = pwd.getpwnam(USER)
    return entry.pw_uid, entry.pw_gid


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


wait_until = functools.partial(e2e_support.wait_until, timeout=TIMEOUT)


class Phosh:
    """A session bus, phoc with the seat library and phosh in it, as USER, for a `with` block."""

    def __init__(self, workdir, session=False):
        """`session`: phoc runs gnome-session (`--builtin`, the session `hee-phosh`: phosh and
        `sm.puri.OSK0`, HeeKeyboard's desktop entry) on a stand-in system bus, instead of phosh."""
        self.workdir = workdir
        self.session = session
        self.procs = []

    def __enter__(self):
        if os.geteuid() != 0:
            raise Prerequisite("the Phosh tests run as root (they start the session as the user hee-phosh)")
        for tool in ("phoc", "dbus-daemon", "gdbus", "grim", "squeekboard", "make", "cc"):
            if shutil.which(tool) is None:
                raise Prerequisite(f"{tool} not found (scripts/install-deps.sh installs it)")
        if not os.path.exists("/usr/libexec/phosh"):
            raise Prerequisite("/usr/libexec/phosh not found (apt-get install phosh)")
        self.uid, self.gid = account()
        build = os.path.join(self.workdir, "build")
        made = subprocess.run(["make", "-s", "-C", SEAT_SOURCE, f"BUILD={build}"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
        if made.returncode != 0:
            raise Prerequisite(f"Tests/phosh did not build (libwlroots-dev?): {made.stdout.decode(errors='replace')[-400:]}")
        self.seat = os.path.join(build, "hee_phoc_seat.so")
        os.chmod(self.workdir, 0o755)
        os.chmod(build, 0o755)
        self.share = os.path.join(self.workdir, "share")
        self.runtime = os.path.join(self.workdir, "runtime")
        self.home = os.path.join(self.workdir, "home")
        for path, mode in ((self.runtime, 0o700), (self.home, 0o755)):
            os.makedirs(path)
            os.chown(path, self.uid, self.gid)
            os.chmod(path, mode)
        self.ini = os.path.join(self.workdir, "phoc.ini")
        with open(self.ini, "w", encoding="utf-8") as f:
            f.write(PHOC_INI)
        os.chmod(self.ini, 0o644)
        bus = os.path.join(self.runtime, "bus")
        self.start(["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--address=unix:path={bus}"], "dbus")
        wait_until(lambda: os.path.exists(bus), "the session bus")
        command, extra = "/usr/libexec/phosh -U", {}
        if self.session:
            command, extra = self.session_files()
        self.phoc = self.start(["phoc", "-S", "-C", self.ini, "-E", command], "phoc", **extra,
                               LD_PRELOAD=self.seat, WLR_BACKENDS="headless", WLR_RENDERER="pixman",
                               WLR_LIBINPUT_NO_DEVICES="1", HEE_PHOC_SIZE=f"{WIDTH}x{HEIGHT}")
        wayland = os.path.join(self.runtime, "wayland-0")
        wait_until(lambda: os.path.exists(wayland) or self.phoc.poll() is not None, "phoc's socket")
        if self.phoc.poll() is not None:
            fail(f"phoc exited: {read(self.log('phoc'))[-600:]}")
        os.symlink("wayland-0", os.path.join(self.runtime, SOCKET))
        # phosh is up once its shell surfaces are on the screen: its home bar's pixels.
        wait_until(lambda: self.phosh_running(), "phosh to start", timeout=30)
        return self

    def session_files(self):
        """gnome-session's files (a session naming phosh and sm.puri.OSK0, phosh's entry with
        `-U`, data/sm.puri.HeeKeyboard.desktop as sm.puri.OSK0.desktop with its Exec pointed at
        the binary under test, its trace and stderr in files) and its stand-in system bus;
        returns what phoc runs and its environment."""
        if shutil.which("gnome-session") is None:
            raise Prerequisite("gnome-session not found (apt-get install gnome-session-bin)")
        os.makedirs(os.path.join(self.share, "gnome-session", "sessions"))
        os.makedirs(os.path.join(self.share, "applications"))
        with open(os.path.join(self.share, "gnome-session", "sessions", "hee-phosh.session"), "w") as f:
            f.write("[GNOME Session]\nName=Phosh (HeeKeyboard test)\nRequiredComponents=sm.puri.Phosh;sm.puri.OSK0;\n")
        with open("/usr/share/applications/sm.puri.Phosh.desktop", encoding="utf-8") as f:
            phosh = f.read().replace("Exec=/usr/libexec/phosh\n", "Exec=/usr/libexec/phosh -U\n")
        with open(os.path.join(self.share, "applications", "sm.puri.Phosh.desktop"), "w", encoding="utf-8") as f:
            f.write(phosh)
        wrapper = os.path.join(self.share, "hee-keyboard")
        with open(wrapper, "w") as f:
            f.write(f"#!/bin/sh\nexec {app_binary()} \"$@\" --trace --mute >>{self.home}/session-trace.jsonl "
                    f"2>>{self.home}/session-stderr.txt\n")
        os.chmod(wrapper, 0o755)
        with open(os.path.join(REPO_ROOT, "data", "sm.puri.HeeKeyboard.desktop"), encoding="utf-8") as f:
            entry = f.read().replace("Exec=hee-keyboard ", f"Exec={wrapper} ")
        with open(os.path.join(self.share, "applications", "sm.puri.OSK0.desktop"), "w", encoding="utf-8") as f:
            f.write(entry)
        for root, dirs, files in os.walk(self.share):
            for name in dirs + files:
                os.chmod(os.path.join(root, name), 0o755)
        os.chmod(self.share, 0o755)
        config = os.path.join(self.workdir, "system-bus.conf")
        with open(config, "w") as f:
            f.write(SYSTEM_BUS.format(socket=os.path.join(self.runtime, "system_bus")))
        os.chmod(config, 0o644)
        system = os.path.join(self.runtime, "system_bus")
        self.start(["dbus-daemon", f"--config-file={config}", "--nofork", "--nopidfile"], "system-dbus")
        wait_until(lambda: os.path.exists(system), "the stand-in system bus")
        command = f"gnome-session --disable-acceleration-check --session=hee-phosh --builtin"
        return command, {"DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={system}", "XDG_SESSION_DESKTOP": "phosh",
                         "XDG_DATA_DIRS": f"{self.share}:/usr/share"}

    def phosh_running(self):
        if self.phoc.poll() is not None:
            fail(f"phoc exited: {read(self.log('phoc'))[-600:]}")
        names = self.gdbus("call", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                           "--method", "org.freedesktop.DBus.ListNames")
        return "sm.puri.Phosh" in names

    def log(self, name):
        return os.path.join(self.workdir, f"{name}.log")

    def env(self, **extra):
        env = {"PATH": "/usr/bin:/bin", "HOME": self.home, "XDG_RUNTIME_DIR": self.runtime,
               "WAYLAND_DISPLAY": SOCKET, "DBUS_SESSION_BUS_ADDRESS": f"unix:path={self.runtime}/bus",
               "XDG_CURRENT_DESKTOP": "Phosh:GNOME", "XDG_SESSION_TYPE": "wayland", "LANG": "C.UTF-8",
               "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1", "GDK_BACKEND": "wayland",
               "SDL_AUDIODRIVER": "dummy"}
        env.update(extra)
        return env

    def start(self, args, name, stdin=subprocess.DEVNULL, stdout=None, **extra):
        log = open(self.log(name), "ab")
        proc = subprocess.Popen(args, env=self.env(**extra), cwd=self.home, stdin=stdin,
                                stdout=stdout if stdout is not None else log, stderr=log, start_new_session=True,
                                user=self.uid, group=self.gid, extra_groups=[])
        log.close()
        self.procs.append(proc)
        return proc

    def gdbus(self, *args):
        proc = subprocess.run(["gdbus", args[0], "--session", *args[1:]], env=self.env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, user=self.uid, group=self.gid, extra_groups=[], timeout=TIMEOUT)
        return proc.stdout.decode(errors="replace").strip()

    def owner(self, name="sm.puri.OSK0"):
        """The unique name owning `name`, or None."""
        answer = self.gdbus("call", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                            "--method", "org.freedesktop.DBus.GetNameOwner", name)
        return answer.split("'")[1] if answer.startswith("('") else None

    def osk(self, method, *args):
        return self.gdbus("call", "--dest", "sm.puri.OSK0", "--object-path", "/sm/puri/OSK0",
                          "--method", f"sm.puri.OSK0.{method}", *args)

    def visible_property(self):
        return self.gdbus("call", "--dest", "sm.puri.OSK0", "--object-path", "/sm/puri/OSK0",
                          "--method", "org.freedesktop.DBus.Properties.Get", "sm.puri.OSK0", "Visible")

    def screenshot(self, name):
        """The screen as rows of RGB pixels (grim's PPM), `HEIGHT * SCALE` rows."""
        path = os.path.join(self.home, f"{name}.ppm")
        proc = subprocess.run(["grim", "-t", "ppm", path], env=self.env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, user=self.uid, group=self.gid, extra_groups=[], timeout=TIMEOUT)
        if proc.returncode != 0:
            fail(f"grim failed: {proc.stdout.decode(errors='replace')}")
        with open(path, "rb") as f:
            data = f.read()
        fields = data.split(maxsplit=4)
        width, height = int(fields[1]), int(fields[2])
        pixels = fields[4]
        return width, height, pixels

    def __exit__(self, *exc):
        for proc in reversed(self.procs):
            kill_group(proc)
        return False


def bottom_rows(shot, points):
    """The bytes of the screenshot's bottom `points` rows."""
    width, height, pixels = shot
    rows = points * SCALE
    return pixels[(height - rows) * width * 3:height * width * 3]


def differing(a, b):
    """How many of two equally long byte strings' pixels differ."""
    return sum(1 for i in range(0, len(a), 3) if a[i:i + 3] != b[i:i + 3])


class Keyboard:
    """HeeApp --system --trace in the Phosh session; its trace, its stderr."""

    def __init__(self, rig, name):
        self.rig = rig
        self.stderr = rig.log(name)
        self.proc = rig.start([app_binary(), "--system", "--trace", "--mute"], name, stdout=subprocess.PIPE)
        self.trace = Trace(self.proc.stdout)
        self.trace.wait_for(is_event("layout"), "the keyboard's first layout", TIMEOUT, consume=False)

    def stop(self):
        kill_group(self.proc)


class Fields:
    """The GTK window of entries, driven through its stdin."""

    def __init__(self, rig):
        self.proc = rig.start(["/usr/bin/python3", os.path.join(TARGETS, "gtk_focus.py"), "phosh fields"], "gtk",
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        if self.readline() != "ready":
            fail(f"the GTK window did not start: {read(rig.log('gtk'))[-400:]}")

    def readline(self):
        return self.proc.stdout.readline().decode(errors="replace").strip()

    def focus(self, name):
        self.proc.stdin.write(f"focus {name}\n".encode())
        self.proc.stdin.flush()
        answer = self.readline()
        if answer != f"focused {name}":
            fail(f"the GTK window answered {answer!r} to focus {name}")


def keyboard_status(trace, since):
    lines = [e for e in trace.events[since:] if e["event"] == "keyboard"]
    return lines[-1]["status"] if lines else None


def main(workdir):
    with Phosh(workdir) as rig:
        ok(f"phoc + phosh up, headless, {WIDTH}x{HEIGHT} pt at scale {SCALE}, as {USER}")
        fields = Fields(rig)
        state = {}

        def name():
            keyboard = Keyboard(rig, "hee")
            state["keyboard"] = keyboard
            owner = wait_until(rig.owner, "sm.puri.OSK0 to be owned")
            ok(f"the keyboard owns sm.puri.OSK0 ({owner})")
            time.sleep(HOLD * 2)
            keyboard.trace.drain()
            if keyboard_status(keyboard.trace, 0) not in (None, "hide"):
                fail("the keyboard showed with only the button focused")
            ok("the button focused: the keyboard stays hidden from the start")
            if rig.osk("GetVisible") != "(false,)":
                fail(f"GetVisible answered {rig.osk('GetVisible')} while hidden")
            if rig.visible_property() != "(<false>,)":
                fail(f"Visible read {rig.visible_property()} while hidden")
            ok("GetVisible and Visible: false while hidden")
            # The screen once phoc has drawn it without the keyboard: two shots alike, 0.2 s apart.
            shots = [rig.screenshot("hidden")]
            while True:
                time.sleep(0.2)
                shots.append(rig.screenshot("hidden"))
                if bottom_rows(shots[-1], 200) == bottom_rows(shots[-2], 200):
                    break
                if len(shots) > 20:
                    fail("the screen's bottom rows never settled with the keyboard hidden")
            state["hidden"] = shots[-1]

        def focus():
            keyboard = state["keyboard"]
            monitor = rig.start(["gdbus", "monitor", "--session", "--dest", "sm.puri.OSK0"], "monitor")
            time.sleep(0.3)
            keyboard.trace.mark()
            fields.focus("free")
            keyboard.trace.wait_for(is_event("keyboard", status="show"), "keyboard show for the entry")
            wait_until(lambda: rig.visible_property() == "(<true>,)", "Visible to read true")
            wait_until(lambda: "'Visible': <true>" in read(rig.log("monitor")), "PropertiesChanged with Visible true")
            ok("an entry focused: keyboard show, Visible true, PropertiesChanged announced it")
            kill_group(monitor)
            # The frame phoc draws after the surface's configure and first buffer.
            deadline = time.monotonic() + 5
            while True:
                shown = rig.screenshot("shown")
                changed = differing(bottom_rows(shown, 200), bottom_rows(state["hidden"], 200))
                if changed >= 200 * WIDTH:   # at least half of the bottom 200 pt's pixels
                    break
                if time.monotonic() > deadline:
                    fail(f"only {changed} pixels of the screen's bottom 200 pt changed with the keyboard shown")
                time.sleep(0.1)
            ok(f"grim: {changed} of the bottom 200 pt's {200 * WIDTH * SCALE * SCALE} pixels drawn by the keyboard")
            state["shown"] = shown

        def setvisible():
            keyboard = state["keyboard"]
            since = keyboard.trace.mark()
            if rig.osk("SetVisible", "false") != "()":
                fail("SetVisible(false) failed")
            keyboard.trace.wait_for(is_event("setVisible", visible=False), "the setVisible line")
            keyboard.trace.wait_for(is_event("keyboard", status="hide"), "keyboard hide after SetVisible(false)")
            wait_until(lambda: rig.visible_property() == "(<false>,)", "Visible to read false")
            ok("SetVisible(false): hidden at once, Visible false")
            since = keyboard.trace.mark()
            fields.focus("email")
            time.sleep(0.6)
            keyboard.trace.drain()
            if keyboard_status(keyboard.trace, since) is not None:
                fail("the keyboard showed for another entry while SetVisible(false) held")
            ok("another entry focused: still hidden (the request holds while a field is active)")
            fields.focus("button")
            fields.focus("free")
            keyboard.trace.wait_for(is_event("keyboard", status="show"), "keyboard show once the active state changed")
            ok("the button, then an entry: shown again (the request ended with the active state)")
            fields.focus("button")
            keyboard.trace.wait_for(is_event("keyboard", status="hide"), "keyboard hide for the button")
            since = keyboard.trace.mark()
            rig.osk("SetVisible", "true")
            keyboard.trace.wait_for(is_event("keyboard", status="show"), "keyboard show after SetVisible(true)")
            time.sleep(HOLD * 3)
            keyboard.trace.drain()
            if keyboard_status(keyboard.trace, since) != "show" or rig.osk("GetVisible") != "(true,)":
                fail("SetVisible(true) with no field did not hold past the hold")
            ok("SetVisible(true) with the button focused: shown, and it stays past 250 ms")

        def taken():
            state["keyboard"].stop()
            wait_until(lambda: rig.owner() is None, "sm.puri.OSK0 to be released")
            squeekboard = rig.start(["squeekboard"], "squeekboard")
            owner = wait_until(rig.owner, "squeekboard to own sm.puri.OSK0")
            second = Keyboard(rig, "hee-second")
            wait_until(lambda: "sm.puri.OSK0" in read(second.stderr), "the keyboard's line about the name")
            time.sleep(0.5)
            lines = [line for line in read(second.stderr).splitlines() if "sm.puri.OSK0" in line]
            if len(lines) != 1:
                fail(f"{len(lines)} lines about the name: {lines}")
            if second.proc.poll() is not None:
                fail("the keyboard exited after the name was taken")
            if rig.owner() != owner:
                fail("squeekboard lost the name")
            ok(f"squeekboard owns the name: one line ({lines[0].strip()!r}), and the keyboard runs on")
            second.stop()
            kill_group(squeekboard)

        scenarios = [("name", name), ("focus", focus), ("setvisible", setvisible), ("taken", taken)]
        failed = run_each(scenarios, "HEE_PHOSH_ONLY", lambda run: run(), lambda: None)
    session_dir = os.path.join(workdir, "session")
    os.makedirs(session_dir)
    failed += run_each([("session", lambda: session(session_dir))], "HEE_PHOSH_ONLY", lambda run: run(), lambda: None)
    if failed:
        fail(f"{failed} scenario(s) failed")


def session(workdir):
    """gnome-session starts phosh and HeeKeyboard (sm.puri.OSK0.desktop): the session runs
    (IsSessionRunning) well before gnome-session's 90 s wait for a client that never registers;
    a logout ends the keyboard and the session at once."""
    with Phosh(workdir, session=True) as rig:
        started = time.monotonic()
        manager = ("--dest", "org.gnome.SessionManager", "--object-path", "/org/gnome/SessionManager")

        def running():
            return rig.gdbus("call", *manager, "--method", "org.gnome.SessionManager.IsSessionRunning") == "(true,)"
        wait_until(running, "gnome-session's session to run", timeout=60)
        took = time.monotonic() - started
        if took > 30:
            fail(f"the session took {took:.1f} s to run (a client did not register?)")
        owner = wait_until(rig.owner, "sm.puri.OSK0 to be owned")
        stderr = read(os.path.join(rig.home, "session-stderr.txt"))
        if "register" in stderr:
            fail(f"the keyboard could not register: {stderr.strip()}")
        if "Oh no" in read(rig.log("phoc")) or "Unrecoverable failure" in read(rig.log("phoc")):
            fail("gnome-session failed the session")
        ok(f"gnome-session: the session runs {took:.1f} s after phosh was up, HeeKeyboard started by it owns sm.puri.OSK0 ({owner})")
        clients = rig.gdbus("call", *manager, "--method", "org.gnome.SessionManager.GetClients")
        ids = []
        for path in clients.split("'")[1::2]:
            ids.append(rig.gdbus("call", "--dest", "org.gnome.SessionManager", "--object-path", path,
                                 "--method", "org.gnome.SessionManager.Client.GetAppId"))
        if not any("sm.puri.OSK0" in i for i in ids):
            fail(f"no client of gnome-session is sm.puri.OSK0: {ids}")
        ok(f"HeeKeyboard is one of gnome-session's clients ({', '.join(ids)})")
        pid = int(rig.gdbus("call", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                            "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", owner).split()[-1].strip(",)"))
        ended = time.monotonic()
        rig.gdbus("call", *manager, "--method", "org.gnome.SessionManager.Logout", "1")
        wait_until(lambda: not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z",
                   "the keyboard to quit at the logout", timeout=30)
        ok(f"a logout (EndSession) ends the keyboard {time.monotonic() - ended:.1f} s later")


if __name__ == "__main__":
    sys.exit(script_main(main, prefix="hee-phosh-"))
