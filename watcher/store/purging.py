"""Purge and retention that reach every copy of what was captured, and say where each copy was removed.

Copies of captured text live in: the database (raw events, episodes, proposals, decisions, the full-text index,
the WAL), the running watcher's memory (the open episode, the typed-text buffer, the batch not yet
written), the episodes published to our ActivityWatch bucket, the cache files under the home's `cache/` folder
(replay results, model answers) and, for a full purge, the logs.

Why through the watcher: only the process that holds the open episode and the typed-text buffer can drop them, and
it would otherwise write them back after the purge. So `purge()` asks a running watcher to do it (see
`watcher.control.request_purge`) and waits for its report; with no watcher running it does the same work itself.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from proactive.watcher import control
from proactive.watcher.activitywatch import ActivityWatchSettings
from proactive.watcher.store import home
from proactive.watcher.store.database import Store, truncate_wal, wal_held

log = logging.getLogger(__name__)

#: Seconds `purge()` waits for a running watcher to apply a purge (a large database takes a while to rewrite).
WATCHER_TIMEOUT = 60.0

#: Seconds `purge()` waits for the watcher's answer beyond its own timeout: the watcher stops waiting for readers
#: at the timeout, then still has to answer (and, for --all, may be rewriting the file).
ANSWER_GRACE = 5.0

#: Cache files are SQLite databases with a table `results(key, value, ts)`: `ts` (epoch s, when the entry was
#: made) lets a purge --before drop what was computed from the purged period. Entries without it are dropped.
CACHE_TABLE = "results"
RETENTION_EVERY_SECONDS = 3600.0  # at most; a retention shorter than a day is applied 24 times per retention


class PurgeError(RuntimeError):
    """A purge could not be applied (one line)."""


@dataclass
class PurgeReport:
    """What was removed where. `activitywatch` is None when no bucket was touched (publishing off) and
    `activitywatch_error` says why a copy could not be reached (it is still there)."""

    before: float | None = None
    database_rows: int = 0
    memory_items: int = 0
    by_watcher: bool = False
    activitywatch: int | None = None
    activitywatch_error: str = ""
    cache_entries: int = 0
    cache_files: int = 0
    logs: bool = False
    no_database: str = ""  # the database's path when there was none: nothing captured, nothing created

    def lines(self) -> list[str]:
        """One line per place, as the CLI prints it and the privacy view shows it."""
        out = [f"database: none at {self.no_database}, nothing to delete" if self.no_database else
               f"database: deleted {self.database_rows} rows (overwritten, WAL truncated, full-text index merged)"]
        if self.by_watcher:
            out.append(f"running watcher: dropped {self.memory_items} unsaved items (open episode, typed text, "
                       "pending events)" if self.before is None else
                       "running watcher: saved its pending events first, so the purge covers them")
        if self.activitywatch_error:
            out.append(f"ActivityWatch: NOT removed ({self.activitywatch_error}); run the purge again when it runs")
        elif self.activitywatch is not None:
            # aw-server's API deletes the events; its own SQLite WAL and backups may still hold them for a while,
            # and Proactive cannot reach them, so the line says so rather than claim the text is gone
            out.append(f"ActivityWatch: deleted {self.activitywatch} published episodes through aw-server's API; "
                       "aw-server's own database files (its WAL and backups) are outside Proactive's reach")
        out.append(f"caches: deleted {self.cache_entries} entries" +
                   (f" and {self.cache_files} files" if self.cache_files else ""))
        if self.logs:
            out.append("logs: emptied")
        elif self.before is None:
            out.append("logs: none")
        return out

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PurgeReport:
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


Unpublish = Callable[[float | None], "int | None"]  # None: nothing was ever published, no server answers


def purge_copies(store: Store | None, before: float | None, unpublish: Unpublish | None = None,
                 wait: float | None = None, missing: Path | None = None) -> PurgeReport:
    """Delete what was captured before `before` (everything when None) from the database, the ActivityWatch
    bucket (through `unpublish`; None: publishing is off), the caches and (everything) the logs. The caller has
    already dropped its in-memory copies. A reader that still holds the database after `wait` seconds stops it
    with StoreError naming the reader (`Store.purge`): the report never claims bytes gone that are not. No `store`:
    there is no database at `missing` (none is created for the purge)."""
    report = (PurgeReport(before=before, database_rows=store.purge(before, wait)) if store is not None else
              PurgeReport(before=before, no_database=str(missing)))
    if unpublish is not None:
        report.activitywatch, report.activitywatch_error = _unpublish(unpublish, before)
    report.cache_entries, report.cache_files = purge_caches(before)
    if before is None:
        report.logs = home.empty_logs() > 0
    return report


def activitywatch_unpublish(config: home.Config) -> Unpublish | None:
    """Deletes from our ActivityWatch bucket with a client of its own (no watcher running), or None when
    publishing is off."""
    activitywatch = ActivityWatchSettings.from_config(config)
    if not activitywatch.on:
        return None

    def unpublish(before: float | None) -> int | None:
        with activitywatch.publisher() as publisher:
            return publisher.unpublish(before)

    return unpublish


def _unpublish(unpublish: Unpublish, before: float | None) -> tuple[int | None, str]:
    try:
        return unpublish(before), ""
    except OSError as exc:
        return None, str(exc)


def purge_caches(before: float | None) -> tuple[int, int]:
    """(entries, files) deleted from the home's cache folder. Everything: every file goes. Before a time: cache
    databases lose the entries made before it (secure delete, WAL truncated); other files made before it go."""
    entries = files = 0
    for path in sorted(home.places().cache.glob("**/*")):  # the folder is not made for a purge
        if not path.is_file() or path.name.endswith(("-wal", "-shm")):
            continue
        if before is not None and path.suffix == ".db":
            entries += _purge_cache_db(path, before)
        elif before is None or path.stat().st_mtime < before:
            path.unlink()
            for side in ("-wal", "-shm"):
                Path(str(path) + side).unlink(missing_ok=True)
            files += 1
    return entries, files


def _purge_cache_db(path: Path, before: float) -> int:
    conn = sqlite3.connect(path, timeout=10)
    try:
        conn.execute("PRAGMA secure_delete=ON")
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({CACHE_TABLE})")}
        if not columns:
            return 0
        where = "ts IS NULL OR ts < ?" if "ts" in columns else "1"
        with conn:
            n = conn.execute(f"DELETE FROM {CACHE_TABLE} WHERE {where}", [before] if "ts" in columns else []).rowcount
        if not truncate_wal(conn):
            raise PurgeError(str(wal_held(path)))
        return n
    except sqlite3.DatabaseError as exc:
        raise PurgeError(f"{path}: cannot purge this cache ({exc}); delete the file") from exc
    finally:
        conn.close()


def purge(db: Path | str | None, before: float | None, config: home.Config,
          timeout: float = WATCHER_TIMEOUT) -> PurgeReport:
    """Purge everywhere: through the running watcher of this home when it uses this database (so nothing it
    holds in memory is written back), else directly. Either way readers of the database are waited for up to
    `timeout` seconds (the watcher gets the deadline in the request), and a running watcher's answer a few
    seconds longer (ANSWER_GRACE)."""
    path = Path(db) if db else home.db_path()
    pid = control.running_pid()
    if pid is not None:
        request_id = control.request_purge(before, path, wait=timeout)
        answer = control.wait_purged(request_id, timeout + ANSWER_GRACE)
        if answer is None:
            control.cancel_purge(request_id)
            raise PurgeError(f"the watcher (pid {pid}) did not apply the purge within {timeout + ANSWER_GRACE:.0f} "
                             f"s; stop it (kill {pid}) and purge again")
        if "error" in answer:
            raise PurgeError(str(answer["error"]))
        if answer.get("applied"):
            return PurgeReport.from_dict(answer["report"])
        # that watcher writes another database: purge this one directly
    if not path.exists():  # nothing was ever captured here: a purge creates nothing and claims nothing
        return purge_copies(None, before, activitywatch_unpublish(config), wait=timeout, missing=path)
    store = Store(path)
    try:
        return purge_copies(store, before, activitywatch_unpublish(config), wait=timeout)
    finally:
        store.close()


def retention_interval(days: float) -> float:
    """Seconds between retention passes: hourly, or more often when history is kept for less than a day, so
    the database never holds much more than what the user asked to keep."""
    return min(RETENTION_EVERY_SECONDS, days * 86400 / 24) if days > 0 else RETENTION_EVERY_SECONDS


def retention_cutoff(days: float) -> float | None:
    """The purge time retention applies now, or None when everything is kept."""
    return time.time() - days * 86400 if days > 0 else None
