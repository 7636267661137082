#!/usr/bin/python3
"""How long X clients need around a keymap change (issue 28, class 1): the figures behind
`X11SpareKeycodes.settle` and `X11SpareKeycodes.reuseAfter`.

For each application (Chromium, Firefox ESR, a GTK 3 entry, a Tk entry) under Xvfb and
openbox, each delay D and each gap G: COUNT characters that no layout has (é ¥ • へ …), each
typed the way HeeKeyboard types a character on a spare keycode — the keycode remapped to it
(XChangeKeyboardMapping), XSync, D ms, then the XTEST press and release, then G ms before the
next character — cycling over K spare keycodes, so every press is on a keycode that held
another character K presses before, and gets another one K presses later. Then it compares
what the application holds (a browser's field through browser_support's page, the GTK
entry's live file, the Tk entry's file at its end) with what was typed, character by
character:

- `old`: typed as the keycode's previous character (the press came before the application
  had the new mapping: D too short);
- `later`: typed as a character the keycode got after the press (the application handled
  the press after the next change of that keycode: it translates with the keymap of when it
  handles a key, and K × (D + G) was too short);
- `lost`, `other`: nothing, or anything else.

usage: /usr/bin/python3 bench/x11_keymap_lag.py [--apps chromium,firefox,gtk,tk]
           [--delays 0,1,2,5,10,20] [--gaps 30] [--keycodes 3] [--count 48] [--rounds 1]
           [--load N] [--verbose]
Needs python3-xlib (Debian's python3 has it), Xvfb, openbox, chromium, firefox-esr.
HEE_E2E_DISPLAYS / HEE_E2E_PORTS pick the display and port ranges (Tests/e2e/README.md).
Prints one line per application, delay and gap.
"""

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "e2e"))
import browser_support  # noqa: E402
from e2e_support import kill_group, private_session_bus, start_xvfb  # noqa: E402

from Xlib import X, XK, display as xdisplay  # noqa: E402
from Xlib.ext import xtest  # noqa: E402

TARGETS = os.path.join(HERE, "..", "Tests", "e2e", "targets")
# Characters no Xvfb layout (us) has: each needs a spare keycode.
CHARACTERS = "éèêëēėęàáâäæãåāçćčîïíīįìłñńôöòóœøōõśšûüùúūÿžźż¥€£•–—…¿¡‘’“”„«»°へぇ〜"


def spare_keycodes(d, count):
    """The `count` highest keycodes with no keysym and no modifier."""
    first, last = d.display.info.min_keycode, d.display.info.max_keycode
    mapping = d.get_keyboard_mapping(first, last - first + 1)
    modifiers = {k for row in d.get_modifier_mapping() for k in row if k}
    free = [first + i for i, row in enumerate(mapping) if not any(row) and first + i not in modifiers]
    return sorted(free, reverse=True)[:count]


def keysym_of(character):
    code = ord(character)
    # Latin-1 keysyms are the code point; every other character its Unicode keysym.
    return code if 0x20 <= code <= 0xFF else 0x01000000 | code


def type_characters(d, keycodes, text, delay, gap):
    """Types `text`, each character on the next of `keycodes` remapped to it just before."""
    for i, character in enumerate(text):
        keycode = keycodes[i % len(keycodes)]
        d.change_keyboard_mapping(keycode, [(keysym_of(character), 0)])
        d.sync()
        if delay:
            time.sleep(delay / 1000)
        xtest.fake_input(d, X.KeyPress, keycode)
        xtest.fake_input(d, X.KeyRelease, keycode)
        d.sync()
        time.sleep(gap / 1000)


KINDS = ("old", "later", "lost", "other")


def errors(expected, got, cycle):
    """How many characters of `expected` came out of `got` as each of KINDS, the keycodes
    cycling every `cycle` characters."""
    counts = dict.fromkeys(KINDS, 0)
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, expected, got, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op == "insert":
            counts["other"] += b2 - b1
            continue
        for i in range(a1, a2):
            j = b1 + (i - a1)
            if op == "delete" or j >= b2:
                counts["lost"] += 1
            elif i >= cycle and got[j] == expected[i - cycle]:
                counts["old"] += 1
            elif got[j] in expected[i + 1::cycle][:4]:
                counts["later"] += 1
            else:
                counts["other"] += 1
        if op == "replace" and b2 - b1 > a2 - a1:
            counts["other"] += (b2 - b1) - (a2 - a1)
    return counts


def settled(read, expected, timeout=5.0):
    """What `read()` returns once it equals `expected` or stopped changing for 1 s."""
    deadline = time.monotonic() + timeout
    last, since = read(), time.monotonic()
    while time.monotonic() < deadline:
        if last == expected:
            return last
        time.sleep(0.05)
        now = read()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since > 1.0:
            break
    return last


