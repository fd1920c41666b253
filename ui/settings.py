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
on the next start.
"""

from __future__ import annotations

import dataclasses
import math
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
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
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
from proactive.watcher.store.home import (
    PROACTIVITY_LEVELS,
    SCHEMA,
    Config,
    ConfigError,
    check_setting,
    write_config,
)

from . import autostart
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
#: the units a duration can be shown in: name -> (singular, seconds)
UNITS = {"seconds": ("second", 1), "minutes": ("minute", 60), "hours": ("hour", 3600), "days": ("day", 86400)}


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


class NumberSpin(QDoubleSpinBox):
    """A spin box whose number has no float noise: 2, 2.5, never 2.00 (Qt pads to its decimals)."""

    def textFromValue(self, value: float) -> str:  # noqa: N802 (Qt's name)
        text = self.locale().toString(value, "f", self.decimals())
        point = self.locale().decimalPoint()
        return text.rstrip("0").rstrip(point) if point in text else text


class Duration(QWidget):
    """A duration setting as a number and a unit ("2 minutes", "30 days", "12 hours"), whatever unit config.toml
    keeps it in (`unit`). Why a unit choice and not one fixed suffix: the same setting reads best in seconds
    for some values and in minutes or days for others, and no unit then needs decimals ("120.0 s", "0.50 days").
    The schema's range for `field` bounds the number in whichever unit is chosen; the form still checks the value
    against the schema before saving."""

    def __init__(self, field: str, unit: str, units: tuple[str, ...], never: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.field, self.factor, self.never = field, UNITS[unit][1], never
        self.spin = NumberSpin()
        self.spin.setDecimals(2)
        if never:  # the schema's 0 (retention: keep everything) in words
            self.spin.setSpecialValueText(never)
        self.unit = QComboBox()
        for name in units:
            self.unit.addItem(name, name)
        self.shown_unit = units[0]
        self.loaded: tuple[float, float, str] = (math.nan, math.nan, "")  # set_value's value, as shown
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.spin)
        layout.addWidget(self.unit)
        layout.addStretch(1)
        self.spin.setMinimumWidth(90)
        self._set_range()
        self.unit.currentIndexChanged.connect(self._unit_changed)
        self.spin.valueChanged.connect(self._name_units)
        self.setToolTip(SCHEMA[field].meaning[0].upper() + SCHEMA[field].meaning[1:])

    def seconds(self) -> float:
        return self.spin.value() * UNITS[self.shown_unit][1]

    def value(self) -> float:
        """The duration in the config's unit: the value given to `set_value` while the person has not changed
        it (two decimals in the unit shown may round it: 0.001 days is 0.02 hours), else what the form says."""
        if (self.spin.value(), self.shown_unit) == self.loaded[1:]:
            return self.loaded[0]
        return self.seconds() / self.factor

    def set_value(self, value: float) -> None:
        """Show `value` (in the config's unit) in the largest unit that says it in whole or half units."""
        seconds = value * self.factor
        units = [self.unit.itemData(i) for i in range(self.unit.count())]
        best = next((u for u in reversed(units) if self._reads_well(seconds / UNITS[u][1])), units[0])
        if value == 0 and self.never:
            best = units[-1]
        self.unit.blockSignals(True)
        self.unit.setCurrentIndex(units.index(best))
        self.unit.blockSignals(False)
        self.shown_unit = best
        self._set_range()
        self.spin.setValue(seconds / UNITS[best][1])
        self.loaded = (value, self.spin.value(), best)
        self._name_units()

    def text(self) -> str:
        """What the person reads: "2 minutes", or the words for never."""
        if self.never and self.spin.value() == self.spin.minimum():
            return self.never
        return f"{self.spin.text()} {self.unit.currentText()}"

    @staticmethod
    def _reads_well(number: float) -> bool:
        return number >= 1 and math.isclose(number * 2, round(number * 2), abs_tol=1e-6)

    def _set_range(self) -> None:
        rule, size = SCHEMA[self.field], UNITS[self.shown_unit][1]
        self.spin.setRange(rule.low * self.factor / size, rule.high * self.factor / size)

    def _unit_changed(self) -> None:
        """The same duration in the newly chosen unit."""
        seconds = self.seconds()
        self.shown_unit = self.unit.currentData()
        self._set_range()
        self.spin.setValue(seconds / UNITS[self.shown_unit][1])

    def _name_units(self) -> None:
        """"1 minute", "2 minutes": the units' names agree with the number."""
        one = self.spin.value() == 1
        for i in range(self.unit.count()):
            singular = UNITS[self.unit.itemData(i)][0]
            self.unit.setItemText(i, singular if one else self.unit.itemData(i))
        self.unit.setVisible(not (self.never and self.spin.value() == self.spin.minimum()))


class EntryList(QWidget):
    """An editable list, one entry a row: double-click (or F2) edits a row, Add appends one and opens it for
    typing, Remove deletes the selected rows. `to_row` and `from_row` translate between what config.toml stores and
    what the row says (title patterns in words, `ui/titles.py`); blank rows are dropped."""

    changed = Signal()

    def __init__(self, placeholder: str, to_row: Callable[[str], str] = str, from_row: Callable[[str], str] = str,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.to_row, self.from_row = to_row, from_row
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.list.setToolTip(placeholder)
        self.list.itemChanged.connect(self._edited)
        self.add_button = QPushButton("Add")
        self.add_button.setToolTip(placeholder)
        self.add_button.clicked.connect(self.add)
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(self.remove_selected)
        buttons = QVBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)

    def set_entries(self, entries: list[str]) -> None:
        self.list.clear()
        for entry in entries:
            self._append(self.to_row(entry))
        self.changed.emit()

    def rows(self) -> list[str]:
        """The rows as shown, blank ones left out."""
        texts = (self.list.item(i).text().strip() for i in range(self.list.count()))
        return [text for text in texts if text]

    def entries(self) -> list[str]:
        """The rows as config.toml stores them."""
        return [self.from_row(text) for text in self.rows()]

    def add(self) -> QListWidgetItem:
        """A new empty row, selected and open for typing."""
        item = self._append("")
        self.list.setCurrentItem(item)
        self.list.editItem(item)
        return item

    def remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self.changed.emit()

    def _edited(self, item: QListWidgetItem) -> None:
        """A row was typed: shown as it is kept (surrounding spaces dropped)."""
        if item.text() != item.text().strip():
            item.setText(item.text().strip())  # comes back here once, already stripped
            return
        self.changed.emit()

    def _append(self, text: str) -> QListWidgetItem:
        item = QListWidgetItem(text)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.list.addItem(item)
        return item


class SettingsWindow(QWidget):
    """A form over `watcher.home.Config`, saved to `config.toml` in the config folder (`home.config_path`), and
    the login autostart switch.

    `saved(Config)` is emitted after a successful save. Of the new settings, proactivity, the exclusions
    (excluded applications, excluded title patterns) and the popup's timings are applied live by the tray; the
    model, the reward model, retention days and idle seconds take effect after a restart."""

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
        self.tabs = QTabWidget()
        for form, name in ((general, "General"), (privacy, "Privacy"), (models, "Models")):
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
