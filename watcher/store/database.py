"""The SQLite store: schema migrations, WAL, batched writes, retention and purge.

Why WAL + batches: the watcher writes a few events per second all day; one transaction per batch (flushed at
least every half second by the pipeline) keeps the disk quiet, and WAL with synchronous=NORMAL means a killed
process loses only the batch it had not yet committed, never the database's consistency.
`secure_delete` makes deleted rows (purge, retention) really disappear from the file instead of lingering in
free pages.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from proactive.watcher.events import RawEvent
from proactive.watcher.store import crypto, home


def _import_sqlite_utils() -> ModuleType:
    """sqlite-utils imports numpy whenever it is installed, only to convert numpy values on insert; the store
    never passes any, and numpy is 14 MB of the watcher's 60 MB budget. So numpy is hidden while sqlite-utils
    loads (unless something imported it already); a later `import numpy` elsewhere works as usual."""
    if "numpy" in sys.modules:
        import sqlite_utils
    else:
        # None makes `import numpy` fail, so sqlite-utils skips it (documented, but typeshed allows modules only)
        sys.modules["numpy"] = None  # type: ignore[assignment]
        try:
            import sqlite_utils
        finally:
            del sys.modules["numpy"]
    return sqlite_utils


if TYPE_CHECKING:
    import sqlite_utils
else:
    sqlite_utils = _import_sqlite_utils()
Migrations = sqlite_utils.Migrations

migrations = Migrations("proactive")


@migrations()
def m001_raw_events(db: sqlite_utils.Database) -> None:
    db.table("raw_events").create(
        {"id": int, "ts": float, "source": str, "kind": str, "app": str, "title": str, "data": str}, pk="id"
    )
    db.table("raw_events").create_index(["ts"])


@migrations()
def m002_episodes(db: sqlite_utils.Database) -> None:
    db.table("episodes").create(
        {
            "id": int,
            "start": float,
            "end": float,
            "app": str,
            "title": str,
            "event": str,
            "sentences": str,  # JSON list
            "first_raw_id": int,  # the episode covers raw_events first_raw_id..last_raw_id
            "last_raw_id": int,
        },
        pk="id",
    )
    db.table("episodes").create_index(["start"])
    db.table("episodes").create_index(["last_raw_id"])


@migrations()
def m003_proposals_decisions_labels(db: sqlite_utils.Database) -> None:
    db.table("proposals").create(
        {"id": int, "ts": float, "episode_id": int, "task": str, "response": str, "score": float, "data": str},
        pk="id",
        foreign_keys=[("episode_id", "episodes", "id")],
    )
    db.table("decisions").create(
        {"id": int, "ts": float, "proposal_id": int, "decision": str, "latency_s": float, "result": str},
        pk="id",
        foreign_keys=[("proposal_id", "proposals", "id")],
    )
    db.table("labels").create(
        {"id": int, "ts": float, "annotator": str, "episode_id": int, "task": str, "help_needed": int,
         "valid": int},
        pk="id",
    )


FTS_TABLE = ("CREATE VIRTUAL TABLE episodes_fts USING fts5(title, event, content='episodes', content_rowid='id', "
             "tokenize='{tokenize}')")
FTS_TRIGGERS = (
    "CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes BEGIN "
    "INSERT INTO episodes_fts (rowid, title, event) VALUES (new.id, new.title, new.event); END",
    "CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN "
    "INSERT INTO episodes_fts (episodes_fts, rowid, title, event) VALUES ('delete', old.id, old.title, old.event); END",
    "CREATE TRIGGER episodes_fts_update AFTER UPDATE ON episodes BEGIN "
    "INSERT INTO episodes_fts (episodes_fts, rowid, title, event) VALUES ('delete', old.id, old.title, old.event); "
    "INSERT INTO episodes_fts (rowid, title, event) VALUES (new.id, new.title, new.event); END",
)

# FTS5 records a deletion as a marker in a new index segment: the deleted text's terms stay in the older segments
# until they are merged. Merging everything now ('optimize') is what makes purge reach the index's copy too.
FTS_OPTIMIZE = "INSERT INTO episodes_fts (episodes_fts) VALUES ('optimize')"


@migrations()
def m004_episodes_fts(db: sqlite_utils.Database) -> None:
    """A full-text index over episodes, so accepted help can recall the earlier times the person met the same
    error, query, file or page. External content: the text is stored once, in `episodes`, and triggers keep the
    index in step with it, so purge, retention and deleting one episode reach the index too.

    Trigram tokens make a match a case-insensitive substring (a file name inside a title, an error inside a
    longer quote, Chinese text without spaces); SQLite before 3.34 has no trigram tokenizer and gets words."""
    try:
        db.execute(FTS_TABLE.format(tokenize="trigram"))
    except crypto.OperationalError:
        db.execute(FTS_TABLE.format(tokenize="unicode61"))
    db.execute("INSERT INTO episodes_fts (episodes_fts) VALUES ('rebuild')")  # episodes stored before this
    for trigger in FTS_TRIGGERS:
        db.execute(trigger)


@migrations()
def m005_raw_event_ids_never_reused(db: sqlite_utils.Database) -> None:
    """Raw event ids only ever grow (AUTOINCREMENT). Without it SQLite starts again at 1 once retention has
    emptied the table (no input for longer than `retention_days`), and episodes, which name their events by id
    range (`first_raw_id`..`last_raw_id`), would cover the wrong events: deleting one episode could leave the text
    of another on disk, and recovery and live context, which read "events after the last episode's", would skip
    new ones. The table is rebuilt in the migration's transaction, keeping every id."""
    db.execute("CREATE TABLE raw_events_new (id INTEGER PRIMARY KEY AUTOINCREMENT, ts FLOAT, source TEXT, "
               "kind TEXT, app TEXT, title TEXT, data TEXT)")
    db.execute("INSERT INTO raw_events_new (id, ts, source, kind, app, title, data) "
               "SELECT id, ts, source, kind, app, title, data FROM raw_events")
    high = max(db.execute("SELECT max(id) FROM raw_events").fetchone()[0] or 0,
               db.execute("SELECT max(last_raw_id) FROM episodes").fetchone()[0] or 0)
    db.execute("DROP TABLE raw_events")
    db.execute("ALTER TABLE raw_events_new RENAME TO raw_events")
    db.execute("CREATE INDEX idx_raw_events_ts ON raw_events (ts)")
    if high:  # ids already used by episodes whose events retention deleted stay used
        db.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'raw_events'", [high])
        if db.execute("SELECT changes()").fetchone()[0] == 0:
            db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('raw_events', ?)", [high])


