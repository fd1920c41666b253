"""Shared fixtures: a private PROACTIVE_HOME per test, and a real X server (Xvfb + openbox) with helpers to drive
real applications through xdotool and xclip."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import webbrowser
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from proactive.watcher.capture.sources import Source
from proactive.watcher.events import RawEvent

if TYPE_CHECKING:
    from proactive.watcher.pipeline import Watcher
    from proactive.watcher.store.database import Store
from tests.aw_server_fixture import aw_dirs, aw_server_url  # noqa: F401  (fixtures shared by the aw tests)
from tests.models_support import default_model, fake_model, llama_server, scripted  # noqa: F401  (model fixtures)
from tests.shell_pty import ShellPty, shell_pty
from tests.xsession import XSession, start_x, wait_for

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
PROACTIVE = [sys.executable, "-m", "proactive.app.cli"]

#: The files whose tests take longest (real servers, models, compositors), slowest first. pytest-xdist hands files
#: to workers in collection order (`--dist loadfile --no-loadscope-reorder`), so these start first and the run
#: does not end waiting on one of them started last.
LONGEST_FIRST = ("test_packaging",  # with PROACTIVE_SLOW (CI): the PyInstaller build, over 2 minutes
                 # then by their time in the parallel suite (--durations=0 summed per file): the workers take
                 # files in this order (setup.sh runs xdist with --no-loadscope-reorder, which otherwise puts
                 # the files with the most tests first and the long ones with few at the end)
                 "test_day",  # one scripted day live (bench/days/ci.json): about 2.5 minutes in one test
                 "test_secrets_in_the_open", "test_typed_text_firefox", "test_typed_text", "test_tray_process",
                 "test_models", "test_model_server", "test_raw_mode_watched", "test_wayland", "test_capture_x11",
                 "test_ui_xvfb", "test_unobserved_fields", "test_atspi_x11", "test_install", "test_properties",
                 "test_store_stress", "test_clipboard_secrets", "test_hidden_input", "test_replay", "test_gnome",
                 "test_tray_signals", "test_encryption", "test_agent", "test_terminal_secrets", "test_purge",
                 "test_doctor", "test_kwin", "test_late_keys", "test_over_hiding", "test_hostile_input", "test_live",
                 "test_browser_page", "test_help", "test_pages", "test_architecture", "test_redact",
                 "test_terminal_text", "test_activitywatch", "test_replay_report", "test_compose",
                 "test_notifications", "test_cli", "test_sharing", "test_live_context")


#: The Qt tests: `test_ui_xvfb.py` runs them on a real X server with a system tray (QT_QPA_PLATFORM=xcb); a run
#: that holds that test does not run them offscreen as well (about 50 s saved); run without it, they run offscreen.
QT_TEST_MODULES = ("test_ui_app", "test_ui_windows", "test_ui_widgets", "test_ui_settings", "test_annotation")
QT_ON_XVFB = "test_ui_xvfb.py::test_qt_tests_pass_under_xvfb_with_a_system_tray"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Longest files first (see LONGEST_FIRST); the order inside a file, and of the other files, is kept. The Qt
    tests once, where `QT_ON_XVFB` runs them (see QT_TEST_MODULES)."""
    if os.environ.get("PROACTIVE_TEST_TRAY") != "1" and any(item.nodeid.endswith(QT_ON_XVFB) for item in items):
        twice = [item for item in items if item.path.stem in QT_TEST_MODULES]
        if twice:
            config.hook.pytest_deselected(items=twice)
            items[:] = [item for item in items if item.path.stem not in QT_TEST_MODULES]
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(rank)))


@pytest.fixture(autouse=True)
def umask_restored() -> Iterator[None]:
    """Every `proactive` command run in this process (click's CliRunner) sets the umask to 077 for the whole
    process (`home.private_files`); a later test's folders were then made 0700 where it asked for 0755 (a private
    system bus's folder, so GNOME Shell's user could not connect to it): the umask is put back after each test."""
    mask = os.umask(0o022)
    os.umask(mask)
    yield
    os.umask(mask)


@pytest.fixture(autouse=True)
def no_desktop_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests never reach the developer's own keyring: without a session bus every store is plain, unless a test
    starts its own Secret Service (tests/keyring_session.py)."""
    from proactive.watcher.store import crypto

    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    crypto.reset()
    yield
    crypto.reset()


@pytest.fixture
def cpu_hogs() -> Iterator[None]:
    """Two CPU-bound processes for the test's duration: a busy machine (2 cores here), stopped afterwards."""
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(2)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