def read_file(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return ""


class Target:
    """One application with a text field that has the focus, and a way to read it."""

    def __init__(self, kind, env, workdir, server):
        self.kind, self.env, self.workdir, self.server = kind, env, workdir, server
        self.proc = self.browser = None

    def xdo(self, *args):
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True).stdout

    def start(self, label):
        if self.kind in browser_support.BROWSERS:
            if self.browser is None:
                since = self.server.mark()
                self.browser = browser_support.BROWSERS[self.kind](self.server.url("area"), self.env, self.workdir)
                self.startup = self.browser.wait_ready(self.server, "area", since)
                self.browser.click_field(self.server, self.xdo, "area", self.server.title)
            # Empty the field: Ctrl+A, BackSpace (keys every layout has).
            since = self.server.mark()
            subprocess.run(["xdotool", "key", "ctrl+a", "BackSpace"], env=self.env, check=True)
            if (self.server.state("area") or {}).get("value"):
                self.server.wait_value("area", "", since=since)
            return
        self.out = os.path.join(self.workdir, f"{self.kind}-{label}.txt")
        script = {"gtk": ["gtk_entry.py", "--live"], "tk": ["tk_entry.py"]}[self.kind]
        title = f"lag {self.kind} {label}"
        log = open(os.path.join(self.workdir, f"{self.kind}-{label}.log"), "wb")
        self.proc = subprocess.Popen(["/usr/bin/python3", os.path.join(TARGETS, script[0]), *script[1:], self.out, title],
                                     env=self.env, start_new_session=True, stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{title}$"], env=self.env,
                                   capture_output=True, text=True).stdout.split()
            if found:
                subprocess.run(["xdotool", "windowactivate", "--sync", found[0]], env=self.env, capture_output=True)
                subprocess.run(["xdotool", "mousemove", "--window", found[0], "60", "20", "click", "1"], env=self.env)
                time.sleep(0.5)
                return
            time.sleep(0.1)
        tree = subprocess.run(["xwininfo", "-root", "-tree"], env=self.env, capture_output=True, text=True).stdout
        raise RuntimeError(f"no window {title!r} mapped; the tree has: "
                           f"{[line.strip() for line in tree.splitlines() if 'lag' in line]}")

    def result(self, expected):
        if self.browser is not None:
            return settled(lambda: (self.server.state("area") or {}).get("value", ""), expected)
        if self.kind == "gtk":
            text = settled(lambda: read_file(self.out), expected)
            kill_group(self.proc)
            return text
        time.sleep(1.0)  # Tk writes its text when it ends: let it take the last keys first
        os.killpg(self.proc.pid, 15)
        self.proc.wait(timeout=10)
        return read_file(self.out)

    def close(self):
        if self.browser is not None:
            self.browser.close()
        kill_group(self.proc)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", default="chromium,firefox,gtk,tk")
    parser.add_argument("--delays", default="0,1,2,5,10,20", help="ms from the change (synced) to the press")
    parser.add_argument("--gaps", default="30", help="ms after each key")
    parser.add_argument("--keycodes", type=int, default=3, help="spare keycodes to cycle over")
    parser.add_argument("--count", type=int, default=48)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="print each run that went wrong")
    parser.add_argument("--load", type=int, default=0,
                        help="busy processes beside it (a loaded machine, as CI's often is)")
    options = parser.parse_args()
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(options.load)]
    delays = [float(x) for x in options.delays.split(",")]
    gaps = [float(x) for x in options.gaps.split(",")]
    workdir = tempfile.mkdtemp(prefix="hee-keymap-lag-")
    summary = []
    with private_session_bus():
        xvfb, name = start_xvfb()
        env = dict(os.environ, DISPLAY=name, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        env.pop("WAYLAND_DISPLAY", None)
        openbox = subprocess.Popen(["openbox"], env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        d = xdisplay.Display(name)
        keycodes = spare_keycodes(d, options.keycodes)
        print(f"# display {name}, spare keycodes {keycodes}, {options.count} characters per run, "
              f"{options.load} busy processes beside", flush=True)
        try:
            with browser_support.PageServer() as server:
                for kind in options.apps.split(","):
                    target = Target(kind, env, workdir, server)
                    try:
                        for delay, gap in [(d_, g) for d_ in delays for g in gaps]:
                            totals = dict.fromkeys(KINDS, 0)
                            for round_ in range(options.rounds):
                                text = (CHARACTERS * 4)[round_ * 7:round_ * 7 + options.count]
                                target.start(f"{delay:g}-{gap:g}-{round_}")
                                type_characters(d, keycodes, text, delay, gap)
                                got = target.result(text)
                                for kind_, n in errors(text, got, len(keycodes)).items():
                                    totals[kind_] += n
                                if got != text and options.verbose:
                                    print(f"#   typed {text!r}\n#   got   {got!r}", flush=True)
                            n = options.count * options.rounds
                            print(f"{kind:9s} delay {delay:4g} ms, gap {gap:4g} ms, reuse after "
                                  f"{len(keycodes) * (delay + gap):4.0f} ms: "
                                  + ", ".join(f"{k} {v:3d}" for k, v in totals.items()) + f" of {n}", flush=True)
                            summary.append((kind, delay, gap, sum(totals.values())))
                        if target.browser is not None:
                            print(f"# {kind} started in {target.startup:.2f} s", flush=True)
                    finally:
                        target.close()
        finally:
            for keycode in keycodes:
                d.change_keyboard_mapping(keycode, [(0, 0)])
            d.sync()
            kill_group(openbox)
            kill_group(xvfb)
            for hog in hogs:
                kill_group(hog)
            if sys.exc_info()[0] is None:
                shutil.rmtree(workdir, ignore_errors=True)
            else:
                print(f"# work dir kept: {workdir}", file=sys.stderr)
    for kind in dict.fromkeys(s[0] for s in summary):
        clean = [f"{s[1]:g}/{s[2]:g}" for s in summary if s[0] == kind and s[3] == 0]
        print(f"# {kind}: no error at delay/gap {', '.join(clean) or '(none)'} ms")


if __name__ == "__main__":
    main()
