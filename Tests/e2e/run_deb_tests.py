#!/usr/bin/env python3
"""Debian package test of HeeKeyboard (issue 13): build the .deb, check it, install it with
apt-get into this machine, use the installed program under Xvfb with no Swift toolchain in
reach, then purge it and check that nothing of it is left.

Steps, in order:
  1. `make deb` → hee-keyboard_<version>_<arch>.deb in the source tree, <version> what
     `--version` prints.
  2. The package's fields: Depends holds the package of every library the binary links
     (readelf NEEDED → dpkg -S), so dpkg-shlibdeps computed it; plus SDL2_mixer (dlopen'ed)
     at a version that exports every function MixerLibrary.swift looks up (from the library's
     symbols file), Anthy (dlopen'ed: libanthy1, which exports every function
     AnthyLibrary.swift looks up, and its dictionary anthy-common) and the fallback font;
     Recommends the emoji font and libdecor's plugin.
  3. Its contents: exactly the files `make install` puts under /usr, plus the copyright file,
     the changelog and the compressed man page; the binary links no libswift* (readelf, ldd)
     and has no run path into the toolchain.
  4. lintian (-I -E --pedantic): no error, warning, info or pedantic tag; its output is printed.
  5. As root only: `apt-get install ./hee-keyboard_….deb`, then `/usr/bin/hee-keyboard
     --version` with PATH=/usr/bin:/bin and the toolchain's directory hidden (unshare -m,
     tmpfs over it); then, the same way, under a private Xvfb and strace, `--trace`: a click
     on へぇ (xdotool) gives `hee` count 1 and the text 「へぇ〜」 and plays the clip; every
     asset the program opened is under /usr/share/hee-keyboard (fonts, clip, the en layout) and nothing in
     the source tree or the toolchain; the window carries the へぇ button icon (_NET_WM_ICON)
     and the desktop entry's StartupWMClass; no libswift in its memory map.
  6. `apt-get purge hee-keyboard`: every path `dpkg -L` listed after the install is gone
     (files, and the package's own directories), dpkg forgets the package. The purge also runs
     when a step fails.
  7. As root, with debootstrap: a fresh minimal Debian of this machine's release (no Swift,
     none of the build dependencies) in a chroot; `apt-get install` of the .deb there brings
     everything it needs from the mirror this machine uses; the installed program replays a
     click on へぇ (offscreen video, disk audio): count 1, 「へぇ〜」, SDL2_mixer loaded and the
     clip played; then purged. About 2 minutes, most of it debootstrap and downloads.
     HEE_DEB_CLEAN_MACHINE=0 skips it on a developer's machine (never under CI).

Installing changes this machine's /usr: it happens only inside this test, under a lock (one
run at a time), and is always undone. If hee-keyboard is installed before the test and not by
an earlier, interrupted run of it, the test refuses to touch it.

Prints `ok - …` per passed check and `SKIP - …` where a tool or root is missing on a developer's
machine (under CI=true that is a failure: .ci/run installs every tool and runs as root); on the
first failure `FAIL: …` and exit 1. Environment: HEE_APP (default .build/release/HeeApp), for
the version. Standard-library Python 3 only.
"""

import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_support import (Prerequisite, REPO_ROOT, TraceReader, app_binary, ok, fail, kill_group, missing_tool,  # noqa: E402
                         required, script_main, session_bus, start_xvfb)

PACKAGE = "hee-keyboard"
HEE_TEXT = "へぇ〜"
ASSET_FILES = [
    "fonts/MPLUS1-Regular.otf", "fonts/MPLUS1-Bold.otf", "fonts/MPLUS1Code-Medium.otf", "fonts/HeeLaurel.ttf",
    "fonts/MPLUS-LICENSE.txt", "fonts/HeeLaurel-LICENSE.txt", "sounds/hee.wav", "sounds/hee-LICENSE.txt",
    "layouts/en.json", "layouts/de.json", "layouts/ja-kana.json", "emoji/emoji.tsv", "emoji/kaomoji.tsv", "emoji/UNICODE-LICENSE.txt",
]
ICON_SIZES = (48, 128, 256)
EXPECTED_FILES = sorted(
    ["/usr/bin/hee-keyboard", "/usr/lib/hee-keyboard/libHeeVulkanStub.so", "/usr/share/applications/hee-keyboard.desktop",
     "/usr/share/applications/sm.puri.HeeKeyboard.desktop",
     "/usr/share/man/man1/hee-keyboard.1.gz", "/usr/share/metainfo/hee-keyboard.metainfo.xml",
     "/usr/share/doc/hee-keyboard/copyright", "/usr/share/doc/hee-keyboard/changelog.gz",
     "/usr/share/lintian/overrides/hee-keyboard"]
    + [f"/usr/share/hee-keyboard/{f}" for f in ASSET_FILES]
    + [f"/usr/share/icons/hicolor/{n}x{n}/apps/hee-keyboard.png" for n in ICON_SIZES])
# The package's own directories (the others, /usr/share/man/man1 …, belong to the system).
OWN_DIRECTORIES = ["/usr/share/hee-keyboard", "/usr/share/doc/hee-keyboard", "/usr/lib/hee-keyboard"]
# Set while an install made by this test is in place (removed after the purge): tells a later
# run that a hee-keyboard it finds installed is an interrupted run's, to purge.
MARKER = "/var/lib/hee-keyboard-deb-test.installed"
LOCK = "/tmp/hee-keyboard-deb-test.lock"
APT_ENV = {"DEBIAN_FRONTEND": "noninteractive"}
APT_OPTIONS = ["-y", "-q", "-o", "DPkg::Lock::Timeout=600"]
EVENT_TIMEOUT = 10.0


def expect(condition, message):
    if not condition:
        fail(message)


