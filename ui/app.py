"""The tray app: the assistant's face during the day.

One instance per user (QLockFile). The watcher runs in a background thread, the assistant in its own; proposals
cross into the GUI thread through a queued Qt signal. Icon states: capturing, paused, thinking (the model is
working: a proposal being generated or accepted help being produced), proposal waiting. Where no system tray
exists (GNOME without the extension, bare Xvfb, the offscreen platform) a small always-available window offers
the same actions.

Each proposal is shown once, one at a time: a newer one replaces an offer still unanswered on screen (that one is
recorded as ignored: not answered). Accept, Reject and Snooze are final on screen; Snooze stores a `snoozed`
decision and shows the same proposal again after the configured snooze time (or at resume, if capture is
paused then), where it is answered like the first time. An offer not answered (the timeout, or replaced) can still
be taken from the history window (`accept_later`): the same Accept, on the offer's own stored moment.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QLockFile, QObject, QTimer, Signal
from PySide6.QtGui import (
    QAction,
)
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSystemTrayIcon,
    QVBoxLayout,
    QWidget,
)

from proactive.assistant.feedback import ACCEPTED, SNOOZED
from proactive.assistant.help import NOT_NOW, Help
from proactive.assistant.live import Proposal
from proactive.assistant.person_model import NOT_THIS_KIND
from proactive.assistant.tray_backend import Backend
from proactive.assistant.tray_wire import RemoteBackend
from proactive.ui.questions import OneTimeQuestions
from proactive.ui.result_window import PULL_COMMAND, ResultWindow
from proactive.ui.tray_icon import STATE_TEXT, STATES, FallbackWindow, state_icon
from proactive.watcher import control
from proactive.watcher.store import home
from proactive.watcher.store.database import Store

log = logging.getLogger(__name__)

ANSWER_MODEL_DELAY_MS = 3000  # after start: the tray is up before the loopback ports are looked at


def pause_entries(app: Any) -> list[tuple[str, Any]]:
    """The pause entries of the tray menu and of the window shown without a system tray, the same in both."""
    return [("Pause", lambda: app.pause(None)), ("Pause for 15 minutes", lambda: app.pause(900)),
            ("Pause for 1 hour", lambda: app.pause(3600)), ("Resume", app.resume)]


class AlreadyRunning(RuntimeError):
    pass


class Bridge(QObject):
    """Carries events from worker threads into the GUI thread (queued connections). It is the tray's
    `tray_backend.TrayEvents`: the assistant (in this process or across the wire) tells it what happened."""

    proposal_made = Signal(object)
    help_ready = Signal(int, object)
    question_asked = Signal(int, str)  # an accepted help would search or read pages: may it? (web_search = "ask")
    model_found = Signal(object)  # a capable model found for answers (assistant/answers.py), to offer once
    busy_changed = Signal(bool)  # the assistant's model started (True) or finished (False) generating
    assistant_gone = Signal()  # the assistant's process ended: the tray ends too

    def proposal(self, proposal: Proposal) -> None:
        self.proposal_made.emit(proposal)

    def busy(self, busy: bool) -> None:
        self.busy_changed.emit(busy)

    def question(self, proposal_id: int, question: str) -> None:
        self.question_asked.emit(proposal_id, question)

    def help_done(self, proposal_id: int, task: str, result: Help, answers: bool) -> None:
        self.help_ready.emit(proposal_id, (task, result, answers))


class TrayApp(QObject, OneTimeQuestions):
    """The tray icon (or its fallback window), its menu, and the proposal popups with their decisions."""

    def __init__(self, backend: Backend | RemoteBackend, store_path: Path | None,
                 config: home.Config | None = None):
        super().__init__()
        self.lock = QLockFile(str(home.runtime_dir() / "tray.lock"))
        self.lock.setStaleLockTime(0)
        if not self.lock.tryLock(100):
            raise AlreadyRunning(f"the tray app is already running for {home.data_dir()}")
        config = config or home.Config()
        self.config = config
        self.backend = backend
        self.store_path = store_path
        self.set_timings(config)
        self.store = Store(store_path)
        self.bridge = Bridge()
        self.bridge.proposal_made.connect(self.show_proposal)
        self.bridge.help_ready.connect(self._help_ready)
        self.bridge.question_asked.connect(self._ask_consent)
        self.bridge.busy_changed.connect(self._model_busy)
        self.bridge.model_found.connect(self._offer_answer_model)
        self.bridge.assistant_gone.connect(self.quit)
        self.popups: dict[int, Any] = {}
        # proposals as desktop notifications (notify.py): on Wayland, or as the `proposals` setting says; else None
        self.notifications = self._notification_path(config)
        self.windows: list[QWidget] = []
        self.shown_ids: set[int] = set()
        self.snoozed: dict[int, QTimer] = {}  # proposal id -> the timer that brings it back
        self.waiting: list[Proposal] = []  # snoozed proposals due while capture was paused
        self.helping = 0  # accepted tasks whose help is being produced
        self.generating = False
        self.paused = control.read_pause() is not None
        self.pause_timer = QTimer(self)
        self.pause_timer.setSingleShot(True)
        self.pause_timer.timeout.connect(self._pause_over)
        # a pause from elsewhere (`proactive pause`, a signal to the watcher's process) shows within a second
        self.pause_poll = QTimer(self)
        self.pause_poll.timeout.connect(self._follow_pause)
        self.pause_poll.start(1000)
        self.state = ""
        self.icons = {state: state_icon(state) for state in STATES}
        self.pause_controls: list[tuple[str, Any]] = []  # (label, menu action or button): enabled by state
        self.menu = self._menu()
        self.tray: QSystemTrayIcon | None = None
        self.fallback: FallbackWindow | None = None
        if QSystemTrayIcon.isSystemTrayAvailable():
            self.tray = QSystemTrayIcon(self.icons["capturing"])
            self.tray.setContextMenu(self.menu)
            self.tray.activated.connect(self._tray_activated)
            self.tray.show()
        else:
            self.fallback = self._fallback_window()
            self.fallback.show()
        self.refresh_state()
        self.closed = False
        # a capable model here is offered once, after the tray is up; the timer is the tray's own child, stopped at
        # close, so it never fires on a tray that is gone (a bare QTimer.singleShot would)
        self.answer_timer = QTimer(self)
        self.answer_timer.setSingleShot(True)
        self.answer_timer.timeout.connect(self.look_for_answer_model)
        if self.config.answer_model == "ask":
            self.answer_timer.start(ANSWER_MODEL_DELAY_MS)
        if self.config.accessibility == "ask" and backend.captures:
            self.ask_accessibility()
        backend.connect(self.bridge)  # last: a proposal may come at once (one still unanswered, after a restart)

    # -- chrome ----------------------------------------------------------------------------------------------

    def _menu(self) -> QMenu:
        menu = QMenu()
        self.status_action = QAction("", menu)
        self.status_action.setEnabled(False)
        menu.addAction(self.status_action)
        menu.addSeparator()
        for label, slot in pause_entries(self):
            action = QAction(label, menu)
            action.triggered.connect(slot)
            menu.addAction(action)
            self.pause_controls.append((label, action))
        menu.addSeparator()
        for label, slot in [("History", self.open_history), ("Why quiet?", self.open_why_quiet),
                            ("Settings", self.open_settings), ("Privacy", self.open_privacy)]:
            action = QAction(label, menu)
            action.triggered.connect(slot)
            menu.addAction(action)
        menu.addSeparator()
        quit_action = QAction("Quit", menu)
        quit_action.triggered.connect(self.quit)
        menu.addAction(quit_action)
        return menu

    def action(self, label: str) -> QAction:
        """The menu entry called `label` (what a click in the tray menu triggers)."""
        return next(a for a in self.menu.actions() if a.text() == label)

    def _fallback_window(self) -> FallbackWindow:
        window = FallbackWindow()
        window.setWindowTitle("Proactive")
        layout = QVBoxLayout(window)
        top = QHBoxLayout()
        self.icon_label = QLabel()
        top.addWidget(self.icon_label)
        self.status_label = QLabel()
        top.addWidget(self.status_label, 1)
        layout.addLayout(top)
        row = QHBoxLayout()
        for label, slot in [*pause_entries(self), ("History", self.open_history), ("Why quiet?", self.open_why_quiet),
                            ("Settings", self.open_settings), ("Privacy", self.open_privacy), ("Quit", self.quit)]:
            button = QPushButton(label)
            button.clicked.connect(slot)
            row.addWidget(button)
            if label.startswith(("Pause", "Resume")):
                self.pause_controls.append((label, button))
        layout.addLayout(row)
        return window

    def _tray_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        """A left click on the icon brings a waiting proposal back to the front (the menu is on the right)."""
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            for popup in self.popups.values():
                popup.raise_()

    def refresh_state(self) -> None:
        """The icon shows the most urgent of: thinking, proposal waiting, paused, capturing; the pause controls
        that would change something are enabled (Pause while capturing, Resume while paused)."""
        # a window's controls go with it (closed, or the app closing while the assistant's thread still reports)
        self.pause_controls = [(label, w) for label, w in self.pause_controls if shiboken6.isValid(w)]
        for label, widget in self.pause_controls:
            widget.setEnabled(self.paused == (label == "Resume"))
        if self.helping or self.generating:
            state = "thinking"
        elif self.popups:
            state = "proposal"
        elif self.paused:
            state = "paused"
        else:
            state = "capturing"
        self.set_state(state)

    def set_state(self, state: str) -> None:
        if state == self.state or not shiboken6.isValid(self.status_action):
            return  # unchanged, or the app is closing (its menu gone) while the assistant's thread still reports
        self.state = state
        text = f"Proactive: {STATE_TEXT[state]}"
        self.status_action.setText(text)
        if self.tray is not None:
            self.tray.setIcon(self.icons[state])
            self.tray.setToolTip(text)
        if self.fallback is not None and shiboken6.isValid(self.fallback):
            self.fallback.setWindowIcon(self.icons[state])
            self.icon_label.setPixmap(self.icons[state].pixmap(32, 32))
            self.status_label.setText(text)

    # -- actions ---------------------------------------------------------------------------------------------

    def pause(self, seconds: float | None) -> None:
        until = float("inf") if seconds is None else time.time() + seconds
        self.backend.pause(until)
        self.paused = True
        if seconds is None:
            self.pause_timer.stop()
        else:
            self.pause_timer.start(int(seconds * 1000))
        self.refresh_state()

    def _follow_pause(self) -> None:
        """The pause file as the watcher's process applies it (`proactive pause`, `resume`, SIGUSR1/SIGUSR2 to
        `proactive run`, a timed pause running out): the tray shows what is in force."""
        paused = control.read_pause() is not None
        if paused and not self.paused:
            self.paused = True
            self.refresh_state()
        elif not paused and self.paused:
            self._pause_over()

    def resume(self) -> None:
        self.backend.resume()
        self._pause_over()

    def _pause_over(self) -> None:
        """Capture runs again (resumed, or a timed pause ran out): show what was snoozed meanwhile."""
        self.pause_timer.stop()
        self.paused = False
        waiting, self.waiting = self.waiting, []
        for proposal in waiting:
            self._popup(proposal)
        self.refresh_state()

    def open_history(self) -> Any:
        from .history import HistoryWindow

        window = HistoryWindow(self.store_path, accept=self.accept_later, steer=self.answer)
        self.windows.append(window)
        window.show()
        return window

    def open_why_quiet(self) -> None:
        """The history on the silent moments, each with why it stayed quiet (its Why column)."""
        self.open_history().outcome_filter.setCurrentText("Silent")

    def open_settings(self) -> None:
        from .settings import SettingsWindow

        window = SettingsWindow(store_path=self.store_path, reset_learning=self.backend.reset_learning)
        window.saved.connect(self.apply_settings)
        self.windows.append(window)
        window.show()

    def apply_settings(self, config: home.Config) -> None:
        """What can change without a restart: proactivity, privacy exclusions, popup timeout and snooze time."""
        self.backend.apply_settings(config)
        self.set_timings(config)
        self.config = config

    def set_timings(self, config: home.Config) -> None:
        """The popup's timeout and the snooze time (seconds), from the config."""
        self.popup_timeout_s = config.popup_seconds
        self.snooze_s = config.snooze_minutes * 60.0

    def open_privacy(self) -> None:
        from .privacy import PrivacyView

        window = PrivacyView(self.store_path, config=self.config, readers_closed=self.readers_closed,
                             deleted=self.backend.forget_episode, reset_learning=self.backend.reset_learning)
        self.windows.append(window)
        window.show()

    @contextlib.contextmanager
    def readers_closed(self) -> Iterator[None]:
        """Every connection of the tray's GUI thread to the database closed for the duration (a purge it starts):
        its own, and its history and privacy views'. A connection left in a read transaction keeps purged bytes
        in the file and fails the purge; the tray's own must never be it. (Python's close() waits for cursors
        still being read, so none may be kept across event-loop turns.)
        Reopened afterwards, whatever happened; the views re-read."""
        from .history import HistoryWindow
        from .privacy import PrivacyView

        views = [w for w in self.windows if isinstance(w, HistoryWindow | PrivacyView) and shiboken6.isValid(w)]
        for view in views:
            view.close_store()
        self.store.close()
        try:
            yield
        finally:
            self.store = Store(self.store_path)
            for view in views:
                view.reopen_store()

    def quit(self) -> None:
        """End the app: the Quit entry, and SIGINT/SIGTERM/SIGHUP (`control.install_handlers(stop=tray.quit)`),
        with or without a system tray; and the assistant's process ending. The whole app ends (the watcher
        stops), the event loop ends; `close()` then cleans up."""
        if not self.closed:
            self.backend.quit()
        if self.fallback is not None and shiboken6.isValid(self.fallback):
            self.fallback.quitting = True  # it closes instead of minimising
        QApplication.quit()
        QCoreApplication.exit(0)  # should another window refuse to close, Qt 6 cancels quit(): the loop ends anyway

    def close(self) -> None:
        """Leave the screen clean: open popups close (recorded as ignored), windows close, the icon goes."""
        self.closed = True
        self.backend.connect(None)
        self.answer_timer.stop()
        self.pause_poll.stop()
        for timer in self.snoozed.values():
            timer.stop()
        popups = list(self.popups.values())
        for popup in popups:
            popup.close()  # records the decision (ignored) and leaves self.popups
        # Qt objects go now, in a known order, not whenever Python's garbage collector reaches them (at
        # interpreter exit that can be after the QApplication is gone, which crashes); deleting a window or the
        # tray icon also takes it off the screen
        for obj in [*popups, *self.windows, self.tray, self.fallback, self.menu]:
            if obj is not None and shiboken6.isValid(obj):
                shiboken6.delete(obj)
        self.windows.clear()
        self.tray = self.fallback = None
        if self.notifications is not None:
            self.notifications.shutdown()
            self.notifications = None
        self.store.close()
        self.lock.unlock()

    # -- proposals -------------------------------------------------------------------------------------------

    def show_proposal(self, proposal: Proposal) -> None:
        """A proposal from the assistant: show it once, in place of any still unanswered (the newer moment is the
        one the person is at), and record what the user does with it."""
        if proposal.task is None or proposal.id in self.shown_ids:
            return
        self.shown_ids.add(proposal.id)
        for replaced in list(self.popups.values()):
            replaced.close()  # recorded as ignored (not answered): History can still take it
        self._popup(proposal)

    def accept_later(self, proposal_id: int, latency: float) -> None:
        """Accept, from the history window, an offer that was not answered: the same Accept as the popup's, done
        by the assistant's backend on the offer's own stored moment; its result window opens when done."""
        self.helping += 1
        self.backend.accept(proposal_id, latency)
        self.refresh_state()

    def answer(self, proposal_id: int, decision: str, latency: float) -> None:
        """An answer to an offer, from its popup or (an offer shown earlier: "Fewer like this", "Not this kind")
        the history window, as the backend takes it."""
        if decision == NOT_THIS_KIND:
            self.backend.not_this_kind(proposal_id, latency)
        else:
            self.backend.decided(proposal_id, decision, latency)

    def _notification_path(self, config: home.Config) -> Any:
        """The notification path (`notify.Notifications`) when the `proposals` setting wants it here and a session
        bus is there; None: every proposal goes to the popup."""
        if config.proposals == "popup":
            return None
        from .notify import Notifications

        return Notifications.for_setting(config.proposals, self._popup)

    def _popup(self, proposal: Proposal) -> None:
        """Show a proposal: as a notification on the notification path (held while Do Not Disturb is on), else,
        or when no notification server can show it, in the popup. Both report the same `decided`."""
        from .popup import ProposalPopup

        popup: Any = None
        if self.notifications is not None:
            from .notify import HELD

            popup = self.notifications.present(proposal, self.popup_timeout_s)
            if popup is HELD:
                return
        if popup is None:
            popup = ProposalPopup(proposal.id, proposal.headline, proposal.body, timeout_s=self.popup_timeout_s)
            popup.show()
        popup.decided.connect(lambda pid, decision, latency, p=proposal: self.decided(p, decision, latency))
        self.popups[proposal.id] = popup
        self.refresh_state()

    def decided(self, proposal: Proposal, decision: str, latency: float) -> None:
        """The person answered a popup: the assistant remembers and stores it (Accept: does the help first)."""
        self.popups.pop(proposal.id, None)
        if decision == ACCEPTED:
            self.helping += 1
        self.answer(proposal.id, decision, latency)
        if decision == SNOOZED:
            self._snooze(proposal)
        self.refresh_state()

    def _snooze(self, proposal: Proposal) -> None:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.timeout.connect(lambda p=proposal: self._snooze_over(p))
        self.snoozed[proposal.id] = timer
        timer.start(int(self.snooze_s * 1000))

    def _snooze_over(self, proposal: Proposal) -> None:
        self.snoozed.pop(proposal.id).deleteLater()  # one timer per snooze: not kept once it fired
        if self.paused:
            self.waiting.append(proposal)
        else:
            self._popup(proposal)

    def _ask_consent(self, proposal_id: int, question: str) -> None:
        """An accepted help would search or read pages and web_search = "ask": the person is asked first
        (`ui.consent`); the answer goes back to the assistant, which then does the help."""
        from .consent import ConsentDialog

        dialog = ConsentDialog(question)
        dialog.answered.connect(lambda answer: self._consented(answer, proposal_id))
        self.windows.append(dialog)
        dialog.show()

    def _consented(self, answer: str, proposal_id: int) -> None:
        """The web-search question answered: "on"/"off" is remembered in config.toml (where it cannot be written,
        it holds for this run and the log says why), NOT_NOW holds for this task only. Only web_search changes
        here: the file's other settings reach the tray through the settings window."""
        if answer != NOT_NOW:
            from proactive.watcher.store.home import save_setting

            try:
                save_setting("web_search", answer)
            except (OSError, ValueError) as exc:
                log.warning("web_search = %r could not be saved (%s); it holds until the app quits", answer, exc)
            self.config = dataclasses.replace(self.config, web_search=answer)
        self.backend.consent(proposal_id, answer)

    def _help_ready(self, proposal_id: int, payload: tuple[str, Help, bool]) -> None:
        task, result, answers = payload
        self.helping = max(0, self.helping - 1)
        window = ResultWindow(task, result, self._pull_hint(result, answers))
        self.windows.append(window)
        window.show()
        self.refresh_state()

    def _pull_hint(self, result: Help, answers: bool) -> str | None:
        """Once per home, under the first help from pages while no answers model is chosen (`answers`: the
        assistant has one): that a capable model is one command away (a marker file remembers it was said)."""
        if answers or self.config.answer_model != "ask":
            return None
        if not set(result.parts) & {"code", "points", "notes"}:
            return None
        marker = home.state_dir() / "pull-hint-shown"
        if marker.exists():
            return None
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
        except OSError as exc:
            log.warning("could not remember that the models hint was shown (%s)", exc)
        return (f"A capable model could also write explanations, drafts and summaries from these pages, on this "
                f"machine: run '{PULL_COMMAND}' to see the models that run on a laptop and download one.")

    def _model_busy(self, busy: bool) -> None:
        self.generating = busy
        self.refresh_state()
