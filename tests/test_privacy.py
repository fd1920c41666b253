"""The privacy filter's rules, table-driven, and the pipeline's handling of keys in private contexts."""

from __future__ import annotations

import math
import os
import subprocess
from collections.abc import Iterator

import pytest

from proactive.watcher.events import (
    CLICK,
    CLIPBOARD,
    CONTROL,
    HOTKEY,
    IDLE,
    SCROLL,
    TEXT,
    WEB,
    WINDOW,
    RawEvent,
)
from proactive.watcher.privacy.filter import PRIVATE_APP, PrivacyFilter
from proactive.watcher.store.database import Store
from proactive.watcher.store.home import Config

from .conftest import keys, run_pipeline


def window(app: str, title: str, process: str = "", pid: int = 42) -> RawEvent:
    return RawEvent("window", WINDOW, {"app": app, "title": title, "process": process or app.lower(), "pid": pid})


@pytest.mark.parametrize(
    "win, kind, data, kept",
    [
        (window("Visual Studio Code", "client.py"), TEXT, {"text": "import requests"}, True),
        (window("KeePassXC", "Passwords.kdbx - KeePassXC", "keepassxc"), TEXT, {"text": "hunter2"}, False),
        (window("KeePassXC", "Passwords.kdbx - KeePassXC", "keepassxc"), CLIPBOARD, {"text": "hunter2"}, False),
        (window("KeePassXC", "Passwords.kdbx - KeePassXC", "keepassxc"), CLICK, {"button": "left"}, False),
        (window("Firefox", "Mozilla Firefox Private Browsing"), TEXT, {"text": "secret search"}, False),
        (window("Google Chrome", "New Tab - Incognito"), CLIPBOARD, {"text": "x"}, False),
        (window("Firefox", "Sign in to GitHub - Mozilla Firefox"), TEXT, {"text": "myPassw0rd"}, False),
        (window("Firefox", "Sign in to GitHub - Mozilla Firefox"), CLICK, {"button": "left"}, True),
        (window("pinentry", "Enter PIN"), TEXT, {"text": "1234"}, False),
        (window("XTerm", "Enter passphrase for key"), CLIPBOARD, {"text": "correct horse"}, False),
        (window("Firefox", "Password reset help - docs"), HOTKEY, {"combo": "ctrl+c"}, True),
    ],
    ids=["editor-text", "pwmanager-text", "pwmanager-copy", "pwmanager-click", "private-browsing",
         "incognito-copy", "login-text", "login-click", "pin-text", "passphrase-copy", "password-title-hotkey"],
)
def test_context_rules(win, kind, data, kept):
    f = PrivacyFilter(Config())
    stored_window = f.clean(win)
    assert stored_window is not None
    out = f.clean(RawEvent("test", kind, dict(data)))
    assert (out is not None) == kept


def test_excluded_window_is_stored_anonymously():
    f = PrivacyFilter(Config())
    out = f.clean(window("KeePassXC", "Bank - Passwords.kdbx", "keepassxc"))
    assert out.data == {"app": PRIVATE_APP, "title": "", "private": True}


def test_secrets_are_redacted_in_every_field():
    f = PrivacyFilter(Config())
    f.clean(window("Visual Studio Code", "notes.md"))
    key = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    for kind, data in [(TEXT, {"text": f"token {key}"}), (CLIPBOARD, {"text": key}),
                       (WEB, {"url": f"https://example.com/?t={key}", "title": key, "browser": "Firefox"})]:
        out = f.clean(RawEvent("t", kind, data))
        assert key not in repr(out.data)
    out = f.clean(window("Visual Studio Code", f"{key} - notes.md"))
    assert key not in repr(out.data)


def test_pages_of_a_private_window_or_an_excluded_browser_are_not_kept():
    """A page visit (ActivityWatch's web watcher) is the material of page help: none from a private window, a
    browser the person excluded, or a page whose title is excluded."""
    f = PrivacyFilter(Config(excluded_apps=["chromium"]))
    page = {"url": "https://example.org/a", "title": "Docs", "browser": "Firefox"}
    assert f.clean(RawEvent("aw", WEB, page)) is not None
    assert f.clean(RawEvent("aw", WEB, {**page, "incognito": True})) is None
    assert f.clean(RawEvent("aw", WEB, {**page, "browser": "Chromium"})) is None
    assert f.clean(RawEvent("aw", WEB, {**page, "title": "Private Browsing"})) is None


def test_pause_drops_everything_but_markers():
    f = PrivacyFilter(Config())
    marker = f.pause(math.inf)
    assert f.clean(marker).kind == CONTROL
    assert f.clean(RawEvent("t", TEXT, {"text": "while paused"})) is None
    assert f.clean(window("A", "b")) is None
    assert f.clean(f.resume()).data == {"state": "resumed"}
    assert f.clean(RawEvent("t", TEXT, {"text": "after"})) is not None


def test_pause_with_expiry_ends_by_itself():
    f = PrivacyFilter(Config())
    f.pause(0.0)  # already expired
    assert not f.paused


def test_filter_fails_closed(monkeypatch):
    import proactive.watcher.privacy.filter as privacy

    def broken(text: str) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(privacy, "redact", broken)
    f = PrivacyFilter(Config())
    assert f.clean(RawEvent("t", TEXT, {"text": "anything"})) is None
    assert f.failures == 1


