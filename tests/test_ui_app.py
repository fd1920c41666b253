"""The tray app end to end. It runs on the offscreen platform here, and again under Xvfb with a real system
tray through test_ui_xvfb.py (which sets PROACTIVE_TEST_TRAY=1 when trayer runs).

- The live loop: events from the watcher's pipeline close an episode, the assistant's thread proposes, the
  proposal appears in the popup, Accept runs the help and stores an `accepted` decision with its latency.
- Accept with the real default model; Reject and the timeout store `rejected` and `ignored`; Snooze brings
  the same proposal back later; a proposal is never shown twice.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QLabel, QSystemTrayIcon  # noqa: E402

from proactive.assistant.agent import Agent  # noqa: E402
from proactive.assistant.feedback import FeedbackMemory  # noqa: E402
from proactive.assistant.live import Assistant, Proposal  # noqa: E402
from proactive.assistant.policy import Gate, Proactivity  # noqa: E402
from proactive.assistant.proposals import ProposalLog
from proactive.assistant.trigger import TriggerPolicy  # noqa: E402
from proactive.models.openai_http import OpenAICompatible  # noqa: E402
from proactive.models.signals import SignalScorer  # noqa: E402
from proactive.watcher.events import CLIPBOARD, WINDOW, RawEvent  # noqa: E402
from proactive.watcher.pipeline import Watcher  # noqa: E402
from proactive.watcher.store.database import Store  # noqa: E402
from proactive.watcher.store.home import Config  # noqa: E402

from .conftest import ListSource, open_tray, screenshot  # noqa: E402
from .models_support import FIX_TASK, assistant_replies  # noqa: E402

EXPECT_TRAY = os.environ.get("PROACTIVE_TEST_TRAY") == "1"


def make_assistant(model) -> Assistant:
    level = Proactivity.parse("high")
    return Assistant(None, Agent(model), Gate(SignalScorer(), level), FeedbackMemory(),
                     TriggerPolicy(level.min_interval_s, min_gap_s=0))


@pytest.fixture
def tray(qtbot, proactive_home, default_model, browser):

    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}, ts=1000.0),
                      RawEvent("clipboard", CLIPBOARD, {"text": "TimeoutError: timed out", "length": 23,
                                                        "truncated": False}, ts=1001.0)])
    store.close()
    app = open_tray(make_assistant(default_model), Config(popup_seconds=30, web_search="on"))
    yield app
    app.close()


def proposal(tray, task: str) -> Proposal:
    store = Store()
    pid = ProposalLog(store).add(1002.0, None, task, "Want me to help?", 0.8, {"trigger": "episode"})
    store.close()
    return Proposal(pid, 1002.0, task, "Want me to help?", 0.8, "episode")


def decisions() -> list[tuple]:
    store = Store()
    rows = store.db.execute("SELECT proposal_id, decision, latency_s, result FROM decisions ORDER BY id").fetchall()
    store.close()
    return rows


def popup_text(popup) -> str:
    return " ".join(label.text() for label in popup.findChildren(QLabel))


def test_live_loop_proposal_reaches_the_popup(qtbot, proactive_home, scripted, browser):
    """Watcher pipeline -> episode closes -> assistant thread proposes -> popup -> Accept -> help -> decision."""

    scripted.answer_with(assistant_replies())
    assistant = make_assistant(OpenAICompatible(scripted.url, "m"))
    app = open_tray(assistant, Config(popup_seconds=30, web_search="on"))
    source = ListSource([  # the real-input path is test_ui_xvfb.py
        RawEvent("window", WINDOW, {"app": "XTerm", "title": "client.py - shell"}),
        RawEvent("clipboard", CLIPBOARD, {"text": "Traceback (most recent call last):\nTimeoutError: timed out",
                                          "length": 60, "truncated": False}),
        RawEvent("window", WINDOW, {"app": "Firefox", "title": "requests timeout - Google Search"}),
    ])
    watcher = Watcher(None, Config(), [source], flush_interval=0.1, on_episode=assistant.on_episode,
                      on_events=assistant.on_events)
    capture = threading.Thread(target=watcher.run, daemon=True)
    started = time.monotonic()  # the popup cannot have been seen before this
    assistant.start()
    capture.start()
    try:
        qtbot.waitUntil(lambda: bool(app.popups), timeout=30000)
        [(pid, popup)] = app.popups.items()
        assert FIX_TASK in popup_text(popup)  # a capable model's grounded task, shown as written
        assert app.state == "proposal"
        screenshot(popup, "live-popup.png")
        qtbot.mouseClick(popup.accept_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: bool(decisions()), timeout=30000)
        qtbot.waitUntil(lambda: not app.helping, timeout=30000)  # the help's result shown
        [(decided_id, decision, latency, result)] = decisions()
        assert (decided_id, decision) == (pid, "accepted") and 0 < latency <= time.monotonic() - started
        stored = json.loads(result)  # a task naming an error: its history, a web search, and the model's answer
        assert stored["parts"] == ["history", "search", "answer"] and stored["kind"] == "answer"
        assert stored["answer"] == "TimeoutError: timed out means the server was slow: requests.get(url, timeout=30)."
        assert browser.read_text().splitlines() == [stored["url"]]
        assert app.windows[-1].text.toPlainText().startswith("TimeoutError: timed out means")
        assert app.state == "capturing"
        store = Store()
        triggers = [t for (t,) in store.db.execute("SELECT json_extract(data, '$.trigger') FROM proposals")]
        store.close()
        assert triggers and set(triggers) <= {"episode", "app-change", "moment"}, triggers
    finally:
        watcher.stop()
        capture.join(10)
        assistant.stop()
        app.close()


def test_accept_runs_the_help_with_the_default_model(qtbot, tray):
    p = proposal(tray, "Explain the TimeoutError from client.py")
    started = time.monotonic()
    tray.backend.assistant.on_proposal(p)  # what the assistant thread calls
    qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)
    popup = tray.popups[p.id]
    assert "Explain the TimeoutError" in popup_text(popup)
    screenshot(popup, "tray-popup.png")
    assert tray.state == "proposal"
    qtbot.mouseClick(popup.accept_button, Qt.MouseButton.LeftButton)
    assert tray.state == "thinking"  # the help is being produced
    qtbot.waitUntil(lambda: bool(decisions()), timeout=60000)
    qtbot.waitUntil(lambda: not tray.helping, timeout=30000)  # the help's result shown
    [(pid, decision, latency, result)] = decisions()
    assert (pid, decision) == (p.id, "accepted") and 0 < latency <= time.monotonic() - started
    stored = json.loads(result)  # the built-in model's answer is shown only if grounded; the search always opens
    assert stored["parts"][:2] == ["history", "search"] and stored["text"] == tray.windows[-1].text.toPlainText()
    window = tray.windows[-1]
    assert window.text.toPlainText()
    screenshot(window, "tray-result.png")
    window.copy_button.click()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == window.text.toPlainText()
    tray.backend.assistant.on_proposal(p)  # the same proposal again: not shown
    qtbot.wait(200)
    assert p.id not in tray.popups


def test_reject_and_timeout_are_stored_and_not_repeated(qtbot, tray):
    rejected = proposal(tray, "Open the requests documentation on timeouts")
    tray.backend.assistant.on_proposal(rejected)
    qtbot.waitUntil(lambda: rejected.id in tray.popups, timeout=5000)
    qtbot.mouseClick(tray.popups[rejected.id].reject_button, Qt.MouseButton.LeftButton)
    tray.popup_timeout_s = 0.3
    ignored = proposal(tray, "Summarise the Stack Overflow answer about retries")
    tray.backend.assistant.on_proposal(ignored)
    qtbot.waitUntil(lambda: len(decisions()) == 2, timeout=5000)
    assert [(d[0], d[1]) for d in decisions()] == [(rejected.id, "rejected"), (ignored.id, "ignored")]
    memory = tray.backend.assistant.memory
    assert memory.blocked("Open the requests documentation about timeouts") is not None
    assert memory.blocked("Summarise the Stack Overflow answer about retries") is not None
    assert tray.state == "capturing"
    for p in (rejected, ignored):
        tray.backend.assistant.on_proposal(p)
    qtbot.wait(200)
    assert not tray.popups


def test_a_newer_offer_replaces_the_unanswered_one(qtbot, tray):
    """One offer on screen at a time: a newer one (a new error, at once) takes the place of one still unanswered,
    which is stored as ignored (History: not answered) and held back by the memory."""
    older = proposal(tray, "Explain the TimeoutError from client.py")
    tray.backend.assistant.on_proposal(older)
    qtbot.waitUntil(lambda: older.id in tray.popups, timeout=5000)
    shown = tray.popups[older.id]
    newer = proposal(tray, "Give the next step for the error 'KeyError: user'")
    tray.backend.assistant.on_proposal(newer)
    qtbot.waitUntil(lambda: newer.id in tray.popups, timeout=5000)
    assert list(tray.popups) == [newer.id] and not shown.isVisible()
    assert "KeyError" in popup_text(tray.popups[newer.id]) and tray.state == "proposal"
    assert [(d[0], d[1]) for d in decisions()] == [(older.id, "ignored")]
    assert older.id not in tray.backend.offers and newer.id in tray.backend.offers
    assert tray.backend.assistant.memory.blocked(older.task) is not None


def test_an_offer_not_answered_is_taken_from_history(qtbot, tray):
    """An offer made by the assistant whose popup timed out stays in History as "not answered"; its Accept there
    runs the same Accept, through the tray's backend, on the offer's own stored moment (the copied TimeoutError),
    and stores an accepted decision with what the help did; the row then says accepted."""
    assistant = tray.backend.assistant
    tray.popup_timeout_s = 0.3
    store = Store()
    try:
        assistant.trigger.episode_closed(app_changed=True)
        made = assistant.step(store, now=time.time())
    finally:
        store.close()
    assert made is not None and made.task is not None and "TimeoutError" in made.task, made.decision
    qtbot.waitUntil(lambda: [d[1] for d in decisions()] == ["ignored"], timeout=5000)  # the popup timed out
    history = tray.open_history()
    history.outcome_filter.setCurrentText("Not answered")
    assert history.table.rowCount() == 1 and history.table.item(0, 4).text() == "not answered"
    assert history.accept_button.isVisible() and not history.accept_button.isEnabled()
    history.table.selectRow(0)
    assert history.accept_button.isEnabled()
    screenshot(history, "history-not-answered.png")
    qtbot.mouseClick(history.accept_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(decisions()) == 2, timeout=60000)
    qtbot.waitUntil(lambda: not tray.helping, timeout=30000)  # the help's result shown
    pid, decision, _, result = decisions()[-1]
    assert (pid, decision) == (made.id, "accepted")
    done = json.loads(result)
    assert "search" in done["parts"] and "TimeoutError" in done["url"] + done["text"], done
    assert tray.windows[-1].text.toPlainText() == done["text"]
    history.outcome_filter.setCurrentText("Accepted")
    qtbot.waitUntil(lambda: history.table.rowCount() == 1, timeout=5000)  # it follows the database


def test_snoozed_proposal_comes_back_once(qtbot, tray):
    tray.snooze_s = 0.5
    p = proposal(tray, "Write a retry wrapper for client.py")
    tray.backend.assistant.on_proposal(p)
    qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)
    qtbot.mouseClick(tray.popups[p.id].snooze_button, Qt.MouseButton.LeftButton)
    assert p.id not in tray.popups and p.id in tray.snoozed and tray.state == "capturing"
    assert [d[1] for d in decisions()] == ["snoozed"]
    tray.backend.assistant.on_proposal(p)  # the assistant cannot bring it back early
    assert p.id not in tray.popups
    qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)  # the snooze ran out: shown again
    assert "retry wrapper" in popup_text(tray.popups[p.id]) and tray.state == "proposal"
    qtbot.mouseClick(tray.popups[p.id].reject_button, Qt.MouseButton.LeftButton)
    assert [d[1] for d in decisions()] == ["snoozed", "rejected"]
    qtbot.wait(800)
    assert not tray.popups and not tray.snoozed  # answered: it does not come back


def test_snooze_ending_while_paused_waits_for_resume(qtbot, tray):
    tray.snooze_s = 0.2
    p = proposal(tray, "Write a retry wrapper for client.py")
    tray.backend.assistant.on_proposal(p)
    qtbot.waitUntil(lambda: p.id in tray.popups, timeout=5000)
    tray.popups[p.id].decide("snoozed")
    tray.pause(None)
    qtbot.waitUntil(lambda: not tray.snoozed, timeout=5000)
    assert not tray.popups and tray.waiting == [p] and tray.state == "paused"
    tray.resume()
    assert p.id in tray.popups and tray.state == "proposal"


def test_tray_menu_states_and_pause(qtbot, tray):
    if EXPECT_TRAY:  # under Xvfb with trayer: the real tray icon, not the fallback window
        assert QSystemTrayIcon.isSystemTrayAvailable()
        assert tray.tray is not None and tray.tray.isVisible() and tray.fallback is None
        qtbot.waitUntil(lambda: tray.tray.geometry().width() > 0, timeout=5000)  # embedded in the tray
        from PySide6.QtGui import QGuiApplication

        screen = QGuiApplication.primaryScreen()
        shot = screen.grabWindow(0)
        assert not shot.isNull()
        screenshot_path = screenshot(tray.menu, "tray-menu.png")
        assert screenshot_path.exists()
        shot.save(str(screenshot_path.parent / "tray-screen.png"))
    else:  # offscreen: no system tray, the small window stands in
        assert tray.tray is None and tray.fallback is not None and tray.fallback.isVisible()
        screenshot(tray.fallback, "tray-fallback.png")
        tray.fallback.close()  # the only handle on the app: closing it minimises it
        assert tray.fallback.isVisible() and tray.fallback.isMinimized()
        tray.fallback.showNormal()
    assert tray.state == "capturing" and tray.status_action.text() == "Proactive: capturing"
    # the pause controls: the menu's and, without a system tray, the window's (timed pauses there too)
    labels = ["Pause", "Pause for 15 minutes", "Pause for 1 hour", "Resume"]
    assert [label for label, _ in tray.pause_controls] == labels * (1 if tray.fallback is None else 2)
    assert all(w.isEnabled() == (label != "Resume") for label, w in tray.pause_controls)
    tray.action("Pause for 15 minutes").trigger()
    assert all(w.isEnabled() == (label == "Resume") for label, w in tray.pause_controls)  # only Resume now
    assert tray.state == "paused" and tray.pause_timer.isActive()
    assert abs(tray.pause_timer.remainingTime() - 900_000) < 10_000
    if tray.fallback is not None:
        assert "paused" in tray.status_label.text()
    tray.action("Resume").trigger()
    assert tray.state == "capturing" and not tray.pause_timer.isActive()
    assert all(w.isEnabled() == (label != "Resume") for label, w in tray.pause_controls)
    tray.pause(0.3)  # a timed pause ends by itself
    assert tray.state == "paused"
    qtbot.waitUntil(lambda: tray.state == "capturing", timeout=3000)
    tray.bridge.busy(True)  # the assistant's model started generating
    assert tray.state == "thinking" and tray.status_action.text() == "Proactive: thinking"
    tray.bridge.busy(False)
    assert tray.state == "capturing"
    tray.action("History").trigger()
    assert type(tray.windows[-1]).__name__ == "HistoryWindow" and tray.windows[-1].isVisible()
    tray.action("Why quiet?").trigger()  # the history on the silent moments, each with its reason
    assert tray.windows[-1].outcome_filter.currentText() == "Silent" and tray.windows[-1].isVisible()


def test_one_instance(qtbot, tray):
    from proactive.ui.app import AlreadyRunning, TrayApp

    with pytest.raises(AlreadyRunning):
        TrayApp(tray.backend, None)


def test_settings_apply_live(qtbot, tray):
    config = Config()
    config.proactivity = "low"
    config.popup_seconds = 12
    config.snooze_minutes = 2
    tray.apply_settings(config)
    assert tray.backend.assistant.gate.proactivity.threshold == 0.75
    assert tray.backend.assistant.trigger.min_interval_s == 300
    assert tray.popup_timeout_s == 12 and tray.snooze_s == 120
    tray.open_settings()
    assert type(tray.windows[-1]).__name__ == "SettingsWindow"


def consent_dialog(qtbot):
    """The web-search question once it is on screen (a real top-level dialog, found as the person sees it)."""
    from PySide6.QtWidgets import QApplication

    from proactive.ui.consent import ConsentDialog

    def shown() -> list:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, ConsentDialog) and w.isVisible()]

    qtbot.waitUntil(lambda: bool(shown()), timeout=5000)
    [dialog] = shown()
    return dialog


def accept_and_answer(qtbot, app, task: str, button: str | None) -> dict:
    """Accept a proposal of `task` in its popup; click `button` in the web-search question (None: no question
    may appear); returns the stored result of the decision."""
    from proactive.ui.consent import ConsentDialog

    p = proposal(app, task)
    app.backend.assistant.on_proposal(p)
    qtbot.waitUntil(lambda: p.id in app.popups, timeout=5000)
    qtbot.mouseClick(app.popups[p.id].accept_button, Qt.MouseButton.LeftButton)
    if button is not None:
        dialog = consent_dialog(qtbot)
        assert dialog.text() == ("Accepting sends 'TimeoutError: timed out' to duckduckgo.com. "
                                 "Allow web searches?")
        screenshot(dialog, f"consent-{button.replace(' ', '-').lower()}.png")
        [clicked] = [b for b in dialog.answer_buttons.values() if b.text() == button]
        qtbot.mouseClick(clicked, Qt.MouseButton.LeftButton)
        assert not dialog.isVisible()
    qtbot.waitUntil(lambda: any(d[0] == p.id for d in decisions()), timeout=30000)
    qtbot.waitUntil(lambda: not app.helping, timeout=30000)  # the help's result shown
    assert not any(isinstance(w, ConsentDialog) and w.isVisible() for w in app.windows)  # asked at most once
    [result] = [json.loads(d[3]) for d in decisions() if d[0] == p.id]
    assert result["text"] == app.windows[-1].text.toPlainText()  # the result window says what was sent where
    return result


@pytest.mark.parametrize("button", ["Always", "Not now", "Never"])
def test_web_search_consent_is_asked_and_remembered(qtbot, proactive_home, scripted, browser, button):
    """web_search = "ask": the first Accept that would search asks in a dialog what it would send where. Always
    opens the search and writes web_search = "on" (the next Accept searches without asking); Never writes "off"
    and opens nothing, then or later; Not now opens nothing this time, keeps "ask" and asks again next time.
    The other settings in config.toml stay as they were."""

    config_file = proactive_home / "config.toml"
    config_file.write_text('proactivity = "high"\nweb_search = "ask"\n')
    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}, ts=1000.0),
                      RawEvent("clipboard", CLIPBOARD, {"text": "TimeoutError: timed out", "length": 23,
                                                        "truncated": False}, ts=1001.0)])
    store.close()
    scripted.answer_with(assistant_replies())
    app = open_tray(make_assistant(OpenAICompatible(scripted.url, "m")), Config.load())
    task = "Explain the TimeoutError from client.py"
    try:
        first = accept_and_answer(qtbot, app, task, button)
        second = accept_and_answer(qtbot, app, task, "Not now" if button == "Not now" else None)
    finally:
        app.close()
    saved = Config.load()
    assert saved.proactivity == "high"
    opened = browser.read_text().splitlines() if browser.exists() else []
    url = "https://duckduckgo.com/?q=TimeoutError%3A+timed+out"
    if button == "Always":
        assert saved.web_search == "on" and opened == [url, url]
        for result in (first, second):
            assert "search" in result["parts"]
            assert "Sent 'TimeoutError: timed out' to duckduckgo.com (web search)" in result["text"]
    elif button == "Never":
        assert saved.web_search == "off" and opened == []
        for result in (first, second):
            assert "search" not in result["parts"] and 'web_search = "off"' in result["text"]
    else:
        assert saved.web_search == "ask" and opened == []
        for result in (first, second):
            assert "search" not in result["parts"]
            assert "not to send 'TimeoutError: timed out' to duckduckgo.com this time" in result["text"]


def test_a_purge_from_the_tray_closes_the_trays_own_readers(qtbot, proactive_home, scripted):
    """The tray's history window's connection holds a read transaction (BEGIN; SELECT, as a reader in
    test_purge.py does): a privacy view on its own cannot purge past it ("another program" holds the database);
    the tray's Privacy view closes the tray's connections first, purges every byte, and the history window and
    the tray's store work again after."""
    from proactive.ui.privacy import PrivacyView

    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": f"TrayPurgeCanary {i}"}, ts=1000.0 + i)
                      for i in range(5)])
    store.close()
    config = Config(activitywatch=False)
    app = open_tray(make_assistant(OpenAICompatible(scripted.url, "m")), config)
    try:
        app.action("History").trigger()
        history = app.windows[-1]
        history.store.db.execute("BEGIN")
        assert history.store.db.execute("SELECT count(*) FROM raw_events").fetchall() == [(5,)]
        alone = PrivacyView(confirm=lambda _q: True, config=config)
        qtbot.addWidget(alone)
        alone.purge_wait = 0.5
        assert not alone.purge_everything()
        assert "another program holds the database open" in alone.removed.text()
        app.action("Privacy").trigger()
        view = app.windows[-1]
        assert isinstance(view, PrivacyView)
        view.confirm = lambda _q: True
        view.purge_wait = 1.0
        assert view.purge_everything(), view.removed.text()
        assert "WAL truncated" in view.removed.text()
        screenshot(view, "tray-privacy-purged.png")
        history.refresh()  # reopened: the window reads again
        assert history.store.count("raw_events") == 0
        ProposalLog(app.store).decide(1, "rejected", 1.0)  # the tray's own store is open again
    finally:
        app.close()
    db = proactive_home / "proactive.db"
    assert b"TrayPurgeCanary" not in db.read_bytes()
    wal = db.with_name("proactive.db-wal")
    assert not wal.exists() or b"TrayPurgeCanary" not in wal.read_bytes()


