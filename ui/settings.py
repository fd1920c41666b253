"""The settings window: edit the user's `config.toml` without a text editor.

Why: the exclusion lists are the user's main privacy control, and the model, reward model and proactivity are
what they are most likely to want to change; all of it should be reachable from the tray. The form is checked
against the config's one schema (`watcher.home.SCHEMA`, the one `Config.load` and so the CLI use; the spin boxes
take their ranges from it) before anything is written, so the window never saves a file the assistant would
refuse to start with; on top of it, a model or reward-model file must exist now. The file is replaced
atomically (temp file + os.replace, mode 0600) so a crash never leaves half a config.

Applying the result: `saved` carries the new `Config`. What a running assistant can apply live is the
proactivity (the gate's threshold and interval), the exclusions (excluded applications and title patterns), the
popup's timeout and snooze time, and the web-search setting; the model and reward model are loaded once at start,
and retention, idle time and ActivityWatch text are read by the watcher at start, so those take effect on the
next start.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import tomli_w
from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from proactive.models.registry import MODEL_SPECS, REWARD_NAMES, REWARD_SPECS, model_problem, reward_problem
from proactive.watcher import home
from proactive.watcher.home import PROACTIVITY_LEVELS, SCHEMA, Config, ConfigError, check_setting
from proactive.watcher.wording import plural

MODEL_CHOICES = ["default"]
RM_CHOICES = list(REWARD_NAMES)
# what each web_search choice means, as the form shows it (the config's values are the keys)
WEB_SEARCH_CHOICES = {"ask": "Ask before each search is sent", "on": "Always search (sends the error or query)",
                      "off": "Never search"}
# how the form names a setting in its error line (a setting it does not show keeps its config name)
LABELS = {"model": "Model", "rm": "Reward model", "proactivity": "Proactivity",
          "excluded_apps": "Excluded applications", "excluded_titles": "Excluded titles",
          "retention_days": "Keep history for", "idle_seconds": "Idle after",
          "popup_seconds": "Popup closes after", "snooze_minutes": "Snooze for", "web_search": "Web search",
          "activitywatch_text": "Publish text to ActivityWatch", "answer_model": "Answers model"}


def lines(text: str) -> list[str]:
    """One entry per non-blank line, surrounding spaces removed."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def schema_problem(error: ConfigError) -> str:
    """A schema error in the form's words: its label, the line of a list entry, what would be valid."""
    line = "" if error.index is None else f", line {error.index + 1}: {error.value!r}"
    return f"{LABELS.get(error.field, error.field)}{line}: {error.problem}."


def check_model(spec: str) -> str | None:
    """Why the model `spec` cannot be used now, or None: the registry's check, in the form's words."""
    problem = model_problem(spec)
    return f"Model: {problem}." if problem else None


def check_rm(spec: str) -> str | None:
    """Why the reward-model `spec` cannot be used now, or None: the registry's check, in the form's words."""
    problem = reward_problem(spec)
    return f"Reward model: {problem}." if problem else None


def write_config(config: Config, path: Path, keep: dict[str, Any] | None = None) -> None:
    """Write `config` to `path` atomically, private (0600), checked by `Config.load` before it replaces the file.

    Settings already in the file (`keep`) stay; other fields are written only when they differ from the
    default, so future default changes (new excluded apps) still reach the user."""
    defaults = Config()
    data = dict(keep or {})
    for f in dataclasses.fields(Config):
        value = getattr(config, f.name)
        if f.name in data or value != getattr(defaults, f.name):
            data[f.name] = value
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), 0o600)
            tomli_w.dump(data, out)
            out.flush()
            os.fsync(out.fileno())
        Config.load(Path(tmp))  # never install a file the assistant would refuse to start with
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_setting(name: str, value: Any, path: Path | None = None) -> None:
    """Set one setting in config.toml, the others staying as written: how the tray remembers an answer (the
    web-search question) without the settings window. ValueError or OSError when the file is unusable or cannot
    be written; it is then left as it was."""
    path = path or home.config_path()
    config = dataclasses.replace(Config.load(path), **{name: value}).check()
    raw = tomllib.loads(home.read_config_text(path)) if path.exists() else {}
    write_config(config, path, dict(raw, **{name: value}))


