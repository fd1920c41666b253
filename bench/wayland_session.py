"""A real Wayland session for tests and benchmarks: headless sway, a private session D-Bus and the AT-SPI bus, and helpers that
act like a user (start `foot -T TITLE`, focus a window, type with wtype, copy with wl-copy).

sway refuses to run as root, so when the tests run as root the compositor runs as an unprivileged user
(`proactive-sway`, created once with `useradd` when missing) with its own XDG_RUNTIME_DIR (mode 0700, owned by
it). Root clients reach its sockets anyway (root passes the directory's permission check), so everything else
(foot, wtype, wl-copy, the watcher) runs as the test's own user with its own runtime dir, and finds the
compositor through absolute paths: WAYLAND_DISPLAY=/…/wayland-1 and SWAYSOCK=/…/sway-ipc.….sock. Run as a normal
user, sway simply runs as that user.

`start_wayland()` returns the session and a function that stops everything; `WaylandSession.env` is the
environment for clients (WAYLAND_DISPLAY, SWAYSOCK, XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS, and DISPLAY
removed unless asked for).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

from bench.xsession import wait_for

S = TypeVar("S")

USER = "proactive-sway"
TOOLS = ("sway", "swaymsg", "foot", "wtype", "wl-copy", "wl-paste", "dbus-daemon")
ATSPI_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
SWAY_CONFIG = """\
xwayland disable
output HEADLESS-1 resolution 1280x800
default_border normal
focus_on_window_activation focus
"""


def missing_tools() -> list[str]:
    return [t for t in TOOLS if shutil.which(t) is None]


def compositor_user(name: str = USER) -> tuple[int, int] | None:
    """(uid, gid) to run a compositor as: the unprivileged test user `name` when we are root (created when
    missing), else None (it runs as us). sway refuses root; GNOME Shell needs logind to run as root."""
    if os.geteuid() != 0:
        return None
    import pwd

    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "-M", "-r", "-s", "/usr/sbin/nologin", name], check=True, capture_output=True)
        entry = pwd.getpwnam(name)
    return entry.pw_uid, entry.pw_gid


class ClientSession:
    """What acting like a user needs on any Wayland compositor (sway here, KWin in bench/kwin_session.py, GNOME
    Shell in bench/gnome_session.py): the clients' environment, the programs a test started (stopped by close()),
    a terminal (foot), and the clipboard through wl-copy and wl-paste (data-control: sway and KWin offer it,
    Mutter does not). A subclass says which windows the compositor lists (`window`)."""

    def __init__(self, env: dict[str, str]):
        self.env = env
        self.procs: list[subprocess.Popen] = []

    def window(self, title: str) -> dict[str, Any] | None:
        raise NotImplementedError

    def spawn(self, args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
        proc = subprocess.Popen(args, env=env or self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, start_new_session=True)
        self.procs.append(proc)
        return proc

    def wait_mapped(self, proc: subprocess.Popen, title: str, what: str, timeout: float = 20,
                    interval: float = 0.1) -> dict[str, Any]:
        """The compositor's window titled `title` once it lists it; `proc` exiting first fails with its stderr."""

        def mapped() -> dict[str, Any] | None:
            if proc.poll() is not None:
                err = proc.stderr.read() if proc.stderr else ""
                err = err.decode(errors="replace") if isinstance(err, bytes) else err
                raise AssertionError(f"{what} exited with {proc.returncode}: {err[-500:]}")
            return self.window(title)

        return wait_for(mapped, timeout=timeout, interval=interval, what=f"{what} window {title!r}")

    def start_foot(self, title: str, command: list[str] | None = None) -> dict[str, Any]:
        """A real foot terminal with a fixed title (running `cat`, so no shell prompt rewrites the title; foot
        publishes nothing on the accessibility bus); returns its window once mapped."""
        return self.wait_mapped(self.spawn(["foot", "-T", title, *(command or ["cat"])]), title, "foot")

    def copy(self, text: str) -> None:
        """Put text on the clipboard like an application would: wl-copy stays in the foreground as its owner
        (stopped by close())."""
        self.spawn(["wl-copy", "--foreground", "--", text])
        wait_for(lambda: self.paste() == text, timeout=10, what="the copy on the clipboard")

    def paste(self) -> str:
        out = subprocess.run(["wl-paste", "--no-newline"], env=self.env, capture_output=True, timeout=10)
        return out.stdout.decode("utf-8", "replace")

    def close(self) -> None:
        """Stop what a test started (the compositor keeps running)."""
        for proc in self.procs:
            _stop(proc)
        self.procs.clear()


