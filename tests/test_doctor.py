"""`proactive doctor`: what works here and what is missing, with what to do about it; exit 0 whatever is missing.
Run as a user would (a subprocess) with no display, on a real X server (Xvfb + openbox), and its capture lines
in `proactive watch`'s log."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from bench.xsession import start_xvfb
from proactive.assistant import doctor
from proactive.watcher import doctor as watcher_doctor, service
from proactive.watcher.activitywatch import ActivityWatchSettings, ActivityWatchSource, probe_server
from proactive.watcher.capture.platform import session_sources
from proactive.watcher.capture.sources import Probe, Source
from proactive.watcher.events import WINDOW, RawEvent
from proactive.watcher.pipeline import Watcher
from proactive.watcher.store.database import Store
from proactive.watcher.store.home import Config

from .conftest import ListSource, WatcherProcess, XSession, run_cli

X11_SOURCES = ("window (X11)", "keyboard (X11)", "mouse (X11)", "clipboard (X11)", "idle (X11)")


def no_display_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "SWAYSOCK", "DBUS_SESSION_BUS_ADDRESS")}


def doctor_json(env: dict[str, str], *args: str) -> dict:
    out = run_cli("doctor", "--json", *args, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def by_source(report: dict) -> dict[str, dict]:
    return {s["source"]: s for s in report["sources"]}


def test_no_display_says_what_is_missing_and_the_fix(proactive_home: Path):
    env = no_display_env()
    report = doctor_json(env)
    assert report["home"] == str(proactive_home)
    assert report["session"]["kind"] == "none"
    assert "neither WAYLAND_DISPLAY nor DISPLAY" in report["session"]["summary"]
    desktop = by_source(report)["desktop capture"]
    assert desktop["works"] is False and not desktop["optional"]
    assert "no display" in desktop["detail"]
    assert "desktop session" in desktop["fix"] and "autostart" in desktop["fix"]
    assert not any(s["works"] for s in report["sources"] if s["source"].endswith("(X11)"))
    db = report["database"]
    assert (db["path"], db["exists"], db["state"]) == (str(proactive_home / "proactive.db"), False, "new")
    assert "no D-Bus session bus" in db["detail"] and "keyring" in db["fix"]
    models = {m["name"]: m for m in report["models"]}
    assert models["model"]["spec"] == "default" and models["reward model"]["spec"] == "default"
    assert models["reward model"]["works"] is True

    table = run_cli("doctor", env=dict(env, COLUMNS="160"))
    assert table.returncode == 0, table.stderr
    assert table.stderr == ""  # the report says it; no stray warning
    for needle in ("session", "capture", "database", "model", "desktop capture", "cannot work",
                   "neither WAYLAND_DISPLAY nor DISPLAY", "run Proactive inside your desktop session",
                   "what to do"):
        assert needle in table.stdout, (needle, table.stdout)


def test_database_size_and_state(proactive_home: Path, tmp_path: Path):
    db = tmp_path / "my.db"
    Store(str(db)).close()
    report = doctor_json(no_display_env(), "--db", str(db))
    found = report["database"]
    assert found["path"] == str(db) and found["exists"] and found["state"] == "plain"
    assert found["size_bytes"] >= db.stat().st_size > 0
    assert "unencrypted" in found["detail"]
    (proactive_home / "config.toml").write_text('encryption = "off"\n')
    found = doctor_json(no_display_env(), "--db", str(db))["database"]
    assert 'encryption = "off"' in found["detail"] and "auto" in found["fix"]


def test_activitywatch_turned_off_says_so(proactive_home: Path):
    (proactive_home / "config.toml").write_text("activitywatch = false\n")
    aw = by_source(doctor_json(no_display_env()))["activitywatch"]
    assert aw["works"] is False and aw["optional"] and "activitywatch = false" in aw["detail"]
    assert "activitywatch = true" in aw["fix"]


SESSION_VARS = ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP", "SWAYSOCK",
                "HYPRLAND_INSTANCE_SIGNATURE")


def test_activitywatch_settings_say_what_is_read_and_sent():
    """One place reads config.toml's ActivityWatch settings: the server, what is published, what turned it off."""
    config = Config(activitywatch_url="http://127.0.0.1:9", activitywatch_poll_seconds=3.0, activitywatch_text=True)
    settings = ActivityWatchSettings.from_config(config)
    assert settings.on and (settings.url, settings.poll_seconds, settings.text) == ("http://127.0.0.1:9", 3.0, True)
    publisher = settings.publisher()
    assert (publisher.url, publisher.text) == ("http://127.0.0.1:9", True)
    assert ActivityWatchSettings.from_config(Config()).publisher().text is False  # the sentences stay home
    # the reader takes windows and idle from ActivityWatch only where the session has no source of its own
    alone = settings.source(own=[])
    assert (alone.url, alone.poll_seconds, alone.use_windows, alone.use_afk) == ("http://127.0.0.1:9", 3.0, True, True)
    assert "windows (aw-watcher-window)" in alone.captures and "idle (aw-watcher-afk)" in alone.captures
    beside = settings.source(own=[ListSource([])])
    assert not beside.use_windows and not beside.use_afk and beside.captures == "browser tabs (aw-watcher-web)"
    off = ActivityWatchSettings.from_config(Config(activitywatch=False), no_aw=True).off_probe()
    assert not off.works and "activitywatch = false in config.toml" in off.detail and "activitywatch = true" in off.fix
    by_option = ActivityWatchSettings.from_config(config, no_aw=True)
    assert not by_option.on and "--no-aw" in by_option.off_probe().detail


