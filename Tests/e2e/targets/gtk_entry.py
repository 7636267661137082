#!/usr/bin/python3
"""A GTK 3 window with one text entry, for system mode's end-to-end test: type into it, then
end it with SIGTERM (or close it); it writes the entry's text to OUTPUT (UTF-8) and exits 0.

usage: gtk_entry.py [--live] OUTPUT [TITLE [TEXT]]     (Debian's python3-gi and gir1.2-gtk-3.0)

TEXT is already in the entry, the caret after it, like a chat window's draft; focusing the
window does not select it (gtk-entry-select-on-focus off).

With --live, OUTPUT holds the entry's state as one JSON object, {"text": …, "caret": …,
"bound": …} (the caret and the selection's other end, in characters), rewritten (through a
rename, so a reader never sees half of it) whenever the text, the caret or the selection
changes: a test can follow each key's effect instead of reading the text once at the end.
"""
import json
import os
import signal
import sys

import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

arguments = sys.argv[1:]
live = "--live" in arguments
if live:
    arguments.remove("--live")
output = arguments[0]
title = arguments[1] if len(arguments) > 1 else "GTK entry"
Gtk.Settings.get_default().set_property("gtk-entry-select-on-focus", False)
window = Gtk.Window(title=title)
window.set_default_size(420, 60)
entry = Gtk.Entry()
entry.set_text(arguments[2] if len(arguments) > 2 else "")


def write_state(*_):
    state = {"text": entry.get_text(), "caret": entry.get_position(), "bound": entry.get_property("selection-bound")}
    with open(output + ".tmp", "w", encoding="utf-8") as f:
        json.dump(state, f, ensure_ascii=False)
    os.replace(output + ".tmp", output)


def finish(*_):
    if live:
        write_state()
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write(entry.get_text())
    Gtk.main_quit()
    return GLib.SOURCE_REMOVE


window.add(entry)
window.connect("delete-event", finish)
GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, finish)
window.show_all()
entry.grab_focus()
entry.set_position(-1)
if live:
    for signal_name in ("changed", "notify::cursor-position", "notify::selection-bound"):
        entry.connect(signal_name, write_state)
    write_state()
Gtk.main()
