#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Fuzz/corpus/NAME/) and dictionaries (Fuzz/dict/)
from the repository's real files and public test cases, so they can be made again when those
change: `python3 Fuzz/make_seeds.py`.

Seeds: the settings examples of the documentation (README.md and docs/); every replay file in Tests/e2e/replay (malformed/
included), whole for the stream target and line by line for the line target; the JSON, replay
and settings cases of the unit tests (every raw string literal #"{...}"# in
Tests/KeyboardCoreTests and Tests/AppModelTests, plus the ones below taken from the tests' argument lists); the command
lines of the unit tests and the documentation; and small edit programs for the text buffer. A seed's file
name says where it comes from. Files that are no longer generated are removed; inputs the
fuzzer finds live in .build/fuzz/corpus, never here.
"""
import glob
import hashlib
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")
DICT = os.path.join(ROOT, "Fuzz", "dict")
UNIT_TESTS = ["Tests/KeyboardCoreTests", "Tests/AppModelTests"]

seeds = {}  # target -> {file name: bytes}


def add(target, name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")[:60]
    digest = hashlib.sha1(data).hexdigest()[:8]
    seeds.setdefault(target, {})[f"{name}-{digest}"] = data


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def test_files():
    for folder in UNIT_TESTS:
        for root, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.relpath(os.path.join(root, name), ROOT)


# -- JSON and settings ---------------------------------------------------------------------

# Raw string literals of the unit tests that hold a JSON object (no interpolation).
for path in test_files():
    text = read(path).decode("utf-8")
    base = os.path.basename(path)[:-len(".swift")]
    for n, literal in enumerate(re.findall(r'#"(\{.*?\})"#', text)):
        if "\\#(" in literal:
            continue
        add("json", f"{base}-{n}", literal)
        if base.startswith("Settings"):
            add("settings", f"{base}-{n}", literal)
        if '"t":' in literal:
            add("replay-line", f"{base}-{n}", literal)

# JSONParsingTests' texts that are not JSON, and its edge cases.
for n, text in enumerate(["", "{", "[1,]", '{"a" 1}', '{"a":1,}', "01", "1.", ".5", "-", "1e", "tru", '"abc',
                          '"a\x01b"', "{} {}", "[1 2]", '"\\x"', "{1:2}", "nul", "+1", '"\\ud83d"', '"\\udc4d"',
                          '"\\ud83d\\udc4d"', "[1e400, -1e400, 1e-400]", "9" + "0" * 400,
                          "[" * 600 + "]" * 600, "[" * 100 + "]" * 100,
                          ' {"a": [1, -2, 3.5, 1e3, -0.25E-2], "b": true, "c": false, "d": null, "e": "x\\"y\\\\z\\u00e9\\n", "f": {}} ']):
    add("json", f"JSONParsingTests-{n}", text)

# The documentation's settings example and the corrections it and SettingsCorrectionTests
# describe: README.md and the documents of docs/ in the README's reading order (so the seeds
# keep their names, README-N, from when all of it was in README.md).
DOCUMENTS = ["README.md", "docs/user-guide.md", "docs/wayland-and-x11.md", "docs/system-mode.md", "docs/layouts.md",
             "docs/kana.md", "docs/install.md", "docs/trace-and-replay.md", "docs/testing.md", "docs/performance.md",
             "docs/architecture.md", "docs/assets.md", "docs/known-limitations.md"]
readme = "\n".join(read(path).decode("utf-8") for path in DOCUMENTS)
for n, block in enumerate(re.findall(r"```json\n(.*?)```", readme, re.S)):
    add("settings", f"README-{n}", block)
    add("json", f"README-settings-{n}", block)
for n, text in enumerate([
        '{"volume": 150}', '{"windowWidth": 20000}', '{"volume": 80.5}', '{"limit": 0}', '{"limit": 0.4}',
        '{"limit": 0.5}', '{"volume": "loud"}', '{"mute": 1}', '{"volume": 5, "windowWidth": 1e400}',
        '{"volume": 10, "a": 1, "volume": 20}', '{"maximized": true, "windowWidth": 700, "windowHeight": 1000}',
        '{"limit": null, "mute": null}', '{"volume": -1e300, "windowHeight": [1], "limit": {}}',
        "[1]", "3", '"x"', "{", "", "{}\n", " {\n}\n"]):
    add("settings", f"corrections-{n}", text)
add("settings", "bom", b"\xef\xbb\xbf" + b'{"volume": 80}')
add("settings", "bom-at-end", b'{"volume": 80}' + b"\xef\xbb\xbf")
add("settings", "not-utf8", b'{"theme": "\xff\xfe"}')

# -- Replay files --------------------------------------------------------------------------

replay_dir = "Tests/e2e/replay"
replay_files = []
for folder in [replay_dir, os.path.join(replay_dir, "malformed")]:
    for name in sorted(os.listdir(os.path.join(ROOT, folder))):
        if name.endswith(".jsonl"):
            replay_files.append(os.path.join(folder, name))

# The stream target reads two bytes first (the seed of its piece sizes), then the file.
PIECES = b"\x00\x01"
for path in replay_files:
    data = read(path)
    label = path[len(replay_dir) + 1:].replace("/", "-")
    add("replay-stream", label, PIECES + data)
    for n, line in enumerate(data.split(b"\n")):
        if line.strip() and not line.startswith(b"#"):
            add("replay-line", f"{label}-{n + 1}", line)
# A Windows copy (CR LF and a byte order mark) of the first file, as run_hostile_input_tests does.
first = read(replay_files[0])
add("replay-stream", "crlf-bom", PIECES + b"\xef\xbb\xbf" + first.replace(b"\n", b"\r\n"))
# The documentation's example block of every record type (docs/trace-and-replay.md).
example = re.search(r"```\n(\{\"t\":1200.*?)```", readme, re.S)
if example:
    lines = [re.sub(r"\}\s{2,}.*$", "}", line) for line in example.group(1).splitlines()]
    add("replay-stream", "README-example", PIECES + "\n".join(lines).encode("utf-8") + b"\n")
    for n, line in enumerate(lines):
        add("replay-line", f"README-example-{n}", line)
add("replay-stream", "empty", PIECES)
add("replay-stream", "comments", PIECES + b"# nothing\n\n   \t\n")

# -- Command line --------------------------------------------------------------------------

for n, args in enumerate([
        [], ["--trace"], ["--mute"], ["--no-mute", "--mute"], ["--assets", "/opt/hee"], ["--assets=/opt/hee"],
        ["--mute", "--size", "640x960", "--trace", "--assets", "a b"], ["--size=800x600"], ["--size", "800X600"],
        ["--size", "800x600", "--size=1024x1400"], ["--help"], ["-h"], ["--trace", "--help"], ["--version"],
        ["--help", "--bogus"], ["--version", "--bogus"], ["--help", "--size", "foo"], ["--size", "+480x+800"],
        ["--size", "480x 800"], ["--size", "-480x800"], ["--size", "480x800x1"], ["--size", "320x324"],
        ["--system", "--size", "320x324"], ["--system", "--size", "320x300"], ["--system=yes"],
        ["--record", "f.jsonl", "--replay", "f.jsonl"], ["--record", "out.jsonl", "--replay", "in.jsonl"],
        ["--replay", "a", "--replay", "b"], ["--replay=a", "--replay=a"], ["--replay", "r.jsonl", "--exit-when-done"],
        ["--exit-when-done"], ["--volume", "70", "--limit=5", "--size", "700x1000", "--lang", "ja"],
        ["--volume", "10", "--volume=20", "--lang", "ja", "--lang=en"], ["--limit", "99"], ["--limit", "0"],
        ["--scale", "0.5"], ["--scale=8"], ["--scale", "nan"], ["--scale", "1e999"], ["--bench-presses", "10"],
        ["--bench-presses", "10", "--bench-interval", "5"], ["--bench-interval", "5"], ["--volume"], ["--lang", "fr"],
        ["\x01LANG=ja_JP.UTF-8", "--trace"], ["\x01GDK_SCALE=2", "--system"], ["\x01LC_ALL=C", "\x01LANG=ja"],
        ["\x01WAYLAND_DISPLAY=wayland-1", "\x01XDG_RUNTIME_DIR=/run/user/1000"], ["\x01DISPLAY=:0", "--system"],
        ["\x01SDL_VIDEODRIVER=wayland", "\x01WAYLAND_DISPLAY=/tmp/w"], ["\x01SDL_VIDEODRIVER=x11"],
        ["\x01WAYLAND_SOCKET=5", "\x01DISPLAY=:1"]]):
    add("launch-options", f"args-{n}", "\0".join(args))

# -- Text buffer programs (see Fuzz/Targets/text-buffer.swift for the encoding) ------------

PIECE_INDEX = {"a": 0, "e": 1, " ": 3, "へ": 7, "ぇ": 8, "〜": 9, "\u0301": 11, "🇯": 14, "🇵": 15,
               "👍": 19, "🏽": 20, "\u200d": 21, "👩": 23, "\u1100": 29, "\u1161": 30, "क": 33,
               "\u094d": 34, "ष": 35, "\r\n": 48, "\t": 49}


def insert(*pieces):
    # op 0 (insert), length, flag 0 (pieces), then each piece's index.
    return bytes([0, len(pieces), 0] + [PIECE_INDEX[p] for p in pieces])


def insert_raw(text):
    data = text.encode("utf-8")
    return bytes([0, len(data), 1]) + data


def paste(times, *pieces):
    return bytes([13, len(pieces), 0] + [PIECE_INDEX[p] for p in pieces] + [times])


UNDO, REDO, BACK, FORWARD, WORD, SELECT_ALL = b"\x0b", b"\x0c", b"\x02", b"\x03", b"\x04", b"\x0a"
for name, program in [
        ("hee-backspace-undo", b"\x00" + insert("へ", "ぇ", "〜") + BACK * 3 + UNDO + REDO + UNDO),
        ("typing-words", b"\x00" + insert("a", "e", " ", "a") + WORD + UNDO + bytes([6, 2, 1]) + FORWARD),
        ("flags", b"\x00" + insert("🇯", "🇵", "🇯") + bytes([6, 0, 0]) + insert("🇵") + BACK + UNDO),
        ("combining", b"\x00" + insert("e") + insert("\u0301") + bytes([6, 0, 0]) + FORWARD + UNDO),
        ("zwj-family", b"\x00" + insert("👩", "\u200d", "👩") + BACK + insert("🏽") + UNDO + UNDO),
        ("hangul-jamo", b"\x00" + insert("\u1100") + insert("\u1161") + BACK + REDO),
        ("conjunct", b"\x00" + insert("क", "\u094d") + insert("ष") + bytes([7, 1, 1]) + BACK + UNDO),
        ("paste-select-delete", b"\x00" + paste(5, "👍", "🏽", " ") + SELECT_ALL + BACK + UNDO + REDO),
        ("lines-and-tabs", b"\x00" + insert("a", "\r\n", "\t", "a") + paste(2, "\r\n") + bytes([9, 1, 0])),
        ("raw-utf8", b"\x00" + insert_raw("héllo wörld ") + bytes([6, 2, 0, 6, 3, 1]) + UNDO),
        ("invalid-utf8", b"\x00" + bytes([0, 6, 1, 0xff, 0xe3, 0x81, 0x61, 0xc3, 0x28]) + BACK),
        ("initial-text", b"\x01" + insert_raw("へぇ〜 abc")[1:] + bytes([9, 4, 1]) + WORD),
]:
    add("text-buffer", name, program)

# -- Dictionaries --------------------------------------------------------------------------

JSON_TOKENS = ["{", "}", "[", "]", ":", ",", '"', "true", "false", "null", "-", "0", "1", "-0", "0.5", "1e",
               "E+", "e-", "1e400", "-1e400", "9007199254740993", "9223372036854775808", "\\u", "\\u0000",
               "\\ud83d\\udc4d", "\\ud800", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u2028",
               "\\u0085", "\\u001b", "\ufeff", "\u2028", "\u0085", "\u001b", "\x7f", "\xff"]
SETTINGS_TOKENS = JSON_TOKENS + ['"mute"', '"volume"', '"windowWidth"', '"windowHeight"', '"maximized"', '"limit"',
                                 "100", "101", "16384", "16385", "320", "592", "480", "800", "99", "80.5", "0.4",
                                 "1e15", "9e15"]
REPLAY_TOKENS = JSON_TOKENS + ['"t"', '"type"', '"x"', '"y"', '"button"', '"clicks"', '"buttons"', '"touch"',
                               '"finger"', '"device"', '"key"', '"mod"', '"clipboard"', '"text"', '"start"',
                               '"length"', '"display"', '"event"', '"w"', '"h"', "\r\n", "\n", "#", "\ufeff"] + \
    [f'"{kind}"' for kind in ["mousedown", "mouseup", "mousemotion", "fingerdown", "fingerup", "fingermotion",
                              "keydown", "keyup", "textinput", "textediting", "window"]] + \
    [f'"{event}"' for event in ["resized", "size_changed", "focus_lost", "focus_gained", "close", "enter", "leave",
                                "minimized", "maximized", "restored", "shown", "hidden", "exposed", "moved",
                                "display_changed"]] + \
    ['"Backspace"', '"Delete"', '"Return"', '"Left"', '"Right"', '"Home"', '"End"', '"A"', '"V"', '"Z"',
     '"Escape"', '"Keypad 1"', '"Left Shift"', "1000000", "65535", "16384", "255", "2147483647"]
LAUNCH_TOKENS = ["\0", "=", "--help", "-h", "--version", "--trace", "--system", "--mute", "--no-mute", "--size",
                 "--scale", "--record", "--replay", "--exit-when-done", "--volume", "--limit", "--lang",
                 "--bench-presses", "--bench-interval", "--assets", "480x800", "320x592", "320x324", "16384x16384",
                 "16385", "x", "X", "0.5", "8", "nan", "inf", "ja", "en", "100", "99", "1000000",
                 "\x01LANG=", "\x01LC_ALL=", "\x01LC_MESSAGES=", "\x01GDK_SCALE=", "ja_JP.UTF-8", "\n", "\x1b[",
                 "\x01DISPLAY=", "\x01WAYLAND_DISPLAY=", "\x01WAYLAND_SOCKET=", "\x01SDL_VIDEODRIVER=",
                 "\x01XDG_RUNTIME_DIR=", "wayland", "x11", "wayland,x11", ":0", "/run/user/1000"]
TEXT_TOKENS = ["\u0301", "\u200d", "\ufe0f", "🇯🇵", "👍🏽", "\u094d", "\u1100\u1161\u11a8", "\r\n", "\u0085", "\u2028"]


# layout-file: the shipped layouts (issues 20-22), docs/layouts.md's example, and the bad layouts of the
# unit tests (every JSON raw string of LayoutFileTests is already among the json seeds).
for path in sorted(glob.glob(os.path.join(ROOT, "layouts", "*.json"))):
    add("layout-file", os.path.basename(path), read(path))
for n, block in enumerate(re.findall(r"```json\n(.*?)```", readme, re.S)):
    if '"layers"' in block:
        add("layout-file", f"README-{n}", block)
LAYOUT_TOKENS = ["\"name\"", "\"columns\"", "\"layers\"", "\"rows\"", "\"keys\"", "\"desktopRow\"",
                 "\"key\"", "\"width\"", "\"rowSpan\"", "\"gap\"", "\"covered\"", "\"fill\"",
                 "\"layer\"", "\"types\"", "\"label\"", "\"alternates\"", "\"flick\"", "\"cycle\"",
                 "\"forms\"", "\"hee\"", "\"shift\"", "\"backspace\"", "\"space\"", "\"return\"",
                 "\"esc\"", "\"tab\"", "\"ctrl\"", "\"alt\"", "\"left\"", "\"123\"", "\"🌐\"",
                 "\"゛゜小\"", "\"→\"", "\"↶\"", "\"あ\"", "[\"hee\"]", "1.35", "2.7", "0", "-1",
                 "1e309", "{", "}", "[", "]", ",", ":"]


# atspi-context: what AT-SPI says of the focused object, in the target's byte layout (role,
# states, flags, caret, start, content_type's purpose and hint, then NUL-separated fields: the
# application, attribute names and values, the text), as the toolkits said it under Xvfb
# (AccessibleFactsTests' cases).
def atspi_facts(role, states, caret=0, start=0, application=None, attributes=(), text=None, purpose=0, hint=0, flags=0):
    bits = 0
    for state in states:
        bits |= 1 << state
    fields = ([application] if application is not None else []) + [x for pair in attributes for x in pair]
    flags |= (0x01 if text is not None else 0) | (0x02 if application is not None else 0)
    head = struct.pack(">hQBiiII", role, bits, flags, caret, start, purpose, hint)
    return head + b"\0".join(f.encode("utf-8") for f in fields + [text or ""])


EDITABLE, FOCUSED, MULTI_LINE, SINGLE_LINE, READ_ONLY, DEFUNCT = 7, 12, 17, 26, 43, 6
for name, data in [
    ("gtk-entry", atspi_facts(61, [EDITABLE, FOCUSED, SINGLE_LINE], 5, 0, "gtk_fields.py", [("toolkit", "gtk")], "hello world")),
    ("gtk-password", atspi_facts(40, [EDITABLE, FOCUSED, SINGLE_LINE], 7, 0, "gtk_fields.py", [("toolkit", "gtk")], "hunter2")),
    ("qt-editor", atspi_facts(61, [EDITABLE, FOCUSED, MULTI_LINE], 0, 0, "qt_fields.py", [], "multi\nline")),
    ("chromium-email", atspi_facts(79, [EDITABLE, FOCUSED, SINGLE_LINE], 5, 0, "Chromium",
                                   [("text-model", "a1"), ("text-input-type", "email"), ("tag", "input")], "a@b.c")),
    ("firefox-number", atspi_facts(52, [EDITABLE, FOCUSED, SINGLE_LINE], 2, 0, "Firefox",
                                   [("text-input-type", "number"), ("tag", "input")], "12")),
    ("firefox-password", atspi_facts(79, [EDITABLE, FOCUSED], 6, 0, "Firefox", [("text-input-type", "password")], "secret")),
    ("terminal", atspi_facts(60, [FOCUSED], 4, 0, "gnome-terminal-server", [], "$ ls")),
    ("button", atspi_facts(43, [FOCUSED], application="gtk_fields.py")),
    ("read-only", atspi_facts(79, [EDITABLE, READ_ONLY, FOCUSED], 1, 0, "Firefox", [], "x")),
    ("caret-outside", atspi_facts(61, [EDITABLE, FOCUSED], 9, 2, "gedit", [], "abc")),
    ("caret-negative", atspi_facts(61, [EDITABLE, FOCUSED], -1, 0, "gedit", [], "abc")),
    ("window-offset", atspi_facts(61, [EDITABLE, FOCUSED], 1029, 1024, "gedit", [], "llo world")),
    ("combining", atspi_facts(61, [EDITABLE, FOCUSED], 3, 0, "gedit", [], "ce\u0301x")),
    ("huge", atspi_facts(61, [EDITABLE, FOCUSED], 100000, 0, "gedit", [], "ab\U0001F468\u200d\U0001F469", flags=0xC0)),
    ("application-controls", atspi_facts(61, [EDITABLE, FOCUSED], 0, 0, "a\tb\x1b[2J\u0085\u2028", [], "")),
    ("wayland-password", atspi_facts(61, [EDITABLE], purpose=8, hint=0x40 | 0x80)),
    ("wayland-out-of-range", atspi_facts(61, [EDITABLE], purpose=14, hint=0xFFFFFFFF)),
]:
    add("atspi-context", name, data)
add("atspi-context", "invalid-utf8", atspi_facts(61, [EDITABLE, FOCUSED], 2, 0, "x") + b"\xff\xfe\xc3")
ATSPI_TOKENS = ["text-input-type", "email", "tel", "url", "number", "password", "date", "time", "datetime-local",
                "search", "tag", "textarea", "input", "toolkit", "gtk", "Chromium", "Firefox", "\u0301", "\u200d"]



# input-method: content_type's purpose and hint, the cursor, the text's length (2 bytes) and
# the text, then the flags byte and AutoShow's events (0: a field, +4 a new focus; 1: none;
# 2: time, the high bits × 10 ms; 3: the hide key), as sway hands them for GTK 3's entries.
def input_method(purpose, hint, text, cursor, flags=0, events=b""):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return struct.pack(">IIIH", purpose, hint, cursor, len(data)) + data + bytes([flags]) + events


FIELD, NONE, WAIT_250, HIDE_KEY, NEW_FIELD = 0, 1, 2 | (25 << 2), 3, 4
for name, data in [
    ("gtk-entry-to-entry", input_method(0, 0, "hello", 5, 0, bytes([NEW_FIELD, NONE, NEW_FIELD, WAIT_250]))),
    ("email-then-button", input_method(6, 0x1, "a@b.c", 3, 0, bytes([NEW_FIELD, NONE, WAIT_250, WAIT_250]))),
    ("password", input_method(8, 0x40 | 0x80, "hunter2", 7, 0, bytes([NEW_FIELD, HIDE_KEY, FIELD, NONE, NEW_FIELD]))),
    ("terminal", input_method(13, 0, "$ ls", 4, 0, bytes([NEW_FIELD]))),
    ("cursor-inside-character", input_method(0, 0, "へぇ〜", 1, 0, bytes([NEW_FIELD]))),
    ("cursor-beyond", input_method(0, 0x200, "ab", 0xFFFFFFFF, 0, bytes([NEW_FIELD]))),
    ("invalid-utf8", input_method(0, 0, b"a\xff\xc3b", 2, 0, bytes([NEW_FIELD]))),
    ("out-of-range", input_method(99, 0xFFFFFFFF, "x", 0, 2, bytes([NEW_FIELD, 0xF1, NONE, WAIT_250]))),
    ("auto-show-off", input_method(0, 0, "", 0, 1, bytes([NONE, WAIT_250, HIDE_KEY]))),
    ("done-storm", input_method(0, 0, "x" * 4000, 2000, 0, bytes([NEW_FIELD, NONE] * 64 + [WAIT_250]))),
]:
    add("input-method", name, data)
INPUT_METHOD_TOKENS = ["\u3078", "\u3047", "\u301c", "\xff", "\xc3", "\x00\x00\x00\x06", "\x00\x00\x00\x08",
                       "\x00\x00\x00\x0d"]


def dict_line(token):
    data = token.encode("utf-8")
    out = "".join(chr(b) if 0x20 <= b < 0x7f and chr(b) not in '"\\' else f"\\x{b:02x}" for b in data)
    return f'"{out}"'


dictionaries = {"json": JSON_TOKENS, "settings": SETTINGS_TOKENS, "replay-line": REPLAY_TOKENS,
                "replay-stream": REPLAY_TOKENS, "launch-options": LAUNCH_TOKENS, "text-buffer": TEXT_TOKENS,
                "layout-file": LAYOUT_TOKENS, "atspi-context": ATSPI_TOKENS, "input-method": INPUT_METHOD_TOKENS}


def main():
    for target, files in sorted(seeds.items()):
        folder = os.path.join(CORPUS, target)
        os.makedirs(folder, exist_ok=True)
        for old in os.listdir(folder):
            if old not in files:
                os.remove(os.path.join(folder, old))
        for name, data in files.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        print(f"{target}: {len(files)} seeds")
    os.makedirs(DICT, exist_ok=True)
    for target, tokens in dictionaries.items():
        with open(os.path.join(DICT, f"{target}.dict"), "w") as f:
            f.write(f"# {target}: the tokens of its format (written by Fuzz/make_seeds.py)\n")
            for token in dict.fromkeys(tokens):
                f.write(dict_line(token) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
