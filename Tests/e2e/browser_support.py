"""Real browsers as targets of system mode (issue 28): a page that reports its fields, and
launchers for Chromium and Firefox ESR on X11 or Wayland. Standard library only.

`PageServer` serves, on 127.0.0.1, one page with a `<textarea id="area">` and an
`<input id="line">`. The page POSTs a field's whole state (`value`, `selectionStart`,
`selectionEnd`, `focused`: the field and its window have the focus) back to the server on
every `input`, `keyup`, `select`, `focus`, `mousedown` and `mouseup` event of that field, and
every `keydown` (its `key` and `code`), so a test reads exactly what the field holds — no
debugging protocol, no screenshots — and where the fields are (`geometry`, on load and on
every resize). Reports travel on separate requests: `page` and `sequence` order them.
`?focus=area` (or `line`) focuses that field when the page has loaded, and the page says so
(a `focus` report).

`Chromium` and `Firefox` start the browser with a throwaway profile in a directory of the
caller's, showing the page (no first-run dialogs, no tabs bar in Chromium's app mode), on
X11 (`DISPLAY` in `env`) or, with `wayland=True`, natively on Wayland (`WAYLAND_DISPLAY` and
`XDG_RUNTIME_DIR` in `env`: `--ozone-platform=wayland`, `MOZ_ENABLE_WAYLAND=1`). Both run as
the caller (root here: Chromium needs `--no-sandbox` then, and says nothing about it with
`--test-type`). `popen` takes extra `subprocess.Popen` arguments (e.g. `user=`), for a
compositor whose socket only its own user may use, and `owner=(uid, gid)` gives the profile
to that user.

Start times on the 2-core test machine (Xvfb and openbox, from `Popen` to the page's `focus`
report, the machine shared with other builds): Chromium 1.1–2.4 s, Firefox ESR 3.7–5.4 s (13 s
beside two busy processes); `START_TIMEOUT` is only a safety net.
"""

import http.server
import json
import os
import shutil
import subprocess
import threading
import time
import urllib.parse

from e2e_support import Prerequisite, fail, kill_group

#: Seconds a browser may take from its start to the page's focus report (a safety net only).
START_TIMEOUT = 60.0

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
  body {{ margin: 8px; font: 16px sans-serif; }}
  textarea, input {{ display: block; width: 95%; margin: 6px 0; font: 16px monospace; }}
  textarea {{ height: 90px; }}
</style></head>
<body>
<textarea id="area" autocomplete="off" spellcheck="false"></textarea>
<input id="line" type="text" autocomplete="off" spellcheck="false">
<script>
  // Reports travel on separate requests and may arrive out of order: `sequence` orders
  // them, `page` tells one load of the page from the next.
  const page = Math.random().toString(36).slice(2);
  let sequence = 0;
  const fields = [document.getElementById("area"), document.getElementById("line")];
  function post(body) {{
    body.page = page;
    body.sequence = ++sequence;
    // keepalive: the report goes out even while the page is busy or leaving.
    fetch("/report", {{method: "POST", body: JSON.stringify(body), keepalive: true}});
  }}
  function report(field, kind, extra) {{
    post(Object.assign({{
      field: field.id, kind: kind, value: field.value,
      selectionStart: field.selectionStart, selectionEnd: field.selectionEnd,
      focused: document.activeElement === field && document.hasFocus(),
    }}, extra || {{}}));
  }}
  // Where the fields are in the window (CSS pixels = X pixels at zoom 1): Firefox says
  // where its content is on the screen (mozInnerScreenX/Y); for Chromium the browser's own
  // bars are what the outer size has beyond the inner one.
  function geometry() {{
    const rects = {{}};
    for (const field of fields) {{
      const r = field.getBoundingClientRect();
      rects[field.id] = {{x: r.left, y: r.top, w: r.width, h: r.height}};
    }}
    post({{kind: "geometry", fields: rects, outerWidth: window.outerWidth, outerHeight: window.outerHeight,
          innerWidth: window.innerWidth, innerHeight: window.innerHeight, ratio: window.devicePixelRatio,
          innerScreenX: window.mozInnerScreenX, innerScreenY: window.mozInnerScreenY}});
  }}
  for (const field of fields) {{
    for (const kind of ["input", "keyup", "select", "focus", "mousedown", "mouseup"]) {{
      field.addEventListener(kind, () => report(field, kind));
    }}
    field.addEventListener("keydown", (e) => report(field, "keydown", {{key: e.key, code: e.code}}));
  }}
  window.addEventListener("resize", geometry);
  window.addEventListener("load", () => {{
    geometry();
    const wanted = new URLSearchParams(location.search).get("focus");
    const field = wanted && document.getElementById(wanted);
    if (field) {{ field.focus(); report(field, "focus"); }}
  }});
