#!/usr/bin/python3
"""A pointer for paced gestures: motions and button 1 through XTEST from one process
(Debian's python3-xlib), so a test can space its keys 20 ms apart without starting an
xdotool for each (5–10 ms apiece on the test machine).

Reads commands from stdin, one a line:
    move WINDOW X Y     the pointer to (X, Y) in WINDOW's coordinates (pixels)
    down | up           button 1
    sleep MS            milliseconds
    sync                answers `ok` once the server has taken everything before
"""
import sys
import time

from Xlib import X, display
from Xlib.ext import xtest

d = display.Display()
root = d.screen().root
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "move":
        window = d.create_resource_object("window", int(words[1]))
        origin = window.translate_coords(root, 0, 0)
        xtest.fake_input(d, X.MotionNotify, x=-origin.x + int(words[2]), y=-origin.y + int(words[3]))
    elif command in ("down", "up"):
        xtest.fake_input(d, X.ButtonPress if command == "down" else X.ButtonRelease, 1)
    elif command == "sleep":
        d.flush()
        time.sleep(float(words[1]) / 1000)
    elif command == "sync":
        d.sync()
        print("ok", flush=True)
    else:
        print(f"xtest_pointer.py: unknown command {command!r}", file=sys.stderr, flush=True)
        sys.exit(2)
    d.flush()
