"""The settings window: edit the user's `config.toml` without a text editor.

Why: the exclusion lists are the user's main privacy control, and the model, reward model and proactivity are
what they are most likely to want to change; all of it should be reachable from the tray, in words a person
understands: title patterns as the words they match (`ui/titles.py`), durations in the unit that reads best
("2 minutes", "30 days", `Duration`), choices as sentences. The form is checked against the config's one schema
(`watcher.home.SCHEMA`, the one `Config.load` and so the CLI use; the duration fields take their ranges from it)
before anything is written, so the window never saves a file the assistant would refuse to start with; on top of
it, a model or reward-model file must exist now. The file is replaced atomically (temp file + os.replace, mode
0600) so a crash never leaves half a config. Cancel, Escape or closing the window leave every file as it was;
Save writes config.toml and switches the login autostart entry (`ui/autostart.py`), then closes.

Applying the result: `saved` carries the new `Config`. What a running assistant can apply live is the
proactivity (the gate's threshold and interval), the exclusions (excluded applications and title patterns), the
popup's timeout and snooze time, and the web-search setting; the model and reward model are loaded once at start,
and retention, idle time, ActivityWatch text and how proposals are shown are read at start, so those take effect
on the next start. The Learned tab says what the assistant learned about the person, per kind of offer, with a
Reset that applies at once (`ui/learned.py`).
"""

from __future__ import annotations

import dataclasses
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from proactive.models.registry import MODEL_SPECS, REWARD_NAMES, REWARD_SPECS, model_problem, reward_problem
from proactive.watcher.episodes.wording import plural
from proactive.watcher.store import home
from proactive.watcher.store.database import Store, StoreError
from proactive.watcher.store.home import (
    PROACTIVITY_LEVELS,
    Config,
    ConfigError,
    check_setting,
    write_config,
)

from . import autostart
from .learned import LearnedView
from .setting_fields import Duration, EntryList
from .titles import pattern_of, words

MODEL_CHOICES = ["default"]


def model_words(spec: str) -> str:
    """A model setting in words."""
    spec = spec.strip()
    if spec in ("", "default"):
        return "The built-in model (SmolLM2, shipped with Proactive): it picks among offers built from what you do."
    if spec.startswith("openai:"):
        url, _, name = spec[len("openai:"):].partition("#")
        return f"The model {name or '(the server’s default)'} served at {url}."
    if spec == "fake":
        return "A fake model for tests: instant, it answers nothing useful."
    return f"The GGUF file {spec}, run on this machine."


def rm_words(spec: str) -> str:
    """A reward-model setting in words."""
    spec = spec.strip()
    if spec in ("", "default"):
        return "The shipped trained reward model: it judges when help is needed and which offer fits."
    if spec == "signals":
        return "Hand-written need signals (errors, searches, pauses) instead of the trained model."
    if spec.startswith("llm:"):
        return f"A model asked to judge each moment ({model_words(spec[4:]).rstrip('.')}): slow."
    return f"A reward model trained with `proactive reward train`: {spec}."


def answer_words(spec: str) -> str:
    """An answers-model setting in words."""
    spec = spec.strip()
    if spec == "ask":
        return ("Ask: when a capable model is found on this machine, you are asked once whether to use it to "
                "write explanations and drafts.")
    if spec in ("", "off"):
        return "Off: an accepted offer gives what needs no written answer (code and notes from pages, fixes)."
    return "Writes explanations and drafts when you accept an offer: " + model_words(spec)[0].lower() + \
        model_words(spec)[1:]
RM_CHOICES = list(REWARD_NAMES)
# what each web_search choice means, as the form shows it (the config's values are the keys)
WEB_SEARCH_CHOICES = {"ask": "Ask before each search is sent", "on": "Always search (sends the error or query)",
                      "off": "Never search"}
# what each `proposals` choice means (SCHEMA["proposals"]; ui/notify.py)
PROPOSALS_CHOICES = {"auto": "Automatically: a notification on Wayland, a popup on X11",
                     "popup": "A popup in the corner of the screen",
                     "notification": "A desktop notification (the popup where none can show buttons)"}
# how the form names a setting in its error line (a setting it does not show keeps its config name)
LABELS = {"model": "Model", "rm": "Reward model", "proactivity": "Proactivity",
          "excluded_apps": "Excluded applications", "excluded_titles": "Windows never recorded",
          "password_titles": "Windows where typing is not recorded",
          "retention_days": "Keep history for", "idle_seconds": "Idle after",
          "popup_seconds": "Popup closes after", "snooze_minutes": "Snooze for", "web_search": "Web search",
          "activitywatch_text": "Publish text to ActivityWatch", "answer_model": "Answers model",
          "proposals": "Show proposals as"}


