"""`proactive tray` quits on SIGTERM and SIGINT, with or without a system tray: exit 0 within 5 s.

Without a system tray the app shows a fallback window that refuses to close (closing minimises it: it is the
only handle on the app), and Qt 6 cancels a quit that a window refuses, so the process used to stay up. Cases:
- a bare Xvfb (no window manager, no tray): the fallback window, SIGTERM and SIGINT;
- Xvfb + openbox + trayer (a real system tray): the tray icon, SIGTERM and SIGINT;
- a plain `QApplication.quit()` (any other quit path) ends the app while the fallback window is open.
The tray runs as a real process with a private home, the reward model `signals` and a scripted model endpoint on
loopback, so no model is loaded.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import ROOT, WatcherProcess
from .models_support import assistant_replies
from .xsession import XSession, start_xvfb, wait_for

pytestmark = pytest.mark.x11

QUIT_WITHIN = 5.0


@pytest.fixture
def bare_x() -> Iterator[dict[str, str]]:
    """A bare Xvfb: no window manager, no system tray (Qt falls back to its window). Xvfb picks a free display
    itself (-displayfd), so tests running side by side cannot collide. Yields the environment."""
    xvfb, display = start_xvfb("1024x768x24")
    try:
        yield dict(os.environ, DISPLAY=display)
    finally:
        xvfb.terminate()
        try:
            xvfb.wait(timeout=5)
        except subprocess.TimeoutExpired:
            xvfb.kill()


def visible_proactive_windows(env: dict[str, str]) -> list[tuple[int, int]]:
    """(width, height) of every mapped window titled "Proactive" (the fallback window; the tray icon is not)."""
    out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Proactive$"], env=env,
                         capture_output=True, text=True, timeout=10)
    sizes = []
    for wid in out.stdout.split():
        shell = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid], env=env, capture_output=True,
                               text=True, timeout=10).stdout
        values = dict(line.split("=", 1) for line in shell.splitlines() if "=" in line)
        if "WIDTH" in values:
            sizes.append((int(values["WIDTH"]), int(values["HEIGHT"])))
    return sizes


def start_tray(home: Path, env: dict[str, str], url: str) -> WatcherProcess:
    return WatcherProcess(home, dict(env, QT_QPA_PLATFORM="xcb"), args=(), command="tray",
                          extra=("--no-aw", "--rm", "signals", "--model", f"openai:{url}#m"))


def stops_within(tray: WatcherProcess, sig: signal.Signals) -> tuple[int, float, str]:
    """Send `sig`; (exit code, seconds it took, stderr). Killed (and failed) after QUIT_WITHIN + 5 s."""
    started = time.monotonic()
    tray.proc.send_signal(sig)
    try:
        _, err = tray.proc.communicate(timeout=QUIT_WITHIN + 5)
    except subprocess.TimeoutExpired:
        tray.proc.kill()
        _, err = tray.proc.communicate()
        raise AssertionError(f"the tray app did not quit on {sig.name}: {err[-1500:]}") from None
    return tray.proc.returncode, time.monotonic() - started, err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_tray_without_a_system_tray_quits_on_signal(bare_x: dict[str, str], proactive_home: Path, scripted,
                                                    sig: signal.Signals):
    scripted.answer_with(assistant_replies())
    tray = start_tray(proactive_home, bare_x, scripted.url)
    try:
        sizes = wait_for(lambda: visible_proactive_windows(tray.env), timeout=20, what="the fallback window")
        assert any(w > 100 for w, _ in sizes), sizes  # the fallback window, not a tray icon
        code, seconds, err = stops_within(tray, sig)
    finally:
        if tray.proc.poll() is None:
            tray.proc.kill()
            tray.proc.communicate()
    assert code == 0, err[-1500:]
    assert seconds < QUIT_WITHIN
    assert "Traceback" not in err
    assert not (proactive_home / "watcher.pid").exists()  # the watcher's lock was released on the way out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_tray_with_a_system_tray_quits_on_signal(xsession: XSession, proactive_home: Path, scripted,
                                                 sig: signal.Signals):
    scripted.answer_with(assistant_replies())
    xsession.start_tray()
    tray = start_tray(proactive_home, xsession.env, scripted.url)
    try:
        time.sleep(1.0)  # the icon docks into trayer
        assert visible_proactive_windows(tray.env) == []  # the tray icon, no fallback window
        code, seconds, err = stops_within(tray, sig)
    finally:
        if tray.proc.poll() is None:
            tray.proc.kill()
            tray.proc.communicate()
    assert code == 0, err[-1500:]
    assert seconds < QUIT_WITHIN
    assert "Traceback" not in err


def test_any_application_quit_closes_the_fallback_window():
    """Not only TrayApp.quit(): a plain QApplication.quit() (older callers, other quit paths) ends the event loop
    while the fallback window is open, where a direct close() still only minimises it."""
    code = textwrap.dedent("""
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication, QWidget
        from proactive.ui.tray_icon import FallbackWindow

        app = QApplication([])
        app.setQuitOnLastWindowClosed(False)
        window = FallbackWindow()
        window.show()
        other = QWidget()
        other.show()
        window.close()
        assert window.isVisible() and window.isMinimized(), "a close by hand minimises it"
        QTimer.singleShot(200, app.quit)
        QTimer.singleShot(5000, lambda: app.exit(3))  # the quit was refused
        print(app.exec(), window.isVisible())
    """)
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "False"], out.stdout + out.stderr


def test_the_tray_imports_qt_before_it_starts_any_thread(tmp_path: Path):
    """shiboken walks a module dict while it is imported, so a thread importing at that moment aborts the tray
    ("libshiboken/signature: could not initialize part 2"; it happened when the assistant's thread warmed the
    diagnoses). The tray's process must import Qt before its first thread starts. Checked in a fresh process
    running the tray's entry point on one end of a socket pair: the first `Thread.start` reports whether Qt is
    already imported, then ends the process."""
    probe = textwrap.dedent("""
        import os, socket, sys, threading
        def start(self):
            print("qt imported" if "shiboken6" in sys.modules else "qt not imported", flush=True)
            os._exit(0)
        threading.Thread.start = start
        ours, theirs = socket.socketpair()
        from proactive.ui.tray_main import main
        main(["--fd", str(theirs.detach())])
    """)
    env = dict(os.environ, PROACTIVE_HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "qt imported", (out.stdout, out.stderr[-2000:])


def test_capture_runs_in_a_process_without_qt(tmp_path: Path):
    """`proactive tray` runs the watcher and the assistant in a process that never imports Qt (the tray app is a
    child of its own, tests/test_tray_process.py): checked when the tray's supervisor starts, after the model,
    the reward model and the watcher were built."""
    probe = textwrap.dedent("""
        import os, sys
        from proactive.app import tray_supervisor
        def start(self):
            print("qt imported" if "shiboken6" in sys.modules else "no qt", flush=True)
            os._exit(0)
        tray_supervisor.TraySupervisor.start = start
        sys.argv = ["proactive", "tray", "--no-aw", "--rm", "signals", "--model", "fake"]
        from proactive.app.cli import main
        main()
    """)
    env = dict(os.environ, PROACTIVE_HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "no qt", (out.stdout, out.stderr[-2000:])


@pytest.mark.parametrize("limit", ["10m", None], ids=["for-10m", "until-resumed"])
def test_pause_from_the_cli_while_the_tray_runs_keeps_its_limit(xsession: XSession, proactive_home: Path, scripted,
                                                                limit: str | None):
    """`proactive pause [--for D]` while the tray app runs: confirmed at once (exit 0, well within the 5 s the CLI
    waits), `status` tells the same limit, and `resume` ends it; the tray's own pause does not replace the one
    the CLI wrote."""
    import json
    from datetime import datetime

    from .conftest import run_cli

    scripted.answer_with(assistant_replies())
    xsession.start_tray()
    tray = start_tray(proactive_home, xsession.env, scripted.url)
    env = tray.env
    try:
        started = time.monotonic()
        out = run_cli("pause", *(["--for", limit] if limit else []), env=env, process=True)
        took = time.monotonic() - started
        assert out.returncode == 0, out.stderr
        assert "no watcher running" not in out.stdout and took < 4.0, (took, out.stdout)
        time.sleep(0.5)  # the tray has followed the signal (its handlers run every 200 ms)
        state = json.loads(run_cli("status", "--json", env=env, process=True).stdout)
        assert state["watcher"]["running"] and state["paused"], state
        if limit:  # the end the CLI wrote, not "until resumed"
            assert "until resumed" not in out.stdout, out.stdout
            ends = datetime.fromisoformat(state["paused_until"]).timestamp()
            assert 9 * 60 < ends - time.time() <= 10 * 60, state
        else:
            assert "until resumed" in out.stdout and state["paused_until"] is None, (out.stdout, state)
        out = run_cli("resume", env=env, process=True)
        assert out.returncode == 0 and "no watcher running" not in out.stdout
        time.sleep(0.5)
        state = json.loads(run_cli("status", "--json", env=env, process=True).stdout)
        assert not state["paused"] and state["capture"] == "capturing", state
    finally:
        if tray.proc.poll() is None:
            code, err = tray.stop()
            assert code == 0 and "Traceback" not in err, err[-1500:]

