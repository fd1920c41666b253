"""A real KDE KWin session for tests and benchmarks: KWin 5.27's virtual backend (headless, no GPU), a private
system and session D-Bus and the AT-SPI bus, and helpers that act like a user (start a Qt window with a title,
focus a window, type, copy with wl-copy), like `bench/wayland_session.py` does for sway.

What KWin needs here (docs: /work/shared/recipes/wayland-desktops.md):
- `/usr/bin/kwin_wayland` carries the file capability cap_sys_resource, outside a container's bounding set, so
  `execve` fails with "Operation not permitted": a plain copy of the binary (no xattr) runs.
- KWin runs as the same user as the clients: as another user it hides `org_kde_kwin_fake_input` from them and
  cannot read a KWin script kept in the client's private folder. `start_kwin(user=...)` runs it as another user
  anyway, for the test of exactly that failure.
- No virtual-keyboard protocol (wtype fails): typing goes through `org_kde_kwin_fake_input.keyboard_key` with
  evdev key codes, from `FakeKeyboard`, a minimal Wayland client speaking the wire protocol (stdlib only, no
  compiler or binding needed).
- Windows are listed and focused by KWin scripts loaded over D-Bus (`org.kde.kwin.Scripting`) that call the
  harness back over D-Bus with their answer (`KWinSession.script`).

`start_kwin()` returns the session and a function that stops everything; `KWinSession.env` is the environment for
clients (WAYLAND_DISPLAY, XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS, XDG_CURRENT_DESKTOP=KDE; DISPLAY removed).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from itertools import count
from pathlib import Path
from typing import Any

from bench.wayland_session import ClientSession, _start_atspi, _stop, running, start_private_bus
from bench.xsession import wait_for

KWIN = "/usr/bin/kwin_wayland"
TOOLS = ("wl-copy", "wl-paste", "dbus-daemon")
QT_APP = Path(__file__).resolve().parent.parent / "tests" / "a11y_app.py"
HARNESS_IFACE = "org.proactive.Harness"

# -- typing: org_kde_kwin_fake_input over the Wayland wire protocol ---------------------------------------------

SHIFT = 42  # KEY_LEFTSHIFT
KEYS = {"Tab": 15, "Return": 28, "BackSpace": 14, "Escape": 1}
_ROWS = [  # evdev codes of a US keyboard: (first code, unshifted characters, shifted characters)
    (2, "1234567890-=", "!@#$%^&*()_+"),
    (16, "qwertyuiop[]", "QWERTYUIOP{}"),
    (30, "asdfghjkl;'`", 'ASDFGHJKL:"~'),
    (43, "\\zxcvbnm,./", "|ZXCVBNM<>?"),
]
CHARS: dict[str, tuple[int, bool]] = {" ": (57, False), "\t": (15, False), "\n": (28, False)}
for _first, _plain, _shifted in _ROWS:
    for _i, (_p, _s) in enumerate(zip(_plain, _shifted, strict=True)):
        CHARS[_p], CHARS[_s] = (_first + _i, False), (_first + _i, True)


def _wl_string(text: str) -> bytes:
    raw = text.encode() + b"\0"
    return struct.pack("=I", len(raw)) + raw + b"\0" * (-len(raw) % 4)


class FakeKeyboard:
    """Keys pressed through KWin's `org_kde_kwin_fake_input` (v4: request 0 authenticate, 10 keyboard_key), on
    its own Wayland connection: the registry is read until a sync's callback says every global was sent, the
    fake-input global is bound, and each key is a press and a release of an evdev code."""

    AUTHENTICATE, KEYBOARD_KEY = 0, 10

    def __init__(self, wayland_socket: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(5)
        self.sock.connect(wayland_socket)
        self.ids = count(2)
        registry, callback = next(self.ids), next(self.ids)
        self._send(1, 1, struct.pack("=I", registry))  # wl_display.get_registry
        self._send(1, 0, struct.pack("=I", callback))  # wl_display.sync
        name = version = None
        buffer = b""
        done = False
        while not done:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("KWin closed the Wayland connection")
            buffer += chunk
            while len(buffer) >= 8:
                sender, word = struct.unpack_from("=II", buffer)
                size, opcode = word >> 16, word & 0xFFFF
                if len(buffer) < size:
                    break
                body, buffer = buffer[8:size], buffer[size:]
                if sender == registry and opcode == 0:  # wl_registry.global(name, interface, version)
                    (length,) = struct.unpack_from("=I", body, 4)
                    interface = body[8:8 + length].rstrip(b"\0").decode()
                    if interface == "org_kde_kwin_fake_input":
                        name, version = struct.unpack_from("=I", body)[0], struct.unpack_from("=I", body, 8 + (
                            (length + 3) & ~3))[0]
                elif sender == callback and opcode == 0:
                    done = True
                elif sender == 1 and opcode == 0:
                    raise ConnectionError(f"Wayland protocol error: {body!r}")
        if name is None or version is None or version < 4:
            self.sock.close()
            raise RuntimeError(f"KWin offers no org_kde_kwin_fake_input v4 to this client (version {version}): "
                               "is KWin running as another user, or without KWIN_WAYLAND_NO_PERMISSION_CHECKS=1?")
        self.fake = next(self.ids)
        self._send(registry, 0, struct.pack("=I", name) + _wl_string("org_kde_kwin_fake_input")
                   + struct.pack("=II", 4, self.fake))  # wl_registry.bind(name, interface, version, new id)
        self._send(self.fake, self.AUTHENTICATE, _wl_string("proactive tests") + _wl_string("typing in tests"))

    def _send(self, obj: int, opcode: int, body: bytes) -> None:
        self.sock.sendall(struct.pack("=II", obj, ((8 + len(body)) << 16) | opcode) + body)

    def key(self, code: int, pressed: bool) -> None:
        self._send(self.fake, self.KEYBOARD_KEY, struct.pack("=II", code, 1 if pressed else 0))

    def tap(self, code: int, shift: bool = False, delay: float = 0.02) -> None:
        if shift:
            self.key(SHIFT, True)
        self.key(code, True)
        self.key(code, False)
        if shift:
            self.key(SHIFT, False)
        time.sleep(delay)

    def close(self) -> None:
        self.sock.close()


# -- the session --------------------------------------------------------------------------------------------------

# a KWin script's answer: `reply(value)` calls the harness back with the value as JSON
SCRIPT_PRELUDE = """
function reply(value) {
    callDBus(%(service)s, "/harness", "%(iface)s", "Reply", JSON.stringify(value));
}
function windowList() { return workspace.windowList !== undefined ? workspace.windowList() : workspace.clientList(); }
function activeWindow() {
    return workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient;
}
"""
LIST_WINDOWS = """
var out = [];
var windows = windowList();
for (var i = 0; i < windows.length; i++) {
    var w = windows[i];
    if (w.normalWindow) out.push({title: String(w.caption), pid: w.pid, app: String(w.resourceClass),
                                  active: w === activeWindow()});
}
reply(out);
"""
FOCUS = """
var windows = windowList();
var found = false;
for (var i = 0; i < windows.length; i++) {
    if (windows[i].normalWindow && String(windows[i].caption) === %(title)s) {
        if (workspace.activeWindow !== undefined) workspace.activeWindow = windows[i];
        else workspace.activeClient = windows[i];
        found = true;
    }
}
reply(found);
"""


class KWinSession(ClientSession):
    """A running headless KWin (plus its buses and the AT-SPI bus) and helpers that act like a user."""

    def __init__(self, env: dict[str, str], base: Path, kwin: subprocess.Popen, log: Path):
        super().__init__(env)
        self.base = base  # the harness's folder: scripts, logs, the runtime dirs
        self.kwin = kwin
        self.log = log
        self.scripts = count()
        self._keyboard: FakeKeyboard | None = None

    # -- asking KWin -----------------------------------------------------------------------------------------------

    def dbus(self, method: str, signature: str | None = None, body: tuple[Any, ...] = (),
             path: str = "/Scripting", interface: str = "org.kde.kwin.Scripting") -> tuple[Any, ...]:
        """One call to KWin on the session bus."""
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection
        from jeepney.wrappers import unwrap_msg

        with open_dbus_connection(bus=self.env["DBUS_SESSION_BUS_ADDRESS"]) as conn:
            reply = conn.send_and_get_reply(new_method_call(DBusAddress(path, "org.kde.KWin", interface), method,
                                                            signature, body), timeout=10)
        return tuple(unwrap_msg(reply))

    def script(self, body: str, timeout: float = 10) -> Any:
        """Run `body` as a KWin script and return what it passes to `reply(value)` (JSON). Raises AssertionError
        when KWin does not run it (a script KWin cannot read never runs and never answers)."""
        from jeepney import MatchRule, MessageType, new_method_return
        from jeepney.io.blocking import open_dbus_connection

        plugin = f"proactive-harness-{next(self.scripts)}"
        path = self.base / f"{plugin}.js"
        with open_dbus_connection(bus=self.env["DBUS_SESSION_BUS_ADDRESS"]) as conn:
            path.write_text(SCRIPT_PRELUDE % {"service": json.dumps(conn.unique_name), "iface": HARNESS_IFACE}
                            + body)
            path.chmod(0o644)
            rule = MatchRule(type=MessageType.method_call, interface=HARNESS_IFACE, member="Reply")
            try:
                with conn.filter(rule) as queue:
                    self.dbus("loadScript", "ss", (str(path), plugin))
                    self.dbus("start")
                    try:
                        msg = conn.recv_until_filtered(queue, timeout=timeout)
                    except TimeoutError:
                        raise AssertionError(f"the KWin script {plugin} did not answer within {timeout}s") from None
                    conn.send(new_method_return(msg))
            finally:
                self.dbus("unloadScript", "s", (plugin,))
                path.unlink(missing_ok=True)
        return json.loads(msg.body[0])

    def windows(self) -> list[dict[str, Any]]:
        """The normal windows: title, pid, app (resource class), active."""
        return self.script(LIST_WINDOWS)

    def window(self, title: str) -> dict[str, Any] | None:
        return next((w for w in self.windows() if w["title"] == title), None)

    def focused_title(self) -> str | None:
        return next((w["title"] for w in self.windows() if w["active"]), None)

    # -- acting like a user ----------------------------------------------------------------------------------------

    def start_window(self, title: str, accessible: bool = True) -> subprocess.Popen:
        """A real Qt window (tests/a11y_app.py: a text field, focused first, and a password field) titled `title`,
        on the accessibility bus when `accessible`, else a window no AT-SPI client sees; returns once KWin lists
        it."""
        env = dict(self.env, QT_QPA_PLATFORM="wayland")
        if accessible:
            env["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = "1"
        else:
            env["NO_AT_BRIDGE"] = "1"
            env.pop("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", None)
        proc = subprocess.Popen([sys.executable, str(QT_APP), title], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.procs.append(proc)
        self.wait_mapped(proc, title, "the Qt window", timeout=30, interval=0.3)
        return proc

    def focus(self, title: str) -> None:
        """Focus the window titled `title`, as a click would (a KWin script sets the active window), and wait
        until KWin says it has the focus."""

        def focused() -> bool:
            if not self.script(FOCUS % {"title": json.dumps(title)}):
                raise AssertionError(f"no window titled {title!r}: {[w['title'] for w in self.windows()]}")
            time.sleep(0.1)
            return self.focused_title() == title

        wait_for(focused, timeout=10, interval=0.2, what=f"focus on {title!r}")
        time.sleep(0.2)

    def keyboard(self) -> FakeKeyboard:
        if self._keyboard is None:
            self._keyboard = FakeKeyboard(self.env["WAYLAND_DISPLAY"])
            time.sleep(0.2)  # KWin adds the fake device to its seat; a key sent before that can be lost
        return self._keyboard

    def type(self, text: str, delay_ms: int = 20) -> None:
        """Type `text` into the focused window (US layout; Tab and newline included), `delay_ms` after each key
        (as the sway and GNOME harnesses take it)."""
        keyboard = self.keyboard()
        for char in text:
            if char not in CHARS:
                raise ValueError(f"no key for {char!r} on the harness's US keyboard")
            keyboard.tap(*CHARS[char], delay=delay_ms / 1000)

    def key(self, name: str) -> None:
        """Press and release one named key (Tab, Return, BackSpace, Escape)."""
        self.keyboard().tap(KEYS[name])

    def close(self) -> None:
        if self._keyboard is not None:
            self._keyboard.close()
            self._keyboard = None
        super().close()


def missing_tools() -> list[str]:
    return [t for t in (KWIN, *TOOLS) if shutil.which(t) is None]


def start_kwin(user: tuple[int, int] | None = None) -> tuple[KWinSession, Callable[[], None]]:
    """Start headless KWin (virtual backend, 1280x800), a private system and session D-Bus and the AT-SPI bus.
    KWin runs as the clients' user, unless `user` (uid, gid) names another (only for testing that failure).
    Raises RuntimeError when KWin is not installed or cannot start."""
    missing = missing_tools()
    if missing:
        raise RuntimeError(f"missing KWin tools {missing}: install kwin-wayland and wl-clipboard "
                           "(packaging/setup.sh test)")
    base = Path(tempfile.mkdtemp(prefix="proactive-kwin-"))
    base.chmod(0o755)
    runtime = base / "runtime"  # XDG_RUNTIME_DIR of KWin and the clients
    runtime.mkdir(mode=0o700)
    system = base / "system"  # the private system bus's folder
    system.mkdir()
    system.chmod(0o755)  # reachable by KWin's user whatever the umask (mkdir's mode is masked by it)
    kwin_bin = base / "kwin_wayland"
    shutil.copyfile(KWIN, kwin_bin)  # a plain copy: no file capability, so execve works in a container
    kwin_bin.chmod(0o755)
    kwin_home = base / "home"  # KWin writes its configuration there
    kwin_home.mkdir(mode=0o700)
    user_args: dict[str, Any] = {}
    if user is not None:
        os.chown(runtime, *user)
        os.chown(kwin_home, *user)
        user_args = {"user": user[0], "group": user[1], "extra_groups": []}
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK",
                                                             "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP",
                                                             "HYPRLAND_INSTANCE_SIGNATURE",
                                                             "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS")}
    env.update(XDG_RUNTIME_DIR=str(runtime), XDG_SESSION_TYPE="wayland", XDG_CURRENT_DESKTOP="KDE",
               KDE_FULL_SESSION="true")
    procs: list[subprocess.Popen] = []
    kwin: subprocess.Popen | None = None

    def stop_all() -> None:
        if kwin is not None:
            _stop(kwin)
        for proc in reversed(procs):
            _stop(proc)
        shutil.rmtree(base, ignore_errors=True)

    log = base / "kwin.log"
    try:
        system_bus, system_address = start_private_bus(system, env, others=user is not None)
        procs.append(system_bus)
        session_bus, session_address = start_private_bus(runtime, env, others=user is not None)
        procs.append(session_bus)
        env.update(DBUS_SYSTEM_BUS_ADDRESS=system_address, DBUS_SESSION_BUS_ADDRESS=session_address)
        kwin_env = {k: v for k, v in env.items() if k in ("PATH", "LANG", "LC_ALL", "TZ", "XDG_RUNTIME_DIR",
                                                          "DBUS_SYSTEM_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS",
                                                          "XDG_CURRENT_DESKTOP", "KDE_FULL_SESSION",
                                                          "XDG_SESSION_TYPE")}
        kwin_env.update(HOME=str(kwin_home), KWIN_WAYLAND_NO_PERMISSION_CHECKS="1", QT_QPA_PLATFORM="wayland")
        with open(log, "wb") as log_file:
            kwin = subprocess.Popen([str(kwin_bin), "--virtual", "--width", "1280", "--height", "800",
                                     "--no-lockscreen", "--socket", "wayland-0"], env=kwin_env,
                                    stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT,
                                    start_new_session=True, **user_args)
        wayland = runtime / "wayland-0"
        env["WAYLAND_DISPLAY"] = str(wayland)
        session = KWinSession(env, base, kwin, log)

        def ready() -> bool:
            assert kwin is not None
            if kwin.poll() is not None:
                raise RuntimeError(f"kwin_wayland exited with {kwin.returncode}: "
                                   f"{log.read_text(errors='replace')[-1500:]}")
            if not wayland.exists():
                return False
            try:
                session.dbus("Introspect", path="/Scripting", interface="org.freedesktop.DBus.Introspectable")
            except Exception:
                return False
            return True

        wait_for(ready, timeout=30, interval=0.2, what="KWin's Wayland socket and its scripting on D-Bus")
        atspi = _start_atspi(env)
        if atspi is not None:
            procs.append(atspi)
    except BaseException:
        stop_all()
        raise

    def stop() -> None:
        session.close()
        stop_all()

    return session, stop


def kwin_session() -> AbstractContextManager[KWinSession]:
    return running(start_kwin)