@migrations()
def m006_drop_labels(db: sqlite_utils.Database) -> None:
    """The `labels` table made by m003 was never written or read: human labels are reward-format JSONL files
    (`proactive annotate`, eval/annotation.py), not rows here. Dropped, so purge and retention have one place
    fewer to reach and nobody expects labels in the database (secure_delete overwrites anything it held)."""
    db.execute("DROP TABLE IF EXISTS labels")


@migrations()
def m007_latest_decision_index(db: sqlite_utils.Database) -> None:
    """The latest decision of each proposal (see `LATEST_DECISION`) is one index seek instead of a scan of every
    decision per proposal: the history window and the export read it for every proposal."""
    db.execute("CREATE INDEX IF NOT EXISTS idx_decisions_latest ON decisions (proposal_id, ts, id)")


@migrations()
def m008_person_model(db: sqlite_utils.Database) -> None:
    """What the person told the assistant about itself beyond their decisions (`assistant/person_store.py`): the
    kinds of offer they said "Not this kind" to, and when they last reset what it learned. What it learned is
    rebuilt from the decisions (`decisions`, with the situation each offer was shown in, stored with its proposal),
    so retention and purge reach it through those rows; a full purge deletes this row too."""
    db.table("person_model").create({"id": int, "ts": float, "since": float, "muted": str}, pk="id")


