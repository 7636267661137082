#!/usr/bin/env python3
"""`make bench-peers`: HeeKeyboard beside Debian's on-screen keyboards, measured the same way
under the same Xvfb: exec → window mapped, exec → fully painted (bench/xprobe.py), PSS one
second after it is painted, and idle CPU over 10 s (the program's whole process tree, so
helper processes count). Then typing into another window (bench/typing_latency.py): the "a"
key's click → KeyPress at the target in X server time, for HeeKeyboard --system, xvkbd and
matchbox-keyboard — measured from the click's release for all three, since all three type a
letter when the key is released (xvkbd and matchbox-keyboard send every key on release).
Prints the figures and HeeKeyboard / peer ratios, and adds them to bench/results.json under
"peers" and "typing_peers".

Then on Wayland (issue 23; bench/wayland_typing.py): HeeKeyboard --system, wvkbd 0.12 and
squeekboard 1.21 each on a sway headless output of its own, typing into foot: press → text
from each one's sending moment (wvkbd and squeekboard send a letter on the press, HeeKeyboard
on the release), exec → first buffer and PSS; under "wayland_peers"."""
import json, os, shutil, statistics, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import xprobe  # noqa: E402
import typing_latency  # noqa: E402
import wayland_typing  # noqa: E402
import wayland_system_latency  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "e2e"))
from e2e_support import private_session_bus  # noqa: E402  (the apps' own D-Bus session bus)

APP = os.environ.get("HEE_APP", os.path.join(ROOT, ".build/release/HeeApp"))
RUNS = int(os.environ.get("HEE_PEER_RUNS", "5"))
PRESSES = int(os.environ.get("HEE_BENCH_PRESSES", "1000"))
IDLE_SECONDS = float(os.environ.get("HEE_PEER_IDLE", "10"))

PROGRAMS = [
    ("HeeKeyboard", [APP, "--mute"]),
    ("xvkbd", ["xvkbd"]),
    ("matchbox-keyboard", ["matchbox-keyboard"]),
    ("onboard", ["dbus-run-session", "--", "onboard"]),
]


def tree(pid):
    """`pid` and its descendants."""
    pids, frontier = [pid], [pid]
    while frontier:
        p = frontier.pop()
        try:
            children = open("/proc/%d/task/%d/children" % (p, p)).read().split()
        except OSError:
            children = []
        for c in map(int, children):
            pids.append(c)
            frontier.append(c)
    return pids


def tree_pss_mb(pid):
    total = 0
    for p in tree(pid):
        try:
            total += xprobe.pss_kb(p)
        except OSError:
            pass
    return total / 1024


def tree_ticks(pid):
    total = 0
    for p in tree(pid):
        try:
            total += xprobe.cpu_ticks(p)
        except OSError:
            pass
    return total


def measure(disp, cmd, env):
    mapped, painted = [], []
    for _ in range(RUNS):
        m, p = xprobe.startup(disp, cmd, env)
        mapped.append(m)
        painted.append(p)
    proc, _, _, _ = xprobe.launch_and_watch(disp, cmd, env)
    time.sleep(1)
    pss = tree_pss_mb(proc.pid)
    # HeeKeyboard's caret blinks for 10 s after start and its audio device sleeps after 3 s:
    # measure all programs from the same moment, 11 s after they are painted.
    time.sleep(10)
    hz = os.sysconf("SC_CLK_TCK")
    a = tree_ticks(proc.pid)
    time.sleep(IDLE_SECONDS)
    idle = (tree_ticks(proc.pid) - a) / hz / IDLE_SECONDS * 100
    xprobe._stop(proc)
    return {"mapped_ms": statistics.median(mapped), "painted_ms": statistics.median(painted),
            "pss_mb": pss, "idle_cpu_percent": idle, "runs": RUNS}


def main():
    results = {}
    with xprobe.Xvfb() as disp:
        env = dict(os.environ, DISPLAY=disp.name, SDL_AUDIODRIVER="dummy")
        env["XDG_CONFIG_HOME"] = os.path.join("/tmp", "hee-peers-config")
        for name, cmd in PROGRAMS:
            if shutil.which(cmd[0]) is None and not os.path.exists(cmd[0]):
                print("%s: not installed, skipped" % name)
                continue
            try:
                results[name] = measure(disp, cmd, env)
            except RuntimeError as error:
                print("%s: %s" % (name, error))
        # Typing into another window: the "a" key, click release → KeyPress (server ms).
        typing = {}
        try:
            typing.update(typing_latency.heekeyboard(APP, disp, PRESSES, env))
        except RuntimeError as error:
            print("HeeKeyboard --system: %s" % error)
        for name in typing_latency.PEERS:
            if shutil.which(typing_latency.PEERS[name]["cmd"][0]) is None:
                print("%s: not installed, typing skipped" % name)
                continue
            try:
                typing.update(typing_latency.peer(name, disp, PRESSES, env))
            except RuntimeError as error:
                print("%s typing: %s" % (name, error))
    print("%-18s %12s %12s %9s %9s" % ("program", "mapped ms", "painted ms", "PSS MB", "idle CPU"))
    for name, r in results.items():
        print("%-18s %12.1f %12.1f %9.1f %8.2f%%" % (name, r["mapped_ms"], r["painted_ms"], r["pss_mb"], r["idle_cpu_percent"]))
    hee = results.get("HeeKeyboard")
    if hee:
        print("\nHeeKeyboard / peer (below 1: HeeKeyboard is faster / smaller)")
        for name, r in results.items():
            if name == "HeeKeyboard":
                continue
            ratio = lambda k: hee[k] / r[k] if r[k] else float("inf")
            print("  vs %-16s painted %.2f  mapped %.2f  PSS %.2f  idle CPU %s" % (
                name, ratio("painted_ms"), ratio("mapped_ms"), ratio("pss_mb"),
                "both 0" if hee["idle_cpu_percent"] == r["idle_cpu_percent"] == 0 else "%.2f" % ratio("idle_cpu_percent")))
    print("\nTyping into another window (X server ms; click release → KeyPress for the letter)")
    print("%-72s %7s %7s %7s %7s %6s" % ("figure", "min", "median", "p99", "max", "n"))
    for name, st in typing.items():
        print("%-72s %7.2f %7.2f %7.2f %7.2f %6d" % (name, st["min"], st["median"], st["p99"], st["max"], st["n"]))
    path = os.path.join(ROOT, "bench/results.json")
    data = json.load(open(path)) if os.path.exists(path) else {}
    data["peers"] = results
    data["typing_peers"] = typing
    with open(path, "w") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    wayland_peers()


def wayland_peers():
    """HeeKeyboard, wvkbd and squeekboard typing into foot on sway headless, taking turns."""
    keyboards = {}
    for name, keyboard in wayland_typing.keyboards(APP).items():
        if wayland_typing.installed(keyboard):
            keyboards[name] = keyboard
        else:
            print("%s: not installed, Wayland figures skipped" % name)
    results = wayland_typing.measure(keyboards, PRESSES, int(os.environ.get("HEE_WL_STARTS", "10")))
    print("\nTyping into foot on sway headless (ms; each from its sending moment; load average range):")
    for name, result in results.items():
        wayland_system_latency.print_figures(name, result)
        print("  %-12s load average %s–%s" % (name, result["load_average"]["min"], result["load_average"]["max"]))
    wayland_system_latency.save("wayland_peers", results)


if __name__ == "__main__":
    # Every app and peer started here gets this private session bus: none autolaunches one
    # that outlives the run (e2e_support.SessionBus).
    with private_session_bus():
        main()
