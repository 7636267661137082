#!/usr/bin/env python3
"""The settings file stays the user's (issue 11, items 3 and 4): the real release binary,
run live with XDG_CONFIG_HOME in a temporary directory.

Checks, in order:
  1. Nothing changed → nothing written: a settings.json with the user's own formatting and
     an unknown key keeps its bytes, inode and mtime after a run that changed nothing.
  2. Unknown keys survive a save: after a volume click, settings.json has the new volume and
     every member the app does not know (strings, nested objects, arrays), and the fields the
     app did not change as the file had them.
  3. A symlinked settings.json (a dotfiles manager's, with a relative link through a second
     link) stays a link to the same target after a run with nothing changed (target not
     touched) and after a save; the target is replaced atomically (a new inode, no temporary
     file left beside the link or the target) and keeps its mode (0640).
  4. Corrupt files: the first goes to settings.json.bad, a second to settings.json.bad.2, a
     third to .bad.3 — an older bad file is never overwritten; each run prints one warning.
     Behind a symlink the target is set aside beside itself and the link stays.

Runs that change nothing use SDL's offscreen driver and quit with SIGTERM; runs that click
need Xvfb and xdotool (a private Xvfb, or $DISPLAY with HEE_E2E_USE_DISPLAY=1).

Prints `ok - …` per check; the first failure prints `FAIL: …` and exits 1 (work directory
kept); a missing prerequisite exits 2. Environment: HEE_APP (default
<repo>/.build/release/HeeApp), HEE_SETTINGS_ONLY=2,3 runs only those checks,
HEE_SETTINGS_KEEP=1 keeps the work directory.
Standard-library Python 3 only.
"""

import json
import os
import queue
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Prerequisite, app_binary, ok, fail, kill_group, script_main, start_xvfb  # noqa: E402
TIMEOUT = 20.0


