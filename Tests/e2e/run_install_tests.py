#!/usr/bin/env python3
"""Install test of HeeKeyboard (issue 6): `make install` into a temporary prefix, the
installed program run from another directory, its command line, exit statuses, settings
file, languages and ways to quit, then `make uninstall`.

Steps, in order:
  1. `make install PREFIX=<tmp>/prefix` (run once, from the repository root; it builds
     .build/release) → exactly the expected files, with the right modes and bytes, three
     icon PNGs of 48, 128 and 256 px (read from their headers) with transparent corners.
  2. The installed `hee-keyboard`, started from an unrelated directory with no display
     (SDL_VIDEODRIVER=offscreen, `--replay` a tiny file, `--exit-when-done --trace`), finds
     its assets: exit 0, a `layout` event, the replayed text; with `--layout de`, the shipped
     German layout from share/hee-keyboard/layouts.
  3. `--help` and `--version` exit 0; `--help` describes every flag and the defaults.
  4. Exit statuses of every error path: 64 usage (`--layout nope` listing the layouts there
     are), 65 malformed replay, 66 missing asset (the
     path on one stderr line) or replay file, 69 no display, 73 unwritable `--record` file.
     Steps 3 and 4 run for the installed binary and for $HEE_APP.
  5. Under a private Xvfb, with XDG_CONFIG_HOME in the work directory: volume clicks saved
     on Ctrl+Q; `--volume 30` used but not saved; a corrupt settings.json set aside as
     settings.json.bad with a one-line warning, defaults used, a valid file written at quit;
     `--limit 3`; window titles for `--lang en` and LANG=ja_JP.UTF-8; SIGINT, SIGTERM and
     Escape (keyboard hidden) quit with status 0 and save.
  6. `make uninstall PREFIX=…` removes every installed file.

Prints `ok - …` per passed check. On the first failure prints `FAIL: …` and exits 1 (the
work directory is kept and named); a missing prerequisite (make, Xvfb, xdotool) exits 2.

Environment:
  HEE_APP           a built HeeApp to run steps 3 and 4 on as well (default
                    <repo>/.build/release/HeeApp, which `make install` builds)
  HEE_INSTALL_KEEP  1 = keep the work directory after a pass
Standard-library Python 3 only.
"""

import json
import os
import shutil
import signal
import stat
import struct
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import (Prerequisite, REPO_ROOT, TraceReader, app_binary, ok, fail, is_event,  # noqa: E402
                         kill_group, script_main, start_xvfb)

import functools  # noqa: E402
start_xvfb = functools.partial(start_xvfb, first=131, last=199)  # this script's display range

HEE_TEXT = "へぇ〜"
ICON_SIZES = (48, 128, 256)
ASSET_FILES = [
    "fonts/MPLUS1-Regular.otf", "fonts/MPLUS1-Bold.otf", "fonts/MPLUS1Code-Medium.otf", "fonts/HeeLaurel.ttf",
    "fonts/MPLUS-LICENSE.txt", "fonts/HeeLaurel-LICENSE.txt", "sounds/hee.wav", "sounds/hee-LICENSE.txt",
    "layouts/en.json", "layouts/de.json", "layouts/ja-kana.json", "emoji/emoji.tsv", "emoji/kaomoji.tsv", "emoji/UNICODE-LICENSE.txt",
]
EXPECTED_FILES = sorted(
    ["bin/hee-keyboard", "lib/hee-keyboard/libHeeVulkanStub.so", "share/applications/hee-keyboard.desktop",
     "share/applications/sm.puri.HeeKeyboard.desktop",
     "share/man/man1/hee-keyboard.1", "share/metainfo/hee-keyboard.metainfo.xml"]
    + [f"share/hee-keyboard/{f}" for f in ASSET_FILES]
    + [f"share/icons/hicolor/{n}x{n}/apps/hee-keyboard.png" for n in ICON_SIZES])
RUN_TIMEOUT = 20.0
LAUNCH_TIMEOUT = 20.0
EVENT_TIMEOUT = 15.0          # safety nets for waits, never what is checked


def expect(condition, message):
    if not condition:
        fail(message)


def short(text, limit=600):
    text = text if isinstance(text, str) else text.decode("utf-8", errors="replace")
    return text if len(text) <= limit else text[:limit] + "…"


# --------------------------------------------------------------------------- processes

