"""The settings window against a private PROACTIVE_HOME, offscreen, with screenshots."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import dataclasses  # noqa: E402
import stat  # noqa: E402
import tomllib  # noqa: E402
from pathlib import Path  # noqa: E402

from PySide6.QtCore import Qt  # noqa: E402

from proactive.ui.settings import SettingsWindow  # noqa: E402
from proactive.watcher import home  # noqa: E402
from proactive.watcher.home import SCHEMA, Config  # noqa: E402
from tests.conftest import screenshot as shot  # noqa: E402


def screenshot(widget, name: str) -> Path:
    return shot(widget, f"settings_{name}.png")


def form_lines(edit) -> list[str]:
    return edit.toPlainText().splitlines()


def test_defaults_load_into_the_form(qtbot, proactive_home):
    window = SettingsWindow()
    qtbot.addWidget(window)
    window.show()
    defaults = Config()
    assert window.model_edit.currentText() == "default"
    assert window.rm_edit.currentText() == "default"
    assert window.proactivity_combo.currentText() == "medium"
    assert form_lines(window.excluded_apps_edit) == defaults.excluded_apps
    assert form_lines(window.excluded_titles_edit) == defaults.excluded_titles
    assert window.retention_spin.value() == defaults.retention_days
    assert window.idle_spin.value() == defaults.idle_seconds
    assert (window.popup_spin.value(), window.snooze_spin.value()) == (30, 10)
    assert window.web_search_combo.currentData() == "ask" and not window.aw_text_check.isChecked()
    assert "unencrypted" in window.aw_text_note.text() and "aw-server" in window.aw_text_note.text()
    assert not window.error_label.isVisible()
    assert not home.config_path().exists()  # opening the window writes nothing
    screenshot(window, "defaults")


def test_save_writes_private_config_and_emits(qtbot, proactive_home, tmp_path):
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"GGUF")
    window = SettingsWindow()
    qtbot.addWidget(window)
    window.show()
    window.model_edit.setCurrentText(str(gguf))
    window.rm_edit.setCurrentText("signals")
    window.proactivity_combo.setCurrentText("high")
    window.excluded_apps_edit.setPlainText("keepassxc\n  signal-desktop  \n\n")
    window.excluded_titles_edit.setPlainText(r"(?i)\bbank\b" + "\n" + r"secret\d+")
    window.retention_spin.setValue(7)
    window.idle_spin.setValue(45)
    window.popup_spin.setValue(12)
    window.snooze_spin.setValue(2.5)
    window.web_search_combo.setCurrentIndex(window.web_search_combo.findData("off"))
    qtbot.mouseClick(window.aw_text_check, Qt.MouseButton.LeftButton)  # a real click on the box
    with qtbot.waitSignal(window.saved, timeout=2000) as blocker:
        qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    path = home.config_path()
    assert path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in proactive_home.iterdir() if p.name.startswith(".config-")] == []  # no temp left
    loaded = Config.load()
    assert loaded.model == str(gguf)
    assert loaded.rm == "signals"
    assert loaded.proactivity == "high"
    assert loaded.excluded_apps == ["keepassxc", "signal-desktop"]
    assert loaded.excluded_titles == [r"(?i)\bbank\b", r"secret\d+"]
    assert loaded.retention_days == 7
    assert loaded.idle_seconds == 45
    assert (loaded.popup_seconds, loaded.snooze_minutes) == (12, 2.5)
    assert (loaded.web_search, loaded.activitywatch_text) == ("off", True)
    data = tomllib.loads(home.config_path().read_text())
    assert (data["web_search"], data["activitywatch_text"]) == ("off", True)
    assert blocker.args[0] == loaded
    assert not window.error_label.isVisible()
    screenshot(window, "saved")


def test_invalid_regex_shows_error_and_does_not_write(qtbot, proactive_home):
    window = SettingsWindow()
    qtbot.addWidget(window)
    window.show()
    window.excluded_titles_edit.setPlainText("fine\n(unclosed[")
    assert window.error_label.isVisible()  # flagged as it is typed
    emitted = []
    window.saved.connect(emitted.append)
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert window.error_label.isVisible()
    assert "line 2" in window.error_label.text() and "(unclosed[" in window.error_label.text()
    assert not home.config_path().exists()
    assert emitted == []
    screenshot(window, "invalid_regex")
    window.excluded_titles_edit.setPlainText("fine")
    assert not window.error_label.isVisible()


def test_existing_values_round_trip(qtbot, proactive_home):
    path = home.config_path()
    path.write_text('model = "openai:http://127.0.0.1:8080/v1#qwen"\n'
                    'rm = "llm:default"\n'
                    'proactivity = "low"\n'
                    'excluded_apps = ["slack", "zoom"]\n'
                    'excluded_titles = ["(?i)payroll"]\n'
                    'retention_days = 90\n'
                    'idle_seconds = 300\n'
                    'clipboard_max_chars = 500\n'
                    'activitywatch = false\n'
                    'web_search = "on"\n'
                    'activitywatch_text = true\n')
    before = Config.load()
    window = SettingsWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.model_edit.currentText() == "openai:http://127.0.0.1:8080/v1#qwen"
    assert window.rm_edit.currentText() == "llm:default"
    assert window.proactivity_combo.currentText() == "low"
    assert form_lines(window.excluded_apps_edit) == ["slack", "zoom"]
    assert form_lines(window.excluded_titles_edit) == ["(?i)payroll"]
    assert window.retention_spin.value() == 90
    assert window.idle_spin.value() == 300
    assert window.web_search_combo.currentData() == "on" and window.aw_text_check.isChecked()
    screenshot(window, "existing")
    with qtbot.waitSignal(window.saved, timeout=2000):
        qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert Config.load() == before  # unchanged form -> same config, including the fields it does not show
    data = tomllib.loads(path.read_text())
    assert data["clipboard_max_chars"] == 500 and data["activitywatch"] is False
    assert "password_titles" not in data  # defaults not pinned into the file
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_form_ranges_are_the_schemas(qtbot, proactive_home):
    window = SettingsWindow()
    qtbot.addWidget(window)
    for spin, name in [(window.retention_spin, "retention_days"), (window.idle_spin, "idle_seconds"),
                       (window.popup_spin, "popup_seconds"), (window.snooze_spin, "snooze_minutes")]:
        assert (spin.minimum(), spin.maximum()) == (SCHEMA[name].low, SCHEMA[name].high), name


def test_schema_refuses_what_the_cli_refuses(qtbot, proactive_home):
    """The window checks with the schema `Config.load` uses: a blank model, an out-of-range number or a bad
    pattern in a setting the form does not show are refused with the schema's words, and nothing is written."""
    window = SettingsWindow()
    qtbot.addWidget(window)
    window.show()
    window.model_edit.setCurrentText("   ")
    assert window.save() is False
    assert window.error_label.text() == f"Model: {SCHEMA['model'].describe()}."
    window.model_edit.setCurrentText("default")
    window.config = dataclasses.replace(window.config, popup_seconds=0.5)  # the spin box cannot go there
    assert window.problems(window.config) == f"Popup closes after: {SCHEMA['popup_seconds'].describe()}."
    window.config = dataclasses.replace(window.config, popup_seconds=30, password_titles=["ok", "(?P<"])
    assert window.save() is False
    assert window.error_label.text().startswith("password_titles, line 2: '(?P<': not a valid regular expression")
    assert not home.config_path().exists()
    screenshot(window, "schema_refused")


