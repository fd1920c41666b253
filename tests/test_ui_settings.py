"""The settings window against a private PROACTIVE_HOME and XDG_CONFIG_HOME, offscreen (and on a real X server
under Xvfb: tests/test_ui_xvfb.py runs this module again on xcb), driven like a person would: rows typed into the
lists, Escape pressed, Cancel, Save and the autostart box clicked. Screenshots under test-artifacts/PLATFORM/."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import dataclasses  # noqa: E402
import stat  # noqa: E402
import tomllib  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QPoint, Qt  # noqa: E402
from PySide6.QtWidgets import QLineEdit  # noqa: E402

from proactive.ui import autostart  # noqa: E402
from proactive.ui.setting_fields import UNITS, EntryList  # noqa: E402
from proactive.ui.settings import SettingsWindow  # noqa: E402
from proactive.ui.titles import BUILT_IN, pattern_of, words  # noqa: E402
from proactive.watcher.privacy.filter import PrivacyFilter  # noqa: E402
from proactive.watcher.store import home  # noqa: E402
from proactive.watcher.store.home import (  # noqa: E402
    DEFAULT_EXCLUDED_TITLES,
    DEFAULT_PASSWORD_TITLES,
    SCHEMA,
    Config,
)
from tests.conftest import (
    ROOT,  # noqa: E402
    screenshot as shot,  # noqa: E402
)

OLD_CONFIG = (  # as an older version (or a person with a text editor) wrote it: raw regexes, numbers with .0
    'excluded_apps = ["slack", "zoom"]\n'
    'excluded_titles = ["(?i)payroll", "(?i)\\\\bbank\\\\b", "secret\\\\d+"]\n'
    'password_titles = ["(?i)\\\\bvault\\\\b"]\n'
    'idle_seconds = 45.0\n'
    'retention_days = 0.5\n'
    'snooze_minutes = 2.5\n'
    'popup_seconds = 60.0\n'
    'proposals = "popup"\n'
    'clipboard_max_chars = 500\n'
)


@pytest.fixture(autouse=True)
def xdg_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The autostart entry goes under a private XDG_CONFIG_HOME, never the developer's ~/.config."""
    folder = tmp_path / "xdg-config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    return folder


def screenshot(widget, name: str) -> Path:
    return shot(widget, f"settings_{name}.png")


def tick(qtbot, box) -> None:
    """Click a check box on its box, as a person does (its centre may be empty space in a wide form row)."""
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))


def opened(qtbot) -> SettingsWindow:
    window = SettingsWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def type_row(qtbot, entries: EntryList, text: str, row: int | None = None) -> None:
    """Type `text` into a row as a person does: Add (or a double-click on row `row`), the keys, Enter."""
    if row is None:
        qtbot.mouseClick(entries.add_button, Qt.MouseButton.LeftButton)
        index = entries.list.currentIndex()
    else:
        index = entries.list.model().index(row, 0)
        center = entries.list.visualRect(index).center()
        qtbot.mouseClick(entries.list.viewport(), Qt.MouseButton.LeftButton, pos=center)
        qtbot.mouseDClick(entries.list.viewport(), Qt.MouseButton.LeftButton, pos=center)
    editor = entries.list.indexWidget(index)
    assert isinstance(editor, QLineEdit), "the row did not open for typing"
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: entries.list.indexWidget(index) is None, timeout=2000)  # committed (queued) and closed


