"""Purge and retention reach every copy: the database (and WAL), the running watcher's memory, the episodes
published to a real aw-server, the caches and the logs; and the command says what it removed where."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from proactive.assistant.proposals import ProposalLog
from proactive.eval.replay import Cache
from proactive.watcher import control
from proactive.watcher.store import purging
from proactive.watcher.store.database import Store, StoreError
from proactive.watcher.store.home import Config
from tests.aw_server_fixture import xdg_env

from .conftest import WatcherProcess, run_cli, wait_for
from .xsession import XSession

BUCKET = f"aw-watcher-proactive_{socket.gethostname()}"


def home_bytes(home: Path) -> bytes:
    """Every byte under the home: database, WAL, logs, caches, control files."""
    return b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())


def bucket_events(url: str) -> list[dict]:
    try:
        with urllib.request.urlopen(f"{url}/api/0/buckets/{BUCKET}/events?limit=-1") as resp:
            return json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return []
        raise


@pytest.mark.aw
def test_purge_all_with_a_running_watcher_reaches_every_copy(xsession: XSession, proactive_home: Path,
                                                             aw_server_url: str, tmp_path: Path):
    """Text typed, an episode published to ActivityWatch, a copy, an unfinished line in memory and a cache entry:
    after `purge --all --yes` none of them is anywhere, and capture goes on with what is typed next."""
    # activitywatch_text: the published copy holds the typed text, so the purge must reach it
    (proactive_home / "config.toml").write_text(f'activitywatch_url = "{aw_server_url}"\nactivitywatch_text = true\n')
    env = dict(xsession.env, **xdg_env(tmp_path / "xdg"))
    first = xsession.start_xterm("purge one", command=["cat"])
    second = xsession.start_xterm("purge two", command=["cat"])
    cache = Cache(proactive_home / "cache" / "replay.db")
    cache.put("turn", {"task": "PrePurgeCache"})
    cache.close()
    xsession.activate(first)
    watcher = WatcherProcess(proactive_home, env, args=())
    try:
        xsession.type("PrePurgeTyped")
        xsession.key("Return")
        xsession.activate(second)  # closes the first episode: stored and published
        wait_for(lambda: any("PrePurgeTyped" in e["data"]["event"] for e in bucket_events(aw_server_url)),
                 timeout=15, what="the episode to be published")
        xsession.copy("PrePurgeCopy")
        xsession.type("PrePurgeOpen")  # no Enter, no focus change: only in the watcher's memory so far
        out = run_cli("purge", "--all", "--yes", env=watcher.env)
        assert out.returncode == 0, out.stderr
        assert "running watcher: dropped" in out.stdout
        assert ("ActivityWatch: deleted 1 published episodes through aw-server's API; aw-server's own database "
                "files (its WAL and backups) are outside Proactive's reach") in out.stdout, out.stdout
        assert "caches: deleted" in out.stdout and "logs: emptied" in out.stdout
        xsession.key("Return")
        xsession.type("PostPurge")
        xsession.key("Return")
        time.sleep(1.5)
    finally:
        code, err = watcher.stop()
    assert code == 0, err
    text = " ".join(e["event"] for e in watcher.episodes())
    assert "PostPurge" in text
    blob = home_bytes(proactive_home)
    for canary in (b"PrePurgeTyped", b"PrePurgeCopy", b"PrePurgeOpen", b"PrePurgeCache"):
        assert canary not in blob, canary
        assert canary.decode() not in text
    published = json.dumps(bucket_events(aw_server_url))
    assert "PrePurge" not in published
    urllib.request.urlopen(urllib.request.Request(f"{aw_server_url}/api/0/buckets/{BUCKET}?force=1",
                                                  method="DELETE"))  # the server is shared by the aw tests


def test_purge_before_without_a_watcher_keeps_what_is_newer(proactive_home: Path):
    """--before: older rows and older cache entries go, newer ones stay; the report names each place."""
    store = Store()
    now = time.time()
    store.add_episodes([
        {"start": now - 7200, "end": now - 7100, "app": "xterm", "title": "old", "event": "OldEpisode",
         "sentences": ["OldEpisode"], "first_raw_id": 0, "last_raw_id": 0},
        {"start": now - 60, "end": now - 10, "app": "xterm", "title": "new", "event": "NewEpisode",
         "sentences": ["NewEpisode"], "first_raw_id": 0, "last_raw_id": 0},
    ])
    store.close()
    cache = Cache(proactive_home / "cache" / "replay.db")
    cache.put("old", "OldCache")
    cache.db.execute("UPDATE results SET ts = ?", [now - 7200])
    cache.db.conn.commit()
    cache.put("new", "NewCache")
    cache.close()
    (proactive_home / "config.toml").write_text("activitywatch = false\n")
    cutoff = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(now - 3600))
    out = run_cli("purge", "--before", cutoff)
    assert out.returncode == 0, out.stderr
    assert "database: deleted 1 rows" in out.stdout and "caches: deleted 1 entries" in out.stdout
    assert "ActivityWatch" not in out.stdout and "logs" not in out.stdout
    events = [e["event"] for e in Store().episodes()]
    assert events == ["NewEpisode"]
    conn = sqlite3.connect(proactive_home / "cache" / "replay.db")
    assert [r[0] for r in conn.execute("SELECT value FROM results")] == ['"NewCache"']
    conn.close()
    assert b"OldCache" not in home_bytes(proactive_home) and b"OldEpisode" not in home_bytes(proactive_home)


def test_purge_with_an_unresponsive_watcher_says_so(proactive_home: Path):
    """A watcher that holds the lock but never answers: exit 2 with one line, and the request is withdrawn."""
    lock = control.PidLock()
    lock.acquire()  # this test process plays a watcher that never reads its requests
    try:
        out = run_cli("purge", "--all", "--yes", "--wait", "1", process=True)  # another process than the watcher
    finally:
        lock.release()
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "did not apply the purge" in out.stderr
    assert not control.purge_request_path().exists()


def test_unreachable_activitywatch_after_publishing_is_reported(proactive_home: Path):
    """Once episodes were published, a purge that cannot reach the server says the copy is still there."""
    from proactive.watcher.activitywatch import published_marker

    published_marker().touch()
    store = Store()
    report = purging.purge_copies(store, None, purging.activitywatch_unpublish(
        Config(activitywatch_url="http://127.0.0.1:9")))
    store.close()
    assert report.activitywatch is None and "no ActivityWatch server answers" in report.activitywatch_error
    assert any(line.startswith("ActivityWatch: NOT removed") for line in report.lines())
    published_marker().unlink()
    store = Store()
    report = purging.purge_copies(store, None, purging.activitywatch_unpublish(
        Config(activitywatch_url="http://127.0.0.1:9")))
    store.close()
    # nothing was ever published and no server answers: nothing to delete there, and nothing claimed about it
    assert report.activitywatch is None and not report.activitywatch_error
    assert not any(line.startswith("ActivityWatch") for line in report.lines())


def test_retention_reaches_caches(proactive_home: Path):
    """Retention is a purge of the period before the cutoff: cache entries made before it go too."""
    cache = Cache(proactive_home / "cache" / "replay.db")
    cache.put("old", "x")
    cache.db.execute("UPDATE results SET ts = ?", [time.time() - 3 * 86400])
    cache.db.conn.commit()
    cache.put("new", "y")
    cache.close()
    store = Store()
    report = purging.purge_copies(store, purging.retention_cutoff(2), None)
    store.close()
    assert report.cache_entries == 1 and not report.logs
    assert purging.retention_cutoff(0) is None


@pytest.mark.aw
def test_unpublish_before_deletes_only_older_published_episodes(aw_server_url: str, proactive_home: Path,
                                                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Retention and purge --before reach the ActivityWatch bucket: episodes that ended before the cutoff go."""
    from proactive.watcher.activitywatch import ActivityWatchPublisher

    for key, value in xdg_env(tmp_path / "xdg").items():
        monkeypatch.setenv(key, value)
    now = time.time()
    episode = {"app": "xterm", "event": "", "sentences": []}
    with ActivityWatchPublisher(aw_server_url) as publisher:
        publisher.unpublish(None)  # whatever other tests of this session left in our bucket
        try:
            assert publisher.publish([dict(episode, start=now - 7200, end=now - 7100, title="OldPublished"),
                                      dict(episode, start=now - 60, end=now - 30, title="NewPublished")]) == 2
            assert publisher.unpublish(now - 3600) == 1
            assert [e["data"]["title"] for e in bucket_events(aw_server_url)] == ["NewPublished"]
            assert publisher.unpublish(None) == 1
            assert bucket_events(aw_server_url) == []
        finally:
            publisher.unpublish(None)


