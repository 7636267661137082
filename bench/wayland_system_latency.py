#!/usr/bin/env python3
"""HeeKeyboard --system on Wayland (issue 23), part of `make bench`: press → text in foot for a
letter and for へぇ, exec → first buffer and PSS, measured as bench/wayland_typing.py describes
(`make bench-peers` measures wvkbd and squeekboard the same way beside it).

usage: bench/wayland_system_latency.py [PRESSES]      (HEE_APP: the binary; default 1000)
Prints the figures (ms, MB) and adds them to bench/results.json under "wayland_system".
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wayland_typing  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP = os.environ.get("HEE_APP", os.path.join(ROOT, ".build/release/HeeApp"))
PRESSES = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
STARTS = int(os.environ.get("HEE_WL_STARTS", "10"))


def print_figures(name, result):
    for tap in ("letter", "hee"):
        if tap in result:
            s = result[tap]
            print(f"  {name:12} {tap:6} {s['from']:>7} → text  p50 {s['median']:7.3f}  p99 {s['p99']:7.3f}  "
                  f"max {s['max']:7.3f}  (n {s['n']})")
    s = result["first_buffer_ms"]
    print(f"  {name:12} exec → first buffer  p50 {s['median']:.1f}  max {s['max']:.1f} ms (n {s['n']}), "
          f"PSS {result['pss_mb']} MB")


def save(key, value):
    path = os.path.join(ROOT, "bench/results.json")
    data = json.load(open(path)) if os.path.exists(path) else {}
    data[key] = value
    with open(path, "w") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    result = wayland_typing.measure({"HeeKeyboard": wayland_typing.HeeKeyboard(APP)}, PRESSES, STARTS)["HeeKeyboard"]
    load = result["load_average"]
    print(f"HeeKeyboard --system on sway headless (load average {load['min']}–{load['max']}), ms:")
    print_figures("HeeKeyboard", result)
    save("wayland_system", result)


if __name__ == "__main__":
    main()