@pytest.mark.parametrize("button", ["Use it", "No"])
def test_a_model_server_found_here_is_offered_once_for_answers(qtbot, proactive_home, scripted, llama_server,
                                                               button):
    """A real llama-cpp-python server on loopback: the tray finds it and asks once whether to write answers with
    it. "Use it" writes its spec to answer_model and loads it as the agent's answers model (offers may then
    promise an explanation); "No" writes "off". Either way a second look asks nothing."""
    from PySide6.QtWidgets import QApplication

    from proactive.ui.consent import AnswerModelDialog

    port = int(llama_server.rsplit(":", 1)[1].split("/")[0])
    (proactive_home / "config.toml").write_text('proactivity = "high"\n')

    def dialogs() -> list:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, AnswerModelDialog) and w.isVisible()]

    small = OpenAICompatible(scripted.url, "m")
    small.capable = False  # as the built-in model: no written answers promised
    app = open_tray(make_assistant(small), Config.load())
    try:
        assert not app.backend.assistant.agent.writes
        app.look_for_answer_model(ports=((port, "llama-server"),))
        qtbot.waitUntil(lambda: bool(dialogs()), timeout=10000)
        [dialog] = dialogs()
        assert f"llama-server on 127.0.0.1:{port}" in dialog.text() and "nothing is sent elsewhere" in dialog.text()
        screenshot(dialog, f"answer-model-{button.replace(' ', '-').lower()}.png")
        [clicked] = [b for b in dialog.answer_buttons.values() if b.text() == button]
        qtbot.mouseClick(clicked, Qt.MouseButton.LeftButton)
        saved = Config.load()
        assert saved.proactivity == "high"
        if button == "Use it":
            assert saved.answer_model.startswith(f"openai:http://127.0.0.1:{port}/v1#")
            qtbot.waitUntil(lambda: app.backend.assistant.agent.answers is not None, timeout=30000)
            assert app.backend.assistant.agent.writes
        else:
            assert saved.answer_model == "off" and app.backend.assistant.agent.answers is None
        app.look_for_answer_model(ports=((port, "llama-server"),))  # remembered: not asked again
        qtbot.wait(1500)
        assert not dialogs()
    finally:
        app.close()


