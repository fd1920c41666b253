"""The tray app end to end on the offscreen platform: a proposal emitted by the assistant appears in the popup;
Accept runs the help with the real default model and stores an `accepted` decision with latency and result;
Reject and the timeout store `rejected` and `ignored`; the same proposal is not shown again."""

from __future__ import annotations

import json
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from assistant.agent import Agent  # noqa: E402
from assistant.feedback import FeedbackMemory  # noqa: E402
from assistant.live import Assistant, Proposal  # noqa: E402
from assistant.policy import Gate, Proactivity, SignalScorer  # noqa: E402
from assistant.trigger import TriggerPolicy  # noqa: E402
from watcher.events import CLIPBOARD, WINDOW, RawEvent  # noqa: E402
from watcher.store import Store  # noqa: E402

from .conftest import screenshot  # noqa: E402


@pytest.fixture
def tray(qtbot, proactive_home, default_model):
    from ui.app import TrayApp

    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}, ts=1000.0),
                      RawEvent("clipboard", CLIPBOARD, {"text": "TimeoutError: timed out", "length": 23,
                                                        "truncated": False}, ts=1001.0)])
    store.close()
    p = Proactivity.parse("high")
    assistant = Assistant(None, Agent(default_model), Gate(SignalScorer(), p), FeedbackMemory(),
                          TriggerPolicy(p.min_interval_s))
    app = TrayApp(assistant, None, None, popup_timeout_s=30)
    yield app
    app.close()


def proposal(tray, task: str) -> Proposal:
    store = Store()
    pid = tray.assistant._store(store, 1002.0, None, task, "Want me to help?", 0.8, {"trigger": "episode"})
    store.close()
    return Proposal(pid, 1002.0, task, "Want me to help?", 0.8, "episode", {})


def decisions() -> list[tuple]:
    store = Store()
    rows = store.db.execute("SELECT proposal_id, decision, latency_s, result FROM decisions ORDER BY id").fetchall()
    store.close()
    return rows


def test_accept_runs_the_help_and_is_stored(qtbot, tray):
    p = proposal(tray, "Explain the TimeoutError from client.py")
    tray.assistant.on_proposal(p)  # what the assistant thread calls
    qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)
    popup = tray.popups[p.id]
    from PySide6.QtWidgets import QLabel

    assert any("Explain the TimeoutError" in label.text() for label in popup.findChildren(QLabel))
    screenshot(popup, "tray-popup.png")
    assert tray.state == "proposal"
    from PySide6.QtCore import Qt

    qtbot.mouseClick(popup.accept_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(decisions()), timeout=60000)
    [(pid, decision, latency, result)] = decisions()
    assert (pid, decision) == (p.id, "accepted") and latency >= 0
    assert json.loads(result)["kind"] in ("answer", "error")
    window = tray.windows[-1]
    assert window.text.toPlainText()
    screenshot(window, "tray-result.png")
    tray.assistant.on_proposal(p)  # the same proposal again: not shown
    qtbot.wait(200)
    assert p.id not in tray.popups


def test_reject_and_timeout_are_stored_and_not_repeated(qtbot, tray):
    from PySide6.QtCore import Qt

    rejected = proposal(tray, "Open the requests documentation on timeouts")
    tray.assistant.on_proposal(rejected)
    qtbot.waitUntil(lambda: rejected.id in tray.popups, timeout=5000)
    qtbot.mouseClick(tray.popups[rejected.id].reject_button, Qt.MouseButton.LeftButton)
    tray.popup_timeout_s = 0.3
    ignored = proposal(tray, "Summarise the Stack Overflow answer about retries")
    tray.assistant.on_proposal(ignored)
    qtbot.waitUntil(lambda: len(decisions()) == 2, timeout=5000)
    assert [(d[0], d[1]) for d in decisions()] == [(rejected.id, "rejected"), (ignored.id, "ignored")]
    memory = tray.assistant.memory
    assert memory.blocked("Open the requests documentation about timeouts") is not None
    assert memory.blocked("Summarise the Stack Overflow answer about retries") is not None
    assert tray.state == "capturing"


def test_fallback_window_and_pause(qtbot, tray):
    assert tray.fallback is not None  # offscreen: no system tray, the small window stands in
    screenshot(tray.fallback, "tray-fallback.png")
    tray.pause(900)
    assert tray.state == "paused" and "paused" in tray.status_label.text()
    tray.resume()
    assert tray.state == "capturing"


def test_one_instance(qtbot, tray):
    from ui.app import AlreadyRunning, TrayApp

    with pytest.raises(AlreadyRunning):
        TrayApp(tray.assistant, None, None)


def test_settings_apply_live(qtbot, tray):
    from watcher.home import Config

    config = Config()
    config.proactivity = "low"
    tray.apply_settings(config)
    assert tray.assistant.gate.proactivity.threshold == 0.75
    assert tray.assistant.trigger.min_interval_s == 300
    tray.open_settings()
    assert type(tray.windows[-1]).__name__ == "SettingsWindow"