@migrations()
def m009_proposal_ids_never_reused(db: sqlite_utils.Database) -> None:
    """Proposal and decision ids only ever grow (AUTOINCREMENT), as raw event ids do (m005). Without it a purge
    or retention that empties `proposals` makes the next offer id 1 again, and whatever still holds an old id
    (the tray's popup and History, the assistant's record of what it showed and what was decided) would take the
    new offer for the old one. Both tables are rebuilt in the migration's transaction, keeping every id and the
    decisions' reference to their proposal."""
    db.execute("CREATE TABLE proposals_new (id INTEGER PRIMARY KEY AUTOINCREMENT, ts FLOAT, "
               "episode_id INTEGER REFERENCES episodes(id), task TEXT, response TEXT, score FLOAT, data TEXT)")
    db.execute("INSERT INTO proposals_new (id, ts, episode_id, task, response, score, data) "
               "SELECT id, ts, episode_id, task, response, score, data FROM proposals")
    db.execute("CREATE TABLE decisions_new (id INTEGER PRIMARY KEY AUTOINCREMENT, ts FLOAT, "
               "proposal_id INTEGER REFERENCES proposals_new(id), decision TEXT, latency_s FLOAT, result TEXT)")
    db.execute("INSERT INTO decisions_new (id, ts, proposal_id, decision, latency_s, result) "
               "SELECT id, ts, proposal_id, decision, latency_s, result FROM decisions")
    db.execute("DROP TABLE decisions")
    db.execute("DROP TABLE proposals")
    db.execute("ALTER TABLE proposals_new RENAME TO proposals")  # decisions_new's reference follows the name
    db.execute("ALTER TABLE decisions_new RENAME TO decisions")
    db.execute("CREATE INDEX idx_decisions_latest ON decisions (proposal_id, ts, id)")


EPISODE_COLUMNS = ("id", "start", "end", "app", "title", "event")
EPISODE_ROW = (*EPISODE_COLUMNS, "sentences", "first_raw_id", "last_raw_id")
NEXT_WITHIN_S = 600.0  # the episode after a match counts as "what they did next" if it began this soon
SEARCH_SQL = f"""
SELECT {", ".join("e." + c for c in EPISODE_COLUMNS)}, {", ".join("n." + c for c in EPISODE_COLUMNS)}
FROM episodes_fts
JOIN episodes e ON e.id = episodes_fts.rowid
LEFT JOIN episodes n ON n.id = (SELECT id FROM episodes WHERE (start, id) > (e.start, e.id) ORDER BY start, id
                                LIMIT 1) AND n.start < e.end + {NEXT_WITHIN_S}
WHERE episodes_fts MATCH ? AND e.end < ?
ORDER BY e.start DESC, e.id DESC
LIMIT ?
"""

class StoreError(RuntimeError):
    """The database cannot be opened or written. Message is one line saying what to do; `kind` is "locked",
    "readonly", "full", "foreign" or "other", so the watcher can wait out a lock or a full disk and fail on the
    rest."""

    def __init__(self, message: str, kind: str = "other"):
        super().__init__(message)
        self.kind = kind


#: What SQLite's messages mean for the user: (words in the message, kind, what to do).
_TROUBLES = (
    (("locked", "busy"), "locked",
     "the database is locked by another process; close the program holding it (a sqlite3 shell, a backup) "
     "and try again"),
    (("readonly", "read-only", "permission", "unable to open"), "readonly",
     "cannot write here (read-only file or folder): fix its permissions, or choose another place with --db "
     "or PROACTIVE_HOME"),
    (("disk is full", "disk full", "database or disk is full"), "full", "the disk is full: free some space"),
    (("not a database", "malformed", "encrypted"), "foreign",
     "not a proactive database (not SQLite, damaged, or encrypted with another key): move it away or choose "
     "another with --db"),
)


#: what opening a store raises: either SQLite driver's errors, the file system's, or ours
# a named tuple of classes, not `except (A, *B)`: mypy cannot type an unpacking inside an except clause
_OPEN_ERRORS: tuple[type[Exception], ...] = (*crypto.DatabaseError, OSError, StoreError)


def store_error(path: Path, exc: BaseException, action: str = "open") -> StoreError:
    """One line for an SQLite (or file system) error: the file, what went wrong, and what to do about it."""
    text = str(exc).lower()
    if isinstance(exc, OSError) and exc.strerror:
        text += " " + exc.strerror.lower()
    for words, kind, advice in _TROUBLES:
        if any(w in text for w in words):
            return StoreError(f"{path}: cannot {action}: {advice}", kind)
    return StoreError(f"{path}: cannot {action} ({exc})")


#: Tables a database made by this program has; anything else in a database we did not make means "foreign".
MIGRATIONS_TABLE = "_sqlite_migrations"


def _check_ours(db: sqlite_utils.Database, path: Path) -> None:
    """Refuse another program's SQLite database instead of adding our tables to it."""
    tables = set(db.table_names())
    if tables and MIGRATIONS_TABLE not in tables:
        raise StoreError(f"{path}: not a proactive database (it holds other tables: "
                         f"{', '.join(sorted(tables)[:3])}): choose another file with --db", "foreign")


