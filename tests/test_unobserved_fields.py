"""Typing in GUI applications whose fields nothing describes: the text is never kept, only that it was typed.

On X11 keys come from the RECORD extension for every window, but only a terminal (its echo state) or the
accessibility bus (the role of the field that took the text) shows whether a field hides what is typed. A Tk
`entry -show *` (Tk is not on the bus), a Qt password field or zenity's password dialogs with no bus running: their
lines are stored as "types N characters", never as text. Real programs on a real X server, real injected keys."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from proactive.watcher.events import WINDOW, RawEvent
from proactive.watcher.privacy.compose import UNOBSERVED

from .conftest import ROOT, WatcherProcess, XSession, all_bytes, keys, run_cli, run_pipeline, wait_for
from .shell_pty import ShellPty

APP = Path(__file__).resolve().parent / "a11y_app.py"
#: a Tk window with a password entry (`-show *`) and a plain entry below it, focused on the first
TK_FORM = """
wm title . "{TITLE}"
entry .secret -show *
entry .plain
pack .secret .plain
focus -force .secret
after 100 {{ puts ready; flush stdout }}
"""


@pytest.fixture
def sleeper() -> Iterator[int]:
    """A process that is not a terminal and not ours: a GUI application's pid for synthetic WINDOW events."""
    proc = subprocess.Popen(["sleep", "60"])
    try:
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()


def test_keys_in_an_application_with_no_observed_field_keep_only_their_count(proactive_home: Path, sleeper: int,
                                                                             terminal: ShellPty) -> None:
    """The fast path: the real pipeline over key events. In a GUI window the lines become counts (Enter ends
    one, a switch ends the other); in a real terminal (a pty whose echo is on) the same keys are text."""
    events = [RawEvent("window", WINDOW, {"app": "Tk", "title": "Notes", "pid": sleeper, "process": "wish"}),
              *keys("Hunter2secretPw\nsecond line"),
              RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell", "pid": terminal.pid,
                                          "process": "xterm"}),
              *keys("echo visible\n")]
    raw, episodes = run_pipeline(events)
    assert "Hunter2" not in raw + episodes and "second" not in raw + episodes
    assert "The user types 26 characters in Notes in Tk (not recorded" in episodes, episodes
    assert "The user types 'echo visible' and presses Enter in the terminal." in episodes, episodes
    assert f"'hidden': '{UNOBSERVED}'" in raw and "'count': 15" in raw and "'count': 11" in raw, raw


def test_a_window_with_no_known_process_fails_closed(proactive_home: Path) -> None:
    """No pid (a window whose process cannot be found): nothing shows what it is, so its keys are counted only."""
    events = [RawEvent("window", WINDOW, {"app": "Mystery", "title": "Notes"}), *keys("s3cretWord!\n")]
    raw, episodes = run_pipeline(events)
    assert "s3cret" not in raw + episodes and "types 11 characters in Notes in Mystery" in episodes, episodes