# -- a purge that tells the truth ------------------------------------------------------------------------------

CANARY = "PurgeCanaryZq7"


def store_canaries(now: float, old_only: bool = False) -> None:
    """An old episode, its raw event and a proposal carrying CANARY; with `old_only` false, also a recent
    episode without it (what a --before purge keeps)."""
    from proactive.watcher.events import RawEvent

    store = Store()
    store.add_events([RawEvent("keyboard", "text", {"app": "xterm", "title": CANARY, "text": CANARY * 3},
                               ts=now - 7200)])
    episodes = [{"start": now - 7200, "end": now - 7100, "app": "xterm", "title": CANARY, "event": CANARY * 5,
                 "sentences": [CANARY], "first_raw_id": 1, "last_raw_id": 1}]
    if not old_only:
        episodes.append({"start": now - 60, "end": now - 10, "app": "xterm", "title": "new", "event": "Kept",
                         "sentences": ["Kept"], "first_raw_id": 2, "last_raw_id": 2})
    store.add_episodes(episodes)
    ProposalLog(store).add(now - 7100, 1, f"Explain {CANARY}", CANARY, 0.9, {"why": CANARY})
    store.close()


def hold_read_transaction(db: Path) -> subprocess.Popen[str]:
    """Another program (a real process: sqlite3 in python) inside `BEGIN; SELECT ...`, holding the read open
    until its stdin closes."""
    code = ("import sqlite3, sys\n"
            f"conn = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
            "conn.execute('BEGIN')\n"
            "conn.execute('SELECT count(*) FROM episodes').fetchall()\n"
            "print('reading', flush=True)\n"
            "sys.stdin.read()\n")
    reader = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    assert reader.stdout is not None and reader.stdout.readline().strip() == "reading"
    return reader


