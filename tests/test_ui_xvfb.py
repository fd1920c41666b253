"""The Qt windows on a real X server: Xvfb + openbox + a real system tray (trayer).

1. Every Qt test module runs again in a subprocess on the xcb platform (a process has one Qt platform, and the
   rest of the suite renders offscreen); each window saves its screenshot under test-artifacts/xcb/.
2. `proactive tray` as a real process: xdotool types and copies like a user, the assistant proposes (the model is
   a scripted OpenAI-compatible endpoint on loopback, so the proposal is certain), the popup appears as an X
   window, a real click on Snooze stores `snoozed`, the proposal comes back, and its timeout stores `ignored`.
"""

from __future__ import annotations

import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import QT_TEST_MODULES, ROOT, WatcherProcess
from .models_support import FIX_TASK, assistant_replies
from .xsession import XSession, wait_for

pytestmark = pytest.mark.x11

ARTIFACTS = ROOT / "test-artifacts" / "xcb"


def test_qt_tests_pass_under_xvfb_with_a_system_tray(xsession: XSession):
    xsession.start_tray()
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    env = dict(xsession.env, QT_QPA_PLATFORM="xcb", PROACTIVE_TEST_TRAY="1")
    modules = [f"tests/{module}.py" for module in QT_TEST_MODULES]
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *modules],
                         env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert " passed" in out.stdout and "skipped" not in out.stdout
    shots = {p.name for p in ARTIFACTS.glob("*.png") if p.stat().st_size > 0}
    assert {"tray-menu.png", "tray-screen.png", "tray-popup.png", "live-popup.png", "tray-result.png",
            "tray-result_1366x768.png", "ui_history.png", "ui_privacy.png", "settings_defaults.png",
            "settings_1366x768.png", "annotate_alice.png", "annotate_1366x768.png"} <= shots


def x_decisions(db: Path) -> list[str]:
    if not db.exists():
        return []
    con = sqlite3.connect(db)
    try:
        return [d for (d,) in con.execute("SELECT decision FROM decisions ORDER BY id")]
    except sqlite3.OperationalError:  # not migrated yet
        return []
    finally:
        con.close()


def popup_window(xsession: XSession) -> str | None:
    out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Proactive: proposal$"],
                         env=xsession.env, capture_output=True, text=True, timeout=10)
    ids = out.stdout.split()
    return ids[0] if ids else None


def geometry(xsession: XSession, wid: str) -> dict[str, int]:
    shell = xsession.xdotool("getwindowgeometry", "--shell", wid)
    return {k: int(v) for k, v in (line.split("=") for line in shell.splitlines() if "=" in line) if k != "SCREEN"}


def test_proactive_tray_popup_snooze_and_timeout_with_real_input(xsession: XSession, proactive_home: Path,
                                                                scripted):
    scripted.answer_with(assistant_replies())
    (proactive_home / "config.toml").write_text("popup_seconds = 4.0\nsnooze_minutes = 0.05\n")
    xsession.start_tray()
    shell = xsession.start_xterm("client.py - shell", command=["cat"])
    browser = xsession.start_xterm("requests timeout - search", command=["cat"])
    xsession.activate(shell)
    tray = WatcherProcess(proactive_home, dict(xsession.env, QT_QPA_PLATFORM="xcb"), args=(), command="tray",
                          extra=("--no-aw", "--proactivity", "high", "--rm", "signals",
                                 "--model", f"openai:{scripted.url}#m"))
    db = proactive_home / "proactive.db"
    try:
        xsession.type("python client.py")
        xsession.key("Return")
        xsession.copy("Traceback (most recent call last):\n  File \"client.py\"\nTimeoutError: timed out")
        time.sleep(1.0)
        xsession.activate(browser)  # the shell episode closes: the assistant thinks
        popup = wait_for(lambda: popup_window(xsession), timeout=60, what="the proposal popup")
        assert wait_for(lambda: xsession.xdotool("getwindowname", popup), what="popup title")
        g = geometry(xsession, popup)
        assert g["WIDTH"] == 380 and g["X"] + g["WIDTH"] > 1280 - 100  # bottom-right corner, where it belongs
        assert xsession.xdotool("getactivewindow") == browser  # the popup did not steal the focus
        # Snooze is the right-most button of the bottom row: a real click there
        xsession.xdotool("mousemove", str(g["X"] + g["WIDTH"] - 45), str(g["Y"] + g["HEIGHT"] - 22))
        xsession.xdotool("click", "1")
        wait_for(lambda: x_decisions(db) == ["snoozed"], timeout=10, what="the snoozed decision")
        wait_for(lambda: popup_window(xsession) is None, timeout=10, what="the popup to close")
        wait_for(lambda: popup_window(xsession), timeout=30, what="the snoozed proposal to come back")
        wait_for(lambda: x_decisions(db) == ["snoozed", "ignored"], timeout=30, what="the popup's timeout")
    finally:
        code, err = tray.stop(signal.SIGTERM)
    assert code == 0, err
    con = sqlite3.connect(db)
    rows = con.execute("SELECT task FROM proposals WHERE task IS NOT NULL").fetchall()
    con.close()
    assert rows == [(FIX_TASK,)]  # one proposal, shown twice (snooze), answered once for good
