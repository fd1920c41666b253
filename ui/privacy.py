"""The privacy view: what was captured today, and the power to delete it.

Why: the user must be able to see exactly what the watcher kept (today's episodes, as the sentences the model
reads) and remove any of it at once, one episode or everything, without a terminal. Deleting goes through
the Store (secure delete, WAL truncated), so nothing deleted here lingers on disk; "Purge everything" is the same
purge as `proactive purge --all` (watcher.purging: the running watcher's memory, ActivityWatch, caches, logs), and
the view then says what was removed where. What the assistant learned about the person from their answers is
shown too, with its Reset (`ui/learned.py`): it is their data like the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, time
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from proactive.watcher.store import home
from proactive.watcher.store.database import Store, StoreError
from proactive.watcher.store.purging import WATCHER_TIMEOUT, PurgeError, purge

from .follow import DatabaseFollower
from .learned import LearnedView

PURGE_QUESTION = "Delete everything captured, and the logs? This cannot be undone."


def midnight_today() -> float:
    """Local midnight (epoch s): "today" is the user's day, not UTC's."""
    return datetime.combine(datetime.now().date(), time.min).timestamp()


class PrivacyView(QWidget):
    """Today's episodes with "Delete selected" and "Purge everything" (after confirmation).

    `confirm(question) -> bool` asks the user; it defaults to a QMessageBox and is injectable so tests (and
    callers with their own dialogs) do not block on a modal box. `readers_closed()` is the context in which the
    purge runs: by default this view's own connection is closed for it; the tray passes one that closes all of
    its connections (its history and privacy views too), since an open reader keeps purged bytes in the file."""

    def __init__(self, store_path: Path | None = None, confirm: Callable[[str], bool] | None = None,
                 parent: QWidget | None = None, config: home.Config | None = None,
                 readers_closed: Callable[[], AbstractContextManager[None]] | None = None,
                 deleted: Callable[[int], None] | None = None, reset_learning: Callable[[], None] | None = None):
        """`deleted`: told each episode id deleted here (the running assistant forgets it: it holds the recent
        episodes in memory); `reset_learning`: the running assistant's Reset of what it learned about the
        person."""
        super().__init__(parent)
        self.deleted = deleted
        self.config = config or home.Config()
        self.setWindowTitle("Proactive: privacy")
        self.store = Store(store_path)
        self.confirm = confirm or self._ask
        self.readers_closed = readers_closed or self.store_closed
        self.purge_wait = WATCHER_TIMEOUT  # seconds a purge waits for the watcher, and for readers to finish

        self.summary = QLabel()
        self.removed = QLabel()  # after a purge: what was removed where
        self.removed.setWordWrap(True)
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setWordWrap(True)  # an episode is a sentence or two: read whole, not cut at the window's edge
        self.delete_button = QPushButton("Delete selected")
        self.delete_button.setEnabled(False)
        self.purge_button = QPushButton("Purge everything")
        self.learned = LearnedView(reset_learning)

        buttons = QHBoxLayout()
        buttons.addWidget(self.delete_button)
        buttons.addStretch(1)
        buttons.addWidget(self.purge_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.removed)
        layout.addLayout(buttons)
        layout.addWidget(self.learned)
        self.resize(640, 420)

        self.list.itemSelectionChanged.connect(
            lambda: self.delete_button.setEnabled(bool(self.list.selectedItems())))
        self.delete_button.clicked.connect(self.delete_selected)
        self.purge_button.clicked.connect(self.purge_everything)
        self.refresh()
        # episodes captured, deleted or purged elsewhere show while the view is open
        self.follower = DatabaseFollower(self, lambda: self.store, self.refresh)

    def _ask(self, question: str) -> bool:
        answer = QMessageBox.question(self, "Proactive", question,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def refresh(self) -> None:
        """Reload today's episodes (anything that ended since local midnight), keeping the selection."""
        selected = {item.data(Qt.ItemDataRole.UserRole) for item in self.list.selectedItems()}
        self.list.clear()
        for episode in self.store.episodes(since=midnight_today()):
            stamp = datetime.fromtimestamp(episode["start"]).strftime("%H:%M:%S")
            item = QListWidgetItem(f"{stamp}  {episode['event']}")
            item.setData(Qt.ItemDataRole.UserRole, episode["id"])
            self.list.addItem(item)
            item.setSelected(episode["id"] in selected)
        n = self.list.count()
        self.summary.setText(f"{n} episode{'' if n == 1 else 's'} captured today")
        self.delete_button.setEnabled(bool(self.list.selectedItems()))
        self.learned.read(self.store)

    def delete_selected(self) -> None:
        """Delete the selected episodes and the raw events behind them."""
        for item in self.list.selectedItems():
            episode_id = int(item.data(Qt.ItemDataRole.UserRole))
            self.store.delete_episode(episode_id)
            if self.deleted is not None:
                self.deleted(episode_id)
        self.refresh()

    def purge_everything(self) -> bool:
        """Like `proactive purge --all`, after the user confirms; returns whether it purged."""
        if not self.confirm(PURGE_QUESTION):
            return False
        try:
            with self.readers_closed():  # our own readers must not be what keeps the purged bytes in the file
                report = purge(self.store.path, None, self.config, timeout=self.purge_wait)
        except (PurgeError, StoreError) as exc:  # e.g. another program reads the database: it says which
            self.removed.setText(f"Not purged: {exc}")
            return False
        self.removed.setText("Removed:\n" + "\n".join(report.lines()))
        self.refresh()
        return True

    def close_store(self) -> None:
        """Close this view's connection (for a purge); `reopen_store` opens it again."""
        self.store.close()

    def reopen_store(self) -> None:
        self.store = Store(self.store.path)
        self.follower.seen = self.store.data_version()
        self.refresh()

    @contextmanager
    def store_closed(self) -> Iterator[None]:
        """This view's connection closed for the duration (the default `readers_closed`)."""
        self.close_store()
        try:
            yield
        finally:
            self.reopen_store()