def test_unusable_model_refused(qtbot, proactive_home):
    window = SettingsWindow()
    qtbot.addWidget(window)
    window.show()
    window.model_edit.setCurrentText("/nonexistent/model.gguf")
    assert window.save() is False
    assert "no such file" in window.error_label.text()
    window.model_edit.setCurrentText("openai:localhost:8080/v1#qwen")  # no scheme
    assert window.save() is False
    assert "must start with http:// or https://" in window.error_label.text()
    window.rm_edit.setCurrentText("llm:")
    window.model_edit.setCurrentText("default")
    assert window.save() is False
    assert "llm: needs a model" in window.error_label.text()
    assert not home.config_path().exists()
    screenshot(window, "bad_model")
    window.rm_edit.setCurrentText("default")
    window.answer_model_edit.setCurrentText("/nonexistent/big.gguf")  # the answers model: the same check
    assert window.save() is False
    assert window.error_label.text().startswith("Answers model: ") and "no such file" in window.error_label.text()
    window.answer_model_edit.setCurrentText("off")
    assert window.save() is True
    assert Config.load().answer_model == "off"


def test_diagnostics_show_the_doctors_report(qtbot, proactive_home, monkeypatch):
    """The settings window's Diagnostics button opens `proactive doctor`'s report as a read-only table: here,
    without a display, it says capture cannot work and what to do."""
    from proactive.assistant.doctor import rows

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "SWAYSOCK"):
        monkeypatch.delenv(name, raising=False)
    window = SettingsWindow()
    qtbot.addWidget(window)
    window.show()
    diagnostics = window.show_diagnostics()
    qtbot.addWidget(diagnostics)
    assert diagnostics.isVisible()
    cells = diagnostics.rows_text()
    assert [c[:3] for c in cells] == [[r["section"], r["item"], r["status"]] for r in rows(diagnostics.report)]
    capture = {c[1].split(":")[0]: c for c in cells if c[0] == "capture"}
    assert capture["desktop capture"][2] == "cannot work"
    assert "desktop session" in capture["desktop capture"][4]
    assert any(c[0] == "database" and c[1] == str(proactive_home / "proactive.db") for c in cells)
    assert {c[1] for c in cells if c[0] == "model"} == {"model: default", "reward model: default"}
    assert "neither WAYLAND_DISPLAY nor DISPLAY" in diagnostics.summary.text()
    assert not diagnostics.table.editTriggers() & diagnostics.table.EditTrigger.DoubleClicked  # read-only
    shot(diagnostics, "settings_diagnostics.png")
    assert window.show_diagnostics() is diagnostics  # opened again: the same window, checked again
    assert not home.config_path().exists()