def run(command, timeout=600, env=None, cwd=None):
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                              env=env, cwd=cwd, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        fail(f"`{' '.join(command)}` took longer than {timeout} s")
    return proc.returncode, proc.stdout.decode("utf-8", errors="replace"), proc.stderr.decode("utf-8", errors="replace")


def tail(text, lines=30):
    return "\n".join(text.splitlines()[-lines:])


# --------------------------------------------------------------------------- build and inspect

def app_version():
    app = app_binary()
    status, out, _ = run([app, "--version"])
    expect(status == 0 and len(out.split()) == 2, f"{app} --version: {out!r}")
    return out.split()[1]


def build_deb(version):
    started = time.monotonic()
    status, out, err = run(["make", "--no-print-directory", "deb"], timeout=1800, cwd=REPO_ROOT)
    expect(status == 0, f"make deb failed ({status}):\n{tail(out + err, 40)}")
    status, arch, _ = run(["dpkg", "--print-architecture"])
    deb = os.path.join(REPO_ROOT, f"{PACKAGE}_{version}_{arch.strip()}.deb")
    expect(os.path.isfile(deb), f"make deb did not write {os.path.basename(deb)}:\n{tail(out)}")
    # dpkg-shlibdeps warns of a library the binary links but never calls (libfreetype did,
    # through fontconfig's pkg-config): the binary's NEEDED list is exactly what it uses.
    with open(os.path.join(REPO_ROOT, ".build", "deb", "build.log"), encoding="utf-8", errors="replace") as f:
        warnings = [line.strip() for line in f if line.startswith("dpkg-shlibdeps: warning")]
    expect(not warnings, "dpkg-shlibdeps warned:\n" + "\n".join(warnings))
    ok(f"make deb → {os.path.basename(deb)}, {os.path.getsize(deb) / 1e6:.2f} MB "
       f"({time.monotonic() - started:.1f} s, the release build reused); no dpkg-shlibdeps warning")
    return deb


def deb_field(deb, name):
    status, out, err = run(["dpkg-deb", "-f", deb, name])
    expect(status == 0, f"dpkg-deb -f {name}: {err}")
    return out.strip()


def relations(text):
    """{package: version constraint or ''} from a Depends-like field (no alternatives here)."""
    result = {}
    for item in filter(None, (i.strip() for i in text.split(","))):
        m = re.fullmatch(r"([a-z0-9.+-]+)(?::\w+)?\s*(?:\((.+)\))?", item)
        expect(m, f"cannot read the relation {item!r}")
        result[m.group(1)] = (m.group(2) or "").strip()
    return result


def version_at_least(version, minimum):
    return subprocess.run(["dpkg", "--compare-versions", version, "ge", minimum]).returncode == 0


def needed_libraries(binary):
    status, out, err = run(["readelf", "-d", binary])
    expect(status == 0, f"readelf -d: {err}")
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)
    runpath = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[([^\]]+)\]", out)
    return needed, runpath


def any_version_serves(package, binary):
    """Whether dpkg-shlibdeps rightly gave `package` no minimum version: its symbols file says
    every symbol the binary takes from it exists in all versions (`0`), as for libX11's
    XSetErrorHandler or XSetClassHint; or it has no symbols file and its shlibs file names it
    with no version (libxtst6's "libXtst 6 libxtst6")."""
    files = [p for p in os.listdir("/var/lib/dpkg/info") if re.fullmatch(re.escape(package) + r"(:\w+)?\.symbols", p)]
    if not files:
        shlibs = [p for p in os.listdir("/var/lib/dpkg/info") if re.fullmatch(re.escape(package) + r"(:\w+)?\.shlibs", p)]
        if not shlibs:
            return False
        with open(os.path.join("/var/lib/dpkg/info", shlibs[0]), encoding="utf-8") as f:
            entries = [line.split(None, 2) for line in f if line.strip() and not line.startswith("udeb:")]
        return bool(entries) and all(len(e) == 3 and e[2].strip() == package for e in entries)
    status, out, _ = run(["nm", "-D", "--undefined-only", binary])
    if status != 0:
        return False
    undefined = {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}
    with open(os.path.join("/var/lib/dpkg/info", files[0]), encoding="utf-8") as f:
        versions = dict(re.findall(r"^ (\S+)@Base (\S+)", f.read(), re.M))
    used = [versions[name] for name in undefined if name in versions]
    return bool(used) and all(v == "0" for v in used)