class Work:
    """The work directory and the environment every app run starts from: no display, no
    locale, HOME and XDG_CONFIG_HOME inside the work directory (never the user's own)."""

    def __init__(self, root):
        self.root = root
        self.home = os.path.join(root, "home")
        self.config = os.path.join(root, "config")
        self.elsewhere = os.path.join(root, "elsewhere")  # the working directory of app runs
        # As in a desktop session (without it libwayland prints its own complaint when SDL
        # looks for a Wayland display).
        self.runtime = os.path.join(root, "runtime")
        for d in (self.home, self.elsewhere, self.runtime):
            os.makedirs(d, mode=0o700)
        self.settings = os.path.join(self.config, "hee-keyboard", "settings.json")

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def env(self, **changes):
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER", "GDK_SCALE",
                            "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR",
                            "HOME")}
        env.update(HOME=self.home, XDG_CONFIG_HOME=self.config, XDG_RUNTIME_DIR=self.runtime, LANG="C",
                   SDL_AUDIODRIVER="dummy")
        for key, value in changes.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        return env


class Result:
    def __init__(self, command, returncode, stdout, stderr):
        self.command = command
        self.returncode = returncode
        self.stdout = stdout.decode("utf-8", errors="replace")
        self.stderr = stderr.decode("utf-8", errors="replace")

    def events(self, kind=None):
        result = []
        for line in self.stdout.splitlines():
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                fail(f"{self.describe()}: trace line is not JSON: {line!r}")
            if kind is None or event.get("event") == kind:
                result.append(event)
        return result

    def describe(self):
        return " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(self.command))

    def expect_status(self, status):
        if self.returncode != status:
            fail(f"`{self.describe()}` exited {self.returncode}, expected {status}\n"
                 f"stderr: {short(self.stderr)}\nstdout: {short(self.stdout)}")


def run_app(binary, args, env, cwd, timeout=RUN_TIMEOUT):
    command = [binary, *args]
    try:
        proc = subprocess.run(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"`{' '.join(command)}` did not exit within {timeout} s")
    return Result(command, proc.returncode, proc.stdout, proc.stderr)


# --------------------------------------------------------------------------- PNG

