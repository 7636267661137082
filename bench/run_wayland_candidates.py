#!/usr/bin/env python3
"""The ways HeeKeyboard could present its frames on Wayland, measured the same way
(issue 14; not part of `make bench`): exec → first frame on screen and RSS / PSS one second
later, in sway's headless backend (bench/wlprobe.py), 10 start-ups and 3 memory runs each.

  opengles2         SDL's OpenGL ES 2 renderer (Mesa's llvmpipe without a GPU) draws everything
  streaming texture SDL's software renderer draws into a surface that SDL uploads to an
                    OpenGL ES texture each frame (SDL's own framebuffer emulation)
  wl_shm + EGL      our wl_shm presenter, the window made as SDL 2.26 makes it (with EGL)
  wl_shm, bare      our wl_shm presenter, the window made without OpenGL (what the app does)

The first two need a build without Wayland support, which drew through SDL's window renderer
(e.g. commit 5293f3b): `run_wayland_candidates.py BEFORE_BINARY [AFTER_BINARY]`.
"""
import os
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wlprobe  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "e2e"))
from e2e_support import private_session_bus  # noqa: E402  (the apps' own D-Bus session bus)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(sway, binary, env, runs=10):
    frames = sorted(wlprobe.startup(sway, [binary, "--mute"], env) for _ in range(runs))
    memory = [wlprobe.memory_after_start(sway, [binary, "--mute"], env) for _ in range(3)]
    return (frames[0], statistics.median(frames), frames[-1],
            statistics.median(m[0] for m in memory), statistics.median(m[1] for m in memory))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    before = os.path.abspath(sys.argv[1])
    after = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.join(ROOT, ".build/release/HeeApp")
    stub = os.path.join(os.path.dirname(after), "libHeeVulkanStub.so")
    workdir = tempfile.mkdtemp(prefix="hee-wayland-candidates-")
    rows = []
    try:
        with wlprobe.Sway(workdir, {"HEADLESS-1": "resolution 1280x1024 scale 1"}) as sway:
            env = sway.client_env(dict(os.environ, SDL_AUDIODRIVER="dummy"),
                                  XDG_CONFIG_HOME=os.path.join(workdir, "config"))
            rows.append(("opengles2", measure(sway, before, dict(env, SDL_RENDER_DRIVER="opengles2"))))
            rows.append(("streaming texture", measure(sway, before, dict(env, SDL_FRAMEBUFFER_ACCELERATION="opengles2"))))
            hidden = stub + ".hidden"
            os.rename(stub, hidden)
            try:
                rows.append(("wl_shm + EGL", measure(sway, after, env)))
            finally:
                os.rename(hidden, stub)
            rows.append(("wl_shm, bare", measure(sway, after, env)))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print("%-18s %26s %8s %8s" % ("candidate", "first frame ms min/med/max", "RSS MB", "PSS MB"))
    for name, (low, median, high, rss, pss) in rows:
        print("%-18s %10.0f /%5.0f /%5.0f %8.1f %8.1f" % (name, low, median, high, rss, pss))


if __name__ == "__main__":
    # Every app and peer started here gets this private session bus: none autolaunches one
    # that outlives the run (e2e_support.SessionBus).
    with private_session_bus():
        main()