def mixer_minimum_version():
    """The oldest libsdl2-mixer-2.0-0 that exports every function MixerLibrary.swift looks up,
    from the library's symbols file, or None where that file is not installed."""
    with open(os.path.join(REPO_ROOT, "Sources", "HeeApp", "Audio", "MixerLibrary.swift"), encoding="utf-8") as f:
        functions = set(re.findall(r'symbol\("(Mix_\w+)"', f.read()))
    expect(functions, "found no symbol(\"Mix_…\") look-ups in MixerLibrary.swift")
    files = [p for p in os.listdir("/var/lib/dpkg/info") if re.fullmatch(r"libsdl2-mixer-2\.0-0(:\w+)?\.symbols", p)]
    if not files:
        return functions, None
    versions = {}
    with open(os.path.join("/var/lib/dpkg/info", files[0]), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^ (Mix_\w+)@Base (\S+)", line)
            if m:
                versions[m.group(1)] = m.group(2)
    missing = sorted(functions - set(versions))
    expect(not missing, f"MixerLibrary.swift looks up functions the installed SDL2_mixer lacks: {missing}")
    newest = None
    for name in functions:
        if newest is None or not version_at_least(newest, versions[name]):
            newest = versions[name]
    return functions, newest


def anthy_functions_exported():
    """The functions AnthyLibrary.swift looks up, checked against what the installed
    libanthy.so.1 (and the libanthydic.so.1 it needs) export: libanthy1 has no symbols file
    and a single upstream version, so the check is that they are all there."""
    with open(os.path.join(REPO_ROOT, "Sources", "HeeAnthy", "AnthyLibrary.swift"), encoding="utf-8") as f:
        functions = set(re.findall(r'symbol\("(anthy_\w+)"', f.read()))
    expect(functions, "found no symbol(\"anthy_…\") look-ups in AnthyLibrary.swift")
    exported = set()
    for name in ("libanthy.so.1", "libanthydic.so.1"):
        path = next((os.path.join(d, name) for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib")
                     if os.path.exists(os.path.join(d, name))), None)
        if path is None:
            status, out, _ = run(["sh", "-c", f"ldconfig -p | sed -n 's/.*{name} .*=> //p' | head -1"])
            path = out.strip() or None
        expect(path, f"{name} is not installed (apt-get install libanthy1)")
        status, out, err = run(["nm", "-D", "--defined-only", path])
        expect(status == 0, f"nm -D {path}: {err}")
        exported |= {line.split()[-1] for line in out.splitlines() if line.strip()}
    missing = sorted(functions - exported)
    expect(not missing, f"AnthyLibrary.swift looks up functions libanthy1 does not export: {missing}")
    return functions


def check_fields(deb, version, work):
    expect(deb_field(deb, "Package") == PACKAGE and deb_field(deb, "Version") == version,
           f"package {deb_field(deb, 'Package')} {deb_field(deb, 'Version')}, expected {PACKAGE} {version}")
    depends_line = deb_field(deb, "Depends")
    depends = relations(depends_line)
    recommends = relations(deb_field(deb, "Recommends"))
    print(f"# Depends: {depends_line}", flush=True)
    print(f"# Recommends: {deb_field(deb, 'Recommends')}", flush=True)

    extracted = os.path.join(work, "extracted")
    status, _, err = run(["dpkg-deb", "-x", deb, extracted])
    expect(status == 0, f"dpkg-deb -x: {err}")
    binary = os.path.join(extracted, "usr", "bin", PACKAGE)
    needed, runpath = needed_libraries(binary)
    status, ldd, err = run(["ldd", binary])
    expect(status == 0, f"ldd {binary}: {err}")
    paths = dict(re.findall(r"^\s*(\S+) => (/\S+)", ldd, re.M))
    owners = {}
    for soname in needed:
        path = paths.get(soname) or next((p for p in ldd.split() if p.endswith("/" + soname)), None)
        expect(path, f"ldd does not resolve {soname}:\n{ldd}")
        candidates = [path, os.path.realpath(path)]
        candidates += ["/usr" + c for c in candidates if c.startswith("/lib")]
        candidates += [c[4:] for c in candidates if c.startswith("/usr/lib")]
        for candidate in candidates:
            status, out, _ = run(["dpkg", "-S", candidate])
            if status == 0:
                break
        expect(status == 0, f"no installed package has {soname} ({path})")
        owners[soname] = sorted({p.strip().split(":")[0] for p in out.splitlines()[0].rsplit(": ", 1)[0].split(",")})
    uncovered = {s: p for s, p in owners.items() if not any(pkg in depends for pkg in p)}
    expect(not uncovered, f"Depends lacks the package of linked libraries {uncovered}: {depends_line}")
    unversioned = [p for p in depends if p.startswith("lib") and not depends[p]
                   and not any_version_serves(p, binary)]
    expect(not unversioned, f"library dependencies without a minimum version (not from dpkg-shlibdeps?): {unversioned}")
    ok(f"Depends has the package of each of the {len(needed)} libraries the binary links, with dpkg-shlibdeps' "
       f"minimum versions "
       f"({', '.join(sorted({p[0] for p in owners.values()}))})")

    functions, minimum = mixer_minimum_version()
    mixer = depends.get("libsdl2-mixer-2.0-0")
    expect(mixer is not None and mixer.startswith(">="), f"Depends lacks libsdl2-mixer-2.0-0 (>= …): {depends_line}")
    if minimum is None:
        missing_tool("SDL2_mixer's symbols file is not installed (apt-get install libsdl2-mixer-2.0-0): "
                     "its minimum version not checked")
    else:
        declared = mixer.split(">=", 1)[1].strip()
        expect(version_at_least(declared, minimum),
               f"Depends says libsdl2-mixer-2.0-0 (>= {declared}), but {sorted(functions)} need {minimum}")
        ok(f"Depends names the dlopen'ed SDL2_mixer, libsdl2-mixer-2.0-0 (>= {declared}): its {len(functions)} "
           f"functions are all in {minimum}")
    anthy_functions = anthy_functions_exported()
    expect({"libanthy1", "anthy-common"} <= set(depends),
           f"Depends lacks the dlopen'ed Anthy (libanthy1) or its dictionary (anthy-common): {depends_line}")
    ok(f"Depends names the dlopen'ed Anthy, libanthy1, which exports the {len(anthy_functions)} functions "
       f"AnthyLibrary.swift looks up, and its dictionary anthy-common")
    expect("fonts-droid-fallback" in depends, f"Depends lacks the fallback font fonts-droid-fallback: {depends_line}")
    expect({"fonts-noto-color-emoji", "libdecor-0-plugin-1-cairo"} <= set(recommends),
           f"Recommends {sorted(recommends)}")
    ok("Depends has fonts-droid-fallback; Recommends fonts-noto-color-emoji and libdecor-0-plugin-1-cairo")

    found = []
    for root, dirs, files in os.walk(extracted):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            found.append("/" + os.path.relpath(os.path.join(root, name), extracted))
    missing, extra = sorted(set(EXPECTED_FILES) - set(found)), sorted(set(found) - set(EXPECTED_FILES))
    expect(not missing and not extra, f"package contents differ: missing {missing}, unexpected {extra}")
    for f in ASSET_FILES:
        with open(os.path.join(extracted, "usr/share/hee-keyboard", f), "rb") as a, \
                open(os.path.join(REPO_ROOT, f), "rb") as b:
            expect(a.read() == b.read(), f"the package's {f} differs from the repository's")
    ok(f"contents: the {len(EXPECTED_FILES)} expected files (binary, assets as in the repository, .desktop, "
       f"3 icons, man page, metainfo, copyright, changelog)")

    swift = [n for n in needed if n.startswith("libswift") or "Foundation" in n or "dispatch" in n.lower()]
    expect(not swift, f"the binary links Swift libraries dynamically: {swift}")
    expect(not any("swift" in p.lower() or p.startswith("/opt") for p in runpath), f"run path into a toolchain: {runpath}")
    status, out, err = run(["ldd", binary])
    expect(status == 0 and "not found" not in out, f"ldd {binary}: {out}{err}")
    expect("libswift" not in out and "/opt/" not in out, f"ldd shows Swift libraries:\n{out}")
    ok(f"the binary links no Swift library: ldd shows {len(out.splitlines())} libraries, none libswift*; "
       f"NEEDED: {', '.join(needed)}; run path {runpath or 'none'}")
    return depends_line


def check_lintian(deb):
    if shutil.which("lintian") is None:
        missing_tool("lintian not found (apt-get install lintian): the package is not linted")
        return
    status, out, err = run(["lintian", "-I", "-E", "--pedantic", "--fail-on", "error,warning", deb], timeout=900)
    lines = [l for l in out.splitlines() if l.strip()]
    print("# lintian -I -E --pedantic: " + ("(no output)" if not lines else ""), flush=True)
    for line in lines:
        print(f"#   {line}", flush=True)
    errors = [l for l in lines if l.startswith(("E:", "W:", "I:", "P:"))]
    expect(status == 0 and not errors, f"lintian found errors, warnings, infos or pedantic tags (status {status}):\n{out}{err}")
    status, out, _ = run(["lintian", "--show-overrides", "-I", "-E", "--pedantic", deb], timeout=900)
    overridden = len([l for l in out.splitlines() if l.startswith("O:")])
    ok(f"lintian: no error, no warning, no info, no pedantic tag ({overridden} tags overridden with a reason "
       f"in debian/hee-keyboard.lintian-overrides)")


# --------------------------------------------------------------------------- install, run, purge

def installed_status():
    status, out, _ = run(["dpkg-query", "-W", "-f=${db:Status-Abbrev}", PACKAGE])
    return out.strip() if status == 0 else ""


def purge():
    status, out, err = run(["apt-get", "purge", *APT_OPTIONS, PACKAGE], env=dict(os.environ, **APT_ENV))
    return status, out + err


class Installed:
    """The package installed by this test; purged on exit whatever happened."""

    def __init__(self, deb):
        self.deb = deb
        self.installed = False

    def __enter__(self):
        state = installed_status()
        if state.startswith(("ii", "iU", "iF", "rc", "iH")):
            if not os.path.exists(MARKER):
                raise Prerequisite(f"{PACKAGE} is already installed here (dpkg status {state!r}), not by this test: "
                                   f"`apt-get purge {PACKAGE}` first")
            print(f"# purging {PACKAGE} left by an interrupted run of this test", flush=True)
            status, out = purge()
            expect(status == 0, f"apt-get purge of the leftover failed:\n{tail(out)}")
        if os.path.exists(f"/usr/bin/{PACKAGE}"):
            raise Prerequisite(f"/usr/bin/{PACKAGE} exists (a `make install PREFIX=/usr`?): "
                               f"`make uninstall PREFIX=/usr` first")
        with open(MARKER, "w") as f:
            f.write(f"{os.getpid()}\n")
        self.installed = True
        started = time.monotonic()
        deb = "./" + os.path.relpath(self.deb, REPO_ROOT)
        status, out, err = run(["apt-get", "install", *APT_OPTIONS, deb], env=dict(os.environ, **APT_ENV),
                               cwd=REPO_ROOT, timeout=900)
        expect(status == 0, f"apt-get install {deb} failed ({status}):\n{tail(out + err)}")
        expect(installed_status() == "ii", f"after apt-get install, dpkg status is {installed_status()!r}")
        newly = re.search(r"^The following NEW packages will be installed:\n((?:  .*\n)+)", out, re.M)
        ok(f"apt-get install {deb} ({time.monotonic() - started:.1f} s; new packages: "
           f"{' '.join(newly.group(1).split()) if newly else '?'})")
        return self

    def __exit__(self, *exc):
        if self.installed:
            status, out = purge()
            if status == 0 and installed_status() in ("", "un", "pn"):
                os.remove(MARKER)
            else:
                print(f"# apt-get purge {PACKAGE} failed ({status}): purge it by hand\n{tail(out)}", file=sys.stderr)
        return False


def package_paths():
    status, out, err = run(["dpkg", "-L", PACKAGE])
    expect(status == 0, f"dpkg -L {PACKAGE}: {err}")
    return [p for p in out.splitlines() if p.strip() and p != "/."]


def toolchain_root():
    """The directory holding the Swift toolchain on PATH (e.g. /opt/swift), or None."""
    swift = shutil.which("swift")
    if swift is None:
        return None
    real = os.path.realpath(swift)  # <root>/usr/bin/swift
    root = os.path.dirname(os.path.dirname(os.path.dirname(real)))
    return root if root not in ("/", "/usr") else None


def without_toolchain(command, hidden):
    """`command` run with the toolchain's directory hidden behind an empty tmpfs, when the
    kernel lets this process make a mount namespace; else as is."""
    if hidden is None:
        return command
    return ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
            'mount -t tmpfs -o size=1m hee-no-swift "$0" && exec "$@"', hidden, *command]