def read_png(path):
    """(width, height, bit depth, colour type, rows of RGBA bytes or None)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if header is None:
        fail(f"{path} has no IHDR")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour != 6 or interlace != 0:
        return width, height, depth, colour, None
    raw, stride, rows, previous, i = zlib.decompress(idat), width * 4, [], bytearray(width * 4), 0
    for _ in range(height):
        kind = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b = previous[x]
            c = previous[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    return width, height, depth, colour, rows


# --------------------------------------------------------------------------- live runs under X

class LiveApp(TraceReader):
    """The installed program under Xvfb with --trace; reads its trace (TraceReader). A trace
    line that is not JSON fails the check."""

    def __init__(self, work, binary, args, env, name):
        self.name = name
        self.stderr_path = work.path(f"{name}-stderr.txt")
        with open(self.stderr_path, "wb") as stderr:
            self.proc = subprocess.Popen([binary, "--trace", *args], cwd=work.elsewhere, env=env,
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                                         start_new_session=True)
        self.env = env
        self.wid = None
        super().__init__(self.proc.stdout, timeout=EVENT_TIMEOUT)

    def parse(self, line):
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            text = line.rstrip("\n")
            fail(f"[{self.name}] trace line is not JSON: {text!r}")

    def tail(self):
        self.drain()
        return "\n".join(self.lines[-15:]) or "(no trace)"

    def closed_message(self, what):
        return (f"[{self.name}] the app exited (status {self.proc.poll()}) while waiting for {what}\n"
                f"trace:\n{self.tail()}\nstderr: {short(self.stderr())}")

    def timeout_message(self, what, timeout, since):
        return f"[{self.name}] timed out after {timeout} s waiting for {what}\ntrace:\n{self.tail()}"

    def of(self, kind):
        self.drain()
        return [e for e in self.events if e.get("event") == kind]

    def stderr(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def xdo(self, *args, check=True):
        proc = subprocess.run(["xdotool", *args], env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=10)
        if check and proc.returncode != 0:
            fail(f"[{self.name}] xdotool {' '.join(args)} failed: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout.decode("utf-8", errors="replace").strip()

    def start(self):
        """Waits for the settings and layout events and the visible window; returns the layout."""
        self.settings = self.wait_for(lambda e: e.get("event") == "settings", "the settings event", LAUNCH_TIMEOUT)
        self.layout = self.wait_for(lambda e: e.get("event") == "layout", "the first layout", LAUNCH_TIMEOUT)
        deadline = time.monotonic() + LAUNCH_TIMEOUT
        while self.wid is None:
            found = self.xdo("search", "--onlyvisible", "--pid", str(self.proc.pid), check=False).split()
            if found:
                self.wid = found[0]
            elif time.monotonic() > deadline:
                fail(f"[{self.name}] no visible window of pid {self.proc.pid}")
            else:
                time.sleep(0.05)
        return self.layout

    def click(self, key):
        rect = self.layout["keys"][key]
        x, y = rect["x"] + rect["w"] / 2, rect["y"] + rect["h"] / 2
        self.xdo("mousemove", "--window", self.wid, str(round(x)), str(round(y)))
        self.xdo("click", "1")

    def key(self, name):
        self.xdo("windowfocus", self.wid, check=False)
        self.xdo("key", name)

    def title(self):
        return self.xdo("getwindowname", self.wid)

    def wait_exit(self, how, timeout=20.0):  # a safety net: the app exits at once
        try:
            status = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            fail(f"[{self.name}] still running {timeout} s after {how}")
        self.thread.join(timeout=2)
        self.drain()
        return status

    def kill(self):
        kill_group(self.proc)


# --------------------------------------------------------------------------- steps

def make(target, prefix, timeout):
    command = ["make", "--no-print-directory", target, f"PREFIX={prefix}"]
    try:
        proc = subprocess.run(command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"`{' '.join(command)}` took longer than {timeout} s")
    if proc.returncode != 0:
        fail(f"`{' '.join(command)}` failed ({proc.returncode}):\n{short(proc.stdout, 3000)}")


def files_under(root):
    found = []
    for directory, _, names in os.walk(root):
        for name in names:
            found.append(os.path.relpath(os.path.join(directory, name), root))
    return sorted(found)


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def check_installed_files(prefix):
    found = files_under(prefix)
    missing = sorted(set(EXPECTED_FILES) - set(found))
    extra = sorted(set(found) - set(EXPECTED_FILES))
    expect(not missing and not extra, f"installed files differ: missing {missing}, unexpected {extra}")
    ok(f"make install put exactly the {len(EXPECTED_FILES)} expected files under the prefix")

    binary = os.path.join(prefix, "bin", "hee-keyboard")
    mode = stat.S_IMODE(os.stat(binary).st_mode)
    expect(mode == 0o755, f"bin/hee-keyboard has mode {oct(mode)}, expected 0o755")
    built = os.path.join(REPO_ROOT, ".build", "release", "HeeApp")
    expect(same_bytes(binary, built), "bin/hee-keyboard differs from .build/release/HeeApp")
    for f in ASSET_FILES:
        installed = os.path.join(prefix, "share", "hee-keyboard", f)
        expect(stat.S_IMODE(os.stat(installed).st_mode) == 0o644, f"{f} is not mode 0644")
        expect(same_bytes(installed, os.path.join(REPO_ROOT, f)), f"installed {f} differs from the repository's")
    ok("bin/hee-keyboard is the release binary (0755); fonts, sounds and licences are the repository's (0644)")

    desktop = os.path.join(prefix, "share", "applications", "hee-keyboard.desktop")
    expect(same_bytes(desktop, os.path.join(REPO_ROOT, "data", "hee-keyboard.desktop")), "desktop entry differs from data/")
    with open(desktop, encoding="utf-8") as f:
        lines = f.read().splitlines()
    expect(lines and lines[0] == "[Desktop Entry]", "the desktop entry does not start with [Desktop Entry]")
    # The [Desktop Entry] group: up to the first desktop action's group ("Keyboard for other apps").
    group = next((i for i, line in enumerate(lines[1:], 1) if line.startswith("[")), len(lines))
    entry = dict(line.split("=", 1) for line in lines[1:group] if "=" in line and not line.startswith("#"))
    for key, value in (("Type", "Application"), ("Exec", "hee-keyboard"), ("Icon", "hee-keyboard"),
                       ("Name", "Hee Keyboard"), ("Name[ja]", "へぇキーボード"), ("Terminal", "false")):
        expect(entry.get(key) == value, f"desktop entry {key}={entry.get(key)!r}, expected {value!r}")
    expect(entry.get("Categories", "").endswith(";"), "desktop entry Categories must end with ';'")
    if shutil.which("desktop-file-validate"):
        proc = subprocess.run(["desktop-file-validate", desktop], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        expect(proc.returncode == 0, f"desktop-file-validate: {proc.stdout.decode(errors='replace')}")
    action = "\n".join(lines[group:])
    expect(entry.get("Actions") == "system;" and "[Desktop Action system]" in action
           and "Exec=hee-keyboard --system" in action, "desktop entry lacks its action 'system' (hee-keyboard --system)")
    ok("desktop entry: Exec=hee-keyboard, Icon=hee-keyboard, Name / Name[ja]; action system: hee-keyboard --system")

    man = os.path.join(prefix, "share", "man", "man1", "hee-keyboard.1")
    expect(same_bytes(man, os.path.join(REPO_ROOT, "data", "hee-keyboard.1")), "installed man page differs from data/")
    metainfo = os.path.join(prefix, "share", "metainfo", "hee-keyboard.metainfo.xml")
    with open(metainfo, encoding="utf-8") as f:
        text = f.read()
    version = subprocess.run([binary, "--version"], stdout=subprocess.PIPE).stdout.decode().split()[-1]
    expect("@" not in text and f'<release version="{version}"' in text,
           f"installed metainfo lacks <release version=\"{version}\"> or has an unfilled @…@ field")
    ok(f"man page hee-keyboard.1 installed as data/ has it; metainfo with release {version} (= --version)")

    for n in ICON_SIZES:
        path = os.path.join(prefix, "share", "icons", "hicolor", f"{n}x{n}", "apps", "hee-keyboard.png")
        width, height, depth, colour, rows = read_png(path)
        expect((width, height) == (n, n), f"{n}x{n} icon is {width}×{height}")
        expect(depth == 8 and colour == 6 and rows is not None,
               f"{n}x{n} icon: bit depth {depth}, colour type {colour}; expected 8-bit RGBA, not interlaced")
        alpha = lambda x, y: rows[y][x * 4 + 3]
        corners = [alpha(0, 0), alpha(n - 1, 0), alpha(0, n - 1), alpha(n - 1, n - 1)]
        expect(corners == [0, 0, 0, 0], f"{n}x{n} icon corners have alpha {corners}, expected 0")
        # The middle band (design point 35, 70 of the 170 × 180 button, padded by 4 pt).
        k = n / 188
        x, y = int((n - 170 * k) / 2 + 35 * k), int((n - 180 * k) / 2 + 70 * k)
        band = tuple(rows[y][x * 4:x * 4 + 4])
        expect(band[3] == 255 and abs(band[0] - 61) <= 3 and abs(band[1] - 145) <= 3 and abs(band[2] - 192) <= 3,
               f"{n}x{n} icon middle band at ({x}, {y}) is {band}, expected opaque (61, 145, 192)")
    ok(f"icons: {', '.join(f'{n}x{n}' for n in ICON_SIZES)} PNGs of those sizes, 8-bit RGBA, transparent corners, "
       f"opaque middle band")


def check_runs_from_elsewhere(work, binary):
    replay = work.path("tiny.jsonl")
    with open(replay, "w", encoding="utf-8") as f:
        f.write('# a tiny replay\n{"t":100,"type":"textinput","text":"hi"}\n')
    env = work.env(SDL_VIDEODRIVER="offscreen")
    result = run_app(binary, ["--replay", replay, "--exit-when-done", "--trace"], env, work.elsewhere)
    result.expect_status(0)
    layouts = result.events("layout")
    expect(layouts and "hee" in layouts[0].get("keys", {}), f"no layout event with keys: {short(result.stdout)}")
    texts = [e["text"] for e in result.events("text")]
    expect(texts == ["hi"], f"replayed text events {texts}, expected ['hi']")
    expect(not os.path.exists(work.config), "a replay run touched the settings directory")
    expect("missing asset" not in result.stderr, f"stderr: {short(result.stderr)}")
    ok(f"installed binary run from {work.elsewhere} without a display or --assets: exit 0, layout "
       f"{layouts[0]['window']}, text 'hi'")

    # The shipped German layout is found by name in the installed copy.
    result = run_app(binary, ["--layout", "de", "--replay", replay, "--exit-when-done", "--trace"], env, work.elsewhere)
    result.expect_status(0)
    settings = result.events("settings")
    keys = result.events("layout")[0].get("keys", {}) if result.events("layout") else {}
    expect(settings and settings[0].get("layout") == "de" and "ü" in keys and "y" in keys and result.stderr == "",
           f"--layout de: settings {settings}, keys {sorted(keys)}, stderr {short(result.stderr)}")
    ok("installed binary --layout de: the shipped de layout (ü, QWERTZ) from share/hee-keyboard/layouts")


USER_FLAGS = ["--trace", "--mute", "--no-mute", "--volume", "--limit", "--lang", "--layout", "--size", "--scale", "--assets", "--record",
              "--replay", "--exit-when-done", "--help", "--version"]
# Flags with a default value, and a word of it that --help must show.
DEFAULTS = {"--mute": "sound on", "--volume": "100", "--limit": "none", "--lang": "LANG", "--size": "480x800",
            "--scale": "1", "--assets": "default", "--layout": "en"}


def flag_descriptions(text):
    """{flag: its description lines} from the option list of --help."""
    result, current = {}, None
    for line in text.splitlines():
        stripped = line.strip()
        if line.startswith("  ") and stripped.startswith("--"):
            current = stripped.split()[0]
            result[current] = stripped
        elif current and line.startswith("      ") and stripped:
            result[current] += " " + stripped
        else:
            current = None
    return result


def check_help_and_version(work, binary, label):
    env = work.env()
    help_ = run_app(binary, ["--help"], env, work.elsewhere)
    help_.expect_status(0)
    expect(help_.stderr == "", f"[{label}] --help wrote to stderr: {short(help_.stderr)}")
    described = flag_descriptions(help_.stdout)
    missing = [f for f in USER_FLAGS if f not in described]
    expect(not missing, f"[{label}] --help does not describe {missing}:\n{help_.stdout}")
    for flag, word in DEFAULTS.items():
        text = described[flag]
        expect("default" in text and word in text, f"[{label}] --help for {flag} lacks its default ({word!r}): {text!r}")
    expect(help_.stdout.lstrip().startswith("usage:"), f"[{label}] --help does not start with usage:")
    version = run_app(binary, ["--version"], env, work.elsewhere)
    version.expect_status(0)
    line = version.stdout.strip()
    expect(len(version.stdout.splitlines()) == 1 and line.split()[-1][:1].isdigit(),
           f"[{label}] --version printed {version.stdout!r}")
    expect(version.stderr == "", f"[{label}] --version wrote to stderr")
    ok(f"[{label}] --help exits 0 and describes all {len(USER_FLAGS)} flags with the defaults; --version: {line!r}")


def one_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0] if len(lines) == 1 else None


def check_exit_statuses(work, binary, label, assets):
    """`assets`: `--assets DIR` for a binary that does not find them itself (HEE_APP built
    outside the source tree)."""
    env_offscreen = work.env(SDL_VIDEODRIVER="offscreen")
    usage_cases = [["--bogus"], ["--volume", "101"], ["--volume", "-1"], ["--volume", "x"], ["--limit", "0"],
                   ["--limit", "100"], ["--lang", "fr"], ["--size", "10x10"], ["--scale", "9"], ["--volume"],
                   ["--exit-when-done"], ["--bench-interval", "5"], ["--replay", "a", "--replay", "b"],
                   ["--layout", "../en"], ["--layout"]]
    for args in usage_cases:
        r = run_app(binary, args, env_offscreen, work.elsewhere)
        r.expect_status(64)
        first = r.stderr.splitlines()[0] if r.stderr else ""
        expect(r.stdout == "", f"[{label}] {args}: usage error wrote to stdout")
        # Messages name the program as it was started (hee-keyboard when installed).
        name = os.path.basename(binary)
        expect(first.startswith(name + ": ") and args[-1] in first,
               f"[{label}] {args}: first stderr line {first!r}")
        expect(r.stderr.splitlines()[1:] == [f"Try '{name} --help' for the options."],
               f"[{label}] {args}: not the error and the pointer to --help alone: {r.stderr!r}")
    ok(f"[{label}] exit 64 with a one-line error and a pointer to --help for {len(usage_cases)} bad command lines")

    # A layout that exists nowhere: the names that do, from the shipped layouts/ (the work's
    # XDG_CONFIG_HOME has none of its own).
    r = run_app(binary, ["--layout", "nope", *assets], env_offscreen, work.elsewhere)
    r.expect_status(64)
    first = r.stderr.splitlines()[0] if r.stderr else ""
    expected = f"{os.path.basename(binary)}: --layout nope: no such layout; there are de, en, ja-kana"
    expect(first == expected and "--help" in r.stderr and len(r.stderr.splitlines()) == 2 and r.stdout == "",
           f"[{label}] --layout nope: expected {expected!r} and the pointer to --help, got {r.stderr!r}")
    ok(f"[{label}] --layout nope: exit 64, {first!r} and the pointer to --help")

    bad = work.path("malformed.jsonl")
    with open(bad, "w", encoding="utf-8") as f:
        f.write('{"t":0,"type":"textinput","text":"a"}\n{"t":10,"type":"mousedown","x":1\n')
    r = run_app(binary, ["--replay", bad, "--exit-when-done", "--trace", *assets], env_offscreen, work.elsewhere)
    r.expect_status(65)
    line = one_line(r.stderr)
    expect(line is not None and f"{bad}:2:" in line, f"[{label}] malformed replay stderr: {r.stderr!r}")
    expect(r.stdout == "", f"[{label}] malformed replay wrote a trace")
    ok(f"[{label}] malformed replay: exit 65, {line.replace(work.root, '<work>')}")

    r = run_app(binary, ["--replay", work.path("no-such.jsonl"), "--exit-when-done", *assets], env_offscreen,
                work.elsewhere)
    r.expect_status(66)
    expect(one_line(r.stderr) and "no-such.jsonl" in r.stderr, f"[{label}] missing replay stderr: {r.stderr!r}")
    empty = work.path("empty-assets")
    os.makedirs(empty, exist_ok=True)
    r = run_app(binary, ["--assets", empty], env_offscreen, work.elsewhere)
    r.expect_status(66)
    line = one_line(r.stderr)
    expect(line is not None and os.path.join(empty, "fonts/") in line,
           f"[{label}] missing asset: expected one stderr line naming a file in {empty}, got {r.stderr!r}")
    ok(f"[{label}] missing replay file and missing asset: exit 66; {line.replace(work.root, '<work>')}")

    no_display = work.env(DISPLAY=None, WAYLAND_DISPLAY=None, SDL_VIDEODRIVER=None)
    r = run_app(binary, assets, no_display, work.elsewhere)
    r.expect_status(69)
    expect(one_line(r.stderr), f"[{label}] no display: expected one stderr line, got {r.stderr!r}")
    ok(f"[{label}] no display: exit 69, {one_line(r.stderr)}")

    for target in (work.path("no-such-dir", "rec.jsonl"), work.root):
        r = run_app(binary, ["--record", target, *assets], env_offscreen, work.elsewhere)
        r.expect_status(73)
        expect(one_line(r.stderr) and target in r.stderr, f"[{label}] --record {target}: stderr {r.stderr!r}")
    ok(f"[{label}] unwritable --record file (missing directory, a directory): exit 73")


def read_settings(work):
    with open(work.settings, encoding="utf-8") as f:
        text = f.read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        fail(f"settings.json is not JSON: {text!r}")


def check_settings_and_quitting(work, binary):
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            raise Prerequisite(f"{tool} not found")
    xvfb = None
    apps = []

    def launch(name, args=(), **env_changes):
        app = LiveApp(work, binary, list(args), work.env(DISPLAY=display, **env_changes), name)
        apps.append(app)
        app.start()
        return app

    try:
        xvfb, display = start_xvfb()
        ok(f"Xvfb on {display}")

        # Volume clicks are saved at Ctrl+Q.
        expect(not os.path.exists(work.settings), "settings.json exists before the first run")
        app = launch("volume")
        expect(app.settings.get("volume") == 100 and app.settings.get("limit") is None,
               f"first run without a settings file: {app.settings}")
        for key in ("volumeDown", "volumeUp", "resetCount"):
            expect(key in app.layout["keys"], f"layout lacks {key}")
        app.click("volumeDown")
        app.wait_for(is_event("volume", volume=90), "volume 90 after one click on volumeDown")
        app.click("volumeDown")
        app.wait_for(is_event("volume", volume=80), "volume 80 after a second click")
        app.key("ctrl+q")
        status = app.wait_exit("Ctrl+Q")
        expect(status == 0, f"Ctrl+Q: exit {status}")
        saved = read_settings(work)
        expect(saved.get("volume") == 80, f"settings.json after Ctrl+Q: {saved}")
        expect(saved.get("mute") is False and saved.get("windowWidth") == 480 and saved.get("windowHeight") == 800
               and "limit" not in saved, f"other settings changed: {saved}")
        expect(not os.path.exists(work.settings + ".tmp"), "settings.json.tmp left behind")
        mode = stat.S_IMODE(os.stat(work.settings).st_mode)
        expect(mode & 0o077 == 0, f"settings.json is readable by others (mode {oct(mode)})")
        ok(f"two clicks on volumeDown, Ctrl+Q → exit 0, settings.json {json.dumps(saved, sort_keys=True)}")

        # Flags are used for the run and not saved.
        before = read_settings(work)
        app = launch("flag", ["--volume", "30"])
        expect(app.settings.get("volume") == 30, f"--volume 30: settings event {app.settings}")
        app.key("ctrl+q")
        expect(app.wait_exit("Ctrl+Q") == 0, "--volume 30 run: exit status not 0")
        after = read_settings(work)
        expect(after == before, f"--volume 30 changed settings.json: {before} → {after}")
        ok("--volume 30: the settings event says 30; settings.json still has volume 80 after quitting")

        # A corrupt file is set aside with a one-line warning; defaults; a valid file at quit.
        with open(work.settings, "w", encoding="utf-8") as f:
            f.write('{"volume": 80, "mute": tr')
        app = launch("corrupt")
        expect(app.settings.get("volume") == 100, f"corrupt file: settings event {app.settings}, expected defaults")
        bad = work.settings + ".bad"
        expect(os.path.exists(bad), "settings.json.bad was not made")
        with open(bad, encoding="utf-8") as f:
            expect(f.read() == '{"volume": 80, "mute": tr', "settings.json.bad does not hold the corrupt bytes")
        expect(not os.path.exists(work.settings), "the corrupt settings.json is still in place while running")
        app.key("ctrl+q")
        expect(app.wait_exit("Ctrl+Q") == 0, "corrupt-file run: exit status not 0")
        warnings = app.stderr().splitlines()
        expect(len(warnings) == 1 and "warning" in warnings[0] and work.settings in warnings[0],
               f"expected one warning line naming settings.json on stderr, got {app.stderr()!r}")
        rewritten = read_settings(work)
        expect(rewritten.get("volume") == 100 and rewritten.get("mute") is False, f"rewritten settings: {rewritten}")
        ok(f"corrupt settings.json → set aside as settings.json.bad, defaults used, new valid file at quit; "
           f"stderr: {warnings[0].replace(work.root, '<work>')}")

        # The limit: four presses, three count; SIGINT quits and saves.
        os.remove(work.settings)
        app = launch("limit", ["--limit", "3"])
        expect(app.settings.get("limit") == 3, f"--limit 3: settings event {app.settings}")
        for n in range(1, 5):
            app.click("hee")
            app.wait_for(lambda e: len([x for x in app.of("touch") if x.get("key") == "hee" and x.get("down") is False]) >= n,
                         f"release {n} of hee")
        # A press's hee event comes on its touch-down, before its release: all are in already.
        hee = app.of("hee")
        expect([e["count"] for e in hee] == [1, 2, 3], f"--limit 3, four clicks: hee events {hee}")
        expect([e.get("full", False) for e in hee] == [False, False, True], f"only the third is full: {hee}")
        expect([e["text"] for e in app.of("text")] == [HEE_TEXT * n for n in (1, 2, 3)],
               f"text events {app.of('text')}")
        app.click("volumeDown")
        app.wait_for(is_event("volume", volume=90), "volume 90")
        app.proc.send_signal(signal.SIGINT)
        expect(app.wait_exit("SIGINT") == 0, f"SIGINT: exit status {app.proc.returncode}")
        saved = read_settings(work)
        expect(saved.get("volume") == 90 and "limit" not in saved, f"settings after SIGINT: {saved}")
        ok("--limit 3: four clicks → hee 1, 2, 3 (the third full: true); SIGINT → exit 0, settings saved, "
           "the limit not saved")

        # English title; SIGTERM quits and saves.
        app = launch("english", ["--lang", "en"], LANG="ja_JP.UTF-8")
        expect(app.settings.get("language") == "en", f"--lang en: settings event {app.settings}")
        title = app.title()
        expect(title == "Hee Keyboard", f"--lang en: window title {title!r}")
        app.click("volumeUp")
        app.wait_for(is_event("volume", volume=100), "volume 100")
        app.proc.send_signal(signal.SIGTERM)
        expect(app.wait_exit("SIGTERM") == 0, f"SIGTERM: exit status {app.proc.returncode}")
        expect(read_settings(work).get("volume") == 100, "settings not saved at SIGTERM")
        ok(f"--lang en (LANG=ja_JP.UTF-8): title {title!r}; SIGTERM → exit 0, settings saved")

        # Japanese title from the locale; Escape with the keyboard hidden quits and saves.
        app = launch("japanese", LANG="ja_JP.UTF-8")
        expect(app.settings.get("language") == "ja", f"LANG=ja_JP.UTF-8: settings event {app.settings}")
        title = app.title()
        expect(title == "へぇキーボード", f"LANG=ja_JP.UTF-8: window title {title!r}")
        app.click("volumeDown")
        app.wait_for(is_event("volume", volume=90), "volume 90")
        app.click("closeKeyboard")
        app.wait_for(is_event("keyboard", status="hide"), "keyboard hide after closeKeyboard")
        app.key("Escape")
        expect(app.wait_exit("Escape") == 0, f"Escape: exit status {app.proc.returncode}")
        expect(read_settings(work).get("volume") == 90, "settings not saved after Escape")
        ok(f"LANG=ja_JP.UTF-8: title {title!r}; closeKeyboard, then Escape → exit 0, settings saved")

        # Escape with the keyboard shown only closes it.
        app = launch("escape-shown", ["--lang", "en"])
        app.key("Escape")
        app.wait_for(is_event("keyboard", status="hide"), "keyboard hide after Escape")
        # Still running after that Escape: it handles the next input (the app handles events
        # in order, so a quit at the Escape would have come first).
        app.click("volumeDown")
        app.wait_for(is_event("volume"), "a volume event after the first Escape")
        expect(app.proc.poll() is None, "Escape with the keyboard shown quit the app")
        app.key("Escape")
        expect(app.wait_exit("the second Escape") == 0, f"second Escape: exit status {app.proc.returncode}")
        ok("Escape with the keyboard shown hides it; a second Escape quits with status 0")

        noisy = [f"{a.name}: {short(a.stderr(), 200)!r}" for a in apps if a.name != "corrupt" and a.stderr()]
        expect(not noisy, f"runs wrote to stderr: {noisy}")
        ok("nothing on stderr in the runs without a corrupt settings file")
    finally:
        for app in apps:
            app.kill()
        kill_group(xvfb)


def check_uninstalled(prefix):
    left = [f for f in files_under(prefix) if f in EXPECTED_FILES]
    expect(not left, f"make uninstall left {left}")
    others = files_under(prefix)
    expect(not others, f"files under the prefix after make uninstall: {others}")
    expect(not os.path.exists(os.path.join(prefix, "share", "hee-keyboard")), "share/hee-keyboard still exists")
    expect(not os.path.exists(os.path.join(prefix, "lib", "hee-keyboard")), "lib/hee-keyboard still exists")
    ok("make uninstall removed every installed file (and share/hee-keyboard, lib/hee-keyboard)")


def main():
    def body(root):
        began = time.monotonic()
        prefix = os.path.join(root, "prefix")
        if shutil.which("make") is None:
            raise Prerequisite("make not found")
        work = Work(root)
        print(f"# work dir {root}", flush=True)

        started = time.monotonic()
        make("install", prefix, timeout=1800)
        ok(f"make install PREFIX=<work>/prefix ({time.monotonic() - started:.1f} s, includes the release build)")
        check_installed_files(prefix)
        installed = os.path.join(prefix, "bin", "hee-keyboard")

        app = app_binary()
        # HEE_APP may live outside the source tree (another scratch path): give it the assets.
        binaries = [("installed", installed, [])]
        if not same_bytes(app, installed):
            binaries.append(("HEE_APP", app, ["--assets", REPO_ROOT]))

        check_runs_from_elsewhere(work, installed)
        for label, binary, assets in binaries:
            check_help_and_version(work, binary, label)
            check_exit_statuses(work, binary, label, assets)
        check_settings_and_quitting(work, installed)

        make("uninstall", prefix, timeout=120)
        check_uninstalled(prefix)
        print(f"# all install tests passed in {time.monotonic() - began:.1f} s", flush=True)
    return script_main(body, prefix="hee-install-", keep_variable="HEE_INSTALL_KEEP")


if __name__ == "__main__":
    sys.exit(main())
