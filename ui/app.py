"""The tray app: the assistant's face during the day.

One instance per user (QLockFile). The watcher runs in a background thread, the assistant in its own; proposals
cross into the GUI thread through a queued Qt signal. Icon states: capturing, paused, thinking (the help is
being produced), proposal waiting. Where no system tray exists (GNOME without the extension, bare Xvfb, the
offscreen platform) a small always-available window offers the same actions.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QObject, Qt, QUrl, Signal
from PySide6.QtGui import QAction, QColor, QDesktopServices, QGuiApplication, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSystemTrayIcon,
    QVBoxLayout,
    QWidget,
)

from assistant.feedback import ACCEPTED
from assistant.help import Help, do_task
from assistant.live import Assistant, Proposal
from watcher import control, home
from watcher.store import Store

log = logging.getLogger(__name__)

STATES = {"capturing": "#2e9d4f", "paused": "#8a8a8a", "thinking": "#2f6fd6", "proposal": "#e8891c"}


class AlreadyRunning(RuntimeError):
    pass


def state_icon(state: str) -> QIcon:
    pixmap = QPixmap(64, 64)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(QColor(STATES[state]))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(6, 6, 52, 52)
    painter.end()
    return QIcon(pixmap)


class Bridge(QObject):
    """Carries events from worker threads into the GUI thread (queued connections)."""

    proposal = Signal(object)
    help_done = Signal(int, object)


class ResultWindow(QWidget):
    """The help produced for an accepted proposal, with copy-to-clipboard."""

    def __init__(self, task: str, help_: Help):
        super().__init__()
        self.setWindowTitle("Proactive: " + task[:60])
        layout = QVBoxLayout(self)
        title = QLabel(task)
        title.setTextFormat(Qt.TextFormat.PlainText)  # model text is never interpreted as markup
        title.setStyleSheet("font-weight: bold")
        title.setWordWrap(True)
        layout.addWidget(title)
        self.text = QPlainTextEdit(help_.text)
        self.text.setReadOnly(True)
        layout.addWidget(self.text)
        self.copy_button = QPushButton("Copy to clipboard")
        self.copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.text.toPlainText()))
        layout.addWidget(self.copy_button)
        self.resize(480, 260)


class TrayApp(QObject):
    def __init__(self, assistant: Assistant, watcher: Any | None, store_path: Path | None,
                 popup_timeout_s: float = 30.0):
        super().__init__()
        self.lock = QLockFile(str(home.home() / "tray.lock"))
        self.lock.setStaleLockTime(0)
        if not self.lock.tryLock(100):
            raise AlreadyRunning(f"the tray app is already running for {home.home()}")
        self.assistant = assistant
        self.watcher = watcher
        self.store_path = store_path
        self.popup_timeout_s = popup_timeout_s
        self.store = Store(store_path)
        self.bridge = Bridge()
        self.bridge.proposal.connect(self.show_proposal)
        self.bridge.help_done.connect(self._help_ready)
        assistant.on_proposal = self.bridge.proposal.emit
        self.popups: dict[int, Any] = {}
        self.windows: list[QWidget] = []
        self.shown_ids: set[int] = set()
        self.state = "capturing"
        self.menu = self._menu()
        self.tray: QSystemTrayIcon | None = None
        self.fallback: QWidget | None = None
        if QSystemTrayIcon.isSystemTrayAvailable():
            self.tray = QSystemTrayIcon(state_icon("capturing"))
            self.tray.setContextMenu(self.menu)
            self.tray.show()
        else:
            self.fallback = self._fallback_window()
            self.fallback.show()
        self.set_state("paused" if control.read_pause() is not None else "capturing")

    # -- chrome ----------------------------------------------------------------------------------------------

    def _menu(self) -> QMenu:
        menu = QMenu()
        for label, slot in [("Pause", lambda: self.pause(None)), ("Pause for 15 minutes", lambda: self.pause(900)),
                            ("Pause for 1 hour", lambda: self.pause(3600)), ("Resume", self.resume)]:
            action = QAction(label, menu)
            action.triggered.connect(slot)
            menu.addAction(action)
        menu.addSeparator()
        for label, slot in [("History", self.open_history), ("Settings", self.open_settings),
                            ("Privacy", self.open_privacy)]:
            action = QAction(label, menu)
            action.triggered.connect(slot)
            menu.addAction(action)
        menu.addSeparator()
        quit_action = QAction("Quit", menu)
        quit_action.triggered.connect(self.quit)
        menu.addAction(quit_action)
        return menu

    def _fallback_window(self) -> QWidget:
        window = QWidget()
        window.setWindowTitle("Proactive")
        layout = QVBoxLayout(window)
        self.status_label = QLabel()
        layout.addWidget(self.status_label)
        row = QHBoxLayout()
        for label, slot in [("Pause", lambda: self.pause(None)), ("Resume", self.resume),
                            ("History", self.open_history), ("Settings", self.open_settings),
                            ("Privacy", self.open_privacy), ("Quit", self.quit)]:
            button = QPushButton(label)
            button.clicked.connect(slot)
            row.addWidget(button)
        layout.addLayout(row)
        return window

    def set_state(self, state: str) -> None:
        self.state = state
        if self.tray is not None:
            self.tray.setIcon(state_icon(state))
            self.tray.setToolTip(f"Proactive: {state}")
        if self.fallback is not None:
            self.fallback.setWindowIcon(state_icon(state))
            self.status_label.setText(f"Proactive: {state}")

    # -- actions ---------------------------------------------------------------------------------------------

    def pause(self, seconds: float | None) -> None:
        until = float("inf") if seconds is None else time.time() + seconds
        if self.watcher is not None:
            self.watcher.request_pause(until)
        else:
            control.write_pause(until)
        self.set_state("paused")

    def resume(self) -> None:
        if self.watcher is not None:
            self.watcher.request_resume()
        else:
            control.clear_pause()
        self.set_state("capturing")

    def open_history(self) -> None:
        from .history import HistoryWindow

        window = HistoryWindow(self.store_path)
        self.windows.append(window)
        window.show()

    def open_settings(self) -> None:
        from .settings import SettingsWindow

        window = SettingsWindow()
        window.saved.connect(self.apply_settings)
        self.windows.append(window)
        window.show()

    def apply_settings(self, config: home.Config) -> None:
        """What can change without a restart: the proactivity level and the privacy exclusions."""
        from assistant.policy import Proactivity
        from watcher.privacy import PrivacyFilter

        level = Proactivity.parse(config.proactivity)
        self.assistant.gate.proactivity = level
        self.assistant.trigger.min_interval_s = level.min_interval_s
        if self.watcher is not None:
            fresh = PrivacyFilter(config)
            current = self.watcher.filter
            current.excluded_apps = fresh.excluded_apps
            current.excluded_titles = fresh.excluded_titles
            current.password_titles = fresh.password_titles

    def open_privacy(self) -> None:
        from .privacy import PrivacyView

        window = PrivacyView(self.store_path)
        self.windows.append(window)
        window.show()

    def quit(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
        QApplication.instance().quit()

    def close(self) -> None:
        self.store.close()
        self.lock.unlock()

    # -- proposals -------------------------------------------------------------------------------------------

    def show_proposal(self, proposal: Proposal) -> None:
        """A proposal from the assistant: show it once, and record what the user does with it."""
        from .popup import ProposalPopup

        if proposal.task is None or proposal.id in self.shown_ids:
            return
        self.shown_ids.add(proposal.id)
        popup = ProposalPopup(proposal.id, proposal.task, proposal.response, timeout_s=self.popup_timeout_s)
        popup.decided.connect(lambda pid, decision, latency, p=proposal: self.decided(p, decision, latency))
        self.popups[proposal.id] = popup
        popup.show()
        self.set_state("proposal")

    def decided(self, proposal: Proposal, decision: str, latency: float) -> None:
        self.popups.pop(proposal.id, None)
        self.assistant.memory.record(proposal.task or "", decision)
        if decision != ACCEPTED:
            self.store.add_decision(proposal.id, decision, latency)
            self.set_state("capturing")
            return
        self.set_state("thinking")
        context = self.assistant.context(self.store)[0]

        def work() -> None:
            try:
                result = do_task(self.assistant.agent.model, context, proposal.task or "")
            except Exception as exc:  # the help failed: say so, keep the decision
                result = Help("error", f"could not do the task ({exc})")
            self.bridge.help_done.emit(proposal.id, (proposal, latency, result))

        threading.Thread(target=work, name="help", daemon=True).start()

    def _help_ready(self, proposal_id: int, payload: tuple[Proposal, float, Help]) -> None:
        proposal, latency, result = payload
        self.store.add_decision(proposal_id, ACCEPTED, latency,
                                result=json.dumps({"kind": result.kind, "text": result.text}))
        if result.kind == "search":
            QDesktopServices.openUrl(QUrl(result.text))
        window = ResultWindow(proposal.task or "", result)
        self.windows.append(window)
        window.show()
        self.set_state("capturing")