def clean_env(work, display=None):
    env = {"PATH": "/usr/bin:/bin", "HOME": os.path.join(work, "home"), "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": os.path.join(work, "config"), "XDG_RUNTIME_DIR": os.path.join(work, "runtime"),
           "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": os.path.join(work, "audio.raw")}
    for d in ("home", "runtime"):
        os.makedirs(os.path.join(work, d), mode=0o700, exist_ok=True)
    if display:
        env["DISPLAY"] = display
    # The script's private session bus: without one, libdbus would autolaunch a session bus
    # for the installed program that outlives the test.
    return session_bus.env(env)


def check_no_swift_version(version, work):
    hidden = toolchain_root()
    command = without_toolchain([f"/usr/bin/{PACKAGE}", "--version"], hidden)
    status, out, err = run(command, env=clean_env(work))
    if hidden is not None and status != 0 and ("unshare" in err or "mount" in err):
        print(f"# cannot hide {hidden} here ({err.strip()}); PATH alone keeps swift out of reach", flush=True)
        hidden = None
        status, out, err = run([f"/usr/bin/{PACKAGE}", "--version"], env=clean_env(work))
    expect(status == 0 and out == f"{PACKAGE} {version}\n", f"/usr/bin/{PACKAGE} --version: {status} {out!r} {err!r}")
    expect(shutil.which("swift", path="/usr/bin:/bin") is None, "swift is on PATH=/usr/bin:/bin")
    where = f", {hidden} hidden behind an empty tmpfs" if hidden else ""
    ok(f"/usr/bin/{PACKAGE} --version with PATH=/usr/bin:/bin (no swift){where}: {out.strip()!r}")
    return hidden


