#!/usr/bin/env python3
"""Documentation and desktop metadata of HeeKeyboard (issue 13): the man page, the AppStream
metainfo and the .desktop entry are valid, and every flag and environment variable of the
program is documented.

Checks, in order:
  1. Every flag `--help` prints has an entry under OPTIONS in the man page and a row in the
     flag table of the "Command line" section of README.md or a document in docs/
     (docs/user-guide.md since issue 29; exactly one holds it), and neither documents a flag
     `--help` lacks.
  2. Every environment variable the program reads (the upper-case string literals in the
     sources of the installed program) is under ENVIRONMENT in the man page.
  3. The man page renders without a single warning: `man --warnings=w -l` (groff -ww) in a
     UTF-8 and in the C locale, groff -ww for the utf8, latin1 and ascii devices; lexgrog reads
     its NAME line; it has the sections a man page needs.
  4. `appstreamcli validate --pedantic --no-net` prints nothing but success for the metainfo
     `make metainfo` writes, which carries the id, names, summaries in en and ja, a
     description, a screenshot of the window (docs/screenshot.png), the content rating, a
     release with the version `--version` prints, the .desktop file as launchable and the
     installed binary.
  5. `desktop-file-validate` prints nothing for data/hee-keyboard.desktop.

Prints `ok - …` per passed check, `SKIP - …` for a check whose tool is missing (under CI=true
a missing tool is a failure: .ci/run installs them all); on the first failure `FAIL: …` and
exit 1. Environment: HEE_APP, the binary to ask for --help and --version (default
<repo>/.build/release/HeeApp). Standard-library Python 3 only.
"""

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Prerequisite, REPO_ROOT, app_binary, ok, fail, missing_tool, script_main  # noqa: E402

MAN_PAGE = os.path.join(REPO_ROOT, "data", "hee-keyboard.1")
DESKTOP = os.path.join(REPO_ROOT, "data", "hee-keyboard.desktop")
METAINFO = os.path.join(REPO_ROOT, ".build", "data", "hee-keyboard.metainfo.xml")
README = os.path.join(REPO_ROOT, "README.md")
DOCS = os.path.join(REPO_ROOT, "docs")
# The sources of the installed program (HeeBench and HeeIcon are not installed).
PROGRAM_SOURCES = ["Sources/HeeApp", "Sources/HeeRender", "Sources/KeyboardCore", "Sources/AppModel"]
# Upper-case string literals in those sources that are not environment variables.
NOT_ENVIRONMENT = {"SDL2",
                   # X11 atom names (system mode's X11 layer, the clipboard reader).
                   "WM_DELETE_WINDOW", "WM_NAME", "WM_STATE", "UTF8_STRING", "CLIPBOARD", "INCR", "HEE_CLIPBOARD",
                   # The layer key back to the letters (the built-in en layout's key id).
                   "ABC",
                   # Field kinds on the line above the keys (SystemModeText.kindNames).
                   "PIN", "URL",
                   # A keysym name prefix (XF86 function keys) in Wayland system mode's keymap.
                   "XF86"}
MAN_SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"]
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def expect(condition, message):
    if not condition:
        fail(message)


def run(command, env=None, check_tool=True):
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=120)
    return proc.returncode, proc.stdout.decode("utf-8", errors="replace"), proc.stderr.decode("utf-8", errors="replace")


def help_flags(app):
    status, out, err = run([app, "--help"])
    expect(status == 0 and out.startswith("usage:"), f"{app} --help: status {status}, stderr {err!r}")
    flags = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", out))
    expect("--help" in flags and "--version" in flags, f"--help names no --help/--version flag:\n{out}")
    return flags


def render_man(device="utf8", extra_env=None):
    """The man page as plain text, without hyphenation, on long lines (for reading flags)."""
    status, out, err = run(["groff", "-man", "-k", f"-T{device}", "-rHY=0", "-rLL=250n", "-P-cbou", MAN_PAGE])
    expect(status == 0, f"groff failed: {err}")
    return out