def test_defaults_load_into_the_form_in_words(qtbot, proactive_home):
    window = opened(qtbot)
    defaults = Config()
    assert window.model_edit.currentText() == "default"
    assert window.rm_edit.currentText() == "default"
    assert window.proactivity_combo.currentText() == "medium"
    assert window.proposals_combo.currentData() == "auto"
    assert "notification on Wayland" in window.proposals_combo.currentText()
    assert window.excluded_apps_edit.rows() == defaults.excluded_apps
    titles = window.excluded_titles_edit.rows()
    assert titles[:4] == ["private browsing", "incognito", "inprivate", "private window"]
    assert titles[4] == "keepass, 1password, bitwarden or lastpass"
    assert "pin" in window.password_titles_edit.rows() and "unlock" in window.password_titles_edit.rows()
    assert not any("\\" in row or "(?" in row for row in titles + window.password_titles_edit.rows())
    assert window.excluded_titles_edit.entries() == DEFAULT_EXCLUDED_TITLES
    assert window.password_titles_edit.entries() == DEFAULT_PASSWORD_TITLES
    assert [d.text() for d in (window.idle_edit, window.retention_edit, window.popup_edit, window.snooze_edit)] == [
        "2 minutes", "30 days", "30 seconds", "10 minutes"]
    assert window.web_search_combo.currentData() == "ask" and not window.aw_text_check.isChecked()
    assert "unencrypted" in window.aw_text_note.text() and "aw-server" in window.aw_text_note.text()
    assert not window.autostart_check.isChecked()
    assert not window.error_label.isVisible()
    assert not home.config_path().exists()  # opening the window writes nothing
    screenshot(window, "defaults")
    window.tabs.setCurrentIndex(1)
    screenshot(window, "privacy")
    # the Models tab says each choice in words, and follows what is typed or chosen
    assert "built-in model" in window.model_words.text() and "trained reward model" in window.rm_words.text()
    assert window.answer_model_edit.currentText() == "ask" and "asked once" in window.answer_words.text()
    window.answer_model_edit.setCurrentText("off")
    assert window.answer_words.text().startswith("Off:")
    window.model_edit.setCurrentText("openai:http://127.0.0.1:8080#qwen")
    assert window.model_words.text() == "The model qwen served at http://127.0.0.1:8080."
    window.tabs.setCurrentIndex(2)
    screenshot(window, "models")


def test_settings_window_at_1366x768(qtbot, proactive_home):
    """The window fits a 1366x768 laptop screen (its smallest size, with room for a panel), and a screenshot at
    that size shows the form stretched to it."""
    window = opened(qtbot)
    window.tabs.setCurrentIndex(1)  # the tallest page: the three lists
    hint = window.minimumSizeHint()
    assert hint.width() <= 1366 and hint.height() <= 768 - 48, hint
    assert window.width() <= 1366 and window.height() <= 768 - 48
    window.resize(1366, 768)
    path = screenshot(window, "1366x768")
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    assert (image.width(), image.height()) == (1366 * image.devicePixelRatio(), 768 * image.devicePixelRatio())


def test_typed_words_are_saved_as_a_working_pattern(qtbot, proactive_home):
    """Words typed into a new row become a case-insensitive whole-word pattern that the privacy filter applies;
    a row edited in place and a row removed are saved too; a regex between slashes is kept as written."""
    window = opened(qtbot)
    window.tabs.setCurrentIndex(1)
    type_row(qtbot, window.excluded_titles_edit, "bank statement")
    type_row(qtbot, window.excluded_titles_edit, r"/(?i)payroll \d+/")
    type_row(qtbot, window.excluded_titles_edit, "private tab", row=0)  # was "private browsing"
    type_row(qtbot, window.excluded_apps_edit, "  signal-desktop ")
    window.password_titles_edit.list.setCurrentRow(0)
    qtbot.mouseClick(window.password_titles_edit.remove_button, Qt.MouseButton.LeftButton)
    assert window.excluded_titles_edit.rows()[0] == "private tab"
    assert window.excluded_titles_edit.rows()[-2:] == ["bank statement", r"/(?i)payroll \d+/"]
    assert window.excluded_apps_edit.list.item(window.excluded_apps_edit.list.count() - 1).text() == "signal-desktop"
    screenshot(window, "typed")
    emitted = []
    window.saved.connect(emitted.append)
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert emitted and not window.isVisible()  # saved and closed
    saved = Config.load()
    assert saved.excluded_titles[0] == r"(?i)\bprivate tab\b"
    assert saved.excluded_titles[-2:] == [r"(?i)\bbank statement\b", r"(?i)payroll \d+"]
    assert saved.excluded_apps[-1] == "signal-desktop"
    assert saved.password_titles == DEFAULT_PASSWORD_TITLES[1:]
    assert emitted[0] == saved
    privacy = PrivacyFilter(saved)
    for title in ("Bank Statement - March.pdf", "BANK STATEMENT", "payroll 2024 - Calc", "Private Tab - Firefox"):
        assert privacy.is_excluded("evince", "evince", title), title
    for title in ("Bank statements.csv", "riverbank statement", "payroll - draft", "Private Browsing - Firefox"):
        assert not privacy.is_excluded("evince", "evince", title), title
    assert privacy.is_excluded("Signal", "signal-desktop", "Chat")
    assert privacy.is_password_title("PIN Code") and not privacy.is_password_title("Passcode Settings")
    assert stat.S_IMODE(home.config_path().stat().st_mode) == 0o600


