"""The settings window's own fields: a duration in the unit that reads best (`Duration`) and an editable list
(`EntryList`), each translating between what config.toml keeps and what a person reads."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from proactive.watcher.store.home import SCHEMA

#: the units a duration can be shown in: name -> (singular, seconds)
UNITS = {"seconds": ("second", 1), "minutes": ("minute", 60), "hours": ("hour", 3600), "days": ("day", 86400)}


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
