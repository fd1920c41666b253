"""Where the files live (watcher.home.Places): each kind in its XDG folder without PROACTIVE_HOME, all in the one
folder with it, and an older version's one folder moved to the new places once, safely (watcher.migration).

Every test here points HOME and the XDG variables at its own folders and unsets PROACTIVE_HOME, so the person's
own folders are never touched. `folders._places` is worked out once per process: `fresh_start()` forgets it, as a
new process would, between the in-process commands of one test."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock

from proactive.watcher import control
from proactive.watcher.store import folders, home, migration
from tests.conftest import PROACTIVE, ROOT, run_cli
from tests.xsession import wait_for

KINDS = ("config", "data", "cache", "state", "runtime")


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """No PROACTIVE_HOME; HOME and XDG_{CONFIG,DATA,CACHE,STATE,RUNTIME}_* in tmp_path. Yields the base folder of
    each kind ("home": HOME, where nothing may land)."""
    monkeypatch.delenv("PROACTIVE_HOME", raising=False)
    bases = {kind: tmp_path / kind for kind in (*KINDS, "home")}
    for kind, variable in [("config", "XDG_CONFIG_HOME"), ("data", "XDG_DATA_HOME"), ("cache", "XDG_CACHE_HOME"),
                           ("state", "XDG_STATE_HOME"), ("runtime", "XDG_RUNTIME_DIR"), ("home", "HOME")]:
        bases[kind].mkdir(mode=0o700)
        monkeypatch.setenv(variable, str(bases[kind]))
    fresh_start()
    yield bases
    fresh_start()


def fresh_start() -> None:
    """Forget the places worked out by this process (a new process starts without them)."""
    folders._places.cache_clear()


def files(base: Path) -> set[str]:
    """Every file under `base`, relative to it."""
    return {p.relative_to(base).as_posix() for p in base.rglob("*") if not p.is_dir()}


def tree(base: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under `base` with its bytes and modification time: what a start may not change."""
    return {p.relative_to(base).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(base.rglob("*")) if p.is_file()}


def test_places_are_the_xdg_folders(xdg: dict[str, Path]):
    places = home.places()
    assert places.config == xdg["config"] / "proactive"
    assert places.data == xdg["data"] / "proactive"
    assert places.cache == xdg["cache"] / "proactive"
    assert places.state == xdg["state"] / "proactive"
    assert places.logs.parent == places.state  # platformdirs' log folder is in the state folder
    assert places.runtime == xdg["runtime"] / "proactive"
    assert places.roots() == sorted([places.config, places.data, places.cache, places.state, places.runtime],
                                    key=lambda p: (len(p.parts), str(p)))  # the logs are inside the state folder


def test_without_a_runtime_folder_the_state_folder_holds_the_locks(xdg: dict[str, Path],
                                                                   monkeypatch: pytest.MonkeyPatch):
    """No XDG_RUNTIME_DIR and no /run/user/UID (a console login, a container): not /tmp, shared with others."""
    if Path(f"/run/user/{os.getuid()}").exists():
        pytest.skip("this machine has /run/user/UID: platformdirs' own fallback is used")
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    fresh_start()
    assert home.places().runtime == home.places().state == xdg["state"] / "proactive"
    assert control.lock_path().parent == xdg["state"] / "proactive"


def test_control_files_are_the_ones_moved():
    """The pause and purge files watcher.control writes are the ones an older home's move takes to the state
    folder (home.CONTROL_FILES): a pause left in the old folder would be a pause forgotten."""
    names = {control.pause_path().name, control.ack_path().name, control.purge_request_path().name,
             control.purge_answer_path().name}
    assert names == set(home.CONTROL_FILES)