def test_bad_regex_is_flagged_and_not_saved(qtbot, proactive_home):
    home.config_path().write_text('proactivity = "low"\n')
    before = home.config_path().read_bytes()
    window = opened(qtbot)
    window.tabs.setCurrentIndex(1)
    type_row(qtbot, window.excluded_titles_edit, "/(unclosed[/")
    assert window.error_label.isVisible()  # flagged as it is typed
    assert window.error_label.text().startswith("Windows never recorded, entry 6: '/(unclosed[/': not a valid "
                                                "regular expression")
    emitted = []
    window.saved.connect(emitted.append)
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert window.isVisible() and window.error_label.isVisible()
    assert home.config_path().read_bytes() == before and emitted == []
    screenshot(window, "invalid_regex")
    type_row(qtbot, window.excluded_titles_edit, "unclosed", row=5)
    assert not window.error_label.isVisible()


def test_escape_and_cancel_close_without_saving(qtbot, proactive_home, xdg_config):
    """Edits everywhere, then Escape (pressed in a duration field) or Cancel: the window closes, config.toml is
    byte-identical, no autostart entry appears, and a window opened again shows the file's settings."""
    path = home.config_path()
    path.write_text(OLD_CONFIG)
    before = path.read_bytes()
    for close in ("escape", "cancel"):
        window = opened(qtbot)
        type_row(qtbot, window.excluded_apps_edit, "firefox")
        window.idle_edit.spin.setValue(7)
        window.proposals_combo.setCurrentIndex(window.proposals_combo.findData("notification"))
        tick(qtbot, window.autostart_check)
        assert window.autostart_check.isChecked()
        if close == "escape":
            qtbot.keyClick(window.idle_edit.spin, Qt.Key.Key_Escape)
        else:
            qtbot.mouseClick(window.cancel_button, Qt.MouseButton.LeftButton)
        assert not window.isVisible(), close
        assert path.read_bytes() == before, close
        assert not autostart.entry_path().exists() and not (xdg_config / "autostart").exists()
        again = opened(qtbot)
        assert "firefox" not in again.excluded_apps_edit.rows()
        assert again.idle_edit.text() == "45 seconds" and again.proposals_combo.currentData() == "popup"


def test_old_raw_regex_config_loads_in_words_and_round_trips(qtbot, proactive_home):
    """A config with raw regexes (an older version's, or hand-written) shows each as words where they say the
    same, between slashes otherwise; saved untouched, the file's lists are the same patterns."""
    path = home.config_path()
    path.write_text(OLD_CONFIG)
    before = Config.load()
    window = opened(qtbot)
    window.tabs.setCurrentIndex(1)
    assert window.excluded_titles_edit.rows() == ["/(?i)payroll/", "bank", r"/secret\d+/"]
    assert window.password_titles_edit.rows() == ["vault"]
    assert window.excluded_apps_edit.rows() == ["slack", "zoom"]
    screenshot(window, "old_config")
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert not window.isVisible()
    assert Config.load() == before
    data = tomllib.loads(path.read_text())
    assert data["excluded_titles"] == ["(?i)payroll", r"(?i)\bbank\b", r"secret\d+"]
    assert data["password_titles"] == [r"(?i)\bvault\b"] and data["clipboard_max_chars"] == 500
    assert data["idle_seconds"] == 45 and data["retention_days"] == 0.5 and data["snooze_minutes"] == 2.5


