#!/usr/bin/env python3
"""Replays every fixed file in Tests/e2e/replay (issue 12) and checks the expectations written
in the file itself. A file names the trace events it is about and lists them, in order,
without `t`:

    # expect-kinds: touch shift text
    # expect: {"event":"touch","key":"shift","down":true}
    ...

The trace's events of those kinds must equal the `# expect:` lines exactly. `# args: ...`
adds command-line arguments (e.g. `--size 600x900`).

Runs the app as `HeeApp --trace --replay FILE --exit-when-done` with SDL's offscreen video
driver and dummy audio (no display needed). Prints `ok - ...` per check; the first failure
prints `FAIL: ...` and exits 1 (2 for a missing binary).

Environment:
  HEE_APP              binary (default <repo>/.build/release/HeeApp)
  HEE_ASSETS           if set, pass `--assets DIR` to the app
  HEE_REPLAY_KEEP=1    keep the work directory after a pass
Standard-library Python 3 only.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import CheckFailed, Prerequisite, ok, fail

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPLAY_DIR = os.path.join(REPO_ROOT, "Tests", "e2e", "replay")
RUN_TIMEOUT = 60.0


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Context:
    def __init__(self, binary, workdir):
        self.binary = binary
        self.workdir = workdir
        assets = os.environ.get("HEE_ASSETS")
        self.asset_args = ["--assets", os.path.abspath(assets)] if assets else []

    def env(self):
        env = dict(os.environ)
        env.pop("GDK_SCALE", None)
        env.update(SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy",
                   XDG_CONFIG_HOME=os.path.join(self.workdir, "config"))
        return env

    def replay(self, path, args=(), label=""):
        """Runs the app on `path`; returns the trace's bytes."""
        command = [self.binary, "--trace", "--replay", path, "--exit-when-done", *self.asset_args, *args]
        try:
            proc = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=RUN_TIMEOUT, env=self.env(), cwd=self.workdir)
        except subprocess.TimeoutExpired:
            fail(f"[{label}] the app did not exit within {RUN_TIMEOUT:.0f} s: {' '.join(command)}")
        if proc.returncode != 0:
            fail(f"[{label}] exit status {proc.returncode}: {' '.join(command)}\n"
                 f"  stderr: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout


def events_of(trace):
    return [json.loads(line) for line in trace.decode("utf-8").splitlines()]


# --------------------------------------------------------------------------- fixed files

def parse_header(path):
    kinds, expected, args = None, [], []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("# expect-kinds:"):
                kinds = line.split(":", 1)[1].split()
            elif line.startswith("# expect:"):
                try:
                    expected.append(json.loads(line.split(":", 1)[1]))
                except json.JSONDecodeError as error:
                    fail(f"{path}:{number}: the expectation is not JSON: {error}")
            elif line.startswith("# args:"):
                args = line.split(":", 1)[1].split()
    return kinds, expected, args


def check_file(ctx, name):
    path = os.path.join(REPLAY_DIR, name)
    kinds, expected, args = parse_header(path)
    if not kinds or not expected:
        fail(f"{path} has no '# expect-kinds:' / '# expect:' lines: every fixed replay file states what it does")
    first = ctx.replay(path, args, label=name)
    actual = [{k: v for k, v in e.items() if k != "t"} for e in events_of(first) if e["event"] in kinds]
    if actual != expected:
        fail(f"[{name}] the trace's {'/'.join(kinds)} events differ from the file's expectations\n"
             f"  expected:\n    " + "\n    ".join(dumps(e) for e in expected)
             + "\n  actual:\n    " + "\n    ".join(dumps(e) for e in actual))
    ok(f"{name}: {len(expected)} {'/'.join(kinds)} events as the file expects")


def main():
    binary = os.environ.get("HEE_APP")
    binary = os.path.abspath(binary) if binary else os.path.join(REPO_ROOT, ".build", "release", "HeeApp")
    workdir = tempfile.mkdtemp(prefix="hee-replay-files-")
    status = 0
    began = time.monotonic()
    try:
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            raise Prerequisite(f"no executable at {binary} (build with `swift build -c release` or set HEE_APP)")
        ctx = Context(binary, workdir)
        files = sorted(f for f in os.listdir(REPLAY_DIR) if f.endswith(".jsonl"))
        if not files:
            fail(f"no replay files in {REPLAY_DIR}")
        print(f"# binary {binary}, {len(files)} replay files in {REPLAY_DIR}", flush=True)
        for name in files:
            check_file(ctx, name)
        print(f"# all replay-file checks passed in {time.monotonic() - began:.1f} s", flush=True)
    except CheckFailed as error:
        status = 1
        print(f"FAIL: {error}", file=sys.stderr, flush=True)
    except Prerequisite as error:
        status = 2
        print(f"SKIP/ERROR: {error}", file=sys.stderr, flush=True)
    finally:
        if status != 0:
            print(f"# work dir kept: {workdir}", file=sys.stderr)
        elif os.environ.get("HEE_REPLAY_KEEP") == "1":
            print(f"# work dir kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
