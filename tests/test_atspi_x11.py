"""End to end on a real X server with a real accessibility bus: a private session D-Bus (dbus-daemon), the AT-SPI
bus (at-spi-bus-launcher, with its registry), a real Qt window with a text field and a password field, and
`proactive watch` as a subprocess. Keys come from the RECORD extension (X11) and the AT-SPI source tells the privacy filter which
widget has the focus: what is typed into the text field is in the episodes, what is typed into the password field
is nowhere (database, WAL, logs, outputs)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from proactive.watcher.capture.atspi import AtspiSource
from proactive.watcher.events import FOCUS, TYPED, WINDOW, RawEvent
from proactive.watcher.store.database import Store

from .conftest import (
    ROOT,
    ListSource,
    WatcherProcess,
    XSession,
    all_bytes,
    run_cli,
    run_watcher,
    typed_text,
    wait_for,
)

pytestmark = pytest.mark.x11

LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
APP = Path(__file__).resolve().parent / "a11y_app.py"
CANARY_PASSWORD = "QtPwCanary4711zz"


class A11ySession:
    """dbus-daemon (the session bus) + at-spi-bus-launcher (the accessibility bus and its registry), in a private
    runtime folder; `env` is what applications and the watcher need to use them."""

    def __init__(self, root: Path, base_env: dict[str, str]):
        self.root = root
        self.base_env = base_env
        self.bus: subprocess.Popen | None = None
        self.launcher: subprocess.Popen | None = None
        self.env: dict[str, str] = {}

    def start(self) -> A11ySession:
        run = self.root / "run"
        run.mkdir(mode=0o700, parents=True, exist_ok=True)
        env = {k: v for k, v in self.base_env.items() if k not in ("AT_SPI_BUS_ADDRESS", "NO_AT_BRIDGE")}
        # GSettings in memory: the accessibility setting (`proactive accessibility on`) stays in this session's
        # launcher, never reaches the machine's own dconf
        env.update(XDG_RUNTIME_DIR=str(run), NO_AT_BRIDGE="0", GTK_MODULES="gail:atk-bridge",
                   QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1", QT_QPA_PLATFORM="xcb",
                   GSETTINGS_BACKEND="memory")
        self.bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                    start_new_session=True)
        address = self.bus.stdout.readline().strip()
        if not address:
            self.stop()
            raise AssertionError("dbus-daemon printed no address")
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        self.launcher = subprocess.Popen([LAUNCHER, "--launch-immediately"], env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL, start_new_session=True)
        self.env = env

        def answers() -> bool:
            out = subprocess.run([sys.executable, "-c", "from proactive.watcher.capture.atspi import AtspiSource; "
                                  "import sys; sys.exit(0 if AtspiSource().probe().works else 1)"],
                                 env=env, capture_output=True, timeout=20)
            return out.returncode == 0

        wait_for(answers, timeout=20, interval=0.3, what="the accessibility bus")
        return self

    def stop(self) -> None:
        for proc in (self.launcher, self.bus):  # each in its own process group: the a11y bus and registry too
            if proc is not None and proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
        if self.bus is not None and self.bus.stdout is not None:
            self.bus.stdout.close()


@pytest.fixture
def a11y(xsession: XSession, tmp_path: Path) -> Iterator[A11ySession]:
    if not Path(LAUNCHER).exists() or shutil.which("dbus-daemon") is None:
        pytest.fail("at-spi2-core and dbus are needed: install them with packaging/setup.sh test")
    session = A11ySession(tmp_path / "a11y", xsession.env).start()
    try:
        yield session
    finally:
        xsession.close()  # the applications first, then their buses
        session.stop()


def start_app(xsession: XSession, env: dict[str, str], title: str, *args: str) -> str:
    proc = subprocess.Popen([sys.executable, str(APP), title, *args], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    xsession.procs.append(proc)
    assert proc.stdout.readline().strip() == "ready"
    return wait_for(lambda: xsession._find(title), timeout=20, what=f"window {title!r}")


def test_password_field_dropped_by_role_on_x11(xsession: XSession, a11y: A11ySession, proactive_home: Path):
    title = "Sign-up form"
    watcher = WatcherProcess(proactive_home, a11y.env)  # before the app: its first focus event is seen
    try:
        wid = start_app(xsession, a11y.env, title)
        xsession.activate(wid)
        time.sleep(0.5)
        xsession.type("hello accessible world")
        time.sleep(0.3)
        xsession.key("Tab")  # to the password field
        time.sleep(0.8)
        xsession.type(CANARY_PASSWORD)
        time.sleep(0.3)
        xsession.key("Tab")  # back to the text field
        time.sleep(0.8)
        xsession.type(" again")
        time.sleep(1.5)  # the bus's text comes when the application says it (no condition shows it taken)
        live = all_bytes(proactive_home)  # database, WAL and logs while the watcher runs
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    log = (proactive_home / "logs" / "proactive.log").read_text()
    assert "accessibility (AT-SPI)" in log.split("watcher started with sources:")[1].splitlines()[0], log
    episodes = watcher.episodes()
    form = [e for e in episodes if e["title"] == title]
    assert form, episodes
    assert "The user types 'hello accessible world" in form[0]["event"]
    assert "again" in form[0]["event"]
    out = run_cli("episodes", env=watcher.env).stdout + run_cli("episodes", "--json", env=watcher.env).stdout
    everything = live + all_bytes(proactive_home) + out.encode() + err.encode() + watcher.stdout.encode()
    for piece in (CANARY_PASSWORD, CANARY_PASSWORD[:8], CANARY_PASSWORD[-8:]):
        assert piece.encode() not in everything, f"{piece!r} leaked"


def test_a_form_typed_five_times_under_load_on_x11(xsession: XSession, a11y: A11ySession, proactive_home: Path,
                                                   cpu_hogs: None):
    """A name, Tab and a password typed in one go, five times, while two CPU hogs run. Keys come from
    the X server at once while the focus event that says "password field" comes later over the accessibility
    bus: in an application on the accessibility bus the text comes from the bus, each piece with the field that
    took it, and the keys typed there are not used. No password is stored
    anywhere; each name is kept whole in at least four of five."""
    names = [f"Member{i} quokka" for i in range(5)]
    passwords = [f"Heron{i}Secret!zq" for i in range(5)]
    watcher = WatcherProcess(proactive_home, a11y.env)
    try:
        for i in range(5):
            wid = start_app(xsession, a11y.env, f"Sign-up {i}")
            xsession.activate(wid)
            time.sleep(0.5)
            xsession.type(f"{names[i]}\t{passwords[i]}\t", delay_ms=12)
            time.sleep(1.0)

        # the bus says the text after the keys (four names of five: check_form_rounds)
        watcher.wait_stored(lambda db: sum(name in typed_text(db) for name in names) >= 4, "four names stored")
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    check_form_rounds(proactive_home, watcher, live, err, names, passwords)


def check_form_rounds(home: Path, watcher: WatcherProcess, live: bytes, err: str, names: list[str],
                      passwords: list[str]) -> None:
    """No password (nor a piece of one) in the database, WAL, logs or outputs; at least four names whole."""
    out = run_cli("episodes", env=watcher.env).stdout + run_cli("episodes", "--json", env=watcher.env).stdout
    everything = live + all_bytes(home) + out.encode() + err.encode() + watcher.stdout.encode()
    for password in passwords:
        for piece in (password, password[:6], password[-6:]):
            assert piece.encode() not in everything, f"{piece!r} leaked"
    kept = [name for name in names if f"'{name}'" in out]
    assert len(kept) >= 4, out


def test_missing_accessibility_bus_is_said_once(xsession: XSession, proactive_home: Path, tmp_path: Path):
    env = dict(xsession.env, DBUS_SESSION_BUS_ADDRESS=f"unix:path={tmp_path / 'no-bus'}")
    env.pop("AT_SPI_BUS_ADDRESS", None)
    watcher = WatcherProcess(proactive_home, env)
    code, err = watcher.stop()
    assert code == 0, err
    log = (proactive_home / "logs" / "proactive.log").read_text()
    lines = [line for line in log.splitlines() if "source accessibility (AT-SPI) unavailable" in line]
    assert len(lines) == 1 and "session D-Bus does not answer" in lines[0], log
    assert "window" in log.split("watcher started with sources:")[1].splitlines()[0]


def test_typed_text_from_text_changed_events(xsession: XSession, a11y: A11ySession, proactive_home: Path,
                                             monkeypatch: pytest.MonkeyPatch):
    """`AtspiSource(text=True)` (Wayland's way: no key logger) on the real bus: the text typed into the Qt text
    field comes back as TYPED events with role "text", rebuilt by the pipeline into the keyboard's sentences;
    the password field's come with role "password text" and are dropped."""
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", a11y.env["DBUS_SESSION_BUS_ADDRESS"])
    monkeypatch.setenv("XDG_RUNTIME_DIR", a11y.env["XDG_RUNTIME_DIR"])
    source = AtspiSource(text=True, windows=True)  # as on GNOME/Wayland: the window source too
    assert source.probe().works
    seen: list[RawEvent] = []
    source.start(seen.append)
    try:
        wid = start_app(xsession, a11y.env, "Typing form")
        xsession.activate(wid)
        time.sleep(0.5)
        xsession.type("typed via atspi")
        xsession.key("BackSpace", "BackSpace")
        xsession.type("pi")
        time.sleep(0.3)
        xsession.key("Tab")
        time.sleep(0.5)
        xsession.type(CANARY_PASSWORD)
        wait_for(lambda: sum(e.kind == TYPED and e.data.get("role") == "password text" for e in seen)
                 >= len(CANARY_PASSWORD), timeout=10, what="the password field's text events")
        started = time.monotonic()
        source.stop()
        assert time.monotonic() - started < 2, "stop() is prompt"
    finally:
        source.stop()
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS")  # the store below needs no keyring (nor this bus)
    roles = {e.data.get("role") for e in seen if e.kind == FOCUS}
    assert {"text", "password text"} <= roles, roles
    assert all(e.data.get("pid") for e in seen)
    windows = [e for e in seen if e.kind == WINDOW]
    assert windows and windows[0].data["title"] == "Typing form" and windows[0].data["pid"], windows
    w = run_watcher(ListSource(seen))
    assert w.stats.events_in == len(seen)
    store = Store()
    episodes = repr(store.episodes())
    raw = repr([e.data for _, e in store.iter_events()])
    store.close()
    assert "The user types 'typed via atspi' in Typing form in a11y-form." in episodes, (episodes, raw, seen)
    assert CANARY_PASSWORD[:8] not in raw + episodes


CANARY_PROMPT = "VtePromptCanary31"


def test_terminal_prompt_read_from_a_vte_terminal(xsession: XSession, a11y: A11ySession, proactive_home: Path,
                                                  tmp_path: Path):
    """lxterminal (a VTE terminal) shows its text on the accessibility bus: a program whose command line says
    nothing of a password ("./deploy") prints "Passphrase: ", and the line typed after it is hidden."""
    from proactive.watcher.privacy.password_prompts import prompt_lines

    script = tmp_path / "deploy"
    # (the pause: at the Enter of a line a shell reads whole (sh, not bash's readline), the watcher reads the echo
    # state, and a prompt that turned echo off before that reading hides the command line too: fail closed)
    script.write_text("#!/bin/sh\nprintf 'Passphrase: '\nsleep 0.5\nstty -echo\nread answer\nstty echo\necho\n"
                      "echo deployed\n")
    script.chmod(0o755)
    assert prompt_lines(str(script)) == 0  # the command line alone would hide nothing
    env = dict(a11y.env, XDG_CONFIG_HOME=str(tmp_path / "config"))
    title = "deploy shell"
    proc = subprocess.Popen(["lxterminal", "--no-remote", "-t", title, "--command=sh"], env=env, cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    xsession.procs.append(proc)
    wid = wait_for(lambda: xsession._find(title), timeout=20, what="lxterminal")
    watcher = WatcherProcess(proactive_home, a11y.env, verbose=True)
    try:
        xsession.activate(wid)
        time.sleep(1.0)
        prompts = watcher.logged("a password prompt is shown")
        watcher.enter_in_time(xsession, str(script))
        watcher.wait_logged("a password prompt is shown", prompts, "the prompt read from the bus")
        xsession.type(CANARY_PROMPT)
        xsession.key("Return")
        watcher.enter_in_time(xsession, "echo after")
        wait_for(lambda: "'echo after'" in run_cli("episodes", env=watcher.env).stdout, timeout=20,
                 what="the last line stored")
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    out = run_cli("episodes", env=watcher.env).stdout + run_cli("episodes", "--json", env=watcher.env).stdout
    everything = live + all_bytes(proactive_home) + out.encode() + err.encode() + watcher.stdout.encode()
    for piece in (CANARY_PROMPT, CANARY_PROMPT[:8], CANARY_PROMPT[-8:]):
        assert piece.encode() not in everything, f"{piece!r} leaked"
    assert f"The user types '{script}' and presses Enter in the terminal." in out, out
    assert "The user enters a password (hidden) in the terminal." in out
    assert "The user types 'echo after' and presses Enter in the terminal." in out
