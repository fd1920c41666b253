"""Capture on KDE's KWin (Wayland), end to end on a real headless KWin 5.27 (tests/kwin_session.py: the virtual
backend, private system and session D-Bus, the AT-SPI bus, typing through org_kde_kwin_fake_input).

- `proactive watch --no-aw` with an accessible Qt form and a window no AT-SPI client sees: both titles, the
  switches between them, a copy, the text typed into the form's text field and an idle period are stored; what is
  typed into its password field is nowhere (database and WAL, logs, outputs).
- `proactive doctor --json` there lists the window, clipboard, idle and accessibility (typed text, password
  fields) sources as working.
- The KWin window source does not claim to work when its script never runs: KWin running as another user cannot
  read the script in the person's private data folder, so no first call comes; `start()` then fails with the
  reason and the fix, and the probe (doctor) says it cannot work.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from proactive.watcher.capture.sources import SourceUnavailable
from proactive.watcher.capture.wl_window import KWinWindow, kwin_script_path

from .conftest import WatcherProcess, all_bytes, run_cli, started_sources
from .kwin_session import KWinSession, missing_tools, start_kwin

pytestmark = pytest.mark.skipif(bool(missing_tools()), reason=f"KWin tests need {missing_tools()} (apt install "
                                "kwin-wayland wl-clipboard; packaging/setup.sh test installs them)")

COPY = "Traceback (most recent call last):\n  File \"client.py\", line 3\nTimeoutError: timed out"
CANARY_PASSWORD = "KwCanaryPw5821q"


@pytest.fixture(scope="module")
def kwin() -> Iterator[KWinSession]:
    try:
        session, stop = start_kwin()
    except RuntimeError as exc:
        pytest.fail(f"headless KWin did not start: {exc}")
    try:
        yield session
    finally:
        stop()


@pytest.fixture
def kw(kwin: KWinSession) -> Iterator[KWinSession]:
    yield kwin
    kwin.close()


def events_of(episodes: list[dict], title: str) -> str:
    matches = [e["event"] for e in episodes if e["title"] == title]
    assert matches, f"no episode titled {title!r} in {[e['title'] for e in episodes]}"
    return " ".join(matches)


def test_watch_on_kwin_records_titles_switches_copy_typed_text_idle_and_never_the_password(
        kw: KWinSession, proactive_home: Path):
    """The KDE case: a window no AT-SPI client sees ("build shell") and an accessible Qt form on KWin,
    typing through fake input, a Tab into the password field and back, switches, a wl-copy and an idle period."""
    (proactive_home / "config.toml").write_text("idle_seconds = 3\n")
    form, shell = "Sign-up form", "build shell"
    kw.copy("there before capture")  # the selection at start is not a copy made now
    kw.start_window(shell, accessible=False)
    watcher = WatcherProcess(proactive_home, kw.env)  # before the form: its first focus event is seen
    try:
        kw.start_window(form)
        kw.focus(form)
        time.sleep(0.8)
        kw.type("hello kwin form")
        time.sleep(0.5)
        kw.key("Tab")  # to the password field
        time.sleep(0.8)
        kw.type(CANARY_PASSWORD)
        time.sleep(0.5)
        kw.key("Tab")  # back to the text field
        time.sleep(0.8)
        kw.type(" again")
        time.sleep(0.8)
        kw.focus(shell)
        time.sleep(0.5)
        kw.copy(COPY)
        time.sleep(1.2)
        kw.focus(form)
        time.sleep(5.0)  # no input for longer than idle_seconds
        kw.type(" back")
        time.sleep(1.5)
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    log = (proactive_home / "logs" / "proactive.log").read_text()
    started = started_sources(proactive_home)
    for source in ("window", "clipboard", "idle", "accessibility (AT-SPI)"):
        assert source in started, started
    assert "Wayland (kde)" in log, log[-2000:]
    episodes = watcher.episodes()
    titles = [e["title"] for e in episodes]
    typed = events_of(episodes, form)
    assert "hello kwin form" in typed and "again" in typed and "back" in typed, episodes
    # the switches, in order: the form, then the shell (with the copy), then the form again
    first_form = titles.index(form)
    shell_after = titles.index(shell, first_form)
    assert form in titles[shell_after:], titles
    copies = [e for e in episodes if e["title"] == shell and "copies" in e["event"]]
    assert copies and "Traceback (most recent call last):" in copies[-1]["event"], episodes
    assert "there before capture" not in json.dumps(episodes)
    everything_said = " ".join(e["event"] for e in episodes)
    assert "stops using the computer (idle)" in everything_said, everything_said
    assert "comes back after being away" in everything_said, everything_said
    watcher.assert_nowhere(CANARY_PASSWORD, live, err)
    assert not (proactive_home / "kwin" / "proactive-focus.js").exists()  # the watcher took its script away


def test_doctor_on_kwin_lists_every_source_as_working(kw: KWinSession, proactive_home: Path):
    out = run_cli("doctor", "--json", env=dict(kw.env, PROACTIVE_HOME=str(proactive_home)))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["session"]["compositor"] == "kde", report["session"]
    rows = {row["source"]: row for row in report["sources"] if not row["optional"]}
    assert set(rows) == {"window (KWin script)", "clipboard (wl-paste)", "idle (swayidle)",
                         "accessibility (AT-SPI)"}, rows
    for row in rows.values():
        assert row["works"] and row["tested"], row
    assert "password fields" in rows["accessibility (AT-SPI)"]["captures"]
    assert "typed text" in rows["accessibility (AT-SPI)"]["captures"]
    assert "ran the focus script" in rows["window (KWin script)"]["detail"]


@pytest.fixture(scope="module")
def kwin_as_another_user() -> Iterator[KWinSession]:
    """KWin running as an unprivileged user while the watcher runs as root: KWin cannot read the script kept in
    root's private data folder (the failure a person meets when KWin and proactive run as different users)."""
    from bench.wayland_session import compositor_user

    if os.geteuid() != 0:
        pytest.skip("running KWin as another user needs root (to create the user and start KWin as it)")
    user = compositor_user("proactive-kwin")
    try:
        session, stop = start_kwin(user=user)
    except RuntimeError as exc:
        pytest.fail(f"headless KWin did not start as another user: {exc}")
    try:
        yield session
    finally:
        stop()