class WaylandSession(ClientSession):
    """A running headless sway (plus session D-Bus and AT-SPI bus) and helpers that act like a user."""

    def __init__(self, env: dict[str, str], runtime: Path, sway: subprocess.Popen):
        super().__init__(env)
        self.runtime = runtime  # the compositor's XDG_RUNTIME_DIR
        self.sway = sway

    # -- asking sway -------------------------------------------------------------------------------------------

    def swaymsg(self, *args: str, timeout: float = 10) -> str:
        out = subprocess.run(["swaymsg", "-s", self.env["SWAYSOCK"], *args], env=self.env, capture_output=True,
                             text=True, timeout=timeout)
        if out.returncode != 0:
            raise AssertionError(f"swaymsg {' '.join(args)} failed: {out.stderr.strip() or out.stdout.strip()}")
        return out.stdout

    def tree(self) -> dict[str, Any]:
        return json.loads(self.swaymsg("-t", "get_tree", "-r"))

    def windows(self) -> list[dict[str, Any]]:
        found, stack = [], [self.tree()]
        while stack:
            node = stack.pop()
            if node.get("type") in ("con", "floating_con") and node.get("pid"):
                found.append(node)
            stack.extend(node.get("nodes", []) + node.get("floating_nodes", []))
        return found

    def window(self, title: str) -> dict[str, Any] | None:
        return next((w for w in self.windows() if w.get("name") == title), None)

    def focused_title(self) -> str | None:
        return next((w.get("name") for w in self.windows() if w.get("focused")), None)

    # -- acting like a user ------------------------------------------------------------------------------------

    def focus(self, title: str) -> None:
        """Focus the window titled `title`, as a click would, and wait until sway says it has the focus."""

        def focused() -> bool:
            self.swaymsg(f'[title="^{re.escape(title)}$"] focus')
            time.sleep(0.1)
            return self.focused_title() == title

        wait_for(focused, timeout=10, interval=0.2, what=f"focus on {title!r}")
        time.sleep(0.2)

    def type(self, text: str, delay_ms: int = 20) -> None:
        """Type into the focused window through the virtual-keyboard protocol."""
        # -s 150: wait before the first key, which is otherwise sometimes lost while the compositor hands the
        # virtual keyboard's new keymap to the client (seen with foot on sway 1.7)
        out = subprocess.run(["wtype", "-s", "150", "-d", str(delay_ms), "--", text], env=self.env,
                             capture_output=True, text=True, timeout=60 + len(text) * delay_ms / 1000)
        if out.returncode != 0:
            raise AssertionError(f"wtype failed: {out.stderr.strip()}")

    def key(self, name: str) -> None:
        out = subprocess.run(["wtype", "-s", "150", "-k", name], env=self.env, capture_output=True, text=True, timeout=10)
        if out.returncode != 0:
            raise AssertionError(f"wtype -k {name} failed: {out.stderr.strip()}")


def _stop(proc: subprocess.Popen, timeout: float = 5) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except OSError:
        proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=timeout)


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>{kind}</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>{services}
  <policy context="default">{allow_users}
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


def start_private_bus(folder: Path, env: dict[str, str], others: bool = False, kind: str = "session",
                      services: bool = False, user: dict[str, Any] | None = None) -> tuple[subprocess.Popen, str]:
    """A private bus (`kind`: session or system) listening on `folder/bus` (also the keyring and notification
    tests' bus). Without `services` no service files are given to it, so nothing is ever activated on it (no
    keyring daemon, nothing of the developer's): whatever answers on it was started by the caller; with them, the
    standard session services are (GNOME Shell's session: dconf, the AT-SPI bus). Only its own user may connect,
    unless `others` (a compositor run as another user). `user`: Popen's user/group arguments, to run the daemon
    as that user."""
    config = folder / "bus.conf"
    config.write_text(BUS_CONFIG.format(kind=kind, socket=folder / "bus",
                                        services="\n  <standard_session_servicedirs/>" if services else "",
                                        allow_users='\n    <allow user="*"/>' if others else ""))
    config.chmod(0o644)  # readable by a daemon run as another user
    proc = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            **(user or {}))
    assert proc.stdout is not None
    address = proc.stdout.readline().strip()
    if not address:
        raise RuntimeError(f"dbus-daemon failed: {proc.stderr.read()[-500:] if proc.stderr else ''}")
    return proc, address


