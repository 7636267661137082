#!/usr/bin/env python3
"""Inputs from public bug reports of other text apps, through the real release binary
(issue 11): whatever users type, paste and keep, the app neither crashes nor loses it.

Scenarios (replays under SDL's offscreen driver, no display needed):
  1. invisible   every class of code point that draws nothing (format characters, joiners,
                 marks alone, variation selectors, bidi controls, soft hyphen), next to
                 visible text and alone: exit 0, nothing on stderr, every text stored.
  2. altgr       AltGr arriving as Ctrl+Alt (keydown with mod LCtrl|RAlt, then the layout's
                 textinput): "xy" + ą ż @ → "xyąż@"; Ctrl alone still selects all.
  3. same-file   --replay X --record X under every spelling (./X, absolute, d/../X, .//X, a
                 symbolic link, a hard link, a linked directory, /proc/self/cwd/X, either order)
                 → exit 64 and X unchanged; a different record file works.
  4. crlf        a replay file with CR LF line ends (and a byte order mark) gives the trace of
                 the same file with LF.
  5. huge-text   one textinput of 10 MB: exit 0, one `text` line holding all of it, the trace
                 no bigger than twice the input (it is killed as soon as it grows past that).
  6. held-gap    backspace held over a gap of 31 years after the field is empty: the replay
                 ends at once with the right text; without --exit-when-done, SIGINT then quits
                 with status 0.
  7. signals     SIGTERM during a replay busy with a long run of word deletions quits at
                 once with status 0; SIGTERM while the replay file is still being read
                 (a FIFO that has not been written) quits with status 0.
  8. endless     replay files with no line end ever (/dev/zero, a sparse 3 GB file of zeros),
                 under a 1.5 GB address-space limit: exit 65 with one line naming the file and
                 line 1, no crash (the file was read whole before: SIGABRT, status 134).
  9. command     --help/--version with stdout closed (`>&-`) or full (/dev/full): exit 74 and
                 one line on stderr; --replay twice and --bench-interval alone: exit 64.
 10. no-display  each way of having no display gives exit 69 and one line naming its cause,
                 with nothing from libwayland: DISPLAY of no server (also without
                 XDG_RUNTIME_DIR), neither variable, WAYLAND_DISPLAY of no compositor,
                 SDL_VIDEODRIVER naming no driver.

Prints `ok - …` per check; the first failure prints `FAIL: …` and exits 1 (work directory
kept). Environment: HEE_APP (default <repo>/.build/release/HeeApp), HEE_HOSTILE_ONLY=1,5
runs only those scenarios, HEE_HOSTILE_KEEP=1 keeps the work directory.
Standard-library Python 3 only.
"""

