"""The proposal popup: one offer of help, answered with one click or left to expire.

Why it looks like this: a proactive assistant must not steal focus or linger. The popup is a frameless tool
window in the bottom-right corner (where notifications live), stays on top without taking the keyboard, and
closes by itself after `timeout_s`; no answer is recorded as "ignored", which the feedback memory treats as a
mild "not now". Under the answers, "Fewer like this" (a rejection the person model weighs more) and "Not this
kind" (no more offers of its kind, until Settings' Reset) steer what the assistant learns about the person. The widget only reports the decision (`decided`); recording it (`assistant.proposals.ProposalLog.decide`) is the
caller's job, so the popup stays free of database code and is testable on its own.
"""

from __future__ import annotations

import html
import time
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication, QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from proactive.assistant.feedback import ACCEPTED, IGNORED, REJECTED, SNOOZED
from proactive.assistant.person_model import FEWER, NOT_THIS_KIND


def decide_once(view: Any, decision: str) -> bool:
    """The once-only decision of a proposal view (the popup, or a notification: `ui/notify.py`): the first one
    wins, the timeout timer stops, and `decided(proposal_id, decision, seconds since shown)` is emitted. True if
    this call emitted it."""
    if view._done:
        return False
    view._done = True
    view.timer.stop()
    view.decided.emit(view.proposal_id, decision, max(0.0, time.monotonic() - view._shown_at))
    return True


class ProposalPopup(QWidget):
    """One proposal: the task in bold, the response under it, Accept / Reject / Snooze, "Fewer like this" / "Not
    this kind", and a timeout.

    `decided(proposal_id, decision, latency_s)` is emitted exactly once, then the popup closes; latency is
    measured from when the popup was shown (or created, if never shown), with a monotonic clock."""

    decided = Signal(int, str, float)

    MARGIN = 16  # pixels from the screen's available edges

    def __init__(self, proposal_id: int, task: str, response: str, timeout_s: float = 30.0,
                 parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint
                         | Qt.WindowType.WindowStaysOnTopHint)
        self.proposal_id = proposal_id
        self.timeout_s = timeout_s
        self._done = False
        self._shown_at = time.monotonic()
        # a popup must never grab the keyboard from what the user is typing
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)  # the caller may still read its state
        self.setWindowTitle("Proactive: proposal")

        self.task_label = QLabel(f"<b>{html.escape(task)}</b>")
        self.task_label.setTextFormat(Qt.TextFormat.RichText)
        self.task_label.setWordWrap(True)
        self.response_label = QLabel(response)
        self.response_label.setTextFormat(Qt.TextFormat.PlainText)  # model output is never markup
        self.response_label.setWordWrap(True)
        self.accept_button = QPushButton("Accept")
        self.reject_button = QPushButton("Reject")
        self.snooze_button = QPushButton("Snooze")
        self.fewer_button = QPushButton("Fewer like this")
        self.fewer_button.setToolTip("Reject, and make offers like this one less often")
        self.not_kind_button = QPushButton("Not this kind")
        self.not_kind_button.setToolTip("Never offer this kind of help again (Settings can reset it)")
        for button in (self.fewer_button, self.not_kind_button):
            button.setFlat(True)
        self.accept_button.clicked.connect(lambda: self.decide(ACCEPTED))
        self.reject_button.clicked.connect(lambda: self.decide(REJECTED))
        self.snooze_button.clicked.connect(lambda: self.decide(SNOOZED))
        self.fewer_button.clicked.connect(lambda: self.decide(FEWER))
        self.not_kind_button.clicked.connect(lambda: self.decide(NOT_THIS_KIND))

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.accept_button, self.reject_button, self.snooze_button):
            buttons.addWidget(button)
        steer = QHBoxLayout()
        steer.addStretch(1)
        for button in (self.fewer_button, self.not_kind_button):
            steer.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.task_label)
        layout.addWidget(self.response_label)
        layout.addLayout(steer)
        layout.addLayout(buttons)  # the answers stay the bottom row, where the hand expects them
        self.setFixedWidth(380)

        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(max(0, int(timeout_s * 1000)))
        self.timer.timeout.connect(lambda: self.decide(IGNORED))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802  (Qt override)
        """Start the clock (latency and timeout) when the user can first see the popup, not when it was built."""
        super().showEvent(event)
        if not self._done and not self.timer.isActive():
            self._shown_at = time.monotonic()
            self.place()
            self.timer.start()

    def place(self) -> None:
        """Bottom-right of the primary screen's available geometry (above panels and docks)."""
        screen = QGuiApplication.primaryScreen()
        if screen is None:
            return
        self.adjustSize()
        area = screen.availableGeometry()
        self.move(area.right() - self.width() - self.MARGIN, area.bottom() - self.height() - self.MARGIN)

    def decide(self, decision: str) -> None:
        """Emit `decided` once (later clicks or a late timeout are ignored), then close."""
        if self._emit(decision):
            self.close()

    def _emit(self, decision: str) -> bool:
        return decide_once(self, decision)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802  (Qt override)
        """Closing the window any other way (window manager, app quit) counts as ignoring the proposal."""
        self._emit(IGNORED)
        super().closeEvent(event)
