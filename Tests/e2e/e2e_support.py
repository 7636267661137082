"""Helpers shared by the end-to-end test scripts in this directory: failures, progress
lines, process groups and a private Xvfb. Standard library only."""
import os
import select
import shutil
import signal
import subprocess
import time

class CheckFailed(Exception):
    pass


class Prerequisite(Exception):
    pass


def ok(message):
    print(f"ok - {message}", flush=True)


def fail(message):
    raise CheckFailed(message)


def required():
    """Whether every test tool must be there (CI): a missing one fails instead of skipping."""
    return os.environ.get("CI") == "true" or os.environ.get("HEE_E2E_REQUIRE") == "1"


def missing_tool(message):
    """A check whose tool is missing: skipped with a message on a developer's machine, a failure
    in CI (CI=true, or HEE_E2E_REQUIRE=1 as .ci/run sets), where scripts/install-deps.sh
    installs every tool."""
    if required():
        fail(f"{message}; CI must have it (scripts/install-deps.sh)")
    print(f"SKIP - {message}", flush=True)


def kill_group(proc, grace=2.0):
    """Ends a process started with start_new_session=True, and its whole group."""
    if proc is None:
        return
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # stragglers in the group, if any
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass


def wait_for_clipboard(env, expected, owner, timeout=10.0):
    """Waits until the X clipboard reads back `expected`: the `owner` process (xclip) has
    taken the selection. Reading it back is the proof; no fixed wait."""
    deadline = time.monotonic() + timeout
    while True:
        proc = subprocess.run(["xclip", "-o", "-selection", "clipboard"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env, timeout=timeout)
        got = proc.stdout.decode(errors="replace") if proc.returncode == 0 else None
        if got == expected:
            return
        if owner.poll() is not None:
            fail(f"xclip exited ({owner.returncode}) before it owned the clipboard")
        if time.monotonic() > deadline:
            fail(f"xclip did not take the clipboard within {timeout} s "
                 f"({'nothing' if got is None else f'{len(got)} characters'} read back)")
        time.sleep(0.05)


def start_xvfb(first=91, last=160, size="1280x1024x24"):
    """Starts Xvfb (screen `size`) on the first free display from :first; returns
    (process, ':N')."""
    if shutil.which("Xvfb") is None:
        raise Prerequisite("Xvfb not found (apt-get install xvfb)")
    for number in range(first, last + 1):
        if os.path.exists(f"/tmp/.X{number}-lock") or os.path.exists(f"/tmp/.X11-unix/X{number}"):
            continue
        read_fd, write_fd = os.pipe()
        proc = subprocess.Popen(
            ["Xvfb", f":{number}", "-screen", "0", size, "-nolisten", "tcp",
             "-displayfd", str(write_fd)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=(write_fd,),
            start_new_session=True)
        os.close(write_fd)
        ready = b""
        deadline = time.monotonic() + 10
        try:
            while time.monotonic() < deadline and proc.poll() is None:
                r, _, _ = select.select([read_fd], [], [], 0.1)
                if r:
                    chunk = os.read(read_fd, 64)
                    if not chunk:
                        break
                    ready += chunk
                    if ready.endswith(b"\n"):
                        break
        finally:
            os.close(read_fd)
        if ready.strip() and proc.poll() is None:
            return proc, f":{ready.strip().decode()}"
        kill_group(proc, grace=1)  # display taken meanwhile, or Xvfb failed: try the next one
    raise Prerequisite(f"could not start Xvfb on any display :{first}…:{last}")