import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import app_binary, ok, fail, kill_group, run_scenarios, script_main  # noqa: E402
TIMEOUT = 60.0
# Where the backspace key is at the default 480x800 window, as window fractions (for finger
# events): inside the key whatever its exact frame.
BACKSPACE = (0.934, 0.9075)


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Work:
    def __init__(self, root, binary):
        self.root = root
        self.binary = binary
        self.counter = 0

    def env(self):
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "GDK_SCALE")}
        env.update(SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy", LANG="C",
                   XDG_CONFIG_HOME=os.path.join(self.root, "config"), HOME=os.path.join(self.root, "home"))
        return env

    def replay_file(self, name, records, newline="\n", prefix=""):
        self.counter += 1
        path = os.path.join(self.root, f"{self.counter:02d}-{name}.jsonl")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(prefix)
            for r in records:
                f.write((r if isinstance(r, str) else dumps(r)) + newline)
        return path

    def run(self, args, timeout=TIMEOUT, cwd=None, stdout=subprocess.PIPE):
        try:
            proc = subprocess.run([self.binary, *args], cwd=cwd or self.root, env=self.env(),
                                  stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            fail(f"`{' '.join(os.path.basename(a) for a in args)}` did not finish within {timeout} s")
        return proc

    def replay(self, path, extra=(), timeout=TIMEOUT):
        proc = self.run(["--trace", "--replay", path, "--exit-when-done", *extra], timeout=timeout)
        events = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
        return proc, events


def strip_times(events):
    return [{k: v for k, v in e.items() if k != "t"} for e in events]


def texts(events):
    return [e["text"] for e in events if e["event"] == "text"]


def expect_clean(proc, what):
    if proc.returncode != 0:
        fail(f"{what}: exit status {proc.returncode}; stderr: {proc.stderr.decode(errors='replace')!r}")
    if proc.stderr:
        fail(f"{what}: stderr not empty: {proc.stderr.decode(errors='replace')!r}")


# --------------------------------------------------------------------------- 1

INVISIBLE = {
    "format characters": "\u200b\u2060\ufeff\u2061\u2062\u2063\u2064\u180e\U000e0001\U000e0041\U000e007f",
    "joiners": "\u200c\u200d\u034f",
    "variation selectors": "\ufe00\ufe0e\ufe0f\U000e0100\u180b",
    "bidi controls": "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
    "soft hyphen": "\u00ad",
}
MARKS = "\u0301\u0300\u20dd\u3099\u0e31\u093f\u05b4"


def scenario_invisible(work):
    records, expected, t = [], "", 100
    for kind, chars in INVISIBLE.items():
        for c in chars:
            for text in (f"a{c}b", c, f"{c}x", f" {c}{c} "):
                records.append({"t": t, "type": "textinput", "text": text})
                expected += text
                t += 10
    for m in MARKS:
        # A mark alone: at the very start of the field (the text so far is deleted first),
        # after a space, and twice.
        for text in (m, f" {m}", m + m):
            records.append({"t": t, "type": "textinput", "text": text})
            expected += text
            t += 10
    records.append({"t": t, "type": "textinput", "text": INVISIBLE["bidi controls"] + "שלום" + "\u200b" + "سلام"})
    expected += INVISIBLE["bidi controls"] + "שלום" + "\u200b" + "سلام"
    # The issue's own line, alone in the field: a, zero-width space, b.
    path = work.replay_file("invisible", records)
    proc, events = work.replay(path)
    expect_clean(proc, "invisible characters")
    got = texts(events)
    if len(got) != len(records) or got[-1] != expected:
        fail(f"invisible characters: {len(got)} text events for {len(records)} textinputs; last text "
             f"{got[-1]!r:.200} instead of {expected!r:.200}")
    ok(f"{len(records)} textinputs of {sum(len(c) for c in INVISIBLE.values())} invisible code points "
       f"(format, joiners, variation selectors, bidi controls, soft hyphen) and {len(MARKS)} marks alone, "
       "beside visible text and alone, drawn: exit 0, stderr empty, every text stored")

    proc, events = work.replay(work.replay_file("zwsp", [{"t": 100, "type": "textinput", "text": "a\u200bb"}]))
    expect_clean(proc, "a, zero-width space, b")
    last = [e for e in events if e["event"] == "text"][-1]
    if last["text"] != "a\u200bb" or last["caret"] != 3:
        fail(f"the issue's line a\\u200bb: text event {last}")
    ok("the issue's replay line a\\u200bb: exit 0, nothing on stderr, text stored, caret 3 (the space is one Character)")


# --------------------------------------------------------------------------- 2

CTRL, ALT_R = 0x0040, 0x0200


def scenario_altgr(work):
    altgr = CTRL | ALT_R
    records = [{"t": 100, "type": "textinput", "text": "xy"}]
    t = 200
    for key, typed in (("A", "ą"), ("Z", "ż"), ("Q", "@")):
        records += [{"t": t, "type": "keydown", "key": key, "mod": altgr},
                    {"t": t + 1, "type": "textinput", "text": typed},
                    {"t": t + 50, "type": "keyup", "key": key, "mod": altgr}]
        t += 100
    # Ctrl alone is still a shortcut: Ctrl+A selects all, "k" replaces it.
    records += [{"t": t, "type": "keydown", "key": "A", "mod": CTRL},
                {"t": t + 50, "type": "keyup", "key": "A", "mod": CTRL},
                {"t": t + 100, "type": "textinput", "text": "k"}]
    proc, events = work.replay(work.replay_file("altgr", records))
    expect_clean(proc, "AltGr")
    got = texts(events)
    want = ["xy", "xyą", "xyąż", "xyąż@", "k"]
    if got != want:
        fail(f"AltGr as Ctrl+Alt: text events {got}, expected {want}")
    ok("AltGr as Ctrl+Alt types ą ż @ after \"xy\" (no select-all, no undo, no quit); Ctrl+A alone still selects all")


# --------------------------------------------------------------------------- 3

def scenario_same_file(work):
    d = os.path.join(work.root, "same")
    os.makedirs(os.path.join(d, "sub"))
    replay = os.path.join(d, "r.jsonl")
    content = dumps({"t": 100, "type": "textinput", "text": "kept"}) + "\n"
    with open(replay, "w", encoding="utf-8") as f:
        f.write(content)
    os.symlink("r.jsonl", os.path.join(d, "link.jsonl"))
    os.link(replay, os.path.join(d, "hard.jsonl"))
    os.symlink(d, os.path.join(work.root, "dlink"))
    spellings = [("r.jsonl", "r.jsonl"), ("r.jsonl", "./r.jsonl"), ("./r.jsonl", replay), ("r.jsonl", "sub/../r.jsonl"),
                 ("r.jsonl", ".//r.jsonl"), ("r.jsonl", "link.jsonl"), ("link.jsonl", "r.jsonl"),
                 ("r.jsonl", "hard.jsonl"), ("r.jsonl", os.path.join(work.root, "dlink", "r.jsonl")),
                 ("r.jsonl", "/proc/self/cwd/r.jsonl"), ("sub/../r.jsonl", os.path.join(d, "sub", "..", "r.jsonl"))]
    for replay_arg, record_arg in spellings:
        for args in (["--replay", replay_arg, "--record", record_arg], ["--record", record_arg, "--replay", replay_arg]):
            proc = work.run([*args, "--exit-when-done"], cwd=d, timeout=20)
            with open(replay, encoding="utf-8") as f:
                now = f.read()
            if now != content:
                fail(f"`{' '.join(args)}` overwrote the replay file: it now holds {now!r:.200}")
            err = proc.stderr.decode(errors="replace")
            if proc.returncode != 64 or "same file" not in err.splitlines()[0]:
                fail(f"`{' '.join(args)}`: exit {proc.returncode}, stderr {err!r:.300}; expected 64 and a line "
                     f"saying they name the same file")
    ok(f"--replay/--record naming one file in {len(spellings)} spellings × both orders (./, absolute, d/../, .//, "
       "symlink, hard link, linked directory, /proc/self/cwd) → exit 64, the replay file unchanged")
    proc = work.run(["--replay", "r.jsonl", "--record", "new.jsonl", "--exit-when-done"], cwd=d, timeout=20)
    if proc.returncode != 0 or not os.path.exists(os.path.join(d, "new.jsonl")):
        fail(f"a different record file: exit {proc.returncode}, stderr {proc.stderr!r:.300}")
    ok("a record file that is another file works (exit 0, created)")


# --------------------------------------------------------------------------- 4

def scenario_crlf(work):
    x, y = BACKSPACE
    records = ["# written on Windows", {"t": 100, "type": "textinput", "text": "hello\r\nworld"}, "",
               {"t": 200, "type": "fingerdown", "finger": 1, "x": x, "y": y},
               {"t": 260, "type": "fingerup", "finger": 1, "x": x, "y": y}, "   ",
               {"t": 300, "type": "keydown", "key": "Left"}, {"t": 310, "type": "keyup", "key": "Left"}]
    lf_proc, lf = work.replay(work.replay_file("lf", records))
    expect_clean(lf_proc, "LF replay")
    for name, newline, prefix in (("crlf", "\r\n", ""), ("crlf-bom", "\r\n", "\ufeff")):
        proc, events = work.replay(work.replay_file(name, records, newline=newline, prefix=prefix))
        if proc.returncode != 0:
            fail(f"{name}: exit {proc.returncode}: {proc.stderr.decode(errors='replace')!r}")
        expect_clean(proc, name)
        # Times are relative to when the replay started, which varies by a few ms: compare
        # the events without them.
        if strip_times(events) != strip_times(lf):
            fail(f"{name}: the trace differs from the LF file's: {events[-3:]} vs {lf[-3:]}")
    ok(f"CR LF line ends (with and without a byte order mark) read like LF: same {len(lf)}-line trace, "
       f"texts {texts(lf)}")


# --------------------------------------------------------------------------- 5

def scenario_huge_text(work):
    size = 10_000_000
    unit = "Hee へぇ〜 keyboard "  # ASCII and 3-byte characters
    text = (unit * (size // len(unit.encode()) + 1))
    text = text.encode()[:size].decode("utf-8", errors="ignore")
    path = work.replay_file("huge", [{"t": 100, "type": "textinput", "text": text},
                                     {"t": 200, "type": "textinput", "text": "!"}])
    input_size = os.path.getsize(path)
    limit = 3 * input_size
    trace_path = os.path.join(work.root, "huge-trace.jsonl")
    started = time.monotonic()
    with open(trace_path, "wb") as out:
        proc = subprocess.Popen([work.binary, "--trace", "--replay", path, "--exit-when-done"], cwd=work.root,
                                env=work.env(), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE,
                                start_new_session=True)
        err = []
        reader = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)
        reader.start()
        while proc.poll() is None:
            grown = os.path.getsize(trace_path)
            if grown > limit:
                kill_group(proc)
                fail(f"one {input_size / 1e6:.0f} MB textinput: the trace grew past {grown / 1e6:.0f} MB "
                     f"in {time.monotonic() - started:.1f} s (killed; it must stay proportional to the input)")
            if time.monotonic() - started > TIMEOUT:
                kill_group(proc)
                fail(f"one {input_size / 1e6:.0f} MB textinput: not done after {TIMEOUT} s")
            time.sleep(0.05)
        reader.join(5)
    wall = time.monotonic() - started
    if proc.returncode != 0:
        fail(f"huge textinput: exit {proc.returncode}: {err}")
    size_out = os.path.getsize(trace_path)
    events = []
    with open(trace_path, encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            if e["event"] == "text":
                events.append(e)
    if [e["text"] for e in events] != [text, text + "!"] or events[-1]["caret"] < len(text) // 2:
        fail(f"huge textinput: {len(events)} text events (lengths {[len(e['text']) for e in events]}), "
             f"expected 2 holding the input")
    if size_out > limit:
        fail(f"huge textinput: trace {size_out / 1e6:.1f} MB for a {input_size / 1e6:.1f} MB input")
    ok(f"one {input_size / 1e6:.1f} MB textinput → one text line with all of it (and one more after \"!\"): "
       f"trace {size_out / 1e6:.1f} MB, {wall:.1f} s wall")


# --------------------------------------------------------------------------- 6

def held_backspace(text, gap_ms, after=None):
    x, y = BACKSPACE
    records = [{"t": 100, "type": "textinput", "text": text},
               {"t": 200, "type": "fingerdown", "finger": 1, "x": x, "y": y},
               {"t": 200 + gap_ms, "type": "fingerup", "finger": 1, "x": x, "y": y}]
    if after:
        records.append({"t": 300 + gap_ms, "type": "textinput", "text": after})
    return records


def scenario_held_gap(work):
    years = 10 ** 12  # ms: about 31 years
    path = work.replay_file("held-gap", held_backspace("hello", years, after="after"))
    started = time.monotonic()
    proc, events = work.replay(path, timeout=30)
    wall = time.monotonic() - started
    expect_clean(proc, "held gap")
    want = ["hello", "hell", "hel", "he", "h", "", "after"]
    if texts(events) != want:
        fail(f"backspace held 31 years: texts {texts(events)}, expected {want}")
    up = [e for e in events if e["event"] == "touch" and e["key"] == "backspace" and not e["down"]]
    if len(up) != 1 or abs(up[0]["t"] - (years + 100) / 1000) > 1:
        fail(f"backspace released at {up}; expected t ≈ {(years + 100) / 1000:.0f} s")
    ok(f"backspace held for 31 years of replay time after the field is empty: done in {wall:.2f} s wall, "
       f"texts {want}")

    # Without --exit-when-done the app stays open after the replay; SIGINT quits it. The
    # signal goes once the trace shows the replay's last text (no fixed wait).
    trace_path = os.path.join(work.root, "gap-trace.jsonl")
    with open(os.path.join(work.root, "gap-stderr.txt"), "wb") as err, open(trace_path, "wb") as out:
        proc = subprocess.Popen([work.binary, "--trace", "--replay", path], cwd=work.root, env=work.env(),
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True)
        try:
            deadline = time.monotonic() + TIMEOUT
            while '"text":"after"' not in open(trace_path, encoding="utf-8", errors="replace").read():
                if proc.poll() is not None or time.monotonic() > deadline:
                    fail(f"the replay with a 31-year gap did not show its last text (exit {proc.poll()}) "
                         f"within {TIMEOUT} s")
                time.sleep(0.05)
            proc.send_signal(signal.SIGINT)
            try:
                status = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                fail("SIGINT after a replay with a 31-year gap: still running 10 s later")
        finally:
            kill_group(proc)
    if status != 0:
        fail(f"SIGINT after a replay with a 31-year gap: exit {status}")
    ok("without --exit-when-done, the app stays open after the replay; SIGINT then quits with status 0")


# --------------------------------------------------------------------------- 7

def scenario_signals(work):
    # 3,000,000 one-letter words, then backspace held: after 2 s every repeat deletes a word,
    # three million of them, each a real change (seconds of work in one replay).
    path = work.replay_file("busy", held_backspace("a " * 3_000_000, 10 ** 12))
    marker = os.path.join(work.root, "busy-record.jsonl")
    for sig in (signal.SIGTERM, signal.SIGINT):
        if os.path.exists(marker):
            os.remove(marker)
        with open(os.path.join(work.root, "busy-stderr.txt"), "wb") as err:
            # --record writes the window's size once the replay starts: the marker to wait for.
            proc = subprocess.Popen([work.binary, "--replay", path, "--exit-when-done", "--record", marker],
                                    cwd=work.root, env=work.env(), stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
            try:
                deadline = time.monotonic() + TIMEOUT
                while not (os.path.exists(marker) and os.path.getsize(marker) > 0):
                    if proc.poll() is not None or time.monotonic() > deadline:
                        fail(f"the busy replay ended ({proc.poll()}) or did not start within {TIMEOUT} s")
                    time.sleep(0.01)
                time.sleep(1.0)  # well into the word deletions
                if proc.poll() is not None:
                    fail("the busy replay was over before the signal (make it longer)")
                sent = time.monotonic()
                proc.send_signal(sig)
                try:
                    status = proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    fail(f"{sig.name} during a busy replay: still running 5 s later")
                waited = time.monotonic() - sent
            finally:
                kill_group(proc)
        if status != 0:
            fail(f"{sig.name} during a busy replay: exit {status}")
        ok(f"{sig.name} during a replay busy deleting 3,000,000 words: exit 0 after {waited * 1000:.0f} ms")

    # A signal before SDL starts: the replay file is a FIFO nobody has written yet, so the app
    # is blocked reading it.
    fifo = os.path.join(work.root, "fifo.jsonl")
    os.mkfifo(fifo)
    proc = subprocess.Popen([work.binary, "--replay", fifo, "--exit-when-done"], cwd=work.root, env=work.env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        fd = os.open(fifo, os.O_WRONLY)  # returns once the app has opened it for reading
        os.write(fd, b'{"t":100,"type":"textinput",')
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        try:
            status = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            fail("SIGTERM while the replay file is being read: still running 5 s later")
        os.close(fd)
    finally:
        kill_group(proc)
    if status != 0:
        fail(f"SIGTERM while the replay file is being read (before SDL starts): exit {status}")
    ok("SIGTERM while the replay file is still being read (before SDL starts): exit 0")


# --------------------------------------------------------------------------- 8

def scenario_endless(work):
    limit = 1_500_000 * 1024  # `ulimit -v 1500000`: a file read whole fails fast, not by eating RAM
    # Under make sanitize (scripts/sanitize.sh exports HEE_SANITIZE) no limit: ASan and TSan
    # reserve terabytes of address space for their shadow memory and cannot start under one
    # (exit 1, their report in a log file). The 64 MiB line limit is checked all the same.
    sanitized = os.environ.get("HEE_SANITIZE") == "1"

    def limited():
        if not sanitized:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    sparse = os.path.join(work.root, "sparse.jsonl")
    with open(sparse, "wb") as f:
        f.truncate(3 * 1024 ** 3)
    for path in ("/dev/zero", sparse):
        try:
            proc = subprocess.run([work.binary, "--replay", path, "--exit-when-done"], cwd=work.root, env=work.env(),
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  timeout=TIMEOUT, preexec_fn=limited)
        except subprocess.TimeoutExpired:
            fail(f"--replay {path}: still reading after {TIMEOUT} s")
        err = proc.stderr.decode(errors="replace")
        if proc.returncode != 65:
            fail(f"--replay {path} (no line end ever): exit {proc.returncode}, not 65; stderr: {err[:300]!r}")
        lines = err.splitlines()
        if len(lines) != 1 or f"{path}:1:" not in lines[0] or "longer than" not in lines[0]:
            fail(f"--replay {path}: stderr is not one line naming {path}:1 and the long line: {err[:300]!r}")
        where = "(sanitizer build: no memory limit)" if sanitized else "under a 1.5 GB memory limit"
        ok(f"--replay {os.path.basename(path)} {where}: exit 65, {lines[0]!r}")
    os.remove(sparse)


# --------------------------------------------------------------------------- 9

def scenario_command(work):
    for flag in ("--help", "--version"):
        # The shell closes stdout for the app (`>&-`): main must not mistake its /dev/null
        # placeholder for a working stdout.
        proc = subprocess.run(["sh", "-c", f'exec "$0" {flag} >&-', work.binary], cwd=work.root, env=work.env(),
                              stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=TIMEOUT)
        err = proc.stderr.decode(errors="replace")
        if proc.returncode != 74 or len(err.splitlines()) != 1 or "closed" not in err:
            fail(f"{flag} >&-: exit {proc.returncode}, stderr {err!r}; expected 74 and one line saying stdout is closed")
        with open("/dev/full", "wb") as full:
            proc = work.run([flag], stdout=full)
        err = proc.stderr.decode(errors="replace")
        if proc.returncode != 74 or len(err.splitlines()) != 1:
            fail(f"{flag} >/dev/full: exit {proc.returncode}, stderr {err!r}; expected 74 and one line")
        ok(f"{flag} with stdout closed or full: exit 74, one line on stderr")
    path = work.replay_file("one", [{"t": 1, "type": "textinput", "text": "a"}])
    # A trace that cannot be written is said once on stderr (it was lost in silence); the run
    # itself goes on and ends as usual.
    traced = [work.binary, "--trace", "--replay", path, "--exit-when-done"]
    proc = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *traced], cwd=work.root, env=work.env(),
                          stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=TIMEOUT)
    err = proc.stderr.decode(errors="replace")
    if proc.returncode != 0 or len(err.splitlines()) != 1 or "--trace" not in err or "closed" not in err:
        fail(f"--trace >&-: exit {proc.returncode}, stderr {err!r}; expected 0 and one line saying stdout is closed")
    with open("/dev/full", "wb") as full:
        proc = work.run(traced[1:], stdout=full)
    err = proc.stderr.decode(errors="replace")
    if proc.returncode != 0 or len(err.splitlines()) != 1 or "--trace" not in err or "No space" not in err:
        fail(f"--trace >/dev/full: exit {proc.returncode}, stderr {err!r}; expected 0 and one line naming the error")
    ok("--trace with stdout closed or full: exit 0, one warning on stderr")
    for args, word in ((["--replay", path, "--replay", path, "--exit-when-done"], "twice"),
                       (["--record", path + ".a", "--record", path + ".b"], "twice"),
                       (["--bench-interval", "5"], "--bench-presses")):
        proc = work.run(args)
        first = proc.stderr.decode(errors="replace").splitlines()[:1]
        if proc.returncode != 64 or not first or word not in first[0]:
            fail(f"{args}: exit {proc.returncode}, first stderr line {first}; expected 64 saying {word!r}")
        ok(f"{' '.join(os.path.basename(a) for a in args)}: exit 64, {first[0]!r}")


# --------------------------------------------------------------------------- 10

def free_display():
    """An X display number with no server (nor lock file) on this machine."""
    for n in range(709, 800):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return f":{n}"
    fail("no free X display number in :709-:799")


def scenario_no_display(work):
    display = free_display()
    runtime = os.path.join(work.root, "runtime")
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    cases = [
        ("only DISPLAY, no X server", {"DISPLAY": display, "XDG_RUNTIME_DIR": runtime}, f"cannot open display '{display}'"),
        ("only DISPLAY, no XDG_RUNTIME_DIR", {"DISPLAY": display}, f"cannot open display '{display}'"),
        ("neither, no XDG_RUNTIME_DIR", {}, "set DISPLAY or WAYLAND_DISPLAY"),
        ("WAYLAND_DISPLAY of no compositor", {"WAYLAND_DISPLAY": "nothing-here", "XDG_RUNTIME_DIR": runtime},
         "Wayland compositor at WAYLAND_DISPLAY 'nothing-here'"),
        ("SDL_VIDEODRIVER=nonexistent", {"SDL_VIDEODRIVER": "nonexistent", "DISPLAY": display},
         "'nonexistent' named by SDL_VIDEODRIVER is not available"),
        # A driver named alone with nothing to reach: its own reason, not the X display's.
        ("SDL_VIDEODRIVER=wayland, no compositor", {"SDL_VIDEODRIVER": "wayland", "DISPLAY": display,
                                                    "XDG_RUNTIME_DIR": runtime},
         "SDL_VIDEODRIVER is wayland, but no Wayland compositor answers at the default socket"),
        ("SDL_VIDEODRIVER=wayland, no XDG_RUNTIME_DIR", {"SDL_VIDEODRIVER": "wayland", "DISPLAY": display},
         "XDG_RUNTIME_DIR, where the socket would be, is not set"),
        ("SDL_VIDEODRIVER=x11, no DISPLAY", {"SDL_VIDEODRIVER": "x11"}, "SDL_VIDEODRIVER is x11, but DISPLAY is not set"),
    ]
    for label, variables, expected in cases:
        env = {k: v for k, v in work.env().items()
               if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XDG_RUNTIME_DIR")}
        env.update(variables)
        proc = subprocess.run([work.binary], cwd=work.root, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=TIMEOUT)
        err = proc.stderr.decode(errors="replace")
        lines = err.splitlines()
        if proc.returncode != 69 or len(lines) != 1 or expected not in lines[0]:
            fail(f"{label}: exit {proc.returncode}, stderr {err!r}; expected 69 and one line saying {expected!r}")
        ok(f"{label}: exit 69, {lines[0]!r}")


SCENARIOS = [
    (1, "invisible characters", scenario_invisible),
    (2, "AltGr as Ctrl+Alt", scenario_altgr),
    (3, "same file under any spelling", scenario_same_file),
    (4, "CR LF replay files", scenario_crlf),
    (5, "10 MB textinput", scenario_huge_text),
    (6, "held key over a long gap", scenario_held_gap),
    (7, "signals during a replay", scenario_signals),
    (8, "replay files with no line end", scenario_endless),
    (9, "command-line edges", scenario_command),
    (10, "no display, each cause named", scenario_no_display),
]


def main():
    def body(root):
        run_scenarios(SCENARIOS, "HEE_HOSTILE_ONLY", Work(root, app_binary()))
    return script_main(body, prefix="hee-hostile-", keep_variable="HEE_HOSTILE_KEEP")


if __name__ == "__main__":
    sys.exit(main())
