"""The store under stress: another process holding the write lock, a read-only home, a full disk (a real tmpfs),
another program's database, two homes on one database, SIGHUP, and loose file modes. Each either loses nothing
or ends with exit 2 and one line saying what to do."""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from proactive.watcher.store.database import Store

from .conftest import WatcherProcess, run_cli, wait_for
from .xsession import XSession

HOLD_LOCK = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""


def hold_lock(db: Path, seconds: float) -> subprocess.Popen:
    """Another process holding the database's write lock for `seconds` (returns once it holds it)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(db), str(seconds)], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "locked"
    return proc


def one_line_error(out: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit 2 and exactly one error line (warnings a watcher logs at start may come before it)."""
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    lines = [line for line in out.stderr.strip().splitlines() if "WARNING" not in line]
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A real, small file system (tmpfs) this test can fill up or make read-only (needs root, as in CI)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs as root)")
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder: Path) -> Path:
    """Write a file until the file system is full; returns it (delete it to make space again)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


def test_lock_held_for_8s_mid_capture_loses_nothing(xsession: XSession, proactive_home: Path):
    term = xsession.start_xterm("lock test", command=["cat"])
    xsession.activate(term)
    watcher = WatcherProcess(proactive_home, xsession.env)
    try:
        xsession.type("beforelock")
        xsession.key("Return")
        time.sleep(1)
        locker = hold_lock(proactive_home / "proactive.db", 8)
        for i in range(3):
            xsession.type(f"duringlock{i}")
            xsession.key("Return")
            time.sleep(1.5)
        assert locker.wait(timeout=20) == 0
        xsession.type("afterlock")
        xsession.key("Return")
        time.sleep(1.5)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    text = " ".join(e["event"] for e in watcher.episodes())
    for word in ("beforelock", "duringlock0", "duringlock1", "duringlock2", "afterlock"):
        assert word in text, (word, text)
    log = (proactive_home / "logs" / "proactive.log").read_text()
    assert log.count("waiting for the lock") == 1 and "can be written again" in log


def test_commands_facing_a_held_lock_exit_2(proactive_home: Path):
    store = Store()
    store.db["proposals"].insert({"ts": time.time(), "task": "Explain the error"})
    store.close()
    locker = hold_lock(proactive_home / "proactive.db", 15)
    try:
        one_line_error(run_cli("purge", "--all", "--yes"), "locked")
        one_line_error(run_cli("decide", "1", "accepted", "--no-help"), "locked")
    finally:
        locker.kill()


def test_read_only_home_gives_exit_2_lines(tmpfs: Path):
    home = tmpfs / "home"
    home.mkdir()
    env = dict(os.environ, PROACTIVE_HOME=str(home))
    assert run_cli("status", env=env).returncode == 0
    Store(home / "proactive.db").close()
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    for args in (["pause"], ["resume"], ["watch", "--no-aw"], ["purge", "--all", "--yes"]):
        one_line_error(run_cli(*args, env=env), str(home))


def test_full_disk_at_start_is_a_clear_error_and_leaves_no_empty_database(tmpfs: Path, proactive_home: Path):
    fill(tmpfs)
    db = tmpfs / "proactive.db"
    one_line_error(run_cli("watch", "--no-aw", "--db", str(db)), "disk is full")
    assert not db.exists()
    assert run_cli("status", "--db", str(db)).returncode == 0


def test_full_disk_mid_run_pauses_capture_and_resumes_when_space_returns(xsession: XSession, proactive_home: Path,
                                                                        tmpfs: Path):
    db = tmpfs / "proactive.db"
    term = xsession.start_xterm("full disk", command=["cat"])
    xsession.activate(term)
    watcher = WatcherProcess(proactive_home, xsession.env, args=("--no-aw", "--db", str(db)))
    log = proactive_home / "logs" / "proactive.log"
    try:
        xsession.type("beforefull")
        xsession.key("Return")
        time.sleep(1)
        filler = fill(tmpfs)
        for i in range(40):  # until a write needs a page the disk no longer has
            xsession.type(f"whilefull{i} " * 8)
            xsession.key("Return")
            if "capture is paused until space returns" in log.read_text():
                break
        wait_for(lambda: "capture is paused until space returns" in log.read_text(), timeout=10,
                 what="the full disk to be noticed")
        filler.unlink()
        wait_for(lambda: "can be written again" in log.read_text(), timeout=15, what="capture to resume")
        xsession.type("afterspace")
        xsession.key("Return")
        time.sleep(1.5)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    assert watcher.proc.poll() == 0
    out = run_cli("episodes", "--db", str(db), env=watcher.env)
    assert "beforefull" in out.stdout and "afterspace" in out.stdout
    assert log.read_text().count("capture is paused until space returns") == 1


def test_sighup_flushes_and_exits_0(xsession: XSession, proactive_home: Path):
    term = xsession.start_xterm("hangup", command=["cat"])
    xsession.activate(term)
    watcher = WatcherProcess(proactive_home, xsession.env)
    xsession.type("typedbeforehangup")  # no Enter: still in the composer when the signal comes
    code, err = watcher.stop(signal.SIGHUP)
    assert code == 0, err
    assert "typedbeforehangup" in " ".join(e["event"] for e in watcher.episodes())


def test_one_watcher_per_database_across_homes(proactive_home: Path, tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    db = tmp_path / "shared.db"
    watcher = WatcherProcess(proactive_home, env, args=("--no-aw", "--db", str(db)))
    try:
        other = tmp_path / "other-home"
        other.mkdir()
        out = run_cli("watch", "--no-aw", "--db", str(db), env=dict(env, PROACTIVE_HOME=str(other)))
        one_line_error(out, "already captures into", str(db))
    finally:
        code, err = watcher.stop()
    assert code == 0, err


def test_another_programs_database_is_refused_untouched(proactive_home: Path, tmp_path: Path):
    db = tmp_path / "notes.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    for args in (["status", "--db", str(db)], ["watch", "--no-aw", "--db", str(db)], ["episodes", "--db", str(db)]):
        one_line_error(run_cli(*args), "not a proactive database")
    assert db.read_bytes() == before
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")  # what a disk full at the first start used to leave
    one_line_error(run_cli("episodes", "--db", str(empty)), "is empty, not a Proactive database")


def test_loose_modes_are_tightened_at_start(proactive_home: Path):
    Store().close()
    logs = proactive_home / "logs"
    logs.mkdir(exist_ok=True)
    (logs / "proactive.log").write_text("")
    for path, mode in ((proactive_home, 0o755), (logs, 0o755), (logs / "proactive.log", 0o644),
                       (proactive_home / "proactive.db", 0o644)):
        os.chmod(path, mode)
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    watcher = WatcherProcess(proactive_home, env)
    code, err = watcher.stop()
    assert code == 0, err
    for path in (proactive_home, logs):
        assert stat.S_IMODE(path.stat().st_mode) == 0o700, path
    for path in (logs / "proactive.log", proactive_home / "proactive.db"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert "private to you" in err