class App(TraceReader):
    """The installed program under strace with --trace; its trace read by TraceReader. Blank
    trace lines are skipped; a line that is not JSON fails the check."""

    def __init__(self, command, env, cwd, stderr_path):
        with open(stderr_path, "wb") as stderr:
            self.proc = subprocess.Popen(command, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=stderr, start_new_session=True)
        self.stderr_path = stderr_path
        self.env = env
        super().__init__(self.proc.stdout, timeout=EVENT_TIMEOUT, poll=0.1)

    def parse(self, line):
        if not line.strip():
            return None
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            fail(f"trace line is not JSON: {line!r}")

    def closed_message(self, what):
        return f"the app exited ({self.proc.poll()}) while waiting for {what}; stderr: {self.stderr()[-800:]}"

    def timeout_message(self, what, timeout, since):
        return f"timed out waiting for {what}; trace: {self.events[-10:]}; stderr: {self.stderr()[-800:]}"

    def of(self, kind):
        return [e for e in self.events if e.get("event") == kind]

    def stderr(self):
        with open(self.stderr_path, encoding="utf-8", errors="replace") as f:
            return f.read()


def xdo(env, *args):
    status, out, err = run(["xdotool", *args], env=env, timeout=20)
    expect(status == 0, f"xdotool {' '.join(args)}: {err.strip()}")
    return out.strip()


def window_icon(env, wid):
    """(width, height, ARGB pixels) of the window's _NET_WM_ICON, or None while it has none."""
    # -f …: the raw numbers (xprop draws icons as ASCII art otherwise).
    status, out, _ = run(["xprop", "-notype", "-id", wid, "-f", "_NET_WM_ICON", "32c", "_NET_WM_ICON"], env=env, timeout=20)
    m = re.search(r"=\s*([\d,\s]+)", out)
    if status != 0 or not m:
        return None
    values = [int(v) for v in m.group(1).replace(",", " ").split()]
    if len(values) < 2:
        return None
    width, height = values[0], values[1]
    return width, height, values[2:2 + width * height]


def app_pid(strace_pid):
    """The traced program's pid: the child of strace that has become /usr/bin/hee-keyboard
    (strace also forks short-lived children of its own at start, to probe ptrace)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            for task in os.listdir(f"/proc/{strace_pid}/task"):
                with open(f"/proc/{strace_pid}/task/{task}/children") as f:
                    for child in f.read().split():
                        try:
                            with open(f"/proc/{child}/comm") as c:
                                if c.read().strip() == PACKAGE:
                                    return int(child)
                        except FileNotFoundError:
                            pass
        except FileNotFoundError:
            pass
        time.sleep(0.02)
    fail(f"strace started no {PACKAGE}")


def zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return False


def find_strace_pid(root_pid):
    """The strace process: `root_pid` itself once it has become strace (unshare execs sh, which
    runs mount in a child, then execs strace)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{root_pid}/comm") as f:
                if f.read().strip() == "strace":
                    return root_pid
        except FileNotFoundError:
            fail("the launcher exited before starting strace")
        time.sleep(0.02)
    fail("strace did not start")


