"""The kana pad for the end-to-end tests and the screenshot script (issue 22): which key and
which flick type a kana, read from the shipped layout file layouts/ja-kana.json (the tables
are data there), and an xdotool drag that flicks a key.

A flick is a real drag: mousedown at the key's centre, mousemove one key width (or height)
towards the direction, mouseup there; a tap is mousedown and mouseup at the centre."""

import json
import os
import subprocess

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIRECTIONS = ["center", "left", "up", "right", "down"]


def load_layout(path=None):
    """The ja-kana layout file as JSON."""
    with open(path or os.path.join(REPO_ROOT, "layouts", "ja-kana.json"), encoding="utf-8") as f:
        return json.load(f)


def kana_plan(layout=None):
    """{kana: [(key id, direction), …]}: the gestures that type each kana the pad has, from the
    layout's flick tables; a ゛ / ゜ / small form is its base kana then 「゛゜小」 flicked left /
    right / up."""
    layout = layout or load_layout()
    plan = {}
    kana_layer = {item if isinstance(item, str) else item.get("key")
                  for row in layout["layers"][0]["rows"] for item in row}
    for key, entry in layout["keys"].items():
        if "flick" not in entry or key not in kana_layer:
            continue
        for direction, kana in zip(DIRECTIONS, entry["flick"]):
            if kana is not None and kana not in plan:
                plan[kana] = [(key, direction)]
    for forms in layout["keys"]["゛゜小"]["forms"]:
        base = forms[0]
        for direction, form in zip(["up", "left", "right"], (forms + [None] * 4)[1:4]):
            if form is not None and base in plan and form not in plan:
                plan[form] = plan[base] + [("゛゜小", direction)]
    return plan


def gestures(text, plan=None):
    """The (key id, direction) steps that type `text` on the kana layer; a tap on the key just
    tapped gets `→` before it, so it types a new kana instead of stepping the last one (toggle
    input)."""
    plan = plan or kana_plan()
    steps = []
    for kana in text:
        if kana not in plan:
            raise ValueError(f"the kana pad has no way to type {kana!r}")
        first = plan[kana][0]
        if steps and first[1] == "center" and steps[-1] == first:
            steps.append(("→", "center"))
        steps += plan[kana]
    return steps


def press_args(window, rect):
    """xdotool arguments that put the pointer on the centre of `rect` ({x, y, w, h}, window
    coordinates) and press the button."""
    cx, cy = int(rect["x"] + rect["w"] / 2), int(rect["y"] + rect["h"] / 2)
    return ["mousemove", "--window", str(window), str(cx), str(cy), "mousedown", "1"]


def release_args(window, rect, direction):
    """xdotool arguments that, the key at `rect` pressed at its centre, move one key width or
    height towards `direction` (in two steps) and release there."""
    cx, cy = int(rect["x"] + rect["w"] / 2), int(rect["y"] + rect["h"] / 2)
    dx, dy = {"center": (0, 0), "left": (-rect["w"], 0), "right": (rect["w"], 0),
              "up": (0, -rect["h"]), "down": (0, rect["h"])}[direction]
    args = []
    if direction != "center":
        args += ["mousemove", "--window", str(window), str(int(cx + dx / 2)), str(int(cy + dy / 2)),
                 "mousemove", "--window", str(window), str(int(cx + dx)), str(int(cy + dy))]
    return args + ["mouseup", "1"]


def drag_args(window, rect, direction):
    """xdotool arguments that flick the key at `rect` in `direction` in one go: down at its
    centre, a move of one key width or height, up there."""
    return press_args(window, rect) + release_args(window, rect, direction)


def flick(env, window, rect, direction):
    """Flicks (or taps) the key at `rect` with xdotool."""
    subprocess.run(["xdotool"] + drag_args(window, rect, direction), env=env, check=True)


def find_window(env):
    """The app's visible window (class hee-keyboard), waiting for it to be mapped."""
    return subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--class", "hee-keyboard"], env=env, check=True,
                          capture_output=True, text=True, timeout=30).stdout.split()[0]
