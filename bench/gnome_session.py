"""A real GNOME Shell 43 session for tests and benchmarks: `gnome-shell --headless --wayland` on a virtual monitor,
with Xwayland, a private system bus and a session bus, and helpers that act like a user (start a window, focus
it, type into it).

Why each part (checked on Debian 12, see the module's tests in tests/test_gnome.py):
- the shell dies without a system bus (its LoginManager): a private `dbus-daemon` of type system, as root, whose
  policy lets every user in; no logind answers on it and the shell goes on without one;
- the shell refuses to run as root without logind, so it runs as an unprivileged user (`proactive-gnome`,
  created once with `useradd` like sway's user in `wayland_session.py`) with its own XDG_RUNTIME_DIR (0700) and
  HOME, and its session bus runs as that user too, with the standard service folders: the bus starts the AT-SPI
  bus and dconf itself, as in a real login. Its policy lets root in, so the test's clients (the watcher, the Qt
  form, foot) run as root and reach the compositor's sockets through absolute paths;
- no virtual-keyboard protocol: keys go through Mutter's RemoteDesktop D-Bus API (`MutterKeyboard`);
- focusing a window: `org.gnome.Shell.Eval`, which answers only in unsafe mode, turned on by a test-only
  extension (`UNSAFE_UUID`) enabled before the shell starts; never installed outside these tests;
- the shell opens the Overview at start (keys would land in its search box): closed through its property;
- Xwayland (started by Mutter at start unless `x11=False`): the watcher reads the clipboard through it. Its
  DISPLAY and XAUTHORITY (Mutter's cookie) are asked of the shell (Eval), as a real session's clients get them
  from the session.

`start_gnome()` returns the session and a function that stops everything; `GnomeSession.env` is the environment
for clients. `before_login` runs once the session bus answers and before the shell starts: what a person does
before logging in (`proactive gnome-extension install` takes effect at the next login on Wayland).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from bench.wayland_session import ClientSession, _stop, compositor_user, running, start_private_bus
from bench.xsession import wait_for

USER = "proactive-gnome"
TOOLS = ("gnome-shell", "dbus-daemon", "gsettings", "foot")
UNSAFE_UUID = "unsafe-mode@proactive-tests"
UNSAFE_EXTENSION = """\
// Test-only: lets org.gnome.Shell.Eval run the tests' focus calls. Never installed outside tests.
function init() {
    return {
        enable() { global.context.unsafe_mode = true; },
        disable() { global.context.unsafe_mode = false; },
    };
}
"""
#: X keysyms of the keys tests press by name (printable ASCII is its own keysym).
KEYSYMS = {"Tab": 0xFF09, "Return": 0xFF0D, "BackSpace": 0xFF08, "Escape": 0xFF1B, "End": 0xFF57,
           "Shift_L": 0xFFE1, "Control_L": 0xFFE3}


def missing_tools() -> list[str]:
    return [t for t in TOOLS if shutil.which(t) is None]


def keysym(char: str) -> int:
    """The X keysym of one typed character: Latin-1 is its code point, other Unicode 0x01000000 + code point."""
    if char == "\n":
        return KEYSYMS["Return"]
    if char == "\t":
        return KEYSYMS["Tab"]
    code = ord(char)
    return code if 0x20 <= code <= 0xFF else 0x01000000 + code


class ShellBus:
    """One connection to the session bus the shell is on (jeepney), kept open: Mutter's RemoteDesktop session
    lives as long as the connection that created it."""

    def __init__(self, address: str):
        from jeepney.io.blocking import open_dbus_connection

        self.conn = open_dbus_connection(bus=address)

    def call(self, destination: str, path: str, interface: str, method: str, signature: str | None = None,
             body: tuple[Any, ...] = (), timeout: float = 10) -> tuple[Any, ...]:
        from jeepney import DBusAddress, new_method_call
        from jeepney.wrappers import unwrap_msg

        address = DBusAddress(path, bus_name=destination, interface=interface)
        reply = self.conn.send_and_get_reply(new_method_call(address, method, signature, body), timeout=timeout)
        return tuple(unwrap_msg(reply))

    def close(self) -> None:
        self.conn.close()


class GnomeSession(ClientSession):
    """A running headless GNOME Shell and helpers that act like a user."""

    def __init__(self, env: dict[str, str], runtime: Path, home: Path, shell: subprocess.Popen, log: Path):
        super().__init__(env)
        self.runtime = runtime  # the shell's XDG_RUNTIME_DIR
        self.home = home  # the shell user's HOME
        self.shell = shell
        self.log = log
        self.bus = ShellBus(env["DBUS_SESSION_BUS_ADDRESS"])
        self._keyboard: str | None = None  # the RemoteDesktop session's object path, once started

    # -- asking the shell --------------------------------------------------------------------------------------

    def eval(self, script: str) -> Any:
        """Run JavaScript in the shell (unsafe mode, from the test-only extension); its value (the shell sends it
        as JSON; None for undefined)."""
        ok, result = self.bus.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval", "s", (script,))
        if not ok:
            raise AssertionError(f"Shell.Eval failed ({result!r}): is the unsafe-mode test extension enabled?")
        return json.loads(result) if result else None

    def windows(self) -> list[dict[str, Any]]:
        """The shell's normal windows: title, wm_class, focused."""
        script = ("global.get_window_actors().map(a => a.meta_window).filter(w => w.get_window_type() === 0)"
                  ".map(w => ({title: w.get_title(), wm_class: w.get_wm_class(), focused: w.has_focus()}))")
        return self.eval(script) or []

    def window(self, title: str) -> dict[str, Any] | None:
        return next((w for w in self.windows() if w["title"] == title), None)

    def focused_title(self) -> str | None:
        return next((w["title"] for w in self.windows() if w["focused"]), None)

    def xdisplay(self) -> dict[str, str]:
        """Xwayland's DISPLAY and XAUTHORITY (Mutter's cookie file) as the shell set them for its clients; {}
        without Xwayland."""
        found = self.eval("['DISPLAY', 'XAUTHORITY'].map(v => imports.gi.GLib.getenv(v) || '')")
        return dict(zip(("DISPLAY", "XAUTHORITY"), found, strict=True)) if found and found[0] else {}

    # -- acting like a user ------------------------------------------------------------------------------------

    def focus(self, title: str) -> None:
        """Activate the window titled `title`, as a click would, and wait until the shell says it has the focus."""
        script = (f"global.get_window_actors().map(a => a.meta_window).filter(w => w.get_title() === "
                  f"{json.dumps(title)}).forEach(w => w.activate(global.get_current_time()))")

        def focused() -> bool:
            self.eval(script)
            time.sleep(0.1)
            return self.focused_title() == title

        wait_for(focused, timeout=10, interval=0.2, what=f"focus on {title!r}")
        time.sleep(0.2)

    def _keys(self) -> str:
        """Mutter's RemoteDesktop session (created once): keys sent through it are real input to the shell."""
        if self._keyboard is None:
            (path,) = self.bus.call("org.gnome.Mutter.RemoteDesktop", "/org/gnome/Mutter/RemoteDesktop",
                                    "org.gnome.Mutter.RemoteDesktop", "CreateSession")
            self.bus.call("org.gnome.Mutter.RemoteDesktop", path, "org.gnome.Mutter.RemoteDesktop.Session", "Start")
            self._keyboard = path
        return self._keyboard

    def press(self, sym: int, pressed: bool) -> None:
        self.bus.call("org.gnome.Mutter.RemoteDesktop", self._keys(), "org.gnome.Mutter.RemoteDesktop.Session",
                      "NotifyKeyboardKeysym", "ub", (sym, pressed))

    def tap(self, sym: int, delay: float) -> None:
        self.press(sym, True)
        self.press(sym, False)
        time.sleep(delay)

    def type(self, text: str, delay_ms: int = 20) -> None:
        """Type `text` into the focused window. A Shift tap first: the first key after a focus change can be lost
        while the client gets its keymap."""
        self.tap(KEYSYMS["Shift_L"], 0.15)
        for char in text:
            self.tap(keysym(char), delay_ms / 1000)

    def key(self, name: str) -> None:
        """Press one named key ("Tab") or a chord ("Control_L+c")."""
        self.tap(KEYSYMS["Shift_L"], 0.15)
        *mods, last = name.split("+")
        for mod in mods:
            self.press(KEYSYMS[mod], True)
        self.tap(KEYSYMS.get(last) or keysym(last), 0.02)
        for mod in reversed(mods):
            self.press(KEYSYMS[mod], False)
        time.sleep(0.05)


