#!/usr/bin/python3
"""A GTK 3 clipboard owner, for the text tests' large pastes: puts the UTF-8 text of FILE on
the CLIPBOARD selection (Gtk.Clipboard.set_text) and serves it until SIGTERM, exit 0. GTK
answers a large text (above about 256 KB) with the ICCCM INCR protocol.

usage: gtk_clipboard.py FILE     (Debian's python3-gi and gir1.2-gtk-3.0)
"""
import signal
import sys

import gi
gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
clipboard.set_text(text, -1)
GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGTERM, Gtk.main_quit)
Gtk.main()
