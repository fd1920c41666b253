"""The store: migrations from an empty and from an older schema, private files, purge and retention, proposals
and their latest decision, the episodes not stored yet. Every test runs over each of the store's two
implementations behind its one interface: a plain SQLite database (no OS keyring, as on a server) and an
SQLCipher one (a real Secret Service holds its key)."""

from __future__ import annotations

import json
import re
import stat
import time

import pytest
import sqlite_utils

from proactive.assistant.proposals import ProposalLog
from proactive.eval.export import export_decisions
from proactive.watcher.episodes.builder import unstored_episodes
from proactive.watcher.events import TEXT, WINDOW, RawEvent
from proactive.watcher.store import crypto
from proactive.watcher.store.database import Store, StoreError, migrations
from proactive.watcher.store.purging import retention_cutoff

from .keyring_session import KeyringSession, available


@pytest.fixture(scope="module")
def keyring_bus(tmp_path_factory: pytest.TempPathFactory):
    """One real keyring (dbus-daemon + gnome-keyring-daemon) for the module's encrypted runs."""
    missing = available()
    if missing:
        pytest.fail(f"the encrypted store needs a real keyring here: {missing}")
    session = KeyringSession(tmp_path_factory.mktemp("keyring")).start()
    yield session
    session.stop()


@pytest.fixture(autouse=True, params=["plain", "encrypted"])
def storage(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, proactive_home) -> str:
    """The implementation under test: plain (no keyring reachable) or encrypted (the module's keyring). After
    the test, a database it left in the home is checked to be of that kind."""
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND", raising=False)
    if request.param == "encrypted":
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", request.getfixturevalue("keyring_bus").address)
    else:
        monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    crypto.reset()
    yield request.param
    db = proactive_home / "proactive.db"
    if db.exists():
        assert crypto.file_state(db) == request.param, f"{db} is {crypto.file_state(db)}, not {request.param}"
    crypto.reset()


def test_migrations_from_empty(proactive_home):
    store = Store()
    assert {"raw_events", "episodes", "proposals", "decisions"} <= set(store.db.table_names())
    assert "labels" not in store.db.table_names()  # made by m003, never used, dropped by m006
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
    assert store.purge(before=retention_cutoff(7)) == 1
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
    other = crypto.connect(store.path)  # another connection of the same kind (plain, or keyed)
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
    ProposalLog(store).decide(1, "accepted")
    ProposalLog(store).decide(2, "rejected")
    store.purge(before=retention_cutoff(7))
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

    from proactive.watcher.episodes.builder import build_episodes
    from proactive.watcher.events import TEXT, WINDOW, RawEvent

    store = Store()
    old = _time.time() - 3 * 86400
    ids = store.add_events([RawEvent("window", WINDOW, {"app": "xterm", "title": "a"}, ts=old),
                            RawEvent("keyboard", TEXT, {"text": "old line", "erase": 0, "enter": True}, ts=old + 1)])
    store.add_episodes(e.row() for e in build_episodes(zip(ids, [e for _, e in store.iter_events()], strict=True)))
    store.purge(before=retention_cutoff(1))
    assert store.count("raw_events") == 0
    new = store.add_events([RawEvent("keyboard", TEXT, {"text": "new secret line", "erase": 0, "enter": True})])
    assert new[0] > max(ids)
    store.close()


