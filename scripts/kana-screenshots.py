#!/usr/bin/env python3
"""Takes the kana pad screenshots of docs/kana.md (issue 22) from the real app window under Xvfb.

  docs/kana-pad.png         the 日本語かな pad at rest (--layout ja-kana, labels in Japanese)
  docs/kana-candidates.png  にほんご flicked in: the composition underlined in the field, the
                            candidate bar from Anthy above the へぇ button, 空白 as 次候補 and
                            改行 as 確定
  docs/kana-flick.png       は held and slid left: the flick guide, ひ selected

Usage: scripts/kana-screenshots.py [OUTPUT_DIR]   (default: docs/; needs Xvfb, xdotool,
ImageMagick's import, Anthy). Every step waits for the trace line it causes; a shot is taken
again until two in a row are the same (the frame is on screen)."""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "e2e"))
import e2e_support as e2e  # noqa: E402
import kana_support as kana  # noqa: E402


def shot(env, path):
    """A screenshot of the whole screen into `path`, repeated until two agree."""
    previous = None
    for _ in range(50):
        subprocess.run(["import", "-window", "root", path], env=env, check=True)
        with open(path, "rb") as f:
            data = f.read()
        if data == previous:
            return
        previous = data
    raise SystemExit(f"kana-screenshots: the screen did not settle for {path}")


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "docs"))
    xvfb, display = e2e.start_xvfb(size="480x800x24")
    work = tempfile.mkdtemp(prefix="hee-kana-shots-")
    env = dict(os.environ, DISPLAY=display, XDG_CONFIG_HOME=work, HOME=work)
    env.pop("WAYLAND_DISPLAY", None)
    app = subprocess.Popen([e2e.app_binary(), "--layout", "ja-kana", "--trace", "--mute", "--lang", "ja"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True, cwd=work)
    try:
        trace = e2e.TraceReader(app.stdout, timeout=20)
        keys = trace.wait_for(e2e.is_event("layout"), "layout")["keys"]
        window = kana.find_window(env)
        subprocess.run(["xdotool", "windowmove", "--sync", window, "0", "0"], env=env, check=True)
        trace.wait_for(e2e.is_event("keyboard", status="show"), "keyboard shown")
        shot(env, os.path.join(out, "kana-pad.png"))
        for key, direction in kana.gestures("にほんご"):
            mark = trace.mark()
            kana.flick(env, window, keys[key], direction)
            trace.wait_for(e2e.is_event("touch", key=key, down=False), f"{key} released", since=mark)
        trace.wait_for(lambda e: e.get("event") == "candidates" and any(i["text"] == "日本語" for i in e["items"]),
                       "日本語 among the candidates")
        shot(env, os.path.join(out, "kana-candidates.png"))
        # は held and slid left: ひ selected in the guide.
        ha = keys["は"]
        cx, cy = int(ha["x"] + ha["w"] / 2), int(ha["y"] + ha["h"] / 2)
        mark = trace.mark()
        subprocess.run(["xdotool", "mousemove", "--window", window, str(cx), str(cy), "mousedown", "1",
                        "mousemove", "--window", window, str(int(cx - ha["w"] * 0.6)), str(cy)], env=env, check=True)
        trace.wait_for(e2e.is_event("touch", key="は", down=True), "は held", since=mark)
        shot(env, os.path.join(out, "kana-flick.png"))
        subprocess.run(["xdotool", "mouseup", "1"], env=env, check=True)
        print(f"wrote {out}/kana-pad.png, kana-candidates.png, kana-flick.png")
    finally:
        e2e.kill_group(app)
        e2e.kill_group(xvfb)


if __name__ == "__main__":
    main()
