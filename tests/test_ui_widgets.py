"""The Qt widgets (popup, history, privacy view) against a real store, offscreen, with screenshots."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication  # noqa: E402

from proactive.assistant.proposals import ProposalLog
from proactive.ui.history import HistoryWindow  # noqa: E402
from proactive.ui.popup import ProposalPopup  # noqa: E402
from proactive.ui.privacy import PrivacyView, midnight_today  # noqa: E402
from proactive.watcher.events import RawEvent  # noqa: E402
from proactive.watcher.store import home  # noqa: E402
from proactive.watcher.store.database import Store  # noqa: E402
from tests.conftest import screenshot as shot  # noqa: E402


def screenshot(widget, name: str) -> Path:
    return shot(widget, f"ui_{name}.png")


def add_activity(store: Store, start: float, events: list[str]) -> list[int]:
    """One raw event and one episode per text, a minute apart from `start`; returns the episode ids."""
    ids = []
    for i, text in enumerate(events):
        ts = start + 60 * i
        [rid] = store.add_events([RawEvent("x11", "window", {"app": "code", "title": text}, ts=ts)])
        store.add_episodes([{"start": ts, "end": ts + 30, "app": "code", "title": text, "event": text,
                             "sentences": [text], "first_raw_id": rid, "last_raw_id": rid}])
        ids.append(store.db.execute("SELECT max(id) FROM episodes").fetchone()[0])
    return ids


def add_proposal(store: Store, ts: float, task: str | None, score: float | None, trigger: str,
                 episode_id: int | None = None) -> int:
    with store.db.conn:
        cur = store.db.execute(
            "INSERT INTO proposals (ts, episode_id, task, response, score, data) VALUES (?, ?, ?, ?, ?, ?)",
            [ts, episode_id, task, f"response to {task}" if task else "", score, json.dumps({"trigger": trigger})])
    return int(cur.lastrowid)


# -- popup ------------------------------------------------------------------------------------------------------


def test_popup_shows_proposal_and_accept_emits_once(qtbot) -> None:
    popup = ProposalPopup(7, "Run the failing test", "pytest -x tests/test_store.py", timeout_s=30)
    qtbot.addWidget(popup)
    before_shown = time.monotonic()
    popup.show()
    qtbot.waitExposed(popup)
    assert "<b>Run the failing test</b>" in popup.task_label.text()
    assert popup.response_label.text() == "pytest -x tests/test_store.py"
    flags = popup.windowFlags()
    assert flags & Qt.WindowType.FramelessWindowHint and flags & Qt.WindowType.WindowStaysOnTopHint
    assert flags & Qt.WindowType.Tool == Qt.WindowType.Tool
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert area.contains(popup.geometry())
    assert popup.geometry().right() > area.center().x() and popup.geometry().bottom() > area.center().y()
    screenshot(popup, "popup")

    received: list[tuple[int, str, float]] = []
    popup.decided.connect(lambda *args: received.append(args))
    with qtbot.waitSignal(popup.decided, timeout=2000) as blocker:
        qtbot.mouseClick(popup.accept_button, Qt.MouseButton.LeftButton)
    pid, decision, latency = blocker.args
    # from the popup first seen to the click: within the time this test has watched it (the clamp to 0 is not it)
    assert (pid, decision) == (7, "accepted") and 0 < latency <= time.monotonic() - before_shown
    qtbot.waitUntil(lambda: not popup.isVisible())
    # a late click or close never produces a second decision
    qtbot.mouseClick(popup.reject_button, Qt.MouseButton.LeftButton)
    popup.decide("snoozed")
    popup.close()
    assert [(r[0], r[1]) for r in received] == [(7, "accepted")]


def test_popup_timeout_is_ignored_once(qtbot) -> None:
    popup = ProposalPopup(3, "Commit your changes", "git commit -am wip", timeout_s=0.2)
    qtbot.addWidget(popup)
    received: list[str] = []
    popup.decided.connect(lambda _pid, decision, _lat: received.append(decision))
    popup.show()
    screenshot(popup, "popup_timeout")
    with qtbot.waitSignal(popup.decided, timeout=3000) as blocker:
        pass
    assert blocker.args[0] == 3 and blocker.args[1] == "ignored" and blocker.args[2] >= 0.15
    assert not popup.isVisible()
    qtbot.wait(400)  # no second timeout, and clicking after the fact does nothing
    qtbot.mouseClick(popup.accept_button, Qt.MouseButton.LeftButton)
    assert received == ["ignored"]


def test_popup_snooze_and_reject(qtbot) -> None:
    for button, expected in (("snooze_button", "snoozed"), ("reject_button", "rejected")):
        popup = ProposalPopup(1, "Task", "Response", timeout_s=30)
        qtbot.addWidget(popup)
        popup.show()
        with qtbot.waitSignal(popup.decided, timeout=2000) as blocker:
            qtbot.mouseClick(getattr(popup, button), Qt.MouseButton.LeftButton)
        assert blocker.args[1] == expected


# -- history ----------------------------------------------------------------------------------------------------


@pytest.fixture
def history_store(proactive_home: Path) -> Store:
    store = Store()
    base = time.time() - 3600
    add_activity(store, base, ["edit store.py", "run pytest", "read SQLite docs", "edit cli.py", "run ruff",
                               "open browser", "write README"])
    # proposals at base+90 (after 2 episodes), base+400 (after all 7)
    p_acc = add_proposal(store, base + 90, "Fix the failing test", 0.91, "app-change")
    p_rej = add_proposal(store, base + 200, "Open the SQLite docs", 0.62, "episode")
    p_ign = add_proposal(store, base + 250, "Run ruff --fix", 0.55, "moment")
    p_snz = add_proposal(store, base + 300, "Write a changelog", 0.7, "burst-pause")
    add_proposal(store, base + 350, "Commit your work", 0.8, "moment")  # shown, not answered yet
    add_proposal(store, base + 400, None, 0.1, "episode")  # silent
    add_proposal(store, base + 410, None, None, "moment")  # silent, no score
    ProposalLog(store).decide(p_acc, "accepted", latency_s=3.0, ts=base + 95)
    ProposalLog(store).decide(p_rej, "rejected", latency_s=2.0, ts=base + 205)
    ProposalLog(store).decide(p_ign, "ignored", ts=base + 280)
    ProposalLog(store).decide(p_snz, "snoozed", ts=base + 301)
    ProposalLog(store).decide(p_rej, "rejected", ts=base + 500)  # answered twice: the latest counts, one row
    return store


def test_history_table_filters_and_context(qtbot, history_store: Store) -> None:
    window = HistoryWindow()
    qtbot.addWidget(window)
    window.show()
    table = window.table
    assert table.rowCount() == 7
    # newest first
    assert [table.item(r, 1).text() for r in range(3)] == ["(silent)", "(silent)", "Commit your work"]
    assert [table.item(r, 4).text() for r in range(7)] == [
        "silent", "silent", "shown", "snoozed", "not answered", "rejected", "accepted"]
    # in words: the chance as a percentage (its header explains it), the trigger as what the person did
    assert table.item(6, 2).text() == "91%" and table.item(6, 3).text() == "you switched applications"
    assert "accept" in table.horizontalHeaderItem(2).toolTip()
    assert table.item(0, 2).text() == "" and table.item(1, 2).text() == "10%"
    screenshot(window, "history")

    counts = {}
    for name in ("All", "Shown", "Accepted", "Rejected", "Not answered", "Silent"):
        window.outcome_filter.setCurrentText(name)
        counts[name] = table.rowCount()
    assert counts == {"All": 7, "Shown": 5, "Accepted": 1, "Rejected": 1, "Not answered": 1, "Silent": 2}

    window.outcome_filter.setCurrentText("Shown")
    window.text_filter.setText("sqlite")
    assert table.rowCount() == 1 and table.item(0, 1).text() == "Open the SQLite docs"
    window.outcome_filter.setCurrentText("All")
    window.text_filter.setText("copied")  # matches the trigger column, in its words
    assert table.rowCount() == 3
    window.text_filter.setText("")

    # the accepted proposal came after two episodes: both are its context
    window.outcome_filter.setCurrentText("Accepted")
    table.selectRow(0)
    assert window.context_view.toPlainText().splitlines()[-1].endswith("run pytest")
    assert len(window.context_view.toPlainText().splitlines()) == 2
    assert "edit store.py" in window.context_view.toPlainText()
    # the last silent one saw all seven: only the last five are shown, oldest first
    window.outcome_filter.setCurrentText("All")
    table.selectRow(0)
    lines = window.context_view.toPlainText().splitlines()
    assert [line.split("  ", 1)[1] for line in lines] == [
        "read SQLite docs", "edit cli.py", "run ruff", "open browser", "write README"]
    assert window.context_view.isReadOnly()
    screenshot(window, "history_context")

    add_proposal(history_store, time.time(), "A brand new offer", 0.99, "moment")
    window.refresh()
    assert table.rowCount() == 8 and table.item(0, 1).text() == "A brand new offer"


def test_history_empty_database(qtbot, proactive_home: Path) -> None:
    window = HistoryWindow(proactive_home / "other.db")
    qtbot.addWidget(window)
    assert window.table.rowCount() == 0
    screenshot(window, "history_empty")


# -- privacy ----------------------------------------------------------------------------------------------------


def test_privacy_lists_today_and_deletes_selected(qtbot, proactive_home: Path) -> None:
    store = Store()
    add_activity(store, time.time() - 3 * 86400, ["old episode"])  # not today
    today = max(time.time() - 600, midnight_today() + 1)
    add_activity(store, today, ["typed in editor", "password manager skipped", "browsed docs"])
    view = PrivacyView(confirm=lambda _q: pytest.fail("no confirmation for a single delete"))
    qtbot.addWidget(view)
    view.show()
    texts = [view.list.item(i).text() for i in range(view.list.count())]
    assert [t.split("  ", 1)[1] for t in texts] == ["typed in editor", "password manager skipped", "browsed docs"]
    assert texts[0][:2].isdigit() and texts[0][2] == ":"
    assert not view.delete_button.isEnabled()
    screenshot(view, "privacy")

    view.list.setCurrentRow(1)
    assert view.delete_button.isEnabled()
    qtbot.mouseClick(view.delete_button, Qt.MouseButton.LeftButton)
    assert [view.list.item(i).text().split("  ", 1)[1] for i in range(view.list.count())] == [
        "typed in editor", "browsed docs"]
    events = store.episodes()
    assert "password manager skipped" not in [e["event"] for e in events] and len(events) == 3
    assert store.count("raw_events") == 3  # the raw event behind the deleted episode went with it
    screenshot(view, "privacy_after_delete")


def test_privacy_purge_asks_then_empties_everything(qtbot, proactive_home: Path) -> None:
    store = Store()
    add_activity(store, max(time.time() - 300, midnight_today() + 1), ["one", "two"])  # today, even just after midnight
    log = home.logs_dir() / "proactive.log"
    log.write_text("watcher started\nsomething private\n")
    (home.logs_dir() / "proactive.log.1").write_text("older log")
    cached = home.cache_dir() / "sub" / "thing.bin"
    cached.parent.mkdir()
    cached.write_bytes(b"cache")

    answers = [False, True]
    questions: list[str] = []

    def confirm(question: str) -> bool:
        questions.append(question)
        return answers.pop(0)

    view = PrivacyView(confirm=confirm)
    qtbot.addWidget(view)
    view.show()
    assert view.list.count() == 2

    qtbot.mouseClick(view.purge_button, Qt.MouseButton.LeftButton)  # declined: nothing happens
    assert view.list.count() == 2 and store.count("episodes") == 2 and log.read_text()

    qtbot.mouseClick(view.purge_button, Qt.MouseButton.LeftButton)
    assert len(questions) == 2 and "everything" in questions[0]
    assert view.list.count() == 0
    assert store.count("episodes") == 0 and store.count("raw_events") == 0
    assert log.exists() and log.read_bytes() == b""
    assert (home.logs_dir() / "proactive.log.1").read_bytes() == b""
    assert not cached.exists()
    assert "database: deleted" in view.removed.text() and "logs: emptied" in view.removed.text()
    screenshot(view, "privacy_after_purge")


def test_privacy_purge_while_another_program_reads_says_so_and_goes_on(qtbot, proactive_home: Path) -> None:
    """The view closes its own connection for the purge; another process's read transaction stops it with the
    reader named (nothing claimed removed), and once that reader is gone the same button purges."""
    from tests.test_purge import hold_read_transaction

    store = Store()
    add_activity(store, max(time.time() - 300, midnight_today() + 1), ["one", "two"])  # today, even just after midnight
    store.close()
    view = PrivacyView(confirm=lambda question: True, config=home.Config(activitywatch=False))
    qtbot.addWidget(view)
    view.purge_wait = 1.0
    reader = hold_read_transaction(proactive_home / "proactive.db")
    try:
        assert not view.purge_everything()
    finally:
        reader.communicate("")
    assert view.removed.text().startswith("Not purged: ") and f"pid {reader.pid} (" in view.removed.text()
    assert "truncated" not in view.removed.text()
    assert view.purge_everything()
    assert "WAL truncated" in view.removed.text() and view.list.count() == 0


def test_why_quiet_says_why_each_decision_was_taken(qtbot, proactive_home: Path) -> None:
    """The Why column: help not needed (the need figure against the threshold), offers held back because they
    were made recently, nothing grounded to offer, or shown; the "Silent" filter lists the quiet moments."""
    from proactive.ui.history import why

    store = Store()
    now = time.time()
    ProposalLog(store).add(now - 40, None, None, "", None, {"gate": "P(need) 0.21 < 0.5", "p_need": 0.21})
    ProposalLog(store).add(now - 30, None, None, "", None,
                       {"gate": "no candidate", "p_need": 0.8, "blocked_by_feedback": ["Explain the error"]})
    ProposalLog(store).add(now - 20, None, None, "", None, {"gate": "no candidate", "p_need": 0.7,
                                                        "blocked_by_feedback": []})
    ProposalLog(store).add(now - 10, None, "Explain the TimeoutError in client.py", "", 0.8,
                       {"gate": "shown", "p_need": 0.74})
    store.close()
    window = HistoryWindow()
    qtbot.addWidget(window)
    window.outcome_filter.setCurrentText("Silent")
    column = 5
    assert window.table.horizontalHeaderItem(column).text() == "Why"
    assert [window.table.item(r, column).text() for r in range(window.table.rowCount())] == [
        "quiet: nothing grounded in what you were doing to offer",
        "quiet: held back 1 offer made recently",
        "quiet: help did not look needed (21% likely, it offers from 50%)"]
    window.outcome_filter.setCurrentText("Shown")
    assert window.table.item(0, column).text() == "shown: help looked needed (74% likely)"
    assert not any("P(need)" in window.table.item(r, column).text() or "burst-pause" in window.table.item(r, 3).text()
                   for r in range(window.table.rowCount()))
    assert why(None, {}) == "quiet" and why(None, {"gate": "model failed"}) == "quiet: model failed"
    screenshot(window, "history-why")


def test_open_windows_follow_new_rows_decisions_and_a_purge_from_another_process(qtbot, proactive_home: Path) -> None:
    """History, "Why quiet?" and the privacy view stay true while open: a decision the assistant takes, an answer
    given in the tray (another connection), and `proactive purge --all` run in another process all show within
    seconds, with no reopening; the selected row stays selected across a re-read."""
    from tests.conftest import run_cli

    store = Store()
    now = time.time()
    add_activity(store, max(now - 300, midnight_today() + 1), ["edits client.py"])
    history, quiet, privacy = HistoryWindow(), HistoryWindow(), PrivacyView(confirm=lambda _q: True)
    for window in (history, quiet, privacy):
        qtbot.addWidget(window)
        window.show()
    quiet.outcome_filter.setCurrentText("Silent")
    assert history.table.rowCount() == 0 and privacy.list.count() == 1

    shown = ProposalLog(store).add(now - 5, None, "Explain the TimeoutError in client.py", "", 0.8,
                               {"gate": "shown", "p_need": 0.74})
    ProposalLog(store).add(now - 4, None, None, "", None, {"gate": "P(need) 0.21 < 0.5", "p_need": 0.21})
    qtbot.waitUntil(lambda: history.table.rowCount() == 2 and quiet.table.rowCount() == 1, timeout=5000)
    history.table.selectRow(1)  # the shown one (newest first)
    assert history.selected_row() is not None and history.selected_row().id == shown

    ProposalLog(store).decide(shown, "accepted", 3.0)
    qtbot.waitUntil(lambda: history.table.item(1, 4).text() == "accepted", timeout=5000)
    assert history.selected_row() is not None and history.selected_row().id == shown  # still selected
    screenshot(history, "history_follows_an_accept")
    store.close()

    out = run_cli("purge", "--all", "--yes", "--wait", "5", process=True)
    assert out.returncode == 0, out.stderr
    qtbot.waitUntil(lambda: history.table.rowCount() == 0 and quiet.table.rowCount() == 0
                    and privacy.list.count() == 0, timeout=5000)
    assert privacy.summary.text() == "0 episodes captured today"
    screenshot(quiet, "why_quiet_after_a_purge_elsewhere")


@pytest.mark.parametrize("which", ["history", "privacy"])
def test_the_history_and_privacy_windows_fit_a_1366_by_768_screen(qtbot, proactive_home: Path, which: str) -> None:
    """Full of long rows, each window still fits a laptop screen with a panel (its smallest size and the size it
    opens at), and its text wraps instead of running off the edge (a screenshot at 1366x768)."""
    store = Store()
    now = time.time()
    long = ("The user switches to client.py in Visual Studio Code. The user types 'session.get(url, timeout=5)' "
            "and presses Enter, then copies an error message ending 'ReadTimeout: read timed out' from the terminal.")
    add_activity(store, max(now - 900, midnight_today() + 1), [long] * 12)
    for i in range(12):
        ProposalLog(store).add(now - 600 + i, None, None if i % 2 else f"Explain the error 'ReadTimeout' ({i}) and "
                           "suggest a fix for client.py", "", None if i % 2 else 0.7,
                           {"gate": "P(need) 0.21 < 0.5", "p_need": 0.21, "trigger": "moment"})
    store.close()
    window = HistoryWindow() if which == "history" else PrivacyView(confirm=lambda _q: False)
    qtbot.addWidget(window)
    window.show()
    hint = window.minimumSizeHint()
    assert hint.width() <= 1366 and hint.height() <= 768 - 48, hint
    assert window.width() <= 1366 and window.height() <= 768 - 48, window.size()
    if which == "privacy":
        assert window.list.wordWrap()
    else:
        assert window.table.wordWrap()
    window.resize(1366, 768)
    screenshot(window, f"{which}_1366x768")


# -- steering what the assistant learns about the person --------------------------------------------------------


def test_popup_fewer_like_this_and_not_this_kind(qtbot) -> None:
    for button, expected in (("fewer_button", "fewer"), ("not_kind_button", "not this kind")):
        popup = ProposalPopup(4, "About this command", "Want me to explain 'pip install reqeusts'?", timeout_s=30)
        qtbot.addWidget(popup)
        popup.show()
        qtbot.waitExposed(popup)
        assert getattr(popup, button).isVisible()
        if expected == "fewer":
            screenshot(popup, "popup_steer")
        with qtbot.waitSignal(popup.decided, timeout=2000) as blocker:
            qtbot.mouseClick(getattr(popup, button), Qt.MouseButton.LeftButton)
        assert blocker.args[:2] == [4, expected]
        qtbot.waitUntil(lambda p=popup: not p.isVisible())


def _learned_store(now: float) -> tuple[int, int]:
    """A store where four offers about commands were turned down this week, and the silent moment that followed
    because of it, decided by the real decision path with that memory."""
    from proactive.assistant.agent import Prediction
    from proactive.assistant.decision import decide
    from proactive.assistant.feedback import FeedbackMemory
    from proactive.assistant.person_model import Situation
    from proactive.assistant.person_store import SITUATION, situation_data
    from proactive.assistant.policy import Gate, Proactivity
    from tests.test_gate import TableScorer

    task = "Explain what the command 'pip install reqeusts' does"
    situation = Situation("About this command", "coding", "a terminal")
    store = Store()
    memory = FeedbackMemory()
    offers = []
    for i in range(4):
        ts = now - 3600 + i * 60
        pid = ProposalLog(store).add(ts, None, task, "", 0.7, {"trigger": "moment",
                                                               SITUATION: situation_data(0.7, situation)})
        ProposalLog(store).decide(pid, "rejected", ts=ts + 5)
        memory.person.learn(0.7, situation, "rejected", ts + 5)
        offers.append(pid)
    memory.person.mute("About this command")
    quiet = decide(Gate(TableScorer(0.9, {task: 0.7}), Proactivity.parse("medium")), memory,
                   [{"time": "1", "event": "The user runs 'pip install reqeusts' in the terminal."}], now,
                   lambda held: Prediction([task], actions={task: "explain_command"}))
    assert quiet.task is None
    ProposalLog(store).add(now - 10, None, None, "", None, {"trigger": "moment", **quiet.to_json()})
    store.close()
    return offers[-1], len(offers)


def test_history_steers_an_offer_and_why_quiet_says_what_was_learned(qtbot, proactive_home: Path) -> None:
    last, _ = _learned_store(time.time())
    steered: list[tuple] = []
    window = HistoryWindow(steer=lambda pid, decision, latency: steered.append((pid, decision)))
    qtbot.addWidget(window)
    window.show()
    window.outcome_filter.setCurrentText("Silent")
    assert window.table.rowCount() == 1
    why_quiet = window.table.item(0, 5).text()
    assert why_quiet.startswith("quiet: you asked for no more offers of the kind 'About this command'"), why_quiet
    assert "Settings can reset it" in why_quiet
    screenshot(window, "history_why_quiet_learned")
    window.outcome_filter.setCurrentText("Shown")
    assert not window.fewer_button.isEnabled()  # nothing selected
    window.table.selectRow(0)  # the newest offer
    assert window.fewer_button.isEnabled() and window.not_kind_button.isEnabled()
    qtbot.mouseClick(window.not_kind_button, Qt.MouseButton.LeftButton)
    window.table.selectRow(1)
    qtbot.mouseClick(window.fewer_button, Qt.MouseButton.LeftButton)
    assert steered == [(last, "not this kind"), (last - 1, "fewer")]


def test_why_quiet_after_offers_turned_down_this_week() -> None:
    from proactive.assistant.person_model import PersonModel, Situation
    from proactive.ui.history import why

    person = PersonModel()
    for i in range(4):
        person.learn(0.7, Situation("About this command", "coding", "a terminal"), "rejected", 1000.0 + i)
    reason = f"learned: {person.why_quiet('About this command', 2000.0)}"
    assert why(None, {"gate": reason, "blocked_by_feedback": ["x"]}) == (
        "quiet: you turned down 4 offers of the kind 'About this command' this week (what it learned from you: "
        "Settings can reset it)")


def test_privacy_view_shows_what_was_learned_and_resets_it(qtbot, proactive_home: Path) -> None:
    _, n = _learned_store(time.time())
    resets: list[bool] = []
    view = PrivacyView(confirm=lambda _q: True, reset_learning=lambda: resets.append(True))
    qtbot.addWidget(view)
    view.show()
    assert f"from your answers to {n} offers" in view.learned.summary.text()
    assert "About this command: as for everyone; 0 taken of 4 shown" in view.learned.lines.text()
    screenshot(view, "privacy_learned")
    qtbot.mouseClick(view.learned.reset_button, Qt.MouseButton.LeftButton)
    assert resets == [True] and "Nothing learned yet" in view.learned.lines.text()
    assert view.purge_everything()  # a purge takes what was learned along
    assert "from your answers to 0 offers" in view.learned.summary.text()