def test_every_title_pattern_has_a_spelling_that_reads_back():
    """What a row shows reads back as the pattern it came from, for the built-ins and for patterns a person may
    have written by hand; what a person types reads as they meant it."""
    hand_written = [r"(?i)payroll", r"secret\d+", r"(?i)\bbank\b", r"(?i)\bC\+\+", "(?i)/x/", "", r"(?i)\ba.b\b",
                    r"(?i)\bTom's bank\b", r"(?i)\\bnot words\\b"]
    for pattern in DEFAULT_EXCLUDED_TITLES + DEFAULT_PASSWORD_TITLES + list(BUILT_IN) + hand_written:
        assert pattern_of(words(pattern)) == pattern, pattern
    assert words(r"(?i)\bprivate browsing\b") == "private browsing"
    assert pattern_of("C++") == r"(?i)\bC\+\+"  # no \b after "+", or "C++ docs" would not match
    assert pattern_of(" a.b ") == r"(?i)\ba\.b\b"  # a dot is a dot
    assert pattern_of("/a.b/") == "a.b"


def test_durations_in_words_without_float_noise(qtbot, proactive_home):
    path = home.config_path()
    path.write_text(OLD_CONFIG)
    window = opened(qtbot)
    assert [d.text() for d in (window.idle_edit, window.retention_edit, window.popup_edit, window.snooze_edit)] == [
        "45 seconds", "12 hours", "1 minute", "2.5 minutes"]
    for duration in (window.idle_edit, window.retention_edit, window.popup_edit, window.snooze_edit):
        assert ".0" not in duration.spin.text() and "0 " not in duration.text()[-8:], duration.text()
    window.popup_edit.unit.setCurrentIndex(window.popup_edit.unit.findData("seconds"))  # the same time, in seconds
    assert window.popup_edit.text() == "60 seconds"
    window.retention_edit.spin.setValue(0)
    assert window.retention_edit.text() == "for ever" and not window.retention_edit.unit.isVisible()
    window.idle_edit.unit.setCurrentIndex(window.idle_edit.unit.findData("minutes"))
    window.idle_edit.spin.setValue(3)
    screenshot(window, "durations")
    assert window.save()
    saved = Config.load()
    assert (saved.idle_seconds, saved.popup_seconds, saved.retention_days, saved.snooze_minutes) == (180, 60, 0, 2.5)
    assert "retention_days = 0" in path.read_text()


def test_an_odd_duration_is_kept_until_changed(qtbot, proactive_home):
    """A value the form rounds to show (0.001 days, 86.4 seconds, shows as 0.02 hours) is saved as it was written
    unless the person changes it."""
    home.config_path().write_text("retention_days = 0.001\nidle_seconds = 61.25\n")
    window = opened(qtbot)
    assert (window.retention_edit.text(), window.idle_edit.text()) == ("0.02 hours", "61.25 seconds")
    assert window.save()
    assert (Config.load().retention_days, Config.load().idle_seconds) == (0.001, 61.25)


