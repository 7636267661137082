#!/usr/bin/env python3
"""Keeps README's "Architecture" section true to the tree (issue 18).

    scripts/architecture.py            prints the source tree: every folder with its file count
    scripts/architecture.py --check    checks README's tree against Sources/ and the house rules
    scripts/architecture.py --dot      prints the module graph (Package.swift) for Graphviz

The check fails (exit 1, one line per problem) when a folder under Sources/ that holds
source files is missing from README's tree or the tree names one that does not exist, when a
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


def readme_tree():
    """The folders README's Architecture tree names, as paths like `Sources/HeeApp/X11/`."""
    text = open(os.path.join(REPO, "README.md"), encoding="utf-8").read()
    section = re.search(r"^## Architecture\n(.*?)^## ", text, re.S | re.M)
    if not section:
        return None
    block = re.search(r"^```text\n(.*?)^```", section.group(1), re.S | re.M)
    if not block:
        return None
    named, stack = set(), []
    for line in block.group(1).splitlines():
        match = re.match(r"^( *)([A-Za-z0-9_.+-]+/)", line)
        if not match:
            continue
        depth = len(match.group(1)) // 2
        stack = stack[:depth] + [match.group(2)]
        named.add("".join(stack))
    return named


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
    named = readme_tree()
    if named is None:
        problems.append("README.md has no '## Architecture' section with a ```text tree")
        named = set()
    for folder in sorted(folders):
        if folder not in named:
            problems.append(f"{folder} holds source files but README's Architecture tree does not name it")
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
            problems.append(f"README's Architecture tree names {folder}, which does not exist")
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
