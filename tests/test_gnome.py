"""GNOME on Wayland, end to end in a real headless GNOME Shell 43 (bench/gnome_session.py: the shell as an
unprivileged user with Xwayland, a private system bus, its session bus, keys through Mutter's RemoteDesktop).

- With Proactive's own Shell extension installed by the real `proactive gnome-extension install` before the
  login (as a person would, then log in again): `proactive watch` records the titles of an accessible Qt form and
  of a terminal that is not accessible (foot), the switches between them, a copy made with Ctrl+C in the form
  (read from Xwayland's clipboard, which Mutter keeps in step), the text typed in the form, an idle period, and
  nothing typed into the form's password field anywhere (database with its WAL, logs, outputs).
- `proactive doctor --json` there: window, clipboard, typed text with password fields, and idle, each working.
- Without a shell: the extension's files for each Shell format, the install and remove commands against a
  keyfile settings backend, and the WINDOW data made of the extension's JSON.
- A session without the extension and without Xwayland: doctor still has the window row and the clipboard row,
  each saying what to do once (the extension's command and the next login), and the watcher's warnings say each
  fix once.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.gnome_session import GnomeSession, install_extension, start_gnome
from proactive.watcher.capture import gnome_extension
from proactive.watcher.capture.wl_window import DESKTOP, gnome_info

from .conftest import WatcherProcess, all_bytes, run_cli, started_sources, wait_for

APP = Path(__file__).with_name("a11y_app.py")
CANARY_PASSWORD = "GnCanaryPw5821q"
FORM = "Sign-up form"
SHELL = "notes shell"


# -- without a shell ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("major,loader", [(43, "function init()"), (45, "export default class")])
def test_the_extension_is_wrapped_for_each_shell_format(major: int, loader: str):
    files = gnome_extension.files(major)
    metadata = json.loads(files["metadata.json"])
    assert metadata["uuid"] == gnome_extension.UUID and metadata["shell-version"] == [str(major)]
    code = files["extension.js"]
    assert loader in code and "class ProactiveFocus" in code and gnome_extension.INTERFACE in code
    assert ("imports.gi" in code) == (major < 45) and ("gi://Gio" in code) == (major >= 45)


def test_install_and_remove_commands(tmp_path: Path):
    env = dict(PATH="/usr/bin:/bin", HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), GSETTINGS_BACKEND="keyfile", PROACTIVE_HOME=str(tmp_path))
    installed = run_cli("gnome-extension", "install", env=env)
    assert installed.returncode == 0, installed.stderr
    folder = tmp_path / "data/gnome-shell/extensions" / gnome_extension.UUID
    assert (folder / "extension.js").is_file() and "log out and back in" in installed.stdout
    settings = (tmp_path / "config/glib-2.0/settings/keyfile").read_text()
    assert gnome_extension.UUID in settings, settings
    assert run_cli("gnome-extension", "install", env=env).returncode == 0  # twice: enabled once
    assert (tmp_path / "config/glib-2.0/settings/keyfile").read_text().count(gnome_extension.UUID) == 1
    removed = run_cli("gnome-extension", "remove", env=env)
    assert removed.returncode == 0 and not folder.exists(), removed.stderr
    assert gnome_extension.UUID not in (tmp_path / "config/glib-2.0/settings/keyfile").read_text()


def test_window_data_from_the_extension():
    assert gnome_info("{}") == DESKTOP
    info = gnome_info('{"title": "notes", "wm_class": "foot", "pid": 0}')
    assert (info["app"], info["title"], info["pid"]) == ("foot", "notes", None)


# -- in GNOME Shell ---------------------------------------------------------------------------------------------------

def start(**kwargs) -> tuple[GnomeSession, object]:
    try:
        return start_gnome(**kwargs)
    except RuntimeError as exc:
        pytest.fail(f"headless GNOME Shell did not start: {exc}")


@pytest.fixture(scope="module")
def gnome() -> Iterator[GnomeSession]:
    session, stop = start(before_login=install_extension)
    try:
        yield session
    finally:
        stop()  # type: ignore[operator]


@pytest.fixture
def gn(gnome: GnomeSession) -> Iterator[GnomeSession]:
    yield gnome
    gnome.close()


def start_form(gn: GnomeSession, title: str) -> None:
    env = dict(gn.env, QT_QPA_PLATFORM="wayland", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1")
    app = subprocess.Popen([sys.executable, str(APP), title], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    gn.procs.append(app)
    assert app.stdout is not None and app.stdout.readline().strip() == "ready"
    wait_for(lambda: gn.window(title), timeout=30, what=f"the Qt form {title!r} in GNOME Shell")


def test_watch_in_gnome_records_every_window_copy_typed_text_idle_and_never_the_password(
        gn: GnomeSession, proactive_home: Path):
    # unencrypted, so the search for the password below reads the stored text itself
    (proactive_home / "config.toml").write_text('idle_seconds = 2\nencryption = "off"\n')
    gn.start_foot(SHELL)
    watcher = WatcherProcess(proactive_home, gn.env)
    try:
        start_form(gn, FORM)
        gn.focus(FORM)
        gn.key("Shift_L")  # input: the idle that began while the form started ends before the typing
        time.sleep(1.0)
        gn.type("hello gnome form")
        time.sleep(0.5)
        gn.key("Tab")  # to the password field
        time.sleep(0.8)
        gn.type(CANARY_PASSWORD)
        time.sleep(0.5)
        gn.key("Tab")  # back to the name field, which Qt then selects whole
        time.sleep(0.8)
        gn.key("End")
        gn.type(" again")
        time.sleep(0.5)
        gn.key("Control_L+a")
        gn.key("Control_L+c")  # a real copy, from a Wayland client: Mutter mirrors it to Xwayland
        time.sleep(1.2)
        gn.focus(SHELL)  # foot: not on the accessibility bus
        time.sleep(1.2)
        time.sleep(4.5)  # no input for more than idle_seconds
        gn.type("back\n")
        time.sleep(1.0)
        gn.focus(FORM)
        time.sleep(1.2)
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    log = (proactive_home / "logs" / "proactive.log").read_text()
    started = started_sources(proactive_home)
    warnings = [line for line in log.splitlines() if "unavailable" in line]
    assert all(name in started for name in ("window", "clipboard", "idle", "accessibility (AT-SPI)")), warnings
    episodes = watcher.episodes()
    titles = [e["title"] for e in episodes]
    assert FORM in titles and SHELL in titles, episodes
    shell = [e for e in episodes if e["title"] == SHELL]
    assert shell[0]["app"] == "foot", shell
    first_form = titles.index(FORM)
    assert SHELL in titles[first_form:] and FORM in titles[titles.index(SHELL, first_form):], titles  # both switches
    typed = " ".join(e["event"] for e in episodes if e["title"] == FORM)
    assert "hello gnome form" in typed and "again" in typed, json.dumps(episodes, indent=1)
    everything_said = " ".join(e["event"] for e in episodes)
    assert "stops using the computer (idle)" in everything_said, episodes
    assert "comes back after being away" in everything_said, episodes
    db = sqlite3.connect(proactive_home / "proactive.db")
    copies = db.execute("SELECT data FROM raw_events WHERE kind = 'clipboard'").fetchall()
    db.close()
    assert len(copies) == 1 and json.loads(copies[0][0])["text"] == "hello gnome form again", copies
    watcher.assert_nowhere(CANARY_PASSWORD, live, err)


def stored_window_titles(home: Path) -> list[str]:
    """The titles of the window events the watcher has stored so far (an unencrypted home)."""
    if not (home / "proactive.db").exists():
        return []
    db = sqlite3.connect(home / "proactive.db")
    try:
        rows = db.execute("SELECT title FROM raw_events WHERE kind = 'window'").fetchall()
    except sqlite3.OperationalError:  # the schema not written yet
        return []
    finally:
        db.close()
    return [title or "" for (title,) in rows]


def sources(env: dict[str, str], home: Path) -> dict[str, dict]:
    out = run_cli("doctor", "--json", env=dict(env, PROACTIVE_HOME=str(home)))
    assert out.returncode == 0, out.stderr
    return {p["source"].split(" (")[0]: p for p in json.loads(out.stdout)["sources"]}


def test_doctor_in_gnome_with_the_extension(gn: GnomeSession, proactive_home: Path):
    found = sources(gn.env, proactive_home)
    assert {"window", "clipboard", "idle", "accessibility"} <= set(found), found
    for name in ("window", "clipboard", "idle"):
        row = found[name]
        assert row["works"] and row["tested"] and not row["fix"], row
    # GNOME's toolkit-accessibility is off by default: the bus works, and the row says typing in applications not
    # on it is only counted, with the command that turns it on
    row = found["accessibility"]
    assert row["works"] and row["tested"] and "proactive accessibility on" in row["fix"], row
    assert "count of characters" in row["detail"], row
    assert "Xwayland" in found["clipboard"]["source"] and "extension" in found["window"]["source"]
    assert "typed text" in found["accessibility"]["captures"] and "password" in found["accessibility"]["captures"]


def test_a_fresh_gnome_without_extension_or_xwayland_says_each_fix_once(proactive_home: Path):
    """No extension installed and no Xwayland: doctor has a window row and a clipboard row that cannot work, each
    with its one fix (the extension's command and the next login; Xwayland); the watcher's start warnings name
    each fix once, and the accessibility bus still gives the accessible windows."""
    session, stop = start(x11=False)
    try:
        found = sources(session.env, proactive_home)
        window, clipboard = found["window"], found["clipboard"]
        assert not window["works"] and "proactive gnome-extension install" in window["fix"], window
        assert "log out" in window["fix"] and window["tested"], window
        assert not clipboard["works"] and "Xwayland" in clipboard["fix"], clipboard
        assert found["idle"]["works"] and found["accessibility"]["works"], found
        (proactive_home / "config.toml").write_text('encryption = "off"\n')  # the window events read below
        watcher = WatcherProcess(proactive_home, session.env)
        try:
            start_form(session, FORM)
            session.focus(FORM)
            # the bus's window event stored (a busy machine delivers it late: no fixed wait)
            wait_for(lambda: FORM in stored_window_titles(proactive_home), timeout=30, what="the form's window event")
        finally:
            code, err = watcher.stop()
            session.close()
        assert code == 0, err
        log = (proactive_home / "logs" / "proactive.log").read_text()
        warnings = [line for line in log.splitlines() if "unavailable" in line]
        for row in (window, clipboard):
            line = next(w for w in warnings if f"source {row['source'].split(' (')[0]} unavailable" in w)
            assert line.count(row["fix"]) == 1, line
        assert FORM in [e["title"] for e in watcher.episodes()]
    finally:
        stop()  # type: ignore[operator]