def check_live_run(version, hidden, work):
    for tool in ("xdotool", "xprop", "strace"):
        if shutil.which(tool) is None:
            missing_tool(f"{tool} not found (scripts/install-deps.sh): the installed program is not run under X")
            return
    xvfb, app = None, None
    strace_log = os.path.join(work, "strace.log")
    try:
        xvfb, display = start_xvfb(first=170, last=230)
        env = clean_env(work, display)
        command = without_toolchain(["strace", "-f", "-q", "-e", "trace=open,openat", "-e", "signal=none",
                                     "-o", strace_log, f"/usr/bin/{PACKAGE}", "--trace"], hidden)
        app = App(command, env, work, os.path.join(work, "app-stderr.txt"))
        pid = app_pid(find_strace_pid(app.proc.pid))
        layout = app.wait_for(lambda e: e.get("event") == "layout", "the first layout", 30)
        wid = None
        deadline = time.monotonic() + 20
        while wid is None:
            status, out, _ = run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)], env=env, timeout=20)
            if out.split():
                wid = out.split()[0]
            elif time.monotonic() > deadline:
                fail(f"no visible window of pid {pid}")
            else:
                time.sleep(0.05)
        ok(f"/usr/bin/{PACKAGE} --trace under Xvfb {display} (PATH=/usr/bin:/bin"
           f"{', ' + hidden + ' hidden' if hidden else ''}, under strace): window {wid}, "
           f"layout {layout['window']}")

        rect = layout["keys"]["hee"]
        xdo(env, "mousemove", "--window", wid, str(round(rect["x"] + rect["w"] / 2)), str(round(rect["y"] + rect["h"] / 2)))
        xdo(env, "click", "1")
        hee = app.wait_for(lambda e: e.get("event") == "hee", "a hee event after the click")
        text = app.wait_for(lambda e: e.get("event") == "text", "a text event after the click")
        app.wait_for(lambda e: e.get("event") == "touch" and e.get("key") == "hee" and e.get("down") is False,
                     "the release of hee")
        sound = app.wait_for(lambda e: e.get("event") == "sound", "the clip playing")
        expect(hee.get("count") == 1 and len(app.of("hee")) == 1, f"hee events {app.of('hee')}, expected one, count 1")
        expect(text.get("text") == HEE_TEXT and text.get("caret") == 3, f"text event {text}")
        ok(f"xdotool click on へぇ: hee count 1, text {text['text']!r} caret 3, sound {sound.get('name')!r}")

        icon = None
        deadline = time.monotonic() + 10
        while icon is None:
            icon = window_icon(env, wid)
            if icon is None:
                expect(time.monotonic() < deadline, "the window has no _NET_WM_ICON after 10 s")
                time.sleep(0.1)
        width, height, pixels = icon
        expect(width == height == 64 and len(pixels) == 64 * 64, f"window icon {width}×{height}")
        corner = pixels[0] >> 24
        # The middle band at design point (35, 70) of the 170 × 180 button padded by 4 pt (as the
        # install test checks the PNG icons).
        k = 64 / 188
        x, y = int((64 - 170 * k) / 2 + 35 * k), int((64 - 180 * k) / 2 + 70 * k)
        argb = pixels[y * 64 + x]
        a, r, g, b = argb >> 24, (argb >> 16) & 255, (argb >> 8) & 255, argb & 255
        expect(corner == 0 and a == 255 and abs(r - 61) <= 3 and abs(g - 145) <= 3 and abs(b - 192) <= 3,
               f"window icon: corner alpha {corner}, middle band ({x},{y}) = ARGB {a},{r},{g},{b}, "
               f"expected transparent corner, opaque (61, 145, 192)")
        status, wm_class, _ = run(["xprop", "-id", wid, "WM_CLASS"], env=env)
        with open("/usr/share/applications/hee-keyboard.desktop", encoding="utf-8") as f:
            startup = re.search(r"^StartupWMClass=(.*)$", f.read(), re.M)
        expect(startup and f'"{startup.group(1)}"' in wm_class,
               f"WM_CLASS {wm_class.strip()!r} lacks the desktop entry's StartupWMClass {startup and startup.group(1)}")
        ok(f"window icon: 64×64 へぇ button (transparent corners, band (61, 145, 192)); {wm_class.strip()} "
           f"matches StartupWMClass")

        with open(f"/proc/{pid}/maps") as f:
            maps = f.read()
        libraries = sorted({line.split()[-1] for line in maps.splitlines() if ".so" in line.split()[-1]})
        expect(not [l for l in libraries if "swift" in l.lower() or l.startswith("/opt/")],
               f"Swift libraries mapped: {[l for l in libraries if 'swift' in l.lower()]}")
        ok(f"the running program maps {len(libraries)} libraries, none from Swift or /opt")

        os.kill(pid, signal.SIGTERM)
        # strace (-f) would also wait for what the program started: libdbus' `dbus-launch
        # --autolaunch` daemon, without a session bus. Wait for the program itself and read its
        # exit status from strace's log.
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{pid}") and not zombie(pid):
            expect(time.monotonic() < deadline, "SIGTERM did not end the installed program within 10 s")
            time.sleep(0.05)
        deadline = time.monotonic() + 5
        status = None
        while status is None and time.monotonic() < deadline:
            with open(strace_log, encoding="utf-8", errors="replace") as f:
                m = re.search(rf"^{pid}\s+\+\+\+ exited with (\d+) \+\+\+", f.read(), re.M)
            status = int(m.group(1)) if m else None
            time.sleep(0.05)
        expect(status == 0, f"exit status {status} after SIGTERM; stderr: {app.stderr()[-800:]}")
        expect(os.path.isfile(os.path.join(work, "config", PACKAGE, "settings.json")),
               "no settings.json in the test's XDG_CONFIG_HOME after SIGTERM")
        ok("SIGTERM: exit 0, settings saved in the test's own XDG_CONFIG_HOME")

        check_opened_files(strace_log, hidden)
    finally:
        if app is not None:
            kill_group(app.proc)
        kill_group(xvfb)