def start(xsession: XSession, args: list[str], title: str, env: dict[str, str], stdin: str | None = None,
          ready: bool = False) -> str:
    """A real application with window title `title`, focused; its window id."""
    proc = subprocess.Popen(args, env=env, cwd=ROOT, stdin=subprocess.PIPE if stdin is not None else None,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    xsession.procs.append(proc)
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
    if ready:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    wid = wait_for(lambda: xsession._find(title), timeout=20, what=f"window {title!r}")
    xsession.activate(wid)
    time.sleep(0.3)
    return wid


def by_title(watcher: WatcherProcess) -> dict[str, str]:
    """The episodes' text by window title (a window may have several focus spans: their text joined)."""
    out: dict[str, str] = {}
    for e in watcher.episodes():
        out[e["title"]] = out.get(e["title"], "") + e["event"]
    return out


def no_bus(env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """The X session's environment with no session bus (so no accessibility bus) and Qt's accessibility off."""
    out = {k: v for k, v in env.items() if k not in ("AT_SPI_BUS_ADDRESS", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON",
                                                       "QT_ACCESSIBILITY")}
    out["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={tmp_path / 'no-bus'}"
    return out


@pytest.mark.x11
def test_password_fields_of_unobservable_applications_are_never_stored(
        xsession: XSession, proactive_home: Path, tmp_path: Path, cpu_hogs: None) -> None:
    """With no accessibility bus and two CPU hogs: a Tk password entry, a Qt password field, `zenity --password`
    and `zenity --entry --hide-text`, each typed into five times (in a dialog each over the last). No secret,
    nor its start or end, is anywhere
    (database, WAL, logs, the episodes' text and JSON, the watcher's output); each typing is counted."""
    env = no_bus(xsession.env, tmp_path)
    script = tmp_path / "form.tcl"
    watcher = WatcherProcess(proactive_home, env)
    secrets = []
    try:
        script.write_text(TK_FORM.format(TITLE="Tk notes"))
        start(xsession, ["wish", str(script)], "Tk notes", env, ready=True)
        for i in range(5):
            secrets.append(f"TkPw{i}Canary7q")
            xsession.type(secrets[-1])
            xsession.key("Return")
        start(xsession, [sys.executable, str(APP), "Qt notes"], "Qt notes", dict(env, QT_QPA_PLATFORM="xcb"),
              ready=True)
        xsession.key("Tab")  # to the password field
        for i in range(5):
            secrets.append(f"QtPw{i}Canary8w")
            xsession.type(secrets[-1])
            xsession.key("Return")
        for args, title in ((["zenity", "--password", "--title", "Zen pw"], "Zen pw"),
                            (["zenity", "--entry", "--hide-text", "--title", "Zen entry"], "Zen entry")):
            start(xsession, args, title, env)
            for i in range(5):  # each typed over the last (Ctrl+A selects it): five lines, counted
                secrets.append(f"Zen{i}{title[4:6]}Canary9e")
                xsession.type(secrets[-1])
                xsession.key("ctrl+a")
            xsession.key("Return")  # zenity prints the last and exits
            wait_for(lambda t=title: xsession._find(t) is None, timeout=10, what=f"{title!r} to close")
        watcher.flushed()
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    for secret in secrets:
        watcher.assert_nowhere(secret, live, err)
    episodes = by_title(watcher)
    typed = {app: sum(len(s) for s in secrets if s.startswith(app)) for app in ("Tk", "Qt")}
    assert f"types {typed['Tk']} characters in Tk notes" in episodes["Tk notes"], episodes  # five lines
    # (the Tab to the password field is a character of the line: keys say nothing of what a Tab does there)
    assert f"types {typed['Qt'] + 1} characters in Qt notes" in episodes["Qt notes"], episodes
    for title in ("Zen pw", "Zen entry"):  # five lines of 14, each told apart by the Ctrl+A after it
        assert episodes[title].count(f"types 14 characters in {title}") == 5, episodes


@pytest.mark.x11
def test_with_the_bus_running_only_what_the_bus_describes_is_kept(xsession: XSession, proactive_home: Path,
                                                                    tmp_path: Path) -> None:
    """With an accessibility bus: the Qt form (on the bus) keeps its text field's text and drops its password
    field's; the Tk form (Tk is not on the bus) keeps neither its password entry's nor its plain entry's text."""
    from .test_atspi_x11 import A11ySession

    a11y = A11ySession(tmp_path / "a11y", xsession.env).start()
    try:
        watcher = WatcherProcess(proactive_home, a11y.env)
        try:
            start(xsession, [sys.executable, str(APP), "Qt form"], "Qt form", a11y.env, ready=True)
            time.sleep(0.5)
            xsession.type("hello from qt")
            time.sleep(0.5)
            script = tmp_path / "form.tcl"
            script.write_text(TK_FORM.format(TITLE="Tk form"))
            start(xsession, ["wish", str(script)], "Tk form", a11y.env, ready=True)
            xsession.type("TkBusPwCanary55")
            xsession.key("Tab")
            xsession.type("plain tk words")
            watcher.wait_typed("hello from qt")
            watcher.flushed()  # (the Tk form's keys)
            live = all_bytes(proactive_home)
        finally:
            code, err = watcher.stop()
            xsession.close()
    finally:
        a11y.stop()
    assert code == 0, err
    watcher.assert_nowhere("TkBusPwCanary55", live, err)
    episodes = by_title(watcher)
    assert "The user types 'hello from qt'" in episodes["Qt form"], episodes
    counted = re.search(r"types (\d+) characters in Tk form", episodes["Tk form"])
    assert counted and int(counted.group(1)) >= len("TkBusPwCanary55plain tk words"), episodes
    assert b"plain tk" not in all_bytes(proactive_home)


def test_accessibility_is_turned_on_through_the_status_the_toolkits_read(xsession: XSession, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The real at-spi-bus-launcher: off at first, the probe says that typing is only counted and how to turn
    accessibility on; `set_toolkit_accessibility(True)` sets org.a11y.Status.IsEnabled (read back), after which
    the probe has nothing to fix; and off again."""
    from proactive.watcher.capture.atspi import AtspiSource, set_toolkit_accessibility, toolkit_accessibility

    from .test_atspi_x11 import A11ySession

    a11y = A11ySession(tmp_path / "a11y", xsession.env).start()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", a11y.env["DBUS_SESSION_BUS_ADDRESS"])
    try:
        assert toolkit_accessibility() is False
        probe = AtspiSource(text=True).probe()
        assert probe.works and "count of characters" in probe.detail and "accessibility on" in probe.fix, probe
        assert set_toolkit_accessibility(True) == "" and toolkit_accessibility() is True
        probe = AtspiSource(text=True).probe()
        assert probe.works and not probe.fix and "not on it" in probe.detail, probe
        assert set_toolkit_accessibility(False) == "" and toolkit_accessibility() is False
        # the command: turns it on, remembers it, says it; `off` remembers only (screen readers use the setting)
        env = dict(a11y.env, PROACTIVE_HOME=str(tmp_path / "home"))
        out = run_cli("accessibility", "on", env=env)
        assert out.returncode == 0 and "accessibility: on" in out.stdout, out
        assert toolkit_accessibility() is True
        assert 'accessibility = "on"' in (tmp_path / "home" / "config.toml").read_text()
        out = run_cli("accessibility", "off", env=env)
        assert out.returncode == 0 and toolkit_accessibility() is True, out
        assert 'accessibility = "off"' in (tmp_path / "home" / "config.toml").read_text()
    finally:
        a11y.stop()
    out = run_cli("accessibility", "on", env=dict(env, DBUS_SESSION_BUS_ADDRESS=f"unix:path={tmp_path / 'gone'}"))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out
    assert 'accessibility = "off"' in (tmp_path / "home" / "config.toml").read_text()  # nothing changed
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path / 'gone'}")
    assert set_toolkit_accessibility(True) != ""  # no session bus: the reason, nothing raised


@pytest.mark.x11
def test_gtk_dialogs_on_the_bus_keep_their_text_and_drop_their_passwords(
        xsession: XSession, proactive_home: Path, tmp_path: Path) -> None:
    """With the bus running, zenity (GTK 3, on the bus) says what its fields are: an entry's text is kept as
    typed, a password dialog's is nowhere, where without the bus both were only counted."""
    from .test_atspi_x11 import A11ySession

    a11y = A11ySession(tmp_path / "a11y", xsession.env).start()
    try:
        watcher = WatcherProcess(proactive_home, a11y.env)
        try:
            start(xsession, ["zenity", "--entry", "--title", "Zen name"], "Zen name", a11y.env)
            time.sleep(1.0)  # the dialog registers on the bus after it maps
            xsession.type("ordinary words")
            time.sleep(0.5)
            xsession.key("Return")
            start(xsession, ["zenity", "--password", "--title", "Zen secret"], "Zen secret", a11y.env)
            time.sleep(1.0)
            xsession.type("ZenBusPwCanary42")
            time.sleep(0.5)
            xsession.key("Return")
            watcher.wait_typed("ordinary words")
            watcher.flushed()
            live = all_bytes(proactive_home)
        finally:
            code, err = watcher.stop()
            xsession.close()
    finally:
        a11y.stop()
    assert code == 0, err
    watcher.assert_nowhere("ZenBusPwCanary42", live, err)
    episodes = by_title(watcher)
    assert "The user types 'ordinary words'" in episodes["Zen name"], episodes
