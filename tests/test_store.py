"""The store: migrations from an empty and from an older schema, private files, purge and retention."""

from __future__ import annotations

import sqlite3
import stat
import time

import sqlite_utils

from proactive.watcher.events import TEXT, WINDOW, RawEvent
from proactive.watcher.store import Store, StoreError, migrations


def test_migrations_from_empty(proactive_home):
    store = Store()
    assert {"raw_events", "episodes", "proposals", "decisions", "labels"} <= set(store.db.table_names())
    assert [m.name for m in migrations.applied(store.db)] == [m.name for m in migrations._migrations]
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()


def test_migration_from_older_schema_keeps_data(proactive_home):
    path = proactive_home / "old.db"
    old = sqlite_utils.Database(path)
    migrations.apply(old, stop_before="m002_episodes")
    old["raw_events"].insert({"ts": 1.0, "source": "keyboard", "kind": "text", "app": "XTerm", "title": "t",
                              "data": '{"text": "hello"}'})
    assert "episodes" not in old.table_names()
    old.close()
    store = Store(path)
    assert "episodes" in store.db.table_names()
    [(rid, event)] = list(store.iter_events())
    assert event.data == {"text": "hello", "app": "XTerm", "title": "t"}
    store.close()


def test_files_are_private(proactive_home):
    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "A", "title": "t"})])
    for suffix in ("", "-wal", "-shm"):
        p = proactive_home / f"proactive.db{suffix}"
        if p.exists():
            assert stat.S_IMODE(p.stat().st_mode) == 0o600, p
    store.close()


def test_not_a_database_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    try:
        Store(bad)
    except StoreError as exc:
        assert "bad.db" in str(exc) and "\n" not in str(exc)
    else:
        raise AssertionError("expected StoreError")


def test_purge_before_and_all_really_deletes(proactive_home):
    store = Store()
    now = time.time()
    store.add_events([RawEvent("keyboard", TEXT, {"text": "OLDSECRETWORD"}, ts=now - 10 * 86400),
                      RawEvent("keyboard", TEXT, {"text": "recentword"}, ts=now)])
    assert store.apply_retention(7) == 1
    assert [e.data["text"] for _, e in store.iter_events()] == ["recentword"]
    store.checkpoint()
    blob = (proactive_home / "proactive.db").read_bytes()
    assert b"OLDSECRETWORD" not in blob  # secure_delete overwrote it
    store.purge()
    assert store.count("raw_events") == 0
    store.close()
    assert b"recentword" not in (proactive_home / "proactive.db").read_bytes()


def test_locked_database_is_a_store_error(proactive_home):
    store = Store()
    other = sqlite3.connect(store.path)
    other.execute("BEGIN EXCLUSIVE")
    try:
        locked = Store(store.path, timeout=0.2)
        try:
            locked.add_events([RawEvent("window", WINDOW, {"app": "A"})])
        except StoreError as exc:
            assert "locked" in str(exc)
        else:
            raise AssertionError("expected StoreError")
    except StoreError as exc:  # may already fail while opening
        assert "locked" in str(exc)
    finally:
        other.rollback()
        other.close()
        store.close()


def test_purge_removes_proposals_and_decisions_too(proactive_home):
    store = Store()
    now = time.time()
    with store.db.conn:
        store.db.execute("INSERT INTO proposals (id, ts, task, response, score, data) VALUES (1, ?, 'OLDTASK', '',"
                         " 0.5, '{}'), (2, ?, 'NEWTASK', '', 0.5, '{}')", [now - 10 * 86400, now])
    store.add_decision(1, "accepted")
    store.add_decision(2, "rejected")
    store.apply_retention(7)
    assert [r[0] for r in store.db.execute("SELECT task FROM proposals")] == ["NEWTASK"]
    assert store.count("decisions") == 1
    store.purge()
    assert store.count("proposals") == 0 and store.count("decisions") == 0
    store.close()
    assert b"NEWTASK" not in (proactive_home / "proactive.db").read_bytes()


def test_raw_event_ids_are_never_reused_after_retention_empties_the_table(proactive_home):
    """Retention that deletes every raw event must not let ids start again at 1: episodes name their events by
    id range, so a reused id would put new text inside an old episode's range (and out of a new one's)."""
    import time as _time

    from proactive.watcher.episodes import build_episodes
    from proactive.watcher.events import TEXT, WINDOW, RawEvent

    store = Store()
    old = _time.time() - 3 * 86400
    ids = store.add_events([RawEvent("window", WINDOW, {"app": "xterm", "title": "a"}, ts=old),
                            RawEvent("keyboard", TEXT, {"text": "old line", "erase": 0, "enter": True}, ts=old + 1)])
    store.add_episodes(e.row() for e in build_episodes(zip(ids, [e for _, e in store.iter_events()], strict=True)))
    store.apply_retention(1)
    assert store.count("raw_events") == 0
    new = store.add_events([RawEvent("keyboard", TEXT, {"text": "new secret line", "erase": 0, "enter": True})])
    assert new[0] > max(ids)
    store.close()
