"""The annotation window: annotators go through a session's events, say where help was needed and which tasks
would have been right, and export the result in reward format (see `eval.annotation` for the rules).

"Ask the agent" (when a model is configured) runs the proposal model on the events up to the current one and
adds its candidate tasks, unjudged, for every annotator to accept or reject; the model works in a thread so the
window stays responsive. Sessions from our database come with the live assistant's proposals as candidates.

"Help needed here" shows yes (ticked), no (empty) or not judged yet (partly ticked); leaving an event not judged
with Previous/Next records "no help needed" for the current annotator (an event seen and passed). A task typed in is added as accepted by its author; other
annotators see it among the candidates and accept or reject it. A task's check box: ticked = accepted,
empty = rejected, partly ticked = not judged yet by this annotator.

Work is never lost: every change is written (after a 2-second pause) to an autosave file in the data folder
(`annotations/autosave-<session>.json`, loadable with "Load annotations…"), closing with unsaved changes
asks whether to save them, and opening the session again offers the autosaved marks back. An annotations file
keeps the session's name, so an export after loading it names the session (not the annotations file). Everything has a keyboard shortcut (`SHORTCUTS`), shown on its button.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import cast

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from proactive.eval.annotation import (
    Annotations,
    load_candidates,
    load_database,
    load_observations,
    write_reward_rows,
)
from proactive.eval.sessions import SessionError
from proactive.models.base import Observation
from proactive.watcher.episodes.wording import plural
from proactive.watcher.store import home

CONTEXT = 3
AUTOSAVE_MS = 2000  # a change is autosaved after this pause (a burst of clicks is one write)
#: action -> its keys (Qt's portable names): none is a key that edits text (Ctrl+arrows move by word there)
ASK = "Ask the agent (Ctrl+G)"
SHORTCUTS = {"next": "Alt+Right", "previous": "Alt+Left", "need yes": "Ctrl+1", "need no": "Ctrl+0",
             "accept": "Ctrl+Return", "reject": "Ctrl+Delete", "save": "Ctrl+S", "ask": "Ctrl+G"}
# the agent: observations up to an event -> candidate tasks (assistant.agent.Agent.predict's candidates)
Suggest = Callable[[list[Observation]], list[str]]


def when(time_value: str) -> str:
    """A session's time field as the annotator reads it: epoch seconds -> local date and time; other text as is."""
    try:
        return datetime.fromtimestamp(float(time_value)).strftime("%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError, OverflowError, OSError):
        return str(time_value)


class _Suggestions(QObject):
    """Carries the agent's answer from its thread into the GUI thread."""

    ready = Signal(int, object)  # event index, list of tasks or an Exception


class NeedBox(QCheckBox):
    """"Help needed here": ticked = yes, empty = no, partly ticked = not judged yet by this annotator (shown, so
    "no" and "not yet" never look alike). A click answers: yes, then no, then yes; it never goes back to "not
    judged"."""

    answered = Signal(bool)  # the annotator said yes or no (a click, the space bar, `setChecked`)

    def __init__(self) -> None:
        super().__init__()
        self.setTristate(True)

    def nextCheckState(self) -> None:  # noqa: N802 - Qt's name
        self.setChecked(self.checkState() != Qt.CheckState.Checked)

    def isChecked(self) -> bool:  # noqa: N802 - Qt's name: "yes" only (Qt counts "not judged" as checked)
        return self.checkState() == Qt.CheckState.Checked

    def setChecked(self, yes: bool) -> None:  # noqa: N802 - Qt's name
        self.setCheckState(Qt.CheckState.Checked if yes else Qt.CheckState.Unchecked)
        self.answered.emit(yes)

    def show_need(self, need: bool | None) -> None:
        """The box and its words for a judgement (None: not judged yet)."""
        self.setCheckState(Qt.CheckState.PartiallyChecked if need is None else
                           Qt.CheckState.Checked if need else Qt.CheckState.Unchecked)
        said = "not judged yet (Next records no)" if need is None else "yes" if need else "no"
        self.setText(f"Help needed here? {said}  ({SHORTCUTS['need yes']}: yes, {SHORTCUTS['need no']}: no)")


class AnnotationWindow(QWidget):
    def __init__(self, observations: Sequence[Observation], annotations: Annotations | None = None,
                 annotator: str = "", session_name: str = "session", suggest: Suggest | None = None,
                 candidates: dict[int, list[str]] | None = None):
        super().__init__()
        self.setWindowTitle("Proactive — annotate")
        self.resize(900, 640)  # fits a 1366x768 screen with room for panels; the layout shrinks to ~500 high
        self.annotations = annotations if annotations is not None else Annotations(observations, candidates)
        self.saved_state = self._state()  # what the last save (or load) holds: unsaved work differs from it
        self.saved_path: Path | None = None
        self._autosave = QTimer(self)
        self._autosave.setSingleShot(True)
        self._autosave.setInterval(AUTOSAVE_MS)
        self._autosave.timeout.connect(self.autosave)
        self.suggest = suggest
        self.suggesting: int | None = None  # the event the agent is working on
        self._suggestions = _Suggestions()
        self._suggestions.ready.connect(self._suggested)
        self.session_name = self.annotations.session or session_name
        self.annotations.session = self.session_name
        self.index = 0
        self._refreshing = False

        self.open_button = QPushButton("Open session…")
        self.open_db_button = QPushButton("Open database…")
        self.load_button = QPushButton("Load annotations…")
        self.save_button = QPushButton("Save annotations…")
        self.export_button = QPushButton("Export…")
        top = QHBoxLayout()
        for b in (self.open_button, self.open_db_button, self.load_button, self.save_button, self.export_button):
            top.addWidget(b)

        self.name_edit = QLineEdit(annotator)
        self.name_edit.setPlaceholderText("Your name")
        name_row = QHBoxLayout()
        name_row.addWidget(QLabel("Annotator:"))
        name_row.addWidget(self.name_edit)

        self.position_label = QLabel()
        self.context_view = QTextBrowser()
        self.context_view.setMaximumHeight(110)
        self.event_view = QTextBrowser()
        self.event_view.setMaximumHeight(90)
        self.prev_button = QPushButton(f"◀ Previous ({SHORTCUTS['previous']})")
        self.next_button = QPushButton(f"Next ▶ ({SHORTCUTS['next']})")
        nav = QHBoxLayout()
        nav.addWidget(self.prev_button)
        nav.addWidget(self.position_label, 1, Qt.AlignmentFlag.AlignCenter)
        nav.addWidget(self.next_button)

        self.need_box = NeedBox()
        self.task_list = QListWidget()
        self.accept_button = QPushButton(f"Accept ({SHORTCUTS['accept']})")
        self.reject_button = QPushButton(f"Reject ({SHORTCUTS['reject']})")
        judge_row = QHBoxLayout()
        judge_row.addWidget(self.accept_button)
        judge_row.addWidget(self.reject_button)
        self.task_edit = QLineEdit()
        self.task_edit.setPlaceholderText("Type a task that would have helped here")
        self.add_button = QPushButton("Add")
        self.ask_button = QPushButton(ASK)
        self.ask_button.setToolTip("Let the proposal model suggest tasks for this moment")
        self.ask_button.setVisible(suggest is not None)
        add_row = QHBoxLayout()
        add_row.addWidget(self.task_edit)
        add_row.addWidget(self.add_button)
        add_row.addWidget(self.ask_button)
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(name_row)
        layout.addWidget(QLabel("Before:"))
        layout.addWidget(self.context_view)
        layout.addWidget(QLabel("Current event:"))
        layout.addWidget(self.event_view)
        layout.addLayout(nav)
        layout.addWidget(self.need_box)
        legend = QLabel("Candidate tasks, as you judge them: ☑ ticked = accepted, ☐ empty = rejected, "
                        "▣ partly ticked = not judged by you yet. Click a box, or select a task and press "
                        "Accept or Reject.")
        legend.setWordWrap(True)
        layout.addWidget(legend)
        layout.addWidget(self.task_list)
        layout.addLayout(judge_row)
        layout.addLayout(add_row)
        layout.addWidget(self.status_label)

        self.prev_button.clicked.connect(self.previous)
        self.next_button.clicked.connect(self.next)
        self.need_box.answered.connect(self._need_toggled)
        self.task_list.itemChanged.connect(self._item_changed)
        self.accept_button.clicked.connect(lambda: self._judge_selected(True))
        self.reject_button.clicked.connect(lambda: self._judge_selected(False))
        self.add_button.clicked.connect(self.add_task)
        self.ask_button.clicked.connect(self.ask_agent)
        self.task_edit.returnPressed.connect(self.add_task)
        self.name_edit.textChanged.connect(lambda _: self.refresh())
        self.open_button.clicked.connect(self._open_dialog)
        self.open_db_button.clicked.connect(self._open_db_dialog)
        self.load_button.clicked.connect(self._load_dialog)
        self.save_button.clicked.connect(self._save_dialog)
        self.export_button.clicked.connect(self._export_dialog)
        for action, slot in (("next", self.next), ("previous", self.previous),
                             ("need yes", lambda: self._set_need(True)), ("need no", lambda: self._set_need(False)),
                             ("accept", lambda: self._judge_selected(True)),
                             ("reject", lambda: self._judge_selected(False)), ("save", self.save_or_ask),
                             ("ask", self.ask_agent)):
            shortcut = QShortcut(QKeySequence(SHORTCUTS[action]), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(slot)
        self.save_button.setToolTip(SHORTCUTS["save"])
        self.refresh()
        if annotations is None:
            self.offer_autosave()

    # ---------------------------------------------------------------------------------------------- state
    def _state(self) -> dict[str, object]:
        """The annotations as saved, without annotators who marked nothing: typing a name is no work to save."""
        state = self.annotations.to_json()
        state["annotators"] = {name: marks for name, marks in state["annotators"].items()
                               if marks["need"] or marks["tasks"]}
        return state

    @property
    def unsaved(self) -> bool:
        """Whether the annotations differ from what was last saved or loaded."""
        return self._state() != self.saved_state

    def changed(self) -> None:
        """Any change of the annotations: autosaved after a pause."""
        if self.unsaved:
            self._autosave.start()

    def _stem(self) -> str:
        return "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(self.session_name).stem) or "session"

    @staticmethod
    def folder() -> Path:
        """Where annotation files are opened from and written to (Load, Save and Export start here): the
        annotations folder in the data folder, beside the autosaves."""
        return home.data_dir() / "annotations"

    def autosave_path(self) -> Path:
        return self.folder() / f"autosave-{self._stem()}.json"

    def saved_copy(self, kept: Annotations) -> Path | None:
        """An annotations file in the folder holding exactly the marks of `kept` (an autosave whose work was saved
        after all), or None."""
        marks = kept.to_json()["annotators"]
        for path in sorted(self.folder().glob("*.json")):
            if path.name.startswith("autosave-"):
                continue
            try:
                saved = Annotations.load(path)
            except (SessionError, OSError):
                continue
            if saved.observations == kept.observations and saved.to_json()["annotators"] == marks:
                return path
        return None

    def default_save_path(self) -> Path:
        """Where "Save annotations…" proposes to write: named for the session (and the annotator), in the
        annotations folder, so one session's file never overwrites another's."""
        who = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.annotator)
        return self.folder() / f"{self._stem()}{'-' + who if who else ''}.json"

    def offer_autosave(self) -> bool:
        """A session opened again while its autosave holds marks for the same events (work not saved to a file
        before the window closed): offer them back; True when restored. They stay unsaved until saved."""
        path = self.autosave_path()
        if not self.observations or not path.is_file():
            return False
        try:
            kept = Annotations.load(path)
        except SessionError:
            return False
        if kept.observations != self.observations or not kept.marks() or kept.to_json()["annotators"] == \
                self.annotations.to_json()["annotators"]:
            return False
        saved = self.saved_copy(kept)
        if saved is not None:  # nothing was lost: say where the marks are instead of offering them back
            self.status_label.setText(f"Your marks of {self.session_name} are saved in {saved}: Load annotations… "
                                      "opens them.")
            return False
        stamp = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        who = ", ".join(kept.annotators)
        answer = QMessageBox.question(
            self, "Proactive — annotate",
            f"Annotations of {self.session_name} that were not saved to a file were kept at {stamp} "
            f"({plural(kept.marks(), 'mark')} by {who}). Restore them?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        kept.session = self.session_name
        self.annotations = kept
        self.refresh()
        self.status_label.setText(f"Restored {plural(kept.marks(), 'mark')} from {path}; save them to keep them "
                                  "in a file.")
        return True

    def autosave(self) -> None:
        """Write the annotations to the autosave file (a failure is shown, never lost work: they stay here)."""
        self._autosave.stop()
        if not self.observations:
            return
        path = self.autosave_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.annotations.save(path)
        except OSError as exc:
            self.status_label.setText(f"Autosave failed: {exc}")

    def _set_need(self, needed: bool) -> None:
        if self.need_box.isEnabled():
            self.need_box.setChecked(needed)  # recorded by _need_toggled

    def save_or_ask(self) -> None:
        """Ctrl+S: save where the last save went, else ask where."""
        if self.saved_path is not None:
            self._ask("save", str(self.saved_path))
        else:
            self._save_dialog()

    def may_leave(self, doing: str) -> bool:
        """Before the annotations are closed or replaced (`doing`: "closing", "opening another session"): with
        unsaved changes, ask to save, discard (the autosave file keeps them) or go back; True to go on."""
        if not self.unsaved:
            return True
        self.autosave()
        answer = QMessageBox.question(
            self, "Proactive — annotate",
            f"Save your annotations of {self.session_name} before {doing}? (They are also kept in "
            f"{self.autosave_path()}.)",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            self.save_or_ask()
            return not self.unsaved  # False when the file dialog was cancelled or the save failed
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        if self.may_leave("closing"):
            event.accept()
        else:
            event.ignore()

    @property
    def annotator(self) -> str:
        return self.name_edit.text().strip()

    @property
    def observations(self) -> list[Observation]:
        return self.annotations.observations

    def go_to(self, index: int) -> None:
        """Record the need box for the event being left, then show event `index`."""
        self._record_current()
        self.index = max(0, min(index, len(self.observations) - 1))
        self.refresh()
        self.changed()

    def next(self) -> None:
        self.go_to(self.index + 1)

    def previous(self) -> None:
        self.go_to(self.index - 1)

    def add_task(self) -> None:
        text = self.task_edit.text().strip()
        if not text or not self.annotator:
            return
        self.annotations.judge(self.annotator, self.index, text, True)
        self.task_edit.clear()
        self.refresh()
        self.changed()

    def ask_agent(self) -> None:
        """Run the agent on the events up to the current one, in a thread; its tasks arrive in `_suggested`."""
        if self.suggest is None or self.suggesting is not None or not self.observations:
            return
        index, context, suggest = self.index, self.observations[:self.index + 1], self.suggest
        self.suggesting = index
        self.ask_button.setEnabled(False)
        self.ask_button.setText("Thinking…")

        def work() -> None:
            try:
                result: object = suggest(context)
            except Exception as exc:  # a model failure is shown, never a crash
                result = exc
            self._suggestions.ready.emit(index, result)

        threading.Thread(target=work, name="annotate-agent", daemon=True).start()

    def _suggested(self, index: int, result: object) -> None:
        self.suggesting = None
        self.ask_button.setText(ASK)
        if isinstance(result, Exception):
            self.status_label.setText(f"The agent failed: {result}")
        else:
            new = self.annotations.add_candidates(index, list(cast("Sequence[str]", result)))  # not an Exception: tasks
            self.refresh()
            self.changed()
            if not new:
                self.status_label.setText(f"The agent had no new task for event {index + 1}.")
        self.ask_button.setEnabled(bool(self.observations))

    def judge(self, task: str, accepted: bool) -> None:
        if self.annotator:
            self.annotations.judge(self.annotator, self.index, task, accepted)
            self.refresh()
            self.changed()

    def _judge_selected(self, accepted: bool) -> None:
        item = self.task_list.currentItem()
        if item is not None:
            self.judge(item.data(Qt.ItemDataRole.UserRole), accepted)

    def _need_toggled(self, checked: bool) -> None:
        if not self._refreshing and self.annotator:
            self.annotations.mark_need(self.annotator, self.index, checked)
            self.need_box.show_need(checked)
            self.update_status()
            self.changed()

    def _item_changed(self, item: QListWidgetItem) -> None:
        if self._refreshing or not self.annotator:
            return
        state = item.checkState()
        if state == Qt.CheckState.PartiallyChecked:
            return
        self.annotations.judge(self.annotator, self.index, item.data(Qt.ItemDataRole.UserRole),
                               state == Qt.CheckState.Checked)
        self.refresh()
        self.changed()

    # -------------------------------------------------------------------------------------------- display
    def refresh(self) -> None:
        self._refreshing = True
        try:
            obs, i, name = self.observations, self.index, self.annotator
            enabled = bool(name) and bool(obs)
            for w in (self.need_box, self.task_list, self.accept_button, self.reject_button, self.task_edit,
                      self.add_button):
                w.setEnabled(enabled)
            self.ask_button.setEnabled(bool(obs) and self.suggesting is None)
            self.prev_button.setEnabled(i > 0)
            self.next_button.setEnabled(i < len(obs) - 1)
            self.position_label.setText(f"Event {i + 1} of {len(obs)}" if obs else "No session")
            before = obs[max(0, i - CONTEXT):i]
            self.context_view.setHtml("".join(
                f"<p><span style='color:gray'>{html.escape(when(o['time']))}</span> {html.escape(o['event'])}</p>"
                for o in before) or "<p style='color:gray'>(start of the session)</p>")
            self.event_view.setHtml(f"<p><span style='color:gray'>{html.escape(when(obs[i]['time']))}</span> "
                                    f"<b>{html.escape(obs[i]['event'])}</b></p>" if obs else "")
            self.need_box.show_need(self.annotations.need_of(name, i) if name and obs else None)
            self.task_list.clear()
            for task in self.annotations.candidates_at(i) if obs else []:
                item = QListWidgetItem(task)
                item.setData(Qt.ItemDataRole.UserRole, task)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                vote = self.annotations.task_of(name, i, task) if name else None
                item.setCheckState(Qt.CheckState.PartiallyChecked if vote is None
                                   else Qt.CheckState.Checked if vote else Qt.CheckState.Unchecked)
                self.task_list.addItem(item)
        finally:
            self._refreshing = False
        self.update_status()

    def update_status(self) -> None:
        ag = self.annotations.agreement()
        parts = [plural(ag["annotators"], "annotator"), plural(len(self.annotations.marked_indices()), "event") + " marked"]
        if not self.annotator:
            parts.insert(0, "Type your name to annotate")
        if ag["all_agree"] is not None:
            parts.append(f"all agree on {ag['all_agree']:.0%} of {plural(ag['items'], 'shared item')}")
        for pair, k in ag["kappa"].items():
            parts.append(f"κ {pair}: {'n/a' if k is None else f'{k:.2f}'}")
        self.status_label.setText(" · ".join(parts))

    # ----------------------------------------------------------------------------------------------- files
    def set_session(self, observations: Sequence[Observation], name: str,
                    candidates: dict[int, list[str]] | None = None) -> None:
        self.annotations = Annotations(observations, candidates)
        self.session_name = self.annotations.session = name
        self.index = 0
        self.saved_state, self.saved_path = self._state(), None
        self.refresh()
        self.offer_autosave()

    def open_session(self, path: Path | str) -> None:
        """Raises SessionError."""
        self.set_session(load_observations(path), Path(path).name, load_candidates(path))

    def open_database(self, path: Path | str) -> None:
        """Raises SessionError."""
        observations, candidates = load_database(path)
        self.set_session(observations, Path(path).name, candidates)

    def load_annotations(self, path: Path | str) -> None:
        self.annotations = Annotations.load(path)
        # the session the marks are about (kept in the file), never the annotations file's own name
        self.session_name = self.annotations.session or Path(path).stem.removeprefix("autosave-")
        self.annotations.session = self.session_name
        self.index = 0
        self.saved_state, self.saved_path = self._state(), Path(path)
        self.refresh()

    def save(self, path: Path | str) -> None:
        """Write the annotations to `path`; the autosave, whose work is now in a file, is removed, so reopening the
        session does not offer it back."""
        self._record_current()
        self.annotations.save(path)
        self.saved_state, self.saved_path = self._state(), Path(path)
        self._autosave.stop()
        self.autosave_path().unlink(missing_ok=True)

    def export(self, path: Path | str) -> int:
        """Write the majority labels as reward-format JSONL; returns the number of rows."""
        self._record_current()
        n = write_reward_rows(self.annotations.to_reward_rows(self.session_name), path)
        self.update_status()
        return n

    def _record_current(self) -> None:
        """Leaving an event the annotator has seen and not judged records it as "no help needed"."""
        if self.annotator and self.observations and self.annotations.need_of(self.annotator, self.index) is None:
            self.annotations.mark_need(self.annotator, self.index, self.need_box.isChecked())

    def _ask(self, action: str, path: str) -> None:
        try:
            getattr(self, action)(path)
        except (SessionError, OSError) as exc:
            QMessageBox.warning(self, "Proactive", str(exc))

    def _open_dialog(self) -> None:
        if not self.may_leave("opening another"):
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open session", "", "Sessions (*.json *.jsonl);;All (*)")
        if path:
            self._ask("open_session", path)

    def _open_db_dialog(self) -> None:
        if not self.may_leave("opening another"):
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open database", "", "Databases (*.db *.sqlite);;All (*)")
        if path:
            self._ask("open_database", path)

    def _load_dialog(self) -> None:
        if not self.may_leave("opening another"):
            return
        self.folder().mkdir(parents=True, exist_ok=True, mode=0o700)  # the dialog opens in it
        path, _ = QFileDialog.getOpenFileName(self, "Load annotations", str(self.folder()),
                                              "Annotations (*.json);;All (*)")
        if path:
            self._ask("load_annotations", path)

    def default_export_path(self) -> Path:
        """Where "Export reward labels…" proposes to write: beside the annotations, named for the session."""
        return self.folder() / f"{self._stem()}-labels.jsonl"

    def _save_dialog(self) -> None:
        self.folder().mkdir(parents=True, exist_ok=True, mode=0o700)  # the dialog opens in it
        path, _ = QFileDialog.getSaveFileName(self, "Save annotations", str(self.default_save_path()),
                                              "JSON (*.json)")
        if path:
            self._ask("save", path)

    def _export_dialog(self) -> None:
        self.folder().mkdir(parents=True, exist_ok=True, mode=0o700)
        path, _ = QFileDialog.getSaveFileName(self, "Export reward labels", str(self.default_export_path()),
                                              "JSONL (*.jsonl)")
        if path:
            self._ask("export", path)