@pytest.fixture
def terminal() -> Iterator[ShellPty]:
    """A real terminal's process (a pty master with bash on its slave) for synthetic terminal WINDOW events: the
    watcher reads its echo state as it would xterm's."""
    with shell_pty() as term:
        yield term


@pytest.fixture
def proactive_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("PROACTIVE_HOME", str(home))
    return home


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Path]:
    """BROWSER set to a script that appends each URL it is given to a file; yields that file."""
    opened = tmp_path / "opened.txt"
    script = tmp_path / "browser"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{opened}"\n')
    script.chmod(0o755)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BROWSER", str(script))
        webbrowser.register_standard_browsers()  # webbrowser reads BROWSER once per process: read it again
        yield opened
    webbrowser.register_standard_browsers()


class ListSource(Source):
    """A capture source that replays a fixed list of events, as the X11 sources would deliver them (the fast
    path beside the real X11 tests)."""

    name = "list"

    def __init__(self, events: list[RawEvent]):
        self.events = events

    def start(self, emit) -> None:
        for event in self.events:
            emit(event)

    def stop(self) -> None:
        pass


def keys(text: str) -> list[RawEvent]:
    """The key events that type `text` (a newline is Enter), as the keyboard source emits them."""
    from proactive.watcher.events import KEY

    return [RawEvent("keyboard", KEY, {"key": "enter"} if c == "\n" else {"char": c}) for c in text]


def run_watcher(source: Source) -> Watcher:
    """Runs the real pipeline (`Watcher`, storing in PROACTIVE_HOME's database) over what `source` emits as it
    starts, for half a second, and stops it: the flushed, stopped watcher is returned."""
    import threading

    from proactive.watcher.pipeline import Watcher
    from proactive.watcher.store.home import Config

    watcher = Watcher(None, Config(), [source], flush_interval=0.05)
    thread = threading.Thread(target=watcher.run)
    thread.start()
    watcher.started.wait(5)
    time.sleep(0.5)
    watcher.stop()
    thread.join(10)
    return watcher


def run_pipeline(events: list[RawEvent], source: Source | None = None) -> tuple[str, str]:
    """The stored raw events and episodes, as text, after the real pipeline ran over `events` (or `source`)."""
    from proactive.watcher.store.database import Store

    run_watcher(source or ListSource(events))
    store = Store()
    raw, episodes = repr([e.data for _, e in store.iter_events()]), repr(store.episodes())
    store.close()
    return raw, episodes


@contextlib.contextmanager
def assistant_watching(source: Source) -> Iterator[tuple[Any, Store, list]]:
    """The real pipeline (`Watcher`, storing in PROACTIVE_HOME's database) handing each batch and episode to a real
    `Assistant`, as `proactive run` wires them: the fake model ranks the grounded offers, the shipped reward and
    need model gate them at medium (90 s between offers), no minimum gap between steps. Yields the assistant, a
    store for its steps and the offers it showed; the watcher (and the assistant's thread, if started) stop after."""
    import threading

    from proactive.assistant.agent import Agent
    from proactive.assistant.feedback import FeedbackMemory
    from proactive.assistant.live import Assistant
    from proactive.assistant.policy import Gate, Proactivity
    from proactive.assistant.trigger import TriggerPolicy
    from proactive.models.fake import FakeModel
    from proactive.models.reward import load_default
    from proactive.watcher.pipeline import Watcher
    from proactive.watcher.store.database import Store
    from proactive.watcher.store.home import Config

    shown: list = []
    p = Proactivity.parse("medium")
    assistant = Assistant(None, Agent(FakeModel()), Gate(load_default(), p), FeedbackMemory(),
                          TriggerPolicy(p.min_interval_s, min_gap_s=0), on_proposal=shown.append)
    watcher = Watcher(None, Config(), [source], flush_interval=0.05, on_episode=assistant.on_episode,
                      on_events=assistant.on_events)
    thread = threading.Thread(target=watcher.run)
    thread.start()
    assert watcher.started.wait(10)
    store = Store()
    try:
        yield assistant, store, shown
    finally:
        if assistant._thread.is_alive():
            assistant.stop()
        watcher.stop()
        thread.join(10)
        store.close()


