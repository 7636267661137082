"""Wayland helpers for the end-to-end tests: a headless sway run by an unprivileged user, its
IPC, a virtual pointer on its seat, and a proxy that plays a badly behaved compositor.
Standard library only.

- `Sway`: sway's headless backend (`WLR_BACKENDS=headless WLR_RENDERER=pixman
  WLR_LIBINPUT_NO_DEVICES=1`) with its own XDG_RUNTIME_DIR. sway refuses to run as root: as
  root it runs as the user `hee-wayland` (created once, idempotently, with useradd); as any
  other user, as that user. Clients (the app, grim, our pointer) reach its socket by its
  absolute path in WAYLAND_DISPLAY, which root may open whoever owns it.
- `VirtualPointer`: a Wayland client of our own holding a `zwlr_virtual_pointer_v1`, so the
  seat has a pointer and `swaymsg seat seat0 cursor ...` can move and click it. It speaks
  the Wayland wire protocol directly, from the protocols' published descriptions
  (wayland.xml; wlr-virtual-pointer-unstable-v1.xml).
- `SeatKeymaps`: a client of our own that records every keymap the seat hands out.
- `WaylandProxy`: sits between a client and sway, passing every message and file
  descriptor through, except that it can hide the `wl_seat` global (a compositor without
  input) or hold a keyboard's keymap back until after its first modifiers event (a
  compositor that sends modifiers before the keymap).
"""
import array
import json
import os
import pwd
import select
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time

from e2e_support import CheckFailed, Prerequisite, kill_group

SWAY_USER = "hee-wayland"


# --------------------------------------------------------------------------- wire format

def wl_string(text):
    """A Wayland `string` argument: length with the NUL, bytes, NUL, padded to 4."""
    data = text.encode() + b"\0"
    return struct.pack("=I", len(data)) + data + b"\0" * (-len(data) % 4)


def wl_message(object_id, opcode, payload=b""):
    """A message: object id, then size (16 high bits) and opcode (16 low bits)."""
    return struct.pack("=II", object_id, (8 + len(payload)) << 16 | opcode) + payload


def read_string(payload, offset):
    """The `string` argument at `offset`; returns (text, offset after it)."""
    (length,) = struct.unpack_from("=I", payload, offset)
    offset += 4
    text = payload[offset:offset + max(length - 1, 0)].decode(errors="replace")
    return text, offset + length + (-length % 4)


def split_messages(buffer):
    """Complete messages at the start of `buffer`: [(object, opcode, payload)], rest."""
    messages = []
    while len(buffer) >= 8:
        object_id, word = struct.unpack_from("=II", buffer, 0)
        size = word >> 16
        if size < 8 or len(buffer) < size:
            break
        messages.append((object_id, word & 0xFFFF, bytes(buffer[8:size])))
        buffer = buffer[size:]
    return messages, buffer


def recv_with_fds(sock, max_fds=16):
    """Bytes and the file descriptors that came with them (SCM_RIGHTS)."""
    fds = array.array("i")
    data, ancillary, _, _ = sock.recvmsg(65536, socket.CMSG_LEN(max_fds * fds.itemsize))
    for level, kind, blob in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(blob[:len(blob) - len(blob) % fds.itemsize])
    return data, list(fds)


def send_with_fds(sock, data, fds):
    if fds:
        sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
    else:
        sock.sendall(data)
    for fd in fds:
        os.close(fd)


# --------------------------------------------------------------------------- sway

def sway_account():
    """(uid, gid) that sway runs as: `hee-wayland` when we are root (created if missing),
    else ourselves."""
    if os.geteuid() != 0:
        return os.getuid(), os.getgid()
    try:
        entry = pwd.getpwnam(SWAY_USER)
    except KeyError:
        if shutil.which("useradd") is None:
            raise Prerequisite("useradd not found: cannot create the unprivileged user sway needs")
        proc = subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                               "--shell", "/usr/sbin/nologin", SWAY_USER],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        # Exit status 9: another test created it meanwhile.
        if proc.returncode not in (0, 9):
            raise Prerequisite(f"useradd {SWAY_USER} failed: {proc.stdout.decode(errors='replace').strip()}")
        entry = pwd.getpwnam(SWAY_USER)
    return entry.pw_uid, entry.pw_gid