def check_opened_files(strace_log, hidden):
    opened = set()
    with open(strace_log, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r'open(?:at)?\((?:AT_FDCWD|\d+), "([^"]+)"', line)
            if m and "ENOENT" not in line:
                opened.add(m.group(1))
    names = {os.path.basename(f) for f in ASSET_FILES}
    assets = sorted(p for p in opened if os.path.basename(p) in names)
    # A run without --layout reads the shipped en layout and ja-kana (the globe key's default
    # layouts), not the others; the emoji data only once the emoji keyboard is first shown
    # (issue 34: not at start-up), which this run never does.
    lazy = "/usr/share/hee-keyboard/emoji/emoji.tsv"
    wanted = [f"/usr/share/hee-keyboard/{f}" for f in ASSET_FILES
              if not f.endswith(".txt") and (not f.startswith("layouts/") or f in ("layouts/en.json", "layouts/ja-kana.json"))
              and f"/usr/share/hee-keyboard/{f}" != lazy]
    missing = [p for p in wanted if p not in opened]
    expect(not missing, f"the installed program did not open {missing}; assets it opened: {assets}")
    expect(lazy not in opened, f"the emoji data {lazy} was read at start-up, before the emoji keyboard was shown")
    outside = [p for p in assets if not p.startswith("/usr/share/hee-keyboard/")]
    expect(not outside, f"assets opened from outside /usr/share/hee-keyboard: {outside}")
    elsewhere = sorted(p for p in opened if p.startswith(REPO_ROOT + "/") or (hidden and p.startswith(hidden + "/"))
                       or "libswift" in p)
    expect(not elsewhere, f"the installed program opened files in the source tree or the toolchain: {elsewhere}")
    ok(f"strace: fonts, laurel font (also the window icon's), clip and the en layout opened from /usr/share/hee-keyboard "
       f"({', '.join(os.path.basename(p) for p in wanted)}); nothing from the source tree, the toolchain or libswift")


def check_purged(paths):
    existing_before = [p for p in paths if os.path.lexists(p)]
    status, out = purge()
    expect(status == 0, f"apt-get purge {PACKAGE} failed ({status}):\n{tail(out)}")
    state = installed_status()
    expect(state in ("", "un", "pn"), f"after the purge, dpkg status is {state!r}")
    left_files = [p for p in existing_before if os.path.lexists(p) and not os.path.isdir(p)]
    expect(not left_files, f"apt-get purge left files of the package: {left_files}")
    left_dirs = [d for d in OWN_DIRECTORIES if os.path.lexists(d)]
    expect(not left_dirs, f"apt-get purge left the package's directories: {left_dirs}")
    info = [f for f in os.listdir("/var/lib/dpkg/info") if f.startswith(PACKAGE + ".") or f.startswith(PACKAGE + ":")]
    expect(not info, f"dpkg still has {info}")
    files = len([p for p in existing_before if not os.path.isdir(p)])
    ok(f"apt-get purge {PACKAGE}: none of its {files} files (dpkg -L before) and none of its own directories "
       f"left; dpkg status {state or 'unknown'}")