@pytest.mark.parametrize("purge", ["everything", "retention"])
def test_proposal_and_decision_ids_are_never_reused_after_a_purge(proactive_home, purge):
    """A database made before ids were kept growing keeps its proposals, decisions and their link; after a purge
    empties both tables, the next offer and decision get new ids, never one something may still hold."""
    path = proactive_home / "old.db"
    old = sqlite_utils.Database(path)
    migrations.apply(old, stop_before="m009_proposal_ids_never_reused")
    old["episodes"].insert({"start": 1.0, "end": 2.0, "app": "XTerm", "title": "t", "event": "e",
                            "sentences": '["e"]', "first_raw_id": 1, "last_raw_id": 1})
    for n in (1, 2, 3):
        old["proposals"].insert({"id": n, "ts": 3.0 + n, "episode_id": 1, "task": f"TASK{n}", "response": "",
                                 "score": 0.5, "data": "{}"})
    old["decisions"].insert({"ts": 9.0, "proposal_id": 3, "decision": "accepted"})
    old.close()
    store = Store(path)
    log = ProposalLog(store)
    assert [(p["id"], p["task"], p["decision"]) for p in log.all()] == [(1, "TASK1", None), (2, "TASK2", None),
                                                                          (3, "TASK3", "accepted")]
    assert re.search(r'REFERENCES "?proposals"?\(', store.db["decisions"].schema)  # the link follows the new table
    first_decision = store.db.execute("SELECT max(id) FROM decisions").fetchone()[0]
    store.purge(None if purge == "everything" else time.time() + 1)
    assert store.count("proposals") == 0 and store.count("decisions") == 0
    new = log.add(time.time(), None, "NEW", "", 0.5, {})
    log.decide(new, "rejected")
    assert new == 4 and log.get(new)["decision"] == "rejected"
    assert store.db.execute("SELECT max(id) FROM decisions").fetchone()[0] > first_decision
    store.close()


def test_labels_table_is_dropped_from_a_database_made_by_the_old_migrations(proactive_home):
    path = proactive_home / "old.db"
    old = sqlite_utils.Database(path)
    migrations.apply(old, stop_before="m006_drop_labels")
    assert "labels" in old.table_names()
    old["episodes"].insert({"start": 1.0, "end": 2.0, "app": "XTerm", "title": "t", "event": "e",
                            "sentences": '["e"]', "first_raw_id": 1, "last_raw_id": 1})
    old["proposals"].insert({"id": 1, "ts": 3.0, "episode_id": 1, "task": "KEPTTASK", "response": "", "data": "{}"})
    old["decisions"].insert({"ts": 4.0, "proposal_id": 1, "decision": "accepted"})
    old["labels"].insert({"ts": 5.0, "annotator": "a", "episode_id": 1, "task": "LABELTEXT", "help_needed": 1,
                          "valid": 1})
    old.close()
    store = Store(path)
    assert "labels" not in store.db.table_names()
    assert [m.name for m in migrations.applied(store.db)][5:8] == ["m006_drop_labels", "m007_latest_decision_index",
                                                                  "m008_person_model"]
    assert "idx_decisions_latest" in {i.name for i in store.db["decisions"].indexes}
    [proposal] = ProposalLog(store).all()
    assert (proposal["task"], proposal["decision"]) == ("KEPTTASK", "accepted")
    assert store.purge() == 3  # a decision, a proposal, an episode: no labels table left to reach
    store.close()
    assert b"LABELTEXT" not in path.read_bytes()


# The latest decision on a proposal, as every reader must see it: (decision, its time) in the order written.
LATEST_CASES = [
    ("one decision", [("rejected", 10.0)], "rejected"),
    ("snoozed, then answered", [("snoozed", 10.0), ("accepted", 20.0)], "accepted"),
    ("written after a later one", [("accepted", 20.0), ("rejected", 10.0)], "accepted"),
    ("same time: the later row", [("accepted", 10.0), ("rejected", 10.0)], "rejected"),
    ("never answered", [], None),
]


