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
  5. Not a regular file (private nodes made in the work directory, never a real device):
     settings.json as a symlink to a character device of our own (`mknod c 1 3`, the
     "link it to /dev/null" dotfiles trick) → defaults, no warning, the node is neither
     renamed nor replaced and nothing is written; a FIFO → the app starts (no blocked open),
     one warning, the FIFO stays; a directory → one warning, it stays as it was.
  6. A 3 GiB (sparse) settings.json → no crash, one warning, set aside as settings.json.bad
     by a rename (same inode, never read or copied).
  7. HOME that does not exist (XDG_CONFIG_HOME unset) → nothing created under it, one
     warning; an existing HOME without ~/.config → ~/.config/hee-keyboard made (0700) and saved;
     a missing XDG_CONFIG_HOME is made (0700) only when the directory above it exists.
  8. Invalid members ({"volume": 150, "limit": 0}, {"volume": 80.5}) → the valid members
     used, the invalid ones clamped (150 → 100, 80.5 → 81) or defaulted (limit 0 → none),
     one warning naming them, the file not set aside and not rewritten; after a volume
     click only "volume" changes in the file.
  9. An unreadable settings.json (mode 000; as root, with CAP_DAC_OVERRIDE and
     CAP_DAC_READ_SEARCH dropped by setpriv) → defaults, one warning, the file neither
     moved aside nor overwritten.
 10. Layouts (issue 20): a bad layout file of the user's (a row too wide, not JSON, a FIFO,
     3 GiB)
     chosen by the saved "layout" → one line naming the file and the place in it, the app
     runs with the built-in en and quits with 0, settings.json untouched; a user's de.json
     wins over the shipped de; --layout de overrides the saved layout for the run and is not
     saved; --layout nope → exit 64, one line listing the layouts there are (the user's and
     the shipped), then the usage; a saved "layout" naming nothing → one warning, en.

Device nodes need mknod (root or CAP_MKNOD): without it that part of check 5 is skipped with a
message. Runs that change nothing use SDL's offscreen driver and quit with SIGTERM; runs that click
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
from e2e_support import (Prerequisite, REPO_ROOT, app_binary, ok, fail, kill_group, script_main,  # noqa: E402
                         start_xvfb)
TIMEOUT = 20.0