</script>
</body></html>
"""


class PageServer:
    """The page and its reports, served on 127.0.0.1 for the duration of a `with` block.

    The port is the first free one of HEE_E2E_PORTS (`18400-18499`) when that is set, else
    one the kernel picks. `reports` holds every report in arrival order (dicts as the page
    sent them, plus `received`: `time.monotonic()`); `state(field)` is a field's latest."""

    def __init__(self, title="HeeKeyboard browser test"):
        self.title = title
        self.reports = []
        self.condition = threading.Condition()
        self.httpd = None
        self.thread = None

    def __enter__(self):
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = PAGE.format(title=server.title).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    report = json.loads(self.rfile.read(length).decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError):
                    report = None
                self.send_response(204)
                self.end_headers()
                if isinstance(report, dict):
                    report["received"] = time.monotonic()
                    with server.condition:
                        server.reports.append(report)
                        server.condition.notify_all()

            def log_message(self, *args):
                pass

        self.httpd = self._bind(Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    @staticmethod
    def _bind(handler):
        wanted = os.environ.get("HEE_E2E_PORTS")
        if not wanted:
            return http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        low, _, high = wanted.partition("-")
        for port in range(int(low), int(high or low) + 1):
            try:
                return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
            except OSError:
                continue
        raise Prerequisite(f"no free TCP port in HEE_E2E_PORTS={wanted}")

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def url(self, focus="area"):
        """The page's address, focusing `focus` (`area`, `line`) once loaded."""
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/?focus={urllib.parse.quote(focus)}"

    def mark(self):
        """The number of reports so far (a `since` for the waits)."""
        with self.condition:
            return len(self.reports)

    def wait_for(self, predicate, what, timeout=20.0, since=0):
        """The first report at or after index `since` for which `predicate` holds, waiting up
        to `timeout` seconds (a safety net) for it."""
        deadline = time.monotonic() + timeout
        index = since
        with self.condition:
            while True:
                while index < len(self.reports):
                    if predicate(self.reports[index]):
                        return self.reports[index]
                    index += 1
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    last = self.state_locked(None)
                    fail(f"timed out after {timeout} s waiting for {what} (the page's last report: {last})")
                self.condition.wait(remaining)

    def state_locked(self, field):
        """The latest report (by the page's sequence) of the page loaded last, of `field`
        (None: of any field)."""
        if not self.reports:
            return None
        page = self.reports[-1].get("page")
        mine = [r for r in self.reports if r.get("page") == page and (field is None or r.get("field") == field)]
        return max(mine, key=lambda r: r.get("sequence", 0)) if mine else None

    def state(self, field):
        """The latest report of `field` (`area`, `line`), or None."""
        with self.condition:
            return self.state_locked(field)

    def wait_value(self, field, value, what=None, timeout=20.0, since=0):
        """Waits until `field`'s latest value (by the page's sequence) is `value`, after a
        report from index `since` on; returns that latest report."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                latest = self.state_locked(field)
                if len(self.reports) > since and latest is not None and latest.get("value") == value:
                    return latest
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    got = latest.get("value") if latest else None
                    fail(f"timed out after {timeout} s waiting for {what or f'{field} to hold {value!r}'}: "
                         f"it holds {got!r}")
                self.condition.wait(remaining)

    def geometry(self, since=0, timeout=20.0):
        """The latest `geometry` report (fields' rectangles, window sizes) of the page loaded
        last, waiting up to `timeout` seconds for one from index `since` on."""
        self.wait_for(lambda r: r.get("kind") == "geometry", "the page's geometry", timeout, since)
        with self.condition:
            page = self.reports[-1].get("page")
            found = [r for r in self.reports[since:] if r.get("kind") == "geometry" and r.get("page") == page]
            return max(found, key=lambda r: r["sequence"]) if found else None

    def keydowns(self, since=0):
        """The `key` of every keydown reported from index `since` on."""
        with self.condition:
            return [r.get("key") for r in self.reports[since:] if r.get("kind") == "keydown"]


class Browser:
    """A browser process (its own process group) showing `url`, with its profile in
    `directory`. Subclasses say how to start one."""

    name = "browser"
    executable = None

    def __init__(self, url, env, directory, wayland=False, popen=None, log_name=None, owner=None):
        if shutil.which(self.executable) is None:
            raise Prerequisite(f"{self.executable} not found (scripts/install-deps.sh installs it)")
        self.directory = directory
        os.makedirs(directory, exist_ok=True)
        self.profile = os.path.join(directory, f"{self.name}-profile")
        shutil.rmtree(self.profile, ignore_errors=True)
        os.makedirs(self.profile)
        self.env = self.environment(dict(env), wayland)
        self.log_path = os.path.join(directory, f"{log_name or self.name}.log")
        args = self.command(url, wayland)
        if owner is not None:
            # The browser runs as another user (`popen={"user": …}`): its profile is theirs.
            for root, dirs, files in os.walk(self.profile):
                for name in [root] + [os.path.join(root, n) for n in dirs + files]:
                    os.chown(name, *owner)
        log = open(self.log_path, "wb")
        self.started = time.monotonic()
        self.proc = subprocess.Popen(args, env=self.env, stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True, cwd=directory,
                                     **(popen or {}))
        log.close()

    #: The server's report count when the browser started (set by `wait_ready`).
    since = 0

    def environment(self, env, wayland):
        # Nothing of the caller's home (Firefox keeps crash reports and telemetry there, shared
        # by every instance), and temporary files in the profile.
        env["HOME"] = self.profile
        env["TMPDIR"] = self.profile
        return env

    def command(self, url, wayland):
        raise NotImplementedError

    def wait_ready(self, server, field, since=0, timeout=START_TIMEOUT):
        """Waits for the page's report that `field` has the focus; returns the seconds since
        the start."""
        self.since = since
        server.wait_for(lambda r: r.get("field") == field and r.get("kind") == "focus",
                        f"{self.name} to load the page and focus #{field}", timeout, since)
        return time.monotonic() - self.started

    def window(self, xdo, title):
        """The browser's X window (xdotool id), found by the page's `title` (X11 only).
        `xdo(*args, check=)` runs xdotool; its search exits 1 while nothing matches (the
        browser still starting, as under load), which is no failure here."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            found = xdo("search", "--onlyvisible", "--name", "^" + title, check=False).split()
            if found:
                return found[-1]
            time.sleep(0.1)
        state = "running" if self.proc.poll() is None else f"exited with status {self.proc.returncode}"
        names = [xdo("getwindowname", w, check=False).strip()
                 for w in xdo("search", "--onlyvisible", "--name", ".", check=False).split()]
        fail(f"{self.name} ({state}): no window named {title!r} (visible windows: {names}); its log ends:\n"
             f"{self.log_tail()}")

    def click_field(self, server, xdo, field, title):
        """Clicks into `field` (`area`, `line`) with the pointer, as a user focuses it (X11,
        `xdo(*args)` runs xdotool and returns its output), and waits for the page to say the
        field has the focus. Returns the window."""
        window = self.window(xdo, title)
        geometry = server.geometry(self.since)
        if geometry is None:
            fail(f"{self.name}: no geometry report from the page loaded last")
        rect = geometry["fields"][field]
        x, y = rect["x"] + min(40, rect["w"] / 2), rect["y"] + rect["h"] / 2
        since = server.mark()
        if geometry.get("innerScreenX") is not None:
            xdo("mousemove", str(round(geometry["innerScreenX"] + x)), str(round(geometry["innerScreenY"] + y)), "click", "1")
        else:
            left = (geometry["outerWidth"] - geometry["innerWidth"]) / 2
            top = geometry["outerHeight"] - geometry["innerHeight"] - left
            xdo("mousemove", "--window", window, str(round(left + x)), str(round(top + y)), "click", "1")
        server.wait_for(lambda r: r.get("field") == field and r.get("kind") == "mousedown",
                        f"the click to land in {self.name}'s #{field}", since=since)
        server.wait_for(lambda r: r.get("field") == field and r.get("kind") == "mouseup" and r.get("focused"),
                        f"{self.name}'s #{field} (and its window) to have the focus after the click", since=since)
        return window

    def log_tail(self, lines=15):
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def close(self):
        kill_group(self.proc, grace=5)


class Chromium(Browser):
    """Debian's `chromium` in app mode (`--app`: the page alone, no tabs or address bar)."""

    name = "chromium"
    executable = "chromium"

    def command(self, url, wayland):
        return [self.executable, f"--user-data-dir={self.profile}", "--no-first-run", "--no-default-browser-check",
                # Root: no sandbox (namespaces need an unprivileged user); --test-type drops the
                # warning bar that would say so.
                "--no-sandbox", "--test-type",
                "--ozone-platform=" + ("wayland" if wayland else "x11"),
                "--disable-gpu", "--disable-dev-shm-usage", "--password-store=basic", "--use-mock-keychain",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication",
                "--no-pings", "--disable-default-apps", "--disable-extensions", "--mute-audio",
                "--window-position=0,0", "--window-size=800,400", f"--app={url}"]


    def close(self):
        # Its process-singleton socket lives in a directory of its own under /tmp (TMPDIR or
        # not), linked from the profile, and outlives a SIGTERM: removed with the browser.
        try:
            socket_dir = os.path.dirname(os.readlink(os.path.join(self.profile, "SingletonSocket")))
        except OSError:
            socket_dir = None
        super().close()
        if socket_dir and os.path.basename(socket_dir).startswith("org.chromium.Chromium."):
            shutil.rmtree(socket_dir, ignore_errors=True)


class Firefox(Browser):
    """Debian's `firefox-esr` with a fresh profile whose `user.js` turns off every first-run
    page, update and report."""

    name = "firefox"
    executable = "firefox-esr"

    PREFERENCES = {
        "browser.shell.checkDefaultBrowser": False,
        "browser.startup.homepage_override.mstone": "ignore",
        "browser.aboutwelcome.enabled": False,
        "browser.startup.firstrunSkipsHomepage": True,
        "startup.homepage_welcome_url": "",
        "startup.homepage_welcome_url.additional": "",
        "browser.tabs.warnOnClose": False,
        "browser.sessionstore.resume_from_crash": False,
        "browser.warnOnQuit": False,
        "datareporting.policy.dataSubmissionEnabled": False,
        "datareporting.policy.dataSubmissionPolicyBypassNotification": True,
        "datareporting.healthreport.uploadEnabled": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        "toolkit.startup.max_resumed_crashes": -1,
        "app.update.enabled": False,
        "app.normandy.enabled": False,
        "extensions.update.enabled": False,
        "browser.search.update": False,
        "browser.region.update.enabled": False,
        "network.captive-portal-service.enabled": False,
        "network.connectivity-service.enabled": False,
        "browser.safebrowsing.malware.enabled": False,
        "browser.safebrowsing.phishing.enabled": False,
        "browser.newtabpage.enabled": False,
        "browser.translations.enable": False,
        "signon.rememberSignons": False,
        "browser.formfill.enable": False,
        "media.autoplay.default": 5,
    }

    def environment(self, env, wayland):
        env = super().environment(env, wayland)
        env["MOZ_ENABLE_WAYLAND"] = "1" if wayland else "0"
        if not wayland:
            env["GDK_BACKEND"] = "x11"
        env.setdefault("MOZ_CRASHREPORTER_DISABLE", "1")
        return env

    def command(self, url, wayland):
        with open(os.path.join(self.profile, "user.js"), "w", encoding="utf-8") as f:
            for name, value in self.PREFERENCES.items():
                f.write(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n")
        return [self.executable, "--no-remote", "--new-instance", "--profile", self.profile,
                "--width", "800", "--height", "400", url]


BROWSERS = {"chromium": Chromium, "firefox": Firefox}