def test_autostart_switch_adds_and_removes_the_entry(qtbot, proactive_home, xdg_config):
    entry = xdg_config / "autostart" / "proactive.desktop"
    assert autostart.entry_path() == entry
    window = opened(qtbot)
    assert not window.autostart_check.isChecked()
    tick(qtbot, window.autostart_check)
    screenshot(window, "autostart")
    assert not entry.exists()  # only Save switches it
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert entry.read_bytes() == (ROOT / "packaging" / "proactive-autostart.desktop").read_bytes()
    assert stat.S_IMODE(entry.stat().st_mode) == 0o644
    window = opened(qtbot)
    assert window.autostart_check.isChecked()  # the window shows the state it finds
    tick(qtbot, window.autostart_check)
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert not entry.exists()
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(autostart.ENTRY.replace("X-GNOME-Autostart-enabled=true", "X-GNOME-Autostart-enabled=false"))
    assert not opened(qtbot).autostart_check.isChecked()  # turned off in the desktop's own settings


def test_autostart_entry_is_the_packaged_one():
    """install-linux.sh --autostart and the settings window write the same file, so either undoes the other."""
    assert autostart.ENTRY == (ROOT / "packaging" / "proactive-autostart.desktop").read_text()


def test_proposals_setting_saved(qtbot, proactive_home):
    window = opened(qtbot)
    window.proposals_combo.setCurrentIndex(window.proposals_combo.findData("notification"))
    assert window.proposals_combo.currentText().startswith("A desktop notification")
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert Config.load().proposals == "notification"
    assert tomllib.loads(home.config_path().read_text()) == {"proposals": "notification"}  # only what changed


def test_save_writes_private_config_and_emits(qtbot, proactive_home, tmp_path):
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"GGUF")
    window = opened(qtbot)
    window.model_edit.setCurrentText(str(gguf))
    window.rm_edit.setCurrentText("signals")
    window.proactivity_combo.setCurrentText("high")
    window.excluded_apps_edit.set_entries(["keepassxc"])
    window.retention_edit.set_value(7)
    window.idle_edit.set_value(45)
    window.popup_edit.set_value(12)
    window.snooze_edit.set_value(2.5)
    window.web_search_combo.setCurrentIndex(window.web_search_combo.findData("off"))
    window.tabs.setCurrentIndex(1)
    tick(qtbot, window.aw_text_check)  # a real click on the box
    with qtbot.waitSignal(window.saved, timeout=2000) as blocker:
        qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    path = home.config_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in proactive_home.iterdir() if p.name.startswith(".config-")] == []  # no temp left
    loaded = Config.load()
    assert (loaded.model, loaded.rm, loaded.proactivity) == (str(gguf), "signals", "high")
    assert loaded.excluded_apps == ["keepassxc"]
    assert (loaded.retention_days, loaded.idle_seconds, loaded.popup_seconds, loaded.snooze_minutes) == (7, 45, 12, 2.5)
    assert (loaded.web_search, loaded.activitywatch_text) == ("off", True)
    assert blocker.args[0] == loaded


def test_existing_values_round_trip(qtbot, proactive_home):
    path = home.config_path()
    path.write_text('model = "openai:http://127.0.0.1:8080/v1#qwen"\n'
                    'rm = "llm:default"\n'
                    'proactivity = "low"\n'
                    'retention_days = 90\n'
                    'idle_seconds = 300\n'
                    'activitywatch = false\n'
                    'web_search = "on"\n'
                    'activitywatch_text = true\n')
    before = Config.load()
    window = opened(qtbot)
    assert window.model_edit.currentText() == "openai:http://127.0.0.1:8080/v1#qwen"
    assert window.rm_edit.currentText() == "llm:default"
    assert window.proactivity_combo.currentText() == "low"
    assert (window.retention_edit.text(), window.idle_edit.text()) == ("90 days", "5 minutes")
    assert window.web_search_combo.currentData() == "on" and window.aw_text_check.isChecked()
    screenshot(window, "existing")
    with qtbot.waitSignal(window.saved, timeout=2000):
        qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    assert Config.load() == before  # unchanged form -> same config, including the fields it does not show
    data = tomllib.loads(path.read_text())
    assert data["activitywatch"] is False
    assert "password_titles" not in data and "excluded_titles" not in data  # defaults not pinned into the file