class App:
    """One live run with --trace; the trace is read in a thread."""

    def __init__(self, work, name, display=None, env_update=None, env_remove=(), prefix=(), args=()):
        self.name = name
        self.work = work
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "GDK_SCALE", "LC_ALL", "LANG")}
        env.update(XDG_CONFIG_HOME=work.config, HOME=work.home, SDL_AUDIODRIVER="dummy", LANG="C")
        env.update(env_update or {})
        for key in env_remove:
            env.pop(key, None)
        if display:
            env["DISPLAY"] = display
        else:
            env["SDL_VIDEODRIVER"] = "offscreen"
        self.env = env
        self.stderr_path = os.path.join(work.root, f"{name}-stderr.txt")
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen([*prefix, work.binary, "--trace", *args], cwd=work.root, env=env,
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


def turn_volume_down(work, display, name, to):
    """Runs the app once: volume − clicked, quit once the trace shows the volume at `to` (a
    run whose save changes one field)."""
    app = App(work, name, display)
    app.click("volumeDown")
    app.wait_for("volume", volume=to)
    app.quit()


def check_unknown_keys_survive(work, display):
    with open(work.settings, "w", encoding="utf-8") as f:
        f.write(USER_FILE)
    turn_volume_down(work, display, "volume-click", to=70)
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

    turn_volume_down(work, display, "link-save", to=70)
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
    contents = ['{"volume": 1', '[1, 2]', 'volume = 50']
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


def bad_names(*directories):
    return [os.path.join(d, n) for d in directories for n in os.listdir(d) if ".bad" in n or ".tmp" in n]


def warnings_of(err):
    return [line for line in err.splitlines() if line.strip()]


def check_not_regular(work):
    nodes = os.path.join(work.root, "nodes")
    os.makedirs(nodes, exist_ok=True)
    # A character device of our own, the same kind as /dev/null (1, 3): never the real one.
    device = os.path.join(nodes, "null")
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        print("skip - character device: mknod not permitted here (needs root or CAP_MKNOD)", flush=True)
        device = None
    if device:
        os.symlink(device, work.settings)
        before = os.lstat(device)
        app = App(work, "char-device")
        if app.wait_for("settings").get("volume") != 100:
            fail("a settings.json linked to a character device did not give the defaults")
        err = app.quit()
        after = os.lstat(device) if os.path.lexists(device) else None
        if after is None or not stat.S_ISCHR(after.st_mode) or after.st_ino != before.st_ino \
                or after.st_rdev != before.st_rdev:
            fail(f"the character device behind settings.json was renamed or replaced: {os.listdir(nodes)}")
        if not os.path.islink(work.settings) or os.readlink(work.settings) != device:
            fail("the settings.json link to a character device was replaced")
        if bad_names(nodes, work.dir):
            fail(f"files made beside the device or the link: {bad_names(nodes, work.dir)}")
        if err.strip():
            fail(f"a link to a character device (the /dev/null trick) should pass silently, stderr: {err!r}")
        ok("settings.json → a character device (private mknod c 1 3, like /dev/null): defaults, silent, "
           "the node neither renamed nor replaced, nothing written beside it or the link")
        work.reset()

    os.mkfifo(work.settings)
    before = os.lstat(work.settings)
    app = App(work, "fifo")  # waits for the layout: an open() that blocks never gets there
    if app.wait_for("settings").get("volume") != 100:
        fail("a FIFO settings.json did not give the defaults")
    err = app.quit()
    after = os.lstat(work.settings)
    if not stat.S_ISFIFO(after.st_mode) or after.st_ino != before.st_ino:
        fail("the FIFO settings.json was replaced")
    if bad_names(work.dir):
        fail(f"files made beside the FIFO: {bad_names(work.dir)}")
    if len(warnings_of(err)) != 1 or "FIFO" not in err:
        fail(f"a FIFO settings.json: expected one warning naming a FIFO, got {err!r}")
    ok("settings.json a FIFO: the app starts (no blocking open), one warning, the FIFO stays, nothing written")

    work.reset()
    os.mkdir(work.settings)
    inside = os.path.join(work.settings, "keep.txt")
    with open(inside, "w", encoding="utf-8") as f:
        f.write("mine")
    app = App(work, "directory")
    err = app.quit()
    if not os.path.isdir(work.settings) or os.listdir(work.settings) != ["keep.txt"] or bad_names(work.dir):
        fail(f"a directory settings.json was moved or changed: {os.listdir(work.dir)}")
    if len(warnings_of(err)) != 1 or "directory" not in err:
        fail(f"a directory settings.json: expected one warning naming a directory, got {err!r}")
    ok("settings.json a directory: one warning, it stays as it was")


def check_huge_file(work):
    size = 3 << 30
    with open(work.settings, "wb") as f:
        f.truncate(size)  # sparse: no disk space used
    inode = os.stat(work.settings).st_ino
    app = App(work, "huge")
    if app.wait_for("settings").get("volume") != 100:
        fail("a 3 GiB settings.json did not give the defaults")
    err = app.quit()  # a crash (the allocation failing) shows as a non-zero status here
    bad = work.settings + ".bad"
    if not os.path.exists(bad):
        fail(f"the 3 GiB file was not set aside: {os.listdir(work.dir)}; stderr {err!r}")
    st = os.stat(bad)
    if st.st_ino != inode or st.st_size != size:
        fail("settings.json.bad is not the 3 GiB file itself (it was copied, not renamed)")
    os.unlink(bad)
    if len(warnings_of(err)) != 1 or bad not in err:
        fail(f"expected one warning naming {bad}, got {err!r}")
    ok("a 3 GiB settings.json: no crash, one warning, renamed to settings.json.bad (same inode), never read")


def check_missing_home(work):
    missing = os.path.join(work.root, "nonexistent")
    home = os.path.join(missing, "home")
    app = App(work, "missing-home", env_update={"HOME": home}, env_remove=("XDG_CONFIG_HOME",))
    err = app.quit()
    if os.path.exists(missing):
        fail(f"the app created directories under a HOME that does not exist: {list(os.walk(missing))}")
    if len(warnings_of(err)) != 1 or home not in err:
        fail(f"a HOME that does not exist: expected one warning naming it, got {err!r}")
    ok("HOME does not exist (XDG_CONFIG_HOME unset): nothing created, one warning, settings not saved")

    home = os.path.join(work.root, "newhome")
    os.makedirs(home, exist_ok=True)
    err = App(work, "new-home", env_update={"HOME": home}, env_remove=("XDG_CONFIG_HOME",)).quit()
    saved = os.path.join(home, ".config", "hee-keyboard", "settings.json")
    if not os.path.isfile(saved) or load(saved).get("volume") != 100 or err.strip():
        fail(f"an existing HOME without ~/.config: settings not saved quietly (stderr {err!r})")
    for d in (os.path.join(home, ".config"), os.path.dirname(saved)):
        if stat.S_IMODE(os.stat(d).st_mode) != 0o700:
            fail(f"{d} has mode {oct(stat.S_IMODE(os.stat(d).st_mode))}, expected 0o700")
    ok("an existing HOME without ~/.config: ~/.config/hee-keyboard made with mode 0700, settings saved")

    missing_xdg = os.path.join(missing, "config")
    err = App(work, "missing-xdg", env_update={"XDG_CONFIG_HOME": missing_xdg}).quit()
    if os.path.exists(missing):
        fail(f"the app created directories for an XDG_CONFIG_HOME whose parent does not exist: {list(os.walk(missing))}")
    if len(warnings_of(err)) != 1 or missing_xdg not in err:
        fail(f"an XDG_CONFIG_HOME whose parent does not exist: expected one warning naming it, got {err!r}")
    new_xdg = os.path.join(work.root, "newconfig")
    err = App(work, "new-xdg", env_update={"XDG_CONFIG_HOME": new_xdg}).quit()
    saved = os.path.join(new_xdg, "hee-keyboard", "settings.json")
    if not os.path.isfile(saved) or err.strip() or stat.S_IMODE(os.stat(new_xdg).st_mode) != 0o700:
        fail(f"a missing XDG_CONFIG_HOME under an existing directory: not made 0700 and saved (stderr {err!r})")
    ok("XDG_CONFIG_HOME missing: made (0700) only when the directory above it exists, else one warning "
       "and nothing created")


INVALID_FILE = ('{"volume": 150, "theme": "dark", "limit": 0,\n'
                ' "windowWidth": 500, "windowHeight": 800, "mute": false}\n')


def check_invalid_member(work, display):
    with open(work.settings, "w", encoding="utf-8") as f:
        f.write(INVALID_FILE)
    before = snapshot(work.settings)
    time.sleep(0.02)  # a rewrite would show in the mtime
    app = App(work, "invalid-member")
    got = app.wait_for("settings")
    if got.get("volume") != 100 or got.get("limit") is not None or got.get("size") != {"w": 500, "h": 800}:
        fail(f"invalid members: expected volume 100, no limit, size 500x800, got {got}")
    err = app.quit()
    if snapshot(work.settings) != before or bad_names(work.dir):
        fail(f"a file with invalid members was set aside or rewritten: {os.listdir(work.dir)}")
    lines = warnings_of(err)
    if len(lines) != 1 or '"volume" 150' not in err or '"limit" 0' not in err:
        fail(f"expected one warning naming \"volume\" 150 and \"limit\" 0, got {err!r}")
    ok("{\"volume\": 150, \"limit\": 0} beside valid members: volume 100, no limit, the window size used; "
       "one warning naming both; the file neither set aside nor rewritten")

    with open(work.settings, "w", encoding="utf-8") as f:
        f.write('{"volume": 80.5, "theme": "dark"}')
    app = App(work, "fraction")
    if app.wait_for("settings").get("volume") != 81:
        fail("volume 80.5 did not load as 81")
    err = app.quit()
    if len(warnings_of(err)) != 1 or "80.5" not in err or load(work.settings) != {"volume": 80.5, "theme": "dark"}:
        fail(f"volume 80.5: expected one warning and the file untouched, got {err!r}, {load(work.settings)}")
    ok("{\"volume\": 80.5} → 81 with one warning, the file untouched")

    with open(work.settings, "w", encoding="utf-8") as f:
        f.write(INVALID_FILE)
    turn_volume_down(work, display, "invalid-click", to=90)
    saved = load(work.settings)
    expected = {"volume": 90, "theme": "dark", "limit": 0, "windowWidth": 500, "windowHeight": 800, "mute": False}
    if saved != expected or bad_names(work.dir):
        fail(f"after a volume click: {saved}, expected {expected}")
    ok("after a volume click (100 → 90) only \"volume\" is rewritten; \"limit\": 0 and the unknown key stay as written")


def check_unreadable(work):
    with open(work.settings, "w", encoding="utf-8") as f:
        f.write('{"volume": 40}')
    os.chmod(work.settings, 0)
    prefix = ()
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            print("skip - unreadable file: running as root and setpriv (util-linux) not found", flush=True)
            return
        # root reads any file; without these two capabilities mode 000 stops it as it stops a user
        prefix = (setpriv, "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-all")
    before = snapshot(work.settings)
    app = App(work, "unreadable", prefix=prefix)
    if app.wait_for("settings").get("volume") != 100:
        fail("an unreadable settings.json did not give the defaults")
    err = app.quit()
    if snapshot(work.settings) != before or bad_names(work.dir):
        fail(f"an unreadable settings.json was moved aside or overwritten: {os.listdir(work.dir)}")
    if len(warnings_of(err)) != 1 or "Permission denied" not in err:
        fail(f"an unreadable settings.json: expected one warning saying why, got {err!r}")
    ok("an unreadable settings.json (mode 000): defaults, one warning, never moved aside or overwritten")


def layout_keys(app):
    return set(app.layout["keys"])


def check_layouts(work):
    layouts = os.path.join(work.dir, "layouts")
    os.makedirs(layouts)
    mine = os.path.join(layouts, "mine.json")
    with open(os.path.join(REPO_ROOT, "layouts", "en.json"), encoding="utf-8") as f:
        english = json.load(f)

    def write_layout(path, layout):
        with open(path, "w", encoding="utf-8") as f:
            json.dump(layout, f, ensure_ascii=False, indent=1)

    def expect_english(app, what):
        settings = app.wait_for("settings")
        keys = layout_keys(app)
        if settings.get("layout") != "en" or not {"q", "y", "z", "123", "hee"} <= keys or "ü" in keys:
            fail(f"{what}: expected the built-in en, got settings {settings} and keys {sorted(keys)}")

    # A row of eleven keys in a ten-unit layout, chosen by the saved setting.
    wide = json.loads(json.dumps(english))
    wide["name"] = "mine"
    wide["layers"][0]["rows"][1].append("ß")
    write_layout(mine, wide)
    with open(work.settings, "w", encoding="utf-8") as f:
        f.write('{"layout": "mine", "volume": 70}\n')
    before = snapshot(work.settings)
    app = App(work, "layout-too-wide")
    expect_english(app, "a user layout with a row too wide")
    err = app.quit()
    expected = f"HeeApp: layout file {mine}: $.layers[0].rows[1]: its keys are 11 units wide; a row holds 10; using the built-in en"
    if warnings_of(err) != [expected]:
        fail(f"a row too wide: expected the one line {expected!r}, got {err!r}")
    if snapshot(work.settings) != before or bad_names(work.dir, layouts):
        fail(f"a bad layout changed settings.json or was moved: {os.listdir(work.dir)}, {os.listdir(layouts)}")
    ok("a user layout with a row too wide, chosen in settings.json: one line (file, $.layers[0].rows[1], 11 units "
       "in 10), the built-in en used, exit 0, settings.json and the layout file untouched")

    # Not JSON: the JSON reader's reason with line and column.
    with open(mine, "w", encoding="utf-8") as f:
        f.write('{"name": "mine",\n "columns": 10,\n "layers": [}\n')
    app = App(work, "layout-not-json")
    expect_english(app, "a user layout that is not JSON")
    err = app.quit()
    expected = f"HeeApp: layout file {mine}: 3:13: not valid JSON (unexpected character); using the built-in en"
    if warnings_of(err) != [expected]:
        fail(f"not JSON: expected the one line {expected!r}, got {err!r}")
    ok("a user layout that is not JSON: one line with line:column 3:13 and the reader's reason, en, exit 0")

    # Not a regular file: a FIFO is never opened for reading (the app would block).
    os.unlink(mine)
    os.mkfifo(mine)
    app = App(work, "layout-fifo")
    expect_english(app, "a FIFO as a user layout")
    err = app.quit()
    if warnings_of(err) != [f"HeeApp: layout file {mine}: a FIFO, not a regular file; using the built-in en"]:
        fail(f"a FIFO as a user layout: expected one line naming it, got {err!r}")
    if not stat.S_ISFIFO(os.lstat(mine).st_mode):
        fail("the FIFO user layout was replaced")
    ok("a FIFO as a user layout: the app starts, one line, en")
    os.unlink(mine)

    # Larger than 1 MiB: never read into memory (sparse: no disk space used).
    with open(mine, "wb") as f:
        f.truncate(3 << 30)
    app = App(work, "layout-huge")
    expect_english(app, "a 3 GiB user layout")
    err = app.quit()
    if warnings_of(err) != [f"HeeApp: layout file {mine}: larger than 1 MiB ({3 << 30} bytes); using the built-in en"]:
        fail(f"a 3 GiB user layout: expected one line saying it is larger than 1 MiB, got {err!r}")
    ok("a 3 GiB (sparse) user layout: one line, larger than 1 MiB, never read; en")
    os.unlink(mine)

    # A user's de.json (the English letters, named de) wins over the shipped de; --layout
    # overrides the saved setting for the run and is not saved.
    mine_de = json.loads(json.dumps(english))
    mine_de["name"] = "de"
    write_layout(os.path.join(layouts, "de.json"), mine_de)
    write_layout(mine, dict(mine_de, name="mine"))
    before = snapshot(work.settings)
    app = App(work, "layout-user-de", args=("--layout", "de"))
    settings = app.wait_for("settings")
    keys = layout_keys(app)
    err = app.quit()
    if settings.get("layout") != "de" or "ü" in keys or "y" not in keys or err.strip():
        fail(f"--layout de with a user de.json: settings {settings}, keys {sorted(keys)}, stderr {err!r}")
    if snapshot(work.settings) != before:
        fail("--layout de was saved into settings.json")
    ok("a user's de.json wins over the shipped de (no ü key); --layout de used for the run, settings.json untouched")
    os.unlink(os.path.join(layouts, "de.json"))
    app = App(work, "layout-shipped-de", args=("--layout", "de"))
    keys = layout_keys(app)
    err = app.quit()
    if not {"ü", "ö", "ä", "z", "y"} <= keys or err.strip():
        fail(f"--layout de without a user de.json: keys {sorted(keys)}, stderr {err!r}")
    ok("without it, --layout de is the shipped iPhone German layout (ü ö ä, QWERTZ)")

    # A layout that exists nowhere: exit 64, the names there are, the pointer to --help.
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(XDG_CONFIG_HOME=work.config, HOME=work.home, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy")
    r = subprocess.run([work.binary, "--layout", "nope"], cwd=work.root, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=TIMEOUT)
    lines = r.stderr.splitlines()
    if r.returncode != 64 or not lines or lines[0] != "HeeApp: --layout nope: no such layout; there are de, en, ja-kana, mine" \
            or lines[1:] != [f"Try '{os.path.basename(work.binary)} --help' for the options."] or r.stdout:
        fail(f"--layout nope: exit {r.returncode}, stderr {r.stderr!r}")
    ok(f"--layout nope: exit 64, {lines[0]!r}, then the pointer to --help")

    # A saved layout naming nothing: one warning, en.
    with open(work.settings, "w", encoding="utf-8") as f:
        f.write('{"layout": "fr"}')
    app = App(work, "layout-saved-unknown")
    expect_english(app, "a saved layout naming nothing")
    err = app.quit()
    expected = (f'HeeApp: warning: {work.settings}: "layout" "fr" names no layout (there are de, en, ja-kana, mine); '
                f"using en")
    if warnings_of(err) != [expected] or load(work.settings) != {"layout": "fr"}:
        fail(f"a saved layout naming nothing: expected {expected!r} and the file untouched, got {err!r}")
    ok("\"layout\": \"fr\" saved, no such layout: one warning listing de, en, ja-kana, mine; en; the file untouched")


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
                      lambda: check_symlink(work, display), lambda: check_bad_files_kept(work),
                      lambda: check_not_regular(work), lambda: check_huge_file(work),
                      lambda: check_missing_home(work), lambda: check_invalid_member(work, display),
                      lambda: check_unreadable(work), lambda: check_layouts(work)]
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
