#!/usr/bin/python3
"""Prints the X server's keyboard state as one JSON object, for the desktop-keys end-to-end
test's check that nothing is left held: {"modifiers": [...], "keys": [...]} — the modifiers
set in the core state (QueryPointer's mask, which the server derives from XKB's effective
state: "Shift", "Lock", "Control", "Mod1" … "Mod5") and the keycodes down (QueryKeymap).

usage: modifier_state.py      (Debian's python3-xlib; DISPLAY names the server)
"""
import json

from Xlib import display

NAMES = ["Shift", "Lock", "Control", "Mod1", "Mod2", "Mod3", "Mod4", "Mod5"]


def main():
    d = display.Display()
    mask = d.screen().root.query_pointer().mask
    keymap = d.query_keymap()
    keys = [8 * i + bit for i, byte in enumerate(keymap) for bit in range(8) if byte & (1 << bit)]
    print(json.dumps({"modifiers": [name for i, name in enumerate(NAMES) if mask & (1 << i)], "keys": keys}))


if __name__ == "__main__":
    main()