def _install_test_extension(home: Path) -> None:
    folder = home / ".local/share/gnome-shell/extensions" / UNSAFE_UUID
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "metadata.json").write_text(json.dumps({"uuid": UNSAFE_UUID, "name": "Unsafe mode (tests only)",
                                                      "description": "Lets Shell.Eval run the tests' calls",
                                                      "shell-version": ["43"]}))
    (folder / "extension.js").write_text(UNSAFE_EXTENSION)


def _chown_tree(path: Path, owner: tuple[int, int] | None) -> None:
    if owner is None:
        return
    for folder, _dirs, files in os.walk(path):
        os.chown(folder, *owner)
        for name in files:
            os.chown(os.path.join(folder, name), *owner)


def install_extension(env: dict[str, str], home: Path) -> None:
    """What the person runs before logging in again (`start_gnome`'s `before_login`): the real
    `proactive gnome-extension install`, with the shell user's HOME."""
    user = dict(env, HOME=str(home), XDG_DATA_HOME=str(home / ".local/share"),
                XDG_CONFIG_HOME=str(home / ".config"))
    out = subprocess.run([sys.executable, "-m", "proactive.app.cli", "gnome-extension", "install"], env=user,
                         cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=60)
    if out.returncode != 0 or "next login" not in out.stdout:
        raise AssertionError(f"proactive gnome-extension install: {out.stdout}{out.stderr}")