class App:
    """One live run with --trace; the trace is read in a thread."""

    def __init__(self, work, name, display=None):
        self.name = name
        self.work = work
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "GDK_SCALE", "LC_ALL", "LANG")}
        env.update(XDG_CONFIG_HOME=work.config, HOME=work.home, SDL_AUDIODRIVER="dummy", LANG="C")
        if display:
            env["DISPLAY"] = display
        else:
            env["SDL_VIDEODRIVER"] = "offscreen"
        self.env = env
        self.stderr_path = os.path.join(work.root, f"{name}-stderr.txt")
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen([work.binary, "--trace"], cwd=work.root, env=env,
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err,
                                         start_new_session=True)
        work.apps.append(self)
        self.events = []
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.layout = self.wait_for("layout")

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put(raw)
        self.lines.put(None)

    def wait_for(self, kind, **fields):
        deadline = time.monotonic() + TIMEOUT
        seen = 0
        while True:
            while seen < len(self.events):
                e = self.events[seen]
                seen += 1
                if e.get("event") == kind and all(e.get(k) == v for k, v in fields.items()):
                    return e
            try:
                raw = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                fail(f"[{self.name}] no {kind} {fields} within {TIMEOUT} s; stderr: {self.stderr()!r}")
            if raw is None:
                fail(f"[{self.name}] exited ({self.proc.wait()}) before {kind} {fields}; stderr: {self.stderr()!r}")
            self.events.append(json.loads(raw))

    def click(self, key):
        wid = None
        deadline = time.monotonic() + TIMEOUT
        while not wid:
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(self.proc.pid)],
                                   env=self.env, capture_output=True, text=True).stdout.split()
            wid = found[0] if found else None
            if not wid:
                if time.monotonic() > deadline:
                    fail(f"[{self.name}] no visible window")
                time.sleep(0.05)
        r = self.layout["keys"][key]
        subprocess.run(["xdotool", "mousemove", "--window", wid, str(round(r["x"] + r["w"] / 2)),
                        str(round(r["y"] + r["h"] / 2)), "click", "1"], env=self.env, check=True)

    def quit(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            fail(f"[{self.name}] still running {TIMEOUT} s after SIGTERM")
        if status != 0:
            fail(f"[{self.name}] exit status {status} after SIGTERM; stderr: {self.stderr()!r}")
        return self.stderr()

    def stderr(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read()


class Work:
    def __init__(self, root, binary):
        self.root = root
        self.binary = binary
        self.home = os.path.join(root, "home")
        self.config = os.path.join(root, "config")
        self.dir = os.path.join(self.config, "hee-keyboard")
        self.settings = os.path.join(self.dir, "settings.json")
        self.apps = []
        os.makedirs(self.home)
        os.makedirs(self.dir)

    def reset(self):
        shutil.rmtree(self.dir)
        os.makedirs(self.dir)


def snapshot(path):
    st = os.stat(path)
    with open(path, "rb") as f:
        return (f.read(), st.st_ino, st.st_mtime_ns, stat.S_IMODE(st.st_mode))


def leftovers(*directories):
    return [os.path.join(d, n) for d in directories for n in os.listdir(d) if ".tmp" in n]


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


USER_FILE = ('{"volume": 80,   "theme": "dark",\n'
             ' "windowWidth": 500, "windowHeight": 800,\n'
             ' "plugins": {"enabled": ["a", "b"], "ratio": 2.5, "off": null},\n'
             ' "mute": false}\n')


def check_nothing_changed(work):
    with open(work.settings, "w", encoding="utf-8") as f:
        f.write(USER_FILE)
    before = snapshot(work.settings)
    time.sleep(0.02)  # a rewrite would show in the mtime
    App(work, "unchanged").quit()
    after = snapshot(work.settings)
    if after != before:
        fail(f"a run that changed nothing rewrote settings.json: {before[0]!r} (inode {before[1]}) → "
             f"{after[0]!r} (inode {after[1]})")
    ok("nothing changed → settings.json not written (same bytes, inode and mtime; the user's formatting kept)")


def check_unknown_keys_survive(work, display):
    with open(work.settings, "w", encoding="utf-8") as f:
        f.write(USER_FILE)
    app = App(work, "volume-click", display)
    app.click("volumeDown")
    app.wait_for("volume", volume=70)
    app.quit()
    saved = load(work.settings)
    expected = {"volume": 70, "theme": "dark", "windowWidth": 500, "windowHeight": 800,
                "plugins": {"enabled": ["a", "b"], "ratio": 2.5, "off": None}, "mute": False}
    if saved != expected:
        fail(f"after a volume click settings.json is {saved}, expected {expected}")
    if leftovers(work.dir):
        fail(f"temporary files left: {leftovers(work.dir)}")
    ok("a save keeps every unknown member (string, nested object with array, float, null) and the "
       "unchanged fields; only volume 80 → 70 changed")


def check_symlink(work, display):
    dotfiles = os.path.join(work.root, "dotfiles")
    nested = os.path.join(dotfiles, "hee")
    os.makedirs(nested, exist_ok=True)
    target = os.path.join(nested, "settings.json")
    with open(target, "w", encoding="utf-8") as f:
        f.write(USER_FILE)
    os.chmod(target, 0o640)
    # settings.json -> ../../dotfiles/link.json -> hee/settings.json (both relative)
    middle = os.path.join(dotfiles, "link.json")
    os.symlink("hee/settings.json", middle)
    os.symlink(os.path.relpath(middle, work.dir), work.settings)
    link_text = os.readlink(work.settings)

    before = snapshot(target)
    time.sleep(0.02)
    App(work, "link-unchanged").quit()
    if not os.path.islink(work.settings) or os.readlink(work.settings) != link_text:
        fail("a run with nothing changed replaced the symlinked settings.json")
    if snapshot(target) != before:
        fail("a run with nothing changed rewrote the link's target")
    ok("symlinked settings.json (relative, through a second link), nothing changed → link and target untouched")

    app = App(work, "link-save", display)
    app.click("volumeDown")
    app.wait_for("volume", volume=70)
    app.quit()
    if not os.path.islink(work.settings) or os.readlink(work.settings) != link_text:
        fail(f"saving replaced the symlink settings.json (now {'a link' if os.path.islink(work.settings) else 'a file'})")
    if not os.path.islink(middle) or os.readlink(middle) != "hee/settings.json":
        fail("saving replaced the middle link")
    after = snapshot(target)
    saved = load(target)
    if saved.get("volume") != 70 or saved.get("theme") != "dark" or saved.get("plugins", {}).get("ratio") != 2.5:
        fail(f"the link's target after a save: {saved}")
    if after[3] != 0o640:
        fail(f"the target's mode became {oct(after[3])}, expected 0o640")
    if after[1] == before[1]:
        fail("the target was rewritten in place (same inode), not replaced atomically by a rename")
    if leftovers(work.dir, dotfiles, nested):
        fail(f"temporary files left: {leftovers(work.dir, dotfiles, nested)}")
    ok("after a save: both links stay, the target holds volume 70 and the unknown keys, was replaced "
       "by rename (new inode), mode 0640 kept, no temporary file left")

    # A corrupt target is set aside beside itself; the link stays and the target is made anew.
    with open(target, "w", encoding="utf-8") as f:
        f.write('{"volume": ')
    app = App(work, "link-corrupt")
    if app.wait_for("settings").get("volume") != 100:
        fail("a corrupt link target did not give the defaults")
    err = app.quit()
    if len(err.splitlines()) != 1 or "warning" not in err:
        fail(f"expected one warning line, got {err!r}")
    if not os.path.islink(work.settings) or os.readlink(work.settings) != link_text:
        fail("setting a corrupt file aside replaced the symlink")
    bad = target + ".bad"
    if not os.path.isfile(bad) or open(bad).read() != '{"volume": ':
        fail(f"the corrupt target was not set aside as {bad}: {os.listdir(nested)}")
    if not os.path.isfile(target) or load(target).get("volume") != 100:
        fail("the link's target was not written anew at quit")
    ok("a corrupt link target → moved to <target>.bad beside it with one warning, the link stays, "
       "defaults written to the target at quit")


def check_bad_files_kept(work):
    bad = work.settings + ".bad"
    contents = ['{"volume": 1', '[1, 2]', '{"volume": "loud"}']
    names = [bad, bad + ".2", bad + ".3"]
    for i, text in enumerate(contents):
        with open(work.settings, "w", encoding="utf-8") as f:
            f.write(text)
        err = App(work, f"corrupt-{i + 1}").quit()
        if len(err.splitlines()) != 1 or names[i] not in err:
            fail(f"corrupt file {i + 1}: expected one warning naming {names[i]}, got {err!r}")
        for name, expected in zip(names[:i + 1], contents[:i + 1]):
            with open(name, encoding="utf-8") as f:
                if f.read() != expected:
                    fail(f"{os.path.basename(name)} no longer holds {expected!r} after corrupt file {i + 1}")
    ok("three corrupt files → settings.json.bad, .bad.2, .bad.3, each keeping its own bytes; one warning each")


def main():
    def body(root):
        binary = app_binary()
        if shutil.which("xdotool") is None:
            raise Prerequisite("xdotool not found")
        xvfb = work = None
        try:
            if os.environ.get("HEE_E2E_USE_DISPLAY") == "1" and os.environ.get("DISPLAY"):
                display = os.environ["DISPLAY"]
            else:
                xvfb, display = start_xvfb()
            work = Work(root, binary)
            only = os.environ.get("HEE_SETTINGS_ONLY")
            checks = [lambda: check_nothing_changed(work), lambda: check_unknown_keys_survive(work, display),
                      lambda: check_symlink(work, display), lambda: check_bad_files_kept(work)]
            for number, check in enumerate(checks, 1):
                if only and str(number) not in only.split(","):
                    continue
                work.reset()
                check()
        finally:
            for app in (work.apps if work else []):
                kill_group(app.proc)
            kill_group(xvfb)
    return script_main(body, prefix="hee-settings-", keep_variable="HEE_SETTINGS_KEEP")


if __name__ == "__main__":
    sys.exit(main())