def check_install(deb, version, work):
    if os.geteuid() != 0:
        missing_tool("not root: the .deb is not installed and run (run `make deb-test` as root)")
        return
    if shutil.which("apt-get") is None:
        missing_tool("apt-get not found: the .deb is not installed")
        return
    with open(LOCK, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("# another run of this test has the package installed; waiting for it", flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        with Installed(deb) as installed:
            paths = package_paths()
            missing = [p for p in EXPECTED_FILES if p not in paths]
            expect(not missing, f"dpkg -L lacks {missing}")
            absent = [p for p in EXPECTED_FILES if not os.path.exists(p) and "/man/" not in p and "/doc/" not in p]
            expect(not absent, f"installed files missing on disk: {absent}")
            ok(f"dpkg -L {PACKAGE}: {len(paths)} paths, among them /usr/bin/{PACKAGE} and "
               f"/usr/share/hee-keyboard/…; the files are on disk")
            hidden = check_no_swift_version(version, work)
            check_live_run(version, hidden, work)
            check_purged(paths)
            installed.installed = False
            os.remove(MARKER)


def apt_mirror():
    """The Debian mirror this machine's apt uses (for debootstrap), else deb.debian.org."""
    paths = ["/etc/apt/sources.list"]
    if os.path.isdir("/etc/apt/sources.list.d"):
        paths += sorted(os.path.join("/etc/apt/sources.list.d", f) for f in os.listdir("/etc/apt/sources.list.d")
                        if f.endswith((".list", ".sources")))
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError:
            continue
        for uri in re.findall(r"^(?:deb\s+(?:\[[^\]]*\]\s+)?|URIs:\s*)(\S+)", text, re.M):
            if "security" not in uri and uri.startswith("http"):
                return uri
    return "http://deb.debian.org/debian"


def in_chroot(root, command, env=None, timeout=600):
    """`command` run by sh in the chroot `root`, with /proc mounted in a private mount namespace
    (the mount goes away with the namespace, whatever happens)."""
    setup = 'mount -t proc proc "$0/proc" && exec chroot "$0" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"'
    variables = [f"{k}={v}" for k, v in (env or {}).items()]
    return run(["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", setup, root, *variables,
                "sh", "-c", command], timeout=timeout)


def check_clean_machine(deb, version, work):
    """Step 7: the package on a Debian machine that has never seen Swift nor this project's
    build dependencies: a minimal debootstrap of this machine's release."""
    if os.environ.get("HEE_DEB_CLEAN_MACHINE") == "0" and not required():
        print("SKIP - HEE_DEB_CLEAN_MACHINE=0: the package is not tried on a fresh Debian", flush=True)
        return
    if os.geteuid() != 0 or shutil.which("debootstrap") is None or shutil.which("unshare") is None:
        missing_tool("debootstrap/unshare or root missing: the package is not tried on a fresh Debian "
                     "(apt-get install debootstrap, run as root)")
        return
    with open("/etc/os-release", encoding="utf-8") as f:
        suite = re.search(r"^VERSION_CODENAME=(\S+)", f.read(), re.M).group(1)
    root = os.path.join(work, "fresh-debian")
    mirror = apt_mirror()
    started = time.monotonic()
    status, out, err = run(["debootstrap", "--variant=minbase", suite, root, mirror], timeout=1500)
    expect(status == 0, f"debootstrap --variant=minbase {suite} {root} {mirror} failed ({status}):\n{tail(out + err)}")
    try:
        swift = [os.path.join(d, f) for d, _, files in os.walk(root) for f in files
                 if f.startswith("libswift") or f == "swift" or f == "swiftc"]
        expect(not swift, f"the fresh Debian has Swift files: {swift[:5]}")
        ok(f"debootstrap --variant=minbase {suite} from {mirror} ({time.monotonic() - started:.0f} s): "
           f"a Debian {suite} with no Swift and none of the build dependencies")

        shutil.copy(deb, os.path.join(root, "root"))
        name = os.path.basename(deb)
        started = time.monotonic()
        status, out, err = in_chroot(root, f"apt-get update -q && apt-get install -y -q /root/{name}",
                                     env={"DEBIAN_FRONTEND": "noninteractive"}, timeout=1500)
        expect(status == 0, f"apt-get install /root/{name} in the fresh Debian failed ({status}):\n{tail(out + err)}")
        summary = re.search(r"^(\d+) upgraded, (\d+) newly installed.*$", out, re.M)
        size = re.search(r"^Need to get ([^ ]+ [kMG]?B)", out, re.M)
        ok(f"apt-get install ./{name} there: {summary.group(2) if summary else '?'} packages newly installed "
           f"with Depends and Recommends, {size.group(1) if size else '?'} downloaded "
           f"({time.monotonic() - started:.0f} s)")

        status, out, err = in_chroot(root, f"ldd /usr/bin/{PACKAGE}")
        expect(status == 0 and "not found" not in out and "swift" not in out.lower(), f"ldd there:\n{out}{err}")
        with open(os.path.join(root, "root", "layout.jsonl"), "w", encoding="utf-8") as f:
            f.write('{"t":100,"type":"textinput","text":"x"}\n')
        env = {"HOME": "/root", "LANG": "ja_JP.UTF-8", "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "disk",
               "SDL_DISKAUDIOFILE": "/root/audio.raw"}
        command = f"/usr/bin/{PACKAGE} --replay /root/%s --exit-when-done --trace"
        status, out, err = in_chroot(root, command % "layout.jsonl", env=env, timeout=60)
        expect(status == 0, f"{PACKAGE} there: exit {status}; stderr {err[-800:]}")
        events = [json.loads(l) for l in out.splitlines() if l.strip()]
        layout = next((e for e in events if e.get("event") == "layout"), None)
        expect(layout, f"no layout event there: {out[-800:]}")
        rect = layout["keys"]["hee"]
        x, y = round(rect["x"] + rect["w"] / 2), round(rect["y"] + rect["h"] / 2)
        with open(os.path.join(root, "root", "hee.jsonl"), "w", encoding="utf-8") as f:
            f.write(f'{{"t":500,"type":"mousedown","x":{x},"y":{y}}}\n{{"t":600,"type":"mouseup","x":{x},"y":{y}}}\n'
                    f'{{"t":900,"type":"textinput","text":"."}}\n')
        status, out, err = in_chroot(root, command % "hee.jsonl", env=env, timeout=60)
        expect(status == 0, f"{PACKAGE} there: exit {status}; stderr {err[-800:]}")
        events = [json.loads(l) for l in out.splitlines() if l.strip()]
        kinds = {e.get("event"): e for e in events}
        expect([e["count"] for e in events if e.get("event") == "hee"] == [1], f"hee events there: {events}")
        expect([e["text"] for e in events if e.get("event") == "text"] == [HEE_TEXT, HEE_TEXT + "."],
               f"text events there: {[e for e in events if e.get('event') == 'text']}")
        expect(kinds.get("audio", {}).get("status") == "open" and kinds.get("sound", {}).get("name") == "hee",
               f"no sound there (SDL2_mixer not loaded?): audio {kinds.get('audio')}, sound {kinds.get('sound')}; "
               f"stderr {err[-800:]}")
        ok(f"the installed {PACKAGE} there (LANG=ja_JP.UTF-8, offscreen video, disk audio): a replayed click on "
           f"へぇ → hee count 1, text {HEE_TEXT!r}, audio open ({kinds['audio'].get('rate')} Hz, SDL2_mixer loaded), "
           f"sound hee; exit 0")
        status, out, err = in_chroot(root, f"apt-get purge -y -q {PACKAGE} && ! test -e /usr/share/{PACKAGE}",
                                     env={"DEBIAN_FRONTEND": "noninteractive"})
        expect(status == 0, f"apt-get purge there failed:\n{tail(out + err)}")
        ok(f"apt-get purge {PACKAGE} there")
    finally:
        with open("/proc/mounts", encoding="utf-8") as f:
            mounted = [line.split()[1] for line in f if line.split()[1].startswith(root)]
        if mounted:
            print(f"# {root} still has mounts {mounted}: left in place", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)


def main():
    def body(work):
        began = time.monotonic()
        for tool in ("make", "dpkg-deb", "readelf", "ldd"):
            if shutil.which(tool) is None:
                raise Prerequisite(f"{tool} not found")
        for tool in ("dpkg-buildpackage", "dh"):
            if shutil.which(tool) is None:
                missing_tool(f"{tool} not found (apt-get install dpkg-dev debhelper): no .deb built or tested")
                return
        version = app_version()
        deb = build_deb(version)
        check_fields(deb, version, work)
        check_lintian(deb)
        check_install(deb, version, work)
        check_clean_machine(deb, version, work)
        print(f"# all package tests passed in {time.monotonic() - began:.1f} s", flush=True)
    # SIGTERM, too, ends through the purge in check_install's `finally` (script_main).
    return script_main(body, prefix="hee-deb-")


if __name__ == "__main__":
    sys.exit(main())