def start_gnome(x11: bool = True, before_login: Callable[[dict[str, str], Path], None] | None = None
                ) -> tuple[GnomeSession, Callable[[], None]]:
    """Start the buses and headless GNOME Shell (as the unprivileged user when root). `before_login(env, home)`
    runs with the clients' environment once the session bus answers, before the shell starts (`home` is the
    shell user's HOME). Raises RuntimeError when the shell cannot start."""
    missing = missing_tools()
    if missing:
        raise RuntimeError(f"missing GNOME tools {missing}: install them with packaging/setup.sh test")
    owner = compositor_user(USER)
    base = Path(tempfile.mkdtemp(prefix="proactive-gnome-"))
    base.chmod(0o755)
    runtime, home, clients = base / "runtime", base / "home", base / "client-runtime"
    runtime.mkdir(mode=0o700)
    home.mkdir(mode=0o755)
    clients.mkdir(mode=0o700)
    _install_test_extension(home)
    _chown_tree(runtime, owner)
    _chown_tree(home, owner)
    user: dict[str, Any] = {} if owner is None else {"user": owner[0], "group": owner[1], "extra_groups": []}
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TZ")}
    system = base / "system"  # the private system bus's folder
    system.mkdir()
    system.chmod(0o755)  # reachable by the shell's user whatever the umask (mkdir's mode is masked by it)
    system_bus = f"unix:path={system / 'bus'}"
    session_bus = f"unix:path={runtime / 'bus'}"
    shell_env = dict(keep, HOME=str(home), XDG_RUNTIME_DIR=str(runtime), DBUS_SYSTEM_BUS_ADDRESS=system_bus,
                     DBUS_SESSION_BUS_ADDRESS=session_bus, XDG_CURRENT_DESKTOP="GNOME", XDG_SESSION_TYPE="wayland",
                     XDG_SESSION_DESKTOP="gnome", GSETTINGS_BACKEND="dconf")
    procs: list[subprocess.Popen] = []
    shell: subprocess.Popen | None = None
    session: GnomeSession | None = None

    def stop_all() -> None:
        if session is not None:
            session.close()
            session.bus.close()
        if shell is not None:
            _stop(shell)
        for proc in reversed(procs):
            _stop(proc)
        # what the session bus started as the shell's user (dconf, the AT-SPI bus) left its process group: end
        # the processes of that user whose environment names this session's runtime folder
        _stop_leftovers(runtime)
        _remove_stale_displays(owner[0] if owner else os.geteuid())
        shutil.rmtree(base, ignore_errors=True)

    try:
        procs.append(start_private_bus(system, keep, others=True, kind="system")[0])
        procs.append(start_private_bus(runtime, shell_env, others=True, services=True, user=user)[0])
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK",
                                                                 "HYPRLAND_INSTANCE_SIGNATURE")}
        env.update(WAYLAND_DISPLAY=str(runtime / "wayland-0"), XDG_RUNTIME_DIR=str(clients),
                   DBUS_SESSION_BUS_ADDRESS=session_bus, DBUS_SYSTEM_BUS_ADDRESS=system_bus,
                   XDG_CURRENT_DESKTOP="GNOME", XDG_SESSION_TYPE="wayland")
        settings = ["gsettings", "set", "org.gnome.shell", "enabled-extensions", json.dumps([UNSAFE_UUID])]
        subprocess.run(settings, env=shell_env, check=True, capture_output=True, timeout=30, **user)
        if before_login is not None:
            before_login(dict(env), home)
            _chown_tree(home, owner)
        log = base / "gnome-shell.log"
        args = ["gnome-shell", "--headless", "--wayland", "--virtual-monitor", "1280x800"]
        if not x11:
            args.append("--no-x11")
        with open(log, "wb") as log_file:
            shell = subprocess.Popen(args, env=shell_env, stdin=subprocess.DEVNULL, stdout=log_file,
                                     stderr=subprocess.STDOUT, start_new_session=True, cwd=home, **user)

        def ready() -> bool:
            if shell is not None and shell.poll() is not None:
                raise RuntimeError(f"gnome-shell exited with {shell.returncode}: "
                                   f"{log.read_text(errors='replace')[-2000:]}")
            return "GNOME Shell started" in log.read_text(errors="replace") and (runtime / "wayland-0").exists()

        wait_for(ready, timeout=60, what="GNOME Shell to start")
        session = GnomeSession(env, runtime, home, shell, log)
        session.bus.call("org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties", "Set", "ssv",
                         ("org.gnome.Shell", "OverviewActive", ("b", False)))
        wait_for(lambda: session.eval("Main.overview.visible") is False, timeout=10,
                 what="the Overview to close")
        if x11:
            env.update(wait_for(session.xdisplay, timeout=20, what="Xwayland's DISPLAY"))
    except BaseException:
        stop_all()
        raise
    return session, stop_all


