"""Typing on the docked Wayland keyboard as a person does, through the seat's virtual pointer
(wayland_support.VirtualPointer): taps, a long press that opens a key's alternates and a
release on one of them, the layer keys to reach a character, shift for a capital, and the
desktop row's keys (ctrl, the arrows, tab). Standard library only.

`WaylandTypist.type(text)` finds each character on the layout file (`layouts/en.json`: its
layers' keys and every key's alternates), shows the layer that has it with the layer keys the
layer shown offers, and types it: a key of its own, shift and the letter, or a hold on the key
whose alternates hold it. Every gesture waits for the trace lines that prove the keyboard
handled it (the key's release; the bubble opening) and then `pace` seconds, so the pace is the
time between one key's release and the next press: 0.15 s a person's, 0.02 s fast; `burst`
clicks keys 0 ms apart.
"""
import json
import os
import time

from e2e_support import REPO_ROOT, fail, is_event

LAYOUT_FILE = os.path.join(REPO_ROOT, "layouts", "en.json")
PERSON = 0.15        # seconds between keys at a person's pace
FAST = 0.02          # and fast


def load_layout(path=LAYOUT_FILE):
    """(layers, alternates): each layer's name → the key ids it shows; each key id → its
    alternates."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    layers = {}
    for layer in data["layers"]:
        ids = []
        for row in layer["rows"]:
            for item in row:
                key = item if isinstance(item, str) else item.get("key")
                if key:
                    ids.append(key)
        layers[layer["name"]] = ids
    alternates = {key: spec["alternates"] for key, spec in data["keys"].items() if "alternates" in spec}
    return layers, alternates


def every_alternate():
    """Every alternate of the layout, once each, in the layout file's order."""
    _, alternates = load_layout()
    seen = []
    for choices in alternates.values():
        seen += [c for c in choices if c not in seen]
    return "".join(seen)


def every_symbol():
    """Every character of the numbers and symbols layers, once each."""
    layers, _ = load_layout()
    found = []
    for name in ("numbers", "symbols"):
        found += [k for k in layers[name] if len(k) == 1 and k not in found]
    return "".join(found)


class WaylandTypist:
    """Gestures on the keyboard docked at the bottom of an output `width` × `height`, whose
    trace is `trace` (run_e2e.Trace), with `pointer` on the seat."""

    LAYER_KEYS = {"123": "numbers", "#+=": "symbols", "ABC": "letters"}

    def __init__(self, pointer, trace, width, height, pace=PERSON, timeout=15.0):
        self.pointer, self.trace, self.width, self.height = pointer, trace, width, height
        self.pace, self.timeout = pace, timeout
        self.layers, self.alternates = load_layout()
        self.holds = 0

    @property
    def layout(self):
        self.trace.drain()
        layouts = [e for e in self.trace.events if e["event"] == "layout"]
        if not layouts:
            fail("no layout line in the keyboard's trace")
        return layouts[-1]

    def point(self, rect):
        """A rectangle's centre (window coordinates) on the output."""
        return rect["x"] + rect["w"] / 2, self.height - self.layout["window"]["h"] + rect["y"] + rect["h"] / 2

    def _move(self, x, y):
        self.pointer.move_to(x, y, self.width, self.height)

    def tap(self, key):
        """Taps `key` of the layer shown; waits for its release in the trace, then the pace."""
        rect = self.layout["keys"].get(key)
        if rect is None:
            fail(f"the layer shown has no key {key!r} (keys: {sorted(self.layout['keys'])})")
        since = self.trace.mark()
        self._move(*self.point(rect))
        self.pointer.button(True)
        self.pointer.button(False)
        self.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released", self.timeout, since=since)
        time.sleep(self.pace)

    def hold(self, key, choice):
        """Holds `key` until its alternates open, slides onto `choice` and releases there."""
        since = self.trace.mark()
        self._move(*self.point(self.layout["keys"][key]))
        self.pointer.button(True)
        bubble = self.trace.wait_for(is_event("alternates", key=key), f"{key}'s alternates", self.timeout, since=since)
        cell = next((c for c in bubble["choices"] if c["text"] == choice), None)
        if cell is None:
            self.pointer.button(False)
            fail(f"{key}'s alternates {[c['text'] for c in bubble['choices']]} have no {choice!r}")
        self._move(*self.point(cell))
        self.pointer.button(False)
        self.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released on {choice}", self.timeout, since=since)
        self.holds += 1
        time.sleep(self.pace)

    def layer_shown(self):
        """The name of the layer shown (the one whose keys the layout has)."""
        keys = set(self.layout["keys"])
        for name, ids in self.layers.items():
            if set(ids) <= keys:
                return name
        fail(f"no layer of {LAYOUT_FILE} matches the keys shown: {sorted(keys)}")

    def show(self, layer):
        """Taps layer keys until `layer` is shown."""
        for _ in range(3):
            if self.layer_shown() == layer:
                return
            offered = [k for k in self.layout["keys"] if k in self.LAYER_KEYS]
            direct = [k for k in offered if self.LAYER_KEYS[k] == layer]
            self.tap(direct[0] if direct else offered[0])
        if self.layer_shown() != layer:
            fail(f"could not show the {layer} layer")

    def where(self, character, prefer_hold=False):
        """(layer, key, how) for `character`: how is "tap", "shift" or "hold" (a key of its
        own first, on the layer shown first; with `prefer_hold`, a bubble first)."""
        shown = self.layer_shown()
        order = [shown] + [name for name in self.layers if name != shown]
        key = {" ": "space", "\n": "return"}.get(character, character)
        taps = [(layer, key, "tap") for layer in order if key in self.layers[layer]]
        shifts = [(layer, character.lower(), "shift") for layer in order
                  if character.isupper() and character.lower() in self.layers[layer]]
        holds = [(layer, k, "hold") for layer in order for k in self.layers[layer] if character in self.alternates.get(k, ())]
        found = (holds + taps + shifts) if prefer_hold else (taps + shifts + holds)
        if not found:
            fail(f"{character!r} is on no key of {LAYOUT_FILE}")
        return found[0]

    def type(self, text, prefer_hold=False):
        """Types `text`, character by character, from whatever layer is shown (each alternate
        from its bubble with `prefer_hold`)."""
        for character in text:
            layer, key, how = self.where(character, prefer_hold)
            if character not in (" ", "\n"):
                self.show(layer)
            if how == "shift":
                self.tap("shift")
                self.tap(key)
            elif how == "hold":
                self.hold(key, character)
            else:
                self.tap(key)

    def burst(self, keys):
        """Clicks `keys` (ids on the layer shown) one right after the other, without waiting
        for the keyboard between them (0 ms: a person's rollover, two thumbs), then waits for
        every release in the trace."""
        since = self.trace.mark()
        for key in keys:
            self._move(*self.point(self.layout["keys"][key]))
            self.pointer.button(True)
            self.pointer.button(False)
        for key in keys:
            since = self.trace.events.index(self.trace.wait_for(is_event("touch", key=key, down=False), f"{key} released",
                                                                self.timeout, since=since)) + 1

    def keys(self, *names):
        """Taps keys by id (`backspace`, `left`, `ctrl`, …); the letters layer first for a
        letter."""
        for name in names:
            if name not in self.layout["keys"] and name in self.layers["letters"]:
                self.show("letters")
            self.tap(name)
