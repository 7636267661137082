#!/usr/bin/env python3
"""HeeKeyboard --system on Wayland (issue 23), measured on sway's headless backend:

  press → text   the time from the click's sending moment to the character read from foot's
                 terminal, by this one process (its monotonic clock): foot runs
                 `stty raw -echo; cat > FIFO` and this script reads the FIFO. A letter ("a") is
                 typed when the key is released, so it is timed from the release command; へぇ
                 is typed when the button goes down, so from the press command. Each command
                 goes through sway's IPC, which answers once sway has handled it.
  first buffer   the process's first Wayland request → the keyboard's first wl_surface.attach
                 on its own connection, both from WAYLAND_DEBUG's timestamps (the debug output
                 slows start-up a little; exec → first request, the loader and SDL's start, is
                 not in it: WAYLAND_DEBUG's clock could not be matched with this script's)
  PSS            /proc/PID/smaps_rollup one second after the first buffer

usage: bench/wayland_system_latency.py [PRESSES]      (HEE_APP: the binary; default 1000)
Prints the figures (ms, MB) and writes them as JSON to stdout's last line.
"""
import json, os, select, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "e2e"))
from wayland_support import KeyboardHolder, Sway, VirtualPointer  # noqa: E402
from run_e2e import Trace, is_event  # noqa: E402
from e2e_support import kill_group  # noqa: E402

APP = os.environ.get("HEE_APP", os.path.join(ROOT, ".build/release/HeeApp"))
PRESSES = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
OUTPUT = {"HEADLESS-1": "resolution 1280x1024 position 0 0 scale 1"}
HEIGHT = 1024


def stats(values):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    return {"p50": round(statistics.median(values), 3), "p99": round(pick(0.99), 3), "max": round(values[-1], 3),
            "n": len(values)}


def first_attach_ms(stderr_path, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        first = None
        with open(stderr_path, errors="replace") as f:
            for line in f:
                if not line.startswith("["):
                    continue
                stamp = float(line[1:line.index("]")])
                first = stamp if first is None else first
                if " -> wl_surface@" in line and ".attach(wl_buffer@" in line:
                    return stamp - first
        time.sleep(0.02)
    return None


def pss_mb(pid):
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return round(int(line.split()[1]) / 1024, 1)
    return None


def main():
    work = tempfile.mkdtemp(prefix="hee-bench-wlsys-")
    os.chmod(work, 0o755)
    fifo = os.path.join(work, "typed.fifo")
    os.mkfifo(fifo, 0o666)
    results = {}
    with Sway(work, OUTPUT) as sway:
        pointer = VirtualPointer(sway.socket)
        holder = KeyboardHolder(sway)
        env = sway.client_env(SDL_AUDIODRIVER="dummy", XDG_CONFIG_HOME=os.path.join(work, "config"), LANG="C.UTF-8")
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        foot = subprocess.Popen(["foot", "--app-id", "bench", "sh", "-c", f"stty raw -echo; exec cat > {fifo}"], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        window = sway.wait_for_window(foot.pid)
        r = window["rect"]
        sway.command(f"seat seat0 cursor set {r['x'] + r['width'] // 2} {r['y'] + r['height'] // 2}")
        sway.command("seat seat0 cursor press button1")
        sway.command("seat seat0 cursor release button1")
        stderr_path = os.path.join(work, "hee-stderr.txt")
        with open(stderr_path, "wb") as err:
            app = subprocess.Popen([APP, "--system", "--trace", "--mute"], env=dict(env, WAYLAND_DEBUG="1"),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, start_new_session=True)
        try:
            trace = Trace(app.stdout)
            layout = trace.wait_for(is_event("layout"), "the layout", 15, consume=False)
            results["first_buffer_ms"] = round(first_attach_ms(stderr_path), 1)
            time.sleep(1.0)  # PSS one second after the first buffer (as bench/run_peers.py)
            results["pss_mb"] = pss_mb(app.pid)

            def place(key):
                k = layout["keys"][key]
                return round(k["x"] + k["w"] / 2), round(HEIGHT - layout["window"]["h"] + k["y"] + k["h"] / 2)

            def read_until(n_bytes, timeout=5.0):
                got, deadline = b"", time.monotonic() + timeout
                while len(got) < n_bytes:
                    ready, _, _ = select.select([reader], [], [], max(deadline - time.monotonic(), 0))
                    if not ready:
                        raise RuntimeError(f"timed out: got {got!r}")
                    got += os.read(reader, 4096)
                return time.monotonic(), got

            for name, key, text, on_release in (("letter", "a", "a", True), ("hee", "hee", "へぇ〜", False)):
                x, y = place(key)
                sway.command(f"seat seat0 cursor set {x} {y}")
                latencies = []
                for _ in range(PRESSES):
                    if on_release:
                        sway.command("seat seat0 cursor press button1")
                        t0 = time.monotonic()
                        sway.command("seat seat0 cursor release button1")
                    else:
                        t0 = time.monotonic()
                        sway.command("seat seat0 cursor press button1")
                    t1, got = read_until(len(text.encode()))
                    if got.decode() != text:
                        raise RuntimeError(f"typed {got!r}, expected {text!r}")
                    latencies.append((t1 - t0) * 1000)
                    if not on_release:
                        sway.command("seat seat0 cursor release button1")
                results[name] = stats(latencies)
        finally:
            kill_group(app)
            kill_group(foot)
            holder.close()
            pointer.close()
            os.close(reader)
    print(f"HeeKeyboard --system on sway headless, {PRESSES} presses each, press → text in foot (ms):")
    for name in ("letter", "hee"):
        s = results[name]
        print(f"  {name:6}  p50 {s['p50']:.3f}  p99 {s['p99']:.3f}  max {s['max']:.3f}")
    print(f"  first Wayland request → first buffer {results['first_buffer_ms']} ms (WAYLAND_DEBUG on), PSS {results['pss_mb']} MB")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
