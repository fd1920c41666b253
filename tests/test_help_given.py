"""Help that gave nothing is not help given: the feedback memory holds an accepted offer back only when its Accept
delivered something, so the offer that can deliver (once the person has read a page) is made; and an offer at a
search is made only when its pages can be had. Pages on a loopback server, through the live decision path (the
assistant's `think`) and the tray's Accept (`tray_backend.Backend`)."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from bench.page_server import page_server
from proactive.assistant.agent import Agent
from proactive.assistant.feedback import ACCEPTED, FeedbackMemory
from proactive.assistant.help import Help
from proactive.assistant.live import Assistant, Proposal, recent_context
from proactive.assistant.pages import PageReader
from proactive.assistant.policy import Gate, Proactivity
from proactive.assistant.proposals import ProposalLog
from proactive.assistant.tray_backend import Backend
from proactive.assistant.trigger import TriggerPolicy
from proactive.models.signals import SignalScorer
from proactive.watcher.events import TEXT, WEB, WINDOW, RawEvent
from proactive.watcher.store import home
from proactive.watcher.store.database import Store

PAGES = Path(__file__).resolve().parent / "fixtures" / "pages"


def dead_address() -> str:
    """A loopback address where nothing answers (a port just freed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


class Tray:
    """The tray's side of the Backend: says yes to reading pages, and keeps each help done."""

    def __init__(self) -> None:
        self.backend: Backend | None = None
        self.helps: dict[int, Help] = {}
        self.done = threading.Event()

    def proposal(self, proposal: Proposal) -> None:
        pass

    def busy(self, busy: bool) -> None:
        pass

    def question(self, proposal_id: int, question: str) -> None:
        assert self.backend is not None
        self.backend.consent(proposal_id, "on")

    def help_done(self, proposal_id: int, task: str, result: Help, answers: bool) -> None:
        self.helps[proposal_id] = result
        self.done.set()

    def accept(self, proposal: Proposal) -> Help:
        assert self.backend is not None
        self.done.clear()
        self.backend.accept(proposal.id, 1.0)
        assert self.done.wait(30), "the help never finished"
        return self.helps[proposal.id]


def assistant(fake_model, reader: PageReader) -> Assistant:
    level = Proactivity.parse("high")
    return Assistant(None, Agent(fake_model), Gate(SignalScorer(), level), FeedbackMemory(),
                     TriggerPolicy(level.min_interval_s, min_gap_s=0), reader=reader)


def think(helper: Assistant, store: Store, now: float) -> Proposal:
    observations, episode_id, key = recent_context(store)
    return helper.think(store, observations, episode_id, "test", now, key)


def searched(store: Store) -> None:
    store.add_events([
        RawEvent("window", WINDOW, {"app": "Code", "title": "main.html - Visual Studio Code"}, ts=1000.0),
        RawEvent("keyboard", TEXT, {"text": "let box", "erase": 0, "enter": False}, ts=1001.0),
        RawEvent("window", WINDOW, {"app": "Firefox", "title": "js fade in - Google Search"}, ts=1003.0),
    ])


def test_an_accept_that_gave_nothing_holds_back_nothing_and_the_offer_that_can_is_made(proactive_home, fake_model):
    with page_server(PAGES) as server:
        store = Store()
        searched(store)
        # a result opened from the search whose site does not answer, then back to the file
        store.add_events([
            RawEvent("activitywatch", WEB, {"url": f"{dead_address()}/fading.html", "title": "Fading things - Old Blog",
                                            "browser": "Firefox"}, ts=1005.0),
            RawEvent("window", WINDOW, {"app": "Code", "title": "main.html - Visual Studio Code"}, ts=1010.0),
        ])
        helper = assistant(fake_model, PageReader("ask"))
        tray = Tray()
        tray.backend = Backend(helper, None, None, home.Config(web_search="ask"))
        tray.backend.connect(tray)
        first = think(helper, store, 1012.0)
        assert first.task is not None, first.decision
        nothing = tray.accept(first)
        assert "could be read" in nothing.text and not nothing.gave, nothing.text
        # the person reads a page that answers, then turns back to their file
        store.add_events([
            RawEvent("window", WINDOW, {"app": "Firefox", "title": "js fade in - Google Search"}, ts=1020.0),
            RawEvent("activitywatch", WEB, {"url": server.page("js_fade_in.html"),
                                            "title": "How to fade in an element with JavaScript - Web Notes",
                                            "browser": "Firefox"}, ts=1022.0),
            RawEvent("window", WINDOW, {"app": "Code", "title": "main.html - Visual Studio Code"}, ts=1030.0),
        ])
        helper.sync_decisions(store)  # the stored Accept, read back as live does: it gave nothing either
        second = think(helper, store, 1032.0)
        assert second.task is not None, second.decision
        assert second.decision is not None and not second.decision.held_back, second.decision.held_back
        assert {d.decision for d in helper.memory.decisions if not d.gave} == {ACCEPTED}
        given = tray.accept(second)
        assert given.gave and server.page("js_fade_in.html") in given.pages, given.text
        assert "requestAnimationFrame" in given.text
        # what was given holds the same help back from now on
        third = think(helper, store, 1040.0)
        assert third.task is None or "fade" not in third.task.lower(), third.task
        store.close()


@pytest.mark.parametrize("setting", ["ask", "on"])
def test_no_offer_at_a_search_whose_pages_cannot_be_had(proactive_home, fake_model, setting):
    """With web search to ask about, or on with an engine that does not answer, a search alone is no material:
    nothing is offered from its pages then (an Accept would read nothing)."""
    store = Store()
    searched(store)
    helper = assistant(fake_model, PageReader(setting, engine=f"{dead_address()}/search?q={{query}}"))
    proposal = think(helper, store, 1005.0)
    assert proposal.decision is not None and proposal.decision.prediction is not None, proposal.decision
    assert not any("js fade in" in task for task in proposal.decision.prediction.candidates), proposal.candidates
    store.close()


def test_an_offer_at_a_search_is_made_when_the_engine_answers(proactive_home, fake_model):
    with page_server(PAGES) as server:
        store = Store()
        searched(store)
        helper = assistant(fake_model, PageReader("on", engine=f"{server.url}/search?q={{query}}"))
        proposal = think(helper, store, 1005.0)
        assert proposal.task is not None and "js fade in" in proposal.task, proposal.decision
        assert ProposalLog(store).get(proposal.id) is not None
        store.close()
