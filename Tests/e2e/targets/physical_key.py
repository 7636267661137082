#!/usr/bin/python3
"""Presses or releases a key on the X server's own keyboard device ("Xvfb keyboard"), not on
XTEST's virtual one: what a user holding Shift or Ctrl on their keyboard looks like to the
server. System mode's end-to-end test holds modifiers with it while it clicks.

It uses XTEST's device-event form (an XInput 1 DeviceKeyPress for that device), which
python-xlib does not wrap, so the request is spelled out here.

usage: physical_key.py down|up KEYSYM [KEYSYM...]      (Debian's python3-xlib)
"""
import sys

from Xlib import XK, display
from Xlib.ext import xinput
from Xlib.protocol import rq


class FakeDeviceInput(rq.Request):
    """XTEST FakeInput with a device id (the request's last byte)."""
    _request = rq.Struct(rq.Card8("opcode"), rq.Opcode(2), rq.RequestLength(),
                         rq.Card8("event_type"), rq.Card8("detail"), rq.Pad(2), rq.Card32("time"),
                         rq.Card32("root"), rq.Pad(8), rq.Int16("x"), rq.Int16("y"), rq.Pad(7),
                         rq.Card8("deviceid"))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("down", "up"):
        sys.exit(__doc__)
    d = display.Display()
    devices = d.xinput_query_device(xinput.AllDevices).devices
    keyboards = [dev for dev in devices
                 if dev.use == xinput.SlaveKeyboard and "XTEST" not in str(dev.name)]
    if not keyboards:
        sys.exit("physical_key.py: no keyboard device other than XTEST's")
    device = keyboards[0].deviceid
    # XInput 1's DeviceKeyPress / DeviceKeyRelease are the extension's first events + 1 / + 2.
    base = d.query_extension("XInputExtension").first_event
    event_type = base + (1 if sys.argv[1] == "down" else 2)
    opcode = d.display.get_extension_major("XTEST")
    for name in sys.argv[2:]:
        keycode = d.keysym_to_keycode(XK.string_to_keysym(name))
        if not keycode:
            sys.exit(f"physical_key.py: no key for {name}")
        FakeDeviceInput(display=d.display, opcode=opcode, event_type=event_type, detail=keycode, time=0,
                        root=0, x=0, y=0, deviceid=device | 0x80)
    d.sync()


if __name__ == "__main__":
    main()
