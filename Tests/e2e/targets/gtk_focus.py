#!/usr/bin/python3
"""A GTK 3 window of text entries and a button whose focus the test moves (auto-show, issue 30):
one entry per input purpose (free form, email, number, phone, url, password, pin; the password
and PIN entries hide their text), each holding a text of its own the test looks for in the
keyboard's trace (where it must never appear), and a button that takes no text.

usage: gtk_focus.py [TITLE]     (Debian's python3-gi and gir1.2-gtk-3.0; any GDK backend)

Reads commands on stdin, one a line: `focus NAME` gives the widget NAME (an entry's name, or
`button`) the focus in the window, as a click or Tab would, and answers `focused NAME` on
stdout once GTK has done it. The window starts with the button focused. SIGTERM or the end of
stdin ends it.
"""
import signal
import sys

import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

ENTRIES = [
    ("free", Gtk.InputPurpose.FREE_FORM, True), ("email", Gtk.InputPurpose.EMAIL, True),
    ("number", Gtk.InputPurpose.NUMBER, True), ("phone", Gtk.InputPurpose.PHONE, True),
    ("url", Gtk.InputPurpose.URL, True), ("password", Gtk.InputPurpose.PASSWORD, False),
    ("pin", Gtk.InputPurpose.PIN, False),
]

window = Gtk.Window(title=sys.argv[1] if len(sys.argv) > 1 else "GTK focus")
window.set_default_size(360, 320)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
window.add(box)
widgets = {}
for name, purpose, visible in ENTRIES:
    entry = Gtk.Entry()
    entry.set_input_purpose(purpose)
    entry.set_visibility(visible)
    entry.set_text(f"gtk-{name}-text-7391")
    box.add(entry)
    widgets[name] = entry
button = Gtk.Button(label="A button")
box.add(button)
widgets["button"] = button


def command(source, condition):
    line = sys.stdin.readline()
    if not line:
        Gtk.main_quit()
        return GLib.SOURCE_REMOVE
    words = line.split()
    if len(words) == 2 and words[0] == "focus" and words[1] in widgets:
        widgets[words[1]].grab_focus()
        GLib.idle_add(lambda: print(f"focused {words[1]}", flush=True) or GLib.SOURCE_REMOVE)
    else:
        print(f"unknown command {line.strip()!r}", flush=True)
    return GLib.SOURCE_CONTINUE


GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, command)
window.connect("destroy", Gtk.main_quit)
GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, lambda *_: Gtk.main_quit() or GLib.SOURCE_REMOVE)
window.show_all()
button.grab_focus()
print("ready", flush=True)
Gtk.main()
