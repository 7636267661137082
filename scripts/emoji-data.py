#!/usr/bin/env python3
"""Writes emoji/emoji.tsv, the emoji keyboard's data, from Debian's Unicode packages.

Reads unicode-data's emoji-test.txt (Unicode 15.0: the order, the groups, the skin-tone
variants; only fully-qualified sequences) and unicode-cldr-core's annotations (en, ja; the
sequences' names from annotationsDerived). Writes one line per emoji the grid shows:

    emoji <TAB> category <TAB> tones <TAB> en name <TAB> en keywords <TAB> ja name <TAB> ja keywords

category: iOS's category key (smileys, animals, food, activity, travel, objects, symbols, flags);
tones: the five skin-tone variants, light to dark, separated by spaces, or empty; keywords are
separated by "|". A variant with a skin tone is not a line of its own: it is its base's tones.
Usage: scripts/emoji-data.py [--unicode DIR] [--cldr DIR] [-o FILE]  (FILE "-" is stdout)
Exit status 1 with one line on stderr when an input is missing or malformed.
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET

# emoji-test.txt's groups as iOS's categories (People & Body joins Smileys as iOS's
# "Smileys & People"; the Component group, the bare skin tones and hair, is not shown).
CATEGORIES = {
    "Smileys & Emotion": "smileys", "People & Body": "smileys",
    "Animals & Nature": "animals", "Food & Drink": "food", "Activities": "activity",
    "Travel & Places": "travel", "Objects": "objects", "Symbols": "symbols", "Flags": "flags",
}
TONES = ["light skin tone", "medium-light skin tone", "medium skin tone",
         "medium-dark skin tone", "dark skin tone"]
HEADER = ("# HeeKeyboard's emoji data, written by scripts/emoji-data.py (make emoji-data) from\n"
          "# Unicode's emoji-test.txt {version} and CLDR's annotations (Debian's unicode-data and\n"
          "# unicode-cldr-core). Licence: emoji/UNICODE-LICENSE.txt. Columns: emoji, category,\n"
          "# skin tones (light to dark), en name, en keywords, ja name, ja keywords.\n")


def fail(message):
    sys.stderr.write(f"emoji-data: {message}\n")
    sys.exit(1)


def read_test_file(path):
    """(version, [(emoji, category, name)]) in the file's order, fully-qualified only."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror} (install unicode-data)")
    version, group, entries = "", None, []
    for number, line in enumerate(lines, 1):
        if line.startswith("# Version:"):
            version = line.split(":", 1)[1].strip()
        elif line.startswith("# group:"):
            group = line.split(":", 1)[1].strip()
        elif line and not line.startswith("#"):
            try:
                points, rest = line.split(";", 1)
                status, comment = rest.split("#", 1)
                emoji = "".join(chr(int(p, 16)) for p in points.split())
                name = comment.strip().split(" ", 2)[2]
            except (ValueError, IndexError):
                fail(f"{path}:{number}: not a 'code points; status # emoji version name' line")
            if status.strip() == "fully-qualified" and group in CATEGORIES:
                entries.append((emoji, CATEGORIES[group], name))
    if not entries:
        fail(f"{path}: no fully-qualified emoji")
    return version, entries


def read_annotations(paths):
    """{emoji without U+FE0F: (name, [keywords])} from CLDR annotation files."""
    names, keywords = {}, {}
    for path in paths:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as error:
            fail(f"cannot read {path}: {error} (install unicode-cldr-core)")
        for node in root.iter("annotation"):
            key = node.get("cp", "").replace("\ufe0f", "")
            text = (node.text or "").strip()
            if node.get("type") == "tts":
                names.setdefault(key, text)
            else:
                keywords.setdefault(key, [w.strip() for w in text.split("|") if w.strip()])
    return {k: (names.get(k, ""), keywords.get(k, [])) for k in set(names) | set(keywords)}


def split_tone(name):
    """(base name, tone index) for a name with exactly one skin tone, else (name, None)."""
    if ": " not in name:
        return name, None
    base, qualifiers = name.split(": ", 1)
    parts = qualifiers.split(", ")
    tones = [p for p in parts if p in TONES]
    if not tones:
        return name, None
    if len(tones) != 1 or len(set(parts) & set(TONES)) != 1:
        return name, -1  # two different tones (people holding hands...): not in the bubble
    rest = [p for p in parts if p not in TONES]
    return (base + (": " + ", ".join(rest) if rest else "")), TONES.index(tones[0])


def clean(text):
    return text.replace("\t", " ").replace("\n", " ")


def build(unicode_dir, cldr_dir):
    version, entries = read_test_file(os.path.join(unicode_dir, "emoji", "emoji-test.txt"))
    common = os.path.join(cldr_dir, "common")
    langs = {lang: read_annotations([os.path.join(common, "annotations", f"{lang}.xml"),
                                     os.path.join(common, "annotationsDerived", f"{lang}.xml")])
             for lang in ("en", "ja")}
    rows, by_name = [], {}
    for emoji, category, name in entries:
        base, tone = split_tone(name)
        if tone is None:
            by_name[name] = len(rows)
            rows.append([emoji, category, [None] * 5, name])
        elif tone >= 0 and base in by_name:
            rows[by_name[base]][2][tone] = emoji
    out = [HEADER.format(version=version)]
    for emoji, category, tones, name in rows:
        tone_text = " ".join(tones) if all(tones) else ""
        columns = [emoji, category, tone_text]
        for lang in ("en", "ja"):
            lname, words = langs[lang].get(emoji.replace("\ufe0f", ""), ("", []))
            if lang == "en" and not lname:
                lname = name
            columns += [clean(lname), clean("|".join(words))]
        out.append("\t".join(columns) + "\n")
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unicode", default="/usr/share/unicode")
    parser.add_argument("--cldr", default="/usr/share/unicode/cldr")
    parser.add_argument("-o", "--output", default="emoji/emoji.tsv")
    args = parser.parse_args()
    text = build(args.unicode, args.cldr)
    if args.output == "-":
        sys.stdout.write(text)
        return
    temporary = args.output + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(temporary, args.output)


if __name__ == "__main__":
    main()
