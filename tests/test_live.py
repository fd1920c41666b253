"""The live loop: the assistant reads stored episodes, decides (shown or silent), and stores every decision;
end to end, `proactive run --headless` on a real X server while xdotool types a small scenario."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from proactive.assistant.agent import Agent
from proactive.assistant.feedback import FeedbackMemory
from proactive.assistant.live import Assistant
from proactive.assistant.policy import Gate, Proactivity
from proactive.assistant.trigger import TriggerPolicy
from proactive.models.signals import SignalScorer
from proactive.watcher.episodes.builder import build_episodes
from proactive.watcher.events import CLIPBOARD, TEXT, WINDOW, RawEvent
from proactive.watcher.store.database import Store

from .conftest import WatcherProcess, XSession, wait_for


def scenario(store: Store, t0: float) -> None:
    store.add_events([
        RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}, ts=t0),
        RawEvent("keyboard", TEXT, {"text": "python client.py", "erase": 0, "enter": True}, ts=t0 + 1),
        RawEvent("clipboard", CLIPBOARD, {"text": "Traceback (most recent call last):\nTimeoutError: timed out",
                                          "length": 60, "truncated": False}, ts=t0 + 2),
        RawEvent("window", WINDOW, {"app": "Firefox", "title": "requests timeout - Google Search"}, ts=t0 + 5),
    ])


def make_assistant(model, level: str = "high") -> tuple[Assistant, list]:
    shown: list = []
    p = Proactivity.parse(level)
    assistant = Assistant(None, Agent(model), Gate(SignalScorer(), p), FeedbackMemory(),
                          TriggerPolicy(p.min_interval_s, min_gap_s=0), on_proposal=shown.append)
    return assistant, shown


def test_step_decides_and_stores_every_decision(proactive_home, fake_model):
    store = Store()
    scenario(store, 1000.0)
    assistant, shown = make_assistant(fake_model)
    assert assistant.step(store, now=2000.0) is None  # no trigger yet
    assistant.trigger.episode_closed(app_changed=True)
    first = assistant.step(store, now=2000.0)
    assert first is not None and first.trigger == "app-change"
    row = store.db.execute("SELECT task, data FROM proposals WHERE id = ?", [first.id]).fetchone()
    data = json.loads(row[1])
    assert row[0] == first.task and data["scorer"] == "signals" and data["context_events"] == 2
    assert "gate" in data and "silence_score" in data
    # a copied traceback and a search at proactivity high: help is wanted, and what is shown is what was stored
    assert first.task is not None and shown == [first], data["gate"]
    assert "TimeoutError: timed out" in first.task or "requests timeout" in first.task
    # the same context again: no inference
    assistant.trigger.episode_closed(app_changed=False)
    assert assistant.step(store, now=2010.0) is None
    store.close()


def test_real_default_model_and_shipped_gate_propose_a_grounded_task(proactive_home, default_model):
    """The whole default path, nothing scripted: the built-in model and the shipped reward + need model. After a
    copied traceback and a search, help is needed: the proposal names the error or the query, passes the
    validator, and its message is built from the same parts."""
    from proactive.assistant.grounding import ground
    from proactive.assistant.validate import rejection
    from proactive.models.reward import load_default

    store = Store()
    scenario(store, 1000.0)
    p = Proactivity.parse("medium")
    shown: list = []
    assistant = Assistant(None, Agent(default_model, k=3), Gate(load_default(), p), FeedbackMemory(),
                          TriggerPolicy(p.min_interval_s, min_gap_s=0), on_proposal=shown.append)
    assistant.trigger.episode_closed(app_changed=True)
    proposal = assistant.step(store, now=2000.0)
    assert proposal is not None and proposal.task is not None and shown == [proposal], proposal.decision
    context, _, _ = assistant.context(store)
    assert rejection(proposal.task, ground(context)) is None
    assert "TimeoutError: timed out" in proposal.task or "requests timeout" in proposal.task
    assert proposal.response and proposal.response != proposal.task
    assert proposal.decision is not None and proposal.decision.gate.p_need >= p.threshold
    store.close()


def test_silent_decision_skips_generation(proactive_home, fake_model):
    store = Store()
    store.add_events([RawEvent("window", WINDOW, {"app": "LibreOffice", "title": "letter.odt"}, ts=1.0),
                      RawEvent("keyboard", TEXT, {"text": "Dear Anna", "erase": 0, "enter": False}, ts=2.0)])
    assistant, shown = make_assistant(fake_model, "medium")
    assistant.trigger.episode_closed(app_changed=False)
    decision = assistant.step(store, now=100.0)
    assert decision.task is None and shown == []
    assert assistant.stats["skipped_before_generation"] == 1 and assistant.stats["inferences"] == 0
    assert fake_model.calls == 0  # the model was never asked
    assert decision.latency_s is not None and decision.latency_s < 0.5
    store.close()


@pytest.mark.x11
def test_run_headless_end_to_end(xsession: XSession, proactive_home: Path):
    shell = xsession.start_xterm("build shell", command=["cat"])
    browser = xsession.start_xterm("requests timeout - search", command=["cat"])
    xsession.activate(shell)
    run = WatcherProcess(proactive_home, xsession.env, args=(), command="run",
                         extra=("--headless", "--no-aw", "--proactivity", "high"))
    try:
        xsession.type("python client.py")
        xsession.key("Return")
        xsession.copy("Traceback (most recent call last):\n  File \"client.py\"\nTimeoutError: timed out")
        time.sleep(1.0)
        xsession.activate(browser)  # the shell episode closes: a trigger
        xsession.type("how to fix requests timeout")
        xsession.key("Return")
        time.sleep(1.0)
        xsession.activate(shell)
        db = proactive_home / "proactive.db"

        def decided() -> int:
            con = sqlite3.connect(db)
            try:
                return con.execute("SELECT count(*) FROM proposals").fetchone()[0]
            finally:
                con.close()

        wait_for(decided, timeout=60, what="a proposal or a logged silent decision")
        t0 = time.monotonic()
    finally:
        code, err = run.stop(signal.SIGTERM)
    assert code == 0, err
    assert time.monotonic() - t0 < 30
    con = sqlite3.connect(proactive_home / "proactive.db")
    rows = con.execute("SELECT task, data FROM proposals").fetchall()
    con.close()
    assert rows
    for _, data in rows:
        assert json.loads(data)["trigger"] in ("episode", "app-change", "burst-pause", "moment")
    printed = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    assert len(printed) == sum(1 for task, _ in rows if task)  # each shown proposal is one JSON line
    for p in printed:
        assert p["task"] and set(p) >= {"id", "time", "task", "response", "score", "trigger", "candidates"}
    log = (proactive_home / "logs" / "proactive.log").read_text()
    assert "assistant stopped" in log


def test_decisions_taken_elsewhere_reach_the_memory(proactive_home, fake_model):
    store = Store()
    scenario(store, 1000.0)
    assistant, _ = make_assistant(fake_model)
    with store.db.conn:
        store.db.execute("INSERT INTO proposals (ts, task, response, score, data) VALUES (?, ?, '', 0.9, '{}')",
                         [time.time(), "Suggest a fix for the TimeoutError in client.py"])
    from .conftest import run_cli

    assert run_cli("decide", "1", "rejected").returncode == 0
    bad = run_cli("decide", "99", "accepted")
    assert bad.returncode == 2 and "no proposal 99" in bad.stderr
    assistant.sync_decisions(store)
    assert assistant.memory.blocked("Suggest a fix for TimeoutError in client.py") is not None
    store.close()


def test_headless_accept_does_the_task(proactive_home, browser):
    """`proactive decide ID accepted` does what the tray's Accept does: with web_search = "on" it opens the search
    (through BROWSER) and says so, and stores what was done with the decision; --no-help only records."""
    from .conftest import run_cli

    store = Store()
    scenario(store, 1000.0)
    task = "Summarise the top results for 'requests timeout'"
    with store.db.conn:
        for _ in range(2):
            store.db.execute("INSERT INTO proposals (ts, task, response, score, data) VALUES (?, ?, '', 0.9, ?)",
                             [time.time(), task, json.dumps({"actions": {task: "summarise_results"}})])
    store.close()
    (proactive_home / "config.toml").write_text('web_search = "on"\n')  # default "ask": headless, only the link
    out = run_cli("decide", "1", "accepted")  # the environment carries BROWSER and PROACTIVE_HOME
    assert out.returncode == 0, out.stderr
    assert "Sent 'requests timeout' to duckduckgo.com (web search), opened in your browser." in out.stdout
    assert browser.read_text().strip() == "https://duckduckgo.com/?q=requests+timeout"
    assert run_cli("decide", "2", "accepted", "--no-help").returncode == 0
    con = sqlite3.connect(proactive_home / "proactive.db")
    stored = json.loads(con.execute("SELECT result FROM decisions WHERE proposal_id = 1").fetchone()[0])
    con.close()
    with sqlite3.connect(proactive_home / "proactive.db") as con:  # a third offer, answered with --json
        con.execute("INSERT INTO proposals (ts, task, response, score, data) VALUES (?, ?, '', 0.9, ?)",
                    [time.time(), task, json.dumps({"actions": {task: "summarise_results"}})])
    con.close()
    as_json = run_cli("decide", "3", "accepted", "--json")
    assert as_json.returncode == 0, as_json.stderr
    answer = json.loads(as_json.stdout)
    assert answer["proposal"] == 3 and answer["decision"] == "accepted" and answer["task"] == task
    assert answer["result"]["url"] == stored["url"]  # what was done, as stored
    con = sqlite3.connect(proactive_home / "proactive.db")
    results = dict(con.execute("SELECT proposal_id, result FROM decisions").fetchall())
    con.close()
    assert json.loads(results[1])["url"].endswith("q=requests+timeout") and results[2] is None
    assert len(browser.read_text().split()) == 2  # the first and the third accept opened the search


def searched(store: Store, t0: float, query: str) -> None:
    """A search in the browser, then back to the editor."""
    store.add_events([
        RawEvent("window", WINDOW, {"app": "Firefox", "title": f"{query} - Google Search"}, ts=t0),
        RawEvent("window", WINDOW, {"app": "Code", "title": "scraper.py - Visual Studio Code"}, ts=t0 + 20),
    ])


@pytest.mark.parametrize("earlier", [False, True])
def test_built_in_model_offers_a_search_again_only_when_the_history_holds_it(proactive_home, default_model,
                                                                             earlier):
    """With the built-in model, the results of the query the person just searched are offered only when their
    history has an earlier time they met it (what Accept then shows); otherwise that offer gives nothing they
    do not have on screen, and it is not made."""
    query = "python beautifulsoup find all links"
    store = Store()
    if earlier:  # a day before: stored as episodes by the real episode builder, as the watcher does
        searched(store, 1000.0, query)
        store.add_events([RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell"}, ts=1100.0)])
        store.add_episodes(e.row() for e in build_episodes(store.iter_events()))
    searched(store, 90000.0, query)
    assistant, _ = make_assistant(default_model)
    assistant.context_episodes = 2  # the earlier day is history, not context
    assistant.trigger.episode_closed(app_changed=True)
    decision = assistant.step(store, now=90100.0)
    context, _, _ = assistant.context(store)
    assert all(float(o["time"]) >= 90000.0 for o in context)
    offered = [t for t in decision.candidates if query in t]
    assert bool(offered) == earlier, decision.decision
    store.close()


@pytest.mark.x11
def test_a_copied_error_and_a_command_alone_are_decided_within_seconds_with_no_further_input(
        xsession: XSession, proactive_home: Path):
    """The moment is the copy or the Enter itself: `run --headless` decides within seconds of it while the
    person does nothing more (no click, no window switch), a silent decision included (it leaves its row for
    "Why quiet?"). Before, nothing ran until the next window change."""
    shell = xsession.start_xterm("shell", command=["cat"])
    xsession.activate(shell)
    run = WatcherProcess(proactive_home, xsession.env, args=(), command="run",
                         extra=("--headless", "--no-aw", "--proactivity", "1.0", "--rm", "signals",
                                "--model", "fake"))
    db = proactive_home / "proactive.db"

    def rows() -> list[tuple[float, str | None, str]]:
        con = sqlite3.connect(db)
        try:
            return con.execute("SELECT ts, task, data FROM proposals ORDER BY id").fetchall()
        finally:
            con.close()

    try:
        time.sleep(1.0)
        xsession.type("gti status")
        xsession.key("Return")
        typed = time.time()
        first = wait_for(lambda: rows(), timeout=15, what="a decision about the command typed alone")
        assert json.loads(first[0][2])["trigger"] == "moment" and first[0][0] - typed < 6, first
        xsession.copy('Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n'
                      "ModuleNotFoundError: No module named 'numpyy'\n")
        copied = time.time()
        about = wait_for(lambda: [r for r in rows()[len(first):] if r[1] and "numpyy" in r[1]], timeout=15,
                         what="an offer about the copied error")
        assert about[0][0] - copied < 6, (about, copied)
    finally:
        code, err = run.stop(signal.SIGTERM)
    assert code == 0, err


# -- every moment decided at once, on its own context --------------------------------------------------------------

ERRORS = ["Traceback (most recent call last):\n  File \"client.py\", line 3\nModuleNotFoundError: No module named 'numpyy'",
          "Traceback (most recent call last):\n  File \"client.py\", line 9\nTimeoutError: timed out",
          "Traceback (most recent call last):\n  File \"client.py\", line 14\nKeyError: 'user'"]


def copied(text: str) -> RawEvent:
    return RawEvent("clipboard", CLIPBOARD, {"text": text, "length": len(text), "truncated": False})


@pytest.fixture
def watched(proactive_home):
    """A real assistant fed by the real pipeline (`assistant_watching`); the test emits the events one at a time
    (`Hand`)."""
    from .conftest import assistant_watching
    from .test_live_context import Hand

    hand = Hand()
    with assistant_watching(hand) as (assistant, store, shown):
        yield assistant, hand, store, shown


def emitted(hand, event: RawEvent) -> float:
    """Emits `event` and waits until the watcher has written it (and handed it on); returns when it was emitted."""
    from proactive.watcher import control

    at = time.time()
    hand.emit(event)
    assert control.wait_flushed(control.request_flush(), 10), "the watcher did not write"
    return at


def rows(store: Store) -> list[dict]:
    from proactive.assistant.proposals import ProposalLog

    return ProposalLog(store).all()


def test_three_errors_copied_inside_the_interval_each_get_an_offer_at_once(watched):
    """Within 90 s of an offer (the interval between offers at medium), each new error copied is offered within
    5 s of its copy, by the assistant's own thread, with no further input; each is about its own error."""
    assistant, hand, store, shown = watched
    assistant.trigger.min_gap_s = 2.0  # as `proactive run` has it
    assistant.start()
    emitted(hand, RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell", "process": "xterm"}))
    for i, error in enumerate(ERRORS):
        at = emitted(hand, copied(error))
        wait_for(lambda i=i: len(shown) > i, timeout=10, what=f"an offer about error {i + 1}")
        assert shown[i].ts - at < 5, (i, shown[i].ts - at)
        assert ("numpyy", "TimeoutError", "KeyError")[i] in shown[i].task, shown[i]
    assert shown[-1].ts - shown[0].ts < assistant.trigger.min_interval_s
    assert [r["task"] for r in rows(store)] == [p.task for p in shown]  # each moment its one row


@pytest.mark.parametrize(
    "then, expected",
    [
        (copied(ERRORS[1]), "offer"),  # a new error: offered at once
        (copied(ERRORS[0]), "too soon"),  # the same error again: not new
        (RawEvent("keyboard", TEXT, {"text": "ls", "erase": 0, "enter": True}), "too soon"),  # a command, no error
        # a failing command: its error read from the terminal's screen (assistant/screen.py)
        (RawEvent("keyboard", TEXT, {"text": "python client.py", "erase": 0, "enter": True}), "offer"),
    ],
    ids=["new-error", "same-error", "command", "failing-command"],
)
def test_moments_inside_the_interval_are_decided_and_rowed(watched, then, expected):
    """After an offer about a copied error, the next moment inside the interval is decided a second after it and
    leaves its row: offered when it shows a new error (copied, or printed by the command just entered), silent
    with the interval in its reason otherwise. The Why column says that reason."""
    from proactive.ui.history import why

    assistant, hand, store, shown = watched
    assistant.screen = lambda command: ERRORS[2] if command == "python client.py" else None
    emitted(hand, RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell", "process": "xterm"}))
    first = assistant.step(store, now=emitted(hand, copied(ERRORS[0])) + 1.5)
    assert first is not None and first.task is not None and shown == [first]
    proposal = assistant.step(store, now=emitted(hand, then) + 1.5)
    assert proposal is not None and proposal.trigger == "moment"
    row = rows(store)[-1]
    assert row["id"] == proposal.id
    if expected == "offer":
        assert proposal.task is not None and shown == [first, proposal], proposal.decision
    else:
        assert proposal.task is None and shown == [first]
        assert row["data"]["gate"].startswith("too soon after the last offer (") and "90 s" in row["data"]["gate"]
        assert why(None, row["data"]).startswith("quiet: too soon after the last offer")
        assert assistant.stats["inferences"] == 1  # no generation for it


@pytest.mark.parametrize("late", [False, True])
def test_a_moment_is_decided_on_its_own_context_and_silent_once_left(watched, late):
    """An error copied, then a switch to the browser: decided on time, the offer is made on the moment's own
    context (the terminal's episode last, not the browser's); decided late (the worker was busy), the person has
    left that context, and the moment is silent with that reason, not offered."""
    from proactive.ui.history import why

    assistant, hand, store, shown = watched
    emitted(hand, RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell", "process": "xterm"}))
    at = emitted(hand, copied(ERRORS[1]))
    emitted(hand, RawEvent("window", WINDOW, {"app": "Firefox", "title": "New Tab", "process": "firefox"}))
    proposal = assistant.step(store, now=at + (12 if late else 1.5))
    assert proposal is not None and proposal.trigger == "moment"
    assert "XTerm" not in str(assistant.context(store)[0][-1]) and "Firefox" in str(assistant.context(store)[0])
    assert "TimeoutError" in proposal.context[-1]["event"]  # the moment's context ends with its own episode
    if late:
        assert proposal.task is None and shown == []
        reason = rows(store)[-1]["data"]["gate"]
        assert reason.startswith("too late: decided 12 s after it, when you had moved to another window"), reason
        assert why(None, rows(store)[-1]["data"]) == f"quiet: {reason}"
    else:
        assert proposal.task is not None and "TimeoutError" in proposal.task and shown == [proposal]
    assert assistant.step(store, now=at + 30) is None  # decided once: nothing left to decide


@pytest.mark.parametrize("decision, taken", [("accepted", True), ("rejected", False), ("snoozed", False)])
def test_an_offer_taken_in_the_tray_lets_help_building_on_it_through_the_interval(watched, decision, taken):
    """The person's decision reaches the trigger through the store, as the tray records it: an accepted offer
    opens its interval to help building on it; a rejected or snoozed one does not."""
    from proactive.assistant.proposals import ProposalLog

    assistant, hand, store, shown = watched
    emitted(hand, RawEvent("window", WINDOW, {"app": "XTerm", "title": "shell", "process": "xterm"}))
    first = assistant.step(store, now=emitted(hand, copied(ERRORS[0])) + 1.5)
    assert first is not None and first.task is not None
    assert assistant.trigger.taken is False
    ProposalLog(store).decide(first.id, decision, ts=first.ts + 3)
    assistant.sync_decisions(store)
    assert assistant.trigger.taken is taken