class Sway:
    """A headless sway for the duration of a `with` block.

    `outputs`: {name: config line} for `HEADLESS-1`, `HEADLESS-2`, ... (more than one output
    is created with `create_output`). Floating windows without borders, so the app's window
    is exactly its own size."""

    def __init__(self, workdir, outputs):
        self.workdir = workdir
        self.outputs = outputs
        self.proc = None

    def __enter__(self):
        for tool in ("sway", "swaymsg", "grim"):
            if shutil.which(tool) is None:
                raise Prerequisite(f"{tool} not found (apt-get install sway grim)")
        uid, gid = sway_account()
        self.runtime = tempfile.mkdtemp(prefix="hee-sway-", dir=self.workdir)
        os.chmod(self.workdir, 0o755)
        os.chown(self.runtime, uid, gid)
        os.chmod(self.runtime, 0o700)
        config = os.path.join(self.workdir, "sway.conf")
        with open(config, "w") as f:
            f.write("default_border none\ndefault_floating_border none\n"
                    "for_window [app_id=\".*\"] floating enable\nfocus_follows_mouse no\n")
            for name, line in self.outputs.items():
                f.write(f"output {name} {line}\n")
        os.chmod(config, 0o644)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "XDG_RUNTIME_DIR": self.runtime, "HOME": self.runtime,
               "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
               "WLR_HEADLESS_OUTPUTS": str(len(self.outputs)), "LANG": "C.UTF-8"}
        self.log_path = os.path.join(self.workdir, "sway.log")
        log = open(self.log_path, "wb")
        kwargs = {"user": uid, "group": gid, "extra_groups": []} if os.geteuid() == 0 else {}
        self.proc = subprocess.Popen(["sway", "-c", config], env=env, cwd=self.runtime, stdin=subprocess.DEVNULL,
                                     stdout=log, stderr=log, start_new_session=True, **kwargs)
        log.close()
        deadline = time.monotonic() + 20
        self.socket = self.ipc_path = None
        while time.monotonic() < deadline and self.proc.poll() is None:
            names = os.listdir(self.runtime)
            sockets = [n for n in names if n.startswith("wayland-") and not n.endswith(".lock")]
            ipc = [n for n in names if n.startswith("sway-ipc.")]
            if sockets and ipc:
                self.socket = os.path.join(self.runtime, sockets[0])
                self.ipc_path = os.path.join(self.runtime, ipc[0])
                try:
                    if len(self.command_json("get_outputs")) >= len(self.outputs):
                        break
                except OSError:
                    pass
            time.sleep(0.05)
        else:
            self.__exit__(None, None, None)
            raise Prerequisite(f"sway did not start: {self.log_tail()}")
        return self

    def __exit__(self, *exc):
        kill_group(self.proc)

    def log_tail(self, n=15):
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return "(no sway log)"

    def client_env(self, base=None, **extra):
        """An environment that reaches this sway: WAYLAND_DISPLAY as an absolute path, no
        DISPLAY, a runtime directory of the caller's own."""
        env = {k: v for k, v in (base or os.environ).items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "SDL_VIDEODRIVER", "SWAYSOCK")}
        env["WAYLAND_DISPLAY"] = self.socket
        env["XDG_RUNTIME_DIR"] = os.path.join(self.workdir, "client-runtime")
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        env.update(extra)
        return env

    # i3/sway IPC: "i3-ipc", payload length, message type, payload (JSON).
    def _ipc(self, kind, payload=b""):
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(10)
            s.connect(self.ipc_path)
            s.sendall(b"i3-ipc" + struct.pack("=II", len(payload), kind) + payload)
            return self._read_reply(s)[1]

    @staticmethod
    def _read_reply(s):
        header = b""
        while len(header) < 14:
            chunk = s.recv(14 - len(header))
            if not chunk:
                raise OSError("sway closed its IPC socket")
            header += chunk
        length, kind = struct.unpack("=II", header[6:])
        body = b""
        while len(body) < length:
            chunk = s.recv(length - len(body))
            if not chunk:
                raise OSError("sway closed its IPC socket")
            body += chunk
        return kind, json.loads(body)

    def subscribe(self, events):
        """A socket subscribed to sway's `events` (e.g. ["window"]); read with `next_event`."""
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(20)
        s.connect(self.ipc_path)
        payload = json.dumps(events).encode()
        s.sendall(b"i3-ipc" + struct.pack("=II", len(payload), 2) + payload)
        if not self._read_reply(s)[1].get("success"):
            s.close()
            raise RuntimeError(f"sway refused the subscription to {events}")
        return s

    def next_event(self, subscription):
        """The next event on a `subscribe` socket (its JSON)."""
        return self._read_reply(subscription)[1]

    def command(self, text):
        """Runs sway commands (as swaymsg would); raises on a failed one."""
        results = self._ipc(0, text.encode())
        failed = [r for r in results if not r.get("success")]
        if failed:
            raise RuntimeError(f"swaymsg {text!r} failed: {failed}")

    def command_json(self, what):
        kinds = {"get_outputs": 3, "get_tree": 4, "get_seats": 101}
        return self._ipc(kinds[what])

    def windows(self):
        """Every view in the tree: dicts with app_id, pid, rect (layout coordinates), output."""
        found = []

        def walk(node, output):
            if node.get("type") == "output":
                output = node.get("name")
            if node.get("pid"):
                found.append(dict(node, output=output))
            for child in node.get("nodes", []) + node.get("floating_nodes", []):
                walk(child, output)
        walk(self.command_json("get_tree"), None)
        return found

    def wait_for_window(self, pid, timeout=20.0, alive=None):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if alive is not None and not alive():
                return None
            for w in self.windows():
                if w.get("pid") == pid:
                    return w
            time.sleep(0.05)
        return None

    def output(self, name):
        for o in self.command_json("get_outputs"):
            if o["name"] == name:
                return o
        raise KeyError(name)

    def screenshot(self, path, output):
        """grim's capture of `output` (physical pixels) as PNG at `path`."""
        proc = subprocess.run(["grim", "-o", output, path], env=self.client_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
        if proc.returncode != 0:
            raise RuntimeError(f"grim failed: {proc.stdout.decode(errors='replace').strip()}")


def run_each(scenarios, only_variable, run, after):
    """Runs `(name, function)` scenarios in order, each even if an earlier one failed: calls
    `run(function)`, then `after()` (the scenario's leftovers ended), and prints `# NAME:
    passed in S s` or `not ok - NAME: message (S s)`. `only_variable` names the environment
    variable that picks some by name (comma-separated). Returns how many failed."""
    only = [n for n in os.environ.get(only_variable, "").split(",") if n]
    failed = 0
    for name, scenario in scenarios:
        if only and name not in only:
            continue
        started = time.monotonic()
        try:
            try:
                run(scenario)
            finally:
                after()
            print(f"# {name}: passed in {time.monotonic() - started:.1f} s", flush=True)
        except CheckFailed as error:
            failed += 1
            print(f"not ok - {name}: {error} ({time.monotonic() - started:.1f} s)", flush=True)
    return failed


# --------------------------------------------------------------------------- virtual pointer

class VirtualPointer:
    """Holds a `zwlr_virtual_pointer_v1` on the seat while open (a pointer device for
    `swaymsg seat seat0 cursor ...`)."""

    DISPLAY, REGISTRY, SYNC = 1, 2, 3

    def __init__(self, socket_path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(socket_path)
        # wl_display.get_registry (opcode 1, new_id) and wl_display.sync (opcode 0, new_id).
        self.sock.sendall(wl_message(self.DISPLAY, 1, struct.pack("=I", self.REGISTRY))
                          + wl_message(self.DISPLAY, 0, struct.pack("=I", self.SYNC)))
        globals_, buffer, done = {}, b"", False
        while not done:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("the compositor closed the connection")
            messages, buffer = split_messages(buffer + chunk)
            for object_id, opcode, payload in messages:
                if object_id == self.REGISTRY and opcode == 0:      # wl_registry.global
                    (name,) = struct.unpack_from("=I", payload, 0)
                    interface, offset = read_string(payload, 4)
                    (version,) = struct.unpack_from("=I", payload, offset)
                    globals_[interface] = (name, version)
                elif object_id == self.DISPLAY and opcode == 0:     # wl_display.error
                    raise RuntimeError(f"protocol error: {payload!r}")
                elif object_id == self.SYNC and opcode == 0:        # wl_callback.done
                    done = True
        if "zwlr_virtual_pointer_manager_v1" not in globals_ or "wl_seat" not in globals_:
            raise RuntimeError(f"the compositor lacks a seat or zwlr_virtual_pointer_manager_v1: {sorted(globals_)}")
        seat, manager, pointer = 4, 5, 6

        def bind(interface, new_id, version):
            name, offered = globals_[interface]
            return wl_message(self.REGISTRY, 0, struct.pack("=I", name) + wl_string(interface)
                              + struct.pack("=II", min(version, offered), new_id))
        # wl_registry.bind the seat and the manager, then
        # zwlr_virtual_pointer_manager_v1.create_virtual_pointer(seat, new_id) (opcode 0).
        self.sock.sendall(bind("wl_seat", seat, 1) + bind("zwlr_virtual_pointer_manager_v1", manager, 1)
                          + wl_message(manager, 0, struct.pack("=II", seat, pointer)))
        self.pointer = pointer
        self.next_id = pointer + 1
        self.synced = {}
        self.running = True
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self):
        # The compositor's events to us (seat capabilities, delete_id) are read and dropped,
        # so its buffer towards us never fills; wl_callback.done of `move_to`'s syncs is noted.
        buffer = b""
        while self.running:
            try:
                r, _, _ = select.select([self.sock], [], [], 0.2)
                if not r:
                    continue
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                messages, buffer = split_messages(buffer + chunk)
                for object_id, opcode, _payload in messages:
                    if object_id in self.synced and opcode == 0:
                        self.synced[object_id].set()
            except (OSError, ValueError):
                return

    def move_to(self, x, y, width, height, timeout=10.0):
        """Moves the pointer to (`x`, `y`) of a `width` × `height` layout as a real pointer moves
        (motion events also while a button is held, which sway's `cursor set` defers until the
        release) and returns once sway has handled it (a wl_display.sync answered)."""
        callback = self.next_id
        self.next_id += 1
        done = self.synced[callback] = threading.Event()
        # motion_absolute (opcode 1: time, x, y, x_extent, y_extent), frame (4), sync.
        self.sock.sendall(wl_message(self.pointer, 1, struct.pack("=IIIII", 0, round(x), round(y), width, height))
                          + wl_message(self.pointer, 4) + wl_message(self.DISPLAY, 0, struct.pack("=I", callback)))
        if not done.wait(timeout):
            raise RuntimeError("sway did not answer the virtual pointer's sync")

    def button(self, pressed, code=0x110):
        """Presses or releases a button (BTN_LEFT unless `code`) at once, without waiting for
        sway: button (opcode 2: time, button, state) and frame (4) in one write. Returns
        the monotonic time just before the write (the click's sending moment)."""
        message = (wl_message(self.pointer, 2, struct.pack("=III", 0, code, 1 if pressed else 0))
                   + wl_message(self.pointer, 4))
        sent = time.monotonic()
        self.sock.sendall(message)
        return sent

    def sync(self, timeout=10.0):
        """Returns once sway has handled everything sent so far (a wl_display.sync answered)."""
        callback = self.next_id
        self.next_id += 1
        done = self.synced[callback] = threading.Event()
        self.sock.sendall(wl_message(self.DISPLAY, 0, struct.pack("=I", callback)))
        if not done.wait(timeout):
            raise RuntimeError("sway did not answer the virtual pointer's sync")

    def close(self):
        self.running = False
        self.sock.close()


class KeyboardHolder:
    """A virtual keyboard (`wtype` sleeping) kept on the seat while open.

    sway's seat has no keyboard of its own here (no input devices): each `wtype` brings one
    and takes it away when it ends, and a client only creates its `wl_keyboard` once it has
    handled the seat's new capability, so keys sent before that (by a busy client) are lost.
    With a keyboard held on the seat from before the client starts, the client has its
    `wl_keyboard` from its first roundtrips on, and every later `wtype` only adds keys."""

    def __init__(self, sway, timeout=20.0):
        before = self.devices(sway)
        self.proc = subprocess.Popen(["wtype", "-s", "3600000"], env=sway.client_env(), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while self.devices(sway) <= before:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"wtype's virtual keyboard did not appear on the seat (status {self.proc.poll()})")
            time.sleep(0.05)

    @staticmethod
    def devices(sway):
        """The number of keyboards on seat0."""
        seats = [s for s in sway.command_json("get_seats") if s.get("name") == "seat0"]
        return sum(1 for d in (seats[0].get("devices", []) if seats else []) if "keyboard" in d.get("identifier", ""))

    def close(self):
        kill_group(self.proc)


class SeatKeymaps:
    """Every keymap the seat gives its clients (`wl_keyboard.keymap`, XKB text), recorded by
    a Wayland client of our own while open: the active keyboard's when it changes, and a
    keyboard's new one when the compositor changes it. `keymaps` holds them in order."""

    DISPLAY, REGISTRY, SYNC, SEAT, KEYBOARD = 1, 2, 3, 4, 5

    def __init__(self, socket_path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(socket_path)
        self.keymaps = []
        self.condition = threading.Condition()
        self.buffer, self.fds, self.keyboard = b"", [], False
        self.sock.sendall(wl_message(self.DISPLAY, 1, struct.pack("=I", self.REGISTRY))
                          + wl_message(self.DISPLAY, 0, struct.pack("=I", self.SYNC)))
        self.running = True
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while self.running:
            try:
                r, _, _ = select.select([self.sock], [], [], 0.2)
                if not r:
                    continue
                data, fds = recv_with_fds(self.sock)
                if not data:
                    return
            except (OSError, ValueError):
                return
            self.fds += fds
            messages, self.buffer = split_messages(self.buffer + data)
            for object_id, opcode, payload in messages:
                self._handle(object_id, opcode, payload)

    def _handle(self, object_id, opcode, payload):
        if object_id == self.REGISTRY and opcode == 0:          # wl_registry.global
            (name,) = struct.unpack_from("=I", payload, 0)
            interface, _ = read_string(payload, 4)
            if interface == "wl_seat":
                self.sock.sendall(wl_message(self.REGISTRY, 0, struct.pack("=I", name) + wl_string("wl_seat")
                                             + struct.pack("=II", 5, self.SEAT)))
        elif object_id == self.SEAT and opcode == 0:            # wl_seat.capabilities
            if struct.unpack_from("=I", payload)[0] & 2 and not self.keyboard:
                self.keyboard = True
                self.sock.sendall(wl_message(self.SEAT, 1, struct.pack("=I", self.KEYBOARD)))  # get_keyboard
        elif object_id == self.KEYBOARD and opcode == 0:        # wl_keyboard.keymap(format, fd, size)
            _, size = struct.unpack_from("=II", payload, 0)
            fd = self.fds.pop(0)
            try:
                data = os.pread(fd, size, 0)
            finally:
                os.close(fd)
            with self.condition:
                self.keymaps.append(data.split(b"\0")[0].decode(errors="replace"))
                self.condition.notify_all()

    def wait_for(self, predicate, what, timeout=20.0):
        """The first keymap recorded for which `predicate(text)` holds, waiting up to
        `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                found = next((k for k in self.keymaps if predicate(k)), None)
                if found is not None:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise RuntimeError(f"timed out after {timeout} s waiting for {what}")
                self.condition.wait(remaining)

    def close(self):
        self.running = False
        self.sock.close()


# --------------------------------------------------------------------------- proxy

class WaylandProxy:
    """A Wayland socket at `path` that forwards each client to `upstream`.

    mode "no_seat": the `wl_seat` global is not announced (a compositor without input).
    mode "late_keymap": the first keyboard's keymaps are held back until its first key event
    has been delivered (a compositor that sends modifiers and a key before the keymap); later
    keyboards are left alone."""

    def __init__(self, path, upstream, mode):
        self.path, self.upstream, self.mode = path, upstream, mode
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(4)
        self.running = True
        self.held_keymaps = 0     # keymaps delivered after their keyboard's first events
        self.holding = 0          # keymaps held back now
        self.hidden_seats = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self.running = False
        self.listener.close()

    def _accept(self):
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.connect(self.upstream)
            Session(self, client, server)


class Session:
    """One client connection through a `WaylandProxy`."""

    def __init__(self, proxy, client, server):
        self.proxy, self.client, self.server = proxy, client, server
        self.registries, self.seats, self.keyboards = set(), set(), set()
        self.all_keyboards = set()  # every wl_keyboard: their keymap events carry the fds we see
        self.seat_names = set()
        self.held = {}            # keyboard id -> [(message bytes, fds)] of its keymaps
        self.lock = threading.Lock()
        threading.Thread(target=self._pump, args=(client, server, self._from_client), daemon=True).start()
        threading.Thread(target=self._pump, args=(server, client, self._from_server), daemon=True).start()

    def _pump(self, source, target, handle):
        buffer, fds = b"", []
        try:
            while True:
                data, new_fds = recv_with_fds(source)
                if not data:
                    break
                fds += new_fds
                messages, buffer = split_messages(buffer + data)
                for message in messages:
                    out, fds = handle(message, fds)
                    for chunk, chunk_fds in out:
                        send_with_fds(target, chunk, chunk_fds)
        except OSError:
            pass
        for s in (source, target):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _from_client(self, message, fds):
        object_id, opcode, payload = message
        with self.lock:
            if object_id == 1 and opcode == 1:                      # wl_display.get_registry
                self.registries.add(struct.unpack_from("=I", payload)[0])
            elif object_id in self.registries and opcode == 0:      # wl_registry.bind
                (name,) = struct.unpack_from("=I", payload, 0)
                interface, offset = read_string(payload, 4)
                if interface == "wl_seat":
                    self.seats.add(struct.unpack_from("=I", payload, offset + 4)[0])
            elif object_id in self.seats and opcode == 1:           # wl_seat.get_keyboard
                self.keyboards.add(struct.unpack_from("=I", payload)[0])
                self.all_keyboards.add(struct.unpack_from("=I", payload)[0])
        # Requests are passed on whole, with every descriptor that came with them.
        return [(wl_message(object_id, opcode, payload), fds)], []

    def _from_server(self, message, fds):
        object_id, opcode, payload = message
        raw = wl_message(object_id, opcode, payload)
        with self.lock:
            if self.proxy.mode == "no_seat" and object_id in self.registries and opcode == 0:
                interface, _ = read_string(payload, 4)
                if interface == "wl_seat":
                    self.proxy.hidden_seats += 1
                    return [], fds
            if self.proxy.mode == "late_keymap":
                # Descriptors go with the message that carries them (a keymap held back must
                # keep its own; passed on early with another message, the client would give it
                # to the next keymap): the only events with one here are keyboards' keymaps.
                if object_id in self.all_keyboards and opcode == 0 and object_id not in self.keyboards:
                    return [(raw, fds[:1])], fds[1:]
                if object_id not in self.keyboards:
                    return [(raw, [])], fds
            if self.proxy.mode == "late_keymap" and object_id in self.keyboards:
                # wl_keyboard.keymap (with its fd): every keymap of the first keyboard, until
                # its first key (a keyboard that switches keymaps sends one before its keys).
                if opcode == 0 and (object_id in self.held or (not self.held and self.proxy.held_keymaps == 0)):
                    self.held.setdefault(object_id, []).append((raw, fds[:1]))
                    self.proxy.holding += 1
                    return [], fds[1:]
                if opcode == 3 and object_id in self.held:          # wl_keyboard.key
                    keymaps = self.held.pop(object_id)
                    self.keyboards.discard(object_id)               # later keymaps pass
                    self.proxy.held_keymaps += len(keymaps)
                    self.proxy.holding = 0
                    return [(raw, [])] + keymaps, fds
                if opcode == 0:
                    return [(raw, fds[:1])], fds[1:]
                return [(raw, [])], fds
        return [(raw, fds)], []
