"""Wayland capture.

Unit tests (no compositor): session detection from the environment (table-driven), the sway IPC framing, the
focused container of a `get_tree` answer, wl-paste's stream framing, the Wayland registry query against a fake
compositor, which sources `default_sources()` picks for each session, and that the backends no test here can
run (Hyprland, the ScreenSaver idle monitor) and KWin's and GNOME's outside their desktops fail with a clear probe
instead of crashing. KWin itself: tests/test_kwin.py; GNOME: tests/test_gnome.py.

End to end on a real headless sway (tests/wayland_session.py: sway as an unprivileged user, a private session
D-Bus and the AT-SPI bus): `proactive watch --no-aw` records two real foot windows' titles, the switch between
them and a wl-copy; with DISPLAY also set (a real Xvfb standing in for XWayland) it still picks the Wayland
sources; swayidle reports idle and back.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from proactive.watcher.capture import session as wsession
from proactive.watcher.capture.platform import default_sources
from proactive.watcher.capture.sources import SourceUnavailable
from proactive.watcher.capture.wayland import WaylandError, wayland_globals
from proactive.watcher.capture.wl_clipboard import Framer, WlClipboard
from proactive.watcher.capture.wl_idle import MutterIdle, ScreenSaverIdle, SwayIdle
from proactive.watcher.capture.wl_window import (
    GET_TREE,
    HEADER,
    MAGIC,
    GnomeShellWindow,
    HyprlandWindow,
    KWinWindow,
    NoWindow,
    SwayWindow,
    container_info,
    focused_node,
    pack_message,
    unpack_header,
)

from .conftest import WatcherProcess, XSession, all_bytes, started_sources, wait_for
from .test_atspi_x11 import check_form_rounds
from .wayland_session import WaylandSession, start_wayland

# -- session detection --------------------------------------------------------------------------------------------

SESSIONS = [
    # env, kind, compositor, xwayland
    ({}, "none", "", False),
    ({"DISPLAY": ":0"}, "x11", "", False),
    ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "XFCE"}, "x11", "xfce", False),
    ({"XDG_SESSION_TYPE": "x11"}, "x11", "", False),
    ({"WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/run/user/1000/sway-ipc.sock"}, "wayland", "sway", False),
    # GNOME and KDE on Wayland set DISPLAY too (XWayland): Wayland wins
    ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland",
      "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"}, "wayland", "gnome", True),
    ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":1", "XDG_CURRENT_DESKTOP": "KDE"}, "wayland", "kde", True),
    ({"WAYLAND_DISPLAY": "wayland-1", "HYPRLAND_INSTANCE_SIGNATURE": "abc_123", "XDG_CURRENT_DESKTOP": "Hyprland"},
     "wayland", "hyprland", False),
    ({"WAYLAND_DISPLAY": "wayland-1", "XDG_CURRENT_DESKTOP": "river"}, "wayland", "river", False),
    ({"WAYLAND_DISPLAY": "wayland-1"}, "wayland", "", False),
    ({"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME"}, "wayland", "gnome", False),
    # X11 session type but a Wayland display given: the Wayland display wins (a nested compositor)
    ({"XDG_SESSION_TYPE": "x11", "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-9", "SWAYSOCK": "/s"},
     "wayland", "sway", True),
    # SWAYSOCK left over in an X11 session does not make it sway
    ({"DISPLAY": ":0", "SWAYSOCK": "/stale"}, "x11", "", False),
]


@pytest.mark.parametrize("env,kind,compositor,xwayland", SESSIONS)
def test_session_detection(env: dict[str, str], kind: str, compositor: str, xwayland: bool):
    found = wsession.detect(env)
    assert (found.kind, found.compositor, found.xwayland) == (kind, compositor, xwayland)
    line = wsession.describe(env)
    assert line == found.describe() == wsession.describe(found)
    assert {"wayland": "Wayland", "x11": "X11", "none": "no display"}[kind] in line
    assert ("XWayland on" in line) == xwayland
    assert found.to_json()["description"] == line


def test_wayland_socket_path():
    assert wsession.wayland_socket({"WAYLAND_DISPLAY": "/tmp/x/wayland-1"}) == "/tmp/x/wayland-1"
    assert wsession.wayland_socket({"WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/u"}) == "/run/u/wayland-1"
    assert wsession.wayland_socket({"XDG_RUNTIME_DIR": "/run/u"}) == "/run/u/wayland-0"


# -- sway IPC framing ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind,payload", [(GET_TREE, b""), (2, b'["window"]'), (0, "focus"), (7, "é")])
def test_ipc_framing_round_trip(kind: int, payload: bytes | str):
    data = pack_message(kind, payload)
    body = payload.encode() if isinstance(payload, str) else payload
    assert data[:6] == MAGIC == b"i3-ipc"
    assert len(data) == 14 + len(body)
    assert struct.unpack("=II", data[6:14]) == (len(body), kind)
    assert unpack_header(data[:14]) == (len(body), kind) and data[14:] == body


@pytest.mark.parametrize("header", [b"i3-ipX" + b"\0" * 8, b"i3-ipc\0\0", b""])
def test_ipc_framing_rejects_garbage(header: bytes):
    with pytest.raises(ValueError):
        unpack_header(header)


def test_ipc_event_type_has_high_bit():
    length, kind = unpack_header(HEADER.pack(MAGIC, 5, 0x80000003))
    assert (length, kind) == (5, 0x80000003)


TREE = {"type": "root", "nodes": [{"type": "output", "nodes": [{"type": "workspace", "focused": False, "nodes": [
    {"type": "con", "name": "build shell", "app_id": "foot", "pid": None, "focused": False, "nodes": []},
    {"type": "con", "name": "Untitled - Gedit", "app_id": None, "pid": None, "focused": True, "nodes": [],
     "window_properties": {"class": "Gedit", "instance": "gedit"}},
]}]}]}


def test_focused_container_and_its_data():
    node = focused_node(TREE)
    assert node is not None and node["name"] == "Untitled - Gedit"
    info = container_info(node)  # an XWayland window: named by its X11 class
    assert info == {"app": "Gedit", "title": "Untitled - Gedit", "pid": None, "process": "Gedit"}
    foot = container_info(TREE["nodes"][0]["nodes"][0]["nodes"][0])
    assert (foot["app"], foot["title"]) == ("foot", "build shell")
    empty = {"type": "workspace", "focused": True, "nodes": [], "name": "1"}
    assert container_info(empty)["app"] == "desktop" and container_info(None)["title"] == ""


# -- wl-paste's stream --------------------------------------------------------------------------------------------

def frame(text: bytes, mark: bytes = b"T", token: bytes = b"t0k") -> bytes:
    return text + b"\0\x1e" + mark + token + b"\x1e\0"


@pytest.mark.parametrize("step", [1, 3, 7, 4096])
def test_framer_splits_copies_in_any_chunking(step: int):
    stream = (frame("héllo wörld".encode()) + frame(b"") + frame(b"", b"S") + frame(b"x" * 50_000)
              + frame(b"a\0b") + frame(b"tail"))
    framer, out = Framer("t0k", keep=8), []
    for i in range(0, len(stream), step):
        out += framer.feed(stream[i:i + step])
    assert out == [("héllo wörld".encode()[:8], 13, False), (b"", 0, False), (b"", 0, True),
                   (b"x" * 8, 50_000, False), (b"a\0b", 3, False), (b"tail", 4, False)]


def test_framer_ignores_another_runs_delimiter():
    framer = Framer("mine", keep=100)
    assert framer.feed(frame(b"abc", token=b"other")) == []
    assert framer.feed(frame(b"", token=b"mine")) == [(frame(b"abc", token=b"other"), 13, False)]


# -- the Wayland registry, asked of a fake compositor -----------------------------------------------------------------

def wl_string(text: str) -> bytes:
    raw = text.encode() + b"\0"
    return struct.pack("=I", len(raw)) + raw + b"\0" * (-len(raw) % 4)


def wl_event(sender: int, opcode: int, body: bytes) -> bytes:
    return struct.pack("=II", sender, ((8 + len(body)) << 16) | opcode) + body


@pytest.fixture
def fake_compositor(tmp_path: Path) -> Iterator[tuple[Path, list[bytes]]]:
    path = tmp_path / "wayland-fake"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    received: list[bytes] = []
    globals_ = [(1, "wl_compositor", 5), (2, "zwlr_data_control_manager_v1", 2), (3, "ext_idle_notifier_v1", 1)]

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            data = b""
            while len(data) < 24:
                data += conn.recv(24 - len(data))
            received.append(data)
            reply = b"".join(wl_event(2, 0, struct.pack("=I", n) + wl_string(i) + struct.pack("=I", v))
                             for n, i, v in globals_)
            reply += wl_event(3, 0, struct.pack("=I", 1))
            for i in range(0, len(reply), 5):  # in pieces, as a socket may deliver them
                conn.sendall(reply[i:i + 5])

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield path, received
    server.close()
    thread.join(timeout=2)


def test_wayland_globals_from_the_registry(fake_compositor: tuple[Path, list[bytes]]):
    path, received = fake_compositor
    found = wayland_globals({"WAYLAND_DISPLAY": str(path)})
    assert found == {"wl_compositor": 5, "zwlr_data_control_manager_v1": 2, "ext_idle_notifier_v1": 1}
    # get_registry(new id 2) then sync(new id 3) on wl_display (object 1)
    assert received == [struct.pack("=III", 1, (12 << 16) | 1, 2) + struct.pack("=III", 1, 12 << 16, 3)]


def test_wayland_globals_without_a_compositor(tmp_path: Path):
    with pytest.raises(WaylandError, match="cannot connect"):
        wayland_globals({"WAYLAND_DISPLAY": str(tmp_path / "none")})


# -- which sources, per session -------------------------------------------------------------------------------------

SESSION_VARS = ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP", "SWAYSOCK",
                "HYPRLAND_INSTANCE_SIGNATURE")


@pytest.mark.parametrize("env,window", [
    ({"WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0", "SWAYSOCK": "/s"}, SwayWindow),
    ({"WAYLAND_DISPLAY": "wayland-1", "HYPRLAND_INSTANCE_SIGNATURE": "x"}, HyprlandWindow),
    ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "KDE"}, KWinWindow),
    # GNOME before our Shell extension runs (none here): the extension's source stays listed (doctor's row, the
    # warning), the accessibility bus's window:activate gives the accessible windows meanwhile
    ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"}, None),
    ({"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "river"}, NoWindow),
])
def test_wayland_sessions_get_wayland_sources_and_no_key_logger(monkeypatch: pytest.MonkeyPatch, env, window):
    for name in SESSION_VARS:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    sources = default_sources(60, 500)
    names = [type(s).__name__ for s in sources]
    if window is None:
        assert names == ["GnomeShellWindow", "XwaylandClipboard", "MutterIdle", "AtspiSource"], names
        assert sources[3].windows and sources[3].text and sources[1].max_chars == 500
        return
    assert isinstance(sources[0], window)
    assert isinstance(sources[1], WlClipboard) and sources[1].max_chars == 500
    assert isinstance(sources[2], SwayIdle) and sources[2].idle_seconds == 60
    assert not {"Keyboard", "Mouse", "X11ActiveWindow", "X11Clipboard", "X11Idle"} & set(names)
    assert names[3:] in ([], ["AtspiSource"])  # AT-SPI for typed text, when its module imports
    if names[3:]:
        assert not sources[3].windows  # the compositor gives the windows


def test_x11_and_no_display_sessions(monkeypatch: pytest.MonkeyPatch):
    for name in SESSION_VARS:
        monkeypatch.delenv(name, raising=False)
    assert default_sources(60, 500) == []
    monkeypatch.setenv("DISPLAY", ":0")
    names = [type(s).__name__ for s in default_sources(60, 500)]
    assert names[:5] == ["X11ActiveWindow", "Keyboard", "Mouse", "X11Clipboard", "X11Idle"]


# -- backends that cannot run here fail with a clear probe ---------------------------------------------------------

def test_untested_backends_say_why_outside_their_desktop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    for name in (*SESSION_VARS, "DBUS_SESSION_BUS_ADDRESS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # no bus socket in it
    for source in (HyprlandWindow(), NoWindow("river"), ScreenSaverIdle(60)):
        probe = source.probe()
        assert not probe.works and probe.detail and probe.fix and probe.tested is False, probe
        with pytest.raises(SourceUnavailable):
            source.start(lambda event: None)
        source.stop()
    # the tested ones, outside their desktop (KWin's in tests/test_kwin.py, GNOME's in tests/test_gnome.py)
    for source in (SwayWindow(), KWinWindow(), WlClipboard(), SwayIdle(60), GnomeShellWindow(), MutterIdle(60)):
        probe = source.probe()
        assert not probe.works and probe.detail and probe.tested, probe
        with pytest.raises(SourceUnavailable):
            source.start(lambda event: None)
        source.stop()


# -- end to end on headless sway ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sway() -> Iterator[WaylandSession]:
    try:
        session, stop = start_wayland()
    except RuntimeError as exc:
        pytest.fail(f"headless sway did not start: {exc}")
    try:
        yield session
    finally:
        stop()


@pytest.fixture
def wl(sway: WaylandSession) -> Iterator[WaylandSession]:
    yield sway
    sway.close()


def episode_with(episodes: list[dict], title: str) -> dict:
    matches = [e for e in episodes if e["title"] == title]
    assert matches, f"no episode titled {title!r} in {[e['title'] for e in episodes]}"
    return matches[0]


COPY = "Traceback (most recent call last):\n  File \"client.py\", line 3\nTimeoutError: timed out"


def test_watch_on_sway_records_windows_switch_and_copy(wl: WaylandSession, proactive_home: Path):
    wl.copy("there before capture")  # the selection at start is not a copy made now
    wl.start_foot("client.py - editor")
    wl.start_foot("build shell")
    wl.focus("client.py - editor")
    watcher = WatcherProcess(proactive_home, wl.env)
    try:
        time.sleep(0.5)
        wl.copy(COPY)
        time.sleep(1.0)
        wl.focus("build shell")
        time.sleep(1.2)
        wl.focus("client.py - editor")
        time.sleep(1.0)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    line = started_sources(proactive_home)
    assert "window" in line and "clipboard" in line and "idle" in line, line
    episodes = watcher.episodes()
    titles = [e["title"] for e in episodes]
    ed, sh = episode_with(episodes, "client.py - editor"), episode_with(episodes, "build shell")
    assert ed["app"] == "foot" and sh["app"] == "foot"
    assert titles.index("client.py - editor") < titles.index("build shell")  # the switch, in order
    assert titles.count("client.py - editor") >= 2  # and back
    assert "copies an error message starting 'Traceback (most recent call last):'" in ed["event"], ed
    assert "there before capture" not in json.dumps(episodes)
    db = sqlite3.connect(proactive_home / "proactive.db")
    rows = db.execute("SELECT app, data FROM raw_events WHERE kind = 'clipboard'").fetchall()
    db.close()
    assert len(rows) == 1 and rows[0][0] == "foot" and "TimeoutError" in rows[0][1], rows


def test_title_change_and_close_on_sway(wl: WaylandSession, proactive_home: Path):
    """A title change of the focused window (a shell in foot setting it with an escape sequence) and the focus
    moving on when the focused window closes are both seen as they happen."""
    wl.start_foot("other window")
    wl.start_foot("renamer", ["env", "PS1=", "sh"])
    wl.focus("renamer")
    watcher = WatcherProcess(proactive_home, wl.env)
    try:
        time.sleep(1.2)
        wl.type("printf '\\033]2;renamed title\\007'\n")
        wait_for(lambda: wl.window("renamed title"), timeout=10, what="the new title")
        time.sleep(1.2)
        wl.type("exit\n")
        wait_for(lambda: wl.window("renamed title") is None, timeout=10, what="the window closing")
        time.sleep(0.3)
        assert wl.focused_title() == "other window", [(w["name"], w["focused"]) for w in wl.windows()]
        time.sleep(1.2)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    titles = [e["title"] for e in watcher.episodes()]
    assert titles[-3:] == ["renamer", "renamed title", "other window"], titles


def test_wayland_wins_with_display_also_set(wl: WaylandSession, xserver: XSession, proactive_home: Path):
    """GNOME and KDE set DISPLAY for XWayland: the watcher must still use the Wayland sources (a real X server
    stands in for XWayland here, so X11 sources would start and see none of the Wayland windows)."""
    env = dict(wl.env, DISPLAY=xserver.display)
    wl.start_foot("wayland native")
    wl.focus("wayland native")
    watcher = WatcherProcess(proactive_home, env)
    try:
        time.sleep(1.2)  # an episode shorter than a second with nothing in it is not kept
        wl.start_foot("second native")
        wl.focus("second native")
        time.sleep(1.0)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    log = (proactive_home / "logs" / "proactive.log").read_text()
    assert "Wayland (sway)" in log and "XWayland on" in log, log[-2000:]
    titles = [e["title"] for e in watcher.episodes()]
    assert "wayland native" in titles and "second native" in titles, titles
    assert "keyboard" not in started_sources(proactive_home)


def test_swayidle_reports_idle_and_back(wl: WaylandSession, proactive_home: Path):
    (proactive_home / "config.toml").write_text("idle_seconds = 2\n")
    wl.start_foot("idle test")
    wl.focus("idle test")
    watcher = WatcherProcess(proactive_home, wl.env)
    try:
        wl.type("first")
        time.sleep(4.5)
        wl.type("second")
        time.sleep(1.5)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    text = " ".join(e["event"] for e in watcher.episodes())
    assert "stops using the computer (idle)" in text and "comes back after being away" in text, text


def test_probes_on_sway(wl: WaylandSession, monkeypatch: pytest.MonkeyPatch):
    for name, value in wl.env.items():
        monkeypatch.setenv(name, value)
    for source in (SwayWindow(), WlClipboard(), SwayIdle(60)):
        probe = source.probe()
        assert probe.works and probe.tested, probe
    assert "sway" in SwayWindow().probe().detail


APP = Path(__file__).with_name("a11y_app.py")
CANARY_PASSWORD = "WlCanaryPw7319x"


def test_sway_with_a_qt_form_typed_text_from_atspi_and_password_dropped(wl: WaylandSession, proactive_home: Path):
    """The whole Wayland case: a foot terminal and a Qt form on headless sway, typing with wtype, a copy
    with wl-copy and `proactive watch`: the episodes hold both titles, the switch, the copy and the text typed into
    the form's text field (from the accessibility bus: no key logger on Wayland); nothing typed into the password
    field reaches the database, its WAL, the logs or any output."""
    form = "Sign-up form"
    wl.start_foot("notes shell")
    app_env = dict(wl.env, QT_QPA_PLATFORM="wayland", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1")
    watcher = WatcherProcess(proactive_home, wl.env)  # before the form: its first focus event is seen
    try:
        app = subprocess.Popen([sys.executable, str(APP), form], env=app_env, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        wl.procs.append(app)
        assert app.stdout.readline().strip() == "ready"
        wait_for(lambda: wl.window(form), timeout=20, what="the Qt form on sway")
        wl.focus(form)
        time.sleep(0.8)
        wl.type("hello wayland form")
        time.sleep(0.5)
        wl.key("Tab")  # to the password field
        time.sleep(0.8)
        wl.type(CANARY_PASSWORD)
        time.sleep(0.5)
        wl.key("Tab")  # back to the text field
        time.sleep(0.8)
        wl.type(" again")
        time.sleep(0.8)
        wl.focus("notes shell")
        time.sleep(0.5)
        wl.copy(COPY)
        time.sleep(1.2)
        live = b"".join(p.read_bytes() for p in proactive_home.rglob("*") if p.is_file())
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert "accessibility (AT-SPI)" in started_sources(proactive_home)
    episodes = watcher.episodes()
    titles = [e["title"] for e in episodes]
    typed = episode_with(episodes, form)
    assert "hello wayland form" in typed["event"] and "again" in typed["event"], typed
    # the switch, in order (an empty span of the shell before the form showed is kept when it lasted a second)
    assert titles.index(form) < len(titles) - 1 - titles[::-1].index("notes shell"), episodes
    shell = [e for e in episodes if e["title"] == "notes shell" and "copies" in e["event"]]
    assert shell and "TimeoutError" in shell[-1]["event"] + json.dumps(shell), episodes
    watcher.assert_nowhere(CANARY_PASSWORD, live, err)


def test_a_form_typed_five_times_under_load_keeps_names_and_never_passwords(wl: WaylandSession, proactive_home: Path,
                                                                           cpu_hogs: None):
    """A name, Tab and a password typed in one go, five times, while two CPU hogs run. Each text event
    is judged by the role of the field that emitted it (not by the last focus event, which may come after the
    text), so no password is stored anywhere and each name is kept whole, first letter included."""
    app_env = dict(wl.env, QT_QPA_PLATFORM="wayland", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1")
    names = [f"Member{i} quokka" for i in range(5)]
    passwords = [f"Heron{i}Secret!zq" for i in range(5)]
    watcher = WatcherProcess(proactive_home, wl.env)
    try:
        for i in range(5):
            form = f"Sign-up {i}"
            app = subprocess.Popen([sys.executable, str(APP), form], env=app_env, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True, start_new_session=True)
            wl.procs.append(app)
            assert app.stdout.readline().strip() == "ready"
            wait_for(lambda form=form: wl.window(form), timeout=30, what="the Qt form on sway")
            wl.focus(form)
            time.sleep(0.5)
            wl.type(f"{names[i]}\t{passwords[i]}\t")
            time.sleep(1.0)
        wl.start_foot("after the forms")
        time.sleep(1.5)
        live = all_bytes(proactive_home)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    check_form_rounds(proactive_home, watcher, live, err, names, passwords)