def schema_problem(error: ConfigError) -> str:
    """A schema error in the form's words: its label, the entry of a list (as the list shows it), what would be
    valid."""
    shown = words(error.value) if error.field.endswith("_titles") and isinstance(error.value, str) else error.value
    entry = "" if error.index is None else f", entry {error.index + 1}: {shown!r}"
    return f"{LABELS.get(error.field, error.field)}{entry}: {error.problem}."


def check_model(spec: str) -> str | None:
    """Why the model `spec` cannot be used now, or None: the registry's check, in the form's words."""
    problem = model_problem(spec)
    return f"Model: {problem}." if problem else None


def check_rm(spec: str) -> str | None:
    """Why the reward-model `spec` cannot be used now, or None: the registry's check, in the form's words."""
    problem = reward_problem(spec)
    return f"Reward model: {problem}." if problem else None


class SettingsWindow(QWidget):
    """A form over `watcher.home.Config`, saved to `config.toml` in the config folder (`home.config_path`), and
    the login autostart switch.

    `saved(Config)` is emitted after a successful save. Of the new settings, proactivity, the exclusions
    (excluded applications, excluded title patterns) and the popup's timings are applied live by the tray; the
    model, the reward model, retention days and idle seconds take effect after a restart."""

    saved = Signal(object)

    def __init__(self, path: Path | None = None, parent: QWidget | None = None, store_path: Path | None = None,
                 reset_learning: Callable[[], None] | None = None):
        """`store_path`: the database what was learned about the person is read from; `reset_learning`: the
        running assistant's Reset of it (None: the Learned tab has no Reset)."""
        super().__init__(parent)
        self.setWindowTitle("Proactive: settings")
        self.path = path or home.config_path()
        self.raw: dict[str, Any] = {}
        load_error = None
        try:
            self.config = Config.load(self.path)
            if self.path.exists():
                self.raw = tomllib.loads(self.path.read_text())
        except ValueError as exc:
            # the file is unusable anyway (the assistant would refuse to start): show why, edit from defaults
            self.config = Config()
            load_error = f"{exc}. Saving replaces it."

        # -- General
        self.proactivity_combo = QComboBox()
        self.proactivity_combo.addItems(PROACTIVITY_LEVELS)
        self.proactivity_combo.setToolTip("How readily the assistant offers help: low speaks least")
        self.proposals_combo = QComboBox()
        for value, text in PROPOSALS_CHOICES.items():
            self.proposals_combo.addItem(text, value)
        self.proposals_combo.setToolTip("How a proposal appears: a popup with Accept / Reject / Snooze, or a "
                                        "desktop notification with the same buttons")
        self.popup_edit = Duration("popup_seconds", "seconds", ("seconds", "minutes"))
        self.snooze_edit = Duration("snooze_minutes", "minutes", ("seconds", "minutes", "hours"))
        self.idle_edit = Duration("idle_seconds", "seconds", ("seconds", "minutes", "hours"))
        self.web_search_combo = QComboBox()
        for value, text in WEB_SEARCH_CHOICES.items():
            self.web_search_combo.addItem(text, value)
        self.web_search_combo.setToolTip("Accepting a proposal about an error or a query can open a web search: it "
                                         "sends that text to duckduckgo.com")
        self.autostart_check = QCheckBox("Start Proactive when I log in")
        self.autostart_check.setToolTip(f"Adds {autostart.entry_path()}, which runs `proactive run` at login "
                                        "(`proactive` must be on PATH); unticked, removes it")
        self.autostart_check.setVisible(autostart.supported())
        self.autostart_check.setChecked(autostart.enabled())
        if autostart.supported() and not shutil.which("proactive"):
            self.autostart_check.setToolTip(self.autostart_check.toolTip() + ". Note: `proactive` is not on PATH "
                                            "now, so the entry would not start")

        # -- Privacy
        self.excluded_apps_edit = EntryList("An application or process name, e.g. keepassxc: nothing is recorded "
                                            "while it is in front")
        title_help = ("Words in a window title, e.g. private browsing: any letter case, whole words. A regular "
                      "expression goes between slashes: /(?i)payroll \\d+/")
        self.excluded_titles_edit = EntryList(title_help, words, pattern_of)
        self.password_titles_edit = EntryList(title_help, words, pattern_of)
        self.titles_note = QLabel("A title row matches whole words in any letter case: private browsing. A "
                                  "regular expression goes between slashes: /(?i)payroll \\d+/.")
        self.titles_note.setWordWrap(True)
        self.retention_edit = Duration("retention_days", "days", ("hours", "days"), never="for ever")
        # the description is the consent: what is sent, and that aw-server keeps it unencrypted
        self.aw_text_check = QCheckBox("Publish typed and copied text to ActivityWatch")
        self.aw_text_note = QLabel("Off: ActivityWatch gets the application, window title and URL only. On: "
                                   "aw-server stores your text unencrypted in its own database, where purge "
                                   "cannot reach every copy (its WAL and backups).")
        self.aw_text_note.setWordWrap(True)

        # -- Models
        self.model_edit = QComboBox()
        self.model_edit.setEditable(True)
        self.model_edit.addItems(MODEL_CHOICES)
        self.model_edit.setToolTip(MODEL_SPECS)
        self.model_browse = QPushButton("Browse…")
        self.model_browse.clicked.connect(self._browse_model)
        self.rm_edit = QComboBox()
        self.rm_edit.setEditable(True)
        self.rm_edit.addItems(RM_CHOICES)
        self.rm_edit.setToolTip(REWARD_SPECS)
        self.answer_model_edit = QComboBox()  # ask, off, or a model spec typed or chosen (assistant/answers.py)
        self.answer_model_edit.setEditable(True)
        self.answer_model_edit.addItems(["ask", "off"])
        self.answer_model_edit.setToolTip("The model that writes explanations and drafts when you accept an offer: "
                                          "a GGUF path or openai:BASE_URL#MODEL (see `proactive models`); off; or "
                                          "ask, to be offered a capable model found on this machine once")

        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #b00020;")
        self.error_label.hide()
        self.save_button = QPushButton("Save")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Close without saving (Escape)")
        self.cancel_button.clicked.connect(self.cancel)
        self.diagnostics_button = QPushButton("Diagnostics…")
        self.diagnostics_button.setToolTip("What works here now (proactive doctor): session, capture sources, "
                                           "database, models")
        self.diagnostics_button.clicked.connect(self.show_diagnostics)
        self.diagnostics: DiagnosticsWindow | None = None
        self.note = QLabel("Proactivity, exclusions, popup timings and web search apply at once; the rest after a "
                           "restart.")
        self.note.setWordWrap(True)

        general = QFormLayout()
        general.addRow("Proactivity", self.proactivity_combo)
        general.addRow("Show proposals as", self.proposals_combo)
        general.addRow("Popup closes after", self.popup_edit)
        general.addRow("Snooze for", self.snooze_edit)
        general.addRow("Idle after", self.idle_edit)
        general.addRow("Web search", self.web_search_combo)
        general.addRow("", self.autostart_check)
        privacy = QFormLayout()
        privacy.addRow("Excluded applications", self.excluded_apps_edit)
        privacy.addRow("Windows never recorded\n(title contains)", self.excluded_titles_edit)
        privacy.addRow("Typing not recorded\n(title contains)", self.password_titles_edit)
        privacy.addRow("", self.titles_note)
        privacy.addRow("Keep history for", self.retention_edit)
        aw_box = QVBoxLayout()
        aw_box.addWidget(self.aw_text_check)
        aw_box.addWidget(self.aw_text_note)
        privacy.addRow("ActivityWatch", aw_box)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model_edit, 1)
        model_row.addWidget(self.model_browse)
        models = QFormLayout()
        # each choice said in words under its box (a bare "default" or "ask" tells a person nothing)
        self.model_words, self.rm_words, self.answer_words = QLabel(), QLabel(), QLabel()
        for box, label, describe in ((self.model_edit, self.model_words, model_words),
                                     (self.rm_edit, self.rm_words, rm_words),
                                     (self.answer_model_edit, self.answer_words, answer_words)):
            label.setWordWrap(True)
            label.setStyleSheet("color: palette(placeholder-text);")
            box.currentTextChanged.connect(lambda text, la=label, d=describe: la.setText(d(text)))
            label.setText(describe(box.currentText()))
        models.addRow("Model", model_row)
        models.addRow("", self.model_words)
        models.addRow("Reward model", self.rm_edit)
        models.addRow("", self.rm_words)
        models.addRow("Answers model", self.answer_model_edit)
        models.addRow("", self.answer_words)
        self.learned = LearnedView(reset_learning)
        try:
            store = Store(store_path)
        except StoreError as exc:  # what was learned cannot be read: said in the tab, the rest still works
            self.learned.summary.setText(f"What it learned about you cannot be read: {exc}")
        else:
            try:
                self.learned.read(store)
            finally:
                store.close()  # no reader kept open (a purge needs every reader gone)
        learned = QVBoxLayout()
        learned.addWidget(self.learned)
        learned.addStretch(1)
        self.tabs = QTabWidget()
        for form, name in ((general, "General"), (privacy, "Privacy"), (models, "Models"), (learned, "Learned")):
            page = QWidget()
            page.setLayout(form)
            self.tabs.addTab(page, name)
        buttons = QHBoxLayout()
        buttons.addWidget(self.diagnostics_button)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.error_label)
        layout.addLayout(buttons)
        self.excluded_titles_edit.changed.connect(self._recheck_patterns)
        self.password_titles_edit.changed.connect(self._recheck_patterns)

        self.set_config(self.config)
        if load_error:
            self.show_error(load_error)
        self.resize(640, 560)

    # -- form <-> Config -------------------------------------------------------------------------------------

    def set_config(self, config: Config) -> None:
        self.config = config
        self.model_edit.setCurrentText(config.model)
        self.rm_edit.setCurrentText(config.rm)
        if self.proactivity_combo.findText(config.proactivity) < 0:  # a number in [0, 1], kept as written
            self.proactivity_combo.addItem(config.proactivity)
        self.proactivity_combo.setCurrentText(config.proactivity)
        self.proposals_combo.setCurrentIndex(self.proposals_combo.findData(config.proposals))
        self.excluded_apps_edit.set_entries(config.excluded_apps)
        self.excluded_titles_edit.set_entries(config.excluded_titles)
        self.password_titles_edit.set_entries(config.password_titles)
        self.retention_edit.set_value(config.retention_days)
        self.idle_edit.set_value(config.idle_seconds)
        self.popup_edit.set_value(config.popup_seconds)
        self.snooze_edit.set_value(config.snooze_minutes)
        self.web_search_combo.setCurrentIndex(self.web_search_combo.findData(config.web_search))
        self.aw_text_check.setChecked(config.activitywatch_text)
        self.answer_model_edit.setCurrentText(config.answer_model)

    def form_config(self) -> Config:
        """The config the form describes (fields it does not show are those of the loaded config)."""
        return dataclasses.replace(
            self.config,
            model=self.model_edit.currentText().strip(),
            rm=self.rm_edit.currentText().strip(),
            proactivity=self.proactivity_combo.currentText(),
            proposals=self.proposals_combo.currentData(),
            excluded_apps=self.excluded_apps_edit.entries(),
            excluded_titles=self.excluded_titles_edit.entries(),
            password_titles=self.password_titles_edit.entries(),
            retention_days=self.retention_edit.value(),
            idle_seconds=self.idle_edit.value(),
            popup_seconds=self.popup_edit.value(),
            snooze_minutes=self.snooze_edit.value(),
            web_search=self.web_search_combo.currentData(),
            activitywatch_text=self.aw_text_check.isChecked(),
            answer_model=self.answer_model_edit.currentText().strip(),
        )

    def problems(self, config: Config) -> str | None:
        """Why `config` cannot be saved: the config schema first, then whether the model files exist now."""
        try:
            config.check()
        except ConfigError as exc:
            return schema_problem(exc)
        answers = config.answer_model not in ("ask", "off") and check_model(config.answer_model)
        return check_model(config.model) or check_rm(config.rm) or (answers and f"Answers {answers[0].lower()}"
                                                                     f"{answers[1:]}") or None

    # -- actions ---------------------------------------------------------------------------------------------

    def save(self) -> bool:
        """Check the form, write config.toml and switch autostart, then close; returns whether it was saved (and
        `saved` emitted). A refused form stays open with the reason, and nothing is written."""
        config = self.form_config()
        problem = self.problems(config)
        if problem:
            self.show_error(problem)
            return False
        try:
            write_config(config, self.path, self.raw)
            self.raw = tomllib.loads(self.path.read_text())
        except (OSError, ValueError) as exc:
            self.show_error(f"Could not save {self.path}: {exc}")
            return False
        self.config = config
        self.saved.emit(config)
        wanted = self.autostart_check.isChecked()
        if autostart.supported() and wanted != autostart.enabled():
            try:
                autostart.set_enabled(wanted)
            except OSError as exc:
                self.show_error(f"Settings saved, but could not {'add' if wanted else 'remove'} "
                                f"{autostart.entry_path()}: {exc.strerror or exc}")
                return True
        self.show_error(None)
        self.close()
        return True

    def cancel(self) -> None:
        """Close without saving: the form goes back to the file's settings, and no file is touched."""
        self.set_config(self.config)
        self.autostart_check.setChecked(autostart.enabled())
        self.show_error(None)
        self.close()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        """Escape is Cancel, as in a dialog (a row being edited or an open list takes its own Escape first)."""
        if event.key() == Qt.Key.Key_Escape:
            self.cancel()
        else:
            super().keyPressEvent(event)

    def show_error(self, message: str | None) -> None:
        self.error_label.setText(message or "")
        self.error_label.setVisible(bool(message))

    def _recheck_patterns(self) -> None:
        """Flag a bad regex as soon as it is typed (clears once fixed)."""
        try:
            check_setting("excluded_titles", self.excluded_titles_edit.entries())
            check_setting("password_titles", self.password_titles_edit.entries())
            problem = None
        except ConfigError as exc:
            problem = schema_problem(exc)
        if problem or self.error_label.text().startswith("Windows "):
            self.show_error(problem)

    def show_diagnostics(self) -> DiagnosticsWindow:
        """Open (or refresh and raise) the diagnostics window: `proactive doctor`'s report."""
        if self.diagnostics is None:
            self.diagnostics = DiagnosticsWindow()
        else:
            self.diagnostics.refresh()
        self.diagnostics.show()
        self.diagnostics.raise_()
        return self.diagnostics

    def _browse_model(self) -> None:
        start = self.model_edit.currentText()
        folder = str(Path(start).expanduser().parent) if start not in MODEL_CHOICES else str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Choose a GGUF model", folder, "GGUF models (*.gguf);;All files (*)")
        if path:
            self.model_edit.setCurrentText(path)


