#!/usr/bin/python3
"""A GTK 3 window of text fields for the context test (issue 30): one entry per input purpose
(free form, email, number, phone, url, password, pin; the password and PIN entries hide their
text, as such fields do), a multi-line text view and a button, each holding a text of its own
that the test looks for in the keyboard's trace (where it must never appear).

usage: gtk_fields.py GEOMETRY [TITLE]     (Debian's python3-gi and gir1.2-gtk-3.0)

GEOMETRY is rewritten (atomically) whenever the window is laid out or the focus moves: one JSON
object, {"window": XID, "fields": {NAME: [x, y, w, h], ...}, "texts": {NAME: TEXT, ...},
"focus": NAME or null}, rectangles in the window's own coordinates (what `xdotool mousemove
--window XID` takes), `focus` the widget that has the focus in the window (GTK's own view).
SIGTERM ends it.
"""
import json
import os
import signal
import sys

import gi
gi.require_version("Gtk", "3.0")
gi.require_version("GdkX11", "3.0")
from gi.repository import GdkX11, GLib, Gtk  # noqa: E402,F401

geometry_path = sys.argv[1]
title = sys.argv[2] if len(sys.argv) > 2 else "GTK fields"
ENTRIES = [
    ("free", Gtk.InputPurpose.FREE_FORM, True), ("email", Gtk.InputPurpose.EMAIL, True),
    ("number", Gtk.InputPurpose.NUMBER, True), ("phone", Gtk.InputPurpose.PHONE, True),
    ("url", Gtk.InputPurpose.URL, True), ("password", Gtk.InputPurpose.PASSWORD, False),
    ("pin", Gtk.InputPurpose.PIN, False),
]

window = Gtk.Window(title=title)
window.set_default_size(360, 420)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
window.add(box)
widgets, texts = {}, {}
for name, purpose, visible in ENTRIES:
    entry = Gtk.Entry()
    entry.set_input_purpose(purpose)
    entry.set_visibility(visible)
    texts[name] = f"gtk-{name}-text-7391"
    entry.set_text(texts[name])
    box.add(entry)
    widgets[name] = entry
view = Gtk.TextView()
texts["multiline"] = "gtk-multiline-text-7391"
view.get_buffer().set_text(texts["multiline"])
view.set_size_request(-1, 60)
box.add(view)
widgets["multiline"] = view
button = Gtk.Button(label="A button")
box.add(button)
widgets["button"] = button


def write_geometry(*_):
    fields = {}
    for name, widget in widgets.items():
        x, y = widget.translate_coordinates(window, 0, 0)
        fields[name] = [x, y, widget.get_allocated_width(), widget.get_allocated_height()]
    focused = window.get_focus()
    focus = next((name for name, widget in widgets.items() if widget is focused), None)
    state = {"window": window.get_window().get_xid(), "fields": fields, "texts": texts, "focus": focus}
    with open(geometry_path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(state, f)
    os.replace(geometry_path + ".tmp", geometry_path)


window.connect("size-allocate", lambda *_: GLib.idle_add(write_geometry))
window.connect("set-focus", lambda *_: GLib.idle_add(write_geometry))
window.connect("destroy", Gtk.main_quit)
GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, lambda *_: Gtk.main_quit() or GLib.SOURCE_REMOVE)
window.show_all()
button.grab_focus()
Gtk.main()
