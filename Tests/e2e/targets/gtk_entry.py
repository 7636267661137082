#!/usr/bin/python3
"""A GTK 3 window with one text entry, for system mode's end-to-end test: type into it, then
end it with SIGTERM (or close it); it writes the entry's text to OUTPUT (UTF-8) and exits 0.

usage: gtk_entry.py [--live | --state] OUTPUT [TITLE [TEXT]]     (Debian's python3-gi and gir1.2-gtk-3.0)

--live: OUTPUT is also rewritten (atomically) after every change of the text, so a test can
wait for the text without ending the window (GTK 3 on Wayland can hang in gdk_flush when
gtk_main_quit comes from the SIGTERM source while its Wayland source has a read prepared).

--state: OUTPUT holds the entry's state as one JSON object, {"text": …, "caret": …, "bound": …}
(the caret and the selection's other end, in characters), rewritten (atomically) whenever the
text, the caret or the selection changes, and at the end: a test follows each key's effect on
the caret and the selection too (the desktop row's arrows, Ctrl+A).

TEXT is already in the entry, the caret after it, like a chat window's draft; focusing the
window does not select it (gtk-entry-select-on-focus off).
"""
import json
import os
import signal
import sys

import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

args = sys.argv[1:]
mode = args[0] if args and args[0] in ("--live", "--state") else None
if mode:
    args = args[1:]
output = args[0]
title = args[1] if len(args) > 1 else "GTK entry"
Gtk.Settings.get_default().set_property("gtk-entry-select-on-focus", False)
window = Gtk.Window(title=title)
window.set_default_size(420, 60)
entry = Gtk.Entry()
entry.set_text(args[2] if len(args) > 2 else "")
window.add(entry)


def replace_output(text):
    with open(output + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(output + ".tmp", output)


def write_live(*_):
    replace_output(entry.get_text())


def write_state(*_):
    state = {"text": entry.get_text(), "caret": entry.get_position(), "bound": entry.get_property("selection-bound")}
    replace_output(json.dumps(state, ensure_ascii=False))


if mode == "--live":
    entry.connect("changed", write_live)
elif mode == "--state":
    for signal_name in ("changed", "notify::cursor-position", "notify::selection-bound"):
        entry.connect(signal_name, write_state)


def finish(*_):
    if mode == "--state":
        write_state()
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write(entry.get_text())
    Gtk.main_quit()
    return GLib.SOURCE_REMOVE


window.connect("delete-event", finish)
GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, finish)
window.show_all()
entry.grab_focus()
entry.set_position(-1)
if mode == "--state":
    write_state()
Gtk.main()