def _start_atspi(env: dict[str, str]) -> subprocess.Popen | None:
    """The AT-SPI bus launcher on the session bus; returns once org.a11y.Bus answers (None when not installed)."""
    if not Path(ATSPI_LAUNCHER).exists():
        return None
    proc = subprocess.Popen([ATSPI_LAUNCHER, "--launch-immediately"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)

    def answers() -> bool:
        out = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
                              "org.a11y.Bus.GetAddress"], env=env, capture_output=True, text=True, timeout=5)
        return out.returncode == 0 and "unix:" in out.stdout

    if shutil.which("dbus-send"):
        wait_for(answers, timeout=15, interval=0.2, what="the AT-SPI bus")
    return proc


def start_wayland(with_display: str | None = None) -> tuple[WaylandSession, Callable[[], None]]:
    """Start headless sway (as the unprivileged user when root), a session D-Bus and the AT-SPI bus. With
    `with_display`, the clients' env also has DISPLAY set to it (a Wayland session with XWayland, as GNOME and
    KDE have). Raises RuntimeError when the compositor cannot start."""
    missing = missing_tools()
    if missing:
        raise RuntimeError(f"missing Wayland tools {missing}: install them with packaging/setup.sh test")
    owner = compositor_user()
    base = Path(tempfile.mkdtemp(prefix="proactive-wl-"))
    base.chmod(0o755)
    runtime = base / "sway-runtime"  # the compositor's XDG_RUNTIME_DIR, private to its user
    runtime.mkdir(mode=0o700)
    clients = base / "client-runtime"  # ours (root's), for wl-copy, foot, dbus, at-spi
    clients.mkdir(mode=0o700)
    config = base / "sway.conf"
    config.write_text(SWAY_CONFIG)
    config.chmod(0o644)
    if owner is not None:
        os.chown(runtime, *owner)
    sway_env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TZ")}
    sway_env.update(WLR_BACKENDS="headless", WLR_RENDERER="pixman", WLR_LIBINPUT_NO_DEVICES="1",
                    XDG_RUNTIME_DIR=str(runtime), HOME=str(runtime), WLR_HEADLESS_OUTPUTS="1")
    user_args: dict[str, Any] = {}
    if owner is not None:
        user_args = {"user": owner[0], "group": owner[1], "extra_groups": []}
    log = base / "sway.log"
    with open(log, "wb") as log_file:
        sway = subprocess.Popen(["sway", "-c", str(config)], env=sway_env, stdin=subprocess.DEVNULL,
                                stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True, **user_args)
    procs: list[subprocess.Popen] = []

    def stop_all() -> None:
        for proc in reversed(procs):
            _stop(proc)
        _stop(sway)
        shutil.rmtree(base, ignore_errors=True)

    try:
        def ready() -> tuple[Path, Path] | None:
            if sway.poll() is not None:
                raise RuntimeError(f"sway exited with {sway.returncode}: {log.read_text(errors='replace')[-1500:]}")
            sockets = [p for p in runtime.glob("wayland-*") if not p.name.endswith(".lock")]
            ipc = list(runtime.glob("sway-ipc.*.sock"))
            return (sockets[0], ipc[0]) if sockets and ipc else None

        wayland, ipc = wait_for(ready, timeout=30, what="sway's sockets")
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK",
                                                                 "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP",
                                                                 "HYPRLAND_INSTANCE_SIGNATURE",
                                                                 "DBUS_SESSION_BUS_ADDRESS")}
        env.update(WAYLAND_DISPLAY=str(wayland), SWAYSOCK=str(ipc), XDG_RUNTIME_DIR=str(clients),
                   XDG_SESSION_TYPE="wayland", XDG_CURRENT_DESKTOP="sway")
        if with_display:
            env["DISPLAY"] = with_display
        bus, address = start_private_bus(clients, env)
        procs.append(bus)
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        atspi = _start_atspi(env)
        if atspi is not None:
            procs.append(atspi)
        session = WaylandSession(env, runtime, sway)
        wait_for(lambda: session.swaymsg("-t", "get_version"), timeout=10, what="sway's IPC")
    except BaseException:
        stop_all()
        raise

    def stop() -> None:
        session.close()
        stop_all()

    return session, stop


@contextmanager
def running(start: Callable[..., tuple[S, Callable[[], None]]], *args: Any) -> Iterator[S]:
    """A session from `start(*args)` (start_wayland, start_kwin, start_gnome), stopped on leaving."""
    session, stop = start(*args)
    try:
        yield session
    finally:
        stop()


def wayland_session(with_display: str | None = None) -> AbstractContextManager[WaylandSession]:
    return running(start_wayland, with_display)
