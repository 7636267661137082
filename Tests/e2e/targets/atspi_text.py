#!/usr/bin/python3
"""Prints the text of an application's first editable text (gedit's document, mousepad's)
as one JSON object, {"text": …, "caret": …} (the caret in characters), read through the
accessibility bus (AT-SPI); exits 1 when the application or its text is not found.

usage: atspi_text.py APPLICATION-NAME      (Debian's python3-gi and gir1.2-atspi-2.0)
"""
import json
import sys

import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

EDITABLE_ROLES = (Atspi.Role.TEXT, Atspi.Role.ENTRY, Atspi.Role.PARAGRAPH, Atspi.Role.DOCUMENT_TEXT)


def editable(node, depth=0):
    """The first editable text at or below `node`, depth first."""
    if node is None or depth > 40:
        return None
    try:
        if node.get_role() in EDITABLE_ROLES and node.get_state_set().contains(Atspi.StateType.EDITABLE):
            return node
        children = [node.get_child_at_index(i) for i in range(node.get_child_count())]
    except gi.repository.GLib.Error:
        return None
    for child in children:
        found = editable(child, depth + 1)
        if found:
            return found
    return None


def main():
    name = sys.argv[1]
    desktop = Atspi.get_desktop(0)
    for index in range(desktop.get_child_count()):
        application = desktop.get_child_at_index(index)
        if application is None or application.get_name() != name:
            continue
        text = editable(application)
        if text is not None:
            count = Atspi.Text.get_character_count(text)
            print(json.dumps({"text": Atspi.Text.get_text(text, 0, count), "caret": Atspi.Text.get_caret_offset(text)},
                             ensure_ascii=False))
            return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
