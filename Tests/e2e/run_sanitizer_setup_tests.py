#!/usr/bin/env python3
"""The sanitizer builds stay possible (issue 11, item 10). `make sanitize` itself (ASan and
TSan builds running the unit tests, the replay files and the live test: minutes) runs in
.ci/run after `make test`; this quick check, part of `make test`, keeps its pieces in place:

  1. Package.swift links HeeApp with -static-stdlib normally, and without it when
     HEE_SANITIZE is set (-static-stdlib hides the sanitizers' allocator from the shared
     libraries, so ASan and TSan stop at the first getcwd free).
  2. `make sanitize` runs scripts/sanitize.sh for both sanitizers, and .ci/run calls it.
  3. The committed suppressions name the libraries' known leaks (libdbus, fontconfig) and
     nothing of our own.

Prints `ok - …` per check; a failure prints `FAIL: …` and exits 1; no swift exits 2.
Standard-library Python 3 only.
"""

import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import Prerequisite, REPO_ROOT, ok, fail, script_main  # noqa: E402



def app_linker_flags(sanitize):
    env = {k: v for k, v in os.environ.items() if k != "HEE_SANITIZE"}
    if sanitize:
        env["HEE_SANITIZE"] = "1"
    proc = subprocess.run(["swift", "package", "dump-package"], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        fail(f"swift package dump-package failed: {proc.stderr.strip()}")
    targets = {t["name"]: t for t in json.loads(proc.stdout)["targets"]}
    flags = []
    for setting in targets["HeeApp"].get("settings", []):
        if setting.get("tool") == "linker":
            flags += setting.get("kind", {}).get("unsafeFlags", {}).get("_0", [])
    return flags


def main():
    def body(_):
        if shutil.which("swift") is None:
            raise Prerequisite("swift not found")
        normal, sanitized = app_linker_flags(False), app_linker_flags(True)
        if "-static-stdlib" not in normal:
            fail(f"HeeApp's linker flags lost -static-stdlib: {normal}")
        if "-static-stdlib" in sanitized:
            fail(f"with HEE_SANITIZE=1 HeeApp still links -static-stdlib: {sanitized}")
        ok("Package.swift: -static-stdlib normally, dropped with HEE_SANITIZE=1")

        dry = subprocess.run(["make", "-n", "sanitize"], cwd=REPO_ROOT, capture_output=True, text=True)
        if dry.returncode != 0 or "scripts/sanitize.sh" not in dry.stdout:
            fail(f"`make -n sanitize` does not run scripts/sanitize.sh: {dry.stdout}{dry.stderr}")
        with open(os.path.join(REPO_ROOT, "scripts", "sanitize.sh"), encoding="utf-8") as f:
            script = f.read()
        if not re.search(r"kinds=\(address thread\)", script):
            fail("scripts/sanitize.sh does not run both address and thread by default")
        with open(os.path.join(REPO_ROOT, ".ci", "run"), encoding="utf-8") as f:
            if not re.search(r"^\s*make sanitize\b", f.read(), re.M):
                fail(".ci/run does not run `make sanitize`")
        ok("make sanitize runs scripts/sanitize.sh (address and thread); .ci/run runs it")

        with open(os.path.join(REPO_ROOT, "Tests", "sanitizers", "lsan.supp"), encoding="utf-8") as f:
            entries = [line.strip() for line in f if line.strip() and not line.startswith("#")]
        for needed in ("leak:libdbus-1.so", "leak:libfontconfig.so"):
            if needed not in entries:
                fail(f"Tests/sanitizers/lsan.supp lacks {needed}")
        ours = [e for e in entries if re.search(r"Hee|KeyboardCore|AppModel|\$s", e)]
        if ours:
            fail(f"the leak suppressions hide our own code: {ours}")
        ok(f"lsan.supp suppresses the libraries' known leaks only: {', '.join(entries)}")
    return script_main(body, prefix="hee-sanitizer-setup-")


if __name__ == "__main__":
    sys.exit(main())