class _StoppedWatcher:
    """What the tray asks of a running watcher at close, and nothing else: the tray here runs no capture."""

    def stop(self) -> None:
        pass


@pytest.mark.parametrize("button", ["Turn it on", "No"])
def test_the_tray_asks_once_to_turn_accessibility_on(qtbot, proactive_home, tmp_path, fake_model, monkeypatch,
                                                      button):
    """A real session bus with the real AT-SPI bus launcher, accessibility off: the tray asks whether to turn it on
    (typing in applications is counted only until then). "Turn it on" sets org.a11y.Status.IsEnabled (read back)
    and writes accessibility = "on"; "No" writes "off" and leaves the desktop's setting alone. Either way a second
    start asks nothing."""
    from PySide6.QtWidgets import QApplication

    from bench.wayland_session import _start_atspi, start_private_bus
    from proactive.ui.consent import AccessibilityDialog
    from proactive.watcher.capture.atspi import toolkit_accessibility

    folder = tmp_path / "bus"
    folder.mkdir()
    bus, address = start_private_bus(folder, dict(os.environ))
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, GSETTINGS_BACKEND="memory")
    launcher = _start_atspi(env)
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)

    def dialogs() -> list:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, AccessibilityDialog) and w.isVisible()]

    try:
        assert launcher is not None and toolkit_accessibility() is False
        app = open_tray(make_assistant(fake_model), Config.load(), _StoppedWatcher())
        try:
            qtbot.waitUntil(lambda: bool(dialogs()), timeout=5000)
            [dialog] = dialogs()
            assert "password fields" in dialog.text() and "how many characters" in dialog.text()
            screenshot(dialog, f"accessibility-{button.replace(' ', '-').lower()}.png")
            [clicked] = [b for b in dialog.answer_buttons.values() if b.text() == button]
            qtbot.mouseClick(clicked, Qt.MouseButton.LeftButton)
            assert Config.load().accessibility == ("on" if button == "Turn it on" else "off")
            assert toolkit_accessibility() is (button == "Turn it on")
        finally:
            app.close()
        again = open_tray(make_assistant(fake_model), Config.load(), _StoppedWatcher())
        try:
            qtbot.wait(300)
            assert not dialogs()
        finally:
            again.close()
    finally:
        for proc in (launcher, bus):
            if proc is not None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(10)