def test_doctor_reports_the_activitywatch_reader_the_watcher_runs(proactive_home: Path,
                                                                  monkeypatch: pytest.MonkeyPatch):
    """Without a display ActivityWatch is the only source: the watcher reads its windows and idle too, and the
    doctor's row says so, because both build their sources with `platform.session_sources`."""
    for name in SESSION_VARS:
        monkeypatch.delenv(name, raising=False)
    config = Config(activitywatch_url="http://127.0.0.1:9", activitywatch_text=True)
    watcher = service.build_watcher(None, False, config)
    [reader] = watcher.sources
    assert isinstance(reader, ActivityWatchSource) and reader.use_windows and reader.use_afk
    assert reader.url == "http://127.0.0.1:9" and watcher.publish.__self__.text is True
    row = by_source(watcher_doctor.report(config=config))["activitywatch"]
    assert row["captures"] == reader.captures and not row["works"] and "no aw-server answers" in row["detail"]
    assert [type(s) for s in session_sources(config)] == [ActivityWatchSource]
    assert service.build_watcher(None, True, config).sources == [] and session_sources(config, no_aw=True) == []
    assert service.build_watcher(None, True, config).publish is None  # --no-aw: nothing is published either
    monkeypatch.setenv("DISPLAY", ":0")  # an X11 session: our own sources see windows and idle
    *own, reader = session_sources(config)
    assert own and isinstance(reader, ActivityWatchSource) and not reader.use_windows and not reader.use_afk


def test_a_bad_config_is_reported_not_fatal(proactive_home: Path):
    (proactive_home / "config.toml").write_text('idle_seconds = -4\nencryption = "required"\n')
    out = run_cli("doctor", "--json", env=no_display_env())
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert "idle_seconds" in report["config"]["problem"]
    assert report["database"]["encryption"] == "required"  # the store honours it beside the bad setting
    assert any(r["section"] == "config" and r["status"] == "unusable" for r in doctor.rows(report))


def test_model_checks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    missing = doctor.model_check(str(tmp_path / "none.gguf"))
    assert not missing["works"] and "no such file" in missing["detail"] and "config.toml" in missing["fix"]
    text = tmp_path / "notes.gguf"
    text.write_text("not a model")
    assert "not a GGUF file" in doctor.model_check(str(text))["detail"]
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"GGUF" + bytes(100))
    assert doctor.model_check(str(gguf))["detail"].startswith(f"GGUF file {gguf}")
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(1)
        port = listening.getsockname()[1]
        up = doctor.model_check(f"openai:http://127.0.0.1:{port}/v1#qwen")
    assert up["works"] and "accepts connections" in up["detail"] and "model qwen" in up["detail"]
    down = doctor.model_check(f"openai:http://127.0.0.1:{port}/v1#qwen")  # closed now
    assert not down["works"] and "nothing answers" in down["detail"] and "start the server" in down["fix"]
    assert "needs a server URL" in doctor.model_check("openai:")["detail"]
    judge = doctor.reward_check(f"llm:{tmp_path / 'none.gguf'}")
    assert judge["name"] == "reward model" and not judge["works"] and "no such file" in judge["detail"]
    assert doctor.reward_check("signals")["works"]
    assert not doctor.reward_check("nonsense")["works"]


class Broken(Source):
    name = "broken"

    def start(self, emit) -> None:
        emit(RawEvent(self.name, "x", {}))

    def stop(self) -> None:
        pass

    def probe(self) -> Probe:
        raise RuntimeError("probe exploded")


