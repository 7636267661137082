#!/usr/bin/env python3
"""The user guide's pictures of issue 20's keys (docs/user-guide.md), taken from the real window under Xvfb: the
letters, numbers and symbols layers, the alternates bubble (e held, é under the finger) and
the space bar's trackpad (labels faded), each cropped to the keyboard.

usage: scripts/layer_screenshots.py OUTDIR   (needs xvfb, xdotool, imagemagick; `make screenshot`)

The app runs with --trace; every step waits for the trace line that shows it happened (the
layer shown, the bubble open, the trackpad on) and then for two identical shots in a row (the
frame drawn), never a fixed time. Writes OUTDIR/layer-letters.png, layer-numbers.png,
layer-symbols.png, layer-bubble.png and layer-trackpad.png.
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "e2e"))
from e2e_support import is_event, kill_group, private_session_bus, start_xvfb  # noqa: E402
from layer_typist import Typist  # noqa: E402
from run_e2e import Trace, find_window, launch  # noqa: E402

APP = os.environ.get("HEE_APP", os.path.join(HERE, "..", ".build", "release", "HeeApp"))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/layer_screenshots.py OUTDIR")
    out = os.path.abspath(sys.argv[1])
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="hee-layer-shots-")
    xvfb, display = start_xvfb(size="480x800x24")
    app = None
    try:
        env = dict(os.environ, DISPLAY=display, XDG_CONFIG_HOME=os.path.join(work, "config"), SDL_AUDIODRIVER="dummy")
        for name in ("WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "GDK_SCALE"):
            env.pop(name, None)
        app = launch(os.path.abspath(APP), work, env)
        trace = Trace(app.stdout)
        shown = trace.wait_for(is_event("keyboard", status="show"), "the keyboard", 20, consume=False)
        window = find_window(app, env)

        def xdo(*args):
            return subprocess.run(["xdotool", *args], env=env, check=True, capture_output=True, text=True).stdout

        typist = Typist(xdo, window, trace)
        frame = shown["frame"]
        crop = f"{frame['w']}x{frame['h']}+{frame['x']}+{frame['y']}"

        def shot(name):
            """Takes shots of the window until two in a row agree, keeps the keyboard's part."""
            path = os.path.join(out, f"layer-{name}.png")
            previous = None
            for _ in range(50):
                raw = os.path.join(work, "shot.png")
                subprocess.run(["import", "-window", str(window), raw], env=env, check=True)
                subprocess.run(["convert", raw, "-crop", crop, "+repage", "-strip", path], check=True)
                with open(path, "rb") as f:
                    current = f.read()
                if current == previous:
                    print(f"wrote {path}")
                    return
                previous = current
            sys.exit(f"layer_screenshots.py: the window did not settle for {name}")

        # Some text first, so the field above is not empty (the shots show the keyboard only).
        for gesture in (("tap", "shift"), ("tap", "h"), ("tap", "i")):
            getattr(typist, gesture[0])(*gesture[1:])
        shot("letters")
        typist.tap("123")
        shot("numbers")
        typist.tap("#+=")
        shot("symbols")
        typist.tap("ABC")
        since = trace.mark()
        typist.move(*typist.center("e"), "mousedown", "1")
        bubble = trace.wait_for(is_event("alternates", key="e"), "e's bubble", since=since)
        acute = next(c for c in bubble["choices"] if c["text"] == "é")
        typist.move(acute["x"] + acute["w"] / 2, acute["y"] + acute["h"] / 2)
        shot("bubble")
        xdo("mouseup", "1")
        trace.wait_for(is_event("touch", key="e", down=False), "e released", since=since)
        since = trace.mark()
        x, y = typist.center("space")
        typist.move(x, y, "mousedown", "1")
        trace.wait_for(is_event("trackpad", active=True), "the trackpad", since=since)
        typist.move(x - 25, y)
        trace.wait_for(is_event("text", caret=1), "the caret moved", since=since)
        shot("trackpad")
        xdo("mouseup", "1")
    finally:
        kill_group(app)
        kill_group(xvfb)
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    with private_session_bus():
        main()
