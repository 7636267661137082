#!/usr/bin/env python3
"""Subset Debian's M+ FONTS (package fonts-mplus) for HeeKeyboard.

Writes into OUTPUT_DIR (default: <repo>/fonts):
  MPLUS1-Regular.otf     Latin, punctuation, symbols, kana, JIS X 0208 kanji
  MPLUS1-Bold.otf        the same character set, bold
  MPLUS1Code-Medium.otf  Basic Latin only (monospaced digits for the counter)
  MPLUS-LICENSE.txt      OFL-1.1 text and copyright from the Debian package

Hinting is dropped, vertical-layout tables are dropped, the default
fontTools layout features are kept, and all name records (including the
licence fields) are kept.  The output is deterministic: head.modified is
carried over from the source font instead of being set to "now".

Usage: subset_fonts.py [OUTPUT_DIR]
"""

import os
import re
import subprocess
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

SRC_DIR = "/usr/share/fonts/opentype/mplus"
COPYRIGHT_FILE = "/usr/share/doc/fonts-mplus/copyright"
DEB_PACKAGE = "fonts-mplus"


def jis_x0208_kanji():
    """All characters of JIS X 0208 levels 1 and 2 (rows 16-84), found by
    decoding every valid EUC-JP two-byte code 0xB0A1..0xF4FE."""
    chars = set()
    for hi in range(0xB0, 0xF5):
        for lo in range(0xA1, 0xFF):
            try:
                s = bytes((hi, lo)).decode("euc_jp")
            except UnicodeDecodeError:
                continue
            if len(s) == 1:
                chars.add(ord(s))
    return chars


def ranges(*pairs):
    out = set()
    for a, b in pairs:
        out.update(range(a, b + 1))
    return out


def text_set():
    return ranges(
        (0x0020, 0x007E),   # Basic Latin (printable)
        (0x00A0, 0x00FF),   # Latin-1 Supplement
        (0x2000, 0x27FF),   # General Punctuation .. Dingbats (arrows, symbols)
        (0x3000, 0x303F),   # CJK Symbols and Punctuation
        (0x3040, 0x309F),   # Hiragana
        (0x30A0, 0x30FF),   # Katakana
        (0x31F0, 0x31FF),   # Katakana Phonetic Extensions
        (0xFF00, 0xFFEF),   # Halfwidth and Fullwidth Forms
    ) | jis_x0208_kanji()


JOBS = [
    # (source file, output file, wanted code points)
    ("Mplus1-Regular.otf", "MPLUS1-Regular.otf", "text"),
    ("Mplus1-Bold.otf", "MPLUS1-Bold.otf", "text"),
    ("Mplus1Code-Medium.otf", "MPLUS1Code-Medium.otf", "latin"),
]


def subset_one(src, dst, wanted):
    font = TTFont(src, recalcTimestamp=False)
    cmap = font.getBestCmap()
    present = sorted(cp for cp in wanted if cp in cmap)

    opts = subset.Options()
    opts.hinting = False                 # drop CFF hints
    opts.name_IDs = ["*"]                # keep licence/URL name records
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.drop_tables += ["vhea", "vmtx", "VORG"]
    subsetter = subset.Subsetter(options=opts)
    subsetter.populate(unicodes=present)
    subsetter.subset(font)
    font.save(dst)
    font.close()
    return present


def debian_license_text(copyright_path, name):
    """The body of the 'License: NAME' paragraph of a machine-readable
    Debian copyright file, with the Debian indentation undone."""
    lines = open(copyright_path, encoding="utf-8").read().split("\n")
    body, inside = [], False
    for line in lines:
        if inside:
            if line.startswith(" "):
                text = line[1:]
                body.append("" if text == "." else text)
                continue
            if body:
                break
            inside = False      # a "License:" field without text; go on
        if line == f"License: {name}":
            inside = True
    if not body:
        sys.exit(f"no 'License: {name}' paragraph in {copyright_path}")
    return "\n".join(body).rstrip() + "\n"


def debian_copyright_line(copyright_path):
    for line in open(copyright_path, encoding="utf-8"):
        if line.startswith("Copyright:"):
            return line.split(":", 1)[1].strip()
    sys.exit(f"no Copyright: field in {copyright_path}")


def debian_version(pkg):
    return subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                          check=True, capture_output=True, text=True).stdout.strip()


def font_copyright_notice():
    font = TTFont(os.path.join(SRC_DIR, JOBS[0][0]), lazy=True)
    notice = font["name"].getDebugName(0)
    font.close()
    return notice


def check_no_reserved_font_name():
    """OFL 1.1 forbids Modified Versions to use a Reserved Font Name.  The
    Debian copyright file declares none today; stop if one ever appears,
    because the subsets would then need to be renamed."""
    text = open(COPYRIGHT_FILE, encoding="utf-8").read()
    if re.search(r"[Rr]eserved [Ff]ont [Nn]ames?\s*[\"'\u201c]", text):
        sys.exit(f"{COPYRIGHT_FILE} declares a Reserved Font Name: the subsets "
                 "must be renamed (name table) before they may be distributed")


def write_license(out_dir, outputs):
    version = debian_version(DEB_PACKAGE)
    header = (
        "Fonts derived from M+ FONTS\n"
        "===========================\n"
        "\n"
        f"The files {', '.join(outputs)}\n"
        f"are subsets of M+ FONTS as packaged by Debian ({DEB_PACKAGE} {version},\n"
        f"files {', '.join(src for src, _, _ in JOBS)} in {SRC_DIR}).\n"
        "They were subset by scripts/subset_fonts.py of HeeKeyboard with fontTools\n"
        "(glyphs reduced to the characters the app needs, hinting and vertical\n"
        "metrics removed). They are Modified Versions under the licence below and\n"
        "are distributed under the same licence.\n"
        "\n"
        "The copyright file of the Debian package names no Reserved Font Name, so\n"
        "the subsets keep their original family names (M PLUS 1, M PLUS 1 Code).\n"
        "\n"
        "Copyright notice embedded in the fonts themselves:\n"
        f"  {font_copyright_notice()}\n"
        "\n"
        "Upstream: https://github.com/coz-m/MPLUS_FONTS\n"
        "\n"
        "-----------------------------------------------------------\n"
        "\n"
    )
    body = (
        f"Copyright {debian_copyright_line(COPYRIGHT_FILE)}\n"
        "\n"
        "This Font Software is licensed under the SIL Open Font License, Version 1.1.\n"
        "\n"
        "-----------------------------------------------------------\n"
        "SIL OPEN FONT LICENSE Version 1.1 - 26 February 2007\n"
        "-----------------------------------------------------------\n"
        "\n"
        + debian_license_text(COPYRIGHT_FILE, "OFL-1.1")
    )
    path = os.path.join(out_dir, "MPLUS-LICENSE.txt")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(header + body)
    return path


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "fonts")
    os.makedirs(out_dir, exist_ok=True)
    check_no_reserved_font_name()
    sets = {"text": text_set(), "latin": ranges((0x0020, 0x007E))}

    for src_name, dst_name, which in JOBS:
        src = os.path.join(SRC_DIR, src_name)
        dst = os.path.join(out_dir, dst_name)
        wanted = sets[which]
        present = subset_one(src, dst, wanted)
        missing = len(wanted) - len(present)
        print(f"{dst_name}: {os.path.getsize(src):,} -> {os.path.getsize(dst):,} bytes, "
              f"{len(present)} code points kept ({missing} requested but not in M+)")
    path = write_license(out_dir, [d for _, d, _ in JOBS])
    print(f"wrote {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