@pytest.mark.parametrize("name, decisions, latest", LATEST_CASES, ids=[c[0] for c in LATEST_CASES])
def test_every_reader_sees_the_same_latest_decision(proactive_home, tmp_path, name, decisions, latest):
    """One rule (decision time, then row id) for the history (`proposals`), `proposal(id)` (`proactive decide`)
    and the export. The export used the highest id, the history the time: "written after a later one" split
    them."""
    store = Store()
    store.add_episodes([{"start": 100.0, "end": 110.0, "app": "XTerm", "title": "t", "event": "e", "sentences": ["e"],
                         "first_raw_id": 1, "last_raw_id": 1}])
    pid = ProposalLog(store).add(111.0, None, "Fix it", "Want a fix?", 0.7, {"trigger": "episode"})
    for decision, ts in decisions:
        ProposalLog(store).decide(pid, decision, ts=111.0 + ts)
    assert ProposalLog(store).get(pid)["decision"] == latest
    assert [p["decision"] for p in ProposalLog(store).all(newest_first=True)] == [latest]
    assert [p["decision"] for p in ProposalLog(store).all(with_task=True, decided=True)] == ([latest] if latest else [])
    out = tmp_path / "export.jsonl"
    rows = export_decisions(store, out)
    assert rows == (latest in ("accepted", "rejected"))
    if rows:
        assert json.loads(out.read_text())["valid"] == (latest == "accepted")
    store.close()


def test_proposals_filters_order_and_damaged_data(proactive_home):
    store = Store()
    silent = ProposalLog(store).add(1.0, None, None, "", 0.1, {"trigger": "idle"})
    shown = ProposalLog(store).add(2.0, None, "Explain the error", "Want help?", 0.8, {"trigger": "episode"})
    answered = ProposalLog(store).add(3.0, None, "Open the docs", "Want them?", 0.9, {"trigger": "switch"})
    ProposalLog(store).decide(answered, "rejected", ts=4.0)
    with store.db.conn:
        store.db.execute("UPDATE proposals SET data = 'not json' WHERE id = ?", [shown])
    assert [p["id"] for p in ProposalLog(store).all()] == [silent, shown, answered]
    assert [p["id"] for p in ProposalLog(store).all(newest_first=True, limit=2)] == [answered, shown]
    assert [p["id"] for p in ProposalLog(store).all(with_task=True)] == [shown, answered]
    assert [p["id"] for p in ProposalLog(store).all(decided=True)] == [answered]
    assert ProposalLog(store).get(shown)["data"] == {}  # a damaged row reads as empty, it does not hide the others
    assert ProposalLog(store).get(silent) == {"id": silent, "ts": 1.0, "episode_id": None, "task": None, "response": "",
                                      "score": 0.1, "data": {"trigger": "idle"}, "decision": None}
    assert ProposalLog(store).get(answered + 1) is None
    store.close()


def test_episodes_before_a_time(proactive_home):
    store = Store()
    store.add_episodes([{"start": float(t), "end": t + 5.0, "app": "A", "title": str(t), "event": str(t),
                         "sentences": [str(t)], "first_raw_id": t, "last_raw_id": t} for t in (10, 20, 30, 40)])
    assert [e["event"] for e in store.episodes_before(30.0, 2)] == ["20", "30"]
    assert [e["event"] for e in store.episodes_before(35.0, 10)] == ["10", "20", "30"]
    assert store.episodes_before(5.0, 3) == []
    store.close()


def test_unstored_episodes_are_built_from_the_events_after_the_last_stored_one(proactive_home):
    store = Store()
    ids = store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "one"}, ts=1.0),
                            RawEvent("keyboard", TEXT, {"text": "stored", "enter": True}, ts=2.0),
                            RawEvent("window", WINDOW, {"app": "XTerm", "title": "two"}, ts=3.0),
                            RawEvent("keyboard", TEXT, {"text": "open"}, ts=4.0)])
    assert [e.title for e in unstored_episodes(store)] == ["one", "two"]  # nothing stored yet: a killed watcher
    [first, _] = unstored_episodes(store)
    store.add_episodes([first.row()])
    [tail] = unstored_episodes(store)
    assert (tail.title, tail.first_raw_id, tail.last_raw_id) == ("two", ids[2], ids[3])
    assert "open" in tail.event
    store.close()