def test_form_ranges_are_the_schemas(qtbot, proactive_home):
    """Whatever unit a duration is shown in, its range is the schema's (in the config's unit)."""
    window = opened(qtbot)
    for duration, name in [(window.retention_edit, "retention_days"), (window.idle_edit, "idle_seconds"),
                           (window.popup_edit, "popup_seconds"), (window.snooze_edit, "snooze_minutes")]:
        for i in range(duration.unit.count()):
            duration.unit.setCurrentIndex(i)
            size = UNITS[duration.unit.currentData()][1] / duration.factor
            assert duration.spin.maximum() * size == pytest.approx(SCHEMA[name].high), name
            # two decimals: the low end rounds up (1 second is 0.02 minutes)
            assert duration.spin.minimum() == pytest.approx(SCHEMA[name].low / size, abs=0.005), name


def test_schema_refuses_what_the_cli_refuses(qtbot, proactive_home):
    """The window checks with the schema `Config.load` uses: a blank model, an out-of-range number or a bad
    pattern in a setting the form does not show are refused with the schema's words, and nothing is written."""
    window = opened(qtbot)
    window.model_edit.setCurrentText("   ")
    assert window.save() is False
    assert window.error_label.text() == f"Model: {SCHEMA['model'].describe()}."
    window.model_edit.setCurrentText("default")
    window.config = dataclasses.replace(window.config, popup_seconds=0.5)  # the form cannot go there
    assert window.problems(window.config) == f"Popup closes after: {SCHEMA['popup_seconds'].describe()}."
    window.snooze_edit.unit.setCurrentIndex(window.snooze_edit.unit.findData("hours"))
    window.snooze_edit.spin.setValue(0)  # 0.05 minutes is 0.00 hours to two decimals: the schema refuses 0
    assert window.save() is False
    assert window.error_label.text() == f"Snooze for: {SCHEMA['snooze_minutes'].describe()}."
    window.snooze_edit.set_value(10)
    window.config = dataclasses.replace(window.config, popup_seconds=30, clipboard_max_chars=-1)
    assert window.save() is False
    assert window.error_label.text().startswith("clipboard_max_chars: must be an integer")
    assert not home.config_path().exists() and window.isVisible()
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


def test_the_learned_tab_says_what_was_learned_per_kind_and_resets_it(qtbot, proactive_home):
    """What the assistant learned about the person, read from the store, in words per kind, with Reset."""
    from proactive.assistant import person_store
    from proactive.assistant.person_model import Situation
    from proactive.assistant.proposals import ProposalLog
    from proactive.watcher.store.database import Store

    store = Store()
    error = Situation("About this error", "debugging", "a terminal")
    for i, decision in enumerate(["accepted", "rejected", "fewer"]):
        pid = ProposalLog(store).add(1000.0 + i, None, f"Explain the error {i}", "", 0.7,
                                     {person_store.SITUATION: person_store.situation_data(0.7, error)})
        ProposalLog(store).decide(pid, decision, ts=1001.0 + i)
    person_store.save_muted(store, {"A draft paragraph"})
    store.close()
    resets: list[bool] = []
    window = SettingsWindow(reset_learning=lambda: resets.append(True))
    qtbot.addWidget(window)
    window.show()
    window.tabs.setCurrentIndex([window.tabs.tabText(i) for i in range(window.tabs.count())].index("Learned"))
    assert window.learned.lines.text().splitlines() == [
        "A draft paragraph: never offered (you said: not this kind); 0 taken of 0 shown",
        "About this error: as for everyone; 1 taken of 3 shown"]
    assert "from your answers to 3 offers" in window.learned.summary.text()
    shot(window, "settings_learned.png")
    qtbot.mouseClick(window.learned.reset_button, Qt.MouseButton.LeftButton)
    assert resets == [True]
    assert window.learned.lines.text() == "Nothing learned yet: offers are made as for everyone."