def open_tray(assistant, config, watcher=None):
    """The tray app over an assistant (and a watcher) in this process: the `Backend` that `proactive run`'s tray
    reaches across its socket (tests/test_tray_process.py runs it so), here called directly."""
    from proactive.assistant.tray_backend import Backend
    from proactive.ui.app import TrayApp

    return TrayApp(Backend(assistant, watcher, None, config), None, config)


def screenshot(widget, filename: str) -> Path:
    """Save a rendered Qt widget as test-artifacts/PLATFORM/FILENAME (offscreen or xcb: the Qt tests run on
    both) and check the PNG is not empty."""
    from PySide6.QtGui import QGuiApplication

    folder = ROOT / "test-artifacts" / QGuiApplication.platformName()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / filename
    assert widget.grab().save(str(path))
    assert path.stat().st_size > 0
    return path


def run_cli(*args: str, env: dict[str, str] | None = None, input: str | None = None,
            timeout: float = 60, process: bool = False, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run `proactive ARGS` as a user would: in this process through the real entry point (`main()`, its exit
    codes and one-line errors) with exactly `env` as the environment, or, with `process=True` (for what only a
    process shows: signals, a hang cut by `timeout`, the interpreter's start), in a subprocess.
    In process, a hang is cut by pytest-timeout instead of `timeout`. Both run in `cwd` (the checkout)."""
    if process:
        return subprocess.run([*PROACTIVE, *args], capture_output=True, text=True,
                              env=env or os.environ.copy(), input=input, timeout=timeout, cwd=cwd)
    return run_in_process(list(args), env, input, cwd)


def run_in_process(args: list[str], env: dict[str, str] | None, input: str | None, cwd: Path = ROOT
                   ) -> subprocess.CompletedProcess[str]:
    """`proactive ARGS` through `main()` with click's CliRunner isolation (stdin, stdout, stderr and the
    environment swapped), restoring what a command changes for its process: the umask, the working folder,
    the logging handlers it added and the keyring's state. Two to three times cheaper than a subprocess (no
    interpreter start, no second import of numpy, Qt or the model)."""
    import logging

    from click.testing import CliRunner

    from proactive.app.cli import main
    from proactive.watcher.store import crypto

    wanted = os.environ.copy() if env is None else env
    swapped: dict[str, str | None] = {k: None for k in os.environ if k not in wanted}
    swapped.update(wanted)
    loggers = [logging.getLogger(), logging.getLogger("proactive")]
    handlers = {id(logger): (list(logger.handlers), logger.level) for logger in loggers}
    umask = os.umask(0o022)
    os.umask(umask)
    before = os.getcwd()
    argv = sys.argv
    code = 0
    crypto.reset()
    with CliRunner().isolation(input=input, env=swapped) as (out, err, _):
        sys.argv = ["proactive", *args]
        try:
            os.chdir(cwd)
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if isinstance(exc.code, str):
                sys.stderr.write(exc.code + "\n")
        finally:
            sys.argv = argv
            os.chdir(before)
            os.umask(umask)
            for logger in loggers:
                before, level = handlers[id(logger)]
                for handler in logger.handlers[:]:
                    if handler not in before:
                        logger.removeHandler(handler)
                        handler.close()
                logger.setLevel(level)
            crypto.reset()
        stdout, stderr = out.getvalue().decode(errors="replace"), err.getvalue().decode(errors="replace")
    return subprocess.CompletedProcess(["proactive", *args], code, stdout, stderr)


@pytest.fixture(scope="session")
def xserver() -> Iterator[XSession]:
    """A real X server with a window manager for the whole test session (fails, not skips, if it can't start)."""
    try:
        session, stop = start_x()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield session
    finally:
        stop()


@pytest.fixture
def xsession(xserver: XSession) -> Iterator[XSession]:
    """The session X server, with the applications a test started closed afterwards."""
    yield xserver
    xserver.close()


def typed_text(db: sqlite3.Connection) -> str:
    """What a database holds as typed: its text events' text, joined (a hidden line adds nothing)."""
    return "".join(t or "" for (t,) in db.execute(
        "SELECT json_extract(data, '$.text') FROM raw_events WHERE kind = 'text' ORDER BY id"))


class WatcherProcess:
    """`proactive watch` (or `proactive run`) as a real subprocess against a private home."""

    def __init__(self, home: Path, env: dict[str, str], args: tuple[str, ...] = ("--no-aw",),
                 command: str = "watch", extra: tuple[str, ...] = (), verbose: bool = False):
        """`verbose`: debug lines in the log (`-v`), which `enter_in_time` and `wait_logged` wait on; stderr then
        goes to a file outside the home (a pipe nobody reads while the watcher runs would fill and stop it)."""
        self.home = home
        self.stdout = ""
        self.env = dict(env, PROACTIVE_HOME=str(home))
        self.log = home / "logs" / "proactive.log"
        before = self.logged("watcher started")  # a home used before logs an earlier watcher's start too
        self._err = tempfile.TemporaryFile("w+") if verbose else None
        self.proc = subprocess.Popen([*PROACTIVE, command, *args, *(("-v",) if verbose else ()), *extra],
                                     env=self.env, cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=self._err or subprocess.PIPE, text=True)
        wait_for(lambda: self.logged("watcher started") > before or self.proc.poll() is not None, timeout=30,
                 what="watcher start")
        if self.proc.poll() is not None:
            raise AssertionError(f"watcher exited early: {self._stderr(self.proc.communicate()[1])}")
        # the sources listen once started (X11's, the bus's: a key pressed now is handled at once, the redaction
        # rules being compiled before the start, watcher/privacy/redact.py `prepare`); Wayland's helpers
        # (wl-paste --watch, swayidle) start in their own time and say nothing when they are ready
        if self.env.get("WAYLAND_DISPLAY"):
            time.sleep(0.5)

    def logged(self, text: str) -> int:
        """How many lines of the log hold `text`."""
        return self.log.read_text(errors="replace").count(text) if self.log.exists() else 0

    def _stderr(self, piped: str | None) -> str:
        if self._err is None:
            return piped or ""
        self._err.seek(0)
        return self._err.read()

    def wait_logged(self, text: str, before: int, what: str) -> None:
        """Waits until the log holds more lines with `text` than `before` (a count `logged` gave earlier)."""
        wait_for(lambda: self.logged(text) > before, timeout=20, what=what)

    def echo_log(self) -> str:
        """What the watcher's log says of the terminal lines it judged (verbose): its echo readings, the lines'
        ends and what was hidden, for a failing test's message."""
        if not self.log.exists():
            return "(no log)"
        said = ("echo state read", "line ended", "line hidden", "next line is hidden", "changed while it was read")
        return "\n".join(line for line in self.log.read_text(errors="replace").splitlines()
                         if any(s in line for s in said))

    def readings(self, begun_after: float) -> list[tuple[float, bool]]:
        """When the watcher read a terminal's echo state for a line whose first key was pressed after
        `begun_after` (verbose: watcher/privacy/terminal_lines.py `_echo_reading`), and whether that reading found
        keys still queued in the terminal (it then does not say the shell reads the line: `_read_by_shell`)."""
        from proactive.watcher.privacy.echo_state import QUEUED_NOTE

        if not self.log.exists():
            return []
        found = re.findall(r"echo state read at ([0-9.]+) for the line begun at ([0-9.]+): (.*)", self.log.read_text())
        return [(float(at), QUEUED_NOTE in why) for at, begun, why in found if float(begun) > begun_after]

    def enter_in_time(self, xsession: XSession, text: str) -> None:
        """Types `text` into the focused terminal, then Enter once the watcher has read the terminal's echo state
        for this line as it keeps a line by (watcher/privacy/terminal_lines.py): a reading less than
        ECHO_TRUST_SECONDS before its keys were all sent (`_judge_line`), and one at least that found no keys
        queued in the terminal (`_read_by_shell`: the watcher can see a key before the shell reads it). Why: a
        busy machine, or keys typed faster than anyone types (the keyboard source reads keys at a person's pace
        a batch at a time), may have the watcher handle a line's keys after a quick Enter; it then hides the line
        as unseen (fail closed), which is right but is not what such a test is about. When no such reading came
        (the line's last reading is older, or every one found keys queued), a space and a Backspace (no change to
        the line) make it read again."""
        from proactive.watcher.privacy.terminal_lines import ECHO_TRUST_SECONDS

        begun = time.time()
        xsession.type(text)
        for _ in range(20):
            sent = time.time()
            try:
                wait_for(lambda sent=sent: any(at > sent - ECHO_TRUST_SECONDS + 0.05 for at, _ in self.readings(begun)),
                         timeout=2, interval=0.05, what="the watcher's reading of the line")
                if not all(queued for _, queued in self.readings(begun)):
                    break
            except AssertionError:
                pass
            xsession.key("space", "BackSpace")
        else:
            raise AssertionError(f"the watcher never read the echo state for {text!r} with no keys queued")
        xsession.key("Return")

    def flushed(self, timeout: float = 30) -> None:
        """Returns once the watcher has written everything it had taken when asked (a flush request,
        watcher/control.py: it first reads what the X server had sent it): what a test then reads from the home
        is all that was captured, not what happened to be written by then."""
        from proactive.watcher import control

        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PROACTIVE_HOME", str(self.home))
            request = control.request_flush()
            if not control.wait_flushed(request, timeout):
                raise AssertionError(f"the watcher did not write what it had taken within {timeout} s")

    def acknowledged(self, paused: bool, timeout: float = 20) -> None:
        """Returns once the watcher has applied a pause (`paused`) or a resume and said so (watcher/control.py's
        acknowledgement: what is typed from then on is dropped, or kept)."""
        from proactive.watcher import control

        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PROACTIVE_HOME", str(self.home))

            def applied() -> bool:
                until, pause_id = control.pause_state()
                return (until is not None) == paused and control.wait_acknowledged(pause_id if paused else "", 0)

            wait_for(applied, timeout=timeout, what="the watcher to apply the " + ("pause" if paused else "resume"))

    def wait_stored(self, found: Callable[[sqlite3.Connection], object], what: str, timeout: float = 30) -> None:
        """Waits until `found` (a query of the watcher's database) says yes; each look first asks the watcher to
        write what it has taken (`flushed`)."""
        def look() -> object:
            self.flushed()
            with contextlib.closing(sqlite3.connect(self.home / "proactive.db")) as db:
                return found(db)

        wait_for(look, timeout=timeout, what=what)

    def wait_typed(self, text: str, timeout: float = 30) -> None:
        """Waits until `text` is in what the watcher stored as typed (its text events, joined): text the
        accessibility bus reports comes when the application says it, after the keys."""
        self.wait_stored(lambda db: text in typed_text(db), f"{text!r} stored")

    def stopped(self) -> bool:
        """Whether every thread of the watcher is stopped (SIGSTOP acts on a process's threads one by one: a
        thread still running may read a key after `kill` returned)."""
        tasks = Path(f"/proc/{self.proc.pid}/task")
        states = []
        for task in tasks.iterdir():
            with contextlib.suppress(OSError):
                states.append((task / "stat").read_text().rsplit(")", 1)[1].split()[0])
        return bool(states) and all(state in "tT" for state in states)

    def pause_process(self) -> None:
        """SIGSTOP, returning once no thread of the watcher runs any more."""
        self.proc.send_signal(signal.SIGSTOP)
        wait_for(self.stopped, timeout=10, interval=0.01, what="the watcher to stop")

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str]:
        self.proc.send_signal(sig)
        try:
            self.stdout, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
            raise AssertionError(f"watcher did not stop on signal {sig}: {self._stderr(err)}") from None
        return self.proc.returncode, self._stderr(err)

    def episodes(self) -> list[dict]:
        import json

        out = run_cli("episodes", "--json", env=self.env)
        assert out.returncode == 0, out.stderr
        return [json.loads(line) for line in out.stdout.splitlines()]

    def assert_nowhere(self, secret: str, live: bytes, err: str) -> None:
        """`secret`, and its first and last 7 characters, are in none of: what the home held while this watcher
        ran (`live`: `all_bytes` then), what it holds now, the `episodes` command's text and JSON, and this
        watcher's stdout and stderr (`err`, from `stop()`)."""
        out = run_cli("episodes", env=self.env).stdout + run_cli("episodes", "--json", env=self.env).stdout
        everything = live + all_bytes(self.home) + out.encode() + err.encode() + self.stdout.encode()
        for piece in (secret, secret[:7], secret[-7:]):
            assert piece.encode() not in everything, f"{piece!r} leaked"


def started_sources(home: Path) -> str:
    """The log's "watcher started with sources: ..." line in `home`."""
    log = (home / "logs" / "proactive.log").read_text()
    return next(line for line in log.splitlines() if "watcher started with sources" in line)


def all_bytes(home: Path) -> bytes:
    """Every file under `home` (database and WAL, logs, caches) as one blob, to search for what must not be
    there."""
    return b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())
