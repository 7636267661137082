#!/usr/bin/env python3
"""HeeKeyboard's benchmark (`make bench`): prints a table and writes bench/results.json.

Figures (issue 5):
 1. press→photon: a press pushed into SDL's queue from SDL's timer thread (as a click arrives
    while the app sleeps) → the return of SDL_RenderPresent of the first frame showing it;
    under Xvfb and headless (SDL's offscreen driver). In-app timing (--bench-presses).
 2. press→action: the same push → text inserted and Mix_PlayChannel returned.
 3. press→sound: with SDL_AUDIODRIVER=disk, the first non-zero sample after the press,
    relative to the audio stream position at the press (ms); chunk 128 frames.
 4. frame cost: render time for a static frame, a press-animation frame, and a field of
    1,000 and 100,000 characters (HeeBench, software renderer into a memory surface); and
    the text field's editing cost (HeeBench --text, through KeyboardSession): a paste of
    50,000 and of 200,000 characters, their ratio (linear: about 4), 500 edits and moves at
    the end of 200,000 characters, Home + End there. The unit tests check the same operations
    by counting their work (TextWork), never by timing them.
 5. start-up: exec → window mapped, exec → first frame fully painted (X events / window
    content, the same method as `make bench-peers`).
 6. memory: RSS and PSS after start and after 10,000 presses.
 7. idle CPU over 10 s, keyboard shown and hidden (/proc/PID/stat ticks).
 8. Wayland (sway headless, bench/wlprobe.py): exec → first frame on screen, RSS/PSS one
    second later (and the same memory figure on X11 for comparison), idle CPU shown.
 9. press→first sample through PulseAudio and PipeWire (null sinks recorded with parec), steady,
    first after the 3 s suspend (pointer resting, and arriving), kept open; idle CPU of app and
    server with the device suspended and kept open (bench/sound_latency.py for the method);
    and the same when the press is a real touch through weston, steady, first after the 3 s
    suspend and after 12 s, with the idle CPU after (bench/touch_sound_latency.py).
10. system mode (issue 9): press→KeyPress at another application, in X server time (RECORD),
    for a letter (from the click's release: letters type on release) and for へぇ (from the
    press to the last character of 「へぇ〜」); bench/typing_latency.py.
11. layers and alternates (issue 20), under Xvfb and headless: a press on the layer key (123,
    then ABC in its place) → the other layer on screen (press→photon) and laid out
    (press→action); e held → its alternates bubble on screen and laid out, timed from the
    moment the 0.5 s hold delay is reached (--bench-gesture layer / bubble). Target: p99 ≤ 4 ms
    after the event, like any key.
12. the kana pad (issue 22, --layout ja-kana, KanaBenchDriver): a flick (down, a move one key
    away, up, pushed like the presses of 1) → the frame showing the composition, and → the
    frame showing Anthy's candidates for it; 次候補 → the frame showing the next candidate;
    Anthy's conversion time (readings of 1-12 kana and of 13-15); Anthy's first-use cost
    (library, dictionary, context) in fresh processes. Sentences of 2-15 kana, each ended by
    次候補 and 確定.
Every figure is min / median / p99 / max over its samples (repeated runs or presses).
"""
import json, os, platform, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP = os.environ.get("HEE_APP", os.path.join(ROOT, ".build/release/HeeApp"))
BENCH = os.path.join(ROOT, ".build/release/HeeBench")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import xprobe  # noqa: E402  (our X11 measurement helpers)
import sound_latency  # noqa: E402  (press→first sample through PulseAudio and PipeWire)
import wlprobe  # noqa: E402  (our Wayland measurement helpers)
import typing_latency  # noqa: E402  (system mode: press→KeyPress at the target)
import touch_sound_latency  # noqa: E402  (a real touch through weston → first sample)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "e2e"))
from e2e_support import private_session_bus  # noqa: E402  (the apps' own D-Bus session bus)

PRESSES = int(os.environ.get("HEE_BENCH_PRESSES", "1000"))
QUICK = os.environ.get("HEE_BENCH_QUICK") == "1"


def stats(values):
    v = sorted(values)
    if not v:
        return None
    p99 = v[min(len(v) - 1, int(round((len(v) - 1) * 0.99)))]
    return {"min": v[0], "median": statistics.median(v), "p99": p99, "max": v[-1], "n": len(v)}


def run_app_bench(env, presses, interval_ms, extra=(), event="bench"):
    cmd = [APP, "--bench-presses", str(presses), "--bench-interval", str(interval_ms), *extra]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600)
    for line in out.stdout.splitlines():
        if '"event":"%s"' % event in line:
            return json.loads(line)
    raise RuntimeError("no bench line from %s: %s" % (cmd, out.stderr[-500:]))