def purge_args(how: str, now: float) -> list[str]:
    if how == "all":
        return ["purge", "--all", "--yes"]
    return ["purge", "--before", time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(now - 3600))]


@pytest.mark.parametrize("how", ["all", "before"])
def test_purge_while_another_process_reads_names_it_and_claims_nothing(proactive_home: Path, how: str):
    """A reader holds the WAL: the purge waits --wait, then exits non-zero with one line naming that pid and
    no "WAL truncated"; once the reader is gone the same purge succeeds and CANARY is in no file of the home."""
    now = time.time()
    (proactive_home / "config.toml").write_text("activitywatch = false\n")
    store_canaries(now)
    reader = hold_read_transaction(proactive_home / "proactive.db")
    try:
        started = time.monotonic()
        out = run_cli(*purge_args(how, now), "--wait", "1")
        assert time.monotonic() - started < 30
    finally:
        reader.communicate("")
    assert out.returncode not in (0, 1), (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    assert f"pid {reader.pid} (" in lines[0] and "proactive.db" in lines[0], lines[0]
    assert "truncated" not in out.stdout + out.stderr
    out = run_cli(*purge_args(how, now))
    assert out.returncode == 0, out.stderr
    assert "WAL truncated" in out.stdout
    assert CANARY.encode() not in home_bytes(proactive_home)
    assert [e["event"] for e in Store().episodes()] == ([] if how == "all" else ["Kept"])


def test_a_running_watcher_waits_for_readers_as_long_as_the_purge_wait(proactive_home: Path):
    """The watcher applies the purge (it holds the pid lock), and its checkpoint waits for a reader as long as
    the command's --wait, not a fixed time: --wait 1 with a reader that stays fails in about a second, naming
    the reader; --wait 20 with a reader that finishes after 7 s (more than the store's 5 s busy timeout)
    purges everything."""
    import threading

    from proactive.watcher.pipeline import Watcher

    from .conftest import ListSource

    (proactive_home / "config.toml").write_text("activitywatch = false\n")
    store_canaries(time.time())
    lock = control.PidLock()
    lock.acquire()  # this test process is the running watcher: its thread below answers the requests
    watcher = Watcher(None, Config(activitywatch=False), [ListSource([])], flush_interval=0.1)
    thread = threading.Thread(target=watcher.run, daemon=True)
    thread.start()
    try:
        assert watcher.started.wait(10)
        reader = hold_read_transaction(proactive_home / "proactive.db")
        try:
            started = time.monotonic()
            out = run_cli("purge", "--all", "--yes", "--wait", "1", process=True)  # another process than the watcher
            took = time.monotonic() - started
        finally:
            reader.communicate("")
        assert out.returncode == 2, (out.stdout, out.stderr)
        assert f"pid {reader.pid} (" in out.stderr and "did not apply" not in out.stderr, out.stderr
        assert took < 5, took  # the run itself takes about a second; a fixed 5 s wait would exceed it
        reader = hold_read_transaction(proactive_home / "proactive.db")
        release = threading.Timer(7, reader.communicate, [""])
        release.start()
        try:
            started = time.monotonic()
            out = run_cli("purge", "--all", "--yes", "--wait", "20", process=True)
            took = time.monotonic() - started
        finally:
            release.join()
        assert out.returncode == 0, out.stderr
        assert "running watcher: dropped" in out.stdout and "WAL truncated" in out.stdout
        assert 6 < took < 20, took
    finally:
        watcher.stop()
        thread.join(10)
        lock.release()
    assert CANARY.encode() not in home_bytes(proactive_home)


def test_a_reader_unknown_to_proc_is_called_another_program(proactive_home: Path):
    """Where the holder cannot be named (here: this very process, which the scan skips), the line says
    "another program" rather than nothing or a wrong pid."""
    import sqlite3

    store_canaries(time.time(), old_only=True)
    reader = sqlite3.connect(proactive_home / "proactive.db", isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM episodes").fetchall()
    store = Store()
    try:
        with pytest.raises(StoreError, match="another program holds the database open") as caught:
            store.purge(None, wait=0.2)
        assert caught.value.kind == "locked"
    finally:
        reader.close()
        store.close()


@pytest.mark.parametrize("answer", ["n\n", "y\n", "yes\n", ""])
def test_purge_all_without_yes_and_without_a_terminal_refuses(proactive_home: Path, answer: str):
    """A pipe cannot confirm: whatever it says, `purge --all` without --yes exits 2 with one line and deletes
    nothing."""
    store_canaries(time.time())
    out = run_cli("purge", "--all", input=answer)
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "--yes" in lines[0], out.stderr
    store = Store()
    assert store.count("episodes") == 2 and store.count("raw_events") == 1 and store.count("proposals") == 1
    store.close()


@pytest.mark.parametrize("how", ["all", "before"])
def test_purged_bytes_are_overwritten_in_the_database_file(proactive_home: Path, how: str):
    """secure_delete: the purged text is not left in free pages of proactive.db (nor its WAL), with --all (then
    VACUUM) and with --before (no VACUUM: only overwriting removes it)."""
    now = time.time()
    (proactive_home / "config.toml").write_text("activitywatch = false\n")
    store_canaries(now)
    db = proactive_home / "proactive.db"
    assert CANARY.encode() in home_bytes(proactive_home)  # written (in the file or its WAL)
    out = run_cli(*purge_args(how, now))
    assert out.returncode == 0, out.stderr
    assert CANARY.encode() not in db.read_bytes()
    assert not Path(f"{db}-wal").exists() or CANARY.encode() not in Path(f"{db}-wal").read_bytes()


@pytest.mark.parametrize("deadline", ['"soon"', "true", "1e999"])
def test_a_purge_request_with_an_unusable_deadline_is_not_applied(proactive_home: Path, deadline: str):
    """The request file is ours to read but anyone's to write: a deadline that is not a finite number makes it
    no request (removed, logged), never a watcher waiting for ever."""
    control.purge_request_path().write_text(f'{{"id": "x", "before": null, "db": "/nope", "deadline": {deadline}}}')
    assert control.pending_purge() is None
    assert not control.purge_request_path().exists()
