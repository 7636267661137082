#!/usr/bin/env python3
"""Keeps the documented source tree true to the tree (issues 18, 29).

    scripts/architecture.py            prints the source tree: every folder with its file count
    scripts/architecture.py --check    checks the documented tree against Sources/ and the house rules
    scripts/architecture.py --dot      prints the module graph (Package.swift) for Graphviz

The documented tree is the ```text block that begins with `Sources/` in an "Architecture"
section of README.md or of a document in docs/ (docs/architecture.md since issue 29); exactly
one of them holds it. The check fails (exit 1, one line per problem) when a folder under
Sources/ that holds source files is missing from that tree or the tree names one that does not
exist, when a
folder holds more than MAX_FILES files, or when a Swift source file is longer than MAX_LINES
lines (the house's "about 300"). Standard-library Python 3 only.
"""

import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(REPO, "Sources")
MAX_FILES = 20
MAX_LINES = 330
SOURCE_SUFFIXES = (".swift", ".c", ".h", ".modulemap")


def source_folders():
    """Every folder under Sources/ (relative, with a trailing slash) and its files."""
    folders = {}
    for root, _dirs, files in os.walk(SOURCES):
        sources = sorted(f for f in files if f.endswith(SOURCE_SUFFIXES))
        if sources:
            folders[os.path.relpath(root, REPO) + "/"] = sources
    return folders


def documents():
    """README.md and the documents in docs/, as (path relative to the repository, text)."""
    paths = ["README.md"] + sorted(os.path.join("docs", name) for name in os.listdir(os.path.join(REPO, "docs"))
                                   if name.endswith(".md"))
    return [(path, open(os.path.join(REPO, path), encoding="utf-8").read()) for path in paths]


def tree_blocks():
    """The source trees the documents show: (path, block) for each ```text block that begins
    with `Sources/` in a section titled "Architecture" (any heading level)."""
    found = []
    for path, text in documents():
        for section in re.finditer(r"^(#{1,3}) Architecture\n(.*?)(?=^#{1,3} |\Z)", text, re.S | re.M):
            for block in re.finditer(r"^```text\n(.*?)^```", section.group(2), re.S | re.M):
                if block.group(1).startswith("Sources/"):
                    found.append((path, block.group(1)))
    return found


def readme_tree():
    """The folders the documented tree names, as paths like `Sources/HeeApp/X11/`, and the
    document holding it (`None` when no document, or more than one, holds a tree)."""
    blocks = tree_blocks()
    if len(blocks) != 1:
        return None, [path for path, _ in blocks]
    path, block = blocks[0]
    named, stack = set(), []
    for line in block.splitlines():
        match = re.match(r"^( *)([A-Za-z0-9_.+-]+/)", line)
        if not match:
            continue
        depth = len(match.group(1)) // 2
        stack = stack[:depth] + [match.group(2)]
        named.add("".join(stack))
    return named, path


def module_graph():
    """(target, dependencies) pairs from Package.swift."""
    text = open(os.path.join(REPO, "Package.swift"), encoding="utf-8").read()
    pairs = []
    for match in re.finditer(r'\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"(\w+)"(.*?)\)\s*,\n', text, re.S):
        deps = re.search(r"dependencies:\s*\[([^\]]*)\]", match.group(2))
        pairs.append((match.group(1), re.findall(r'"(\w+)"', deps.group(1)) if deps else []))
    return pairs


def check():
    problems = []
    folders = source_folders()
    named, holder = readme_tree()
    if named is None:
        problems.append("no document (README.md, docs/*.md) has an 'Architecture' section with a ```text tree of Sources/"
                        if not holder else f"more than one document holds a tree of Sources/: {', '.join(holder)}")
        named, holder = set(), "the documented"
    for folder in sorted(folders):
        if folder not in named:
            problems.append(f"{folder} holds source files but {holder}'s Architecture tree does not name it")
        if len(folders[folder]) > MAX_FILES:
            problems.append(f"{folder} holds {len(folders[folder])} files (at most {MAX_FILES}: split it by concern)")
        for name in folders[folder]:
            if name.endswith(".swift"):
                with open(os.path.join(REPO, folder, name), encoding="utf-8") as f:
                    lines = sum(1 for _ in f)
                if lines > MAX_LINES:
                    problems.append(f"{folder}{name} has {lines} lines (at most {MAX_LINES}: one concept per file)")
    for folder in sorted(named):
        if folder.startswith("Sources/") and not os.path.isdir(os.path.join(REPO, folder)):
            problems.append(f"{holder}'s Architecture tree names {folder}, which does not exist")
    for problem in problems:
        print(f"architecture: {problem}", file=sys.stderr)
    return 1 if problems else 0


def main(argv):
    if argv[1:] == ["--check"]:
        return check()
    if argv[1:] == ["--dot"]:
        print("digraph HeeKeyboard {\n  rankdir=BT;")
        for target, deps in module_graph():
            for dep in deps:
                print(f'  "{target}" -> "{dep}";')
        print("}")
        return 0
    if argv[1:]:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 64
    for folder, files in sorted(source_folders().items()):
        print(f"{folder:45} {len(files):3} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