class DiagnosticsWindow(QWidget):
    """`proactive doctor`'s report, read-only: the session, each capture source and whether it works now with
    what to do about it, the database and its encryption, the model and reward model. Built from the same rows
    as the command's tables (`assistant.doctor.rows`). `report` given: shown as is (tests); else checked now."""

    COLUMNS = ("Section", "Item", "Status", "Detail", "What to do")
    BAD = ("cannot work", "missing", "unusable")

    def __init__(self, report: dict[str, Any] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Proactive: diagnostics")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.refresh_button = QPushButton("Check again")
        self.refresh_button.clicked.connect(lambda: self.refresh())
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.refresh_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.report: dict[str, Any] = {}
        self.resize(1000, 520)
        self.refresh(report)
        self.table.horizontalHeader().sectionResized.connect(lambda *_: self.table.resizeRowsToContents())

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.table.resizeRowsToContents()  # wrapped cells need the final column widths

    def refresh(self, report: dict[str, Any] | None = None) -> None:
        """Check again (or show `report`) and fill the table."""
        from proactive.assistant.doctor import report as check, rows

        self.report = report if report is not None else check()
        found = rows(self.report)
        bad = [r for r in found if r["status"] in self.BAD]
        self.summary.setText(f"{self.report['session']['summary']}. " + (
            f"{plural(len(bad), 'thing')} cannot work: see what to do." if bad else "Everything needed works."))
        self.table.setRowCount(len(found))
        for i, row in enumerate(found):
            for j, key in enumerate(("section", "item", "status", "detail", "fix")):
                item = QTableWidgetItem(row[key])
                item.setToolTip(row[key])
                if key == "status":
                    item.setForeground(QColor("#b00020") if row["status"] in self.BAD else
                                       QColor("#1b7f3b") if row["status"] in ("works", "ok") else QColor("#8a6d00"))
                self.table.setItem(i, j, item)
        for j, width in enumerate((70, 210, 90, 300)):
            self.table.setColumnWidth(j, width)
        self.table.resizeRowsToContents()

    def rows_text(self) -> list[list[str]]:
        """The table's cells, row by row (what the person sees)."""
        return [[item.text() if (item := self.table.item(i, j)) else "" for j in range(self.table.columnCount())]
                for i in range(self.table.rowCount())]