def test_without_an_accessibility_bus_the_tray_says_typing_is_only_counted(qtbot, proactive_home, tmp_path,
                                                                           fake_model, monkeypatch, caplog):
    """No bus answers (a session bus address where nothing listens): nothing to turn on, so no question; the tray
    says once (in its log, and in Diagnostics) that typing in applications is only counted, with the fix."""
    from PySide6.QtWidgets import QApplication

    from proactive.ui.consent import AccessibilityDialog

    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path / 'no-bus'}")
    caplog.set_level("WARNING", logger="proactive")
    app = open_tray(make_assistant(fake_model), Config.load(), _StoppedWatcher())
    try:
        qtbot.wait(200)
        assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, AccessibilityDialog) and w.isVisible()]
        said = [r.getMessage() for r in caplog.records if "accessibility bus" in r.getMessage()]
        assert len(said) == 1 and "count of characters" in said[0] and "at-spi2-core" in said[0], said
    finally:
        app.close()


def test_accepting_a_page_offer_gives_the_page_code_with_copy_buttons_and_the_models_hint_once(tray, qtbot):
    """An offer made while reading a page, accepted in the tray after the person moved on: the help is about the
    offer's own page (the proposal's context), its code examples each with a Copy code button, and, once per
    home, a line saying a capable model is one command away. The store keeps no page text."""
    from bench.page_server import page_server
    from proactive.ui.result_window import PULL_COMMAND, ResultWindow
    from tests.conftest import FIXTURES

    with page_server(FIXTURES / "pages") as server:
        context = [
            {"time": "1000", "event": "The user types 'let box' in main.html in Visual Studio Code."},
            {"time": "1001", "event": "The user searches on Google for 'js fade in' in Firefox."},
            {"time": "1002", "event": "The user visits 'How to fade in an element with JavaScript' on 127.0.0.1 in "
                                      "Firefox.",
             "pages": [{"url": server.page("js_fade_in.html"), "title": "How to fade in an element with JavaScript"}]},
        ]
        task = "Show the 3 code examples for 'js fade in' from the page you opened, for main.html"
        windows = []
        for _ in range(2):
            store = Store()
            pid = ProposalLog(store).add(1003.0, None, task, "Want them?", 0.8, {"trigger": "episode"})
            store.close()
            p = Proposal(pid, 1003.0, task, "Want them?", 0.8, "episode", actions={task: "page_code"}, context=context)
            tray.backend.assistant.on_proposal(p)
            qtbot.waitUntil(lambda p=p: p.id in tray.popups, timeout=5000)
            qtbot.mouseClick(tray.popups[p.id].accept_button, Qt.MouseButton.LeftButton)
            qtbot.waitUntil(lambda p=p: any(d[0] == p.id for d in decisions()), timeout=30000)
            qtbot.waitUntil(lambda: not tray.helping, timeout=30000)  # the help's result shown
            windows.append(next(w for w in reversed(tray.windows) if isinstance(w, ResultWindow)))
    first, second = windows
    assert [b.text() for b in first.command_buttons] == ["Copy code"] * 3
    assert "requestAnimationFrame" in first.text.toPlainText()
    assert first.hint is not None and PULL_COMMAND in first.hint.text()
    assert second.hint is None  # said once
    screenshot(first, "tray-page-code.png")
    stored = [json.loads(d[3]) for d in decisions()]
    assert stored and all("requestAnimationFrame" not in json.dumps(r) for r in stored)