class SettingsWindow(QWidget):
    """A form over `watcher.home.Config`, saved to `config.toml` in the config folder (`home.config_path`).

    `saved(Config)` is emitted after a successful save. Of the new settings, proactivity, the exclusions
    (excluded applications, excluded title patterns) and the popup's timings are applied live by the tray; the model, the reward
    model, retention days and idle seconds take effect after a restart."""

    saved = Signal(object)

    def __init__(self, path: Path | None = None, parent: QWidget | None = None):
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

        self.model_edit = QComboBox()
        self.model_edit.setEditable(True)
        self.model_edit.addItems(MODEL_CHOICES)
        self.model_edit.setToolTip(MODEL_SPECS)
        self.model_browse = QPushButton("Browse…")
        self.model_browse.clicked.connect(self._browse_model)
        self.rm_edit = QComboBox()
        self.rm_edit.setEditable(True)
        self.rm_edit.addItems(RM_CHOICES)
        self.answer_model_edit = QComboBox()  # ask, off, or a model spec typed or chosen (assistant/answers.py)
        self.answer_model_edit.setEditable(True)
        self.answer_model_edit.addItems(["ask", "off"])
        self.answer_model_edit.setToolTip("The model that writes explanations and drafts when you accept an offer: "
                                          "a GGUF path or openai:BASE_URL#MODEL (see `proactive models`); off; or "
                                          "ask, to be offered a capable model found on this machine once")
        self.rm_edit.setToolTip(REWARD_SPECS)
        self.proactivity_combo = QComboBox()
        self.proactivity_combo.addItems(PROACTIVITY_LEVELS)
        self.excluded_apps_edit = QPlainTextEdit()
        self.excluded_apps_edit.setPlaceholderText("one application name per line")
        self.excluded_titles_edit = QPlainTextEdit()
        self.excluded_titles_edit.setPlaceholderText("one regular expression per line")
        self.retention_spin = QDoubleSpinBox()  # a fraction of a day is allowed (0.5 = 12 hours)
        self.retention_spin.setDecimals(2)
        self.retention_spin.setRange(SCHEMA["retention_days"].low, SCHEMA["retention_days"].high)
        self.retention_spin.setSuffix(" days")
        self.idle_spin = QDoubleSpinBox()
        self.idle_spin.setRange(SCHEMA["idle_seconds"].low, SCHEMA["idle_seconds"].high)
        self.idle_spin.setDecimals(1)
        self.idle_spin.setSuffix(" s")
        self.popup_spin = QDoubleSpinBox()
        self.popup_spin.setRange(SCHEMA["popup_seconds"].low, SCHEMA["popup_seconds"].high)
        self.popup_spin.setDecimals(0)
        self.popup_spin.setSuffix(" s")
        self.popup_spin.setToolTip("An unanswered proposal closes by itself after this time (counted as ignored)")
        self.snooze_spin = QDoubleSpinBox()
        self.snooze_spin.setDecimals(2)  # before the range, which Qt rounds to the decimals
        self.snooze_spin.setRange(SCHEMA["snooze_minutes"].low, SCHEMA["snooze_minutes"].high)
        self.snooze_spin.setSuffix(" min")
        self.snooze_spin.setToolTip("A snoozed proposal comes back after this time")
        self.web_search_combo = QComboBox()
        for value, text in WEB_SEARCH_CHOICES.items():
            self.web_search_combo.addItem(text, value)
        self.web_search_combo.setToolTip("Accepting a proposal about an error or a query can open a web search: it "
                                         "sends that text to duckduckgo.com")
        # the description is the consent: what is sent, and that aw-server keeps it unencrypted
        self.aw_text_check = QCheckBox("Publish typed and copied text to ActivityWatch")
        self.aw_text_note = QLabel("Off: ActivityWatch gets the application, window title and URL only. On: "
                                   "aw-server stores your text unencrypted in its own database, where purge "
                                   "cannot reach every copy (its WAL and backups).")
        self.aw_text_note.setWordWrap(True)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #b00020;")
        self.error_label.hide()
        self.save_button = QPushButton("Save")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self.save)
        self.diagnostics_button = QPushButton("Diagnostics…")
        self.diagnostics_button.setToolTip("What works here now (proactive doctor): session, capture sources, "
                                           "database, models")
        self.diagnostics_button.clicked.connect(self.show_diagnostics)
        self.diagnostics: DiagnosticsWindow | None = None
        self.note = QLabel("Proactivity, exclusions, popup timings and web search apply at once; model, reward "
                           "model, answers model, retention, idle time and ActivityWatch text after a restart.")
        self.note.setWordWrap(True)

        model_row = QHBoxLayout()
        model_row.addWidget(self.model_edit, 1)
        model_row.addWidget(self.model_browse)
        form = QFormLayout()
        form.addRow("Model", model_row)
        form.addRow("Reward model", self.rm_edit)
        form.addRow("Proactivity", self.proactivity_combo)
        form.addRow("Excluded applications", self.excluded_apps_edit)
        form.addRow("Excluded title patterns", self.excluded_titles_edit)
        form.addRow("Keep history for", self.retention_spin)
        form.addRow("Idle after", self.idle_spin)
        form.addRow("Popup closes after", self.popup_spin)
        form.addRow("Snooze for", self.snooze_spin)
        form.addRow("Web search", self.web_search_combo)
        form.addRow("Answers model", self.answer_model_edit)
        aw_box = QVBoxLayout()
        aw_box.addWidget(self.aw_text_check)
        aw_box.addWidget(self.aw_text_note)
        form.addRow("ActivityWatch", aw_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.diagnostics_button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.error_label)
        layout.addLayout(buttons)
        self.excluded_titles_edit.textChanged.connect(self._recheck_patterns)

        self.set_config(self.config)
        if load_error:
            self.show_error(load_error)
        self.resize(560, 640)

    # -- form <-> Config -------------------------------------------------------------------------------------

    def set_config(self, config: Config) -> None:
        self.config = config
        self.model_edit.setCurrentText(config.model)
        self.rm_edit.setCurrentText(config.rm)
        if self.proactivity_combo.findText(config.proactivity) < 0:  # a number in [0, 1], kept as written
            self.proactivity_combo.addItem(config.proactivity)
        self.proactivity_combo.setCurrentText(config.proactivity)
        self.excluded_apps_edit.setPlainText("\n".join(config.excluded_apps))
        self.excluded_titles_edit.setPlainText("\n".join(config.excluded_titles))
        self.retention_spin.setValue(float(config.retention_days))
        self.idle_spin.setValue(float(config.idle_seconds))
        self.popup_spin.setValue(float(config.popup_seconds))
        self.snooze_spin.setValue(float(config.snooze_minutes))
        self.web_search_combo.setCurrentIndex(self.web_search_combo.findData(config.web_search))
        self.aw_text_check.setChecked(config.activitywatch_text)
        self.answer_model_edit.setCurrentText(config.answer_model)

    def form_config(self) -> Config:
        """The config the form describes (fields it does not show are those of the loaded config)."""
        idle = self.idle_spin.value()
        return dataclasses.replace(
            self.config,
            model=self.model_edit.currentText().strip(),
            rm=self.rm_edit.currentText().strip(),
            proactivity=self.proactivity_combo.currentText(),
            excluded_apps=lines(self.excluded_apps_edit.toPlainText()),
            excluded_titles=lines(self.excluded_titles_edit.toPlainText()),
            retention_days=self.retention_spin.value(),
            idle_seconds=float(idle),
            popup_seconds=float(self.popup_spin.value()),
            snooze_minutes=float(self.snooze_spin.value()),
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
        """Check the form and write config.toml; returns whether it was saved (and `saved` emitted)."""
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
        self.show_error(None)
        self.config = config
        self.saved.emit(config)
        return True

    def show_error(self, message: str | None) -> None:
        self.error_label.setText(message or "")
        self.error_label.setVisible(bool(message))

    def _recheck_patterns(self) -> None:
        """Flag a bad regex as soon as it is typed (clears once fixed)."""
        try:
            check_setting("excluded_titles", lines(self.excluded_titles_edit.toPlainText()))
            problem = None
        except ConfigError as exc:
            problem = schema_problem(exc)
        if problem or self.error_label.text().startswith("Excluded titles"):
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
        from proactive.assistant.doctor import report as check
        from proactive.assistant.doctor import rows

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
