"""Windows that stay true: an open window re-reads the database when someone else changed it.

Why: the history, "Why quiet?" and privacy windows read the database once when opened, while the watcher, the
assistant, Accept in the tray, `proactive decide` and `proactive purge` (another process) keep writing it. SQLite's
`PRAGMA data_version` changes exactly when another connection commits, so a one-second timer asking it is cheap
(no query of the rows) and covers every writer, in this process or another.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from proactive.watcher.store.database import Store

FOLLOW_MS = 1000


class DatabaseFollower(QObject):
    """Calls `changed()` after another connection committed to `store()`'s database (checked every `interval_ms`
    while the owner lives; `store` is asked each time, since a window reopens its connection after a purge)."""

    def __init__(self, parent: QObject, store: Callable[[], Store], changed: Callable[[], None],
                 interval_ms: int = FOLLOW_MS):
        super().__init__(parent)
        self.store, self.changed = store, changed
        self.seen = store().data_version()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)

    def check(self) -> bool:
        """Whether the database changed since the last look (and `changed()` was called)."""
        version = self.store().data_version()
        if version is None or version == self.seen:
            return False
        self.seen = version
        self.changed()
        return True
