#!/usr/bin/python3
"""A CLIPBOARD owner that misbehaves, for the text tests (python-xlib: Debian's python3-xlib).

usage: odd_clipboard.py MODE
  silent  answers every request with a SelectionNotify saying the property was written, and
          never writes it
  endless answers with INCR and then sends 250,000-byte chunks of "x" for as long as the requestor
          keeps deleting the property: a transfer that never ends
Prints "owner" once it owns the selection and "request TARGET" for each request it gets; runs
until SIGTERM.
"""
import sys

from Xlib import X, Xatom, display
from Xlib.protocol import event

mode = sys.argv[1]
connection = display.Display()
screen = connection.screen()
window = screen.root.create_window(0, 0, 1, 1, 0, screen.root_depth)
clipboard = connection.intern_atom("CLIPBOARD")
utf8 = connection.intern_atom("UTF8_STRING")
incr = connection.intern_atom("INCR")
targets = connection.intern_atom("TARGETS")
window.set_selection_owner(clipboard, X.CurrentTime)
connection.flush()
print("owner", flush=True)


def answer(request, prop):
    notify = event.SelectionNotify(time=request.time, requestor=request.requestor, selection=request.selection,
                                   target=request.target, property=prop)
    request.requestor.send_event(notify)
    connection.flush()


while True:
    request = connection.next_event()
    if request.type != X.SelectionRequest:
        continue
    print("request", connection.get_atom_name(request.target), flush=True)
    requestor, prop = request.requestor, request.property
    if request.target == targets:
        requestor.change_property(prop, Xatom.ATOM, 32, [utf8, Xatom.STRING])
        answer(request, prop)
    elif mode == "silent":
        answer(request, prop)
    elif mode == "endless":
        requestor.change_attributes(event_mask=X.PropertyChangeMask)
        requestor.change_property(prop, incr, 32, [1 << 30])
        answer(request, prop)
        chunk = b"x" * 250_000  # a ChangeProperty request holds at most 262,140 bytes
        while True:
            change = connection.next_event()
            if change.type == X.PropertyNotify and change.state == X.PropertyDelete and change.atom == prop:
                requestor.change_property(prop, utf8, 8, chunk)
                connection.flush()