def test_a_probe_that_fails_says_the_source_cannot_work(caplog: pytest.LogCaptureFixture):
    [found] = watcher_doctor.capture([Broken()], "x11")
    assert (found.source, found.works) == ("broken", False) and "probe exploded" in found.detail
    caplog.set_level("INFO", logger="proactive.watcher.doctor")
    watcher_doctor.log_capture([Broken()])
    [record] = [r for r in caplog.records if "broken" in r.getMessage()]
    assert record.levelname == "INFO" and "cannot work" in record.getMessage()  # the terminal warning is the start's


def test_watch_without_a_display_warns_once(proactive_home: Path):
    watcher = WatcherProcess(proactive_home, no_display_env())
    code, err = watcher.stop()
    assert code == 0, err
    said = [line for line in err.splitlines() if "DISPLAY" in line]
    assert len(said) == 1 and "WARNING" in said[0] and "neither WAYLAND_DISPLAY nor DISPLAY" in said[0], err
    log = (proactive_home / "logs" / "proactive.log").read_text()
    assert log.count("capture: desktop capture cannot work") == 1  # the doctor's line, in the log only
    assert "capture: activitywatch" not in log  # --no-aw


@pytest.mark.x11
def test_doctor_on_xvfb(xsession: XSession, proactive_home: Path):
    env = {k: v for k, v in xsession.env.items() if k not in ("WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS")}
    report = doctor_json(env)
    session = report["session"]
    assert (session["kind"], session["display"]) == ("x11", xsession.display)
    assert session["window_manager"] == "Openbox"
    sources = by_source(report)
    for name in X11_SOURCES:
        assert sources[name]["works"] is True, sources[name]
        assert sources[name]["fix"] == ""
    assert "window manager" in sources["window (X11)"]["detail"]
    assert "XFIXES" in sources["clipboard (X11)"]["detail"]
    assert "MIT-SCREEN-SAVER" in sources["idle (X11)"]["detail"]
    assert "RECORD" in sources["keyboard (X11)"]["detail"]
    assert "desktop capture" not in sources

    table = run_cli("doctor", env=dict(env, COLUMNS="160"))
    assert table.returncode == 0, table.stderr
    assert "window (X11)" in table.stdout and "works" in table.stdout and "Openbox" in table.stdout


def test_a_display_that_cannot_be_opened(proactive_home: Path):
    """DISPLAY names an X server that is not there: every X11 source says why and what to do."""
    report = doctor_json(dict(no_display_env(), DISPLAY=":199"))
    assert report["session"]["kind"] == "x11"
    for name in X11_SOURCES:
        found = by_source(report)[name]
        assert found["works"] is False and "cannot open the X display" in found["detail"], found
        assert "DISPLAY=:199" in found["fix"]


@pytest.mark.x11
def test_a_bare_x_server_names_the_window_manager_fix(proactive_home: Path):
    """Xvfb without a window manager: no active window is published, so the window source cannot work and says
    to run one; the other X11 sources work."""
    xvfb, display = start_xvfb("640x480x24")  # answers clients once it has told its number
    try:
        report = doctor_json(dict(no_display_env(), DISPLAY=display))
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)
    assert report["session"]["summary"].endswith("no window manager")
    window = by_source(report)["window (X11)"]
    assert window["works"] is False and "no EWMH window manager" in window["detail"]
    assert "window manager" in window["fix"]
    failing = {name: by_source(report)[name] for name in X11_SOURCES[1:] if not by_source(report)[name]["works"]}
    assert not failing, failing


@pytest.mark.x11
def test_watch_logs_the_capture_lines(xsession: XSession, proactive_home: Path):
    env = {k: v for k, v in xsession.env.items() if k != "WAYLAND_DISPLAY"}
    watcher = WatcherProcess(proactive_home, env)
    code, err = watcher.stop()
    assert code == 0, err
    log = (proactive_home / "logs" / "proactive.log").read_text()
    for name in X11_SOURCES:
        assert log.count(f"capture: {name} works") == 1, log
    for name in X11_SOURCES:
        assert f"capture: {name} cannot work" not in err


@pytest.mark.aw
def test_a_running_aw_server_is_found(aw_server_url: str):
    found = probe_server(aw_server_url)
    assert found.works and found.detail.startswith("aw-server ") and aw_server_url in found.detail
    with socket.socket() as other:  # something that listens but is not an aw-server
        other.bind(("127.0.0.1", 0))
        other.listen(1)
        url = f"http://127.0.0.1:{other.getsockname()[1]}"
        wrong = probe_server(url)
    assert not wrong.works and "not as an aw-server" in wrong.detail