def test_kwin_source_does_not_claim_to_work_when_kwin_cannot_read_its_script(
        kwin_as_another_user: KWinSession, proactive_home: Path, monkeypatch: pytest.MonkeyPatch):
    kw = kwin_as_another_user
    for name, value in kw.env.items():
        monkeypatch.setenv(name, value)
    script = kwin_script_path("proactive-focus")
    assert script.parent.stat().st_mode & 0o077 == 0  # private: KWin's user may not enter the folder
    source = KWinWindow(first_call=2.0)
    events: list = []
    started = time.monotonic()
    with pytest.raises(SourceUnavailable) as failed:
        source.start(events.append)
    source.stop()
    assert time.monotonic() - started < 10
    message = str(failed.value)
    assert "did not run within 2 s" in message and "same user as KWin" in message, message
    assert "\n" not in message
    assert events == [] and not script.exists()
    probe = KWinWindow().probe()
    assert not probe.works and "did not run" in probe.detail and "same user as KWin" in probe.fix, probe
    assert probe.fix not in probe.detail  # doctor shows both: the fix once
    # doctor says so too
    out = run_cli("doctor", "--json", env=dict(kw.env, PROACTIVE_HOME=str(proactive_home)))
    report = json.loads(out.stdout)
    rows = {row["source"]: row for row in report["sources"]}
    assert not rows["window (KWin script)"]["works"], rows["window (KWin script)"]