@pytest.mark.parametrize(
    "line, asks",
    [("sudo apt update", True), ("ssh user@host", True), ("passwd", True), ("mysql -u root -p", True),
     ("ls -la", False), ("echo sudo", False), ("python manage.py runserver", False)],
)
def test_terminal_password_commands(line, asks):
    """The whole recogniser is table-tested in test_terminal_secrets.py; here, the filter's answer."""
    f = PrivacyFilter(Config())
    f.clean(window("XTerm", "shell", "xterm"))
    assert f.asks_password(line) is asks


@pytest.mark.parametrize(
    "title",
    ["[sudo] password for alice:", "Username for 'https://github.com':", "Password for 'https://me@github.com':",
     "Enter passphrase for key '/home/alice/.ssh/id_ed25519':", "Enter PIN", "Password:"],
)
def test_prompt_titles_hide_typing_even_with_custom_password_titles(title):
    f = PrivacyFilter(Config(password_titles=[]))  # the user's list replaces the defaults: prompts still count
    f.clean(window("XTerm", title, "xterm"))
    assert f.clean(RawEvent("keyboard", TEXT, {"text": "hunter2", "enter": True})) is None
    assert not f.accepts_keys()


def test_titles_that_only_mention_passwords_follow_the_users_list():
    f = PrivacyFilter(Config(password_titles=[]))
    f.clean(window("Firefox", "Password reset help - docs"))
    assert f.clean(RawEvent("keyboard", TEXT, {"text": "how to"})) is not None


def test_pipeline_hides_sudo_password_and_excluded_typing(proactive_home, terminal):
    events = [window("XTerm", "shell", "xterm", terminal.pid), *keys("sudo ls\nhunter2secret\necho done\n"),
              window("KeePassXC", "db.kdbx - KeePassXC", "keepassxc"), *keys("vaultmaster99\n"),
              window("XTerm", "shell", "xterm", terminal.pid), *keys("exit\n")]
    blob = "".join(run_pipeline(events))
    assert "hunter2secret" not in blob and "vaultmaster99" not in blob
    assert "sudo ls" in blob and "echo done" in blob and "exit" in blob
    assert "enters a password (hidden)" in blob


# -------------------------------------------------------------------------------------------- our own windows

OWN_TITLE = "Proactive: history"


@pytest.fixture
def child_pid() -> Iterator[int]:
    """A process we started (as the help starts a browser): ours by ancestry, not our window."""
    child = subprocess.Popen(["sleep", "60"])
    try:
        yield child.pid
    finally:
        child.kill()
        child.wait()


@pytest.mark.parametrize(
    "kind, data",
    [(WINDOW, {"app": "proactive", "title": "Proactive: settings", "process": "python3"}), (TEXT, {"text": "a note"}),
     (CLICK, {"button": "left"}), (SCROLL, {"dx": 0, "dy": 1}), (HOTKEY, {"combo": "ctrl+c"}),
     (CLIPBOARD, {"text": "the proposal's text"})],
    ids=["title-change", "text", "click", "scroll", "hotkey", "copy"],
)
def test_nothing_done_in_our_own_window_is_kept(kind, data):
    f = PrivacyFilter(Config())
    assert f.clean(window("proactive", OWN_TITLE, "python3", os.getpid())) is None
    assert not f.accepts_keys() and not f.accepts_typed({"role": "text"})
    ours, theirs = (dict(data, pid=os.getpid()), dict(data, pid=42)) if kind == WINDOW else (data, data)
    assert f.clean(RawEvent("test", kind, dict(ours))) is None
    assert f.clean(RawEvent("afk", IDLE, {"state": "idle", "seconds": 60})) is not None  # not seen in a window
    assert f.clean(window("Visual Studio Code", "client.py")) is not None  # the next window is kept again
    assert f.clean(RawEvent("test", kind, dict(theirs))) is not None


def test_a_window_with_our_title_in_another_process_is_kept(child_pid):
    """The title is no proof: another program (here one we started ourselves) may show the same."""
    f = PrivacyFilter(Config())
    out = f.clean(window("proactive", OWN_TITLE, "python3", child_pid))
    assert out is not None and out.data["title"] == OWN_TITLE
    assert f.accepts_keys()
    assert f.clean(RawEvent("test", TEXT, {"text": "a note"})) is not None


def test_pipeline_stores_nothing_of_our_own_window(proactive_home, child_pid, terminal):
    """The tray app's own window between two of the person's: no raw event, no episode; the same title in
    another process is an episode like any other (its typing counted: no field of it is observed)."""
    events = [window("XTerm", "client.py - vim", "xterm", terminal.pid), *keys("first line\n"),
              window("proactive", OWN_TITLE, "python3", os.getpid()), *keys("note in our window\n"),
              RawEvent("mouse", CLICK, {"button": "left", "x": 1, "y": 1}),
              RawEvent("clipboard", CLIPBOARD, {"text": "copied from our window"}),
              window("XTerm", "client.py - vim", "xterm", terminal.pid), *keys("second line\n"),
              window("proactive", OWN_TITLE, "python3", child_pid), *keys("typed in the other one\n")]
    raw, episodes = run_pipeline(events)
    assert "note in our window" not in raw + episodes and "copied from our window" not in raw + episodes
    assert raw.count(OWN_TITLE) == 1 and "'count': 22" in raw  # the other process's window only
    store = Store()
    try:
        stored = [(e["title"], e["event"]) for e in store.episodes()]
    finally:
        store.close()
    assert [t for t, _ in stored] == ["client.py - vim", OWN_TITLE]
    assert "first line" in stored[0][1] and "second line" in stored[0][1]
    assert "types 22 characters" in stored[1][1]