def man_sections(text):
    """{section title: its text} from a rendered man page."""
    sections, current = {}, None
    for line in text.splitlines():
        if line and not line[0].isspace() and line.upper() == line and not line.startswith("HEE-KEYBOARD("):
            current = line.strip()
            sections[current] = []
        elif current:
            sections[current].append(line)
    return {k: "\n".join(v) for k, v in sections.items()}


def man_option_flags(options_text):
    """Flags that start a tag line (an entry) under OPTIONS, each once."""
    flags = []
    for line in options_text.splitlines():
        m = re.match(r"^ {7}(-\S.*)$", line)
        if m:
            flags += re.findall(r"(?<![\w-])--?[a-z][a-z0-9-]*", m.group(1).split("  ")[0])
    twice = sorted({f for f in flags if flags.count(f) > 1})
    expect(not twice, f"the man page's OPTIONS have more than one entry for {twice}")
    return set(flags)


def documents():
    """README.md and the documents in docs/: (path relative to the repository, text)."""
    paths = [README] + sorted(os.path.join(DOCS, name) for name in os.listdir(DOCS) if name.endswith(".md"))
    texts = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            texts.append((os.path.relpath(path, REPO_ROOT), f.read()))
    return texts


def readme_flag_table():
    """The flags of the flag table in the "Command line" section, and the document holding it
    (README.md or one in docs/: exactly one has the section)."""
    holders = []
    for path, text in documents():
        for m in re.finditer(r"^#{1,4} Command line\n(.*?)(?=^#|\Z)", text, re.S | re.M):
            holders.append((path, m.group(1)))
    expect(holders, "no document (README.md, docs/*.md) has a 'Command line' section")
    expect(len(holders) == 1, f"more than one 'Command line' section: {', '.join(path for path, _ in holders)}")
    path, section = holders[0]
    flags = set()
    rows = 0
    for line in section.splitlines():
        if line.startswith("| `-"):
            rows += 1
            first_cell = line.split("|")[1]
            flags.update(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", first_cell))
    expect(rows, f"{path}'s Command line section has no flag table")
    return flags, path


def check_flags(app):
    flags = help_flags(app)
    sections = man_sections(render_man())
    expect("OPTIONS" in sections, f"the man page has no OPTIONS section (sections: {sorted(sections)})")
    in_man = man_option_flags(sections["OPTIONS"])
    in_man.discard("-h")
    undocumented = sorted(flags - in_man)
    expect(not undocumented, f"flags that --help prints but the man page's OPTIONS do not describe: {undocumented} "
                             f"(add an entry to data/hee-keyboard.1)")
    stale = sorted(in_man - flags)
    expect(not stale, f"the man page describes flags --help does not print: {stale}")
    ok(f"the man page's OPTIONS describe exactly the {len(flags)} flags --help prints")

    in_readme, holder = readme_flag_table()
    undocumented = sorted(flags - in_readme)
    expect(not undocumented, f"flags that --help prints but {holder}'s flag table (Command line) lacks: {undocumented}")
    stale = sorted(in_readme - flags)
    expect(not stale, f"{holder}'s flag table lists flags --help does not print: {stale}")
    ok(f"{holder}'s flag table has a row for each of the {len(flags)} flags, and no other")
    return sections


def program_environment_variables():
    names = {}
    pattern = re.compile(r'"([A-Z][A-Z0-9_]{2,})"')
    for directory in PROGRAM_SOURCES:
        for root, _, files in os.walk(os.path.join(REPO_ROOT, directory)):
            for name in files:
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        if line.lstrip().startswith("//"):
                            continue
                        for variable in pattern.findall(line):
                            if variable not in NOT_ENVIRONMENT:
                                names.setdefault(variable, f"{os.path.relpath(path, REPO_ROOT)}:{number}")
    return names


def check_environment(sections):
    expect("ENVIRONMENT" in sections, "the man page has no ENVIRONMENT section")
    documented = set(re.findall(r"\b[A-Z][A-Z0-9_]{2,}\b", sections["ENVIRONMENT"]))
    variables = program_environment_variables()
    expect(len(variables) >= 5, f"found only {sorted(variables)} in the sources: is the scan broken?")
    missing = sorted(f"{v} ({where})" for v, where in variables.items() if v not in documented)
    expect(not missing, f"environment variables the program reads but the man page's ENVIRONMENT lacks: {missing} "
                        f"(document them, or add a literal that is no variable to NOT_ENVIRONMENT in {__file__})")
    ok(f"the man page's ENVIRONMENT documents all {len(variables)} variables the sources read: "
       f"{', '.join(sorted(variables))}")


def check_man_page(sections):
    missing = [s for s in MAN_SECTIONS if s not in sections]
    expect(not missing, f"the man page lacks sections {missing}")
    ok(f"the man page has the sections {', '.join(MAN_SECTIONS)}")
    for status_code in ("0", "64", "65", "66", "69", "73", "74"):
        expect(re.search(rf"^ {{7}}{status_code}\b", sections["EXIT STATUS"], re.M),
               f"EXIT STATUS does not list {status_code}")
    ok("EXIT STATUS lists 0, 64, 65, 66, 69, 73 and 74")

    if shutil.which("man") is None:
        missing_tool("man not found (apt-get install man-db): man -l not checked")
    else:
        for locale in ("C.UTF-8", "C"):
            env = dict(os.environ, LC_ALL=locale, MANWIDTH="80", MANPAGER="cat", PAGER="cat")
            env.pop("MANOPT", None)
            status, out, err = run(["man", "--warnings=w", "-l", MAN_PAGE], env=env)
            expect(status == 0 and "HEE-KEYBOARD(1)" in out, f"man -l ({locale}) failed ({status}): {err}")
            expect(err == "", f"man --warnings=w -l in {locale} warns:\n{err}")
            ok(f"man --warnings=w -l (groff -ww) in LC_ALL={locale}: {len(out.splitlines())} lines, no warning")
    for device in ("utf8", "latin1", "ascii"):
        status, out, err = run(["groff", "-man", "-k", "-ww", "-z", f"-T{device}", MAN_PAGE])
        expect(status == 0 and err == "", f"groff -ww -T{device} warns ({status}):\n{err}")
    ok("groff -ww -man -k for the utf8, latin1 and ascii devices: no warning")
    if shutil.which("lexgrog"):
        status, out, err = run(["lexgrog", MAN_PAGE])
        expect(status == 0 and "hee-keyboard - " in out, f"lexgrog cannot read the NAME line: {out}{err}")
        ok(f"lexgrog (whatis): {out.split(':', 1)[1].strip()}")


def check_metainfo(app):
    expect(os.path.isfile(METAINFO), f"{METAINFO} missing: run `make metainfo`")
    status, out, err = run([app, "--version"])
    version = out.split()[-1]
    tree = ET.parse(METAINFO)
    root = tree.getroot()
    expect(root.tag == "component" and root.get("type") == "desktop-application",
           f"metainfo root is <{root.tag} type={root.get('type')!r}>")
    component_id = root.findtext("id")
    expect(component_id and re.fullmatch(r"[a-z][a-z0-9]*(\.[a-z0-9_]+){2,}", component_id),
           f"component id {component_id!r} is not a lower-case reverse-DNS name")

    def by_lang(tag):
        return {e.get(XML_LANG, "en"): (e.text or "").strip() for e in root.findall(tag)}

    names, summaries = by_lang("name"), by_lang("summary")
    expect(names.get("en") == "Hee Keyboard" and names.get("ja") == "へぇキーボード", f"names {names}")
    expect(summaries.get("en") and summaries.get("ja"), f"summaries need en and ja: {summaries}")
    description = root.find("description")
    expect(description is not None and len(description.findall("p")) >= 2, "no description paragraphs")
    expect(root.find("content_rating[@type='oars-1.1']") is not None, "no OARS 1.1 content rating")
    releases = [r.get("version") for r in root.findall("releases/release")]
    expect(releases and releases[0] == version, f"newest release {releases[:1]}, --version says {version}")
    launchable = root.findtext("launchable[@type='desktop-id']")
    expect(launchable and os.path.isfile(os.path.join(REPO_ROOT, "data", launchable)),
           f"launchable desktop-id {launchable!r} is not a file in data/")
    binaries = [b.text for b in root.findall("provides/binary")]
    expect(binaries == ["hee-keyboard"], f"provides binary {binaries}, expected the installed hee-keyboard")
    image = root.findtext("screenshots/screenshot[@type='default']/image")
    expect(image and image.startswith("https://") and image.endswith("/docs/screenshot.png"),
           f"default screenshot {image!r} is not the repository's docs/screenshot.png")
    with open(os.path.join(REPO_ROOT, "docs", "screenshot.png"), "rb") as f:
        expect(f.read(8) == b"\x89PNG\r\n\x1a\n", "docs/screenshot.png is not a PNG")
    ok(f"metainfo {component_id}: names en/ja, summaries en/ja, description, screenshot docs/screenshot.png, "
       f"OARS rating, release {version} (= --version), launchable {launchable}, binary hee-keyboard")

    if shutil.which("appstreamcli") is None:
        missing_tool("appstreamcli not found (apt-get install appstream): metainfo not validated")
        return
    status, out, err = run(["appstreamcli", "validate", "--pedantic", "--no-net", "--explain", METAINFO])
    messages = [l for l in (out + err).splitlines() if l.strip() and not l.startswith("✔")]
    expect(status == 0 and not messages, f"appstreamcli validate --pedantic --no-net ({status}):\n{out}{err}")
    ok(f"appstreamcli validate --pedantic --no-net: {out.strip()}")


def check_desktop_entry():
    if shutil.which("desktop-file-validate") is None:
        missing_tool("desktop-file-validate not found (apt-get install desktop-file-utils)")
        return
    status, out, err = run(["desktop-file-validate", DESKTOP])
    expect(status == 0 and not (out + err).strip(), f"desktop-file-validate data/hee-keyboard.desktop:\n{out}{err}")
    with open(DESKTOP, encoding="utf-8") as f:
        actions = re.findall(r"^\[Desktop Action ([^\]]+)\]", f.read(), re.M)
    ok(f"desktop-file-validate data/hee-keyboard.desktop: no message"
       + (f" (actions: {', '.join(actions)})" if actions else ""))


def check_architecture():
    """The documented Architecture tree (docs/architecture.md) names every source folder; no
    folder over 20 files, no Swift file over 330 lines (issue 18)."""
    status, out, err = run([sys.executable, os.path.join(REPO_ROOT, "scripts", "architecture.py"), "--check"],
                           check_tool=False)
    expect(status == 0, f"scripts/architecture.py --check:\n{out}{err}")
    ok("the documented Architecture tree names every source folder; folders and files within the house's sizes")


def check_emoji_data():
    """emoji/emoji.tsv is what scripts/emoji-data.py writes from Debian's unicode-data and
    unicode-cldr-core (issue 34); skipped with a line when the packages are absent."""
    if not (os.path.exists("/usr/share/unicode/emoji/emoji-test.txt")
            and os.path.exists("/usr/share/unicode/cldr/common/annotations/ja.xml")):
        ok("emoji data not compared: unicode-data or unicode-cldr-core not installed")
        return
    status, out, err = run([sys.executable, os.path.join(REPO_ROOT, "scripts", "emoji-data.py"), "-o", "-"],
                           check_tool=False)
    expect(status == 0, f"scripts/emoji-data.py failed: {err.strip()}")
    with open(os.path.join(REPO_ROOT, "emoji", "emoji.tsv"), encoding="utf-8") as f:
        committed = f.read()
    expect(out == committed, "emoji/emoji.tsv differs from scripts/emoji-data.py's output: run make emoji-data")
    ok(f"emoji/emoji.tsv is scripts/emoji-data.py's output ({committed.count(chr(10))} lines)")


def main():
    def body(_):
        if shutil.which("groff") is None:
            raise Prerequisite("groff not found (apt-get install groff-base)")
        app = app_binary()
        sections = check_flags(app)
        check_environment(sections)
        check_man_page(sections)
        check_metainfo(app)
        check_desktop_entry()
        check_architecture()
        check_emoji_data()
        print("# documentation and metadata tests passed", flush=True)
    return script_main(body, prefix="hee-docs-")


if __name__ == "__main__":
    sys.exit(main())