def kana_figures(env):
    """Figure 11: the kana pad's latencies and Anthy's costs."""
    env = dict(env, HOME=tempfile.mkdtemp(prefix="hee-bench-home-"))  # Anthy's lock file and its own
    flicks = 200 if QUICK else PRESSES
    b = run_app_bench(env, flicks, 130, ["--mute", "--layout", "ja-kana"], event="bench-kana")
    figures = {
        "kana: flick release→composition on screen ms": stats(b["flick_to_composition_ms"]),
        "kana: flick release→candidates on screen (Anthy included) ms": stats(b["flick_to_candidates_ms"]),
        "kana: 次候補→candidates on screen ms": stats(b["next_candidate_ms"]),
        "kana: Anthy conversion, readings of 1-12 kana ms":
            stats([ms for ms, n in zip(b["conversion_ms"], b["reading_lengths"]) if n <= 12]),
        "kana: Anthy conversion, readings of 13-15 kana ms":
            stats([ms for ms, n in zip(b["conversion_ms"], b["reading_lengths"]) if n > 12]),
    }
    fresh = [run_app_bench(env, 2, 130, ["--mute", "--layout", "ja-kana"], event="bench-kana")
             for _ in range(3 if QUICK else 5)]
    figures["kana: Anthy first use: library, dictionary, context ms"] = stats([f["anthy_load_ms"] for f in fresh])
    figures["kana: Anthy first use: the first conversion ms"] = stats([f["conversion_ms"][0] for f in fresh])
    return figures