class Store:
    """One connection to the proactive database. Not shared between threads: each thread opens its own."""

    def __init__(self, path: Path | str | None = None, *, readonly: bool = False, timeout: float = 5.0):
        self.path = Path(path) if path else home.db_path()
        if readonly and not self.path.exists():
            raise StoreError(f"{self.path}: no such database (nothing captured yet: start with `proactive run`)")
        # a link (a drive not mounted) is never created here, so never removed on failure below
        created = not self.path.exists() and not self.path.is_symlink()
        try:
            conn = crypto.connect(self.path, timeout=timeout)  # SQLCipher where a keyring holds the key
            self.db = sqlite_utils.Database(conn)
            _check_ours(self.db, self.path)  # before anything writes (WAL mode changes the file's header)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA secure_delete=ON")
            if not readonly:
                migrations.apply(self.db)
            elif "episodes" not in self.db.table_names():
                raise StoreError(f"{self.path}: an empty database (capture never started here): run "
                                 "`proactive watch`, or remove the file", "foreign")
        except _OPEN_ERRORS as exc:
            if created:  # a failed first start (disk full, read-only) leaves no empty file behind
                for suffix in ("", "-wal", "-shm"):
                    Path(str(self.path) + suffix).unlink(missing_ok=True)
            if isinstance(exc, StoreError):
                raise
            if isinstance(exc, crypto.EncryptionError):  # its own line already says what to do
                raise StoreError(f"{self.path}: {exc}", "foreign") from exc
            raise store_error(self.path, exc) from exc
        for suffix in ("", "-wal", "-shm"):
            p = Path(str(self.path) + suffix)
            try:
                os.chmod(p, 0o600)
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise store_error(p, exc) from exc

    def close(self) -> None:
        self.db.close()

    def data_version(self) -> int | None:
        """SQLite's count of changes committed by other connections (other threads and processes: the watcher,
        `proactive purge`, the tray's decisions), so a window can follow the database without re-reading it all;
        None when this connection is closed or cannot read."""
        try:
            return int(self.db.execute("PRAGMA data_version").fetchone()[0])
        except Exception:  # noqa: BLE001 - closed (during a purge) or locked: no news this time
            return None

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """One transaction; an SQLite failure becomes a StoreError that says what to do (its `kind` tells a lock
        or a full disk, which the watcher waits out, from the rest)."""
        try:
            with self.db.conn:
                yield
        except crypto.DatabaseError as exc:
            raise store_error(self.path, exc, "write") from exc

    # -- raw events -----------------------------------------------------------------------------------------

    def add_events(self, events: Iterable[RawEvent]) -> list[int]:
        """Write filtered events in one transaction; returns their ids."""
        rows = [
            (e.ts, e.source, e.kind, e.data.get("app"), e.data.get("title"),
             json.dumps({k: v for k, v in e.data.items() if k not in ("app", "title")}, ensure_ascii=False))
            for e in events
        ]
        if not rows:
            return []
        try:
            with self.db.conn:
                self.db.conn.executemany(
                    "INSERT INTO raw_events (ts, source, kind, app, title, data) VALUES (?, ?, ?, ?, ?, ?)", rows
                )
                # rowids are max+1 each, and we are the only writer inside this transaction: contiguous
                last = self.db.conn.execute("SELECT max(id) FROM raw_events").fetchone()[0]
        except crypto.DatabaseError as exc:
            raise store_error(self.path, exc, "write") from exc
        return list(range(last - len(rows) + 1, last + 1))

    def iter_events(self, after_id: int = 0, since: float | None = None) -> Iterator[tuple[int, RawEvent]]:
        """Stored events in id order (which is capture order), as (id, RawEvent)."""
        sql = "SELECT id, ts, source, kind, app, title, data FROM raw_events WHERE id > ?"
        params: list[Any] = [after_id]
        if since is not None:
            sql += " AND ts >= ?"
            params.append(since)
        for rid, ts, source, kind, app, title, data in self.db.execute(sql + " ORDER BY id", params):
            payload = json.loads(data) if data else {}
            if app is not None:
                payload["app"] = app
            if title is not None:
                payload["title"] = title
            yield rid, RawEvent(source=source, kind=kind, data=payload, ts=ts)

    def count(self, table: str) -> int:
        return self.db[table].count

    # -- episodes -------------------------------------------------------------------------------------------

    def add_episodes(self, episodes: Iterable[dict[str, Any]]) -> list[int]:
        """Stores episode rows; returns their ids, in order."""
        rows = [dict(e, sentences=json.dumps(e["sentences"], ensure_ascii=False)) for e in episodes]
        ids: list[int] = []
        if rows:
            with self.writing():
                table = self.db.table("episodes")
                ids = [int(table.insert(row).last_pk) for row in rows]  # type: ignore[arg-type]
        return ids

    def last_episode_raw_id(self) -> int:
        row = self.db.execute("SELECT max(last_raw_id) FROM episodes").fetchone()
        return row[0] or 0

    def episodes(self, since: float | None = None) -> list[dict[str, Any]]:
        """Stored episodes, oldest first; with `since`, those that ended then or later."""
        if since is None:
            return self._episodes("1", [])
        return self._episodes("end >= ?", [since])

    def episodes_before(self, ts: float, n: int) -> list[dict[str, Any]]:
        """The last `n` episodes started by `ts`, oldest first: the activity a proposal made at `ts` followed."""
        return self._episodes("start <= ?", [ts], newest_first=True, limit=n)[::-1]

    def copies(self, first_raw_id: int, last_raw_id: int, limit: int = 4) -> list[str]:
        """The texts copied between two raw events (an episode's), oldest first, at most the last `limit`: an
        episode quotes only the first and last lines of a copied error, the specific help reads all of it. The
        texts are as stored: already through the privacy filter and redaction."""
        rows = self.db.execute("SELECT data FROM raw_events WHERE id BETWEEN ? AND ? AND kind = 'clipboard' "
                               "ORDER BY id DESC LIMIT ?", [first_raw_id, last_raw_id, limit]).fetchall()
        texts = [json.loads(r[0]).get("text") if r[0] else None for r in reversed(rows)]
        return [t for t in texts if isinstance(t, str) and t.strip()]

    def pages(self, first_raw_id: int, last_raw_id: int, limit: int = 200) -> list[tuple[int, str, str]]:
        """The pages visited between two raw events, as (raw event id, url, title), oldest first, at most the last
        `limit`: the addresses ActivityWatch's web watcher reported (the episodes name only their host)."""
        rows = self.db.execute("SELECT id, title, data FROM raw_events WHERE id BETWEEN ? AND ? AND kind = 'web' "
                               "ORDER BY id DESC LIMIT ?", [first_raw_id, last_raw_id, limit]).fetchall()
        out = []
        for rid, title, data in reversed(rows):
            payload = json.loads(data) if data else {}
            if isinstance(payload.get("url"), str) and payload["url"] and not payload.get("incognito"):
                out.append((rid, payload["url"], str(title or "")))
        return out

    def _episodes(self, where: str, params: list[Any], newest_first: bool = False,
                  limit: int = -1) -> list[dict[str, Any]]:
        order = "start DESC, id DESC" if newest_first else "start, id"
        rows = self.db.execute(f"SELECT {', '.join(EPISODE_ROW)} FROM episodes WHERE {where} ORDER BY {order} "
                               "LIMIT ?", [*params, limit]).fetchall()
        out = [dict(zip(EPISODE_ROW, r, strict=True)) for r in rows]
        for e in out:
            e["sentences"] = json.loads(e["sentences"])
        return out

    def search_episodes(self, text: str, before: float, limit: int = 20) -> list[dict[str, Any]]:
        """Episodes that ended before `before` and mention `text` (title or sentences, any case), newest first.
        Each has `next`: the episode that followed within NEXT_WITHIN_S seconds (what the person did next), or
        None."""
        phrase = '"' + text.replace('"', '""') + '"'  # one FTS5 string: no query syntax inside
        rows = self.db.execute(SEARCH_SQL, [phrase, before, limit]).fetchall()
        n = len(EPISODE_COLUMNS)
        return [dict(zip(EPISODE_COLUMNS, r[:n], strict=True),
                     next=dict(zip(EPISODE_COLUMNS, r[n:], strict=True)) if r[n] is not None else None)
                for r in rows]

    def delete_episode(self, episode_id: int) -> None:
        """Delete one episode and the raw events behind it."""
        row = self.db.execute("SELECT first_raw_id, last_raw_id FROM episodes WHERE id = ?", [episode_id]).fetchone()
        if row is None:
            return
        with self.writing():
            self.db.execute("DELETE FROM raw_events WHERE id BETWEEN ? AND ?", list(row))
            self.db.execute("DELETE FROM episodes WHERE id = ?", [episode_id])
            self.db.execute(FTS_OPTIMIZE)
        self.checkpoint()

    # -- retention and purge --------------------------------------------------------------------------------

    def purge(self, before: float | None = None, wait: float | None = None) -> int:
        """Delete everything captured before `before` (epoch s), or everything when None: raw events, episodes,
        and the proposals and decisions derived from them (so what the person model learned from them: it is rebuilt from
        the decisions kept; everything also deletes the person's "Not this kind" choices). Returns rows deleted.

        Deleted content is overwritten (secure_delete), the full-text index is merged so deleted text leaves its
        old index segments too, and the WAL is truncated: no copy stays on disk. While another connection holds a
        read transaction the old pages must stay (it may still read them): after waiting `wait` seconds (the
        connection's timeout when None) for it, StoreError ("locked") names who holds the file, never a purge
        claimed done that is not."""
        with self.writing():
            if before is None:
                n = sum(self.db.execute(f"DELETE FROM {table}").rowcount
                        for table in ("decisions", "proposals", "raw_events", "episodes", "person_model"))
            else:
                n = self.db.execute("DELETE FROM decisions WHERE proposal_id IN "
                                    "(SELECT id FROM proposals WHERE ts < ?)", [before]).rowcount
                for table in ("proposals", "raw_events"):
                    n += self.db.execute(f"DELETE FROM {table} WHERE ts < ?", [before]).rowcount
                n += self.db.execute("DELETE FROM episodes WHERE end < ?", [before]).rowcount
            self.db.execute(FTS_OPTIMIZE)
        self._truncate_or_fail(wait)
        if before is None:
            self.db.execute("VACUUM")
            self._truncate_or_fail(wait)
        return n

    def _truncate_or_fail(self, wait: float | None) -> None:
        if not self.checkpoint(wait):
            raise wal_held(self.path)

    def checkpoint(self, wait: float | None = None) -> bool:
        """Copy the WAL into the database file and truncate it; False when a reader kept it from completing."""
        return truncate_wal(self.db.conn, wait)