def test_doctor_on_headless_sway(proactive_home: Path):
    """A real Wayland session (headless sway, its own session bus and AT-SPI bus): the Wayland sources work, no
    X11 source is offered (no key logger on Wayland)."""
    from .wayland_session import wayland_session

    with wayland_session() as wl:
        env = dict(wl.env, PROACTIVE_HOME=str(proactive_home))
        report = doctor_json(env)
        table = run_cli("doctor", env=dict(env, COLUMNS="160"))
    session = report["session"]
    assert (session["kind"], session["compositor"], session["xwayland"]) == ("wayland", "sway", False)
    assert session["summary"].startswith("Wayland (sway)")
    sources = by_source(report)
    assert sources["window (sway IPC)"]["works"] is True and "sway" in sources["window (sway IPC)"]["detail"]
    assert sources["clipboard (wl-paste)"]["works"] is True
    assert sources["accessibility (AT-SPI)"]["works"] is True
    assert not [name for name in sources if name.endswith("(X11)")]
    assert table.returncode == 0 and "window (sway IPC)" in table.stdout and "Wayland (sway)" in table.stdout


def test_doctor_on_a_wayland_session_it_cannot_reach(proactive_home: Path, tmp_path: Path):
    """A GNOME Wayland session whose compositor and buses are not there: each source says it cannot work and
    what to do, and the command still exits 0."""
    env = dict(no_display_env(), WAYLAND_DISPLAY=str(tmp_path / "wayland-9"), XDG_SESSION_TYPE="wayland",
               XDG_CURRENT_DESKTOP="GNOME", XDG_RUNTIME_DIR=str(tmp_path))
    report = doctor_json(env)
    assert (report["session"]["kind"], report["session"]["compositor"]) == ("wayland", "gnome")
    own = [s for s in report["sources"] if not s["optional"]]
    assert own and not [s for s in own if s["source"].endswith("(X11)")]
    broken = [s for s in own if not s["works"]]
    assert broken and all(s["fix"] for s in broken), broken


class Crashing(ListSource):
    """A source whose start fails with an unexpected error, and whose probe knows the fix."""

    name = "crashing"

    def start(self, emit) -> None:
        raise RuntimeError("the library broke")

    def probe(self) -> Probe:
        return Probe(self.name, "nothing", False, "broken library", fix="reinstall the library")


def test_a_source_that_cannot_start_is_said_once_with_its_fix_and_capture_goes_on(proactive_home, caplog):
    caplog.set_level("INFO")
    kept = ListSource([RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell", "process": "xterm", "pid": 42})])
    w = Watcher(None, Config(), [Crashing([]), kept], flush_interval=0.05)
    t = threading.Thread(target=w.run)
    t.start()
    assert w.started.wait(5)
    time.sleep(0.3)
    w.stop()
    t.join(10)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING" and "crashing" in r.getMessage()]
    assert warnings == ["source crashing unavailable: RuntimeError: the library broke; fix: reinstall the library"]
    store = Store()
    assert [e.data["title"] for _, e in store.iter_events()] == ["shell"]  # the other source still captured
    store.close()


@pytest.mark.x11
def test_connections_to_a_resetting_x_server_get_through():
    """An X server whose last client left resets and drops a connection made meanwhile (a bare Xvfb: what made
    the test above flaky); opening the display waits for it to answer again. 150 connections, one after the other,
    each the only client (each meets the reset the one before it caused)."""
    from proactive.watcher.capture import x11

    xvfb, display = start_xvfb("640x480x24")
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("DISPLAY", display)
            for _ in range(150):
                x11.open_display().close()
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)


@pytest.mark.x11
def test_one_process_talks_to_two_x_servers_numbered_otherwise():
    """Two X servers whose extensions get other numbers (the second lacks three of the first's, as Xwayland and
    Xvfb differ): each connection of one process keeps its own server's opcodes and event codes. python-xlib kept
    them on the class, so the first connection used the second server's RECORD opcode, and opening a third server
    could crash in Display() (seen in the suite: Xvfb, then GNOME's Xwayland, in one worker)."""
    from proactive.watcher.capture import x11

    first, one = start_xvfb("640x480x24")
    second, two = start_xvfb("640x480x24", "-extension", "XFIXES", "-extension", "MIT-SCREEN-SAVER",
                             "-extension", "DAMAGE")
    displays = []
    try:
        with pytest.MonkeyPatch.context() as patch:
            for name in (one, two, one):
                patch.setenv("DISPLAY", name)
                displays.append(x11.open_display())
        for display in displays:
            opcode = display.query_extension("RECORD").major_opcode
            assert display.display.extension_major_opcodes["RECORD"] == opcode
        assert displays[0].query_extension("RECORD").major_opcode != displays[1].query_extension("RECORD").major_opcode
    finally:
        for display in displays:
            display.close()
        for server in (first, second):
            server.terminate()
            server.wait(timeout=10)