def _stop_leftovers(runtime: Path) -> None:
    """End processes whose environment has XDG_RUNTIME_DIR=`runtime`: what this session's bus activated (dconf
    service, at-spi-bus-launcher and its bus), which live in their own process groups. Only this session's."""
    mark = f"XDG_RUNTIME_DIR={runtime}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if mark in (entry / "environ").read_bytes().split(b"\0"):
                os.kill(int(entry.name), 15)
        except OSError:
            continue


def _remove_stale_displays(uid: int) -> None:
    """Mutter leaves its X display locks and sockets (/tmp/.X<n>-lock, /tmp/.X11-unix/X<n>) when stopped: remove
    those of `uid` whose locking process is gone, so displays are not used up run after run."""
    for lock in Path("/tmp").glob(".X*-lock"):
        try:
            if lock.stat().st_uid != uid:
                continue
            pid = int(lock.read_text().strip() or 0)
            if pid and Path(f"/proc/{pid}").exists():
                continue
            number = lock.name[2:-5]
            lock.unlink()
            (Path("/tmp/.X11-unix") / f"X{number}").unlink(missing_ok=True)
        except (OSError, ValueError):
            continue


def gnome_session(x11: bool = True) -> AbstractContextManager[GnomeSession]:
    return running(start_gnome, x11)