def truncate_wal(conn: Any, wait: float | None = None) -> bool:
    """`PRAGMA wal_checkpoint(TRUNCATE)` on `conn`, waiting up to `wait` seconds (the connection's busy timeout
    when None) for readers to finish. True when it completed: every page is in the database file (freed pages
    overwritten there, with secure_delete) and the WAL is empty. Its result row is (busy, log, checkpointed):
    busy 1 means a reader still uses the WAL, so old pages stay in the file and the WAL."""
    previous = None
    if wait is not None:
        previous = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        conn.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")
    try:
        busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        if previous is not None:
            conn.execute(f"PRAGMA busy_timeout = {int(previous)}")
    return busy == 0


def wal_held(path: Path) -> StoreError:
    """The one line for a purge whose deleted bytes are still on disk because a reader holds the database."""
    who = ", ".join(open_by_others(path)) or "another program"
    return StoreError(f"{path}: rows deleted, but their old bytes are still in the file: {who} holds the database "
                      "open in a read transaction; close it and run the purge again", "locked")


def open_by_others(path: Path) -> list[str]:
    """"pid N (command)" for each other process that has the database, its WAL or its shared memory open.
    Linux only (`/proc/PID/fd`); processes whose descriptors cannot be read are skipped, so [] means "not
    known", not "none"."""
    targets = {os.path.realpath(f"{path}{suffix}") for suffix in ("", "-wal", "-shm")}
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
    except OSError:
        return []
    found = []
    for pid in pids:
        if any(target in targets for target in _open_files(pid)):
            found.append(f"pid {pid} ({_command(pid)})")
    return found


def _open_files(pid: str) -> Iterator[str]:
    folder = f"/proc/{pid}/fd"
    try:
        fds = os.listdir(folder)
    except OSError:  # gone, or not ours to read
        return
    for fd in fds:
        with contextlib.suppress(OSError):
            yield os.readlink(f"{folder}/{fd}")


def _command(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as f:
            return f.read().strip() or "?"
    except OSError:
        return "?"
