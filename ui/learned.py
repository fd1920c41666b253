"""What the assistant learned about the person, in words, with a Reset: shown in Settings and in the privacy view.

Why in both: it steers what the person is offered (Settings), and it is their data (the privacy view, next to the
episodes and the purge). It is read from the store (`person_store.load`: rebuilt from the decisions kept, so it
is what the assistant uses after a restart); Reset goes to the running assistant (`Backend.reset_learning`, over
the wire from the tray's process), which forgets it in memory and in the store.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from proactive.assistant import person_store
from proactive.assistant.person_model import PersonModel
from proactive.watcher.store.database import Store


class LearnedView(QWidget):
    """One line per kind of offer (`PersonModel.describe`), how many answers it was learned from, and Reset
    (hidden when `reset` is None: nobody to ask)."""

    def __init__(self, reset: Callable[[], None] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.reset = reset
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.lines = QLabel()
        self.lines.setWordWrap(True)
        self.reset_button = QPushButton("Reset what it learned")
        self.reset_button.setToolTip("Forget what it learned from your answers and every 'Not this kind': offers "
                                     "are made as for everyone again")
        self.reset_button.setVisible(reset is not None)
        self.reset_button.clicked.connect(self.reset_now)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.reset_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.lines)
        layout.addLayout(buttons)
        self.show_model(PersonModel())

    def read(self, store: Store) -> None:
        """Show what `store` says was learned."""
        self.show_model(person_store.load(store))

    def show_model(self, model: PersonModel) -> None:
        answers = sum(t.shown for t in model.tallies.values())
        self.summary.setText(f"What it learned about you, from your answers to {answers} offer"
                             f"{'' if answers == 1 else 's'} (kept in the encrypted database, deleted by a purge):")
        self.lines.setText("\n".join(model.describe()))

    def reset_now(self) -> None:
        """Reset: the assistant forgets; shown at once as what a reset leaves (nothing learned)."""
        if self.reset is not None:
            self.reset()
        self.show_model(PersonModel())
