"""The history window: every decision the assistant made (shown or silent) and what the user did with it.

Why: a proactive assistant earns trust by being inspectable. The user can see when it spoke, when it chose
silence, what triggered it, how each offer was answered, and the activity it was looking at (the context
episodes), so a bad offer can be understood rather than just dismissed. The window only reads the database:
the store's proposals with their latest decision (`Store.proposals`) and the episodes before each. The Why
column answers "why is it quiet?" for every silent moment (the tray's "Why quiet?" opens the window on them).
An offer nobody answered (its popup timed out, or a newer one replaced it: stored as ignored, shown as "not
answered") can still be taken: Accept runs the same Accept as the popup's, through `accept` (the tray's backend,
in the assistant's process), on the moment the offer was made at. Any offer shown can be answered again with
"Fewer like this" or "Not this kind" (through `steer`, the tray's backend too): what the assistant learned about
the person follows the latest answer, and the Why column says when a moment was quiet because of it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from proactive.assistant.feedback import IGNORED
from proactive.assistant.person_model import FEWER, NOT_THIS_KIND
from proactive.assistant.proposals import ProposalLog
from proactive.watcher.store.database import Store

from .follow import DatabaseFollower

SHOWN, SILENT = "shown", "silent"
#: each filter's outcome; "Shown" keeps every offer the person saw, whatever the answer
FILTERS = {"All": None, "Shown": None, "Accepted": "accepted", "Rejected": "rejected", "Not answered": IGNORED,
           "Silent": SILENT}
#: an outcome in the person's words where the stored word is not theirs
OUTCOME_WORDS = {IGNORED: "not answered", FEWER: "fewer like this"}
LEARNED = "learned: "  # a gate reason: quiet because of what was learned about the person (`decision.choose`)
COLUMNS = ("Time", "Task", "Chance it helps", "When", "Outcome", "Why")
#: what each column means, as its header's tooltip
COLUMN_TIPS = {
    "Chance it helps": "How likely the assistant judged you were to accept this offer then (its reward model, "
                       "with the agent's own ranking); the offer shown is the likeliest.",
    "When": "What made the assistant look at that moment.",
    "Why": "Why it spoke or stayed quiet.",
}
#: the trigger policy's reasons (assistant/trigger.py), in words
TRIGGER_WORDS = {"episode": "you moved to another window", "app-change": "you switched applications",
                 "burst-pause": "you paused after a burst of activity",
                 "moment": "you copied, entered or opened something"}
CONTEXT_EPISODES = 5


@dataclass
class HistoryRow:
    id: int
    ts: float
    task: str | None
    score: float | None
    trigger: str
    outcome: str  # accepted / rejected / ignored / snoozed, or "shown" (unanswered) / "silent"
    why: str = ""  # why it spoke or stayed silent, in words (`why`)

    def cells(self) -> tuple[str, ...]:
        return (datetime.fromtimestamp(self.ts).strftime("%Y-%m-%d %H:%M:%S"), self.task or "(silent)",
                "" if self.score is None else f"{self.score:.0%}", TRIGGER_WORDS.get(self.trigger, self.trigger),
                OUTCOME_WORDS.get(self.outcome, self.outcome), self.why)

    def matches(self, outcome_filter: str, text: str) -> bool:
        """"Shown" keeps every proposal the user saw, whatever the answer; the others match one outcome."""
        if outcome_filter == "Shown" and self.task is None:
            return False
        wanted = FILTERS.get(outcome_filter)
        if wanted is not None and self.outcome != wanted:
            return False
        return not text or any(text.lower() in cell.lower() for cell in self.cells())

    @property
    def acceptable(self) -> bool:
        """An offer nobody answered: it can still be accepted here."""
        return self.task is not None and self.outcome == IGNORED

    @property
    def steerable(self) -> bool:
        """An offer shown and not already answered "Fewer like this": it can be, or "Not this kind"."""
        return self.task is not None and self.outcome != FEWER


def why(task: str | None, data: dict[str, Any]) -> str:
    """Why the assistant spoke or stayed silent, in the person's words, from what the decision stored: help not
    needed (P(need) under the threshold), offers held back because they were made recently, nothing grounded
    to offer, or shown."""
    gate = str(data.get("gate") or "")
    need = data.get("p_need")
    likely = f"{need:.0%} likely" if isinstance(need, (int, float)) else ""
    if task is not None:
        return "shown: help looked needed" + (f" ({likely})" if likely else "")
    if gate.startswith(LEARNED):
        return f"quiet: {gate[len(LEARNED):]} (what it learned from you: Settings can reset it)"
    if gate.startswith("P(need)"):
        threshold = THRESHOLD.search(gate)
        said = ", ".join(x for x in (likely, f"it offers from {float(threshold[1]):.0%}" if threshold else "") if x)
        return "quiet: help did not look needed" + (f" ({said})" if said else "")
    held = data.get("blocked_by_feedback") or []
    if held:
        return f"quiet: held back {len(held)} offer{'' if len(held) == 1 else 's'} made recently"
    if gate == "no candidate":
        return "quiet: nothing grounded in what you were doing to offer"
    if gate.startswith("every candidate below"):
        return "quiet: no offer fitted the moment well enough"
    return f"quiet: {gate}" if gate else "quiet"


THRESHOLD = re.compile(r"<\s*([01](?:\.\d+)?)")  # the gate's threshold in "P(need) 0.35 < 0.5"


def _trigger(data: dict[str, Any]) -> str:
    value = data.get("trigger")
    return "" if value is None else str(value)


class HistoryWindow(QWidget):
    """Table of proposals, newest first, with an outcome filter, a text filter and the selected row's context."""

    def __init__(self, store_path: Path | None = None, parent: QWidget | None = None,
                 accept: Callable[[int, float], None] | None = None,
                 steer: Callable[[int, str, float], None] | None = None):
        """`accept(proposal id, seconds since the offer)`: the tray's Accept for an offer not answered;
        `steer(proposal id, FEWER or NOT_THIS_KIND, seconds since the offer)`: the tray's answer to an offer shown
        (None: the window only shows)."""
        super().__init__(parent)
        self.setWindowTitle("Proactive: history")
        self.accept = accept
        self.steer = steer
        # one connection for the window's life (the window may be hidden and shown again from the tray)
        self.store = Store(store_path)
        self.rows: list[HistoryRow] = []

        self.outcome_filter = QComboBox()
        self.outcome_filter.addItems(list(FILTERS))
        self.text_filter = QLineEdit()
        self.text_filter.setPlaceholderText("Filter (task, trigger, outcome...)")
        self.text_filter.setClearButtonEnabled(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        for column, name in enumerate(COLUMNS):
            item = self.table.horizontalHeaderItem(column)
            if name in COLUMN_TIPS and item is not None:
                item.setToolTip(COLUMN_TIPS[name])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        # the task takes the width left; when and why get a fixed share and wrap, so all read whole on a laptop
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for name in ("When", "Why"):
            header.setSectionResizeMode(COLUMNS.index(name), QHeaderView.ResizeMode.Interactive)
            header.resizeSection(COLUMNS.index(name), 170)
        self.table.setWordWrap(True)
        self.context_view = QPlainTextEdit()
        self.context_view.setReadOnly(True)
        self.context_view.setPlaceholderText("Select a row to see what you were doing before it.")
        self.context_view.setMaximumHeight(140)
        self.accept_button = QPushButton("Accept")
        self.accept_button.setToolTip("Take this offer now: it was not answered when it was shown.")
        self.accept_button.setEnabled(False)
        self.accept_button.setVisible(accept is not None)
        self.accept_button.clicked.connect(self.accept_selected)
        self.fewer_button = QPushButton("Fewer like this")
        self.fewer_button.setToolTip("Make offers like this one less often (it counts as rejected)")
        self.not_kind_button = QPushButton("Not this kind")
        self.not_kind_button.setToolTip("Never offer this kind of help again (Settings can reset it)")
        for button, decision in ((self.fewer_button, FEWER), (self.not_kind_button, NOT_THIS_KIND)):
            button.setEnabled(False)
            button.setVisible(steer is not None)
            button.clicked.connect(lambda _=False, d=decision: self.steer_selected(d))

        filters = QHBoxLayout()
        filters.addWidget(self.outcome_filter)
        filters.addWidget(self.text_filter, 1)
        filters.addWidget(self.accept_button)
        filters.addWidget(self.fewer_button)
        filters.addWidget(self.not_kind_button)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.context_view)
        self.resize(900, 520)

        self.outcome_filter.currentTextChanged.connect(self.apply_filters)
        self.text_filter.textChanged.connect(self.apply_filters)
        self.table.itemSelectionChanged.connect(self.show_context)
        self.refresh()
        # new decisions, answers and purges show while the window is open (from this process or another)
        self.follower = DatabaseFollower(self, lambda: self.store, self.refresh)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        """Wrapped rows take the height their text needs at the new width."""
        super().resizeEvent(event)
        self.table.resizeRowsToContents()

    def close_store(self) -> None:
        """Close the window's connection: the tray does before a purge it starts (an open reader keeps purged
        bytes in the file); `reopen_store` opens it again and re-reads."""
        self.store.close()

    def reopen_store(self) -> None:
        self.store = Store(self.store.path)
        self.follower.seen = self.store.data_version()
        self.refresh()

    def refresh(self) -> None:
        """Re-read the database (the assistant keeps adding proposals while the window is open); a proposal
        answered twice (snoozed, then answered) shows its latest decision."""
        self.rows = [
            HistoryRow(p["id"], p["ts"], p["task"], p["score"], _trigger(p["data"]),
                       p["decision"] or (SILENT if p["task"] is None else SHOWN), why(p["task"], p["data"]))
            for p in ProposalLog(self.store).all(newest_first=True)
        ]
        self.apply_filters()

    def apply_filters(self) -> None:
        """Show only the rows matching both filters (rebuilt, so rowCount() is what the user sees)."""
        wanted, text = self.outcome_filter.currentText(), self.text_filter.text().strip()
        visible = [row for row in self.rows if row.matches(wanted, text)]
        selected = self.selected_row()
        self.table.blockSignals(True)  # the selection is put back below: no context flicker on a re-read
        self.table.clearSelection()
        self.table.setRowCount(len(visible))
        for r, row in enumerate(visible):
            for c, cell in enumerate(row.cells()):
                item = QTableWidgetItem(cell)
                item.setData(Qt.ItemDataRole.UserRole, row.id)
                self.table.setItem(r, c, item)
        self.table.resizeRowsToContents()
        self.table.blockSignals(False)
        again = next((r for r, row in enumerate(visible) if selected is not None and row.id == selected.id), None)
        if again is None:
            self.show_context()  # nothing selected: no context, no Accept
        else:
            self.table.selectRow(again)

    def selected_row(self) -> HistoryRow | None:
        items = self.table.selectedItems()
        if not items:
            return None
        pid = items[0].data(Qt.ItemDataRole.UserRole)
        return next((row for row in self.rows if row.id == pid), None)

    def accept_selected(self) -> None:
        """Accept the selected offer that was not answered (its row then says accepted, once the help is done)."""
        row = self.selected_row()
        if row is None or not row.acceptable or self.accept is None:
            return
        self.accept_button.setEnabled(False)
        self.accept(row.id, max(0.0, time.time() - row.ts))

    def steer_selected(self, decision: str) -> None:
        """"Fewer like this" or "Not this kind" on the selected offer (its row says so once stored)."""
        row = self.selected_row()
        if row is None or not row.steerable or self.steer is None:
            return
        for button in (self.fewer_button, self.not_kind_button):
            button.setEnabled(False)
        self.steer(row.id, decision, max(0.0, time.time() - row.ts))

    def show_context(self) -> None:
        """The last episodes the assistant could see when it decided (those started by the proposal's time); Accept
        is offered for an offer not answered, "Fewer like this" and "Not this kind" for any offer shown."""
        row = self.selected_row()
        self.accept_button.setEnabled(row is not None and row.acceptable)
        for button in (self.fewer_button, self.not_kind_button):
            button.setEnabled(row is not None and row.steerable)
        if row is None:
            self.context_view.clear()
            return
        lines = [f"{datetime.fromtimestamp(e['start']).strftime('%H:%M:%S')}  {e['event']}"
                 for e in self.store.episodes_before(row.ts, CONTEXT_EPISODES)]
        self.context_view.setPlainText("\n".join(lines) if lines else "(no activity recorded before it)")