def test_real_commands_put_each_file_in_its_place(xdg: dict[str, Path]):
    """A real watcher (no display: it runs without sources), `pause` and `status` through the CLI, the pause file
    seen by the watcher in the state folder, `purge --all`: each file lands in its folder, none elsewhere."""
    places = home.places()
    places.config.mkdir(parents=True)
    (places.config / "config.toml").write_text("idle_seconds = 0\n")  # read from the config folder: refused
    out = run_cli("purge", "--before", "2020-01-01")
    assert out.returncode == 2 and str(places.config / "config.toml") in out.stderr, out.stderr
    (places.config / "config.toml").write_text("idle_seconds = 300\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = subprocess.Popen([*PROACTIVE, "watch", "--no-aw"], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    log = places.logs / "proactive.log"
    try:
        wait_for(lambda: log.exists() and "watcher started" in log.read_text() or proc.poll() is not None,
                 timeout=30, what="watcher start")
        assert proc.poll() is None, proc.communicate()
        assert_status_names_the_places(places, proc.pid)
        assert run_cli("pause", "--for", "1h").returncode == 0  # signalled, acknowledged
        # without a signal: the watcher sees the state folder change (the folder it watches)
        pause_id = control.write_pause(float("inf"))
        assert control.wait_acknowledged(pause_id, timeout=5)
        assert run_cli("resume").returncode == 0
        text = run_cli("status").stdout
        for kind in KINDS:
            assert str(getattr(places, kind)) in text
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0, proc.communicate()
    places.cache.mkdir(parents=True, exist_ok=True)  # made by what caches (a replay), not by a watcher or purge
    (places.cache / "replay.db").write_bytes(b"cached")
    purged = run_cli("purge", "--all", "--yes")
    assert purged.returncode == 0, purged.stderr
    assert not (places.cache / "replay.db").exists() and log.read_bytes() == b""

    assert_each_file_in_its_place(xdg)


def assert_status_names_the_places(places: home.Places, pid: int) -> None:
    """`status --json` of a running watcher: its pid, and the folders and files where they are."""
    info = json.loads(run_cli("status", "--json").stdout)
    assert info["watcher"]["pid"] == pid and info["places"]["runtime"] == str(places.runtime)
    assert (places.runtime / "watcher.pid").read_text() == str(pid)
    assert info["paths"]["pid"] == str(places.runtime / "watcher.pid")
    assert info["paths"]["config"] == str(places.config / "config.toml")
    assert info["paths"]["database"] == str(places.data / "proactive.db")


def assert_each_file_in_its_place(xdg: dict[str, Path]) -> None:
    """After a watcher ran, paused, resumed and everything was purged: each file in its XDG folder, none
    elsewhere."""
    assert files(xdg["config"]) == {"proactive/config.toml"}
    assert files(xdg["data"]) <= {"proactive/proactive.db", "proactive/proactive.db-wal", "proactive/proactive.db-shm",
                                  "proactive/proactive.db.lock"}  # the database's own lock lives beside it
    assert "proactive/proactive.db" in files(xdg["data"])
    assert files(xdg["cache"]) == set()  # purged
    assert files(xdg["state"]) == {"proactive/log/proactive.log", "proactive/pause.ack"}  # resumed: no pause
    assert files(xdg["runtime"]) == {"proactive/watcher.lock"}  # the pid goes with the watcher
    assert files(xdg["home"]) == set()


def test_proactive_home_keeps_everything_in_one_folder(xdg: dict[str, Path], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    one = tmp_path / "one"
    monkeypatch.setenv("PROACTIVE_HOME", str(one))
    assert run_cli("pause").returncode == 0
    info = json.loads(run_cli("status", "--json").stdout)
    assert info["home"] == str(one) and info["paused"] is True
    assert info["places"] == {"config": str(one), "data": str(one), "cache": str(one / "cache"),
                              "logs": str(one / "logs"), "state": str(one), "runtime": str(one)}
    assert info["paths"]["pid"] == str(one / "watcher.pid") and info["paths"]["logs"] == str(one / "logs/proactive.log")
    assert "paused.json" in files(one)
    for kind in (*KINDS, "home"):
        assert files(xdg[kind]) == set(), kind


def old_home(xdg: dict[str, Path]) -> Path:
    """A home as older versions left it: everything in the data folder."""
    old = xdg["data"] / "proactive"
    (old / "logs").mkdir(parents=True)
    (old / "cache" / "answers").mkdir(parents=True)
    (old / "models").mkdir()
    (old / "config.toml").write_text("idle_seconds = 300\n")
    (old / "logs" / "proactive.log").write_text("new log\n")
    (old / "logs" / "proactive.log.1").write_text("older log\n")
    (old / "cache" / "replay.db").write_bytes(b"replay cache")
    (old / "cache" / "answers" / "a.json").write_text("{}")
    (old / "paused.json").write_text(json.dumps({"until": None, "since": 1.0, "id": "old"}))
    (old / "watcher.lock").write_bytes(b"")  # an older watcher's, not held: it stopped
    (old / "models" / "m.gguf").write_bytes(b"GGUF")
    (old / "activitywatch.published").write_bytes(b"")
    return old


def test_an_older_home_is_moved_once_and_nothing_is_overwritten(xdg: dict[str, Path]):
    old = old_home(xdg)
    new = home.Places.platform()
    new.logs.mkdir(parents=True)
    (new.logs / "proactive.log.1").write_text("this version's log\n")  # already there: not overwritten
    out = run_cli("status", "--json")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert info["paused"] is True and info["paused_until"] is None  # the pause moved with the files, and holds
    assert (new.config / "config.toml").read_text() == "idle_seconds = 300\n"
    assert (new.logs / "proactive.log").read_text() == "new log\n"
    assert (new.logs / "proactive.log.1").read_text() == "this version's log\n"
    assert (old / "logs" / "proactive.log.1").read_text() == "older log\n"  # left, not lost
    assert (new.cache / "replay.db").read_bytes() == b"replay cache"
    assert (new.cache / "answers" / "a.json").read_text() == "{}"
    assert json.loads((new.state / "paused.json").read_text())["id"] == "old"
    note = (old / migration.NOTE).read_text()
    assert str(old / "logs" / "proactive.log.1") in note and str(new.config / "config.toml") in note
    assert files(old) == {"MOVED.txt", "logs/proactive.log.1", "models/m.gguf", "activitywatch.published"}

    before = {kind: tree(xdg[kind]) for kind in KINDS}
    fresh_start()
    again = run_cli("status", "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["places"] == new.as_dict()
    assert {kind: tree(xdg[kind]) for kind in KINDS} == before  # the second start changes nothing


def test_an_older_watcher_running_keeps_the_old_layout(xdg: dict[str, Path]):
    """While an older watcher holds the old home's lock, nothing moves and this process uses the old home, so its
    pause reaches that watcher; the first start after it stops moves the files."""
    old = old_home(xdg)
    (old / "paused.json").unlink()
    (old / "watcher.pid").write_text("4194305")  # above any pid_max: `pause` signals nobody
    held = FileLock(str(old / "watcher.lock"), thread_local=False)
    held.acquire()
    try:
        assert run_cli("pause").returncode == 0
        info = json.loads(run_cli("status", "--json").stdout)
        assert info["places"] == home.Places.one_folder(old).as_dict()
        assert info["watcher"]["pid"] == 4194305 and info["paused"] is True
        assert (old / "paused.json").exists() and (old / "config.toml").exists()
        assert not (old / migration.NOTE).exists() and files(xdg["config"]) == set()
    finally:
        held.release()
    fresh_start()
    info = json.loads(run_cli("status", "--json").stdout)
    assert info["places"] == home.Places.platform().as_dict() and info["paused"] is True
    assert not (old / "paused.json").exists() and not (old / "watcher.pid").exists()
    assert (xdg["config"] / "proactive" / "config.toml").exists()


def test_two_processes_starting_together_move_once(xdg: dict[str, Path]):
    """The watcher and the tray start together: both see the same files in their new places, nothing is left."""
    old = old_home(xdg)
    env = dict(os.environ)
    procs = [subprocess.Popen([*PROACTIVE, "status", "--json"], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [proc.communicate(timeout=60) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outs
    new = home.Places.platform()
    assert all(json.loads(out)["places"] == new.as_dict() for out, _ in outs)
    assert (new.logs / "proactive.log.1").read_text() == "older log\n"
    assert (new.cache / "replay.db").read_bytes() == b"replay cache"
    assert files(old) == {"MOVED.txt", "models/m.gguf", "activitywatch.published"}
    assert "was not moved" not in outs[0][1] + outs[1][1]


def test_a_move_to_another_file_system_copies_syncs_then_removes(tmp_path: Path):
    """/dev/shm is another file system than the tests' tmp folder here: rename fails (EXDEV), the copy is made
    under a temporary name and renamed into place, and only then is the old file removed."""
    if not Path("/dev/shm").is_dir() or os.stat("/dev/shm").st_dev == tmp_path.stat().st_dev:
        pytest.skip("no second file system to move to")
    source = tmp_path / "logs"
    (source / "sub").mkdir(parents=True)
    (source / "proactive.log").write_text("log")
    (source / "sub" / "x").write_text("x")
    (tmp_path / "dotfiles.toml").write_text("kept elsewhere")
    (source / "link").symlink_to("../dotfiles.toml")  # relative: made absolute, still names the same file
    os.chmod(source / "proactive.log", 0o600)
    other = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        assert migration.move(source, other / "log") == []
        assert (other / "log" / "proactive.log").read_text() == "log"
        assert (other / "log" / "sub" / "x").read_text() == "x"
        assert os.readlink(other / "log" / "link") == str(tmp_path / "dotfiles.toml")
        assert (other / "log" / "proactive.log").stat().st_mode & 0o777 == 0o600
        assert not source.exists() and not list(other.rglob(".*.moving"))
    finally:
        shutil.rmtree(other)


def test_tighten_reaches_every_place(xdg: dict[str, Path]):
    """Files loosened by hand in any place are made private again at the watcher's start, not only the data
    folder's."""
    places = home.places()
    loose = [places.config / "config.toml", places.cache / "replay.db", places.logs / "proactive.log",
             places.state / "paused.json", places.runtime / "watcher.pid", places.data / "proactive.db"]
    for path in loose:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
        path.chmod(0o644)
    changed = home.tighten()
    assert set(loose) <= set(changed)
    assert all(path.stat().st_mode & 0o077 == 0 for path in loose)


def test_the_watcher_looks_for_requests_where_they_are_written(xdg: dict[str, Path]):
    """The watcher reads the pause and purge files only when their folder changed (or every few seconds): that
    folder is the state folder, where `pause` writes, and a write elsewhere (the database, a log) does not count."""
    from proactive.watcher.pipeline import Watcher
    from proactive.watcher.store.home import Config

    home.logs_dir()  # made once, before (it is in the state folder)
    watcher = Watcher(None, Config(), [])
    assert watcher._requests.changed(None)  # the first look reads them
    assert not watcher._requests.changed(None)
    (home.data_dir() / "proactive.db-wal").write_bytes(b"")
    (home.logs_dir() / "proactive.log").write_text("a line\n")
    assert not watcher._requests.changed(None)
    control.write_pause(float("inf"))
    assert watcher._requests.changed(None)


def test_doctor_reports_every_place(xdg: dict[str, Path], monkeypatch: pytest.MonkeyPatch):
    from proactive.watcher import doctor

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    report = doctor.report(no_aw=True)
    assert report["places"] == home.places().as_dict() and report["home"] == str(xdg["data"] / "proactive")
    assert report["config"]["path"] == str(xdg["config"] / "proactive" / "config.toml")