def audio_latencies(raw_path, frames_at_press, rate=48000, channels=2):
    """ms from each press's playback position (the frame being played when the clip was
    scheduled, a fraction of a frame included) to the clip's first non-zero sample in the
    disk driver's output."""
    data = open(raw_path, "rb").read()
    frame = 2 * channels
    silence = b"\0" * frame
    result = []
    for start in frames_at_press:
        if start < 0:
            continue
        i = int(start) * frame
        while i + frame <= len(data) and data[i:i + frame] == silence:
            i += frame
        if i + frame <= len(data):
            result.append((i // frame - start) / rate * 1000)
    return result


def main():
    for path in (APP, BENCH):
        if not os.path.exists(path):
            sys.exit("run_bench.py: %s is missing (make release)" % path)
    results = {"machine": machine(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                        capture_output=True, text=True).stdout.strip(),
               "figures": {}}
    figures = results["figures"]
    base_env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    base_env.pop("SDL_VIDEODRIVER", None)

    with xprobe.Xvfb() as display:
        xenv = dict(base_env, DISPLAY=display.name)
        # 1, 2: latency under Xvfb and headless; presses 130 ms apart so each lands while the
        # app is asleep (the 0.1 s press animation has ended), as a real tap does.
        for label, env in (("Xvfb", xenv), ("headless", dict(base_env, SDL_VIDEODRIVER="offscreen"))):
            b = run_app_bench(env, PRESSES, 130, ["--mute"])
            figures["press→photon (%s) ms" % label] = stats(b["press_to_photon_ms"])
            figures["press→action (%s) ms" % label] = stats(b["press_to_action_ms"])
        # 11: issue 20's layer switch and alternates bubble, the same way (the bubble's presses
        # each hold 0.5 s: fewer of them).
        for label, env in (("Xvfb", xenv), ("headless", dict(base_env, SDL_VIDEODRIVER="offscreen"))):
            b = run_app_bench(env, 50 if QUICK else 300, 130, ["--mute", "--bench-gesture", "layer"])
            figures["layer switch: press→photon (%s) ms" % label] = stats(b["press_to_photon_ms"])
            figures["layer switch: press→action (%s) ms" % label] = stats(b["press_to_action_ms"])
            b = run_app_bench(env, 20 if QUICK else 100, 130, ["--mute", "--bench-gesture", "bubble"])
            figures["alternates bubble: hold delay→photon (%s) ms" % label] = stats(b["press_to_photon_ms"])
            figures["alternates bubble: hold delay→action (%s) ms" % label] = stats(b["press_to_action_ms"])
        # 12: the kana pad, flicks 130 ms apart (as the presses above), under Xvfb.
        figures.update(kana_figures(xenv))
        # 3: press→sound, presses 1.2 s apart so each clip has ended (silence between).
        raw = tempfile.mktemp(suffix=".raw")
        b = run_app_bench(dict(base_env, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="disk",
                               SDL_DISKAUDIOFILE=raw), 5 if QUICK else 20, 1200)
        figures["press→sound ms (disk driver, 128-frame chunk)"] = stats(audio_latencies(raw, b["audio_frames_at_press"]))
        os.unlink(raw)
        # 4: frame cost.
        runs = [json.loads(subprocess.run([BENCH, ROOT, "300"], capture_output=True, text=True, env=base_env).stdout)
                for _ in range(1 if QUICK else 3)]
        for name in runs[0]:
            figures["frame %s p50 ms" % name] = stats([r[name]["p50"] for r in runs])
            figures["frame %s p99 ms" % name] = stats([r[name]["p99"] for r in runs])
        # 4: the text field's editing cost (5 runs, 1 with HEE_BENCH_QUICK).
        text = json.loads(subprocess.run([BENCH, "--text", "1" if QUICK else "5"], capture_output=True, text=True,
                                         check=True).stdout)
        for name, figure in text.items():
            figures["text: %s ms" % name] = stats(figure["ms"])
        results["text work"] = {name: figure["work"] for name, figure in text.items()}  # counted, the same every run
        small, large = text["paste 50,000 characters"]["ms"], text["paste 200,000 characters"]["ms"]
        figures["text: paste 200,000 / 50,000 characters (time ratio)"] = stats([b / a for a, b in zip(small, large)])
        # 5: start-up, the same X-level method as the peers.
        mapped, painted = [], []
        for _ in range(3 if QUICK else 10):
            m, p = xprobe.startup(display, [APP, "--mute"], xenv)
            mapped.append(m)
            painted.append(p)
        figures["start-up exec→mapped ms"] = stats(mapped)
        figures["start-up exec→painted ms"] = stats(painted)
        # 6: memory after start and after 10,000 presses (presses back to back).
        b = run_app_bench(dict(base_env, SDL_VIDEODRIVER="offscreen"), 2000 if QUICK else 10_000, 0, ["--mute"])
        figures["RSS after start MB"] = stats([b["rss_kb_start"] / 1024])
        figures["PSS after start MB"] = stats([b["pss_kb_start"] / 1024])
        figures["RSS after 10,000 presses MB"] = stats([b["rss_kb_end"] / 1024])
        figures["PSS after 10,000 presses MB"] = stats([b["pss_kb_end"] / 1024])
        # 7: idle CPU, shown and hidden (the audio device included: SDL's dummy driver).
        shown, hidden = xprobe.idle_cpu(display, [APP], xenv, seconds=5 if QUICK else 10)
        figures["idle CPU shown %"] = stats([shown])
        figures["idle CPU hidden %"] = stats([hidden])
        # 9: through real sound servers (skipped, with a message, where they are not installed).
        if os.environ.get("HEE_BENCH_SOUND", "1") != "0":
            figures.update(sound_latency.measure(APP, display.name, stats, quick=QUICK))
            # 9b: the press is a real touch (weston + our module), which nothing announces.
            try:
                figures.update(touch_sound_latency.measure(APP, stats, quick=QUICK))
            except Exception as error:  # no weston or libweston-10-dev here: the click figures stand alone
                print("# touch sound figures skipped: %s" % error, file=sys.stderr)
        # 8 (X11 part): memory measured from outside, as on Wayland below.
        proc, _, _, _ = xprobe.launch_and_watch(display, [APP, "--mute"], xenv, settle=False)
        time.sleep(1)
        rss, pss = wlprobe.memory_mb(proc.pid)
        xprobe._stop(proc)
        figures["RSS after start, X11 (from outside) MB"] = stats([rss])
        figures["PSS after start, X11 (from outside) MB"] = stats([pss])
        # 10: system mode, typing into another window.
        figures.update(typing_latency.heekeyboard(APP, display, 100 if QUICK else PRESSES, base_env))

    # 8: Wayland.
    workdir = tempfile.mkdtemp(prefix="hee-bench-wayland-")
    try:
        with wlprobe.Sway(workdir, {"HEADLESS-1": "resolution 1280x1024 scale 1"}) as sway:
            wenv = sway.client_env(base_env, XDG_CONFIG_HOME=os.path.join(workdir, "config"))
            frames = [wlprobe.startup(sway, [APP, "--mute"], wenv) for _ in range(3 if QUICK else 10)]
            figures["start-up exec→first frame, Wayland ms"] = stats(frames)
            rss, pss = wlprobe.memory_after_start(sway, [APP, "--mute"], wenv)
            figures["RSS after start, Wayland MB"] = stats([rss])
            figures["PSS after start, Wayland MB"] = stats([pss])
            figures["idle CPU shown, Wayland %"] = stats([wlprobe.idle_cpu(sway, [APP], wenv, seconds=5 if QUICK else 10)])
    except Exception as error:  # no sway here: the X11 figures stand alone
        print("# Wayland figures skipped: %s" % error, file=sys.stderr)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    os.makedirs(os.path.join(ROOT, "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "bench/results.json"), "w") as f:
        json.dump(results, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print_table(results)


def machine():
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
            "os": platform.freedesktop_os_release().get("PRETTY_NAME", "") if hasattr(platform, "freedesktop_os_release") else "",
            "display": "Xvfb 1280x1024x24, SDL software renderer"}


def print_table(results):
    m = results["machine"]
    print("HeeKeyboard benchmark — %s, %d cores, %s, commit %s" % (m["cpu"], m["cores"], results["date"], results["commit"]))
    print("%-64s %9s %9s %9s %9s %6s" % ("figure", "min", "median", "p99", "max", "n"))
    for name, s in results["figures"].items():
        if s is None:
            print("%-64s %s" % (name, "(no samples)"))
            continue
        if "median" not in s:  # idle CPU of app and server
            print("%-64s %s" % (name, " / ".join("%s %.2f" % (k, v) for k, v in s.items())))
            continue
        print("%-64s %9.3f %9.3f %9.3f %9.3f %6d" % (name, s["min"], s["median"], s["p99"], s["max"], s["n"]))


if __name__ == "__main__":
    # Every app and peer started here gets this private session bus: none autolaunches one
    # that outlives the run (e2e_support.SessionBus).
    with private_session_bus():
        main()
